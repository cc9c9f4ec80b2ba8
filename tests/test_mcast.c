/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Union-based multicast trees (lib/fattree/mcast.c) and the flood check (mcflood). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "ibft.h"
#include "mcast.h"
#include "mcflood.h"
#include "mcmembers.h"
#include "mft_dump.h"
#include "netfile.h"

struct ft {
	struct ibu_fabric f;
	struct ibu_ibft t;
};

static void ft_make(struct ft *x, int m, int n, int shuffle, uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = shuffle,
				  .shuffle_records = shuffle, .seed = seed };
	struct ibu_err e = { 0 };
	int rc;

	ck_assert_int_eq(ibu_gen_fattree(&x->f, m, n, &o, &e), 0);
	ck_assert_int_eq(ibu_fabric_index(&x->f, &e), 0);
	rc = ibu_ibft_recognize(&x->f, &x->t, &e);
	ck_assert_msg(rc == 0, "IBFT(%d,%d): %s", m, n, e.msg);
}

static void ft_free(struct ft *x)
{
	ibu_ibft_free(&x->t);
	ibu_fabric_free(&x->f);
}

/* PID of label digits p0..p(n-1) (p0 most significant). */
static int pid_of(const struct ibu_ibft *t, const int *p)
{
	int i, pid = p[0];

	for (i = 1; i < t->n; i++)
		pid = pid * t->half + p[i];
	ck_assert_int_eq(t->ep[pid].p[0], p[0]);
	ck_assert_int_eq(t->ep[pid].p[t->n - 1], p[t->n - 1]);
	return pid;
}

static struct ibu_mcast_member member_of(const struct ibu_ibft *t, int pid,
					 int send_only)
{
	struct ibu_mcast_member m = { .node = t->ep[pid].node,
				      .port = t->ep[pid].port,
				      .send_only = send_only };
	return m;
}

static int sw_of(const struct ibu_ibft *t, int level, int w0, int w1)
{
	uint8_t w[IBU_IBFT_MAX_N] = { (uint8_t)w0, (uint8_t)w1 };
	int s = ibu_ibft_find_switch(t, level, w);

	ck_assert_int_ge(s, 0);
	return s;
}

/* The mask of switch s as a set of paper ports (bit k). */
static unsigned paper_set(const struct ibu_ibft *t,
			  const struct ibu_mcast_tree *tree, int s)
{
	unsigned set = 0;
	int p;

	ck_assert(!ibu_pm_test(&tree->ports[s], 0));
	for (p = 1; p < 256; p++)
		if (ibu_pm_test(&tree->ports[s], p)) {
			int k = t->sw[s].k_of_phys[p];

			ck_assert_int_gt(k, 0);
			set |= 1u << k;
		}
	return set;
}

#define K(a) (1u << (a))

