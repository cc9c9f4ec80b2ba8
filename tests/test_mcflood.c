/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Flooding multicast tables (lib/analysis/mcflood.c) on a small fabric
 * whose copies are counted by hand. */
#include <string.h>
#include "unit.h"
#include "fabric.h"
#include "linkload.h"
#include "mcflood.h"
#include "mcmembers.h"
#include "mft.h"

/*
 * Three switches in a line, S0 -3- 3- S1 -4- 3- S2 (with `ring`, also
 * S0 port 4 to S2 port 4); HCAs A, B on S0 ports 1, 2, C on S1 port 1,
 * D on S2 port 1. The group 0xc001 is A, C, D (B is no member); its
 * tree: S0 {A, S1}, S1 {S0, S2, C}, S2 {S1, D}.
 */
enum { S0, S1, S2, A, B, C, D, NODES };

struct line {
	struct ibu_fabric f;
	struct ibu_mft mft;
	struct ibu_mcmembers mm;
};

static void line_make(struct line *x, int ring)
{
	static const char *const names[] = { "S0", "S1", "S2", "A", "B", "C", "D" };
	static const int at[4][2] = { { S0, 1 }, { S0, 2 }, { S1, 1 }, { S2, 1 } };
	struct ibu_err e = { 0 };
	int i, idx;

	ck_assert_int_eq(ibu_fabric_init(&x->f, "line"), 0);
	for (i = 0; i < NODES; i++) {
		ck_assert_int_eq(ibu_fabric_add_node(&x->f, i < A ? IBU_NODE_SWITCH :
						     IBU_NODE_CA, names[i], 0x500 + i,
						     i < A ? 4 : 1, &idx, &e), 0);
		ck_assert_int_eq(idx, i);
		if (i >= A)
			x->f.nodes[i].ports[1].guid = 0x600 + i;
	}
	ck_assert_int_eq(ibu_fabric_link(&x->f, S0, 3, S1, 3, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, S1, 4, S2, 3, &e), 0);
	if (ring)
		ck_assert_int_eq(ibu_fabric_link(&x->f, S0, 4, S2, 4, &e), 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(ibu_fabric_link(&x->f, A + i, 1, at[i][0],
						 at[i][1], &e), 0);
	ck_assert_int_eq(ibu_fabric_index(&x->f, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&x->mft, NODES, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x->mft, 0xc001, S0, 1, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x->mft, 0xc001, S0, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x->mft, 0xc001, S1, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x->mft, 0xc001, S1, 4, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x->mft, 0xc001, S1, 1, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x->mft, 0xc001, S2, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x->mft, 0xc001, S2, 1, &e), 0);
	ibu_mcmembers_init(&x->mm);
	for (i = A; i <= D; i++) {
		struct ibu_mcast_member m = { i, 1, 0 };

		if (i != B)
			ck_assert_int_eq(ibu_mcmembers_add(&x->mm, 0xc001, &m, &e), 0);
	}
}

static void line_free(struct line *x)
{
	ibu_mcmembers_free(&x->mm);
	ibu_mft_free(&x->mft);
	ibu_fabric_free(&x->f);
}

/* The issues seen, by kind, and the last one. */
struct seen {
	int n[IBU_MCF_KINDS];
	struct ibu_mcf_issue last;
};

static void note(void *ctx, const struct ibu_mcf_issue *is)
{
	struct seen *s = ctx;

	s->n[is->kind]++;
	s->last = *is;
}

static void flood(const struct line *x, const struct ibu_mcmembers *mm,
		  struct ibu_mcf_stats *st, struct seen *s)
{
	struct ibu_err e = { 0 };

	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(ibu_mcf_run(&x->f, &x->mft, mm, note, s, st, NULL, &e), 0);
	ck_assert_int_eq(st->count[IBU_MCF_MISSING], s->n[IBU_MCF_MISSING]);
	ck_assert_int_eq(st->count[IBU_MCF_STRAY], s->n[IBU_MCF_STRAY]);
}

/* The tree: 3 senders, each reaching the other 2 once; every tree cable
 * crossed both ways by the MLID (5 cables, 10 directed links), B's not;
 * without the member list the same members are read off the tables. */
START_TEST(tree_delivers_once)
{
	struct line x;
	struct ibu_mcf_stats st;
	struct ibu_linkload ll;
	struct ibu_linkload_stats ls;
	struct ibu_err e = { 0 };
	struct seen s;

	line_make(&x, 0);
	flood(&x, &x.mm, &st, &s);
	ck_assert_int_eq(st.groups, 1);
	ck_assert_int_eq(st.floods, 3);
	ck_assert_int_eq(st.deliveries, 3 * 2);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_eq(st.count[IBU_MCF_DEAD_PORT], 0);
	ck_assert_int_eq(st.count[IBU_MCF_UNLISTED], 0);
	ck_assert_int_eq(ibu_mcf_run(&x.f, &x.mft, &x.mm, NULL, NULL, &st, &ll, &e), 0);
	ibu_linkload_stats(&ll, &x.f, &ls);
	ck_assert_uint_eq(ls.total, 10);
	ck_assert_uint_eq(ls.max_any, 1);
	ck_assert_uint_eq(ll.load[ll.base[S0] + 2], 0);
	ck_assert_uint_eq(ll.load[ll.base[B] + 1], 0);
	ck_assert_uint_eq(ll.load[ll.base[S1] + 4], 1);
	ck_assert_uint_eq(ll.load[ll.base[S2] + 3], 1);
	ibu_linkload_free(&ll);
	flood(&x, NULL, &st, &s);
	ck_assert_int_eq(st.floods, 3);
	ck_assert_int_eq(st.deliveries, 3 * 2);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	line_free(&x);
}
END_TEST

/* Each broken entry caught as what it is, where it is. */
START_TEST(broken_entries_caught)
{
	struct line x;
	struct ibu_mcf_stats st;
	struct ibu_err e = { 0 };
	struct ibu_mcmembers so;
	struct ibu_mcast_member d_send = { D, 1, 1 };
	struct seen s;
	int i;

	/* S1 no longer forwards to S2: A and C never reach D */
	line_make(&x, 0);
	ibu_pm_clear(&x.mft.g[0].mask[S1], 4);
	flood(&x, &x.mm, &st, &s);
	ck_assert_int_eq(st.count[IBU_MCF_MISSING], 2);
	ck_assert_int_eq(s.last.node, D);
	ck_assert_int_eq(s.last.mlid, 0xc001);
	ck_assert_int_eq(ibu_mcf_problems(&st), 2);
	line_free(&x);

	/* S0 also sends to B, no member: a stray copy from each sender */
	line_make(&x, 0);
	ck_assert_int_eq(ibu_mft_set(&x.mft, 0xc001, S0, 2, &e), 0);
	flood(&x, &x.mm, &st, &s);
	ck_assert_int_eq(st.count[IBU_MCF_STRAY], 3);
	ck_assert_int_eq(st.count[IBU_MCF_MISSING], 0);
	ck_assert_int_eq(s.last.node, B);
	line_free(&x);

	/* D only sends, the tables still deliver to it */
	line_make(&x, 0);
	ibu_mcmembers_init(&so);
	for (i = 0; i < x.mm.g[0].num; i++)
		ck_assert_int_eq(ibu_mcmembers_add(&so, 0xc001,
			x.mm.g[0].m[i].node == D ? &d_send : &x.mm.g[0].m[i], &e), 0);
	flood(&x, &so, &st, &s);
	ck_assert_int_eq(st.count[IBU_MCF_STRAY], 2);
	ck_assert_int_eq(st.deliveries, 2 + 2 + 2 - 2);
	ibu_mcmembers_free(&so);

	/* an entry toward an uncabled port: a warning, nothing lost */
	ck_assert_int_eq(ibu_mft_set(&x.mft, 0xc001, S2, 2, &e), 0);
	flood(&x, &x.mm, &st, &s);
	ck_assert_int_eq(st.count[IBU_MCF_DEAD_PORT], 1);
	ck_assert_int_eq(ibu_mcf_problems(&st), 0);
	ck_assert_int_eq(s.last.kind, IBU_MCF_DEAD_PORT);
	ck_assert_int_eq(s.last.node, S2);
	ck_assert_int_eq(s.last.port, 2);
	line_free(&x);

	/* the ring's third cable in the tables too: a cycle */
	line_make(&x, 1);
	ck_assert_int_eq(ibu_mft_set(&x.mft, 0xc001, S0, 4, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&x.mft, 0xc001, S2, 4, &e), 0);
	flood(&x, &x.mm, &st, &s);
	ck_assert_int_gt(st.count[IBU_MCF_LOOP], 0);
	ck_assert_int_gt(ibu_mcf_problems(&st), 0);
	line_free(&x);

	/* a member the tables do not hold, and a group with no table */
	line_make(&x, 0);
	{
		struct ibu_mcast_member b = { B, 1, 0 };

		ck_assert_int_eq(ibu_mcmembers_add(&x.mm, 0xc001, &b, &e), 0);
		ck_assert_int_eq(ibu_mcmembers_add(&x.mm, 0xc002, &b, &e), 0);
		b.node = A;
		ck_assert_int_eq(ibu_mcmembers_add(&x.mm, 0xc002, &b, &e), 0);
	}
	flood(&x, &x.mm, &st, &s);
	ck_assert_int_eq(st.groups, 2);
	/* 0xc001: the 3 senders miss B (B's own packets still reach them:
	 * S0 forwards to its entry whatever port they came in on);
	 * 0xc002: A and B miss each other. Delivered: 2 by each of A, C,
	 * D, 3 by B. */
	ck_assert_int_eq(st.count[IBU_MCF_MISSING], 3 + 2);
	ck_assert_int_eq(st.deliveries, 3 * 2 + 3);
	line_free(&x);
}
END_TEST

/* The topmost switches of a group in a rank order. */
static int rank_of(const void *ctx, int node)
{
	const int *rank = ctx;

	return rank[node];
}

START_TEST(tops)
{
	struct line x;
	int rank[NODES] = { 1, 0, 1, -1, -1, -1, -1 }, top[4], level = -9;

	line_make(&x, 0);
	ck_assert_int_eq(ibu_mcf_tops(&x.mft, 0, rank_of, rank, top, 4, &level), 1);
	ck_assert_int_eq(top[0], S1);
	ck_assert_int_eq(level, 0);
	rank[S1] = 2;
	ck_assert_int_eq(ibu_mcf_tops(&x.mft, 0, rank_of, rank, top, 4, &level), 2);
	ck_assert_int_eq(top[0], S0);
	ck_assert_int_eq(top[1], S2);
	ck_assert_int_eq(level, 1);
	ck_assert_int_eq(ibu_mcf_tops(&x.mft, 0, rank_of, rank, top, 1, &level), 2);
	ck_assert_int_eq(ibu_mcf_tops(&x.mft, 1, rank_of, rank, top, 4, &level), -1);
	rank[S0] = rank[S1] = rank[S2] = -1;
	ck_assert_int_eq(ibu_mcf_tops(&x.mft, 0, rank_of, rank, top, 4, &level), -1);
	line_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mcflood");
	TCase *tc = tcase_create("flood");

	tcase_add_test(tc, tree_delivers_once);
	tcase_add_test(tc, broken_entries_caught);
	tcase_add_test(tc, tops);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
