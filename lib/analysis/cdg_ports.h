/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Channel dependency graph ([DallySeitz87], [Duato93]) of unicast routes
 * on one VL, as port masks, grown and checked incrementally: what a
 * router needs when it tries routes one LID at a time and keeps those
 * that close no credit loop. cdg.h remains the full analysis (several
 * VLs, multicast, any dependency).
 *
 * Only channels from a switch to a switch can be on a cycle: an
 * injection channel (end port -> switch) has no incoming dependency, an
 * ejection channel (switch -> end port) no outgoing one. So the graph
 * keeps, per switch-to-switch channel (node, port), a bitmask of the
 * out-ports of the switch that channel enters (ports 0..254): adding a
 * dependency is an OR. It is cyclic exactly when ibu_cdg (cdg.h) built
 * from the same routes on one VL is.
 *
 * A LID's dependencies are those of every end port's route to it in the
 * LFTs (a switch's LID ends at port 0), as ibu_cdg_add_lid follows them:
 * each switch those routes enter is walked once per LID, so a LID costs
 * O(switches).
 *
 * Trials: after ibu_cdg_ports_mark every dependency that is new is
 * logged; ibu_cdg_ports_find_new_cycle then searches only from the
 * channels those new dependencies lead to (a graph acyclic at the mark
 * can only have gained a cycle through one of them); rollback clears the
 * logged bits again, commit keeps them.
 * Topology-neutral.
 */
#ifndef IBU_CDG_PORTS_H
#define IBU_CDG_PORTS_H

#include "cdg.h"

struct ibu_cdg_ports {
	const struct ibu_fabric *f;
	int words;		/* 64-bit words per mask (ports 0..max) */
	int *base;		/* [node] channel of (node, port 0) */
	int num_ch;
	int *node_of;		/* [channel] its node */
	int *next;		/* [channel] channel of (the switch it enters,
				 * port 0); -1: no switch-to-switch channel */
	uint64_t *mask;		/* [channel * words] */
	int *starts;		/* switches with an end port cabled */
	int num_starts;
	uint64_t *seen;		/* [node] walked for LID lid0 + bit */
	uint32_t *vis;		/* [channel] met by the search (vstamp) */
	uint32_t vstamp;
	unsigned char *on;	/* [channel] on the search's path */
	int *dch, *dport;	/* search path: channel, next port to scan */
	uint64_t *log;		/* channel << 8 | port set since the mark */
	size_t nlog, logcap;
	int logging;
	int state, mark_state;	/* CDGP_* of cdg_ports.c */
	long deps;		/* dependencies (bits set) */
	/* add_unicast_lazy: */
	unsigned char *lazy;	/* [channel] its dependencies not taken yet */
	uint64_t *lazy_lids;	/* [lid / 64] the LIDs they are taken for */
	uint32_t lazy_last;
	const struct ibu_lft *lazy_lft;
};

int ibu_cdg_ports_init(struct ibu_cdg_ports *g, const struct ibu_fabric *f,
		       struct ibu_err *e);
void ibu_cdg_ports_free(struct ibu_cdg_ports *g);

/* Dependencies of every unicast route (LIDs of map, tables of lft). */
int ibu_cdg_ports_add_unicast(struct ibu_cdg_ports *g,
			      const struct ibu_lft *lft,
			      const struct ibu_lidmap *map, struct ibu_err *e);
/*
 * The same with fewer dependencies, the same answers (find_cycle,
 * find_new_cycle) as add_unicast gives, also after any add_lid, mark,
 * commit or rollback: a channel from a switch with end ports into one
 * without (most of a fat tree's routes start there) gets its
 * dependencies on the next switch's ports only once one leads into it;
 * no cycle crosses a channel nothing leads into. They are read from lft
 * then: until ibu_cdg_ports_free, the caller changes no entry of lft but
 * those of the LIDs in eager (whose dependencies are taken now), and
 * keeps its rows. On an empty graph only (else IBU_EINVAL).
 */
int ibu_cdg_ports_add_unicast_lazy(struct ibu_cdg_ports *g,
				   const struct ibu_lft *lft,
				   const struct ibu_lidmap *map,
				   const uint32_t *eager, int neager,
				   struct ibu_err *e);
/* The same for one LID (every end port's route to it). */
int ibu_cdg_ports_add_lid(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
			  uint32_t lid, struct ibu_err *e);

/*
 * The same for one LID, only the routes of one layer: layer 1 those with
 * a valley (a switch entered from a higher level[] and left to a higher
 * one: a down-up turn), layer 0 those without. Routers that put the
 * routes with a valley on a VL of their own check each VL's graph apart:
 * level[node] numbers switches from the leaves (1) up. Each end port's
 * route is walked whole (O(switches x hops)); a route that loops is taken
 * as one with a valley, up to 64 hops.
 */
int ibu_cdg_ports_add_lid_layer(struct ibu_cdg_ports *g,
				const struct ibu_lft *lft, uint32_t lid,
				const int *level, int layer,
				struct ibu_err *e);

/* dst: a copy of src's dependencies (init'ed here; free it); not of a
 * lazy graph (IBU_EINVAL: its channels not taken yet would be lost). */
int ibu_cdg_ports_copy(struct ibu_cdg_ports *dst,
		       const struct ibu_cdg_ports *src, struct ibu_err *e);
/* The dependencies of a multicast tree at one of its switches, flooded
 * from every member (cdg.h's rule): from each tree port to every other
 * one. */
int ibu_cdg_ports_add_tree(struct ibu_cdg_ports *g, int node,
			   const struct ibu_portmask *ports, struct ibu_err *e);

/* Does the channel out of (node, port) depend on out_port of the switch
 * it enters? (On a lazy graph: of what is taken so far.) */
int ibu_cdg_ports_has(const struct ibu_cdg_ports *g, int node, int port,
		      int out_port);

void ibu_cdg_ports_mark(struct ibu_cdg_ports *g);
void ibu_cdg_ports_commit(struct ibu_cdg_ports *g);
void ibu_cdg_ports_rollback(struct ibu_cdg_ports *g);

/*
 * Is the graph cyclic? Returns 1 (and, when cycle is not NULL, a
 * malloc'ed list of its channels, VL 0, each depending on the next, the
 * last on the first), 0 when acyclic, or a negative IBU_E* code.
 * find_cycle searches the whole graph; find_new_cycle, after
 * ibu_cdg_ports_mark, only from the dependencies added since when the
 * graph was known acyclic at the mark (else it searches everything, so
 * the answer is always the whole graph's).
 */
int ibu_cdg_ports_find_cycle(struct ibu_cdg_ports *g,
			     struct ibu_cdg_channel **cycle, int *len,
			     struct ibu_err *e);
int ibu_cdg_ports_find_new_cycle(struct ibu_cdg_ports *g,
				 struct ibu_cdg_channel **cycle, int *len,
				 struct ibu_err *e);

#endif
