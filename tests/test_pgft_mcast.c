/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Union multicast trees on fat trees (lib/fattree/pgft_mcast.c): PGFTs
 * with faults, and IBFT(m,n) as the engine holds it (a PGFT with the
 * paper's labels): [Zhou07] Fig. 7 entry by entry, the apex at the
 * members' lowest common level, the policies, and the flood check
 * (mcflood) on the tables.
 */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "pgft.h"
#include "pgft_mcast.h"
#include "cyclic_pgft.h"
#include "gen.h"
#include "linkload.h"
#include "mcflood.h"
#include "mcmembers.h"
#include "mft_dump.h"
#include "netfile.h"
#include "engine.h"
#include "cdg.h"

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
	ck_assert_int_eq(x->g.level[t->apex], t->level);
	ck_assert_int_eq(t->nodes[0], t->apex);	/* top down */
	for (i = 0; i < t->num_switches; i++) {
		int s = t->nodes[i];

		for (up = 0, p = 1; p <= x->f.nodes[s].num_ports; p++) {
			int q = x->f.nodes[s].ports[p].peer_node;

			if (ibu_pm_test(&t->ports[i], p) && q >= 0 &&
			    ibu_node_is_switch(&x->f.nodes[q]) &&
			    x->g.level[q] > x->g.level[s])
				up++;
		}
		ck_assert_int_le(x->g.level[s], t->level);
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
		ck_assert_msg(ibu_pgft_mcast_tree_build(&x.f, &x.g, NULL, sub, n, IBU_MCAST_COMPACT, NULL,
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
	ck_assert_int_eq(ibu_pgft_mcast_tree_build(&x.f, &x.g, NULL, x.mem, x.n, IBU_MCAST_COMPACT, NULL,
						   0xc000, &t, &e), IBU_ETOPO);
	ck_assert_ptr_nonnull(strstr(e.msg, "no up-then-down tree"));
	ck_assert_int_eq(t.apex, -1);
	ck_assert_ptr_null(t.nodes);
	fix_down(&x);
}
END_TEST

/*
 * A fat tree that lost every top is one switch with its hosts: each
 * group's tree is that switch alone, with exactly its receivers' ports
 * (send-only members left out), under every policy.
 */
START_TEST(one_switch_member_ports)
{
	static const enum ibu_mcast_policy pol[] = {
		IBU_MCAST_COMPACT, IBU_MCAST_BALANCED, IBU_MCAST_SOURCE,
		IBU_MCAST_LOWEST_GUID
	};
	struct ibu_pgft_mcast_load *load;
	struct ibu_pgft_mcast_tree t;
	struct ibu_err e = { 0 };
	struct fix x;
	int pi, step, i, want, sw;

	fix_up(&x, "7", "1", "1", 0, 0, 4);
	ck_assert_int_eq(x.g.P.h, 1);
	ck_assert_int_eq(ibu_pgft_mcast_load_new(&x.f, &x.g, &load, &e), 0);
	sw = x.f.nodes[x.mem[0].node].ports[x.mem[0].port].peer_node;
	for (pi = 0; pi < 4; pi++)
		for (step = 1; step <= 3; step++) {
			struct ibu_mcast_member sub[512];
			int n = 0;

			for (i = pi % 2; i < x.n; i += step) {
				sub[n] = x.mem[i];
				sub[n++].send_only = i % 3 == 2;
			}
			ck_assert_msg(ibu_pgft_mcast_tree_build(&x.f, &x.g, NULL, sub, n,
								pol[pi], load, 0xc000 + (uint32_t)step,
								&t, &e) == 0, "%s", e.msg);
			ck_assert_int_eq(t.apex, sw);
			ck_assert_int_eq(t.num_switches, 1);
			for (want = 0, i = 0; i < n; i++) {
				int p = x.f.nodes[sub[i].node].ports[sub[i].port].peer_port;

				ck_assert(ibu_pm_test(&t.ports[0], p) == !sub[i].send_only);
				want += !sub[i].send_only;
			}
			ck_assert_int_eq(ibu_pm_count(&t.ports[0]), want);
			ibu_pgft_mcast_tree_free(&t);
		}
	ibu_mcload_state_free(load);
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
	ck_assert_int_eq(ibu_pgft_mcast_load_new(&x->f, &x->g, &load, &e), 0);
	*tops = 0;
	for (gi = 0; gi < 12; gi++) {
		struct ibu_mcast_member sub[512];

		for (i = gi % 5, n = 0; i < x->n; i += 5 + gi % 3)
			sub[n++] = x->mem[i];
		ck_assert_msg(ibu_pgft_mcast_tree_build(&x->f, &x->g, NULL, sub, n, pol,
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
	ck_assert_int_eq(ibu_pgft_mcast_tree_build(&x.f, &x.g, NULL, one, 3,
						   IBU_MCAST_SOURCE, NULL, 1,
						   &t, &e), 0);
	ck_assert_int_eq(t.policy, IBU_MCAST_SOURCE);
	ck_assert_int_eq(t.apex, ibu_pgft_turn_switch(&x.f, &x.g,
				ibu_pgft_needed_lmc(&x.g), S, D));
	ibu_pgft_mcast_tree_free(&t);
	fix_down(&x);
}
END_TEST

/* Two compute hosts of x whose lowest common level is l (-1 if none). */
static int pair_at(const struct fix *x, int l, int *S, int *D)
{
	for (*S = 0; *S < x->g.num_hosts; (*S)++)
		for (*D = 0; *D < x->g.num_hosts; (*D)++)
			if (*S != *D && ibu_pgft_lca_level(&x->g, *S, *D) == l)
				return 0;
	return -1;
}

/*
 * On a PGFT too the apex sits at the members' lowest common level: a
 * group inside one leaf stays on it, one inside a level-2 sub-tree on one
 * of its w_2 level-2 switches (PGFT(3; 4,4,3; 1,2,2; 1,2,1), 2 parallel
 * cables up from every leaf), each a tree every member gets once.
 */
START_TEST(pgft_apex_at_lowest_common_level)
{
	struct fix x;
	struct ibu_pgft_mcast_tree t;
	struct ibu_mcast_member m[3];
	struct ibu_err e = { 0 };
	int l, S, D, i;

	fix_up(&x, "4,4,3", "1,2,2", "1,2,1", 0, 0, 6);
	for (l = 1; l <= x.g.P.h; l++) {
		ck_assert_int_eq(pair_at(&x, l, &S, &D), 0);
		m[0].node = x.g.host[S].node;
		m[0].port = x.g.host[S].port;
		m[0].send_only = 1;
		m[1].node = x.g.host[D].node;
		m[1].port = x.g.host[D].port;
		m[1].send_only = 0;
		ck_assert_int_eq(ibu_pgft_mcast_tree_build(&x.f, &x.g, NULL, m, 2,
				IBU_MCAST_BALANCED, NULL, 0xc000 + (uint32_t)l,
				&t, &e), 0);
		ck_assert_int_eq(t.level, l);
		ck_assert_int_eq(t.common, 1);
		ck_assert_int_eq(t.num_candidates,
				 l == 1 ? 1 : l == 2 ? x.g.P.w[2] :
				 x.g.P.w[2] * x.g.P.w[3]);
		/* the two leaves and one switch per level above them */
		ck_assert_int_eq(t.num_switches, l == 1 ? 1 : 2 * (l - 1) + 1);
		assert_down_tree(&x, &m[1], 1, &t);
		/* the sender's port is not in the tree, its leaf is */
		i = ibu_pgft_mcast_tree_find(&t, x.g.host[S].leaf);
		ck_assert_int_ge(i, 0);
		ck_assert(!ibu_pm_test(&t.ports[i], x.f.nodes[m[0].node]
					.ports[m[0].port].peer_port));
		ibu_pgft_mcast_tree_free(&t);
	}
	fix_down(&x);
}
END_TEST

/* ------------------------------------------------- IBFT(m,n) ([Zhou07]) */

/* An IBFT as the engine holds it: a PGFT with the paper's labels. */
struct ft {
	struct ibu_fabric f;
	struct ibu_cyclic_pgft *c;
	const struct ibu_pgft *g;
	const struct ibu_pgft_ibft *x;
};

static void ft_make(struct ft *x, int m, int n, int shuffle, uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = shuffle,
				  .shuffle_records = shuffle, .seed = seed };
	struct ibu_err e = { 0 };
	int rc;

	ck_assert_int_eq(ibu_gen_fattree(&x->f, m, n, &o, &e), 0);
	ck_assert_int_eq(ibu_fabric_index(&x->f, &e), 0);
	rc = ibu_cyclic_pgft_recognise(&x->f, NULL, 0, 0,
				       IBU_CYCLIC_GENERALISED, &x->c, &e);
	ck_assert_msg(rc == 0, "IBFT(%d,%d): %s", m, n, e.msg);
	ck_assert_ptr_nonnull(x->c->ibft);
	x->g = &x->c->g;
	x->x = x->c->ibft;
}

static void ft_free(struct ft *x)
{
	ibu_cyclic_pgft_free(x->c);
	ibu_fabric_free(&x->f);
}

static int num_hosts(const struct ft *x)
{
	return x->g->num_hosts;
}

/* D of label digits p0..p(n-1) (p0 most significant). */
static int pid_of(const struct ft *x, const int *p)
{
	uint32_t pid = (uint32_t)p[0];
	int i, D;

	for (i = 1; i < x->x->n; i++)
		pid = pid * (uint32_t)x->x->half + (uint32_t)p[i];
	for (D = 0; D < x->g->num_hosts && x->x->pid[D] != pid; D++)
		;
	ck_assert_int_lt(D, x->g->num_hosts);
	return D;
}

static struct ibu_mcast_member member_of(const struct ft *x, int D,
					 int send_only)
{
	struct ibu_mcast_member m = { .node = x->g->host[D].node,
				      .port = x->g->host[D].port,
				      .send_only = send_only };
	return m;
}

/* Paper level of a switch (0 = top). */
static int plevel(const struct ft *x, int node)
{
	return x->g->P.h - x->g->level[node];
}

/* The switch SW<w0 w1, level> of an IBFT(m,3), m <= 10. */
static int sw_of(const struct ft *x, int level, int w0, int w1)
{
	char want[32], got[64];
	int n;

	snprintf(want, sizeof(want), "SW<%d%d,%d>", w0, w1, level);
	for (n = 0; n < x->f.num_nodes; n++) {
		ibu_pgft_ibft_sw_label(x->g, x->x, n, got, sizeof(got));
		if (!strcmp(got, want))
			return n;
	}
	ck_abort_msg("no switch %s", want);
	return -1;
}

/* Digit i of a switch's label. */
static int label_digit(const struct ft *x, int node, int i)
{
	return x->x->w[(size_t)node * IBU_PGFT_MAX_H + (size_t)i];
}

static int build(const struct ft *x, const struct ibu_mcast_member *m, int n,
		 enum ibu_mcast_policy p, struct ibu_pgft_mcast_load *l,
		 uint32_t key, struct ibu_pgft_mcast_tree *t, struct ibu_err *e)
{
	return ibu_pgft_mcast_tree_build(&x->f, x->g, x->x, m, n, p, l, key,
					 t, e);
}

/* The mask of switch node as a set of paper ports (bit k). */
static unsigned paper_set(const struct ft *x,
			  const struct ibu_pgft_mcast_tree *t, int node)
{
	int i = ibu_pgft_mcast_tree_find(t, node), p;
	unsigned set = 0;

	if (i < 0)
		return 0;
	ck_assert(!ibu_pm_test(&t->ports[i], 0));
	for (p = 1; p < 256; p++)
		if (ibu_pm_test(&t->ports[i], p)) {
			int k = ibu_pgft_ibft_port(&x->f, x->g, x->x, node, p);

			ck_assert_int_gt(k, 0);
			set |= 1u << k;
		}
	return set;
}

/* Ports of node in the tree (0 when it is not in it). */
static int tree_ports(const struct ibu_pgft_mcast_tree *t, int node)
{
	int i = ibu_pgft_mcast_tree_find(t, node);

	return i < 0 ? 0 : ibu_pm_count(&t->ports[i]);
}

/* Switch-to-switch cables of the tree. */
static int tree_links(const struct ft *x, const struct ibu_pgft_mcast_tree *t)
{
	int i, p, k = 0;

	for (i = 0; i < t->num_switches; i++) {
		int s = t->nodes[i];

		for (p = 1; p <= x->f.nodes[s].num_ports; p++) {
			int q = x->f.nodes[s].ports[p].peer_node;

			k += ibu_pm_test(&t->ports[i], p) && q >= 0 &&
			     x->g->level[q] >= 1 &&
			     x->g->level[q] == x->g->level[s] - 1;
		}
	}
	return k;
}

#define K(a) (1u << (a))

/*
 * [Zhou07] Fig. 7: P(000) multicasts to P(200), P(201), P(210), P(211)
 * on IBFT(4,3). The paper lists, per switch, the ports a packet from
 * P(000) leaves by: SW<00,2>={3}, SW<00,1>={3}, SW<00,0>={3},
 * SW<20,1>={1,2}, SW<20,2>={1,2}, SW<21,2>={1,2} (the last two are the
 * member ports). The MFT also holds the port each packet arrives by (the
 * other end of each tree link), except at P(000)'s own leaf: P(000) only
 * sends, so its port is not in the tree.
 */
static void fig7(enum ibu_mcast_policy policy, int shuffle)
{
	static const int dst[4][3] = {
		{ 2, 0, 0 }, { 2, 0, 1 }, { 2, 1, 0 }, { 2, 1, 1 } };
	static const int src[3] = { 0, 0, 0 };
	struct ibu_mcast_member mem[5];
	struct ibu_pgft_mcast_tree tree;
	struct ibu_err e = { 0 };
	struct ft x;
	int i;
	struct { int s; unsigned out, in; } want[6];

	ft_make(&x, 4, 3, shuffle, 7);
	mem[0] = member_of(&x, pid_of(&x, src), 1);
	for (i = 0; i < 4; i++)
		mem[i + 1] = member_of(&x, pid_of(&x, dst[i]), 0);
	ck_assert_int_eq(build(&x, mem, 5, policy, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex, sw_of(&x, 0, 0, 0));
	ck_assert_int_eq(plevel(&x, tree.apex), 0);
	ck_assert_int_eq(tree.common, 1);
	ck_assert_int_eq(tree.policy, policy);
	ck_assert_int_eq(tree.num_candidates, 4);
	ck_assert_int_eq(tree.num_members, 5);
	ck_assert_int_eq(tree.num_receivers, 4);
	ck_assert_int_eq(tree.num_switches, 6);
	ck_assert_int_eq(tree.nodes[0], tree.apex);	/* top down */

	want[0].s = sw_of(&x, 2, 0, 0); want[0].out = K(3); want[0].in = 0;
	want[1].s = sw_of(&x, 1, 0, 0); want[1].out = K(3); want[1].in = K(1);
	want[2].s = sw_of(&x, 0, 0, 0); want[2].out = K(3); want[2].in = K(1);
	want[3].s = sw_of(&x, 1, 2, 0); want[3].out = K(1) | K(2); want[3].in = K(3);
	want[4].s = sw_of(&x, 2, 2, 0); want[4].out = K(1) | K(2); want[4].in = K(3);
	want[5].s = sw_of(&x, 2, 2, 1); want[5].out = K(1) | K(2); want[5].in = K(3);
	for (i = 0; i < 6; i++) {
		unsigned got = paper_set(&x, &tree, want[i].s);

		ck_assert_msg(got == (want[i].out | want[i].in),
			      "switch %d: paper ports 0x%x, want 0x%x", i, got,
			      want[i].out | want[i].in);
		ck_assert_msg((got & ~want[i].in) == want[i].out,
			      "switch %d: out ports differ from the paper", i);
	}
	for (i = 0; i < tree.num_switches; i++)
		ck_assert(!ibu_pm_empty(&tree.ports[i]));
	ibu_pgft_mcast_tree_free(&tree);
	ft_free(&x);
}

START_TEST(paper_fig7_source)
{
	fig7(IBU_MCAST_SOURCE, 0);
}
END_TEST

START_TEST(paper_fig7_source_shuffled)
{
	fig7(IBU_MCAST_SOURCE, 1);
}
END_TEST

START_TEST(paper_fig7_balanced_empty_load)
{
	/* no load yet: every candidate carries 0 trees, lowest label wins */
	fig7(IBU_MCAST_BALANCED, 1);
}
END_TEST

/* The source policy's apex is the top of the sender's own cyclic climb. */
START_TEST(source_apex_follows_cyclic_climb)
{
	struct ibu_mcast_member mem[3];
	struct ibu_pgft_mcast_tree tree;
	struct ibu_err e = { 0 };
	struct ft x;
	int src[3], a, b, c;

	ft_make(&x, 4, 3, 1, 3);
	for (a = 0; a < 4; a++)
		for (b = 0; b < 2; b++)
			for (c = 0; c < 2; c++) {
				int d1[3] = { (a + 1) % 4, 0, 1 };
				int d2[3] = { (a + 2) % 4, 1, 0 };

				src[0] = a; src[1] = b; src[2] = c;
				mem[0] = member_of(&x, pid_of(&x, d1), 0);
				mem[1] = member_of(&x, pid_of(&x, src), 1);
				mem[2] = member_of(&x, pid_of(&x, d2), 0);
				ck_assert_int_eq(build(&x, mem, 3, IBU_MCAST_SOURCE,
						       NULL, 0, &tree, &e), 0);
				/* top switch = up-digits (p2, p1) of the source */
				ck_assert_int_eq(tree.apex, sw_of(&x, 0, c, b));
				ck_assert_int_eq(tree.policy, IBU_MCAST_SOURCE);
				ibu_pgft_mcast_tree_free(&tree);
			}
	/* same pod: LCA level 1, apex SW<a p2, 1> */
	src[0] = 1; src[1] = 0; src[2] = 1;
	{
		int d[3] = { 1, 1, 0 };

		mem[0] = member_of(&x, pid_of(&x, d), 0);
		mem[1] = member_of(&x, pid_of(&x, src), 1);
		ck_assert_int_eq(build(&x, mem, 2, IBU_MCAST_SOURCE, NULL, 0,
				       &tree, &e), 0);
		ck_assert_int_eq(plevel(&x, tree.apex), 1);
		ck_assert_int_eq(tree.apex, sw_of(&x, 1, 1, 1));
		ck_assert_int_eq(tree.num_candidates, 2);
		ibu_pgft_mcast_tree_free(&tree);
	}
	/* no send-only member: source falls back to balanced */
	mem[1].send_only = 0;
	ck_assert_int_eq(build(&x, mem, 2, IBU_MCAST_SOURCE, NULL, 0, &tree,
			       &e), 0);
	ck_assert_int_eq(tree.policy, IBU_MCAST_BALANCED);
	ck_assert_int_eq(tree.apex, sw_of(&x, 1, 1, 0));
	ibu_pgft_mcast_tree_free(&tree);
	ft_free(&x);
}
END_TEST

/* ------------------------------------------------------------ floods */

static uint64_t rng = 12345;

static int rnd(int n)
{
	return (int)(ibu_gen_rand(&rng) % (uint64_t)n);
}

/* A random group of k distinct end ports, some send-only. */
static int random_group(const struct ft *x, int k, int send_only_pct,
			struct ibu_mcast_member *mem)
{
	int N = num_hosts(x), *perm = malloc((size_t)N * sizeof(*perm)), i;

	ck_assert_ptr_nonnull(perm);
	for (i = 0; i < N; i++)
		perm[i] = i;
	for (i = 0; i < k; i++) {
		int j = i + rnd(N - i), tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
		mem[i] = member_of(x, perm[i], rnd(100) < send_only_pct);
	}
	free(perm);
	return k;
}

struct counts {
	int n[IBU_MCF_KINDS];
};

static void count_issue(void *ctx, const struct ibu_mcf_issue *is)
{
	((struct counts *)ctx)->n[is->kind]++;
}

static void assert_exactly_once(const struct ibu_fabric *f,
				const struct ibu_mft *mft,
				const struct ibu_mcmembers *mm, long want_floods,
				long want_deliveries)
{
	struct ibu_mcf_stats st;
	struct counts c = { { 0 } };
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_mcf_run(f, mft, mm, count_issue, &c, &st, NULL,
				     &e), 0);
	ck_assert_int_eq(st.count[IBU_MCF_DEAD_PORT], 0);
	ck_assert_msg(ibu_mcf_problems(&st) == 0,
		      "missing %ld dup %ld stray %ld loop %ld dead %ld",
		      st.count[IBU_MCF_MISSING], st.count[IBU_MCF_DUPLICATE],
		      st.count[IBU_MCF_STRAY], st.count[IBU_MCF_LOOP],
		      st.count[IBU_MCF_DEAD_PORT]);
	ck_assert_int_eq(c.n[IBU_MCF_MISSING] + c.n[IBU_MCF_STRAY], 0);
	ck_assert_int_eq(st.floods, want_floods);
	ck_assert_int_eq(st.deliveries, want_deliveries);
}

static void random_groups(int m, int n, int groups, uint64_t seed)
{
	struct ibu_mcast_member *mem;
	struct ibu_pgft_mcast_load *load;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_err e = { 0 };
	struct ft x;
	long floods = 0, deliveries = 0;
	int g, i, N;

	rng = seed;
	ft_make(&x, m, n, 1, seed);
	N = num_hosts(&x);
	mem = malloc((size_t)N * sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_pgft_mcast_load_new(&x.f, x.g, &load, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < groups; g++) {
		struct ibu_pgft_mcast_tree tree;
		int k, recv = 0;
		uint16_t mlid = (uint16_t)(0xc001 + g);
		enum ibu_mcast_policy pol = (enum ibu_mcast_policy)(g % 4);

		/* sizes: 1, 2, whole fabric, then random */
		k = g == 0 ? 1 : g == 1 ? 2 : g == 2 ? N : 1 + rnd(N);
		random_group(&x, k, g == 2 ? 0 : 30, mem);
		ck_assert_int_eq(build(&x, mem, k, pol, load, mlid, &tree, &e), 0);
		ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, mlid, &mft,
							    &e), 0);
		for (i = 0; i < k; i++) {
			ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i], &e), 0);
			recv += !mem[i].send_only;
		}
		/* every sender reaches every receiver but itself */
		floods += k;
		for (i = 0; i < k; i++)
			deliveries += recv - !mem[i].send_only;
		/* up/down: the apex is the only switch at the top level */
		for (i = 1; i < tree.num_switches; i++)
			ck_assert_int_lt(x.g->level[tree.nodes[i]], tree.level);
		ibu_pgft_mcast_tree_free(&tree);
	}
	ck_assert_int_eq(ibu_mcload_count(&load->core), groups);
	assert_exactly_once(&x.f, &mft, &mm, floods, deliveries);
	ibu_mcmembers_free(&mm);
	ibu_mcload_state_free(load);
	ibu_mft_free(&mft);
	free(mem);
	ft_free(&x);
}

START_TEST(flood_exactly_once_ibft43)
{
	random_groups(4, 3, 40, 1);
}
END_TEST

START_TEST(flood_exactly_once_ibft83)
{
	random_groups(8, 3, 24, 2);
}
END_TEST

START_TEST(flood_exactly_once_odd_half)
{
	random_groups(6, 3, 24, 3);	/* m/2 = 3: not a power of two */
	random_groups(4, 4, 24, 4);
	random_groups(6, 2, 12, 5);
}
END_TEST

/* Port of s whose peer is node q, 0 if none. */
static int port_to(const struct ibu_fabric *f, int s, int q)
{
	int p;

	for (p = 1; p <= f->nodes[s].num_ports; p++)
		if (f->nodes[s].ports[p].peer_node == q)
			return p;
	return 0;
}

/* 1. a leaf also sends up to a parent outside the tree, which sends
 * down to another tree leaf of the pod: that leaf gets every packet
 * twice (loop), its members duplicates */
static void broken_loop(const struct ft *x, const struct ibu_pgft_mcast_tree *t,
			const struct ibu_mcmembers *mm, int L, int L2)
{
	struct ibu_mft bad;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	int p, y = -1, ph = 0, yp, down;

	ck_assert_int_ne(L, L2);
	ck_assert_int_eq(ibu_mft_init(&bad, x->f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(t, 0xc001, &bad, &e), 0);
	for (p = 1; p <= x->f.nodes[L].num_ports && y < 0; p++) {
		int q = x->f.nodes[L].ports[p].peer_node;

		if (q >= 0 && x->g->level[q] == 2 &&
		    ibu_pm_empty(ibu_mft_get(&bad, 0xc001, q))) {
			y = q;
			ph = p;
		}
	}
	ck_assert_int_ge(y, 0);
	yp = x->f.nodes[L].ports[ph].peer_port;
	down = port_to(&x->f, y, L2);
	ck_assert_int_gt(down, 0);
	ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, L, ph, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, y, yp, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, y, down, &e), 0);
	ck_assert_int_eq(ibu_mcf_run(&x->f, &bad, mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_gt(st.count[IBU_MCF_LOOP], 0);
	ck_assert_int_gt(ibu_mcf_problems(&st), 0);
	ibu_mft_free(&bad);
}

/* 2. an up port of the apex's child cleared -> members missing */
static void broken_missing(const struct ft *x,
			   const struct ibu_pgft_mcast_tree *t,
			   const struct ibu_mcmembers *mm)
{
	struct ibu_mft bad;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct ibu_mft_group *g;
	int child = t->nodes[1], q, apex = t->apex;

	ck_assert_int_eq(ibu_mft_init(&bad, x->f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(t, 0xc001, &bad, &e), 0);
	g = ibu_mft_group(&bad, 0xc001, &e);
	for (q = 1; q <= x->f.nodes[apex].num_ports; q++)
		if (x->f.nodes[apex].ports[q].peer_node == child)
			ibu_pm_clear(&g->mask[apex], q);
	ck_assert_int_eq(ibu_mcf_run(&x->f, &bad, mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_gt(st.count[IBU_MCF_MISSING], 0);
	ck_assert_int_eq(st.count[IBU_MCF_STRAY], 0);
	ibu_mft_free(&bad);
}

/* 3. the send-only member's port added -> stray copies */
static void broken_stray(const struct ft *x, const struct ibu_pgft_mcast_tree *t,
			 const struct ibu_mcmembers *mm, int D)
{
	struct ibu_mft bad;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	const struct ibu_port *cp =
		&x->f.nodes[x->g->host[D].node].ports[x->g->host[D].port];

	ck_assert_int_eq(ibu_mft_init(&bad, x->f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(t, 0xc001, &bad, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, cp->peer_node, cp->peer_port,
				     &e), 0);
	ck_assert_int_eq(ibu_mcf_run(&x->f, &bad, mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(st.count[IBU_MCF_STRAY], 5);	/* 5 senders */
	ck_assert_int_eq(st.count[IBU_MCF_MISSING], 0);
	/* without the member list, the same table is self-consistent */
	ck_assert_int_eq(ibu_mcf_run(&x->f, &bad, NULL, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_eq(st.floods, 6);
	ibu_mft_free(&bad);
}

/* The flood check must catch broken tables, not just pass good ones. */
START_TEST(flood_catches_broken_tables)
{
	struct ibu_mcast_member mem[6];
	struct ibu_pgft_mcast_tree tree;
	struct ibu_mcmembers mm, more;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct ft x;
	const int p[6][3] = { { 0, 0, 0 }, { 1, 1, 0 }, { 2, 0, 1 },
			      { 3, 1, 1 }, { 3, 1, 0 }, { 2, 1, 1 } };
	struct ibu_mcast_member extra;
	int i;

	ft_make(&x, 4, 3, 1, 11);
	ibu_mcmembers_init(&mm);
	for (i = 0; i < 6; i++) {
		mem[i] = member_of(&x, pid_of(&x, p[i]), i == 5);
		ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &mem[i], &e), 0);
	}
	ck_assert_int_eq(build(&x, mem, 6, IBU_MCAST_LOWEST_GUID, NULL, 0,
			       &tree, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, 0xc001, &mft, &e), 0);
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);

	broken_loop(&x, &tree, &mm, x.g->host[pid_of(&x, p[2])].leaf,
		    x.g->host[pid_of(&x, p[5])].leaf);
	broken_missing(&x, &tree, &mm);
	broken_stray(&x, &tree, &mm, pid_of(&x, p[5]));

	/* 4. a member the tables never heard of -> it misses everything */
	extra = member_of(&x, pid_of(&x, (int[3]){ 1, 0, 0 }), 0);
	ibu_mcmembers_init(&more);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(ibu_mcmembers_add(&more, 0xc001, &mem[i], &e), 0);
	ck_assert_int_eq(ibu_mcmembers_add(&more, 0xc001, &extra, &e), 0);
	ck_assert_int_eq(ibu_mcmembers_add(&more, 0xc002, &extra, &e), 0);
	ck_assert_int_eq(ibu_mcmembers_add(&more, 0xc002, &mem[0], &e), 0);
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &more, NULL, NULL, &st, NULL, &e), 0);
	/* 0xc001: 6 senders miss extra, extra's packets die at its
	 * leaf (5 receivers miss); 0xc002: no table, 2 misses */
	ck_assert_int_eq(st.count[IBU_MCF_MISSING], 6 + 5 + 2);
	ck_assert_int_eq(st.groups, 2);
	ibu_mcmembers_free(&more);
	ibu_pgft_mcast_tree_free(&tree);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ft_free(&x);
}
END_TEST

/* ------------------------------------------------------------ shapes */

START_TEST(one_member_one_leaf_one_pod)
{
	struct ibu_mcast_member mem[4];
	struct ibu_pgft_mcast_tree tree;
	struct ibu_err e = { 0 };
	struct ft x;
	int a[3] = { 5, 2, 1 }, b[3] = { 5, 2, 3 }, c[3] = { 5, 0, 0 };
	int pa, leaf;

	ft_make(&x, 8, 3, 1, 5);
	pa = pid_of(&x, a);
	leaf = x.g->host[pa].leaf;
	/* one full member: its leaf, its port, nothing else */
	mem[0] = member_of(&x, pa, 0);
	ck_assert_int_eq(build(&x, mem, 1, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), 0);
	ck_assert_int_eq(tree.apex, leaf);
	ck_assert_int_eq(plevel(&x, tree.apex), 2);
	ck_assert_int_eq(tree.num_switches, 1);
	ck_assert_int_eq(tree_ports(&tree, leaf), 1);
	ck_assert(ibu_pm_test(&tree.ports[0], x.f.nodes[mem[0].node]
				.ports[mem[0].port].peer_port));
	ibu_pgft_mcast_tree_free(&tree);
	/* one send-only member: nothing to program */
	mem[0].send_only = 1;
	ck_assert_int_eq(build(&x, mem, 1, IBU_MCAST_SOURCE, NULL, 0, &tree,
			       &e), 0);
	ck_assert_int_eq(tree_ports(&tree, leaf), 0);
	ck_assert_int_eq(tree.num_receivers, 0);
	ibu_pgft_mcast_tree_free(&tree);
	/* one leaf: apex is the leaf; duplicates merge, full wins */
	mem[0] = member_of(&x, pa, 1);
	mem[1] = member_of(&x, pid_of(&x, b), 0);
	mem[2] = member_of(&x, pa, 0);
	ck_assert_int_eq(build(&x, mem, 3, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), 0);
	ck_assert_int_eq(tree.apex, leaf);
	ck_assert_int_eq(tree.num_members, 2);
	ck_assert_int_eq(tree.num_receivers, 2);
	ck_assert_int_eq(tree_ports(&tree, leaf), 2);
	ibu_pgft_mcast_tree_free(&tree);
	/* one pod: level 1, 4 candidates, tree = apex + 2 leaves */
	mem[2] = member_of(&x, pid_of(&x, c), 0);
	ck_assert_int_eq(build(&x, mem, 3, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), 0);
	ck_assert_int_eq(plevel(&x, tree.apex), 1);
	ck_assert_int_eq(tree.num_candidates, 4);
	ck_assert_int_eq(tree.num_switches, 3);
	ck_assert_int_eq(label_digit(&x, tree.apex, 0), 5);
	ibu_pgft_mcast_tree_free(&tree);
	/* empty group */
	ck_assert_int_eq(build(&x, mem, 0, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), 0);
	ck_assert_int_eq(tree.apex, -1);
	ck_assert_int_eq(tree.num_switches, 0);
	ibu_pgft_mcast_tree_free(&tree);
	ft_free(&x);
}
END_TEST

START_TEST(whole_fabric_and_lowest_guid)
{
	struct ibu_mcast_member *mem;
	struct ibu_pgft_mcast_tree tree;
	struct ibu_err e = { 0 };
	struct ft x;
	uint64_t best = UINT64_MAX;
	int i, best_sw = -1, downs = 0, N;

	ft_make(&x, 8, 3, 1, 9);
	N = num_hosts(&x);
	mem = malloc((size_t)N * sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	for (i = 0; i < N; i++)
		mem[i] = member_of(&x, i, 0);
	for (i = 0; i < x.f.num_nodes; i++)
		if (x.g->level[i] == x.g->P.h && x.f.nodes[i].guid < best) {
			best = x.f.nodes[i].guid;
			best_sw = i;
		}
	ck_assert_int_eq(build(&x, mem, N, IBU_MCAST_LOWEST_GUID, NULL, 0,
			       &tree, &e), 0);
	ck_assert_int_eq(tree.apex, best_sw);
	ck_assert_int_eq(tree.num_candidates, 16);
	/* apex + 8 pod switches + 32 leaves */
	ck_assert_int_eq(tree.num_switches, 1 + 8 + 32);
	for (i = 0; i < tree.num_switches; i++)
		downs += ibu_pm_count(&tree.ports[i]);
	/* 40 links, both ends, plus 128 member ports */
	ck_assert_int_eq(downs, 2 * 40 + 128);
	ibu_pgft_mcast_tree_free(&tree);
	free(mem);
	ft_free(&x);
}
END_TEST

START_TEST(errors)
{
	struct ibu_mcast_member mem[2];
	struct ibu_pgft_mcast_tree tree;
	struct ibu_pgft_mcast_load *load;
	struct ibu_err e = { 0 };
	struct ft x, y;
	int top;

	ft_make(&x, 4, 3, 0, 1);
	mem[0] = member_of(&x, 0, 0);
	/* a switch joins through port 0 only */
	for (top = 0; x.g->level[top] != x.g->P.h; top++)
		;
	mem[1].node = top;
	mem[1].port = 2;
	mem[1].send_only = 0;
	ck_assert_int_eq(build(&x, mem, 2, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), IBU_ETOPO);
	ck_assert_int_eq(tree.apex, -1);
	ck_assert_ptr_null(tree.nodes);
	mem[1].node = x.f.num_nodes;
	ck_assert_int_eq(build(&x, mem, 2, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), IBU_EINVAL);
	mem[1] = member_of(&x, 1, 0);
	mem[1].port = 7;
	ck_assert_int_eq(build(&x, mem, 2, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), IBU_EINVAL);
	ft_make(&y, 6, 2, 0, 1);	/* a load state of another tree */
	ck_assert_int_eq(ibu_pgft_mcast_load_new(&y.f, y.g, &load, &e), 0);
	ck_assert_int_eq(build(&x, mem, 1, IBU_MCAST_BALANCED, load, 0, &tree,
			       &e), IBU_EINVAL);
	ibu_mcload_state_free(load);
	ft_free(&y);
	ft_free(&x);
}
END_TEST

/* A switch member receives on port 0 and the flood agrees. */
START_TEST(switch_member)
{
	struct ibu_mcast_member mem[3];
	struct ibu_pgft_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct ft x;
	int a[3] = { 0, 0, 1 }, b[3] = { 3, 1, 0 }, leaf, i;

	ft_make(&x, 4, 3, 1, 2);
	leaf = x.g->host[pid_of(&x, b)].leaf;
	mem[0] = member_of(&x, pid_of(&x, a), 0);
	mem[1].node = leaf;
	mem[1].port = 0;
	mem[1].send_only = 0;
	mem[2] = member_of(&x, pid_of(&x, b), 1);
	ck_assert_int_eq(build(&x, mem, 3, IBU_MCAST_BALANCED, NULL, 0, &tree,
			       &e), 0);
	i = ibu_pgft_mcast_tree_find(&tree, leaf);
	ck_assert_int_ge(i, 0);
	ck_assert(ibu_pm_test(&tree.ports[i], 0));
	ck_assert_int_eq(plevel(&x, tree.apex), 0);
	ibu_mcmembers_init(&mm);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc010, &mem[i], &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, 0xc010, &mft, &e), 0);
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_eq(st.floods, 3);
	ck_assert_int_eq(st.deliveries, 1 + 1 + 2);
	ibu_pgft_mcast_tree_free(&tree);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ft_free(&x);
}
END_TEST

/* ------------------------------------------------------------ balance */

/* Trees through switch node so far. */
static uint32_t trees_through(const struct ibu_pgft_mcast_load *l, int node)
{
	return l->core.count[0][node];
}

START_TEST(balanced_spreads_over_top_switches)
{
	struct ibu_mcast_member mem[13];
	struct ibu_pgft_mcast_load *load;
	struct ibu_pgft_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_err e = { 0 };
	struct ft x;
	int used[1024] = { 0 }, g, i, distinct = 0, tops = 0;

	rng = 99;
	ft_make(&x, 8, 3, 1, 17);
	ck_assert_int_le(x.f.num_nodes, 1024);
	for (i = 0; i < x.f.num_nodes; i++)
		tops += x.g->level[i] == x.g->P.h;
	ck_assert_int_eq(tops, 16);
	ck_assert_int_eq(ibu_pgft_mcast_load_new(&x.f, x.g, &load, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < 16; g++) {
		uint16_t mlid = (uint16_t)(0xc001 + g);

		/* 10% of 128 end ports, spanning two pods at least */
		do
			random_group(&x, 13, 0, mem);
		while (ibu_pgft_lca_level(x.g,
				ibu_pgft_host(x.g, mem[0].node, mem[0].port),
				ibu_pgft_host(x.g, mem[1].node, mem[1].port)) !=
		       x.g->P.h);
		ck_assert_int_eq(build(&x, mem, 13, IBU_MCAST_BALANCED, load,
				       mlid, &tree, &e), 0);
		ck_assert_int_eq(plevel(&x, tree.apex), 0);
		used[tree.apex]++;
		ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, mlid, &mft, &e), 0);
		for (i = 0; i < 13; i++)
			ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i], &e), 0);
		ibu_pgft_mcast_tree_free(&tree);
	}
	for (i = 0; i < x.f.num_nodes; i++) {
		distinct += used[i] > 0;
		ck_assert(!used[i] || x.g->level[i] == x.g->P.h);
	}
	ck_assert_int_eq(distinct, 16);
	/* each top switch carries exactly one tree */
	for (i = 0; i < x.f.num_nodes; i++)
		if (x.g->level[i] == x.g->P.h)
			ck_assert_int_eq(trees_through(load, i), 1);
	/* routing a group again releases its old tree first */
	random_group(&x, 13, 0, mem);
	ck_assert_int_eq(build(&x, mem, 13, IBU_MCAST_BALANCED, load, 0xc001,
			       &tree, &e), 0);
	ck_assert_int_eq(ibu_mcload_count(&load->core), 16);
	ibu_pgft_mcast_tree_free(&tree);
	ibu_mcload_release(&load->core, 0xc001);
	ibu_mcload_release(&load->core, 0xc001);
	ck_assert_int_eq(ibu_mcload_count(&load->core), 15);

	/* link load: the top links carry one tree each; a leaf link more */
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, &ll, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ibu_linkload_stats(&ll, &x.f, &ls);
	ck_assert_int_ge(ls.max_sw, 1);
	for (i = 0; i < x.f.num_nodes; i++) {
		int p;

		if (x.g->level[i] != x.g->P.h)
			continue;
		for (p = 1; p <= x.f.nodes[i].num_ports; p++)
			ck_assert_int_le(ll.load[ll.base[i] + p], 1);
	}
	ibu_linkload_free(&ll);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ibu_mcload_state_free(load);
	ft_free(&x);
}
END_TEST