/*
 * Paper 000, Fig. 7: P(000) multicasts to P(200), P(201), P(210), P(211)
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
	struct ibu_mcast_tree tree;
	struct ibu_err e = { 0 };
	struct ft x;
	int i, s, in_tree = 0;
	struct { int s; unsigned out, in; } want[6];

	ft_make(&x, 4, 3, shuffle, 7);
	mem[0] = member_of(&x.t, pid_of(&x.t, src), 1);
	for (i = 0; i < 4; i++)
		mem[i + 1] = member_of(&x.t, pid_of(&x.t, dst[i]), 0);
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 5, policy, NULL,
					      0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex, sw_of(&x.t, 0, 0, 0));
	ck_assert_int_eq(tree.apex_level, 0);
	ck_assert_int_eq(tree.policy, policy);
	ck_assert_int_eq(tree.num_candidates, 4);
	ck_assert_int_eq(tree.num_members, 5);
	ck_assert_int_eq(tree.num_receivers, 4);
	ck_assert_int_eq(tree.num_switches, 6);
	ck_assert_int_eq(tree.switches[0], tree.apex);	/* top down */

	want[0].s = sw_of(&x.t, 2, 0, 0); want[0].out = K(3); want[0].in = 0;
	want[1].s = sw_of(&x.t, 1, 0, 0); want[1].out = K(3); want[1].in = K(1);
	want[2].s = sw_of(&x.t, 0, 0, 0); want[2].out = K(3); want[2].in = K(1);
	want[3].s = sw_of(&x.t, 1, 2, 0); want[3].out = K(1) | K(2); want[3].in = K(3);
	want[4].s = sw_of(&x.t, 2, 2, 0); want[4].out = K(1) | K(2); want[4].in = K(3);
	want[5].s = sw_of(&x.t, 2, 2, 1); want[5].out = K(1) | K(2); want[5].in = K(3);
	for (i = 0; i < 6; i++) {
		unsigned got = paper_set(&x.t, &tree, want[i].s);

		ck_assert_msg(got == (want[i].out | want[i].in),
			      "switch %d: paper ports 0x%x, want 0x%x", i, got,
			      want[i].out | want[i].in);
		ck_assert_msg((got & ~want[i].in) == want[i].out,
			      "switch %d: out ports differ from the paper", i);
	}
	for (s = 0; s < x.t.num_switches; s++)
		in_tree += !ibu_pm_empty(&tree.ports[s]);
	ck_assert_int_eq(in_tree, 6);
	ibu_mcast_tree_free(&tree);
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
	struct ibu_mcast_tree tree;
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
				mem[0] = member_of(&x.t, pid_of(&x.t, d1), 0);
				mem[1] = member_of(&x.t, pid_of(&x.t, src), 1);
				mem[2] = member_of(&x.t, pid_of(&x.t, d2), 0);
				ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 3,
						IBU_MCAST_SOURCE, NULL, 0, &tree, &e), 0);
				/* top switch = up-digits (p2, p1) of the source */
				ck_assert_int_eq(tree.apex, sw_of(&x.t, 0, c, b));
				ck_assert_int_eq(tree.policy, IBU_MCAST_SOURCE);
				ibu_mcast_tree_free(&tree);
			}
	/* same pod: LCA level 1, apex SW<a p2, 1> */
	src[0] = 1; src[1] = 0; src[2] = 1;
	{
		int d[3] = { 1, 1, 0 };

		mem[0] = member_of(&x.t, pid_of(&x.t, d), 0);
		mem[1] = member_of(&x.t, pid_of(&x.t, src), 1);
		ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 2,
				IBU_MCAST_SOURCE, NULL, 0, &tree, &e), 0);
		ck_assert_int_eq(tree.apex_level, 1);
		ck_assert_int_eq(tree.apex, sw_of(&x.t, 1, 1, 1));
		ck_assert_int_eq(tree.num_candidates, 2);
		ibu_mcast_tree_free(&tree);
	}
	/* no send-only member: source falls back to balanced */
	mem[1].send_only = 0;
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 2,
			IBU_MCAST_SOURCE, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.policy, IBU_MCAST_BALANCED);
	ck_assert_int_eq(tree.apex, sw_of(&x.t, 1, 1, 0));
	ibu_mcast_tree_free(&tree);
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
static int random_group(const struct ibu_ibft *t, int k, int send_only_pct,
			struct ibu_mcast_member *mem)
{
	int *perm = malloc(t->num_endports * sizeof(*perm)), i;

