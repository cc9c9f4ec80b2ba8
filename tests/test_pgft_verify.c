/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The cyclic rule as a verify hook (lib/fattree/pgft_verify.c): tables the
 * router wrote pass, every compute host's entry compared; one entry
 * moved to another port, a forwarding loop, a detour down and up again
 * are each reported; the climb check covers the up levels the LID
 * decides; the ranks and the hosts' LMC it hands the generic checks.
 */
#include <string.h>
#include "unit.h"
#include "pgft_util.h"
#include "gen.h"
#include "pgft.h"
#include "pgft_verify.h"
#include "lft.h"
#include "lidmap.h"
#include "verify.h"

/* PGFT(3; 4,4,4; 1,2,2; 1,1,1), shuffled (seed), recognised, LIDs at the
 * LMC the rule needs, routed. */
static void routed(struct fixture *x, uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = seed };
	struct ibu_pgft_params P = { .h = 3, .m = { 0, 4, 4, 4 },
				     .w = { 0, 1, 2, 2 }, .p = { 0, 1, 1, 1 } };
	struct ibu_err e = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&x->f, &x->g, &e) == 0, "%s", e.msg);
	pgft_lids_and_route(x);
}

/* x's tables checked with ranks and the generalised rule into r. */
static void check(struct fixture *x, struct ibu_verify_result *r)
{
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_pgft_rule pr = { .g = &x->g, .lmc = x->lmc };
	struct ibu_verify_rule rule;
	struct ibu_err e = { 0 };
	int *rank;

	ck_assert_int_eq(ibu_pgft_ranks(&x->f, &x->g, &rank, &e), 0);
	vo.rank = rank;
	ibu_pgft_verify_rule(&rule, &pr);
	vo.rule = &rule;
	ck_assert_msg(ibu_verify_lft(&x->f, &x->lft, &vo, NULL, NULL, r, &e) == 0,
		      "%s", e.msg);
	free(rank);
}

/* The base LID of compute host D. */
static uint32_t host_lid(const struct fixture *x, int D)
{
	return x->f.nodes[x->g.host[D].node].ports[x->g.host[D].port].lid;
}

/* The switch behind port p of switch s. */
static int peer(const struct fixture *x, int s, int p)
{
	return x->f.nodes[s].ports[p].peer_node;
}

/* A port of s to a switch of level lv other than port not; 0: none. */
static int port_to_level(const struct fixture *x, int s, int lv, int not)
{
	int p, q;

	for (p = 1; p <= x->f.nodes[s].num_ports; p++) {
		q = peer(x, s, p);
		if (p != not && q >= 0 && x->g.level[q] == lv)
			return p;
	}
	return 0;
}

/* The router's tables pass: every compute host's LID compared at every
 * switch (switches x hosts x 2^LMC entries), none differs, nothing else
 * is wrong. */
START_TEST(router_tables_pass)
{
	struct ibu_verify_result r;
	struct fixture x;

	routed(&x, 3 + (uint64_t)_i);
	check(&x, &r);
	ck_assert_int_eq(r.rule_entries,
			 (long)x.g.num_switches * x.g.num_hosts * (1L << x.lmc));
	ck_assert_int_eq(r.rule_mismatches, 0);
	ck_assert_int_eq(r.unreachable + r.loops + r.nonminimal + r.turns, 0);
	ck_assert_int_eq(r.path_violations, 0);
	pgft_fixture_free(&x);
}
END_TEST

/* The switch before host D's leaf on host S's route to D's base LID. */
static int last_middle(const struct fixture *x, int S, int D)
{
	uint32_t lid = host_lid(x, D);
	int n = x->g.host[S].leaf, prev = -1, hops;

	for (hops = 0; hops < 16 && n != x->g.host[D].leaf; hops++) {
		prev = n;
		n = peer(x, n, ibu_lft_get(&x->lft, n, lid));
	}
	ck_assert_int_eq(n, x->g.host[D].leaf);
	return prev;
}

/*
 * Entries toward host 0's base LID broken on purpose (E: a host of
 * another pod, s: the middle switch E's route to host 0 comes down by):
 *  0. E's leaf sends it up its other parent: the route still arrives,
 *     minimal; one rule mismatch;
 *  1. s sends it back up, where the top sends it down again: a
 *     forwarding loop; one mismatch;
 *  2. s sends it down to another leaf, which climbs to the other middle
 *     switch (for one LID, every leaf of a pod climbs by the same
 *     column: a second entry): arrives two hops late, down then up; two
 *     mismatches.
 * Put back, the tables pass again.
 */
