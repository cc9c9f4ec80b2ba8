/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The multicast tree of a group on a fat tree: any PGFT (lib/fattree/pgft.h),
 * an exact or degraded IBFT(m,n) included ([Zhou07], sect. 3.3.2).
 *
 * In a fat tree the way down from a switch to anything below it is unique
 * (but for parallel cables), so the union of the down paths from one apex
 * switch to every member is a tree. The apex lies at the level of the
 * lowest common ancestors of ALL members (send-only ones included), found
 * from the cables alone (which switches reach every member's switch going
 * down): a group inside one leaf stays in that leaf, one inside a pod in
 * the pod. The paper's tree for a source s is the case where the apex is
 * on s's cyclic climb, since that climb reversed is the way down to s. A
 * switch forwards a multicast packet to every MFT port but the one it came
 * in on, so flooding this tree gives every receiving member exactly one
 * copy whichever member sends; packets only climb toward the apex and then
 * descend, which closes no credit loop with up*|down* unicast.
 *
 * On a bundle of parallel cables the tree takes exactly one cable per
 * (switch, child), number (key + child's column) mod p, so groups spread
 * over the bundle.
 *
 * No common ancestor (faults, or members on several top switches: hosts
 * on spines): the apex is a top switch - the top a member sits on, else
 * among the tops that reach the most member switches going down - and a
 * member switch it does not reach going down is joined as follows: a
 * member on another top through one fixed crossing leaf (see cross() in
 * the .c); with faults the group is refused (IBU_ETOPO, "no up-then-down
 * tree": a way there would turn down-up and close credit loops with
 * unicast); else by a shortest path from the tree.
 *
 * Apex policies (lib/core/mcgroup.h mcast_apex), among the candidates (the
 * common ancestors at the apex level, or the tops of the fallback):
 *   source       the one on the climb of the send-only (only sending)
 *                compute host with the lowest index: the paper's up-digits
 *                (the source's own PID digits) on an exact IBFT, else its
 *                D-mod-K up-slots; balanced when there is none or its climb
 *                misses the candidates (tree->policy says which chose);
 *   lowest-guid  the lowest node GUID;
 *   balanced     with a load state (trees so far, per switch and per cable):
 *                 1. the fewest trees through it (so up to as many groups
 *                    as there are candidates get distinct apexes),
 *                 2. then the tree whose busiest cable carries the fewest
 *                    trees, 3. then the smallest sum of trees over its
 *                    cables (keys 2-3 walk each tied candidate's tree:
 *                    without them, groups whose apexes share children
 *                    would all cross the same switches one level down),
 *                 4. then the lowest label (an exact IBFT's paper label,
 *                    else the column);
 *   compact      key 0 before those: the fewest switches its tree would
 *                add to those that ever held a tree of this load state
 *                (no release lowers that set), the apex not counted when
 *                it is a top. Why: after every join or leave OpenSM
 *                resends every MFT block in use to every switch that ever
 *                held an MLID, so each change costs the size of that set.
 *                On IBFT(m,3) the groups settle on one plane (the middles
 *                one top reaches and the tops sharing them) and keys 1-4
 *                spread them over its m/2 tops. A pod-local group's
 *                candidates are counted too: free, they would pull other
 *                planes' middles into the set (IBFT(16,3), 50 groups of 20
 *                hosts then 500 of 2: 193 switches against 152).
 * Keys 0 and 2-3 are skipped (tree->compacted / scored say) when
 * candidates x member switches x levels x radix exceeds
 * IBU_PGFT_MCAST_SCORE_BUDGET; without a load state balanced is key 4 and
 * compact is balanced.
 *
 * Output per switch: both ends of every tree cable, the switch port of
 * every receiving CA member, and port 0 only when the switch itself is a
 * receiving member. Send-only members' own CA ports are not in the tree
 * (they do not receive), their climb is. Duplicate members are merged (a
 * port that is both full and send-only receives).
 */
#ifndef IBU_PGFT_MCAST_H
#define IBU_PGFT_MCAST_H

#include "pgft.h"
#include "pgft_ibft.h"
#include "mft.h"
#include "mcgroup.h"
#include "mcload.h"

#define IBU_PGFT_MCAST_SCORE_BUDGET 4000000L

/* Trees through each switch (kind 0, [node]), on each cable (kind 1,
 * [upper node * stride + its port]) and the switches that ever held a
 * tree (kind 2, [node], no items: no release lowers it); begins with its
 * struct ibu_mcload, so the ibu_mcload_state_* ops free, release and
 * prune it. */
struct ibu_pgft_mcast_load {
	struct ibu_mcload core;
	int stride;			/* most ports of a node + 1 */
};

/* A malloc'ed load state for the fabric f recognised as g (free with
 * ibu_mcload_state_free). */
int ibu_pgft_mcast_load_new(const struct ibu_fabric *f,
			    const struct ibu_pgft *g,
			    struct ibu_pgft_mcast_load **out, struct ibu_err *e);
/* Switches that ever held a tree recorded in l. */
int ibu_pgft_mcast_load_ever(const struct ibu_pgft_mcast_load *l);

struct ibu_pgft_mcast_tree {
	int apex;			/* fabric node, -1 for no member */
	int level;			/* its PGFT level (1 = leaf) */
	int common;			/* 1: the apex is a common ancestor
					 * of every member (0: top fallback) */
	enum ibu_mcast_policy policy;	/* the policy that chose it */
	int num_candidates;		/* switches it was chosen among */
	int num_members, num_receivers;	/* distinct ports */
	int scored;			/* balanced: keys 2-3 were used */
	int compacted;			/* compact: key 0 was used */
	int num_switches;
	int *nodes;			/* [i] tree switch, top down */
	struct ibu_portmask *ports;	/* [i] its ports (0 = itself) */
};

/*
 * The tree of one group. x: the paper's labels of an exact IBFT (source's
 * up-digits, key 4), else NULL. load may be NULL; when given, the tree
 * recorded under key is released first and the new one recorded under
 * key. IBU_EINVAL: a bad node or port, or a load state of another fabric;
 * IBU_ETOPO: a member outside the tree (the message names it), or faults
 * leave no up-then-down tree. An empty list gives apex -1.
 */
int ibu_pgft_mcast_tree_build(const struct ibu_fabric *f,
			      const struct ibu_pgft *g,
			      const struct ibu_pgft_ibft *x,
			      const struct ibu_mcast_member *m, int n,
			      enum ibu_mcast_policy policy,
			      struct ibu_pgft_mcast_load *load, uint32_t key,
			      struct ibu_pgft_mcast_tree *t, struct ibu_err *e);
void ibu_pgft_mcast_tree_free(struct ibu_pgft_mcast_tree *t);
/* Adds the tree to mft under mlid. */
int ibu_pgft_mcast_tree_to_mft(const struct ibu_pgft_mcast_tree *t,
			       uint16_t mlid, struct ibu_mft *mft,
			       struct ibu_err *e);
/* Index of node in t->nodes, -1 when not in the tree. */
int ibu_pgft_mcast_tree_find(const struct ibu_pgft_mcast_tree *t, int node);

#endif
