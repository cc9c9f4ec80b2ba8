/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Routes with one down-up turn (lib/fattree/pgft_turn.c) where a damaged
 * PGFT leaves pairs no up*|down* path: every pair routed, a turn only
 * where no up*|down* path exists, minimal among the routes that exist,
 * no credit loop on one VL; the turns gathered where the cables are
 * whole, not under a middle switch that lost a cable to a top, and the
 * shift pass spreading the turned routes over parallel cables.
 */
#include <string.h>
#include "unit.h"
#include "pgft_check.h"
#include "gen.h"
#include "pgft.h"
#include "lft.h"
#include "lidmap.h"

/* PGFT(3; 4,4,4; 1,2,2; 1,2,2), as the league generates it with 3 cut
 * cables and 2 switches gone (seed): two pods left one middle switch
 * each, under different halves of the tops, so their hosts reach each
 * other only through a leaf of a third pod, down then up. */
static void cut_apart(struct fixture *x, int cut, uint64_t seed)
{
	struct ibu_pgft_params P = { .h = 3, .m = { 0, 4, 4, 4 },
				     .w = { 0, 1, 2, 2 }, .p = { 0, 1, 2, 2 } };

	pgft_league_pgft(x, &P, cut, 2, seed);
}

/* Cables from switch s to switches one level up. */
static int up_cables(const struct fixture *x, int s)
{
	const struct ibu_node *n = &x->f.nodes[s];
	int p, w, k = 0;

	for (p = 1; p <= n->num_ports; p++) {
		w = n->ports[p].peer_node;
		k += w >= 0 && x->g.level[w] == x->g.level[s] + 1;
	}
	return k;
}

/* The switch where host S's route to host D goes down then up, -1: none
 * (the walk arrives: pgft_assert_valid_updown). */
static int turn_at(const struct fixture *x, int S, int D)
{
	const struct ibu_fabric *f = &x->f;
	uint16_t lid = f->nodes[x->g.host[D].node].ports[x->g.host[D].port].lid;
	int prev = -1, n = x->g.host[S].leaf, next, hops;

	for (hops = 0; hops < 16 && n != x->g.host[D].leaf; hops++) {
		next = f->nodes[n].ports[ibu_lft_get(&x->lft, n, lid)].peer_node;
		if (prev >= 0 && x->g.level[prev] > x->g.level[n] &&
		    x->g.level[next] > x->g.level[n])
			return n;
		prev = n;
		n = next;
	}
	return -1;
}

/*
 * The turns' leaf: its middle switches keep every cable to the tops. By
 * nearest, then GUID, every turn went to a leaf of the pod whose middle
 * switch had lost a cable to a top: that cable carried 288 messages of
 * the all-to-all (the bound: 256) and 11 of the worst shift at LMC 0;
 * at a leaf of a whole pod 272 and 10, and 8 once the shift pass moves
 * the turned routes' messages between parallel cables before the turn
 * (pgft_shift.c, twin_cable).
 */
START_TEST(turns_where_cables_are_whole)
{
	struct ibu_pgft_route_stats st;
	struct fixture x;
	int S, D, t, nt = 0, n, p, full;
	long shift, a2a;

	cut_apart(&x, 3, 387255);
	pgft_route_lmc0(&x, &st);
	pgft_assert_valid_updown(&x);
	ck_assert_int_gt(st.turned, 0);
	full = x.g.P.w[3] * x.g.P.p[3];
	for (S = 0; S < x.g.num_hosts; S++)
		for (D = 0; D < x.g.num_hosts; D++) {
			if ((t = turn_at(&x, S, D)) < 0)
				continue;
			nt++;
			for (p = 1; p <= x.f.nodes[t].num_ports; p++) {
				n = x.f.nodes[t].ports[p].peer_node;
				if (n >= 0 && x.g.level[n] == 2)
					ck_assert_int_eq(up_cables(&x, n), full);
			}
		}
	ck_assert_int_gt(nt, 0);
	pgft_loads(&x, &shift, &a2a);
	ck_assert_int_lt(a2a, 288);
	ck_assert_int_lt(shift, 10);
	pgft_fixture_free(&x);
}
END_TEST

