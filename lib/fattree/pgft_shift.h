/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The shift pass's state (pgft_shift.c), shared with the eBB pass
 * (pgft_ebb.c) that runs on it after: the shift and all-to-all loads,
 * the moves' walks and the credit-loop check, kept in one place.
 */
#ifndef IBU_PGFT_SHIFT_H
#define IBU_PGFT_SHIFT_H

#include <stdint.h>
#include "cdg_ports.h"
#include "pgft_bisect.h"
#include "pgft_router.h"

/* Hops a walk follows at most (as pgft_balance.c). */
#define WALK_HOPS 12

struct shp {
	struct router *r;
	long N;
	size_t nslots;
	uint32_t *kload;	/* [k nslots + cell]: shift k's load (k >= 1) */
	uint32_t *a2a;		/* [cell]: the all-to-all, sum over k */
	int *peer;		/* [cell]: the node the port leads to, -1 */
	uint32_t *lid;		/* [D]: base LID */
	unsigned char *fixed;	/* [D]: its LID routed by turns (moved
				 * only onto a twin cable before the
				 * turn or a minimal way after it) */
	int have_cdg;		/* the shared graph (pgft_cdg.c) built,
				 * once a change is to be kept */
	int *nw;		/* [k]: cells of shift k at W */
	int *nw0;		/* [k]: nw before the try */
	long W, nsh;		/* the worst shift, shifts at it */
	uint32_t cap;		/* the all-to-all's busiest */
	int t;			/* leaf whose ud the router holds, -1 */
	int *lleaf, nleaf;	/* leaves with hosts */
	long *lhosts;		/* [node]: hosts on it */
	int *lstart, *lhost;	/* hosts of leaf rank j: lhost[lstart[j]..] */
	int *hrank;		/* [S]: its leaf's rank */
	int *wc, *wlen;		/* [(j N + D) hops], [j N + D]: the walk
				 * from leaf rank j to D as the tables
				 * stood at the last measure, its length
				 * (the eBB pass keeps them current) */
	int *mv;		/* leaves whose path crosses the switch */
	int mvD, mvn, nmv;	/* whose they are (mvD -1: none) */
	int *mv2;		/* the same for a swap's partner */
	int *kmark, kstamp;	/* [k]: a swap's shifts listed once */
	long *klist;
	int nk;
	int pc[WALK_HOPS], pn[WALK_HOPS], npc;	/* the partner's walks */
	long ptries;		/* swaps tried */
	long pwalks;		/* walks to find partners */
	int *nmark, nstamp;	/* [node]: a partner's switches once */
	int pairs;		/* swaps too, where no single change does */
	struct ibu__bisect bs;	/* the eBB estimate's sample */
	int oldc[WALK_HOPS], newc[WALK_HOPS], nold, nnew;
	long tries, moved;
	int guard;		/* only changes that add no square load */
	struct undo_rec { int node, D; uint8_t port, pair; } *log;
	int nlog;		/* changes kept, for an unguarded round's undo */
	struct ibu_err *e;
	int rc;			/* an error stops the pass */
};

/* Cells of the walk from switch n toward leaf t for lid (at most hops);
 * the count, -1 when it does not arrive. */
int ibu__shp_walk(const struct shp *sp, int n, int t, uint32_t lid,
		  int *cells, int hops);
/* The shifts' loads and the all-to-all by the tables as they stand, W
 * and the shifts at it. */
void ibu__shp_measure(struct shp *sp);
/* The router's ud and closure for leaf t. */
void ibu__shp_prepare(struct shp *sp, int t);
/* 1 when port p of switch n is a minimal up*|down* way toward the leaf
 * prepared. */
int ibu__shp_is_way(const struct shp *sp, int n, int p);
/* 1 when D's LID is routed by turns and port p of switch n is a cable
 * parallel to the one its entry takes (as long a route, the same turn). */
int ibu__shp_twin_cable(const struct shp *sp, int n, int p, int D);
/* The source leaves whose walk to D crosses switch n (sp->mv); their
 * count. */
int ibu__shp_movers(struct shp *sp, int D, int n);
/* The moved leaves' flows to D off (d = -1) or onto (d = 1) cells, on
 * the shift and all-to-all loads; 1 when a shift's cell goes above W. */
int ibu__shp_move(struct shp *sp, int D, int m, int d, const int *cells,
		  int nc);
/* 1 when lid's routes close no credit loop (then in the graph), 0 when
 * they do, < 0 an error (in sp->e). */
int ibu__shp_no_cycle(struct shp *sp, uint32_t lid);
/* The eBB pass (pgft_ebb.c) on the state the shift pass leaves. */
int ibu__pgft_raise_ebb(struct shp *sp);

#endif
