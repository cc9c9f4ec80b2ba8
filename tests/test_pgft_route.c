/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The generalised cyclic rule on shuffled PGFTs (lib/fattree/pgft_route.c,
 * lib/fattree/pgft_path.c), judged by the generic checks: every pair
 * reachable, minimal and up*|down* (lib/analysis/verify), no credit loop
 * (lib/analysis/cdg), base-LID shift permutations in host order and
 * all-to-all at the bounds of docs/design.md (walked here on the tables),
 * one climbing chain per source on the advised DLIDs.
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
#include "cdg.h"

static const struct {
	const char *m, *w, *p;
	int radix;
	long shift, a2a;	/* bounds: busiest cable, base LIDs */
} shapes[] = {
	{ "8,12", "1,4", "1,2", 0, 1, 95 },	/* parallel cables */
	{ "4,4,3", "1,4,4", "1,1,1", 0, 1, 47 },	/* 3 of 8 pods */
	{ "4,2,3", "1,2,2", "1,2,2", 0, 1, 23 },	/* parallel, 3 levels */
	{ "4,4,4", "1,2,2", "1,1,1", 0, 4, 192 },	/* blocking 2:1 twice */
	{ "6,4", "1,3", "1,1", 16, 2, 36 },	/* blocking 6:3, empty ports */
	{ "6", "1", "1", 10, 1, 5 },	/* one switch, empty ports */
	/* uneven: a leaf's hosts do not divide over its up-cables, its last
	 * hosts' up-slots rotated by the pair of leaves (the rule alone: 176
	 * and 2; 56 and 2) */
	{ "8,12", "1,3", "1,2", 0, 3, 120 },	/* PGFT(2; 8,12; 1,4; 1,2)
						 * without a top */
	{ "4,8", "1,3", "1,1", 0, 3, 40 },	/* IBFT(8,2) without a top */
	/* at their all-to-all bound: each leaf's senders as even over the
	 * parents as the leaves allow (by the source leaf's rank alone: 36,
	 * 110 and 444) */
	{ "4,7", "1,3", "1,1", 0, 3, 32 },	/* IBFT(8,2), a top and a
						 * leaf gone */
	{ "10,9", "1,4", "1,2", 0, 3, 100 },
	{ "12,16", "1,5", "1,1", 0, 4, 432 },
};

#define NUM_SHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

static void setup_shape(struct fixture *x, int i)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 21 + (uint64_t)i };
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_pgft_params_parse(shapes[i].m, shapes[i].w,
					       shapes[i].p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, shapes[i].radix, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize(&x->f, &x->g, &e) == 0, "%s", e.msg);
	pgft_lids_and_route(x);
	ck_assert_int_eq(x->lmc, ibu_pgft_needed_lmc(&x->g));
}

static void teardown_shape(struct fixture *x)
{
	pgft_fixture_free(x);
}

