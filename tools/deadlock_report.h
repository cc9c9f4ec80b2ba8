/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * `ibunion check --deadlock`: the channel dependency graph (lib/cdg.h) of
 * the unicast tables, optionally of multicast flooded from every member,
 * per VL when SL2VL tables and/or a VL plan are given; prints one cycle.
 */
#ifndef IBU_DEADLOCK_REPORT_H
#define IBU_DEADLOCK_REPORT_H

#include <stdio.h>
#include "fabric.h"
#include "lft.h"

struct ibu_deadlock_opts {
	const char *mcast;	/* MFT dump, NULL: unicast only */
	const char *members;	/* member file, NULL: inferred from the MFTs */
	const char *sl2vl;	/* opensm-sl2vl.dump, NULL: none */
	const char *vl_plan;	/* paper 001 plan (mesh only), NULL: none */
	int quiet;
};

/* Returns IBU_EXIT_OK (acyclic), IBU_EXIT_FAIL (a cycle, printed) or
 * IBU_EXIT_ERROR. f must carry the LIDs lft was read with. */
int ibu_deadlock_report(FILE *out, struct ibu_fabric *f,
			const struct ibu_lft *lft,
			const struct ibu_deadlock_opts *o);

#endif
