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

/* The busiest cell of the walk S -> D on load (the walk as
 * pgft_walk_load follows it), adding d to each cell first. */
static inline long pgft_walk_max(const struct fixture *x, int S, int D,
				 long *load, long d)
{
	const struct ibu_fabric *f = &x->f;
	uint16_t lid = f->nodes[x->g.host[D].node].ports[x->g.host[D].port].lid;
	int n = x->g.host[S].leaf, hops = 0, p;
	long max = 1;		/* the hosts' own links */
	size_t c;

	while (hops++ < 16 && ibu_node_is_switch(&f->nodes[n])) {
		p = ibu_lft_get(&x->lft, n, lid);
		if (p == IBU_NO_PATH)
			break;
		c = (size_t)n * (IBU_MAX_PORTS + 1) + (size_t)p;
		load[c] += d;
		max = load[c] > max ? load[c] : max;
		if (n == x->g.host[D].leaf)
			break;
		n = f->nodes[n].ports[p].peer_node;
	}
	return max;
}

/* Effective bisection bandwidth: over k random bisections (a shuffle's
 * first half paired with its second, both ways; seeded), each flow's
 * 1 / the busiest channel of its path, the mean over flows. */
static inline double pgft_ebb(const struct fixture *x, int k, uint64_t seed)
{
	size_t cells = (size_t)x->f.num_nodes * (IBU_MAX_PORTS + 1);
	long *load = calloc(cells, sizeof(long));
	int N = x->g.num_hosts, *perm = malloc((size_t)N * sizeof(int));
	int *to = malloc((size_t)N * sizeof(int)), s, i, j, t;
	double sum = 0;

	ck_assert_ptr_nonnull(load);
	ck_assert_ptr_nonnull(perm);
	ck_assert_ptr_nonnull(to);
	for (s = 0; s < k; s++) {
		for (i = 0; i < N; i++)
			perm[i] = i;
		for (i = N - 1; i > 0; i--) {	/* xorshift64 */
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			j = (int)(seed % (uint64_t)(i + 1));
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < N / 2; i++) {
			to[perm[i]] = perm[N / 2 + i];
			to[perm[N / 2 + i]] = perm[i];
		}
		for (i = 0; i < 2 * (N / 2); i++)
			pgft_walk_max(x, perm[i], to[perm[i]], load, 1);
		for (i = 0; i < 2 * (N / 2); i++)
			sum += 1.0 / (double)pgft_walk_max(x, perm[i],
							  to[perm[i]], load, 0);
		for (i = 0; i < 2 * (N / 2); i++)
			pgft_walk_max(x, perm[i], to[perm[i]], load, -1);
	}
	free(load);
	free(perm);
	free(to);
	return sum / ((double)k * (double)(2 * (N / 2)));
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

/* turns=own-vl's plan on x's tables: SL 1 for a route with a valley
 * (from the source's switch), SL s on VL s. */
static inline int pgft_valley_sl(void *arg, int node, int port, uint32_t dlid)
{
	const struct fixture *x = arg;
	int s = x->f.nodes[node].ports[port].peer_node;

	return ibu_lft_route_has_valley(&x->f, &x->lft, s, dlid, x->g.level);
}

static inline int pgft_sl_is_vl(void *arg, int node, int in, int out, int sl)
{
	(void)arg;
	(void)node;
	(void)in;
	(void)out;
	return sl;
}

/* Every pair arrives, no loop, minimal among up*|down* paths (a pair
 * with none turns once), no credit loop on one VL (layered: on the two
 * of turns=own-vl); with rule set, every entry for a compute host's LID
 * also as the generalised rule computes it (the damaged-tree passes only
 * choose among the rule's ways). */
static inline void pgft_assert_valid_on(struct fixture *x, int rule,
					int layered)
{
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_verify_result r;
	struct ibu_pgft_rule pr = { .g = &x->g, .lmc = x->lmc };
	struct ibu_verify_rule vr;
	struct ibu_cdg_vl vl = { .num_vls = 2, .path_sl = pgft_valley_sl,
				 .vl = pgft_sl_is_vl, .ctx = x };
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
	ck_assert_int_eq(ibu_cdg_init(&cdg, &x->f, layered ? &vl : NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&cdg, &x->lft, &x->map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 0);
	ck_assert_int_eq(len, 0);
	free(cyc);
	ibu_cdg_free(&cdg);
}

static inline void pgft_assert_valid(struct fixture *x, int rule)
{
	pgft_assert_valid_on(x, rule, 0);
}

static inline void pgft_assert_valid_updown(struct fixture *x)
{
	pgft_assert_valid(x, 0);
}

static inline void pgft_assert_valid_rule(struct fixture *x)
{
	pgft_assert_valid(x, 1);
}

/* A league PGFT (pgft_league_pgft) routed at LMC 0 with turns on their
 * own VL (pgft_route_lmc0_turns, the passes' figures in *st), its tables
 * valid on both VLs; its worst shift and all-to-all in *shift, *a2a. */
static inline void pgft_league_loads(struct fixture *x,
				     const struct ibu_pgft_params *P, int cut,
				     int sw, uint64_t seed,
				     struct ibu_pgft_route_stats *st,
				     long *shift, long *a2a)
{
	pgft_league_pgft(x, P, cut, sw, seed);
	pgft_route_lmc0_turns(x, st, 1);
	pgft_assert_valid_on(x, 0, 1);
	pgft_loads(x, shift, a2a);
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