/* Every switch-to-switch link's load: 1 on the tops' links, below on. */
static void assert_link_loads(const struct ft *x, const struct ibu_linkload *ll,
			      int below)
{
	int i, p;

	for (i = 0; i < x->f.num_nodes; i++) {
		if (x->g->level[i] < 1)
			continue;
		for (p = 1; p <= x->f.nodes[i].num_ports; p++) {
			int q = x->f.nodes[i].ports[p].peer_node;

			if (q < 0 || x->g->level[q] < 1)
				continue;
			ck_assert_int_eq(ll->load[ll->base[i] + p],
					 x->g->level[i] == x->g->P.h ||
					 x->g->level[q] == x->g->P.h ? 1 : below);
		}
	}
}

/*
 * Balanced looks below the apex too: 4 whole-fabric groups on IBFT(8,3)
 * get 4 top switches whose pod switches differ (no link carries 2 trees);
 * 16 such groups spread exactly evenly: every switch-to-switch link below
 * the top carries 4 trees, every top link 1.
 */
START_TEST(balanced_looks_below_the_apex)
{
	struct ibu_mcast_member *mem;
	struct ibu_pgft_mcast_load *load;
	struct ibu_pgft_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_err e = { 0 };
	struct ft x;
	int g, i, rounds, N;

	ft_make(&x, 8, 3, 1, 23);
	N = num_hosts(&x);
	mem = malloc((size_t)N * sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	for (i = 0; i < N; i++)
		mem[i] = member_of(&x, i, 0);
	for (rounds = 4; rounds <= 16; rounds += 12) {
		ck_assert_int_eq(ibu_pgft_mcast_load_new(&x.f, x.g, &load, &e), 0);
		ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
		ibu_mcmembers_init(&mm);
		for (g = 0; g < rounds; g++) {
			uint16_t mlid = (uint16_t)(0xc001 + g);

			ck_assert_int_eq(build(&x, mem, N, IBU_MCAST_BALANCED,
					       load, mlid, &tree, &e), 0);
			ck_assert_int_eq(tree_links(&x, &tree), tree.num_switches - 1);
			ck_assert_int_eq(trees_through(load, tree.apex), 1);
			ck_assert_int_eq(tree.scored, g != 15);	/* last: 1 left */
			ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, mlid, &mft, &e), 0);
			for (i = 0; i < 2; i++)	/* two members suffice for the flood */
				ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i * 77], &e), 0);
			ibu_pgft_mcast_tree_free(&tree);
		}
		ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, NULL, NULL, NULL, &st, &ll, &e), 0);
		ck_assert_int_eq(ibu_mcf_problems(&st), 0);
		ibu_linkload_stats(&ll, &x.f, &ls);
		ck_assert_int_eq(ls.max_sw, rounds == 4 ? 1 : 4);
		if (rounds == 16)
			assert_link_loads(&x, &ll, 4);
		ibu_linkload_free(&ll);
		ibu_mcmembers_free(&mm);
		ibu_mft_free(&mft);
		ibu_mcload_state_free(load);
	}
	free(mem);
	ft_free(&x);
}
END_TEST