	ck_assert_ptr_nonnull(perm);
	for (i = 0; i < t->num_endports; i++)
		perm[i] = i;
	for (i = 0; i < k; i++) {
		int j = i + rnd(t->num_endports - i), tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
		mem[i] = member_of(t, perm[i], rnd(100) < send_only_pct);
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
	struct ibu_mcast_load load;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_err e = { 0 };
	struct ft x;
	long floods = 0, deliveries = 0;
	int g, i;

	rng = seed;
	ft_make(&x, m, n, 1, seed);
	mem = malloc(x.t.num_endports * sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_mcast_load_init(&load, &x.t, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < groups; g++) {
		struct ibu_mcast_tree tree;
		int k, recv = 0;
		uint16_t mlid = (uint16_t)(0xc001 + g);
		enum ibu_mcast_policy pol = (enum ibu_mcast_policy)(g % 4);

		/* sizes: 1, 2, whole fabric, then random */
		k = g == 0 ? 1 : g == 1 ? 2 : g == 2 ? x.t.num_endports :
		    1 + rnd(x.t.num_endports);
		random_group(&x.t, k, g == 2 ? 0 : 30, mem);
		ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, k, pol,
						      &load, mlid, &tree, &e), 0);
		ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, mlid, &mft,
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
			ck_assert_int_gt(x.t.sw[tree.switches[i]].level,
					 tree.apex_level);
		ibu_mcast_tree_free(&tree);
	}
	ck_assert_int_eq(ibu_mcast_load_count(&load), groups);
	assert_exactly_once(&x.f, &mft, &mm, floods, deliveries);
	ibu_mcmembers_free(&mm);
	ibu_mcast_load_free(&load);
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

/* The flood check must catch broken tables, not just pass good ones. */
START_TEST(flood_catches_broken_tables)
{
	struct ibu_mcast_member mem[6];
	struct ibu_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct ft x;
	const int p[6][3] = { { 0, 0, 0 }, { 1, 1, 0 }, { 2, 0, 1 },
			      { 3, 1, 1 }, { 3, 1, 0 }, { 2, 1, 1 } };
	int i, apex_node, stray_node;

	ft_make(&x, 4, 3, 1, 11);
	ibu_mcmembers_init(&mm);
	for (i = 0; i < 6; i++) {
		mem[i] = member_of(&x.t, pid_of(&x.t, p[i]), i == 5);
		ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &mem[i], &e), 0);
	}
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 6,
			IBU_MCAST_LOWEST_GUID, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, 0xc001, &mft, &e), 0);
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);

	/* 1. a leaf also sends up to a parent outside the tree, which sends
	 * down to another tree leaf of the pod: that leaf gets every packet
	 * twice (loop), its members duplicates */
	apex_node = x.t.sw[tree.apex].node;
	{
		struct ibu_mft bad;
		int L = x.t.ep[pid_of(&x.t, p[2])].leaf;
		int L2 = x.t.ep[pid_of(&x.t, p[5])].leaf;
		int k, y = -1, ph = 0, yn, yp, down;

		ck_assert_int_ne(L, L2);
		ck_assert_int_eq(ibu_mft_init(&bad, x.f.num_nodes, &e), 0);
		ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, 0xc001, &bad, &e), 0);
		for (k = x.t.half + 1; k <= x.t.m && y < 0; k++) {
			const struct ibu_port *pt;

			ph = x.t.sw[L].phys_of_k[k];
			pt = &x.f.nodes[x.t.sw[L].node].ports[ph];
			if (ibu_pm_empty(ibu_mft_get(&bad, 0xc001, pt->peer_node)))
				y = ibu_ibft_sw(&x.t, pt->peer_node);
		}
		ck_assert_int_ge(y, 0);
		yn = x.t.sw[y].node;
		yp = x.f.nodes[x.t.sw[L].node].ports[ph].peer_port;
		down = x.t.sw[y].phys_of_k[x.t.sw[L2].w[1] + 1];
		ck_assert_int_eq(x.f.nodes[yn].ports[down].peer_node, x.t.sw[L2].node);
		ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, x.t.sw[L].node, ph, &e), 0);
		ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, yn, yp, &e), 0);
		ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, yn, down, &e), 0);
		ck_assert_int_eq(ibu_mcf_run(&x.f, &bad, &mm, NULL, NULL, &st, NULL, &e), 0);
		ck_assert_int_gt(st.count[IBU_MCF_LOOP], 0);
		ck_assert_int_gt(ibu_mcf_problems(&st), 0);
		ibu_mft_free(&bad);
	}

	/* 2. an up port of the apex's child cleared -> members missing */
	{
		struct ibu_mft bad;
		int child = tree.switches[1], q;
		struct ibu_mft_group *g;

		ck_assert_int_eq(ibu_mft_init(&bad, x.f.num_nodes, &e), 0);
		ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, 0xc001, &bad, &e), 0);
		g = ibu_mft_group(&bad, 0xc001, &e);
		for (q = 1; q <= x.f.nodes[apex_node].num_ports; q++)
			if (x.f.nodes[apex_node].ports[q].peer_node ==
			    x.t.sw[child].node)
				ibu_pm_clear(&g->mask[apex_node], q);
		ck_assert_int_eq(ibu_mcf_run(&x.f, &bad, &mm, NULL, NULL, &st, NULL, &e), 0);
		ck_assert_int_gt(st.count[IBU_MCF_MISSING], 0);
		ck_assert_int_eq(st.count[IBU_MCF_STRAY], 0);
		ibu_mft_free(&bad);
	}

	/* 3. the send-only member's port added -> stray copies */
	{
		struct ibu_mft bad;
		int pid = pid_of(&x.t, p[5]);
		const struct ibu_port *cp = &x.f.nodes[x.t.ep[pid].node].ports[x.t.ep[pid].port];

		stray_node = cp->peer_node;
		ck_assert_int_eq(ibu_mft_init(&bad, x.f.num_nodes, &e), 0);
		ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, 0xc001, &bad, &e), 0);
		ck_assert_int_eq(ibu_mft_set(&bad, 0xc001, stray_node, cp->peer_port, &e), 0);
		ck_assert_int_eq(ibu_mcf_run(&x.f, &bad, &mm, NULL, NULL, &st, NULL, &e), 0);
		ck_assert_int_eq(st.count[IBU_MCF_STRAY], 5);	/* 5 senders */
		ck_assert_int_eq(st.count[IBU_MCF_MISSING], 0);
		/* without the member list, the same table is self-consistent */
		ck_assert_int_eq(ibu_mcf_run(&x.f, &bad, NULL, NULL, NULL, &st, NULL, &e), 0);
		ck_assert_int_eq(ibu_mcf_problems(&st), 0);
		ck_assert_int_eq(st.floods, 6);
		ibu_mft_free(&bad);
	}

	/* 4. a member the tables never heard of -> it misses everything */
	{
		struct ibu_mcmembers more;
		struct ibu_mcast_member extra = member_of(&x.t, pid_of(&x.t, (int[3]){ 1, 0, 0 }), 0);

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
	}
	ibu_mcast_tree_free(&tree);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ft_free(&x);
}
END_TEST

