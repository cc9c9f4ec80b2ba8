/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Unicast on a damaged mesh (lib/mesh/mesh_faults.h), deadlock-free by layers.
 *
 * Next hops, per destination switch d (a forwarding table holds one port
 * per destination, so a detour is a property of d's routing tree), from
 * one of two kinds of trees:
 *   - balanced: every switch takes, among its neighbours one hop closer to
 *     d in the surviving graph, the one whose way on has the least busiest
 *     channel, then the least load sum, over the all-to-all flows of the
 *     destinations before d (the XY way where it is within a slack of the
 *     best: 0, 25 or 100%); the detours and the XY traffic around them
 *     spread, as dfsssp's weights spread minhop's;
 *   - XY first: XY wherever the XY path from the switch to d survives,
 *     elsewhere the neighbour one hop closer whose own route to d has the
 *     fewest turns; ties in direction order E, N, W, S.
 * The plan keeps, of the balanced trees that fit in 2 layers and the XY
 * first ones, those whose all-to-all busiest channel is least. Every route
 * is a shortest path of the surviving graph.
 *
 * Layers (as LASH does): each (source switch, destination switch) pair
 * gets a layer, the SL of its packets, each SL one VL. Pairs on their
 * XY path share layer 0 (XY routes alone are free of cycles); each detour
 * pair, in (source, destination) order, takes the lowest layer whose
 * channel dependency graph stays acyclic with its hops added. Only
 * switch-to-switch channels can close a cycle (injection channels have no
 * predecessor, ejection channels no successor), so the graph has 4
 * channels per switch with at most 4 successors each.
 * The VL of a hop is SL2VL[in][out][SL] = the layer of SL alone, so a
 * packet keeps its layer from source to destination.
 */
#ifndef IBU_XY_DETOUR_H
#define IBU_XY_DETOUR_H

#include "fabric.h"
#include "lidmap.h"
#include "lft.h"
#include "mesh_faults.h"

/* Computes t->dmg's dir, xy and layer tables (at most max_layers layers;
 * IBU_ETOPO naming what is needed beyond it). */
int ibu_xy_detour_plan(struct ibu_mesh *t, int max_layers,
		       struct ibu_err *e);

/* Direction at switch sw toward switch dst (IBU_DIR_LOCAL at dst, -1 if
 * dst cannot be reached). */
int ibu_xy_detour_dir(const struct ibu_mesh *t, int sw, int dst);

/* Why the pair (src switch, dst switch) takes a detour: 1 and "the XY
 * path N(..) -> N(..) meets missing switch N(x,y)" / "... missing cable
 * N(a,b) E - N(c,d)" in buf; 0 when its XY path survives. */
int ibu_xy_detour_why(const struct ibu_mesh *t, int src, int dst, char *buf,
		      size_t len);

/* Layer of the pair (src switch, dst switch), 0 if either is unknown. */
int ibu_xy_detour_layer(const struct ibu_mesh *t, int src, int dst);



/*
 * SLs and VLs of a damaged mesh on top of a vl_plan of P VLs (lib/mesh/vlplan.h):
 * unicast layer l owns SLs 1+l*P .. 1+l*P+P-1 and VLs l*P .. l*P+P-1;
 * inside a layer the plan works as on an intact mesh. SL 0 (multicast,
 * and traffic that never asked for a path) maps to the layer the
 * multicast flooding was put in; SLs beyond the layers map to layer 0.
 */
#include "vlplan.h"

/* Data VLs (and SLs) the layers need: num_layers * P. */
int ibu_xy_detour_num_vls(const struct ibu_mesh *t, enum ibu_vlplan_kind k);
/* SL of the path from end point (src_node, src_port) to the owner of dlid;
 * 0 when either is unknown. */
int ibu_xy_detour_path_sl(const struct ibu_mesh *t, enum ibu_vlplan_kind k,
			  const struct ibu_lidmap *map, int src_node,
			  int src_port, uint32_t dlid);
/* SL2VL of (node, in_port, out_port); IBU_EINVAL as ibu_vlplan_sl2vl(). */
int ibu_xy_detour_sl2vl(enum ibu_vlplan_kind k, const struct ibu_mesh *t,
			int node, int in_port, int out_port,
			uint8_t vl_of_sl[16]);
/* The layers as the channel dependency graph's VL description (lib/analysis/cdg.h);
 * ctx as for ibu_vlplan_cdg_vl(). */
void ibu_xy_detour_cdg_vl(struct ibu_cdg_vl *vl, struct ibu_vlplan_cdg *ctx);

/*
 * Multicast on a damaged mesh: every group's tree is the part of one
 * spanning tree (t->dmg->mup: shortest paths from a root on the middle
 * row, XY from the root where it survives) that joins the member switches
 * to its root: a tree, so flooding it from any member gives every
 * receiving member exactly one copy. Its flooding runs on SL 0, mapped to
 * the lowest layer that stays acyclic with it after every unicast pair
 * was placed, so unicast + multicast stay free of credit loops per VL. Output as ibu_xy_mcast_tree_build() (policy
 * and load are not used: one root for all groups).
 */
#include "xy_mcast.h"

int ibu_xy_detour_mcast_tree(const struct ibu_fabric *f,
			     const struct ibu_mesh *t,
			     const struct ibu_mcast_member *members, int num,
			     struct ibu_xy_mcast_tree *tree,
			     struct ibu_err *e);

#endif
