/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Internal to the PGFT router: its per-switch port indexes and the
 * per-destination state that pgft_route.c (the rule) and pgft_balance.c
 * (fault-aware balance on damaged trees) share. Not a public API.
 */
#ifndef IBU_PGFT_ROUTER_H
#define IBU_PGFT_ROUTER_H

#include "pgft.h"
#include "lft.h"
#include "lidmap.h"
#include "cdg_ports.h"
#include <limits.h>

/* A compute host waiting in the batch. */
struct host_job {
	long x[IBU_PGFT_MAX_H + 1];	/* ibu_pgft_digits */
	uint32_t base;
	int nlids;
	int leaf, port;		/* its switch and the port there */
	int seq;		/* arrival: ties keep it */
	int rd;			/* r_l(D) of the level being written */
	uint32_t pid;		/* paper rule: D's PID */
};

/* Hosts routed per batch: each batch writes every row once, in runs the
 * cache lines and the prefetcher follow (64 per batch cost IBFT(24,3)
 * a cold line per row per batch). */
#define HOST_BATCH 4096

/* A LID routed with down-up turns once everything else is routed. */
struct turn_job {
	uint32_t lid;
	int t, host_port;	/* its switch; port 0 or the host's port */
	int keep;		/* the switches with a way keep their rows
				 * (a balanced host LID) */
};

struct router {
	const struct ibu_fabric *f;
	const struct ibu_pgft *g;
	const struct ibu_lidmap *map;
	struct ibu_lft *lft;
	int levels;		/* offset digits in use */
	long R[IBU_PGFT_MAX_H + 2];
	int U[IBU_PGFT_MAX_H + 1];
	int *above;		/* [node] stamp: switch above the target */
	int *child;		/* [node] port toward the target (down) */
	int *dist;		/* [node] up*|down* / plain distance */
	int *queue;
	int stamp;
	int *by_level[IBU_PGFT_MAX_H + 1];	/* switches of each level */
	int *nlevel;
	/* per switch, built once: the scans per destination then touch
	 * only the ports that can be on its route */
	int *pbase;		/* [node]: first slot of its ports 0..n */
	int *upbase;		/* [node]: first slot in upp, nup entries */
	int *nup;
	int *upp;		/* ports to the level above, by port number */
	int *upn;		/* their peer switches */
	int *nbbase;		/* [node]: first slot in nbp, nnb entries */
	int *nnb;
	int *nbp;		/* ports to any switch, by port number */
	int *nbn;		/* their peer switches */
	int *dnbase;		/* [node]: first slot in dnn, ndn entries */
	int *ndn;
	unsigned char *hosted;	/* [node]: a switch with an end port cabled */
	int *dnn;		/* distinct switch neighbours: the plain BFS */
	int *gstart;		/* [pbase + port]: its parallel group in gports */
	int *glen;		/* [pbase + port]: cables in that group */
	int *gports;		/* ports grouped by peer, by port number */
	struct host_job *jobs;	/* capjobs of them; njobs waiting */
	uint32_t *jbase;	/* [job] its base LID, */
	int *jrd;		/* its r_l(D) of the level being written */
	int njobs, capjobs;
	int *clos_q;		/* leaf_closure() of clos_leaf */
	int *clos_c;
	int nclos, clos_leaf;
	int clos_tops;		/* its switches on the top level */
	const struct ibu_pgft_paper *paper;	/* NULL: the generalised rule */
	struct ibu_pgft_route_stats st;
	int extras;		/* a damaged uneven tree's last hosts placed
				 * as damaged LIDs (pgft_route.c) */
	int *ud;		/* [node] up*|down* hops to a leaf */
	/* pgft_turn.c: switches with no up*|down* way to a target */
	int *tdist;		/* [node] up*|down* hops to the target, -1 */
	int *turnb;		/* those switches */
	int *turnc;		/* candidate turn switches, nearest first */
	struct turn_job *defer;	/* LIDs whose turns end ports cross */
	int ndefer;
	int *turnx;		/* [node] 1 + its rank as a turn switch, 0 */
	int *pdist;		/* plain hops to the target */
	int *plain;		/* ibu__pgft_balance's scratch */
	int nturnx;
	int spread_lmc;		/* route_updown's choices by base LID and
				 * offset (a host's base LIDs share their low
				 * bits), 0: by LID */
	int *upcnt, *upcnt_st;	/* [node] up-cables into the closure; its stamp */
	int *lvabove;		/* [level]: its switches in that closure */
	struct pgft_twins *tw;	/* pgft_plain.c */
	struct twin_tpl *rec;	/* the twin LID being recorded, NULL */
	int *mem;		/* the block the int arrays above are in */
	/* pgft_cdg.c: every route's channel dependencies, built by the first
	 * pass after the turns that needs them, kept for the next */
	struct ibu_cdg_ports cdg;
	int cdg_on;		/* cdg built */
	int levels_ok;		/* every switch-to-switch cable joins
				 * adjacent levels */
	int cdg_cyclic;		/* it had a cycle when built */
};