/* ------------------------------------------------------------ shapes */

START_TEST(one_member_one_leaf_one_pod)
{
	struct ibu_mcast_member mem[4];
	struct ibu_mcast_tree tree;
	struct ibu_err e = { 0 };
	struct ft x;
	int a[3] = { 5, 2, 1 }, b[3] = { 5, 2, 3 }, c[3] = { 5, 0, 0 };
	int pa, leaf;

	ft_make(&x, 8, 3, 1, 5);
	pa = pid_of(&x.t, a);
	leaf = x.t.ep[pa].leaf;
	/* one full member: its leaf, its port, nothing else */
	mem[0] = member_of(&x.t, pa, 0);
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 1,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex, leaf);
	ck_assert_int_eq(tree.apex_level, 2);
	ck_assert_int_eq(tree.num_switches, 1);
	ck_assert_int_eq(ibu_pm_count(&tree.ports[leaf]), 1);
	ck_assert(ibu_pm_test(&tree.ports[leaf],
			      x.f.nodes[x.t.ep[pa].node].ports[x.t.ep[pa].port].peer_port));
	ibu_mcast_tree_free(&tree);
	/* one send-only member: nothing to program */
	mem[0].send_only = 1;
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 1,
			IBU_MCAST_SOURCE, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(ibu_pm_count(&tree.ports[leaf]), 0);
	ck_assert_int_eq(tree.num_receivers, 0);
	ibu_mcast_tree_free(&tree);
	/* one leaf: apex is the leaf; duplicates merge, full wins */
	mem[0] = member_of(&x.t, pa, 1);
	mem[1] = member_of(&x.t, pid_of(&x.t, b), 0);
	mem[2] = member_of(&x.t, pa, 0);
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 3,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex, leaf);
	ck_assert_int_eq(tree.num_members, 2);
	ck_assert_int_eq(tree.num_receivers, 2);
	ck_assert_int_eq(ibu_pm_count(&tree.ports[leaf]), 2);
	ibu_mcast_tree_free(&tree);
	/* one pod: level 1, 4 candidates, tree = apex + 2 leaves */
	mem[2] = member_of(&x.t, pid_of(&x.t, c), 0);
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 3,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex_level, 1);
	ck_assert_int_eq(tree.num_candidates, 4);
	ck_assert_int_eq(tree.num_switches, 3);
	ck_assert_int_eq(x.t.sw[tree.apex].w[0], 5);
	ibu_mcast_tree_free(&tree);
	/* empty group */
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 0,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex, -1);
	ck_assert_int_eq(tree.num_switches, 0);
	ibu_mcast_tree_free(&tree);
	ft_free(&x);
}
END_TEST

