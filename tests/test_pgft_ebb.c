/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Raising the eBB estimate on damaged fat trees (lib/fattree/pgft_ebb.c):
 * on trees of the random league the pass moves entries and its estimate
 * rises; the worst shift stays at the shift pass's, the all-to-all's
 * busiest link does not rise above what the pass started from; the
 * tables stay valid, minimal, credit-loop free and deterministic; an
 * intact tree is left alone.
 */
#include <string.h>
#include "unit.h"
#include "pgft_util.h"
#include "gen.h"
#include "pgft.h"
#include "lft.h"
#include "lidmap.h"
#include "pgft_verify.h"
#include "verify.h"
#include "cdg.h"

/* IBFT(m,n) as `ibunion gen fattree m n --shuffle-ports --shuffle-records
 * --remove-links cut --remove-switches sw --seed seed` (the league's). */
static void build(struct fixture *x, int m, int n, int cut, int sw,
		  uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .remove_links = cut, .remove_switches = sw,
				  .seed = seed };
	struct ibu_err e = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ibu_gen_fattree(&x->f, m, n, &o, &e), 0);
}

/* Recognised (faults allowed), LIDs at LMC 0 (`ibunion route --lmc 0`),
 * routed; the balance's figures in st. */
static void route(struct fixture *x, struct ibu_pgft_route_stats *st)
{
	struct ibu_err e = { 0 };

	ck_assert_msg(ibu_pgft_recognize_limit(&x->f, &x->g, NULL, 0, -1, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(ibu_pgft_assign_lids(&x->f, &x->g, 0, &e), 0);
	x->lmc = 0;
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->map.max_lid, &e), 0);
	ck_assert_msg(ibu_pgft_route_stats(&x->f, &x->g, &x->map, 0, &x->lft,
					   st, &e) == 0, "%s", e.msg);
}

/* Link loads of host S to D added to load ([node (IBU_MAX_PORTS + 1) +
 * port]); 0 when the walk does not arrive. */
static int walk(const struct fixture *x, int S, int D, long *load)
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

static long busiest(const struct fixture *x, const long *load)
{
	long max = 0;
	int i;

	for (i = 0; i < x->f.num_nodes * (IBU_MAX_PORTS + 1); i++)
		max = load[i] > max ? load[i] : max;
	return max;
}

/* The worst shift (every k = 1..N-1) and the all-to-all's busiest link,
 * every walk arriving. */
static void loads(const struct fixture *x, long *shift, long *a2a)
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
			ck_assert_int_eq(walk(x, S, (S + k) % N, load), 1);
		if (busiest(x, load) > *shift)
			*shift = busiest(x, load);
		for (i = 0; i < cells; i++)
			all[i] += load[i];
	}
	*a2a = busiest(x, all);
	free(load);
	free(all);
}

/* Every pair arrives, no loop, minimal among up*|down* paths (a pair
 * with none turns once), no credit loop on one VL. */
static void assert_valid(struct fixture *x)
{
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_verify_result r;
	struct ibu_cdg cdg;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	int len = 0, *rank;

	ck_assert_int_eq(ibu_pgft_ranks(&x->f, &x->g, &rank, &e), 0);
	vo.rank = rank;
	ck_assert_int_eq(ibu_verify_lft(&x->f, &x->lft, &vo, NULL, NULL, &r, &e), 0);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(r.loops, 0);
	ck_assert_int_eq(r.nonminimal, 0);
	ck_assert_int_eq(r.turns, 0);	/* needed_turns: pairs with none */
	free(rank);
	ck_assert_int_eq(ibu_cdg_init(&cdg, &x->f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&cdg, &x->lft, &x->map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 0);
	ck_assert_int_eq(len, 0);
	free(cyc);
	ibu_cdg_free(&cdg);
}

/* IBFT(m,n) of the random league with cuts and switches gone. */
static const struct {
	int m, n, cut, sw;
	uint64_t seed;
} damaged[] = {
	{ 4, 3, 4, 0, 874530 },		/* r80 */
	{ 8, 3, 3, 2, 948995 },		/* r73 */
};

START_TEST(estimate_rises)
{
	struct ibu_pgft_route_stats st;
	struct fixture x;
	long shift, a2a;

	build(&x, damaged[_i].m, damaged[_i].n, damaged[_i].cut,
	      damaged[_i].sw, damaged[_i].seed);
	route(&x, &st);
	loads(&x, &shift, &a2a);
	ck_assert_int_gt(st.ebb_tries, 0);
	ck_assert_int_gt(st.ebb_moved, 0);
	ck_assert_msg(st.ebb_to > st.ebb_from, "eBB %f -> %f", st.ebb_from,
		      st.ebb_to);
	ck_assert_int_le(shift, st.shift_to);
	ck_assert_int_le(a2a, st.ebb_a2a);
	assert_valid(&x);
	pgft_fixture_free(&x);
}
END_TEST

/* Two runs, the same tables. */
START_TEST(deterministic)
{
	struct ibu_pgft_route_stats st;
	struct fixture x, y;
	int s;
	uint32_t lid;

	build(&x, 4, 3, 4, 0, 874530);
	build(&y, 4, 3, 4, 0, 874530);
	route(&x, &st);
	route(&y, &st);
	for (s = 0; s < x.f.num_nodes; s++)
		if (ibu_node_is_switch(&x.f.nodes[s]))
			for (lid = 1; lid <= x.map.max_lid; lid++)
				ck_assert_int_eq(ibu_lft_get(&x.lft, s, lid),
						 ibu_lft_get(&y.lft, s, lid));
	pgft_fixture_free(&x);
	pgft_fixture_free(&y);
}
END_TEST

/* An intact tree: the pass does not run. */
START_TEST(intact_left_alone)
{
	struct ibu_pgft_route_stats st;
	struct fixture x;
	struct ibu_err e = { 0 };

	memset(&x, 0, sizeof(x));
	ck_assert_int_eq(ibu_gen_fattree(&x.f, 8, 3, NULL, &e), 0);
	route(&x, &st);
	ck_assert_int_eq(st.ebb_tries, 0);
	ck_assert_int_eq(st.ebb_moved, 0);
	pgft_fixture_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_ebb");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, estimate_rises, 0,
			    (int)(sizeof(damaged) / sizeof(damaged[0])));
	tcase_add_test(tc, deterministic);
	tcase_add_test(tc, intact_left_alone);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
