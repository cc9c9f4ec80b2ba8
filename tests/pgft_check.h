/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What the damaged-tree pass tests measure on routed tables: the worst
 * shift and the all-to-all's busiest link walked on the tables, and the
 * tables' validity (every pair, minimal among up*|down* paths, no credit
 * loop on one VL, optionally the generalised rule's entries). */
#ifndef IBU_TEST_PGFT_CHECK_H
#define IBU_TEST_PGFT_CHECK_H

#include <stdlib.h>
#include <string.h>
#include "pgft_util.h"
#include "pgft_verify.h"
#include "verify.h"
#include "cdg.h"

/* Link loads of host S to D added to load ([node (IBU_MAX_PORTS + 1) +
 * port]); 0 when the walk does not arrive. */
static inline int pgft_walk_load(const struct fixture *x, int S, int D, long *load)
{
	const struct ibu_fabric *f = &x->f;
	uint16_t lid = f->nodes[x->g.host[D].node].ports[x->g.host[D].port].lid;
	int n = x->g.host[S].leaf, hops = 0, p;

	while (hops++ < 16 && ibu_node_is_switch(&f->nodes[n])) {
		p = ibu_lft_get(&x->lft, n, lid);
		if (p == IBU_NO_PATH)
			return 0;
		load[n * (IBU_MAX_PORTS + 1) + p]++;
		if (n == x->g.host[D].leaf)
			return f->nodes[n].ports[p].peer_node == x->g.host[D].node;
		n = f->nodes[n].ports[p].peer_node;
	}
	return 0;
}

static inline long pgft_busiest(const struct fixture *x, const long *load)
{
	long max = 0;
	int i;

	for (i = 0; i < x->f.num_nodes * (IBU_MAX_PORTS + 1); i++)
		max = load[i] > max ? load[i] : max;
	return max;
}

/* The worst shift (every k = 1..N-1) and the all-to-all's busiest link,
 * every walk arriving. */
static inline void pgft_loads(const struct fixture *x, long *shift, long *a2a)
{
	size_t cells = (size_t)x->f.num_nodes * (IBU_MAX_PORTS + 1);
	long *load = calloc(cells, sizeof(long)), *all = calloc(cells, sizeof(long));
	int N = x->g.num_hosts, k, S;
	size_t i;

	ck_assert_ptr_nonnull(load);
	ck_assert_ptr_nonnull(all);
	*shift = 0;
	for (k = 1; k < N; k++) {
		memset(load, 0, cells * sizeof(long));
		for (S = 0; S < N; S++)
			ck_assert_int_eq(pgft_walk_load(x, S, (S + k) % N, load), 1);
		if (pgft_busiest(x, load) > *shift)
			*shift = pgft_busiest(x, load);
		for (i = 0; i < cells; i++)
			all[i] += load[i];
	}
	*a2a = pgft_busiest(x, all);
	free(load);
	free(all);
}

/* Every pair arrives, no loop, minimal among up*|down* paths (a pair
 * with none turns once), no credit loop on one VL; with rule set, every
 * entry for a compute host's LID also as the generalised rule computes
 * it (the damaged-tree passes only choose among the rule's ways). */
static inline void pgft_assert_valid(struct fixture *x, int rule)
{
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_verify_result r;
	struct ibu_pgft_rule pr = { .g = &x->g, .lmc = x->lmc };
	struct ibu_verify_rule vr;
	struct ibu_cdg cdg;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	int len = 0, *rank;

	ck_assert_int_eq(ibu_pgft_ranks(&x->f, &x->g, &rank, &e), 0);
	vo.rank = rank;
	if (rule) {
		ibu_pgft_verify_rule(&vr, &pr);
		vo.rule = &vr;
	}
	ck_assert_int_eq(ibu_verify_lft(&x->f, &x->lft, &vo, NULL, NULL, &r, &e), 0);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(r.loops, 0);
	ck_assert_int_eq(r.nonminimal, 0);
	ck_assert_int_eq(r.turns, 0);	/* needed_turns: pairs with none */
	ck_assert_int_eq(r.rule_mismatches, 0);
	free(rank);
	ck_assert_int_eq(ibu_cdg_init(&cdg, &x->f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&cdg, &x->lft, &x->map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 0);
	ck_assert_int_eq(len, 0);
	free(cyc);
	ibu_cdg_free(&cdg);
}

static inline void pgft_assert_valid_updown(struct fixture *x)
{
	pgft_assert_valid(x, 0);
}

static inline void pgft_assert_valid_rule(struct fixture *x)
{
	pgft_assert_valid(x, 1);
}

/* x and y (the same fabric routed twice) hold the same tables. */
static inline void pgft_assert_same_lfts(const struct fixture *x,
					 const struct fixture *y)
{
	uint32_t lid;
	int s;

	for (s = 0; s < x->f.num_nodes; s++)
		if (ibu_node_is_switch(&x->f.nodes[s]))
			for (lid = 1; lid <= x->map.max_lid; lid++)
				ck_assert_int_eq(ibu_lft_get(&x->lft, s, lid),
						 ibu_lft_get(&y->lft, s, lid));
}

#endif
