/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The passes' eBB estimate (lib/fattree/pgft_bisect.c): its sample is the
 * seed's alone (each bisection pairs every host but one of an odd count
 * with another, both ways); each bisection's sum is what the tables give
 * when every flow gets 1 / the load of the busiest cable of its path
 * (walked here independently, pgft_check.h); one switch is 1.0 exactly,
 * a blocking tree less; walks report unrouted LIDs.
 */
#include <math.h>
#include <string.h>
#include "unit.h"
#include "pgft_check.h"
#include "pgft_bisect.h"

/* The router's view of x (what pgft_bisect.c reads of it), its port
 * slots in pbase. */
static void view(struct fixture *x, struct router *r, int **pbase)
{
	int i, np = 0;

	memset(r, 0, sizeof(*r));
	r->f = &x->f;
	r->g = &x->g;
	r->map = &x->map;
	r->lft = &x->lft;
	*pbase = malloc(((size_t)x->f.num_nodes + 1) * sizeof(int));
	ck_assert_ptr_nonnull(*pbase);
	for (i = 0; i < x->f.num_nodes; i++) {
		(*pbase)[i] = np;
		np += x->f.nodes[i].num_ports + 1;
	}
	r->pbase = *pbase;
}

/* PGFT(m; w; p) as the command line writes it, minus hosts removed,
 * shuffled, recognised, LMC 0, routed. */
static void tree(struct fixture *x, const char *m, const char *w,
		 const char *p, int removed, uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .remove_hosts = removed, .seed = seed };
	struct ibu_pgft_params P;
	struct ibu_pgft_route_stats st;
	struct ibu_err e = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ibu_pgft_params_parse(m, w, p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, 0, 0, &o, &e), 0);
	pgft_route_lmc0(x, &st);
}

/* Bisection k's sum of 1 / busiest over its flows, every cable counted
 * (host cables carry one flow each: never the busiest above 1). */
static double model_one(const struct fixture *x, const int *to)
{
	size_t cells = (size_t)x->f.num_nodes * (IBU_MAX_PORTS + 1);
	long *load = calloc(cells, sizeof(long)), *mine = calloc(cells, sizeof(long));
	double sum = 0;
	int S;
	size_t i;

	ck_assert(load && mine);
	for (S = 0; S < x->g.num_hosts; S++)
		if (to[S] >= 0)
			ck_assert_int_eq(pgft_walk_load(x, S, to[S], load), 1);
	for (S = 0; S < x->g.num_hosts; S++) {
		long worst = 1;

		if (to[S] < 0)
			continue;
		memset(mine, 0, cells * sizeof(long));
		pgft_walk_load(x, S, to[S], mine);
		for (i = 0; i < cells; i++)
			if (mine[i] && load[i] > worst)
				worst = load[i];
		sum += 1.0 / (double)worst;
	}
	free(load);
	free(mine);
	return sum;
}

static const struct {
	const char *m, *w, *p;
	int removed;
} shapes[] = {
	{ "2,2,4", "1,2,2", "1,1,1", 0 },	/* IBFT(4,3) */
	{ "4,2", "1,1", "1,1", 0 },		/* blocking 4:1 */
	{ "8,12", "1,4", "1,2", 3 },		/* parallel cables, odd */
	{ "4,4,3", "1,2,2", "1,2,1", 0 },	/* blocking, parallel */
};

#define NUM_SHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

/* The sample: the same pairs from the same seed, another from another;
 * each bisection an involution without fixed point, one host left out
 * of an odd count; each sum the independent walk's; the estimate their
 * mean per flow, at most 1, below 1 on the blocking tree. */