/* Leaf t's up-closure (clos_*), every switch's up*|down* hops to it (ud;
 * hopn[d] += how many at d hops, d <= 2 IBU_PGFT_MAX_H). */
void ibu__pgft_leaf_closure(struct router *r, int t);
void ibu__pgft_updown_dist(struct router *r, int t, int *hopn);
/* The same for t when ud holds prev's and prev is a level-1 sibling of t
 * (the same up-peers): only t's and prev's hops change, hopn as prev's;
 * 0 (nothing done) when they are not such a pair. */
int ibu__pgft_updown_sibling(struct router *r, int t, int prev);
/* Plain hops from switch t into d (switches' entries); s's port to a
 * neighbour at hops want, the lid-th of them (IBU_NO_PATH: none). */
void ibu__pgft_plain_dist(struct router *r, int t, int *d);
int ibu__pgft_pick_plain(const struct router *r, int s, const int *dist,
			 int want, uint32_t lid);
/* lid's entries at the nb switches in turnb with no up*|down* way to t:
 * one down-up turn at one switch (pgft_turn.c), deferred when end ports'
 * routes cross them; route_deferred after every other LID. */
int ibu__pgft_route_turned(struct router *r, int t, int host_port,
			   uint32_t lid, int nb, struct ibu_err *e);
int ibu__pgft_route_deferred(struct router *r, struct ibu_err *e);
/* A compute host's LID that leaves with no up*|down* way to leaf t (a
 * cut up-cable on each side, no common ancestor left): routed after every
 * other LID by one turn, the switches with a way keeping their rows. */
void ibu__pgft_defer_host(struct router *r, int t, int host_port,
			  uint32_t lid);
/* Every switch's up*|down* entry toward t for lid; returns how many have
 * none (in turnb). */
int ibu__pgft_route_updown(struct router *r, int t, int host_port,
			   uint32_t lid, int only_b);
/* t's up-closure (in r->queue; returns its size) and the up-cable counts
 * climb_choice reads. */
int ibu__pgft_mark_above(struct router *r, int t, uint32_t lid);
/* uni: the distance every switch of the level above not above the target
 * has (_NONE: none yet, _MIXED: they differ), as ibu__pgft_uni_add()
 * gathers it while that level is walked. */
#define IBU__UNI_NONE INT_MIN
#define IBU__UNI_MIXED (INT_MIN + 1)
static inline void ibu__pgft_uni_add(int *uni, int d)
{
	if (*uni == IBU__UNI_NONE)
		*uni = d;
	else if (*uni != d)
		*uni = IBU__UNI_MIXED;
}
/* Twin switches (pgft_plain.c). */
int ibu__pgft_twins_init(struct router *r, struct ibu_err *e);
void ibu__pgft_twins_free(struct router *r);
/* A switch's candidate ports toward one target (ascending; in the port
 * lists or buf), the LID picks the (lid mod k)-th; k = 0: none. */