START_TEST(valid_minimal_updown_no_credit_loop)
{
	struct fixture x;
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_verify_result r;
	struct ibu_pgft_rule pr = { 0 };
	struct ibu_verify_rule rule;
	struct ibu_cdg cdg;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	int *rank, len = 0;

	setup_shape(&x, _i);
	ck_assert_int_eq(ibu_pgft_ranks(&x.f, &x.g, &rank, &e), 0);
	vo.rank = rank;
	pr.g = &x.g;
	pr.lmc = x.lmc;
	ibu_pgft_verify_rule(&rule, &pr);
	vo.rule = &rule;
	ck_assert_int_eq(ibu_verify_lft(&x.f, &x.lft, &vo, NULL, NULL, &r, &e), 0);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(r.loops, 0);
	ck_assert_int_eq(r.nonminimal, 0);
	ck_assert_int_eq(r.turns, 0);
	ck_assert_int_eq(r.rule_mismatches, 0);
	ck_assert_int_gt(r.rule_entries, 0);
	ck_assert_int_eq(r.pairs, r.ok);
	ck_assert_int_eq(ibu_cdg_init(&cdg, &x.f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&cdg, &x.lft, &x.map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 0);
	ck_assert_int_eq(len, 0);
	free(cyc);
	ibu_cdg_free(&cdg);
	free(rank);
	teardown_shape(&x);
}
END_TEST

/* Cable loads of base-LID messages S -> D (each counted once per cable
 * direction): walks the tables from S's switch. */
static void walk(const struct fixture *x, long *load, int S, int D)
{
	const struct ibu_fabric *f = &x->f;
	int n = x->g.host[S].leaf;
	uint16_t lid = f->nodes[x->g.host[D].node].ports[x->g.host[D].port].lid;
	int hops = 0;

	while (hops++ < 16) {
		int p = ibu_lft_get(&x->lft, n, lid);

		ck_assert_int_ne(p, IBU_NO_PATH);
		load[n * (IBU_MAX_PORTS + 1) + p]++;
		n = f->nodes[n].ports[p].peer_node;
		if (!ibu_node_is_switch(&f->nodes[n]))
			break;
	}
	ck_assert_int_eq(n, x->g.host[D].node);
}

static long busiest(const struct fixture *x, int shift)
{
	long *load = calloc((size_t)x->f.num_nodes * (IBU_MAX_PORTS + 1),
			    sizeof(long)), max = 0;
	int N = x->g.num_hosts, S, k, i;

	ck_assert_ptr_nonnull(load);
	for (k = 1; k < N; k++) {
		if (shift && shift != k)
			continue;
		for (S = 0; S < N; S++)
			walk(x, load, S, (S + k) % N);
	}
	for (i = 0; i < x->f.num_nodes * (IBU_MAX_PORTS + 1); i++)
		if (load[i] > max)
			max = load[i];
	free(load);
	return max;
}

START_TEST(loads_at_the_bounds)
{
	struct fixture x;
	long worst = 0, b;
	int k;

	setup_shape(&x, _i);
	for (k = 1; k < x.g.num_hosts; k++) {
		b = busiest(&x, k);
		if (b > worst)
			worst = b;
	}
	ck_assert_int_eq(worst, shapes[_i].shift);
	ck_assert_int_eq(busiest(&x, 0), shapes[_i].a2a);
	teardown_shape(&x);
}
END_TEST

/* uneven=rule (ibu_pgft.uneven_rule): D-mod-K for every host of an
 * uneven tree's leaves, as before the rotation: all-to-all 176, every
 * shift at most 2. */
START_TEST(uneven_rule_keeps_d_mod_k)
{
	struct fixture x;
	struct ibu_err e = { 0 };
	long worst = 0, b;
	int k, i = 0;

	while (i < NUM_SHAPES - 1 && (strcmp(shapes[i].m, "8,12") ||
				      strcmp(shapes[i].w, "1,3")))
		i++;
	ck_assert_str_eq(shapes[i].w, "1,3");	/* PGFT(2; 8,12; 1,3; 1,2) */
	setup_shape(&x, i);
	ck_assert_int_eq(ibu_pgft_rotated(&x.g), 1);
	x.g.uneven_rule = 1;
	ck_assert_int_eq(ibu_pgft_rotated(&x.g), 0);
	ibu_lft_free(&x.lft);
	ck_assert_msg(ibu_pgft_route(&x.f, &x.g, &x.map, x.lmc, &x.lft, &e) == 0,
		      "%s", e.msg);
	for (k = 1; k < x.g.num_hosts; k++) {
		b = busiest(&x, k);
		worst = b > worst ? b : worst;
	}
	ck_assert_int_eq(worst, 2);
	ck_assert_int_eq(busiest(&x, 0), 176);
	teardown_shape(&x);
}
END_TEST

/* On the advised DLIDs every climb of a source leaves each switch by one
 * port, whatever the destination. */
START_TEST(one_climbing_chain_per_source)
{
	struct fixture x;
	int S, D, n, p, hops, *out;

	setup_shape(&x, _i);
	out = malloc((size_t)x.f.num_nodes * sizeof(int));
	ck_assert_ptr_nonnull(out);
	for (S = 0; S < x.g.num_hosts; S++) {
		for (n = 0; n < x.f.num_nodes; n++)
			out[n] = -1;
		for (D = 0; D < x.g.num_hosts; D++) {
			const struct ibu_port *dp = &x.f.nodes[x.g.host[D].node]
						     .ports[x.g.host[D].port];
			uint32_t lid = dp->lid + ibu_pgft_offset(&x.g, x.lmc, S, D);

			if (D == S)
				continue;
			ck_assert_uint_lt(lid, dp->lid + (1u << dp->lmc));
			n = x.g.host[S].leaf;
			for (hops = 0; hops < 16; hops++) {
				int q;

				p = ibu_lft_get(&x.lft, n, lid);
				q = x.f.nodes[n].ports[p].peer_node;
				if (!ibu_node_is_switch(&x.f.nodes[q]) ||
				    x.g.level[q] < x.g.level[n])
					break;	/* no longer climbing */
				ck_assert_msg(out[n] < 0 || out[n] == p,
					      "host %d climbs through node %d on ports %d and %d",
					      S, n, out[n], p);
				out[n] = p;
				n = q;
			}
			ck_assert_int_eq(n, ibu_pgft_turn_switch(&x.f, &x.g, x.lmc,
								  S, D));
		}
	}
	free(out);
	teardown_shape(&x);
}
END_TEST

/* Fabrics where up*|down* leaves pairs out: hosts on tops, cut cables,
 * a switch gone. */
static const struct {
	const char *m, *w, *p;
	int spines, links, switches;
	uint64_t seed;
} turned[] = {
	{ "8,6", "1,4", "1,1", 2, 0, 0, 1 },	/* storage on 2 tops */
	{ "8,6", "1,4", "1,1", 4, 0, 0, 5 },	/* 4 hosts on tops */
	{ "4,4,8", "1,4,4", "1,1,1", 0, 1, 0, 3 },	/* IBFT(8,3), 1 cut */
	{ "4,4,8", "1,4,4", "1,1,1", 0, 3, 0, 2 },	/* 3 cuts */
	/* cuts, a switch gone: no end port needs a turn; the switches' own
	 * packets take plain paths */
	{ "4,4,3", "1,2,2", "1,2,1", 0, 2, 1, 2 },
};

/* Switches where an end port's route to lid goes down, then up again
 * (levels: 1 = leaves); at most one per LID, 0 when there is none. */
static int turn_switches(const struct fixture *x, uint32_t lid, int *at)
{
	const struct ibu_fabric *f = &x->f;
	int i, p, n = 0;

	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; p <= f->nodes[i].num_ports; p++) {
			int s = f->nodes[i].ports[p].peer_node, prev = -1, hops;
			int down = 0;

			if (ibu_node_is_switch(&f->nodes[i]) || s < 0)
				continue;
			for (hops = 0; hops < 16 && s >= 0 &&
			     ibu_node_is_switch(&f->nodes[s]); hops++) {
				uint8_t o = ibu_lft_get(&x->lft, s, lid);
				int q;

				if (prev >= 0)
					down = x->g.level[prev] > x->g.level[s];
				if (o == 0 || o == IBU_NO_PATH)
					break;
				q = f->nodes[s].ports[o].peer_node;
				if (down && q >= 0 &&
				    ibu_node_is_switch(&f->nodes[q]) &&
				    x->g.level[q] > x->g.level[s] &&
				    (n == 0 || *at != s)) {
					*at = s;
					n++;
				}
				prev = s;
				s = q;
			}
		}
	return n;
}

