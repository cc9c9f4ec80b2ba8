/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast trees on a 2-D mesh ([Zhou10], sect. 3.3.2): the union of the
 * XY paths from the group's root switch to the switch of every member.
 * XY paths from one root form a tree (the root's row, then one column per
 * member column), so flooding it gives every receiving member exactly one
 * copy whichever member sends.
 *
 * Output per switch: both ends of every tree link, the switch port of every
 * receiving CA member, port 0 when the switch itself is a receiving member.
 * Send-only members' CA ports are not in the tree (they do not receive);
 * the path to their switch is.
 *
 * Credit loops. A packet from a member climbs toward the root (Y moves
 * toward the root's row, then X moves along it) while the tree fans out;
 * the turn from Y into the root row is a Y-to-X turn that XY unicast never
 * makes. Trees whose roots sit on different rows can close a cycle in the
 * channel dependency graph with each other and with unicast. Hence:
 *
 *   ROOT ROW: the `balanced` and `lowest-guid` policies put every root on
 *   one common row, y0 = (n - 1) / 2 (the middle row of the canonical
 *   orientation, lib/mesh/mesh.h). Then every Y-to-X turn of every tree happens
 *   on row y0, and unicast XY + all such trees with every member sending
 *   are free of credit loops on one VL. Proof: XY's own dependencies are
 *   acyclic (X->X, X->Y, Y->Y same direction). A cycle would need a Y-to-X
 *   turn, i.e. a channel entering row y0 from a column, then X channels
 *   along row y0 (one direction) and an X-to-Y turn leaving row y0; after
 *   that the packet only moves away from y0 (Y->Y straight on: no turn
 *   back toward y0 exists, unicast or multicast), so it never enters row
 *   y0 again and the cycle cannot close. `ibunion check --deadlock`
 *   verifies it on the real tables.
 *
 *   SOURCE: the paper's tree rooted at the switch of a send-only member
 *   (the lowest end-port rank); roots on different rows are NOT proven
 *   free (a few such groups on a 4x4 mesh already close a cycle).
 *   A group without a send-only CA member falls back to `balanced`.
 *
 * Candidates on the root row are the switches between the leftmost and the
 * rightmost member column (so the root never lengthens the tree; every
 * candidate gives the same links). `balanced` takes the one with the fewest
 * trees rooted there, then the fewest trees through it, then the lowest x;
 * `lowest-guid` the lowest node GUID.
 */
#ifndef IBU_XY_MCAST_H
#define IBU_XY_MCAST_H

#include "fabric.h"
#include "mesh.h"
#include "mft.h"
#include "mcgroup.h"
#include "mcload.h"

/* Trees so far per switch (lib/analysis/mcload.h counters, aliased), recorded
 * under caller keys (MLIDs). */
struct ibu_xy_mcast_load {
	struct ibu_mcload core;		/* kind 0 roots, kind 1 switches */
	int num_switches;
	uint32_t *rooted;		/* [switch index] trees rooted there */
	uint32_t *through;		/* [switch index] trees through it */
};

int ibu_xy_mcast_load_init(struct ibu_xy_mcast_load *l,
			   const struct ibu_mesh *t, struct ibu_err *e);
void ibu_xy_mcast_load_free(struct ibu_xy_mcast_load *l);
void ibu_xy_mcast_load_release(struct ibu_xy_mcast_load *l, uint32_t key);
void ibu_xy_mcast_load_prune(struct ibu_xy_mcast_load *l,
			     int (*alive)(void *ctx, uint32_t key), void *ctx);
int ibu_xy_mcast_load_count(const struct ibu_xy_mcast_load *l);
/* Records tree under key in place of the key's previous tree (trees built
 * elsewhere, e.g. on a damaged mesh, count in the load as well). */
struct ibu_xy_mcast_tree;
int ibu_xy_mcast_load_record(struct ibu_xy_mcast_load *l, uint32_t key,
			     const struct ibu_xy_mcast_tree *tree,
			     struct ibu_err *e);

/* The common root row y0 = (n - 1) / 2. */
int ibu_xy_mcast_root_row(const struct ibu_mesh *t);

struct ibu_xy_mcast_tree {
	int root;			/* switch index, -1 for an empty group */
	enum ibu_mcast_policy policy;	/* policy that chose the root */
	int num_candidates;
	int num_members, num_receivers;
	int num_switches;
	int *switches;			/* tree switches, root first (BFS) */
	struct ibu_portmask *ports;	/* [switch index] physical ports */
	int8_t *up;			/* [switch index] direction toward the
					 * root, IBU_DIR_LOCAL at the root, -1
					 * outside the tree */
	uint8_t *down;			/* [switch index] bit d: tree link in
					 * direction d away from the root */
};

/*
 * Computes the tree of one group. load may be NULL; when given, the tree
 * recorded under key is released first and the new one recorded under key.
 * Duplicate members merge (receiving wins). IBU_ETOPO: a member is not an
 * end port or switch of the mesh; IBU_EINVAL: bad node.
 */
int ibu_xy_mcast_tree_build(const struct ibu_fabric *f,
			    const struct ibu_mesh *t,
			    const struct ibu_mcast_member *members, int num,
			    enum ibu_mcast_policy policy,
			    struct ibu_xy_mcast_load *load, uint32_t key,
			    struct ibu_xy_mcast_tree *tree, struct ibu_err *e);
void ibu_xy_mcast_tree_free(struct ibu_xy_mcast_tree *tree);

/* Adds the tree to mft under mlid. */
int ibu_xy_mcast_tree_to_mft(const struct ibu_mesh *t,
			     const struct ibu_xy_mcast_tree *tree,
			     uint16_t mlid, struct ibu_mft *mft,
			     struct ibu_err *e);

#endif