START_TEST(whole_fabric_and_lowest_guid)
{
	struct ibu_mcast_member *mem;
	struct ibu_mcast_tree tree;
	struct ibu_err e = { 0 };
	struct ft x;
	uint64_t best = UINT64_MAX;
	int i, best_sw = -1, downs = 0;

	ft_make(&x, 8, 3, 1, 9);
	mem = malloc(x.t.num_endports * sizeof(*mem));
	for (i = 0; i < x.t.num_endports; i++)
		mem[i] = member_of(&x.t, i, 0);
	for (i = 0; i < x.t.num_switches; i++)
		if (x.t.sw[i].level == 0 &&
		    x.f.nodes[x.t.sw[i].node].guid < best) {
			best = x.f.nodes[x.t.sw[i].node].guid;
			best_sw = i;
		}
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, x.t.num_endports,
			IBU_MCAST_LOWEST_GUID, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex, best_sw);
	ck_assert_int_eq(tree.num_candidates, 16);
	/* apex + 8 pod switches + 32 leaves */
	ck_assert_int_eq(tree.num_switches, 1 + 8 + 32);
	for (i = 0; i < x.t.num_switches; i++)
		downs += ibu_pm_count(&tree.ports[i]);
	/* 40 links, both ends, plus 128 member ports */
	ck_assert_int_eq(downs, 2 * 40 + 128);
	ibu_mcast_tree_free(&tree);
	free(mem);
	ft_free(&x);
}
END_TEST

START_TEST(errors)
{
	struct ibu_mcast_member mem[2];
	struct ibu_mcast_tree tree;
	struct ibu_mcast_load load;
	struct ibu_err e = { 0 };
	enum ibu_mcast_policy p;
	struct ft x;

	ft_make(&x, 4, 3, 0, 1);
	mem[0] = member_of(&x.t, 0, 0);
	/* a switch joins through port 0 only */
	mem[1].node = x.t.sw[0].node;
	mem[1].port = 2;
	mem[1].send_only = 0;
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 2,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), IBU_ETOPO);
	ck_assert_int_eq(tree.apex, -1);
	mem[1].node = x.f.num_nodes;
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 2,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), IBU_EINVAL);
	mem[1] = member_of(&x.t, 1, 0);
	mem[1].port = 7;
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 2,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), IBU_EINVAL);
	{
		struct ft y;

		ft_make(&y, 6, 2, 0, 1);	/* a load state of another tree */
		ck_assert_int_eq(ibu_mcast_load_init(&load, &y.t, &e), 0);
		ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 1,
				IBU_MCAST_BALANCED, &load, 0, &tree, &e), IBU_EINVAL);
		ibu_mcast_load_free(&load);
		ft_free(&y);
	}
	ck_assert_int_eq(ibu_mcast_policy_parse("source", &p), 0);
	ck_assert_int_eq(p, IBU_MCAST_SOURCE);
	ck_assert_int_eq(ibu_mcast_policy_parse("lowest-guid", &p), 0);
	ck_assert_int_eq(p, IBU_MCAST_LOWEST_GUID);
	ck_assert_int_eq(ibu_mcast_policy_parse("compact", &p), 0);
	ck_assert_int_eq(p, IBU_MCAST_COMPACT);
	ck_assert_str_eq(ibu_mcast_policy_name(IBU_MCAST_COMPACT), "compact");
	ck_assert_int_eq(ibu_mcast_policy_parse("spine", &p), IBU_EINVAL);
	ck_assert_str_eq(ibu_mcast_policy_name(IBU_MCAST_BALANCED), "balanced");
	ft_free(&x);
}
END_TEST

/* A switch member receives on port 0 and the flood agrees. */
START_TEST(switch_member)
{
	struct ibu_mcast_member mem[3];
	struct ibu_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct ft x;
	int a[3] = { 0, 0, 1 }, b[3] = { 3, 1, 0 }, leaf, i;

	ft_make(&x, 4, 3, 1, 2);
	leaf = x.t.ep[pid_of(&x.t, b)].leaf;
	mem[0] = member_of(&x.t, pid_of(&x.t, a), 0);
	mem[1].node = x.t.sw[leaf].node;
	mem[1].port = 0;
	mem[1].send_only = 0;
	mem[2] = member_of(&x.t, pid_of(&x.t, b), 1);
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 3,
			IBU_MCAST_BALANCED, NULL, 0, &tree, &e), 0);
	ck_assert(ibu_pm_test(&tree.ports[leaf], 0));
	ck_assert_int_eq(tree.apex_level, 0);
	ibu_mcmembers_init(&mm);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc010, &mem[i], &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, 0xc010, &mft, &e), 0);
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, NULL, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_eq(st.floods, 3);
	ck_assert_int_eq(st.deliveries, 1 + 1 + 2);
	ibu_mcast_tree_free(&tree);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ft_free(&x);
}
END_TEST

/* ------------------------------------------------------------ balance */

