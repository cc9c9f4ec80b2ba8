/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Gathering each destination's arrivals on damaged 2-level PGFTs
 * (lib/fattree/pgft_gather.c): on a blocking tree where cyclic's eBB was
 * below OpenSM's dfsssp (live, tests/scripts/bench-league.sh, 5000
 * bisections), the pass moves entries and the eBB (this file's own
 * sample) ends above dfsssp's, with the all-to-all's busiest link and the
 * worst shift no higher than before; the tables stay valid, minimal and
 * credit-loop free.  A 3-level tree is left to the other passes.
 */
#include <string.h>
#include "unit.h"
#include "pgft_check.h"
#include "gen.h"
#include "pgft.h"

/* `ibunion gen pgft --m M1,M2 --w 1,W2 --p 1,1 --remove-links C
 * --remove-switches S --seed X --shuffle-ports --shuffle-records`, with
 * cyclic's all-to-all and worst shift before the pass and dfsssp's eBB. */
static const struct {
	int m1, m2, w2, cut, sw;
	uint64_t seed;
	long a2a, shift;
	double dfsssp;
} blocking[] = {
	{ 24, 30, 12, 4, 1, 2, 2040, 6, 0.3602 },	/* 720 hosts, 2:1 */
};

START_TEST(ebb_above_dfsssp)
{
	struct ibu_pgft_params P = { .h = 2, .m = { 0, blocking[_i].m1,
						    blocking[_i].m2 },
				     .w = { 0, 1, blocking[_i].w2 },
				     .p = { 0, 1, 1 } };
	struct ibu_gen_opts o = pgft_league_opts(blocking[_i].cut,
						 blocking[_i].sw,
						 blocking[_i].seed);
	struct ibu_pgft_route_stats st;
	struct ibu_err e = { 0 };
	struct fixture x;
	long shift, a2a;
	double ebb;

	memset(&x, 0, sizeof(x));
	ck_assert_int_eq(ibu_gen_pgft(&x.f, &P, 0, 0, &o, &e), 0);
	pgft_route_lmc0(&x, &st);
	ck_assert_int_gt(st.gather_moved, 0);
	pgft_loads(&x, &shift, &a2a);
	ck_assert_int_le(a2a, blocking[_i].a2a);
	ck_assert_int_le(shift, blocking[_i].shift);
	ebb = pgft_ebb(&x, 1000, 0x9e3779b97f4a7c15ULL);
	ck_assert_msg(ebb > blocking[_i].dfsssp, "eBB %.4f, dfsssp %.4f", ebb,
		      blocking[_i].dfsssp);
	pgft_assert_valid_updown(&x);
	pgft_fixture_free(&x);
}
END_TEST

/* A damaged 3-level tree: not this pass's (its arrivals depend on the
 * middle switches' entries too). */
START_TEST(three_levels_left_alone)
{
	struct ibu_pgft_route_stats st;
	struct fixture x;

	pgft_league_ibft(&x, 8, 3, 3, 2, 948995);
	pgft_route_lmc0(&x, &st);
	ck_assert_int_gt(st.shift_tries, 0);	/* the state it would use */
	ck_assert_int_eq(st.gather_moved, 0);
	pgft_fixture_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_gather");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, ebb_above_dfsssp, 0,
			    (int)(sizeof(blocking) / sizeof(blocking[0])));
	tcase_add_test(tc, three_levels_left_alone);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
