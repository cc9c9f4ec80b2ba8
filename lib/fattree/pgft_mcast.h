/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Union multicast trees on a PGFT (lib/fattree/pgft.h): one tree per group, its
 * apex a top switch (every top is above every compute host): the top a
 * member sits on, else by mcast_apex (lib/core/mcgroup.h): balanced the top
 * with the fewest trees so far (ties: lowest column), compact the same
 * among the tops whose tree adds the fewest switches below the tops to
 * those that ever held a tree, lowest-guid the lowest node GUID, source
 * the top the first send-only member's climb reaches (its D-mod-K
 * digits; balanced without one). With faults, only among the tops that
 * reach the most members going down. The tree is the union of the down paths from the apex to
 * the members' switches; on a bundle of parallel cables it takes exactly
 * one cable per (switch, child), number (key + child's column) mod p, so
 * groups spread over the bundle. A member switch not below the apex (a
 * host on another top, a switch member) is joined by a shortest path from
 * the tree. Every member then gets exactly one copy from every sender.
 */
#ifndef IBU_PGFT_MCAST_H
#define IBU_PGFT_MCAST_H

#include "pgft.h"
#include "mft.h"
#include "mcgroup.h"
#include "mcload.h"

/* Trees per apex (kind 0, items: fabric nodes) and the switches that
 * ever held a tree (kind 1, no items: no release lowers it); begins with
 * its struct ibu_mcload, so the ibu_mcload_state_* ops free, release and
 * prune it. */
struct ibu_pgft_mcast_load {
	struct ibu_mcload core;
};

/* A malloc'ed load state for g (free with ibu_mcload_state_free). */
int ibu_pgft_mcast_load_new(const struct ibu_pgft *g,
			    struct ibu_pgft_mcast_load **out, struct ibu_err *e);

struct ibu_pgft_mcast_tree {
	int apex;			/* fabric node, -1 for no member */
	enum ibu_mcast_policy policy;	/* the policy that chose it */
	int added;			/* compact: switches it added to
					 * those that ever held a tree */
	int num_switches;
	int *nodes;			/* [i] tree switch */
	struct ibu_portmask *ports;	/* [i] its ports (0 = itself) */
};

/* load may be NULL (balanced and compact: lowest column). */
int ibu_pgft_mcast_tree_build(const struct ibu_fabric *f,
			      const struct ibu_pgft *g,
			      const struct ibu_mcast_member *m, int n,
			      enum ibu_mcast_policy policy,
			      struct ibu_pgft_mcast_load *load, uint32_t key,
			      struct ibu_pgft_mcast_tree *t, struct ibu_err *e);
void ibu_pgft_mcast_tree_free(struct ibu_pgft_mcast_tree *t);

#endif