START_TEST(balanced_spreads_over_top_switches)
{
	struct ibu_mcast_member mem[13];
	struct ibu_mcast_load load;
	struct ibu_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_err e = { 0 };
	struct ft x;
	int used[256] = { 0 }, g, i, distinct = 0, tops = 0;

	rng = 99;
	ft_make(&x, 8, 3, 1, 17);
	for (i = 0; i < x.t.num_switches; i++)
		tops += x.t.sw[i].level == 0;
	ck_assert_int_eq(tops, 16);
	ck_assert_int_eq(ibu_mcast_load_init(&load, &x.t, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < 16; g++) {
		uint16_t mlid = (uint16_t)(0xc001 + g);

		/* 10% of 128 end ports, spanning pods 0 and 7 at least */
		do
			random_group(&x.t, 13, 0, mem);
		while (ibu_ibft_lca_level(&x.t, ibu_ibft_ep(&x.t, mem[0].node, mem[0].port),
					  ibu_ibft_ep(&x.t, mem[1].node, mem[1].port)) != 0);
		ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 13,
				IBU_MCAST_BALANCED, &load, mlid, &tree, &e), 0);
		ck_assert_int_eq(tree.apex_level, 0);
		ck_assert_int_lt(tree.apex, 256);
		used[tree.apex]++;
		ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, mlid, &mft, &e), 0);
		for (i = 0; i < 13; i++)
			ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i], &e), 0);
		ibu_mcast_tree_free(&tree);
	}
	for (i = 0; i < 256; i++) {
		distinct += used[i] > 0;
		ck_assert(!used[i] || x.t.sw[i].level == 0);
	}
	ck_assert_int_eq(distinct, 16);
	/* each top switch carries exactly one tree */
	for (i = 0; i < x.t.num_switches; i++)
		if (x.t.sw[i].level == 0)
			ck_assert_int_eq(load.trees[i], 1);
	/* routing a group again releases its old tree first */
	random_group(&x.t, 13, 0, mem);
	ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 13,
			IBU_MCAST_BALANCED, &load, 0xc001, &tree, &e), 0);
	ck_assert_int_eq(ibu_mcast_load_count(&load), 16);
	ibu_mcast_tree_free(&tree);
	ibu_mcast_load_release(&load, 0xc001);
	ibu_mcast_load_release(&load, 0xc001);
	ck_assert_int_eq(ibu_mcast_load_count(&load), 15);

	/* link load: the top links carry one tree each; a leaf link more */
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, &ll, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ibu_linkload_stats(&ll, &x.f, &ls);
	ck_assert_int_ge(ls.max_sw, 1);
	for (i = 0; i < x.t.num_switches; i++) {
		int node = x.t.sw[i].node, p;

		if (x.t.sw[i].level != 0)
			continue;
		for (p = 1; p <= x.f.nodes[node].num_ports; p++)
			ck_assert_int_le(ll.load[ll.base[node] + p], 1);
	}
	ibu_linkload_free(&ll);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ibu_mcast_load_free(&load);
	ft_free(&x);
}
END_TEST

/*
 * Balanced looks below the apex too: 4 whole-fabric groups on IBFT(8,3)
 * get 4 top switches whose pod switches differ (no link carries 2 trees);
 * 16 such groups spread exactly evenly: every switch-to-switch link below
 * the top carries 4 trees, every top link 1.
 */
START_TEST(balanced_looks_below_the_apex)
{
	struct ibu_mcast_member *mem;
	struct ibu_mcast_load load;
	struct ibu_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_err e = { 0 };
	struct ft x;
	int g, i, rounds;

	ft_make(&x, 8, 3, 1, 23);
	mem = malloc(x.t.num_endports * sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	for (i = 0; i < x.t.num_endports; i++)
		mem[i] = member_of(&x.t, i, 0);
	for (rounds = 4; rounds <= 16; rounds += 12) {
		ck_assert_int_eq(ibu_mcast_load_init(&load, &x.t, &e), 0);
		ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
		ibu_mcmembers_init(&mm);
		for (g = 0; g < rounds; g++) {
			uint16_t mlid = (uint16_t)(0xc001 + g);

			ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem,
					x.t.num_endports, IBU_MCAST_BALANCED, &load,
					mlid, &tree, &e), 0);
			ck_assert_int_eq(tree.num_links, tree.num_switches - 1);
			ck_assert_int_eq(load.trees[tree.apex], 1);
			ck_assert_int_eq(tree.scored, g != 15);	/* last: 1 left */
			ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, mlid, &mft, &e), 0);
			for (i = 0; i < 2; i++)	/* two members suffice for the flood */
				ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i * 77], &e), 0);
			ibu_mcast_tree_free(&tree);
		}
		ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, NULL, NULL, NULL, &st, &ll, &e), 0);
		ck_assert_int_eq(ibu_mcf_problems(&st), 0);
		ibu_linkload_stats(&ll, &x.f, &ls);
		ck_assert_int_eq(ls.max_sw, rounds == 4 ? 1 : 4);
		for (i = 0; i < x.t.num_switches; i++) {
			int node = x.t.sw[i].node, p;

			for (p = 1; p <= x.f.nodes[node].num_ports; p++) {
				int peer = x.f.nodes[node].ports[p].peer_node;
				int ps = peer >= 0 ? ibu_ibft_sw(&x.t, peer) : -1;

				if (ps < 0 || rounds != 16)
					continue;
				ck_assert_int_eq(ll.load[ll.base[node] + p],
						 x.t.sw[i].level == 0 ||
						 x.t.sw[ps].level == 0 ? 1 : 4);
			}
		}
		ibu_linkload_free(&ll);
		ibu_mcmembers_free(&mm);
		ibu_mft_free(&mft);
		ibu_mcast_load_free(&load);
	}
	free(mem);
	ft_free(&x);
}
END_TEST