/* Single-spine trees (what a non-balancing manager does) pile up. */
START_TEST(link_load_counts_trees)
{
	struct ibu_mcast_member mem[13];
	struct ibu_pgft_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_err e = { 0 };
	struct ft x;
	int g, i, p, apex = -1, top_max = 0;

	rng = 5;
	ft_make(&x, 8, 3, 0, 1);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < 16; g++) {
		uint16_t mlid = (uint16_t)(0xc001 + g);

		random_group(&x, 13, 0, mem);
		mem[0] = member_of(&x, 0, 0);
		mem[1] = member_of(&x, num_hosts(&x) - 1, 0);
		ck_assert_int_eq(build(&x, mem, 13, IBU_MCAST_LOWEST_GUID, NULL,
				       0, &tree, &e), 0);
		apex = tree.apex;
		ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, mlid, &mft, &e), 0);
		for (i = 0; i < 13; i++)
			ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i], &e), 0);
		ibu_pgft_mcast_tree_free(&tree);
	}
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, &ll, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	/* pods 0 and 7 are in every group: their links at the apex carry 16 */
	for (p = 1; p <= x.f.nodes[apex].num_ports; p++)
		if ((int)ll.load[ll.base[apex] + p] > top_max)
			top_max = (int)ll.load[ll.base[apex] + p];
	ck_assert_int_eq(top_max, 16);
	ibu_linkload_stats(&ll, &x.f, &ls);
	ck_assert_int_eq(ls.max_sw, 16);
	ibu_linkload_free(&ll);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ft_free(&x);
}
END_TEST

