/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine registry: the only file that names the engines. A new engine
 * is two lines here (its ops table lives with its code; engine.h names
 * none, and the tool's --NAME flags come from this list). The order is the
 * order of detection and of the option list (the plugin's registration
 * line: vl_plan= before max_faults= and offsets=).
 *
 * Alone in its file, and weak, so that a test build links its own
 * registry (tests/engine_registry_pair.c) in place of this one, in the
 * tool and in the plugin alike.
 */
#include <stddef.h>
#include "engine.h"

/* each table lives with its engine: lib/mesh/engine_xy.c,
 * lib/fattree/engine_cyclic.c */
extern const struct ibu_engine_ops ibu_engine_xy;
extern const struct ibu_engine_ops ibu_engine_cyclic;

static const struct ibu_engine_ops *const engines[] = {
	&ibu_engine_xy,
	&ibu_engine_cyclic,
	NULL,
};

__attribute__((weak))
const struct ibu_engine_ops *const *ibu_engine_list(void)
{
	return engines;
}
