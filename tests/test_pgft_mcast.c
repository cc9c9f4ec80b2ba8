/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Union multicast trees on PGFTs with faults (lib/fattree/pgft_mcast.c). */
#include <string.h>
#include "unit.h"
#include "pgft.h"
#include "pgft_mcast.h"
#include "gen.h"

struct fix {
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_mcast_member mem[512];
	int n;
};

/* A damaged, shuffled PGFT and every cabled end port as a member. */
static void fix_up(struct fix *x, const char *m, const char *w, const char *p,
		   int links, int switches, uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = seed, .remove_links = links,
				  .remove_switches = switches };
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };
	int i, q;

	ck_assert_int_eq(ibu_pgft_params_parse(m, w, p, &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibu_pgft_recognize_limit(&x->f, &x->g, NULL, 0, -1, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(x->g.num_faults, links + switches);
	x->n = 0;
	for (i = 0; i < x->f.num_nodes && x->n < 512; i++)
		for (q = 1; !ibu_node_is_switch(&x->f.nodes[i]) &&
		     q <= x->f.nodes[i].num_ports; q++)
			if (x->f.nodes[i].ports[q].peer_node >= 0) {
				x->mem[x->n].node = i;
				x->mem[x->n].port = q;
				x->mem[x->n++].send_only = 0;
			}
}

static void fix_down(struct fix *x)
{
	ibu_pgft_free(&x->g);
	ibu_fabric_free(&x->f);
}

/*
 * The tree is a union of down paths from its apex: every tree switch
 * but the apex has exactly one tree cable to a switch above it, the apex
 * none, and every member's switch is in the tree with the member's port.
 */
static void assert_down_tree(const struct fix *x, const struct ibu_mcast_member *m,
			     int n, const struct ibu_pgft_mcast_tree *t)
{
	int i, p, k, up;

	ck_assert_int_ge(t->apex, 0);
	ck_assert_int_eq(x->g.level[t->apex], x->g.P.h);
	for (i = 0; i < t->num_switches; i++) {
		int s = t->nodes[i];

		for (up = 0, p = 1; p <= x->f.nodes[s].num_ports; p++) {
			int q = x->f.nodes[s].ports[p].peer_node;

			if (ibu_pm_test(&t->ports[i], p) && q >= 0 &&
			    ibu_node_is_switch(&x->f.nodes[q]) &&
			    x->g.level[q] > x->g.level[s])
				up++;
		}
		ck_assert_int_eq(up, s == t->apex ? 0 : 1);
	}
	for (k = 0; k < n; k++) {
		int s = x->f.nodes[m[k].node].ports[m[k].port].peer_node;

		for (i = 0; i < t->num_switches && t->nodes[i] != s; i++)
			;
		ck_assert_int_lt(i, t->num_switches);
		ck_assert(ibu_pm_test(&t->ports[i],
				      x->f.nodes[m[k].node].ports[m[k].port].peer_port));
	}
}

/* Cut cables and a missing middle switch: groups of every size still
 * get a tree of down paths from a top that reaches all their members. */
START_TEST(tree_around_faults)
{
	struct fix x;
	struct ibu_pgft_mcast_tree t;
	struct ibu_err e = { 0 };
	int step;

	fix_up(&x, "4,4,3", "1,2,2", "1,2,1", 2, 1, 5);
	for (step = 1; step <= 7; step += 3) {
		struct ibu_mcast_member sub[512];
		int i, n = 0;

		for (i = 0; i < x.n; i += step)
			sub[n++] = x.mem[i];
		ck_assert_msg(ibu_pgft_mcast_tree_build(&x.f, &x.g, sub, n, IBU_MCAST_COMPACT, NULL,
							0xc000, &t, &e) == 0,
			      "%s", e.msg);
		assert_down_tree(&x, sub, n, &t);
		ibu_pgft_mcast_tree_free(&t);
	}
	fix_down(&x);
}
END_TEST

/*
 * Faults that leave no top with a way down to every member: no
 * up-then-down tree exists and the group is refused (a shortest way
 * there would turn down-up: credit loops with unicast), not built.
 */
START_TEST(no_tree_refused)
{
	struct fix x;
	struct ibu_pgft_mcast_tree t;
	struct ibu_err e = { 0 };

	fix_up(&x, "4,4,4", "1,2,2", "1,1,1", 4, 0, 12);
	ck_assert_int_eq(ibu_pgft_mcast_tree_build(&x.f, &x.g, x.mem, x.n, IBU_MCAST_COMPACT, NULL,
						   0xc000, &t, &e), IBU_ETOPO);
	ck_assert_ptr_nonnull(strstr(e.msg, "no up-then-down tree"));
	ck_assert_int_eq(t.apex, -1);
	ck_assert_ptr_null(t.nodes);
	fix_down(&x);
}
END_TEST

/* Switches holding an entry of any of 12 groups (each tree checked)
 * built one after the other with one load state. */
static int union_of_groups(struct fix *x, enum ibu_mcast_policy pol,
			   enum ibu_mcast_policy want_used, int *tops)
{
	struct ibu_pgft_mcast_load *load;
	struct ibu_pgft_mcast_tree t;
	struct ibu_err e = { 0 };
	char held[4096] = { 0 }, top[4096] = { 0 };
	int gi, i, n, k = 0;

	ck_assert_int_lt(x->f.num_nodes, 4096);
	ck_assert_int_eq(ibu_pgft_mcast_load_new(&x->g, &load, &e), 0);
	*tops = 0;
	for (gi = 0; gi < 12; gi++) {
		struct ibu_mcast_member sub[512];

		for (i = gi % 5, n = 0; i < x->n; i += 5 + gi % 3)
			sub[n++] = x->mem[i];
		ck_assert_msg(ibu_pgft_mcast_tree_build(&x->f, &x->g, sub, n, pol,
							load, 0xc000 + (uint32_t)gi,
							&t, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(t.policy, want_used);
		assert_down_tree(x, sub, n, &t);
		for (i = 0; i < t.num_switches; i++) {
			k += !held[t.nodes[i]];
			held[t.nodes[i]] = 1;
		}
		*tops += !top[t.apex];
		top[t.apex] = 1;
		ibu_pgft_mcast_tree_free(&t);
	}
	ibu_mcload_state_free(load);
	return k;
}

/*
 * mcast_apex on a PGFT: compact keeps the switches that ever held a tree
 * to one set of tops sharing their children (fewer than balanced, which
 * spreads over every top; at most one top's worth more than lowest-guid,
 * which puts every group on one top); source without a send-only member
 * falls back to balanced; with one, its apex is where that host climbs.
 */
START_TEST(apex_policies)
{
	struct fix x;
	struct ibu_pgft_mcast_tree t;
	struct ibu_mcast_member one[3];
	struct ibu_err e = { 0 };
	int bal, cmp, low, src, tb, tc, tl, ts, S, D;

	fix_up(&x, "4,4,3", "1,4,4", "1,1,1", 0, 0, 8);
	bal = union_of_groups(&x, IBU_MCAST_BALANCED, IBU_MCAST_BALANCED, &tb);
	cmp = union_of_groups(&x, IBU_MCAST_COMPACT, IBU_MCAST_COMPACT, &tc);
	low = union_of_groups(&x, IBU_MCAST_LOWEST_GUID, IBU_MCAST_LOWEST_GUID, &tl);
	src = union_of_groups(&x, IBU_MCAST_SOURCE, IBU_MCAST_BALANCED, &ts);
	ck_assert_int_eq(tl, 1);
	ck_assert_int_gt(tb, tc);
	ck_assert_int_gt(tc, 1);
	ck_assert_int_lt(cmp, bal);
	ck_assert_int_le(low, cmp);
	ck_assert_int_eq(src, bal);
	ck_assert_int_eq(ts, tb);
	/* a send-only member: the tree's apex is its climb's top (where its
	 * route on the advised DLID to a host in another pod turns) */
	one[0] = x.mem[0];
	one[0].send_only = 1;
	S = ibu_pgft_host(&x.g, one[0].node, one[0].port);
	for (D = 0; D < x.g.num_hosts &&
	     ibu_pgft_lca_level(&x.g, S, D) < x.g.P.h; D++)
		;
	ck_assert_int_lt(D, x.g.num_hosts);
	one[1].node = x.g.host[D].node;
	one[1].port = x.g.host[D].port;
	one[1].send_only = 0;
	one[2] = x.mem[x.n / 2];
	ck_assert_int_eq(ibu_pgft_mcast_tree_build(&x.f, &x.g, one, 3,
						   IBU_MCAST_SOURCE, NULL, 1,
						   &t, &e), 0);
	ck_assert_int_eq(t.policy, IBU_MCAST_SOURCE);
	ck_assert_int_eq(t.apex, ibu_pgft_turn_switch(&x.f, &x.g,
				ibu_pgft_needed_lmc(&x.g), S, D));
	ibu_pgft_mcast_tree_free(&t);
	fix_down(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_mcast");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, tree_around_faults);
	tcase_add_test(tc, no_tree_refused);
	tcase_add_test(tc, apex_policies);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