/* Unicast, switch LIDs included: no cycle in the channel dependencies. */
static void no_credit_loop(struct fixture *x)
{
	struct ibu_cdg cdg;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	int len = 0;

	ck_assert_int_eq(ibu_cdg_init(&cdg, &x->f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&cdg, &x->lft, &x->map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 0);
	free(cyc);
	ibu_cdg_free(&cdg);
}

/* ibunion gen pgft --m m --w w --p p (spines hosts on tops, o's faults)
 * into x, recognised within the default limit and routed at the LMC the
 * shape needs (what fits). */
static void gen_route(struct fixture *x, const char *m, const char *w,
		      const char *p, int spines, const struct ibu_gen_opts *o,
		      struct ibu_pgft_route_stats *st)
{
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_pgft_params_parse(m, w, p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, 0, spines, o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize_limit(&x->f, &x->g, NULL, 0, -1, &e) == 0,
		      "%s", e.msg);
	x->lmc = ibu_pgft_fit_lmc(&x->g, ibu_pgft_needed_lmc(&x->g));
	ck_assert_int_eq(ibu_pgft_assign_lids(&x->f, &x->g, x->lmc, &e), 0);
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->map.max_lid, &e), 0);
	ck_assert_msg(ibu_pgft_route_stats(&x->f, &x->g, &x->map, x->lmc,
					   &x->lft, st, &e) == 0, "%s", e.msg);
}

/*
 * Every switch has an entry for every LID (switch LIDs, hosts on tops
 * included), every end port reaches every LID, turns only where no
 * up*|down* path exists, at one switch per LID, and no credit loop.
 */