struct ibu__choice {
	const int *list;
	int k;
	int buf[IBU_MAX_PORTS];
};

static inline int ibu__choice_port(const struct ibu__choice *c, uint32_t lid)
{
	return c->k ? c->list[lid % (uint32_t)c->k] : IBU_NO_PATH;
}

/* pick_plain as a choice (pgft_plain.c). */
void ibu__pgft_plain_choice(const struct router *r, int s, const int *dist,
			    int want, struct ibu__choice *c);
/* A switch's own LID (pgft_plain.c): replayed from a twin's, else routed
 * and recorded for its twins (rec_note: each switch not above it). */
#define IBU__TPL_UPDOWN 1
#define IBU__TPL_PLAIN 2
#define IBU__TPL_UNROUTED 3
int ibu__pgft_route_switch(struct router *r, int t, uint32_t lid,
			   struct ibu_err *e);
void ibu__pgft_rec_note(struct router *r, int s, int kind,
			const struct ibu__choice *c);
/* s's up-ports to a parent at the least distance (sets dist[s]); pick_up
 * without a scan where uni or the counts decide. */
void ibu__pgft_pick_up(struct router *r, int s, struct ibu__choice *c);
void ibu__pgft_climb_choice(struct router *r, int s, int uni,
			    struct ibu__choice *c);

/* Switch s's up-ports in the rule's order (the paper's on r->paper). */
static inline const int *ibu__pgft_up(const struct router *r, int s)
{
	return r->paper ? r->paper->up[s] : r->g->up[s];
}

/* r_l(D) at level l: floor(D / W_l) mod U_l (x: ibu_pgft_digits of D),
 * or the paper's (0 where the offset decides, else the PID's digit). */
int ibu__pgft_rotation(const struct router *r, const long *x, uint32_t pid,
		       int l);
/* Every compute host's LIDs on a PGFT with faults (pgft_balance.c);
 * plain: scratch of a node each. */
int ibu__pgft_balance(struct router *r, int *plain, struct ibu_err *e);
/* After the turns, the all-to-all's busiest cables shed where one entry at
 * a time can (pgft_shed.c); damaged trees whose routes turn, up to 512
 * end ports. */
int ibu__pgft_shed_turned(struct router *r, struct ibu_err *e);
/* The worst shift of a damaged PGFT's base LIDs lowered where one entry
 * at a time can (pgft_shift.c); up to 512 hosts. */
int ibu__pgft_lower_shift(struct router *r, struct ibu_err *e);
/* The graph of every route as the tables hold them, built at the first
 * call and kept (pgft_cdg.c); 1: it had a cycle when built, 0, < 0 an
 * error. */
int ibu__pgft_cdg_build(struct router *r, struct ibu_err *e);
/* lid's routes from every end port into g: all of them, or with
 * st.layered only those with a down-up turn (on VL 1: the routes without
 * one go up*|down* on VL 0, acyclic whatever they are). */
int ibu__pgft_cdg_add_lid(const struct router *r, struct ibu_cdg_ports *g,
			  uint32_t lid, struct ibu_err *e);
/* VL 1's graph: every deferred LID's routes with a turn (only those
 * turn; ibu__pgft_cdg_add_lid with st.layered). */
int ibu__pgft_cdg_add_deferred(const struct router *r,
			       struct ibu_cdg_ports *g, struct ibu_err *e);
/* st.layered: how many deferred LIDs some end port reaches over a turn;
 * none: st.layered 0 (every route on SL 0). */
void ibu__pgft_count_layered(struct router *r);
/* Does lid's routes as the tables now hold them close a credit loop with
 * the graph (kept there if not)? 1 yes, 0 no, < 0 an error. */
int ibu__pgft_cdg_cycle(struct router *r, uint32_t lid, struct ibu_err *e);
void ibu__pgft_cdg_free(struct router *r);

#endif