START_TEST(broken_entry_reported)
{
	struct ibu_verify_result r;
	struct fixture x;
	uint32_t lid;
	int s, p, old, l = -1, lold = 0, E;

	routed(&x, 7);
	lid = host_lid(&x, 0);
	for (E = 1; ibu_pgft_lca_level(&x.g, 0, E) < 3; E++)
		;
	s = _i == 0 ? x.g.host[E].leaf : last_middle(&x, E, 0);
	old = ibu_lft_get(&x.lft, s, lid);
	if (_i == 2) {
		/* a leaf under s, not host 0's */
		for (p = 1; p <= x.f.nodes[s].num_ports; p++) {
			l = peer(&x, s, p);
			if (p != old && l >= 0 && x.g.level[l] == 1)
				break;
		}
		ck_assert_int_le(p, x.f.nodes[s].num_ports);
		lold = ibu_lft_get(&x.lft, l, lid);
		ck_assert_int_eq(peer(&x, l, lold), s);
		x.lft.row[l][lid] = (uint8_t)port_to_level(&x, l, 2, lold);
		ck_assert_int_gt(x.lft.row[l][lid], 0);
	} else {
		p = port_to_level(&x, s, x.g.level[s] + 1, old);
	}
	ck_assert_int_gt(p, 0);
	x.lft.row[s][lid] = (uint8_t)p;
	check(&x, &r);
	ck_assert_int_eq(r.rule_mismatches, _i == 2 ? 2 : 1);
	ck_assert_int_eq(r.loops > 0, _i == 1);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(r.nonminimal > 0 || r.turns > 0, _i == 2);
	x.lft.row[s][lid] = (uint8_t)old;
	if (l >= 0)
		x.lft.row[l][lid] = (uint8_t)lold;
	check(&x, &r);
	ck_assert_int_eq(r.rule_mismatches + r.loops + r.nonminimal + r.turns, 0);
	pgft_fixture_free(&x);
}
END_TEST

/* Ranks for up*|down*: h - level for switches, h for end nodes; the
 * hosts' LMC is their smallest. */
START_TEST(ranks_and_hosts_lmc)
{
	struct ibu_err e = { 0 };
	struct fixture x;
	int *rank, n, D;

	routed(&x, 11);
	ck_assert_int_eq(ibu_pgft_ranks(&x.f, &x.g, &rank, &e), 0);
	for (n = 0; n < x.f.num_nodes; n++)
		ck_assert_int_eq(rank[n], ibu_node_is_switch(&x.f.nodes[n]) ?
				 3 - x.g.level[n] : 3);
	free(rank);
	ck_assert_int_eq(ibu_pgft_hosts_lmc(&x.f, &x.g), x.lmc);
	ck_assert_int_gt(x.lmc, 0);
	D = x.g.num_hosts / 2;
	x.f.nodes[x.g.host[D].node].ports[x.g.host[D].port].lmc = 0;
	ck_assert_int_eq(ibu_pgft_hosts_lmc(&x.f, &x.g), 0);
	pgft_fixture_free(&x);
}
END_TEST

/*
 * check's chain rule covers the up levels the LID decides, no more: at
 * an LMC below the scheme's the destination picks the up-ports (no chain
 * is promised, none is reported broken); at the scheme's LMC one chain
 * per source holds, and an up entry moved off it is found.
 */
START_TEST(chain_checked_where_the_lid_decides)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 5 };
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_pgft_params P;
	struct ibu_pgft_rule pr = { 0 };
	struct ibu_verify_rule rule;
	struct ibu_verify_result r;
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	struct ibu_err e = { 0 };
	int lmc = _i ? 3 : 1, n, p, k;
	uint16_t lid;

	ck_assert_int_eq(ibu_pgft_params_parse("8,12", "1,4", "1,2", &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&f, &g, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ibu_pgft_needed_lmc(&g), 3);
	ck_assert_int_eq(ibu_pgft_assign_lids(&f, &g, lmc, &e), 0);
	ck_assert_int_eq(ibu_lidmap_build(&f, &map, &e), 0);
	ck_assert_int_eq(ibu_pgft_route(&f, &g, &map, lmc, &lft, &e), 0);
	pr.g = &g;
	pr.lmc = lmc;
	ibu_pgft_verify_rule(&rule, &pr);
	vo.rule = &rule;
	ck_assert_int_eq(ibu_verify_lft(&f, &lft, &vo, NULL, NULL, &r, &e), 0);
	ck_assert_int_eq(r.path_levels, _i ? 1 : 0);
	ck_assert_int_eq(r.path_violations, 0);
	if (_i) {
		/* host 0's leaf sends host 40's advised DLID up another port */
		n = g.host[0].leaf;
		lid = (uint16_t)(f.nodes[g.host[40].node].ports[g.host[40].port].lid +
				 ibu_pgft_offset(&g, lmc, 0, 40));
		p = ibu_lft_get(&lft, n, lid);
		for (k = 1; k <= f.nodes[n].num_ports; k++)
			if (k != p && f.nodes[n].ports[k].peer_node >= 0 &&
			    ibu_node_is_switch(&f.nodes[f.nodes[n].ports[k].peer_node]))
				break;
		ck_assert_int_le(k, f.nodes[n].num_ports);
		lft.row[n][lid] = (uint8_t)k;
		ck_assert_int_eq(ibu_verify_lft(&f, &lft, &vo, NULL, NULL, &r, &e), 0);
		ck_assert_int_ge(r.path_violations, 1);
	}
	ibu_lft_free(&lft);
	ibu_lidmap_free(&map);
	ibu_pgft_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_verify");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, router_tables_pass, 0, 2);
	tcase_add_loop_test(tc, broken_entry_reported, 0, 3);
	tcase_add_test(tc, ranks_and_hosts_lmc);
	tcase_add_loop_test(tc, chain_checked_where_the_lid_decides, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