START_TEST(every_lid_reached_turns_confined)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = turned[_i].seed,
				  .remove_links = turned[_i].links,
				  .remove_switches = turned[_i].switches };
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_pgft_route_stats st;
	struct ibu_verify_result r;
	struct ibu_err e = { 0 };
	struct fixture x;
	uint32_t lid;
	int *rank, i, at = -1;

	gen_route(&x, turned[_i].m, turned[_i].w, turned[_i].p,
		  turned[_i].spines, &o, &st);
	/* turned: end ports' routes with their one turn; the switches'
	 * own packets elsewhere take a plain path (outside) */
	ck_assert_int_eq(st.turned > 0, _i < 4);
	ck_assert_int_eq(st.unrouted, 0);
	for (lid = 1; lid <= x.map.max_lid; lid++) {
		const struct ibu_lid_owner *ow = ibu_lidmap_get(&x.map, lid);

		if (!ow)
			continue;
		for (i = 0; i < x.f.num_nodes; i++)
			if (ibu_node_is_switch(&x.f.nodes[i]) && i != ow->node)
				ck_assert_msg(x.lft.row[i][lid] != IBU_NO_PATH,
					      "'%s' has no entry for LID %u",
					      x.f.nodes[i].name, lid);
		ck_assert_int_le(turn_switches(&x, lid, &at), 1);
	}
	ck_assert_int_eq(ibu_pgft_ranks(&x.f, &x.g, &rank, &e), 0);
	vo.rank = rank;
	ck_assert_int_eq(ibu_verify_lft(&x.f, &x.lft, &vo, NULL, NULL, &r, &e), 0);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(r.loops, 0);
	ck_assert_int_eq(r.turns, 0);
	ck_assert_int_eq(r.no_updown, 0);
	ck_assert_int_eq(r.needed_turns > 0, _i < 4);
	no_credit_loop(&x);
	free(rank);
	teardown_shape(&x);
}
END_TEST

/*
 * PGFT(3; 4,4,4; 1,2,2; 1,1,1), 4 cut cables (seed 7): in arrival order
 * a top's LID finds every turn closing a cycle with the turns chosen
 * before it, and 9 leaf entries stayed unrouted. The LIDs that failed go
 * first in a second pass: every switch reaches every LID, every end port
 * arrives, no credit loop (the switches' LIDs included).
 */
START_TEST(failed_turns_first_reach_every_lid)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 7,
				  .remove_links = 4 };
	struct ibu_verify_opts vo = { .max_errors = -1, .quiet = 1 };
	struct ibu_pgft_route_stats st;
	struct ibu_verify_result r;
	struct ibu_err e = { 0 };
	struct fixture x;

	gen_route(&x, "4,4,4", "1,2,2", "1,1,1", 0, &o, &st);
	ck_assert_int_gt(st.turned, 0);
	ck_assert_int_eq(st.unrouted, 0);
	ck_assert_int_eq(ibu_verify_lft(&x.f, &x.lft, &vo, NULL, NULL, &r, &e), 0);
	ck_assert_int_eq(r.unreachable, 0);
	ck_assert_int_eq(r.loops, 0);
	no_credit_loop(&x);
	teardown_shape(&x);
}
END_TEST

/* cdg trial additions: a rolled-back dependency is gone, the others stay */
START_TEST(cdg_rollback)
{
	struct fixture x;
	struct ibu_cdg cdg;
	struct ibu_cdg_channel *cyc = NULL, a = { 0, 1, 0 }, b = { 0, 2, 0 };
	struct ibu_err e = { 0 };
	size_t before;
	int len = 0;

	setup_shape(&x, 0);
	while (!ibu_node_is_switch(&x.f.nodes[a.node]))
		a.node = ++b.node;
	ck_assert_int_eq(ibu_cdg_init(&cdg, &x.f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&cdg, &x.lft, &x.map, &e), 0);
	before = cdg.num_deps;
	ibu_cdg_mark(&cdg);
	ck_assert_int_eq(ibu_cdg_add_dep(&cdg, &a, &b, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_dep(&cdg, &b, &a, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 1);
	free(cyc);
	ck_assert_int_eq(ibu_cdg_rollback(&cdg, &e), 0);
	ck_assert_uint_eq(cdg.num_deps, before);
	ck_assert_int_eq(ibu_cdg_find_cycle(&cdg, &cyc, &len, &e), 0);
	free(cyc);
	ibu_cdg_free(&cdg);
	teardown_shape(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_route");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, valid_minimal_updown_no_credit_loop, 0, NUM_SHAPES);
	tcase_add_loop_test(tc, loads_at_the_bounds, 0, NUM_SHAPES);
	tcase_add_test(tc, uneven_rule_keeps_d_mod_k);
	tcase_add_loop_test(tc, one_climbing_chain_per_source, 0, NUM_SHAPES);
	tcase_add_test(tc, failed_turns_first_reach_every_lid);
	tcase_add_loop_test(tc, every_lid_reached_turns_confined, 0,
			    (int)(sizeof(turned) / sizeof(turned[0])));
	tcase_add_test(tc, cdg_rollback);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