/* A group of one random end port under every leaf. */
static int every_leaf_group(const struct ft *x, struct ibu_mcast_member *mem)
{
	int N = num_hosts(x), i, k = 0;
	struct ibu_mcast_member *all = malloc((size_t)N * sizeof(*all));
	uint8_t *seen = calloc((size_t)x->f.num_nodes, 1);

	ck_assert_ptr_nonnull(all);
	ck_assert_ptr_nonnull(seen);
	random_group(x, N, 0, all);
	for (i = 0; i < N; i++) {
		int leaf = x->g->host[ibu_pgft_host(x->g, all[i].node,
						    all[i].port)].leaf;

		if (!seen[leaf]) {
			seen[leaf] = 1;
			mem[k++] = all[i];
		}
	}
	free(seen);
	free(all);
	return k;
}

/* Two end ports of one pod under different leaves (apex a middle). */
static int pod_group(const struct ft *x, struct ibu_mcast_member *mem)
{
	int a = rnd(num_hosts(x)), b;

	do
		b = rnd(num_hosts(x));
	while (ibu_pgft_lca_level(x->g, a, b) != 2);
	mem[0] = member_of(x, a, 0);
	mem[1] = member_of(x, b, 0);
	return 2;
}

/* 13 distinct end ports, the first and the last PID among them (pods 0
 * and m - 1: the apex is a top switch). */
