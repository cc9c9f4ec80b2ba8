/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The multicast tree of a group on IBFT(m,n) ([Zhou07], sect. 3.3.2).
 *
 * In a fat tree the path down from a switch to anything below it is unique,
 * so the union of the downward paths from one apex switch to every member
 * is a tree. The apex lies at the level of the lowest common ancestors of
 * ALL members (send-only ones included) and is one of the common ancestors
 * there; the paper's tree for a source s is the case where the apex is on
 * s's cyclic ascending chain (up-digit at level l = s's own digit p_l), since
 * s's climb reversed is the unique path down to s. A switch forwards a
 * multicast packet to every MFT port but the one it came in on, so flooding
 * this tree gives every receiving member exactly one copy whichever member
 * sends, and packets only climb toward the apex and then descend.
 *
 * Output per switch: the physical ports of the tree - both ends of every
 * tree link, the switch port of every receiving CA member, and port 0 only
 * when the switch itself is a member. Send-only members' own CA ports are
 * not in the tree (they do not receive), their climb is.
 *
 * A member that is not an end port (or switch) of the recognised IBFT makes
 * the group unroutable: IBU_ETOPO, nothing is chosen or counted.
 */
#ifndef IBU_MCAST_H
#define IBU_MCAST_H

#include "fabric.h"
#include "ibft.h"
#include "mft.h"
#include "mcgroup.h"
#include "mcload.h"

/*
 * Trees so far, per switch and per switch-to-switch link, owned by the
 * caller (e.g. the plugin keeps one for the life of a fabric model). The
 * `balanced` policy picks, among the common ancestors at the group's level:
 *   1. the one carrying the fewest trees (so up to as many groups as there
 *      are candidates get distinct apexes),
 *   2. then the one whose tree's busiest link carries the fewest trees,
 *   3. then the smallest sum of trees over its tree's links,
 *   4. then the lowest label.
 * Keys 2 and 3 look at the whole tree each candidate would build (skipped,
 * with a plain 1 and 4, when candidates x member switches x levels exceeds
 * IBU_MCAST_SCORE_BUDGET). Without them, groups whose apexes share their
 * first label digit would all cross the same switches one level down.
 * Each contribution is recorded under a caller key (the MLID), so a group
 * that is routed again first releases its previous tree.
 *
 * The `compact` policy puts one key before those four:
 *   0. the fewest switches its tree would add to the switches that have
 *      ever held a tree of this load state (`ever`, never cleared by a
 *      release), the apex itself not counted when it is a top switch.
 * Why: after every join or leave OpenSM resends every MFT block in use to
 * every switch that ever held an MLID (it never lowers a switch's highest
 * block in use), so the cost of each change follows the size of that set,
 * not the trees alive. On IBFT(m,3) the groups settle on one plane (the
 * middles one top reaches and the tops sharing them) and keys 1-4 spread
 * them over that plane's m/2 tops: m/2 - 1 switches more than one apex for
 * all, and m/2 times fewer trees on each top link. Why not the apex at
 * every level: a pod-local group's candidates are the pod's middles, one
 * per plane; free, they would pull other planes' middles into the set and
 * so make those planes' tops cheap too (IBFT(16,3), the 50 groups of 20
 * hosts then 500 of 2: 193 switches against 152; counted, a pod-local
 * group stays on the plane's middle of its pod, as with one apex).
 * Key 0 walks every candidate's tree (skipped, leaving plain balanced,
 * when candidates x member switches x levels exceeds
 * IBU_MCAST_SCORE_BUDGET).
 */
#define IBU_MCAST_SCORE_BUDGET 4000000L

/* Trees per switch and per link (lib/analysis/mcload.h counters, aliased). */
struct ibu_mcast_load {
	struct ibu_mcload core;		/* kind 0 switches, kind 1 links */
	int num_switches;
	int ports;			/* m + 1: link index = sw * ports + k */
	uint32_t *trees;		/* [switch index] trees through it */
	uint32_t *link_trees;		/* [sw * ports + paper port k] trees
					 * using the link below port k */
	uint32_t *ever;			/* [switch index] 1 once any tree
					 * recorded here used it (kind 2: no
					 * release lowers it) */
};

/* A load state for the switches of t (sized from it; keep it with t). */
int ibu_mcast_load_init(struct ibu_mcast_load *l, const struct ibu_ibft *t,
			struct ibu_err *e);
void ibu_mcast_load_free(struct ibu_mcast_load *l);
/* Forgets every tree and the switches that ever held one (e.g. after the
 * fabric model was rebuilt). */
void ibu_mcast_load_reset(struct ibu_mcast_load *l);
/* Removes the tree recorded under key, if any. */
void ibu_mcast_load_release(struct ibu_mcast_load *l, uint32_t key);
/* Releases every recorded key for which alive(ctx, key) returns 0. */
void ibu_mcast_load_prune(struct ibu_mcast_load *l,
			  int (*alive)(void *ctx, uint32_t key), void *ctx);
/* Number of recorded keys. */
int ibu_mcast_load_count(const struct ibu_mcast_load *l);
/* Number of switches that ever held a tree recorded here. */
int ibu_mcast_load_ever(const struct ibu_mcast_load *l);

struct ibu_mcast_tree {
	int apex;			/* switch index, -1 for an empty group */
	int apex_level;
	enum ibu_mcast_policy policy;	/* policy that chose the apex */
	int num_candidates;		/* common ancestors at apex_level */
	int num_members, num_receivers;
	int num_switches;		/* switches in the tree */
	int *switches;			/* their switch indices, top down */
	struct ibu_portmask *ports;	/* [switch index] physical ports */
	int num_links;			/* switch-to-switch tree links */
	int *links;			/* upper switch * (m + 1) + paper port */
	uint32_t max_link_trees;	/* balanced: busiest tree link's load
					 * before this tree (0 otherwise) */
	int scored;			/* balanced: keys 2-3 were used */
	int compacted;			/* compact: key 0 was used */
	int added;			/* switches it added to the load's
					 * `ever` set (0 without a load) */
};

/*
 * Computes the tree of one group. load may be NULL (then `balanced` breaks
 * ties only by label); when given, the tree recorded under key is released
 * first and the new tree is recorded under key. Duplicate members are
 * merged (a port that is both full and send-only receives).
 * IBU_ETOPO: a member outside the IBFT (message names it); IBU_EINVAL: bad
 * node/port. An empty member list gives an empty tree (apex -1).
 */
int ibu_mcast_tree_build(const struct ibu_fabric *f, const struct ibu_ibft *t,
			 const struct ibu_mcast_member *members, int num,
			 enum ibu_mcast_policy policy,
			 struct ibu_mcast_load *load, uint32_t key,
			 struct ibu_mcast_tree *tree, struct ibu_err *e);
void ibu_mcast_tree_free(struct ibu_mcast_tree *tree);

/* Adds the tree to mft under mlid (fabric node = t->sw[s].node). */
int ibu_mcast_tree_to_mft(const struct ibu_ibft *t,
			  const struct ibu_mcast_tree *tree, uint16_t mlid,
			  struct ibu_mft *mft, struct ibu_err *e);

#endif
