/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Host digits, lca levels and the advised DLID offsets on a PGFT
 * (lib/fattree/pgft_path.c): the lca level is where the two hosts' climbs
 * first meet in the graph; on an intact tree the advised DLID's route is
 * 2 x lca cables long and turns at ibu_pgft_turn_switch(); the offset
 * stays inside the host's LIDs, 0 within a leaf or without LMC; without
 * parallel cables the digits are Zahavi's floor(D / (w_2..w_l)).
 */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "pgft_util.h"
#include "gen.h"
#include "pgft.h"
#include "lft.h"
#include "lidmap.h"

static const struct {
	const char *m, *w, *p;
} shapes[] = {
	{ "8,12", "1,4", "1,2" },		/* parallel cables */
	{ "4,2,3", "1,2,2", "1,2,2" },		/* parallel, 3 levels */
	{ "2,2,4", "1,2,2", "1,1,1" },		/* IBFT(4,3) */
	{ "4,4,3", "1,2,2", "1,1,1" },		/* blocking, 3 of 4 pods */
};

#define NUM_SHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

static void setup_shape(struct fixture *x, int i)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 31 + (uint64_t)i };
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ibu_pgft_params_parse(shapes[i].m, shapes[i].w,
					       shapes[i].p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&x->f, &x->g, &e) == 0, "%s", e.msg);
	pgft_lids_and_route(x);
}

/* above[n] = 1 for leaf and every switch its climbs reach (cables to
 * the level above only). */
static void climb(const struct fixture *x, int leaf, char *above)
{
	const struct ibu_fabric *f = &x->f;
	int n, p, l, q;

	above[leaf] = 1;
	for (l = 1; l < x->g.P.h; l++)
		for (n = 0; n < f->num_nodes; n++)
			for (p = 1; above[n] && x->g.level[n] == l &&
			     p <= f->nodes[n].num_ports; p++) {
				q = f->nodes[n].ports[p].peer_node;
				if (q >= 0 && x->g.level[q] == l + 1)
					above[q] = 1;
			}
}

/* The lowest level where S's and D's climbs share a switch. */
static int graph_lca(const struct fixture *x, int S, int D, char *a, char *b)
{
	int n, best = x->g.P.h + 1;

	memset(a, 0, (size_t)x->f.num_nodes);
	memset(b, 0, (size_t)x->f.num_nodes);
	climb(x, x->g.host[S].leaf, a);
	climb(x, x->g.host[D].leaf, b);
	for (n = 0; n < x->f.num_nodes; n++)
		if (a[n] && b[n] && x->g.level[n] < best)
			best = x->g.level[n];
	return best;
}

START_TEST(lca_where_climbs_meet)
{
	struct fixture x;
	char *a, *b;
	int S, D, L, seen[IBU_PGFT_MAX_H + 1] = { 0 };

	setup_shape(&x, _i);
	a = malloc((size_t)x.f.num_nodes);
	b = malloc((size_t)x.f.num_nodes);
	ck_assert(a && b);
	for (S = 0; S < x.g.num_hosts; S++)
		for (D = 0; D < x.g.num_hosts; D++) {
			L = ibu_pgft_lca_level(&x.g, S, D);
			ck_assert_int_eq(L, graph_lca(&x, S, D, a, b));
			ck_assert_int_eq(L, ibu_pgft_lca_level(&x.g, D, S));
			seen[L]++;
		}
	for (L = 1; L <= x.g.P.h; L++)	/* every level is some pair's */
		ck_assert_int_gt(seen[L], 0);
	free(a);
	free(b);
	pgft_fixture_free(&x);
}
END_TEST

/* On the advised DLID, S's route to D: 2 x lca cables from S to D, the
 * highest switch on it ibu_pgft_turn_switch(), at the lca level. */
START_TEST(advised_route_hops)
{
	const struct ibu_fabric *f;
	struct fixture x;
	int S, D, n, q, p, cables, top, L;
	uint32_t lid;
	unsigned o;

	setup_shape(&x, _i);
	f = &x.f;
	for (S = 0; S < x.g.num_hosts; S++)
		for (D = 0; D < x.g.num_hosts; D++) {
			const struct ibu_port *dp = &f->nodes[x.g.host[D].node]
						    .ports[x.g.host[D].port];

			if (S == D)
				continue;
			L = ibu_pgft_lca_level(&x.g, S, D);
			o = ibu_pgft_offset(&x.g, x.lmc, S, D);
			ck_assert_uint_lt(o, 1u << dp->lmc);
			if (L == 1 || x.lmc == 0)
				ck_assert_uint_eq(o, 0);
			lid = dp->lid + o;
			n = x.g.host[S].leaf;
			top = n;
			for (cables = 1; cables < 32 && ibu_node_is_switch(&f->nodes[n]);
			     cables++) {
				p = ibu_lft_get(&x.lft, n, lid);
				ck_assert_int_ne(p, IBU_NO_PATH);
				q = f->nodes[n].ports[p].peer_node;
				if (x.g.level[n] > x.g.level[top])
					top = n;
				n = q;
			}
			ck_assert_int_eq(n, x.g.host[D].node);
			ck_assert_int_eq(cables, 2 * L);
			ck_assert_int_eq(x.g.level[top], L);
			ck_assert_int_eq(top, ibu_pgft_turn_switch(f, &x.g, x.lmc,
								   S, D));
		}
	pgft_fixture_free(&x);
}
END_TEST

/* Without parallel cables x[l] = floor(D / (w_2 .. w_l)): the digit of
 * D that picks among level l's parents (docs/design.md, D-mod-K). */
START_TEST(digits_without_parallel_cables)
{
	struct fixture x;
	long xs[IBU_PGFT_MAX_H + 1], W;
	int D, l;

	setup_shape(&x, _i + 2);
	for (D = 0; D < x.g.num_hosts; D++) {
		ibu_pgft_digits(&x.g, D, xs);
		for (l = 1, W = 1; l <= x.g.P.h; l++) {
			W *= l > 1 ? x.g.P.w[l] : 1;
			ck_assert_int_eq(xs[l], D / W);
		}
	}
	pgft_fixture_free(&x);
}
END_TEST

/* At LMC 0 every advised offset is 0 and the turn switch the rule's:
 * still at the lca level. */
START_TEST(offsets_at_lmc0)
{
	struct fixture x;
	int S, D, t;

	setup_shape(&x, _i);
	for (S = 0; S < x.g.num_hosts; S++)
		for (D = 0; D < x.g.num_hosts; D++) {
			ck_assert_uint_eq(ibu_pgft_offset(&x.g, 0, S, D), 0);
			t = ibu_pgft_turn_switch(&x.f, &x.g, 0, S, D);
			ck_assert_int_ge(t, 0);
			ck_assert_int_eq(x.g.level[t], ibu_pgft_lca_level(&x.g, S, D));
		}
	pgft_fixture_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_path");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, lca_where_climbs_meet, 0, NUM_SHAPES);
	tcase_add_loop_test(tc, advised_route_hops, 0, NUM_SHAPES);
	tcase_add_loop_test(tc, digits_without_parallel_cables, 0, 2);
	tcase_add_loop_test(tc, offsets_at_lmc0, 0, NUM_SHAPES);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