/* Single-spine trees (what a non-balancing manager does) pile up. */
START_TEST(link_load_counts_trees)
{
	struct ibu_mcast_member mem[13];
	struct ibu_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_mcf_stats st;
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_err e = { 0 };
	struct ft x;
	int g, i, p, apex_node = -1, top_max = 0;

	rng = 5;
	ft_make(&x, 8, 3, 0, 1);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < 16; g++) {
		uint16_t mlid = (uint16_t)(0xc001 + g);

		random_group(&x.t, 13, 0, mem);
		mem[0] = member_of(&x.t, 0, 0);
		mem[1] = member_of(&x.t, x.t.num_endports - 1, 0);
		ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, 13,
				IBU_MCAST_LOWEST_GUID, NULL, 0, &tree, &e), 0);
		apex_node = x.t.sw[tree.apex].node;
		ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, mlid, &mft, &e), 0);
		for (i = 0; i < 13; i++)
			ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i], &e), 0);
		ibu_mcast_tree_free(&tree);
	}
	ck_assert_int_eq(ibu_mcf_run(&x.f, &mft, &mm, NULL, NULL, &st, &ll, &e), 0);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	/* pods 0 and 7 are in every group: their links at the apex carry 16 */
	for (p = 1; p <= x.f.nodes[apex_node].num_ports; p++)
		if ((int)ll.load[ll.base[apex_node] + p] > top_max)
			top_max = (int)ll.load[ll.base[apex_node] + p];
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
static int every_leaf_group(const struct ibu_ibft *t,
			    struct ibu_mcast_member *mem)
{
	struct ibu_mcast_member *all = malloc(t->num_endports * sizeof(*all));
	uint8_t *seen = calloc((size_t)t->num_switches, 1);
	int i, k = 0;