/* Other seeds of that shape: whatever turns they need, every pair
 * routed, turns only where needed, minimal, no credit loop on one VL. */
START_TEST(valid_on_damaged_pgfts)
{
	static const uint64_t seeds[] = { 387255, 101, 102, 103, 104, 105 };
	struct ibu_pgft_route_stats st;
	struct fixture x;

	cut_apart(&x, 2 + _i % 2, seeds[_i]);
	pgft_route_lmc0(&x, &st);
	pgft_assert_valid_updown(&x);
	pgft_fixture_free(&x);
}
END_TEST

/*
 * PGFT(3; 4,4,4; 1,2,2; 1,1,1), as the league generates it with 4 cut
 * cables and a switch gone (seed 69414): one pod's middle switches reach
 * only one half of the tops, another's only the other half, and in the
 * second a leaf lost the cable to the middle switch with the tops, its
 * other one lost every parent. That leaf's hosts reach the first pod's
 * only with two down-up turns, and no turn switch serves every leaf of
 * its pod: every leaf of the pod lost the first pod's hosts (448 pairs
 * unreached). Now the turn switch serves the leaves it reaches and that
 * leaf goes through a sibling's turn: every pair arrives, no credit
 * loop on one VL.
 */
START_TEST(second_turn_through_a_sibling)
{
	struct ibu_pgft_params P = { .h = 3, .m = { 0, 4, 4, 4 },
				     .w = { 0, 1, 2, 2 }, .p = { 0, 1, 1, 1 } };
	struct ibu_pgft_route_stats st;
	struct fixture x;
	long shift, a2a;

	pgft_league_pgft(&x, &P, 4, 1, 69414);
	pgft_route_lmc0(&x, &st);
	pgft_assert_valid_updown(&x);
	pgft_loads(&x, &shift, &a2a);	/* every pair arrives */
	ck_assert_int_gt(st.twice, 0);
	ck_assert_int_le(st.twice, st.turned);
	pgft_fixture_free(&x);
}
END_TEST

/* A league IBFT(m,n) routed on one VL into x (st) and with turns on VL 1
 * (turns=own-vl, qos TRUE) into y (sl). */
static void ibft_both_ways(struct fixture *x, struct fixture *y,
			   struct ibu_pgft_route_stats *st,
			   struct ibu_pgft_route_stats *sl, int m, int n,
			   int cut, int sw, uint64_t seed)
{
	pgft_league_ibft(x, m, n, cut, sw, seed);
	pgft_route_lmc0_turns(x, st, 0);
	pgft_league_ibft(y, m, n, cut, sw, seed);
	pgft_route_lmc0_turns(y, sl, 1);
}

/*
 * IBFT(4,3) as the league generates it with 4 cut cables and a switch
 * gone (seed 138028): 60 pairs have no up*|down* path. On one VL their
 * turns must close no cycle with every other route, so they gather at
 * few switches; with turns=own-vl they ride VL 1 and are checked among
 * themselves, and spread: eBB 0.526 -> 0.542 (2000 bisections), the
 * worst shift (3) and the all-to-all (24) stay. Valid on the two VLs (SL
 * 1 exactly for the routes with a valley), while on one VL the same
 * tables hold a credit loop.
 */
