/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * `ibunion check --deadlock`: the channel dependency graph (lib/analysis/cdg.h) of
 * the unicast tables, optionally of multicast flooded from every member,
 * per VL when SL2VL tables and/or a VL plan are given; prints one cycle.
 */
#ifndef IBU_DEADLOCK_REPORT_H
#define IBU_DEADLOCK_REPORT_H

#include <stdio.h>
#include "fabric.h"
#include "lft.h"
#include "engine.h"

struct ibu_deadlock_opts {
	const char *mcast;	/* MFT dump, NULL: unicast only */
	const char *members;	/* member file, NULL: inferred from the MFTs */
	const char *sl2vl;	/* opensm-sl2vl.dump, NULL: none */
	/* non-NULL: SLs (and, without sl2vl, VLs) of this engine's VL plan
	 * (ops->vl.path_sl, ops->vl.sl2vl) with the options eo */
	const struct ibu_engine_ops *vl_engine;
	const void *topo;
	const struct ibu_engine_opts *eo;
	int quiet;
};

/* Returns IBU_EXIT_OK (acyclic), IBU_EXIT_FAIL (a cycle, printed) or
 * IBU_EXIT_ERROR. f must carry the LIDs lft was read with. */
int ibu_deadlock_report(FILE *out, struct ibu_fabric *f,
			const struct ibu_lft *lft,
			const struct ibu_deadlock_opts *o);

#endif
