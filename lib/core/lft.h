/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Linear forwarding tables of all switches of a fabric model. */
#ifndef IBU_LFT_H
#define IBU_LFT_H

#include "fabric.h"

struct ibu_lft {
	int num_nodes;
	uint32_t max_lid;
	uint8_t **row;		/* [node][0..max_lid] out port; NULL for non-switches */
	uint8_t *block;		/* the rows, one allocation; NULL when the
				 * caller owns them (ibu_lft_init_rows) */
};

/* Allocates a row for every switch of f, all entries IBU_NO_PATH. */
int ibu_lft_init(struct ibu_lft *l, const struct ibu_fabric *f,
		 uint32_t max_lid, struct ibu_err *e);
/* A copy of src (its max_lid) with a row for every switch of f, in one
 * block: every entry written once (rows src lacks: IBU_NO_PATH). */
int ibu_lft_copy(struct ibu_lft *l, const struct ibu_fabric *f,
		 const struct ibu_lft *src, struct ibu_err *e);
/*
 * The same over rows the caller owns (OpenSM's own new_lft): rows[i] of
 * switch i holds cap[i] bytes, at least max_lid + 1; entries 0..max_lid
 * are set to IBU_NO_PATH. ibu_lft_free() leaves the rows alone.
 */
int ibu_lft_init_rows(struct ibu_lft *l, const struct ibu_fabric *f,
		      uint32_t max_lid, uint8_t *const *rows,
		      const uint32_t *cap, struct ibu_err *e);
void ibu_lft_free(struct ibu_lft *l);

static inline uint8_t ibu_lft_get(const struct ibu_lft *l, int node,
				  uint32_t lid)
{
	if (node < 0 || node >= l->num_nodes || !l->row[node] ||
	    lid > l->max_lid)
		return IBU_NO_PATH;
	return l->row[node][lid];
}

/*
 * 1 when the route from switch s to lid has a valley: a switch it enters
 * from a higher level[] and leaves to a higher one (a down-up turn;
 * level[] numbers switches from the leaves, 1, up), or loops (more than
 * IBU_LFT_MAX_HOPS switch-to-switch hops); 0 otherwise, also when it
 * arrives nowhere.
 */
#define IBU_LFT_MAX_HOPS 64
/* Does a route entering v from u and leaving it to w turn down-up at v? */
static inline int ibu_valley(const int *level, int u, int v, int w)
{
	return level[u] > level[v] && level[w] > level[v];
}
int ibu_lft_route_has_valley(const struct ibu_fabric *f,
			     const struct ibu_lft *l, int s, uint32_t lid,
			     const int *level);
/* Entries that differ between two LFTs of the same fabric (LIDs 1..max). */
long ibu_lft_count_diff(const struct ibu_lft *a, const struct ibu_lft *b);

#endif
