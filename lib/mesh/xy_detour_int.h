/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Internal to the damaged-mesh planner: what planning the detours
 * (xy_detour.c) and rebalancing the plan inside its SL layers
 * (xy_rebalance.c) share.  Not part of the library's interface.
 */
#ifndef IBU_XY_DETOUR_INT_H
#define IBU_XY_DETOUR_INT_H

#include "mesh.h"
#include "xy_detour.h"

/* One layer's dependencies: succ[channel] bit k = channel -> (next, k);
 * channel = switch * 4 + direction. */
struct layers {
	int S, num;
	unsigned char *succ;		/* [layer * 4S + channel] */
	unsigned char *color;		/* DFS state */
	unsigned *seen;			/* search visit stamps */
	unsigned stamp;
	int *stack;
	const unsigned char *prio;	/* [s * S + d] 1: a detour pair that
					 * ended high in an earlier try, placed
					 * before the others; NULL: none */
	int *nb;			/* [channel] the switch it enters, -1:
					 * none (the mesh's geometry) */
	int *ord;			/* [layer * 4S + channel] a topological
					 * order of the layer's channels */
	struct slot { int ord, ch; } *fw, *bw;	/* insert(): the channels
					 * it reorders, 4S each */
};

/* Ties between directions, in this order. */
extern const int ibu_xyd_pref[IBU_DIRS];

/* neighbour of sw through a surviving cable toward d, -1 if none */
int ibu_xyd_hop(const struct ibu_mesh *t, int sw, int d);
/* 1 when the XY path from s to d survives. */
int ibu_xyd_xy_survives(const struct ibu_mesh *t, int s, int d);
/* BFS distances to d (dist), switches in BFS order (queue); how many
 * switches reach d. */
int ibu_xyd_distances(const struct ibu_mesh *t, int d, int *dist, int *queue);
/* An all-to-all's flows toward d added (sign 1) to or taken (-1) from
 * the channel loads; w: [switch] scratch. */
void ibu_xyd_add_flows(const struct ibu_mesh *t, int d, const int *queue,
		       int reached, long *w, long *load, int sign);
/* d's column of next hops before its tree: none but d itself. */
void ibu_xyd_clear_tree(struct ibu_mesh_damage *g, int S, int d);
/* A topological order of layer l's channels; IBU_ETOPO on a cycle. */
int ibu_xyd_order_layer(struct layers *L, int l, struct ibu_err *e);
/* (s, d)'s route placed in layer l; non-zero (nothing changed) when it
 * would close a cycle.  ch, saved: scratch. */
int ibu_xyd_place_route(struct layers *L, const struct ibu_mesh *t, int l,
			int s, int d, int *ch, unsigned char *saved);
/* The multicast tree's flooding dependencies into succ. */
void ibu_xyd_add_mcast_tree(const struct ibu_mesh *t, unsigned char *succ);
int ibu_xyd_layers_alloc(struct layers *L, const struct ibu_mesh *t,
			 int max_layers, struct ibu_err *e);
void ibu_xyd_layers_free(struct layers *L);

/* The plan rebalanced inside its own layers (xy_rebalance.c). */
int ibu_xyd_improve_plan(struct ibu_mesh *t, struct ibu_err *e);
/* Trees built and placed together in nl layers around the current
 * multicast tree's flooding in layer ml (xy_rebalance.c). */
int ibu_xyd_layered_plan(struct ibu_mesh *t, int nl, int ml, int slack,
			 struct ibu_err *e);

#endif
