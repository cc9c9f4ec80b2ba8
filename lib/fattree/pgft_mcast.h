/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The multicast tree of a group on any PGFT (pgft.h), an exact or degraded
 * IBFT(m,n) included ([Zhou07], sect. 3.3.2; docs/design.md, "Multicast
 * trees"): the union of the down paths from one apex switch to every
 * member, at the level of the members' lowest common ancestors (send-only
 * ones included). Flooded, it gives every receiving member one copy from
 * any sender and closes no credit loop with up*|down* unicast. Of a bundle
 * of parallel cables the tree takes number (key + child's column) mod p.
 * No common ancestor (faults, hosts on several tops): the apex is a top,
 * the one a member sits on, else one reaching the most member switches
 * going down; a member on another top is joined through one fixed
 * crossing leaf; any other member it misses is, with faults, joined by
 * one down-up turn at a junction that keeps unicast's channel
 * dependencies plus the tree acyclic (ibu_pgft_mcast_tree_build_turns;
 * none, or unicast's unknown: the group is refused, IBU_ETOPO: no
 * up-then-down tree), else by a shortest path.
 *
 * Apex policies (mcgroup.h), among the candidates at that level:
 *   source       the one on the climb of the send-only compute host with
 *                the lowest index (the paper's up-digits on an exact IBFT,
 *                else its D-mod-K up-slots); else balanced (tree->policy);
 *   lowest-guid  the lowest node GUID;
 *   balanced     with a load state: 1. the fewest trees through it, 2. the
 *                fewest trees on its tree's busiest cable, 3. the fewest
 *                summed over its tree's cables, 4. the lowest label (an
 *                exact IBFT's paper label, else the column);
 *   compact      first the fewest switches its tree adds to those that
 *                ever held a tree (a top apex not counted), then balanced.
 * Compact's key and keys 2-3 are skipped (tree->compacted, scored) when
 * candidates x member switches x levels x radix exceeds
 * IBU_PGFT_MCAST_SCORE_BUDGET; without a load state balanced and compact
 * are key 4.
 *
 * Output per switch: both ends of every tree cable, the port of every
 * receiving CA member, port 0 when the switch itself receives; send-only
 * CA ports are left out (their climb is in), duplicate members merged (a
 * port both full and send-only receives).
 */
#ifndef IBU_PGFT_MCAST_H
#define IBU_PGFT_MCAST_H

#include "pgft.h"
#include "pgft_ibft.h"
#include "mft.h"
#include "mcgroup.h"
#include "mcload.h"

struct ibu_cdg_ports;

#define IBU_PGFT_MCAST_SCORE_BUDGET 4000000L

/* Trees through each switch (kind 0, [node]), on each cable (kind 1,
 * [upper node * stride + port]), the switches that ever held one (kind 2:
 * no release lowers it, as OpenSM never lowers a switch's highest MFT
 * block); the ibu_mcload_state_* ops free, release and prune it. */
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
	int junctions;			/* down-up turns joining members the
					 * apex does not reach going down */
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
/*
 * The same, on a fabric routed with faults: ucdg, the channel dependencies
 * of every unicast route (cdg_ports.h; NULL: none known), lets a member
 * the apex cannot reach going down (leaves the faults left apart) join by
 * one down-up turn at a junction switch, the first of a fixed order that
 * keeps unicast plus the tree free of cycles; without ucdg, or when no
 * junction does, such a group is refused as above.
 */
int ibu_pgft_mcast_tree_build_turns(const struct ibu_fabric *f,
				    const struct ibu_pgft *g,
				    const struct ibu_pgft_ibft *x,
				    const struct ibu_cdg_ports *ucdg,
				    const struct ibu_mcast_member *m, int n,
				    enum ibu_mcast_policy policy,
				    struct ibu_pgft_mcast_load *load,
				    uint32_t key, struct ibu_pgft_mcast_tree *t,
				    struct ibu_err *e);
void ibu_pgft_mcast_tree_free(struct ibu_pgft_mcast_tree *t);
/* Adds the tree to mft under mlid. */
int ibu_pgft_mcast_tree_to_mft(const struct ibu_pgft_mcast_tree *t,
			       uint16_t mlid, struct ibu_mft *mft,
			       struct ibu_err *e);
/* Index of node in t->nodes, -1 when not in the tree. */
int ibu_pgft_mcast_tree_find(const struct ibu_pgft_mcast_tree *t, int node);

#endif
