/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine tables the unit tests run directly, declared as the registry
 * (lib/engine/engine_registry.c) declares them: engine.h names no engine;
 * a fabric given the LIDs an engine assigns (with_lids).
 */
#ifndef IBU_TEST_ENGINES_H
#define IBU_TEST_ENGINES_H

#include "engine.h"
#include "unit.h"

extern const struct ibu_engine_ops ibu_engine_cyclic;
extern const struct ibu_engine_ops ibu_engine_xy;

/* f with the engine's own LIDs at lmc (the plugin's LIDs come from OpenSM) */
static inline void with_lids(const struct ibu_engine_ops *ops,
			     struct ibu_fabric *f,
			     const struct ibu_engine_opts *o, int lmc)
{
	struct ibu_err e = { 0 };
	enum ibu_engine_decline_kind kind;
	void *topo;
	int used;

	ck_assert_msg(ops->recognise(f, o, &topo, &kind, &e) == 0, "%s", e.msg);
	ck_assert_msg(ops->assign_lids(f, topo, lmc, 0, &used, &e) == 0, "%s",
		      e.msg);
	ops->topo_free(topo);
}

#endif