static int spanning_group(const struct ft *x, struct ibu_mcast_member *mem)
{
	int i, again, last = num_hosts(x) - 1;

	do {
		random_group(x, 13, 0, mem);
		again = 0;
		for (i = 2; i < 13; i++)
			again |= mem[i].node == x->g->host[0].node ||
				 mem[i].node == x->g->host[last].node;
	} while (again);
	mem[0] = member_of(x, 0, 0);
	mem[1] = member_of(x, last, 0);
	return 13;
}

static int one_group(const struct ft *x, int g, struct ibu_mcast_member *mem)
{
	if (g % 4 == 0)
		return every_leaf_group(x, mem);
	if (g % 4 == 3)
		return pod_group(x, mem);
	return spanning_group(x, mem);
}

/*
 * 20 groups on IBFT(8,3) (every leaf; 13 ports across the fabric; two
 * ports of one pod) under policy: every tree exact; *held = switches that
 * held an entry of any group, *tops = distinct top apexes.
 */
static void held_switches(enum ibu_mcast_policy policy, int *held, int *tops,
			  int *middles)
{
	struct ibu_mcast_member *mem;
	struct ibu_pgft_mcast_load *load;
	struct ibu_pgft_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_err e = { 0 };
	struct ft x;
	uint8_t in[1024] = { 0 }, apex[1024] = { 0 };
	long floods = 0, deliveries = 0;
	int g, i, h;

	rng = 1919;
	ft_make(&x, 8, 3, 1, 19);
	h = x.g->P.h;
	ck_assert_int_le(x.f.num_nodes, 1024);
	mem = malloc((size_t)num_hosts(&x) * sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(ibu_pgft_mcast_load_new(&x.f, x.g, &load, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < 20; g++) {
		uint16_t mlid = (uint16_t)(0xc001 + g);
		int k = one_group(&x, g, mem);

		ck_assert_int_eq(build(&x, mem, k, policy, load, mlid, &tree,
				       &e), 0);
		ck_assert_int_eq(plevel(&x, tree.apex), g % 4 == 3 ? 1 : 0);
		ck_assert_int_eq(tree.compacted, policy == IBU_MCAST_COMPACT);
		apex[tree.apex] = 1;
		for (i = 0; i < tree.num_switches; i++)
			in[tree.nodes[i]] = 1;
		ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, mlid, &mft, &e), 0);
		for (i = 0; i < k; i++)
			ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i], &e), 0);
		floods += k;
		deliveries += (long)k * (k - 1);
		ibu_pgft_mcast_tree_free(&tree);
	}
	assert_exactly_once(&x.f, &mft, &mm, floods, deliveries);
	*held = *tops = *middles = 0;
	for (i = 0; i < x.f.num_nodes; i++) {
		*held += in[i];
		*tops += apex[i] && x.g->level[i] == h;
		*middles += in[i] && x.g->level[i] == h - 1;
	}
	/* the load state's own count of them, which no release lowers */
	ck_assert_int_eq(ibu_pgft_mcast_load_ever(load), *held);
	ibu_mcload_release(&load->core, 0xc001);
	ck_assert_int_eq(ibu_pgft_mcast_load_ever(load), *held);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ibu_mcload_state_free(load);
	free(mem);
	ft_free(&x);
}

