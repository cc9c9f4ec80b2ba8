/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast load tracking, for every engine: counters of how many trees
 * use each item (a switch, a link, a root: the engine says what its
 * kinds of items are), each tree's contribution recorded under a caller
 * key (the MLID) so that a group routed again, or gone, is taken back
 * out exactly. Engines supply only the tree and read the counters to
 * balance the next one (lib/fattree/pgft_mcast.c: trees per switch and
 * per cable; lib/mesh/xy_mcast.c: trees rooted at and through each
 * switch).
 */
#ifndef IBU_MCLOAD_H
#define IBU_MCLOAD_H

#include <stdint.h>
#include "err.h"

#define IBU_MCLOAD_MAX_KINDS 4

struct ibu_mcload_rec;

struct ibu_mcload {
	int num_kinds;
	int size[IBU_MCLOAD_MAX_KINDS];		/* items of each kind */
	uint32_t *count[IBU_MCLOAD_MAX_KINDS];	/* [kind][item] trees */
	struct ibu_mcload_rec *rec;		/* sorted by key */
	int num_rec, cap_rec;
};

/* num_kinds (1..IBU_MCLOAD_MAX_KINDS) counters of size[k] items, zero. */
int ibu_mcload_init(struct ibu_mcload *l, int num_kinds, const int *size,
		    struct ibu_err *e);
void ibu_mcload_free(struct ibu_mcload *l);
/* Forgets every tree (the counters go back to zero). */
void ibu_mcload_reset(struct ibu_mcload *l);
/*
 * Records a tree under key (a tree already recorded there is released
 * first): for each kind k, n[k] items items[k][0..n[k]-1] (out-of-range
 * ones are ignored) each count one more tree.
 */
int ibu_mcload_add(struct ibu_mcload *l, uint32_t key,
		   const int *const *items, const int *n, struct ibu_err *e);
/* Takes the tree recorded under key back out, if any. */
void ibu_mcload_release(struct ibu_mcload *l, uint32_t key);
/* Releases every key for which alive(ctx, key) is 0. */
void ibu_mcload_prune(struct ibu_mcload *l,
		      int (*alive)(void *ctx, uint32_t key), void *ctx);
/* Trees recorded. */
int ibu_mcload_count(const struct ibu_mcload *l);

/*
 * The engine ops mcast.state_free, mcast.release and mcast.prune for an
 * engine whose multicast state is a malloc'ed struct that begins with a
 * struct ibu_mcload (every other member pointing into it): only
 * mcast.state_new, which sizes the counters, stays the engine's own.
 */
void ibu_mcload_state_free(void *state);
void ibu_mcload_state_release(void *state, uint32_t key);
void ibu_mcload_state_prune(void *state,
			    int (*alive)(void *ctx, uint32_t key), void *ctx);

#endif
