/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The link-load model (lib/analysis/linkload.c): walks, counters, statistics. */
#include <string.h>
#include "unit.h"
#include "fabric.h"
#include "lft.h"
#include "linkload.h"
#include "mft.h"

/*
 * Two switches joined by two cables (S1 port 3 - S2 port 3, S1 port 4 -
 * S2 port 4), S1 port 5 not cabled; HCAs A, B on S1 ports 1, 2 and C, D on
 * S2 ports 1, 2. LIDs A=1 B=2 C=3 D=4 S1=5 S2=6. Every LID crosses on
 * cable 3.
 */
enum { S1, S2, A, B, C, D };

struct net {
	struct ibu_fabric f;
	struct ibu_lft lft;
};

static void net_make(struct net *x)
{
	struct ibu_err e = { 0 };
	static const char *const names[] = { "S1", "S2", "A", "B", "C", "D" };
	int i, idx;

	ck_assert_int_eq(ibu_fabric_init(&x->f, "test"), 0);
	for (i = 0; i < 6; i++) {
		ck_assert_int_eq(ibu_fabric_add_node(&x->f, i < 2 ? IBU_NODE_SWITCH :
						     IBU_NODE_CA, names[i],
						     0x100 + i, i < 2 ? 5 : 1,
						     &idx, &e), 0);
		ck_assert_int_eq(idx, i);
	}
	ck_assert_int_eq(ibu_fabric_link(&x->f, S1, 3, S2, 3, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, S1, 4, S2, 4, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, A, 1, S1, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, B, 1, S1, 2, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, C, 1, S2, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, D, 1, S2, 2, &e), 0);
	x->f.nodes[A].ports[1].lid = 1;
	x->f.nodes[B].ports[1].lid = 2;
	x->f.nodes[C].ports[1].lid = 3;
	x->f.nodes[D].ports[1].lid = 4;
	x->f.nodes[S1].ports[0].lid = 5;
	x->f.nodes[S2].ports[0].lid = 6;
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, 12, &e), 0);
	/* S1: A 1, B 2, C and D over cable 3, itself 0, S2 over 3 */
	x->lft.row[S1][1] = 1;
	x->lft.row[S1][2] = 2;
	x->lft.row[S1][3] = 3;
	x->lft.row[S1][4] = 3;
	x->lft.row[S1][5] = 0;
	x->lft.row[S1][6] = 3;
	x->lft.row[S2][1] = 3;
	x->lft.row[S2][2] = 3;
	x->lft.row[S2][3] = 1;
	x->lft.row[S2][4] = 2;
	x->lft.row[S2][5] = 3;
	x->lft.row[S2][6] = 0;
	/* LID 7: a loop between the switches; 9: an uncabled port */
	x->lft.row[S1][7] = 3;
	x->lft.row[S2][7] = 3;
	x->lft.row[S1][9] = 5;
}

static void net_free(struct net *x)
{
	ibu_lft_free(&x->lft);
	ibu_fabric_free(&x->f);
}

static int slot(const struct ibu_linkload *ll, int node, int port)
{
	return ibu_linkload_slot(ll, node, port);
}

START_TEST(unicast_walks)
{
	struct net x;
	struct ibu_linkload ll;
	struct ibu_walk w;
	struct ibu_err e = { 0 };

	net_make(&x);
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);
	ibu_walk_init(&w);

	/* A -> C: A's cable, cable 3 to S2, S2 port 1 to C */
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 3, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_OK);
	ck_assert_int_eq(w.num, 3);
	ck_assert_int_eq(w.slot[0], slot(&ll, A, 1));
	ck_assert_int_eq(w.slot[1], slot(&ll, S1, 3));
	ck_assert_int_eq(w.slot[2], slot(&ll, S2, 1));
	ck_assert_int_eq(w.end_node, C);
	ck_assert_int_eq(w.end_port, 1);
	ck_assert_int_eq(w.max_links, 3);
	ck_assert_int_eq(w.max_switches, 2);

	/* A -> B stays on S1 */
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 2, &w, &e), 0);
	ck_assert_int_eq(w.num, 2);
	ck_assert_int_eq(w.max_switches, 1);
	ck_assert_int_eq(w.end_node, B);

	/* A -> S2's own LID: delivered to the switch, port 0 */
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 6, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_OK);
	ck_assert_int_eq(w.num, 2);
	ck_assert_int_eq(w.end_node, S2);
	ck_assert_int_eq(w.end_port, 0);
	ck_assert_int_eq(w.max_switches, 2);

	/* from a switch: S2 -> A */
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, S2, 0, 1, &w, &e), 0);
	ck_assert_int_eq(w.num, 2);
	ck_assert_int_eq(w.slot[0], slot(&ll, S2, 3));
	ck_assert_int_eq(w.end_node, A);

	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 7, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_LOOP);
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 8, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_NO_ROUTE);
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 9, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_DEAD_PORT);
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 4000, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_NO_ROUTE);

	/* bad sources are errors */
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 0, 3, &w, &e),
			 IBU_EINVAL);
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, 17, 1, 3, &w, &e),
			 IBU_EINVAL);
	ibu_walk_free(&w);
	ibu_linkload_free(&ll);
	net_free(&x);
}
END_TEST

/* All twelve ordered pairs of HCAs on base LIDs, counted by hand:
 * every HCA sends 3 and receives 3; cable 3 carries the 4 pairs S1 -> S2
 * one way and the 4 pairs S2 -> S1 the other; cable 4 nothing. */