START_TEST(own_vl_turns_spread)
{
	struct ibu_pgft_route_stats st, sl;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	struct ibu_cdg cdg;
	struct fixture x, y;
	long shift, a2a, lshift, la2a;
	int len;

	ibft_both_ways(&x, &y, &st, &sl, 4, 3, 4, 1, 138028);
	ck_assert_int_eq(st.layered, 0);
	ck_assert_int_eq(sl.layered, 1);
	ck_assert_int_gt(sl.layered_lids, 0);
	ck_assert_int_gt(sl.turned, 0);
	pgft_assert_valid_updown(&x);
	pgft_assert_valid_on(&y, 0, 1);
	ck_assert_int_eq(ibu_cdg_init(&cdg, &y.f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&cdg, &y.lft, &y.map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 1);
	free(cyc);
	ibu_cdg_free(&cdg);
	pgft_loads(&x, &shift, &a2a);
	pgft_loads(&y, &lshift, &la2a);
	ck_assert_int_le(lshift, shift);
	ck_assert_int_le(la2a, a2a);
	ck_assert(pgft_ebb(&y, 2000, 1) > pgft_ebb(&x, 2000, 1) + 0.01);
	pgft_fixture_free(&x);
	pgft_fixture_free(&y);
}
END_TEST

/*
 * Turns on VL 1 spread by host: PGFT(2; 18,8; 1,3; 1,1) as the league drew
 * it with 3 cut cables and a leaf and a spine gone (seed 47's r07, seed
 * 850165): three leaves hang from one spine each, one from the other
 * spine than the two others, so 2 x 18 x 18 pairs turn at a leaf that
 * keeps both spines. Gathered at one such leaf, a shift sent a leaf's 18
 * turned flows down the one cable that also carries another leaf's 18
 * with no other way (worst shift 36, dfsssp 20 live); a leaf's hosts'
 * turns spread over the four junction leaves take it to 23 (the cable
 * down to the fourth keeps its 18), the eBB up too.
 */
START_TEST(own_vl_turns_by_host)
{
	struct ibu_pgft_params P = { .h = 2, .m = { 0, 18, 8 },
				     .w = { 0, 1, 3 }, .p = { 0, 1, 1 } };
	struct ibu_pgft_route_stats sl;
	struct fixture y;
	long shift, a2a;

	pgft_league_loads(&y, &P, 3, 2, 850165, &sl, &shift, &a2a);
	ck_assert_int_eq(sl.layered, 1);
	ck_assert_int_gt(sl.turned, 0);
	ck_assert_int_eq(shift, 23);
	ck_assert_int_eq(a2a, 1944);
	ck_assert(pgft_ebb(&y, 2000, 1) > 0.1992);	/* gathered: 0.1986 */
	pgft_fixture_free(&y);
}
END_TEST

/* turns=own-vl where no route needs a turn (PGFT(2; 4,4; 1,2; 1,2), one
 * of two parallel cables cut): nothing changes, every route on SL 0
 * (st.layered 0). */
START_TEST(own_vl_without_turns)
{
	struct ibu_pgft_params P = { .h = 2, .m = { 0, 4, 4 },
				     .w = { 0, 1, 2 }, .p = { 0, 1, 2 } };
	struct ibu_pgft_route_stats st, sl;
	struct fixture x, y;

	pgft_league_pgft(&x, &P, 1, 0, 7);
	pgft_route_lmc0_turns(&x, &st, 0);
	pgft_league_pgft(&y, &P, 1, 0, 7);
	pgft_route_lmc0_turns(&y, &sl, 1);
	ck_assert_int_gt(sl.balanced, 0);
	ck_assert_int_eq(sl.layered, 0);
	ck_assert_int_eq(sl.layered_lids, 0);
	pgft_assert_same_lfts(&x, &y);
	pgft_fixture_free(&x);
	pgft_fixture_free(&y);
}
END_TEST

/* IBFT(8,2) with a cut cable: a leaf's hosts reach the spine it lost
 * only by a turn, toward that switch's own LID, and no host's route
 * toward another host turns: no VL 1 (every route SL 0, QoS's SLs kept),
 * the tables those of one VL. */
START_TEST(own_vl_not_for_switch_lids)
{
	struct ibu_pgft_route_stats st, sl;
	struct fixture x, y;

	ibft_both_ways(&x, &y, &st, &sl, 8, 2, 1, 0, 7);
	ck_assert_int_gt(sl.turned, 0);
	ck_assert_int_eq(sl.layered, 0);
	pgft_assert_same_lfts(&x, &y);
	pgft_assert_valid_updown(&y);
	pgft_fixture_free(&x);
	pgft_fixture_free(&y);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_turn");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, turns_where_cables_are_whole);
	tcase_add_loop_test(tc, valid_on_damaged_pgfts, 0, 6);
	tcase_add_test(tc, second_turn_through_a_sibling);
	tcase_add_test(tc, own_vl_turns_spread);
	tcase_add_test(tc, own_vl_without_turns);
	tcase_add_test(tc, own_vl_turns_by_host);
	tcase_add_test(tc, own_vl_not_for_switch_lids);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