START_TEST(sums_as_walked)
{
	struct ibu__bisect b, c;
	struct ibu_err e = { 0 };
	struct fixture x;
	struct router r;
	int *pbase, k, S, N, out, differ = 0, nb = 6;
	double sum = 0, ebb;

	tree(&x, shapes[_i].m, shapes[_i].w, shapes[_i].p, shapes[_i].removed,
	     5 + (uint64_t)_i);
	view(&x, &r, &pbase);
	N = x.g.num_hosts;
	ck_assert_int_eq(ibu__bisect_init(&b, &r, nb, 77, &e), 0);
	ck_assert_int_eq(ibu__bisect_init(&c, &r, nb, 77, &e), 0);
	ck_assert_mem_eq(b.to, c.to, (size_t)nb * (size_t)N * sizeof(int));
	ibu__bisect_free(&c);
	ck_assert_int_eq(ibu__bisect_init(&c, &r, nb, 78, &e), 0);
	differ = memcmp(b.to, c.to, (size_t)nb * (size_t)N * sizeof(int));
	ck_assert_int_ne(differ, 0);
	ibu__bisect_free(&c);
	for (k = 0; k < nb; k++) {
		const int *to = b.to + (size_t)k * (size_t)N;
		double one;

		for (S = 0, out = 0; S < N; S++) {
			if (to[S] < 0) {
				out++;
				continue;
			}
			ck_assert_int_ne(to[S], S);
			ck_assert_int_eq(to[to[S]], S);
		}
		ck_assert_int_eq(out, N % 2);
		one = ibu__bisect_one(&b, &r, k);
		ck_assert_msg(fabs(one - model_one(&x, to)) < 1e-9,
			      "bisection %d: %f, walked %f", k, one,
			      model_one(&x, to));
		sum += one;
	}
	ebb = ibu__bisect_ebb(&b, &r);
	ck_assert(fabs(ebb - sum / nb / (N / 2 * 2)) < 1e-9);
	ck_assert(ebb > 0 && ebb <= 1);
	if (_i == 1)
		ck_assert(ebb < 1);
	ibu__bisect_free(&b);
	free(pbase);
	pgft_fixture_free(&x);
}
END_TEST

/* One switch: no cable between switches, every flow 1, the estimate
 * 1.0; below two hosts 0. */
START_TEST(one_switch_is_one)
{
	struct ibu__bisect b;
	struct ibu_err e = { 0 };
	struct fixture x;
	struct router r;
	int *pbase, N;

	tree(&x, "6", "1", "1", 0, 3);
	view(&x, &r, &pbase);
	ck_assert_int_eq(ibu__bisect_init(&b, &r, 10, 5, &e), 0);
	ck_assert(fabs(ibu__bisect_ebb(&b, &r) - 1.0) < 1e-12);
	ibu__bisect_free(&b);
	N = x.g.num_hosts;
	x.g.num_hosts = 1;
	ck_assert_int_eq(ibu__bisect_init(&b, &r, 10, 5, &e), 0);
	ck_assert(ibu__bisect_ebb(&b, &r) == 0);
	ibu__bisect_free(&b);
	x.g.num_hosts = N;
	free(pbase);
	pgft_fixture_free(&x);
}
END_TEST

/* Walks: 2 (lca - 1) switch-to-switch cables on an intact tree, -1 for
 * LID 0 (none in the tables) and where an entry leads nowhere. */
START_TEST(walk_cables)
{
	struct fixture x;
	struct router r;
	int *pbase, slots[IBU__BISECT_HOPS], S, D, s;
	uint32_t lid;
	uint8_t old;

	tree(&x, "4,4,3", "1,2,2", "1,2,1", 0, 8);
	view(&x, &r, &pbase);
	for (S = 0; S < x.g.num_hosts; S++)
		for (D = 0; D < x.g.num_hosts; D++)
			ck_assert_int_eq(ibu__bisect_walk(&r, x.g.host[S].leaf,
					 ibu__bisect_lid(&r, D), slots,
					 IBU__BISECT_HOPS),
					 2 * (ibu_pgft_lca_level(&x.g, S, D) - 1));
	ck_assert_int_eq(ibu__bisect_walk(&r, x.g.host[0].leaf, 0, slots,
					  IBU__BISECT_HOPS), -1);
	D = x.g.num_hosts - 1;
	lid = ibu__bisect_lid(&r, D);
	s = x.g.host[0].leaf;
	ck_assert_int_eq(ibu_pgft_lca_level(&x.g, 0, D), 3);
	ck_assert_int_eq(ibu__bisect_walk(&r, s, lid, slots, 1), -1);	/* max */
	old = x.lft.row[s][lid];
	x.lft.row[s][lid] = IBU_NO_PATH;
	ck_assert_int_eq(ibu__bisect_walk(&r, s, lid, slots, IBU__BISECT_HOPS), -1);
	x.lft.row[s][lid] = old;
	free(pbase);
	pgft_fixture_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_bisect");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, sums_as_walked, 0, NUM_SHAPES);
	tcase_add_test(tc, one_switch_is_one);
	tcase_add_test(tc, walk_cables);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
