/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A recognised PGFT with LIDs and tables, shared by the PGFT unit tests. */
#ifndef IBU_TEST_PGFT_UTIL_H
#define IBU_TEST_PGFT_UTIL_H

#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "pgft.h"
#include "lft.h"
#include "lidmap.h"
#include "gen.h"

struct fixture {
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	int lmc;
};

/* x->g recognised: LIDs at the largest LMC up to the scheme's that fits,
 * the LID map and the generalised rule's tables. */
static inline void pgft_lids_and_route(struct fixture *x)
{
	struct ibu_err e = { 0 };
	int used = ibu_pgft_fit_lmc(&x->g, ibu_pgft_needed_lmc(&x->g));

	ck_assert_int_ge(used, 0);
	ck_assert_int_eq(ibu_pgft_assign_lids(&x->f, &x->g, used, &e), 0);
	x->lmc = used;
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_msg(ibu_pgft_route(&x->f, &x->g, &x->map, used, &x->lft, &e) == 0,
		      "%s", e.msg);
}

/* The random league's damage: `ibunion gen ... --shuffle-ports
 * --shuffle-records --remove-links cut --remove-switches sw --seed seed`. */
static inline struct ibu_gen_opts pgft_league_opts(int cut, int sw,
						   uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .remove_links = cut, .remove_switches = sw,
				  .seed = seed };

	return o;
}

/* A league IBFT(m,n) (pgft_league_opts) generated into x, zeroed first. */
static inline void pgft_league_ibft(struct fixture *x, int m, int n, int cut,
				    int sw, uint64_t seed)
{
	struct ibu_gen_opts o = pgft_league_opts(cut, sw, seed);
	struct ibu_err e = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ibu_gen_fattree(&x->f, m, n, &o, &e), 0);
}

/* A league PGFT with parameters P (pgft_league_opts) generated into x,
 * zeroed first. */
static inline void pgft_league_pgft(struct fixture *x,
				    const struct ibu_pgft_params *P, int cut,
				    int sw, uint64_t seed)
{
	struct ibu_gen_opts o = pgft_league_opts(cut, sw, seed);
	struct ibu_err e = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ibu_gen_pgft(&x->f, P, 0, 0, &o, &e), 0);
}

/* x->f recognised as a PGFT, faults allowed. */
static inline void pgft_recognize_faults(struct fixture *x)
{
	struct ibu_err e = { 0 };

	ck_assert_msg(ibu_pgft_recognize_limit(&x->f, &x->g, NULL, 0, -1, &e) == 0,
		      "%s", e.msg);
}

/* Recognised (faults allowed), LIDs at LMC 0 as `ibunion route --lmc 0`
 * gives them, routed (own_vl: turns=own-vl with qos, g.turn_layer); the
 * passes' figures in st. */
static inline void pgft_route_lmc0_turns(struct fixture *x,
					 struct ibu_pgft_route_stats *st,
					 int own_vl)
{
	struct ibu_err e = { 0 };

	pgft_recognize_faults(x);
	x->g.turn_layer = own_vl;
	ck_assert_int_eq(ibu_pgft_assign_lids(&x->f, &x->g, 0, &e), 0);
	x->lmc = 0;
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->map.max_lid, &e), 0);
	ck_assert_msg(ibu_pgft_route_stats(&x->f, &x->g, &x->map, 0, &x->lft,
					   st, &e) == 0, "%s", e.msg);
}

static inline void pgft_route_lmc0(struct fixture *x,
				   struct ibu_pgft_route_stats *st)
{
	pgft_route_lmc0_turns(x, st, 0);
}

/*
 * The same fabric as f with nodes in another order and every switch's
 * physical ports permuted; GUIDs (node and port) are kept.
 */
static inline void permute_fabric(const struct ibu_fabric *f,
				  struct ibu_fabric *g, uint64_t seed)
{
	int N = f->num_nodes, i, p, *order = malloc(N * sizeof(int));
	int **perm = calloc(N, sizeof(int *)), *idx = malloc(N * sizeof(int));
	uint64_t st = seed;
	struct ibu_err e = { 0 };

	ck_assert(order && perm && idx);
	for (i = 0; i < N; i++)
		order[i] = i;
	for (i = N - 1; i > 0; i--) {
		int j = (int)(ibu_gen_rand(&st) % (uint64_t)(i + 1)), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	ck_assert_int_eq(ibu_fabric_init(g, "permuted"), 0);
	for (i = 0; i < N; i++) {
		const struct ibu_node *n = &f->nodes[order[i]];
		int np = n->num_ports, k;

		ck_assert_int_eq(ibu_fabric_add_node(g, n->type, n->name, n->guid,
						     np, &idx[order[i]], &e), 0);
		perm[order[i]] = malloc((np + 1) * sizeof(int));
		ck_assert(perm[order[i]]);
		for (p = 0; p <= np; p++)
			perm[order[i]][p] = p;
		for (p = np; ibu_node_is_switch(n) && p > 1; p--) {
			k = 1 + (int)(ibu_gen_rand(&st) % (uint64_t)p);
			int x = perm[order[i]][p];

			perm[order[i]][p] = perm[order[i]][k];
			perm[order[i]][k] = x;
		}
	}
	for (i = 0; i < N; i++) {
		const struct ibu_node *n = &f->nodes[i];

		for (p = 1; p <= n->num_ports; p++) {
			const struct ibu_port *pt = &n->ports[p];

			g->nodes[idx[i]].ports[perm[i][p]].guid = pt->guid;
			if (pt->peer_node < 0 || pt->peer_node < i ||
			    (pt->peer_node == i && pt->peer_port < p))
				continue;
			ck_assert_int_eq(ibu_fabric_link(g, idx[i], perm[i][p],
					 idx[pt->peer_node],
					 perm[pt->peer_node][pt->peer_port],
					 &e), 0);
		}
	}
	for (i = 0; i < N; i++)
		free(perm[i]);
	free(perm);
	free(order);
	free(idx);
}

static inline void pgft_fixture_free(struct fixture *x)
{
	ibu_lft_free(&x->lft);
	ibu_lidmap_free(&x->map);
	ibu_pgft_free(&x->g);
	ibu_fabric_free(&x->f);
}

#endif