/*
 * compact keeps the switches holding entries to one plane: the 32 leaves,
 * the 8 middles one top reaches (one per pod) and the 4 tops sharing them,
 * over which it spreads the groups; balanced spreads over every top.
 */
START_TEST(compact_holds_one_plane)
{
	int held, tops, middles;

	held_switches(IBU_MCAST_COMPACT, &held, &tops, &middles);
	ck_assert_int_le(held, 32 + 8 + 4);
	ck_assert_int_eq(middles, 8);
	ck_assert_int_eq(tops, 4);
	held_switches(IBU_MCAST_BALANCED, &held, &tops, &middles);
	ck_assert_int_gt(held, 32 + 8 + 4);
	ck_assert_int_gt(tops, 4);
}
END_TEST

/*
 * A real dump: what ibsim's switches held after opensm + the plugin
 * (mcast_apex=source) built Fig. 7's group (fixtures from tests/t0255):
 * it passes the flood check and equals the tree the lib computes.
 */
START_TEST(real_dump_fig7)
{
	struct ibu_fabric f;
	struct ibu_cyclic_pgft *c;
	struct ibu_mft dump, mine;
	struct ibu_mcmembers mm;
	struct ibu_pgft_mcast_tree tree;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	const struct ibu_mcgroup *g;
	char path[1024], label[64];
	int n, w;

	snprintf(path, sizeof(path), "%s/ibft43-gen.net", FIXTURES_DIR);
	ck_assert_msg(ibu_netfile_read(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
	ck_assert_msg(ibu_cyclic_pgft_recognise(&f, NULL, 0, 0,
						 IBU_CYCLIC_GENERALISED, &c, &e) == 0,
		      "%s", e.msg);
	ck_assert_ptr_nonnull(c->ibft);
	snprintf(path, sizeof(path), "%s/ibft43-fig7.mfts", FIXTURES_DIR);
	ck_assert_msg(ibu_mft_read(path, &f, &dump, &e) == 0, "%s", e.msg);
	snprintf(path, sizeof(path), "%s/ibft43-fig7.members", FIXTURES_DIR);
	ck_assert_msg(ibu_mcmembers_read(path, &f, &mm, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(dump.num_groups, 1);
	ck_assert_int_eq(dump.g[0].mlid, 0xc001);

	ck_assert_int_eq(ibu_mcf_run(&f, &dump, &mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_eq(st.floods, 5);
	ck_assert_int_eq(st.deliveries, 4 * 3 + 4);

	g = ibu_mcmembers_find(&mm, 0xc001);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(ibu_pgft_mcast_tree_build(&f, &c->g, c->ibft, g->m,
			g->num, IBU_MCAST_SOURCE, NULL, 0, &tree, &e), 0);
	ibu_pgft_ibft_sw_label(&c->g, c->ibft, tree.apex, label, sizeof(label));
	ck_assert_str_eq(label, "SW<00,0>");
	ck_assert_int_eq(ibu_mft_init(&mine, f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_pgft_mcast_tree_to_mft(&tree, 0xc001, &mine, &e), 0);
	for (n = 0; n < f.num_nodes; n++)
		for (w = 0; w < 4; w++)
			ck_assert_msg(dump.g[0].mask[n].w[w] == mine.g[0].mask[n].w[w],
				      "switch %s differs", f.nodes[n].name);
	ibu_pgft_mcast_tree_free(&tree);
	ibu_mft_free(&mine);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&dump);
	ibu_cyclic_pgft_free(c);
	ibu_fabric_free(&f);
}
END_TEST

/* ------------------------------------------- leaves the faults left apart */

/* PGFT(3; 4,4,4; 1,2,2; 1,1,1), two cut cables (ibunion gen pgft --m
 * 4,4,4 --w 1,2,2 --p 1,1,1 --remove-links 2 --seed 1 --shuffle-ports),
 * routed by the engine on its own LIDs. */
struct apart {
	struct ibu_fabric f;
	const struct ibu_engine_ops *ops;
	struct ibu_engine_result res;
	void *state;
	struct ibu_mcast_member mem[64];
	int n;
};

/* `ibunion gen pgft --m 4,4,4 --w 1,2,2 --p 1,1,1 --remove-links links
 * --seed seed --shuffle-ports [--shuffle-records]` routed by the engine,
 * every host a member. */
static void apart_up_qos(struct apart *a, int links, int seed, int records,
			 int qos)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = (uint64_t)seed,
				  .remove_links = links,
				  .shuffle_records = records };
	struct ibu_engine_opts eo;
	struct ibu_pgft_params P;
	enum ibu_engine_decline_kind why;
	struct ibu_err e = { 0 };
	void *topo;
	int i, q, used;

	ibu_engine_opts_default(&eo);
	eo.qos = qos;		/* turns=own-vl: turned routes on VL 1 */
	eo.max_vls = 4;
	ck_assert_int_eq(ibu_pgft_params_parse("4,4,4", "1,2,2", "1,1,1", &P, &e), 0);
	ck_assert_int_eq(ibu_gen_pgft(&a->f, &P, 0, 0, &o, &e), 0);
	a->ops = ibu_engine_find("cyclic");
	ck_assert_ptr_nonnull(a->ops);
	ck_assert_msg(a->ops->recognise(&a->f, &eo, &topo, &why, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a->ops->assign_lids(&a->f, topo, -1, 0, &used, &e), 0);
	a->ops->topo_free(topo);
	ck_assert_msg(ibu_engine_run(a->ops, &a->f, &eo, &a->res, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(a->ops->mcast.state_new(&a->f, a->res.topo, &a->state, &e), 0);
	a->n = 0;
	for (i = 0; i < a->f.num_nodes; i++)
		for (q = 1; !ibu_node_is_switch(&a->f.nodes[i]) &&
		     q <= a->f.nodes[i].num_ports; q++)
			if (a->f.nodes[i].ports[q].peer_node >= 0) {
				ck_assert_int_lt(a->n, 64);
				a->mem[a->n].node = i;
				a->mem[a->n].port = q;
				a->mem[a->n++].send_only = 0;
			}
	ck_assert_int_eq(a->n, 64);
}

static void apart_up(struct apart *a, int links, int seed, int records)
{
	apart_up_qos(a, links, seed, records, 0);
}

static void apart_down(struct apart *a)
{
	a->ops->mcast.state_free(a->state);
	ibu_engine_result_free(&a->res);
	ibu_fabric_free(&a->f);
}

/* The group's tree through the engine, into mft under mlid: a tree
 * (switches = cables + 1, connected: the flood reaches every member)
 * with one junction. */
static void apart_tree(struct apart *a, const struct ibu_mcast_member *m,
		       int n, uint16_t mlid, struct ibu_mft *mft,
		       struct ibu_mcmembers *mm)
{
	struct ibu_engine_opts eo;
	struct ibu_engine_tree t;
	struct ibu_err e = { 0 };
	int i, p, q, cables = 0;

	ibu_engine_opts_default(&eo);
	ck_assert_msg(a->ops->mcast.tree(&a->f, a->res.topo, a->state, m, n,
					 &eo, mlid, &t, &e) == 0, "%s", e.msg);
	for (i = 0; i < t.num_switches; i++)
		for (p = 0; p < 256; p++) {
			if (!ibu_pm_test(&t.ports[i], p))
				continue;
			ck_assert_int_eq(ibu_mft_set(mft, mlid, t.nodes[i], p, &e), 0);
			q = p ? a->f.nodes[t.nodes[i]].ports[p].peer_node : -1;
			cables += q >= 0 && ibu_node_is_switch(&a->f.nodes[q]);
		}
	ck_assert_int_eq(cables, 2 * (t.num_switches - 1));
	/* one leaf cut off: one turn */
	ck_assert_ptr_nonnull(strstr(t.info, ", 1 down-up junction"));
	for (i = 0; i < n; i++)
		ck_assert_int_eq(ibu_mcmembers_add(mm, mlid, &m[i], &e), 0);
	ibu_engine_tree_free(&t);
}

/* Every member gets one copy from every sender; unicast (switch LIDs
 * too, its own turns) plus every tree flooded from every member: no
 * cycle in the channel dependency graph. */
static void assert_exact_acyclic(struct apart *a, const struct ibu_mft *mft,
				 const struct ibu_mcmembers *mm)
{
	struct ibu_mcf_stats st;
	struct ibu_cdg g;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	int len = 0;

	ck_assert_int_eq(ibu_mcf_run(&a->f, mft, mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_gt(st.deliveries, 0);
	ck_assert_int_eq(ibu_cdg_init(&g, &a->f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&g, &a->res.lft, &a->res.map, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_mcast(&g, mft, mm, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&g, &cyc, &len, &e), 0);
	free(cyc);
	ibu_cdg_free(&g);
}

/* turns=own-vl's SLs on a's tables: 1 for a unicast route with a valley,
 * 0 otherwise and for multicast; SL s on VL s. */
static int apart_sl(void *arg, int node, int port, uint32_t dlid)
{
	const struct apart *a = arg;
	const struct ibu_cyclic_pgft *c = a->res.topo;

	if (dlid >= 0xC000)
		return 0;
	return ibu_lft_route_has_valley(&a->f, &a->res.lft,
					a->f.nodes[node].ports[port].peer_node,
					dlid, c->g.level);
}

static int apart_vl(void *arg, int node, int in, int out, int sl)
{
	(void)arg;
	(void)node;
	(void)in;
	(void)out;
	return sl;
}

/*
 * The same with qos TRUE: the hosts of the two leaves reach each other
 * over routes with a turn, on SL 1 / VL 1; the group's junction is
 * checked against VL 0's routes (every route without a valley) and the
 * tree is exact, every VL acyclic with unicast on its SLs and the tree on
 * SL 0, while on one VL the same tables close a cycle.
 */
START_TEST(junction_beside_vl0_routes)
{
	struct apart a;
	struct ibu_cyclic_pgft *c;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_cdg_vl vl = { .num_vls = 2, .path_sl = apart_sl,
				 .vl = apart_vl };
	struct ibu_cdg g;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	int len = 0;

	apart_up_qos(&a, 2, 1, 0, 1);
	c = a.res.topo;
	ck_assert_int_eq(c->st.layered, 1);
	ck_assert_int_gt(c->st.layered_lids, 0);
	ibu_mcmembers_init(&mm);
	ck_assert_int_eq(ibu_mft_init(&mft, a.f.num_nodes, &e), 0);
	apart_tree(&a, a.mem, a.n, 0xc001, &mft, &mm);
	ck_assert_ptr_nonnull(c->ucdg);
	ck_assert_int_eq(ibu_mcf_run(&a.f, &mft, &mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	vl.ctx = &a;
	ck_assert_int_eq(ibu_cdg_init(&g, &a.f, &vl, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&g, &a.res.lft, &a.res.map, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_mcast(&g, &mft, &mm, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&g, &cyc, &len, &e), 0);
	free(cyc);
	ibu_cdg_free(&g);
	ck_assert_int_eq(ibu_cdg_init(&g, &a.f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&g, &a.res.lft, &a.res.map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&g, &cyc, &len, &e), 1);
	free(cyc);
	ibu_cdg_free(&g);
	ibu_mft_free(&mft);
	ibu_mcmembers_free(&mm);
	apart_down(&a);
}
END_TEST

/*
 * Two leaves whose surviving parents share no top: the group of every
 * host (IPoIB's broadcast group) was refused (no up-then-down tree, as
 * the builder without unicast's dependencies still says); routed beside
 * unicast it gets a tree with one down-up junction: exact, acyclic with
 * unicast. So does every pair of hosts the old builder refused (a small
 * group whose junction lies off the apex's tree), all at once.
 */
START_TEST(apart_leaves_joined_by_a_junction)
{
	struct apart a;
	struct ibu_cyclic_pgft *c;
	struct ibu_pgft *g;
	struct ibu_pgft_mcast_tree t;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_err e = { 0 };
	int i, j, pairs = 0;

	apart_up(&a, 2, 1, 0);
	c = a.res.topo;
	g = &c->g;
	/* the routing kept its tables; their graph waits for a tree */
	ck_assert_ptr_nonnull(c->umap.owner);
	ck_assert_ptr_null(c->ucdg);
	ck_assert_int_eq(ibu_pgft_mcast_tree_build(&a.f, g, NULL, a.mem, a.n,
						   IBU_MCAST_COMPACT, NULL, 0xc001,
						   &t, &e), IBU_ETOPO);
	ck_assert_ptr_nonnull(strstr(e.msg, "no up-then-down tree"));
	ibu_mcmembers_init(&mm);
	ck_assert_int_eq(ibu_mft_init(&mft, a.f.num_nodes, &e), 0);
	apart_tree(&a, a.mem, a.n, 0xc001, &mft, &mm);
	ck_assert_ptr_nonnull(c->ucdg);
	for (i = 0; i < a.n; i++)
		for (j = i + 1; j < a.n; j++) {
			struct ibu_mcast_member two[2] = { a.mem[i], a.mem[j] };

			if (ibu_pgft_mcast_tree_build(&a.f, g, NULL, two, 2,
						      IBU_MCAST_COMPACT, NULL,
						      0, &t, &e) != IBU_ETOPO) {
				ibu_pgft_mcast_tree_free(&t);
				continue;
			}
			apart_tree(&a, two, 2, (uint16_t)(0xc002 + pairs++),
				   &mft, &mm);
		}
	ck_assert_int_eq(pairs, 4 * 4);	/* the two leaves' hosts */
	assert_exact_acyclic(&a, &mft, &mm);
	ibu_mft_free(&mft);
	ibu_mcmembers_free(&mm);
	apart_down(&a);
}
END_TEST

/*
 * Four cuts (seed 3): the policy's apex leaves two members cut off, and
 * the second one's every junction closes a cycle with the first one's;
 * the next apex candidate needs one junction only. The group of every
 * host is built there: exact, acyclic with unicast.
 */
START_TEST(cut_off_members_at_another_apex)
{
	struct apart a;
	struct ibu_mft mft;
	struct ibu_mcmembers mm;
	struct ibu_err e = { 0 };

	apart_up(&a, 4, 3, 1);
	ibu_mcmembers_init(&mm);
	ck_assert_int_eq(ibu_mft_init(&mft, a.f.num_nodes, &e), 0);
	apart_tree(&a, a.mem, a.n, 0xc001, &mft, &mm);
	assert_exact_acyclic(&a, &mft, &mm);
	ibu_mft_free(&mft);
	ibu_mcmembers_free(&mm);
	apart_down(&a);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_mcast");
	TCase *tc = tcase_create("core");
	TCase *ti = tcase_create("ibft");
	TCase *tf = tcase_create("flood");

	tcase_add_test(tc, tree_around_faults);
	tcase_add_test(tc, no_tree_refused);
	tcase_add_test(tc, one_switch_member_ports);
	tcase_add_test(tc, apart_leaves_joined_by_a_junction);
	tcase_add_test(tc, cut_off_members_at_another_apex);
	tcase_add_test(tc, junction_beside_vl0_routes);
	tcase_add_test(tc, apex_policies);
	tcase_add_test(tc, pgft_apex_at_lowest_common_level);
	suite_add_tcase(s, tc);
	tcase_add_test(ti, paper_fig7_source);
	tcase_add_test(ti, paper_fig7_source_shuffled);
	tcase_add_test(ti, paper_fig7_balanced_empty_load);
	tcase_add_test(ti, source_apex_follows_cyclic_climb);
	tcase_add_test(ti, one_member_one_leaf_one_pod);
	tcase_add_test(ti, whole_fabric_and_lowest_guid);
	tcase_add_test(ti, errors);
	tcase_add_test(ti, switch_member);
	tcase_add_test(ti, balanced_spreads_over_top_switches);
	tcase_add_test(ti, balanced_looks_below_the_apex);
	tcase_add_test(ti, compact_holds_one_plane);
	suite_add_tcase(s, ti);
	tcase_add_test(tf, flood_exactly_once_ibft43);
	tcase_add_test(tf, flood_exactly_once_ibft83);
	tcase_add_test(tf, flood_exactly_once_odd_half);
	tcase_add_test(tf, flood_catches_broken_tables);
	tcase_add_test(tf, link_load_counts_trees);
	tcase_add_test(tf, real_dump_fig7);
	suite_add_tcase(s, tf);
	return s;
}

IBU_UNIT_MAIN
