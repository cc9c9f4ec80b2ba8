/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * XY unicast routing on a recognised 2-D mesh ([Zhou10], sect. 3.2 and
 * 3.3.1, with the errata: row stride n on an m x n mesh).
 *
 * At N(x,y) for a LID whose owner sits at (or is) N(xd,yd):
 *   xd > x  east     (case 1)        xd < x  west   (case 2)
 *   xd = x, yd > y  north (case 3)   xd = x, yd < y  south (case 4)
 *   xd = x, yd = y  the switch port of the owning end port, or port 0 for
 *                   the switch's own LID.
 * Every LID of an end port's LMC set takes the same route (LMC 0 is
 * enough for XY). Switch LIDs are routed the same way.
 *
 * The paper's addressing (sect. 3.1): N(x,y) gets lid = x * n + y + 1,
 * i.e. switch index + 1, row-major with row stride n. With several end
 * ports per switch they are numbered switch by switch (port GUID order):
 * end port number r (0-based) gets base LID 2^lmc * (r + 1) (aligned for
 * OpenSM; with one end port per switch and LMC 0 exactly x * n + y + 1) or,
 * paper-exact, 2^lmc * r + 1. Switch LIDs follow the last end-port set, in
 * switch index order.
 */
#ifndef IBU_XY_H
#define IBU_XY_H

#include "fabric.h"
#include "lidmap.h"
#include "lft.h"
#include "mesh.h"

/* Direction (IBU_DIR_*) XY takes at switch sw toward switch dst;
 * IBU_DIR_LOCAL when sw == dst. */
int ibu_xy_dir(const struct ibu_mesh *t, int sw, int dst);

/* Switch index where the owner of a LID sits; -1 (and IBU_ETOPO in e)
 * when the owner is not part of the mesh. *port receives the switch's
 * physical port toward the owner (0 for the switch's own LID). */
int ibu_xy_owner_switch(const struct ibu_mesh *t,
			const struct ibu_lid_owner *o, int *port);

/* The XY out port at switch sw for lid (IBU_NO_PATH if lid has no owner
 * in the mesh). */
uint8_t ibu_xy_port(const struct ibu_mesh *t, const struct ibu_lidmap *map,
		    int sw, uint32_t lid);

/* Fills lft (initialised to at least map->max_lid) for every mesh switch
 * and every LID with an owner: XY on an intact mesh, the detour plan
 * (lib/mesh/xy_detour.h) on a damaged one, where LIDs of a cut-off part
 * stay IBU_NO_PATH. IBU_ETOPO if an owner is outside the mesh. */
int ibu_xy_route(const struct ibu_fabric *f, const struct ibu_mesh *t,
		 const struct ibu_lidmap *map, struct ibu_lft *lft,
		 struct ibu_err *e);

/*
 * Writes the paper's LIDs into f (see above); every other port's LID is
 * cleared. IBU_ELID when they do not fit the unicast LID space.
 */
int ibu_xy_assign_lids(struct ibu_fabric *f, const struct ibu_mesh *t,
		       int lmc, int paper_exact, struct ibu_err *e);

/* One entry that differs from XY, for ibu_xy_verify()'s callback. */
struct ibu_xy_mismatch {
	int node;		/* switch */
	uint32_t lid;
	int have, want;		/* out ports */
};

/*
 * Compares every entry of every mesh switch for every LID with an owner
 * against XY. fn (may be NULL) is called for each mismatch; returns the
 * number of mismatches in *bad and of entries compared in *entries.
 */
int ibu_xy_verify(const struct ibu_mesh *t, const struct ibu_lidmap *map,
		  const struct ibu_lft *lft,
		  void (*fn)(void *ctx, const struct ibu_xy_mismatch *mm),
		  void *ctx, long *entries, long *bad, struct ibu_err *e);

#endif
