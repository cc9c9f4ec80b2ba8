/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * lib/engine/engine_registry.c plus two lines: the registry of the test builds
 * (tests/ibunion-pair, tests/libibunion_pair.so) that carry the test
 * engine "pair" (tests/engine_pair.c) next to the real ones.
 */
#include <stddef.h>
#include "engine.h"

extern const struct ibu_engine_ops ibu_engine_xy;
extern const struct ibu_engine_ops ibu_engine_cyclic;
extern const struct ibu_engine_ops ibu_engine_pair;

static const struct ibu_engine_ops *const engines[] = {
	&ibu_engine_xy,
	&ibu_engine_cyclic,
	&ibu_engine_pair,	/* the one line a new engine adds */
	NULL,
};

const struct ibu_engine_ops *const *ibu_engine_list(void)
{
	return engines;
}
