/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Shedding after the turns (lib/fattree/pgft_shed.c): on damaged trees
 * whose end ports' routes turn, the all-to-all's busiest cable sheds
 * messages to other ports of as many hops, the tables staying valid,
 * minimal and free of credit loops; where no end port's route turns (an
 * intact tree, a damaged one with up*|down* ways left) the pass checks
 * nothing.
 */
#include <string.h>
#include "unit.h"
#include "pgft_check.h"
#include "gen.h"
#include "pgft.h"

/*
 * Damaged IBFT(4,3)s of the random league whose hosts reach some others
 * only by a down-up turn, placed after the balance: the cables of the
 * turn switch carried the turned flows on top of an even share. With
 * the busiest cables shedding flows afterwards: two pods left one middle
 * switch each, under different halves of the tops (r05): every turn at
 * one leaf, in both directions (turns at two leaves of a pod close a
 * credit loop on one VL through the routes between those leaves), its
 * two hosts' 28 incoming flows and the 32 turned ones over its two
 * down-cables: 30 (was 32; dfsssp 28 on 2 VLs); four cut cables (r09):
 * 28 (was 30; dfsssp 28).
 */
START_TEST(turned_flows_shed)
{
	static const struct {
		int links, switches;
		uint64_t seed;
		long limit;
	} t[] = { { 1, 2, 639768, 30 }, { 4, 0, 60626, 28 } };
	struct ibu_gen_opts o = pgft_league_opts(t[_i].links,
						 t[_i].switches, t[_i].seed);
	struct ibu_err e = { 0 };
	struct fixture x;
	long shift, a2a;

	memset(&x, 0, sizeof(x));
	ck_assert_int_eq(ibu_gen_fattree(&x.f, 4, 3, &o, &e), 0);
	pgft_recognize_faults(&x);
	ck_assert_int_gt(x.g.num_faults, 0);
	pgft_lids_and_route(&x);
	pgft_assert_valid_rule(&x);
	pgft_loads(&x, &shift, &a2a);
	ck_assert_int_eq(a2a, t[_i].limit);
	pgft_fixture_free(&x);
}
END_TEST


/*
 * Where the pass runs: an intact IBFT(4,3) and a damaged PGFT whose end
 * ports all keep an up*|down* way (cuts and a switch gone: the switches'
 * own packets take plain paths, no end port's route turns) are left to
 * the other passes, nothing checked; the league's r05 (turns at one
 * leaf) has LIDs checked, and its tables stay valid.
 */
START_TEST(only_where_routes_turn)
{
	static const struct {
		const char *m, *w, *p;
		int links, switches, records;
		uint64_t seed;
		int turns;
	} t[] = {
		{ "2,2,4", "1,2,2", "1,1,1", 0, 0, 1, 1, 0 },
		{ "4,4,3", "1,2,2", "1,2,1", 2, 1, 0, 2, 0 },
		{ "2,2,4", "1,2,2", "1,1,1", 1, 2, 1, 639768, 1 },
	};
	struct ibu_gen_opts o = { .shuffle_ports = 1,
				  .shuffle_records = t[_i].records,
				  .remove_links = t[_i].links,
				  .remove_switches = t[_i].switches,
				  .seed = t[_i].seed };
	struct ibu_pgft_route_stats st;
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };
	struct fixture x;

	memset(&x, 0, sizeof(x));
	ck_assert_int_eq(ibu_pgft_params_parse(t[_i].m, t[_i].w, t[_i].p, &P,
					       &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x.f, &P, 0, 0, &o, &e), 0);
	pgft_route_lmc0(&x, &st);
	ck_assert_int_eq(x.g.num_faults > 0, _i > 0);
	ck_assert_int_eq(st.turned > 0, t[_i].turns);
	ck_assert_int_eq(st.shed_checked > 0, t[_i].turns);
	pgft_assert_valid_updown(&x);
	pgft_fixture_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_shed");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, turned_flows_shed, 0, 2);
	tcase_add_loop_test(tc, only_where_routes_turn, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