START_TEST(all_pairs_counted)
{
	struct net x;
	struct ibu_linkload ll;
	struct ibu_linkload_stats st;
	struct ibu_walk w;
	struct ibu_err e = { 0 };
	static const int hca[4] = { A, B, C, D };
	int i, j, node, port;

	net_make(&x);
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);
	ibu_walk_init(&w);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			if (i == j)
				continue;
			ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, hca[i], 1,
							j + 1, &w, &e), 0);
			ck_assert_int_eq(w.status, IBU_WALK_OK);
			ibu_linkload_add_walk(&ll, &w, 1);
		}
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(ibu_linkload_get(&ll, hca[i], 1), 3);
		ck_assert_int_eq(ibu_linkload_get(&ll, i < 2 ? S1 : S2,
						  1 + (i & 1)), 3);
	}
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 3), 4);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 3), 4);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 4), 0);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 4), 0);

	ibu_linkload_stats(&ll, &x.f, &st);
	ck_assert_int_eq(st.max_any, 4);
	ck_assert_int_eq(st.max_any_node, S1);	/* first in node order */
	ck_assert_int_eq(st.max_any_port, 3);
	ck_assert_int_eq(st.max_sw, 4);
	ck_assert_int_eq(st.max_hca, 3);
	ck_assert_int_eq(st.max_hca_node, S1);
	ck_assert_int_eq(st.max_hca_port, 1);
	/* 4 pairs on one switch x 2 links + 8 pairs across x 3 links */
	ck_assert_int_eq(st.total, 4 * 2 + 8 * 3);
	ck_assert_int_eq(st.sw_cables, 2);
	ck_assert_int_eq(st.sw_cables_used, 1);
	ck_assert_int_eq(st.hca_cables, 4);

	/* walk maximum and slot inverse */
	ck_assert_int_eq(ibu_walk_ucast(&x.f, &ll, &x.lft, A, 1, 2, &w, &e), 0);
	ck_assert_int_eq(ibu_linkload_walk_max(&ll, &w), 3);
	ibu_linkload_port_of(&ll, slot(&ll, S2, 4), &node, &port);
	ck_assert_int_eq(node, S2);
	ck_assert_int_eq(port, 4);
	ibu_linkload_port_of(&ll, slot(&ll, D, 1), &node, &port);
	ck_assert_int_eq(node, D);
	ck_assert_int_eq(port, 1);

	/* cables count both directions; reset clears */
	ibu_linkload_add_cable(&ll, &x.f, S1, 4, 2);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 4), 2);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 4), 2);
	ibu_linkload_reset(&ll);
	ibu_linkload_stats(&ll, &x.f, &st);
	ck_assert_int_eq(st.total, 0);
	ck_assert_int_eq(st.max_any_node, -1);
	ibu_walk_free(&w);
	ibu_linkload_free(&ll);
	net_free(&x);
}
END_TEST

START_TEST(multicast_walks)
{
	struct net x;
	struct ibu_linkload ll;
	struct ibu_walk w;
	struct ibu_mft mft;
	struct ibu_err e = { 0 };
	const struct ibu_portmask *mask;
	int gi;

	net_make(&x);
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	/* group {A, C, D}: S1 {1, 3}, S2 {3, 1, 2} */
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S1, 1, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S1, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S2, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S2, 1, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S2, 2, &e), 0);
	gi = ibu_mft_find(&mft, 0xc001);
	ck_assert_int_ge(gi, 0);
	mask = mft.g[gi].mask;
	ibu_walk_init(&w);

	/* A sends: A -> S1 -> cable 3 -> S2 -> C and D */
	ck_assert_int_eq(ibu_walk_mcast(&x.f, &ll, mask, A, 1, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_OK);
	ck_assert_int_eq(w.num, 4);
	ck_assert_int_eq(w.deliveries, 2);
	ck_assert_int_eq(w.max_links, 3);
	ck_assert_int_eq(w.max_switches, 2);
	ibu_linkload_add_walk(&ll, &w, 1);
	/* C sends: C -> S2 -> D, and cable 3 back -> S1 -> A */
	ck_assert_int_eq(ibu_walk_mcast(&x.f, &ll, mask, C, 1, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_OK);
	ck_assert_int_eq(w.num, 4);
	ck_assert_int_eq(w.deliveries, 2);
	ibu_linkload_add_walk(&ll, &w, 1);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 3), 1);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 3), 1);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 2), 2);	/* to D twice */
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 1), 1);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 1), 1);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 4), 0);

	/* the switch S1 as the sender (port 0): only cable 3 and on */
	ck_assert_int_eq(ibu_walk_mcast(&x.f, &ll, mask, S1, 0, &w, &e), 0);
	ck_assert_int_eq(w.deliveries, 3);
	ck_assert_int_eq(w.max_links, 2);
	ck_assert_int_eq(w.max_switches, 2);

	/* both cables in the tree: S2 gets the packet twice */
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S1, 4, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S2, 4, &e), 0);
	mask = mft.g[ibu_mft_find(&mft, 0xc001)].mask;
	ck_assert_int_eq(ibu_walk_mcast(&x.f, &ll, mask, A, 1, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_LOOP);
	/* an uncabled port in the mask */
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc002, S1, 5, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc002, S1, 1, &e), 0);
	mask = mft.g[ibu_mft_find(&mft, 0xc002)].mask;
	ck_assert_int_eq(ibu_walk_mcast(&x.f, &ll, mask, A, 1, &w, &e), 0);
	ck_assert_int_eq(w.status, IBU_WALK_DEAD_PORT);
	ck_assert_int_eq(w.num, 1);
	ibu_walk_free(&w);
	ibu_mft_free(&mft);
	ibu_linkload_free(&ll);
	net_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("linkload");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, unicast_walks);
	tcase_add_test(tc, all_pairs_counted);
	tcase_add_test(tc, multicast_walks);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