	ck_assert_ptr_nonnull(all);
	ck_assert_ptr_nonnull(seen);
	random_group(t, t->num_endports, 0, all);
	for (i = 0; i < t->num_endports; i++) {
		int leaf = t->ep[ibu_ibft_ep(t, all[i].node, all[i].port)].leaf;

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
static int pod_group(const struct ibu_ibft *t, struct ibu_mcast_member *mem)
{
	int a = rnd(t->num_endports), b;

	do
		b = rnd(t->num_endports);
	while (ibu_ibft_lca_level(t, a, b) != 1);
	mem[0] = member_of(t, a, 0);
	mem[1] = member_of(t, b, 0);
	return 2;
}

/* 13 distinct end ports, the first and the last PID among them (pods 0
 * and half - 1: the apex is a top switch). */
static int spanning_group(const struct ibu_ibft *t,
			  struct ibu_mcast_member *mem)
{
	int i, again;

	do {
		random_group(t, 13, 0, mem);
		again = 0;
		for (i = 2; i < 13; i++)
			again |= mem[i].node == t->ep[0].node ||
				 mem[i].node == t->ep[t->num_endports - 1].node;
	} while (again);
	mem[0] = member_of(t, 0, 0);
	mem[1] = member_of(t, t->num_endports - 1, 0);
	return 13;
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
	struct ibu_mcast_load load;
	struct ibu_mcast_tree tree;
	struct ibu_mcmembers mm;
	struct ibu_mft mft;
	struct ibu_err e = { 0 };
	struct ft x;
	uint8_t in[256] = { 0 }, apex[256] = { 0 };
	long floods = 0, deliveries = 0;
	int g, i;

	rng = 1919;
	ft_make(&x, 8, 3, 1, 19);
	ck_assert_int_le(x.t.num_switches, 256);
	mem = malloc(x.t.num_endports * sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(ibu_mcast_load_init(&load, &x.t, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ibu_mcmembers_init(&mm);
	for (g = 0; g < 20; g++) {
		uint16_t mlid = (uint16_t)(0xc001 + g);
		int k;

		if (g % 4 == 0)
			k = every_leaf_group(&x.t, mem);
		else if (g % 4 == 3)
			k = pod_group(&x.t, mem);
		else
			k = spanning_group(&x.t, mem);
		ck_assert_int_eq(ibu_mcast_tree_build(&x.f, &x.t, mem, k, policy,
				&load, mlid, &tree, &e), 0);
		ck_assert_int_eq(tree.apex_level, g % 4 == 3 ? 1 : 0);
		ck_assert_int_eq(tree.compacted, policy == IBU_MCAST_COMPACT);
		apex[tree.apex] = 1;
		for (i = 0; i < tree.num_switches; i++)
			in[tree.switches[i]] = 1;
		ck_assert_int_eq(ibu_mcast_tree_to_mft(&x.t, &tree, mlid, &mft, &e), 0);
		for (i = 0; i < k; i++)
			ck_assert_int_eq(ibu_mcmembers_add(&mm, mlid, &mem[i], &e), 0);
		floods += k;
		deliveries += (long)k * (k - 1);
		ibu_mcast_tree_free(&tree);
	}
	assert_exactly_once(&x.f, &mft, &mm, floods, deliveries);
	*held = *tops = *middles = 0;
	for (i = 0; i < x.t.num_switches; i++) {
		*held += in[i];
		*tops += apex[i] && x.t.sw[i].level == 0;
		*middles += in[i] && x.t.sw[i].level == 1;
	}
	/* the load state's own count of them, which no release lowers */
	ck_assert_int_eq(ibu_mcast_load_ever(&load), *held);
	ibu_mcast_load_release(&load, 0xc001);
	ck_assert_int_eq(ibu_mcast_load_ever(&load), *held);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ibu_mcast_load_free(&load);
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
	struct ibu_ibft t;
	struct ibu_mft dump, mine;
	struct ibu_mcmembers mm;
	struct ibu_mcast_tree tree;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	const struct ibu_mcgroup *g;
	char path[1024];
	int n, w;

	snprintf(path, sizeof(path), "%s/ibft43-gen.net", FIXTURES_DIR);
	ck_assert_msg(ibu_netfile_read(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
	ck_assert_msg(ibu_ibft_recognize(&f, &t, &e) == 0, "%s", e.msg);
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
	ck_assert_int_eq(ibu_mcast_tree_build(&f, &t, g->m, g->num,
			IBU_MCAST_SOURCE, NULL, 0, &tree, &e), 0);
	ck_assert_int_eq(tree.apex, sw_of(&t, 0, 0, 0));
	ck_assert_int_eq(ibu_mft_init(&mine, f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_mcast_tree_to_mft(&t, &tree, 0xc001, &mine, &e), 0);
	for (n = 0; n < f.num_nodes; n++)
		for (w = 0; w < 4; w++)
			ck_assert_msg(dump.g[0].mask[n].w[w] == mine.g[0].mask[n].w[w],
				      "switch %s differs", f.nodes[n].name);
	ibu_mcast_tree_free(&tree);
	ibu_mft_free(&mine);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&dump);
	ibu_ibft_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mcast");
	TCase *tc = tcase_create("tree");
	TCase *tf = tcase_create("flood");

	tcase_add_test(tc, paper_fig7_source);
	tcase_add_test(tc, paper_fig7_source_shuffled);
	tcase_add_test(tc, paper_fig7_balanced_empty_load);
	tcase_add_test(tc, source_apex_follows_cyclic_climb);
	tcase_add_test(tc, one_member_one_leaf_one_pod);
	tcase_add_test(tc, whole_fabric_and_lowest_guid);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, switch_member);
	tcase_add_test(tc, balanced_spreads_over_top_switches);
	tcase_add_test(tc, balanced_looks_below_the_apex);
	tcase_add_test(tc, compact_holds_one_plane);
	suite_add_tcase(s, tc);
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
