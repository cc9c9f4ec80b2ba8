/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Traffic patterns, DLID choice and their link load (lib/analysis/traffic.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "cyclic_util.h"
#include "fabric.h"
#include "gen.h"
#include "ibft_view.h"
#include "lft.h"
#include "linkload.h"
#include "mcmembers.h"
#include "mft.h"
#include "traffic.h"
#include "cuts.h"

/*
 * Two switches joined by cables 3-3 and 4-4; HCAs A, B on S1 ports 1, 2,
 * C, D on S2 ports 1, 2; port GUIDs D < C < B < A, so the end-port order
 * (GUID order: this is no fat tree) is D, C, B, A.
 * lmc 0: LIDs A=1 B=2 C=3 D=4, everything crosses on cable 3.
 * lmc 1: A=2,3 B=4,5 C=6,7 D=8,9: offset 0 crosses on cable 3, offset 1
 * on cable 4.
 */
enum { S1, S2, A, B, C, D };

struct net {
	struct ibu_fabric f;
	struct ibu_lft lft;
	struct ibu_endports ep;
};

static void net_make(struct net *x, int lmc)
{
	struct ibu_err e = { 0 };
	static const char *const names[] = { "S1", "S2", "A", "B", "C", "D" };
	static const int hca[4] = { A, B, C, D };
	int i, idx, o;

	ck_assert_int_eq(ibu_fabric_init(&x->f, "test"), 0);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(ibu_fabric_add_node(&x->f, i < 2 ? IBU_NODE_SWITCH :
						     IBU_NODE_CA, names[i],
						     0x100 + i, i < 2 ? 4 : 1,
						     &idx, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, S1, 3, S2, 3, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, S1, 4, S2, 4, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, A, 1, S1, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, B, 1, S1, 2, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, C, 1, S2, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&x->f, D, 1, S2, 2, &e), 0);
	for (i = 0; i < 4; i++) {
		struct ibu_port *p = &x->f.nodes[hca[i]].ports[1];

		p->guid = 0x40 - 0x10 * i;	/* A 0x40 .. D 0x10 */
		p->lid = (uint16_t)((i << lmc) + (1 << lmc));
		p->lmc = (uint8_t)lmc;
	}
	x->f.nodes[S1].ports[0].lid = (uint16_t)((5 << lmc) + 0);
	x->f.nodes[S2].ports[0].lid = (uint16_t)((5 << lmc) + 1);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, 64, &e), 0);
	for (i = 0; i < 4; i++)
		for (o = 0; o < (1 << lmc); o++) {
			int lid = (i << lmc) + (1 << lmc) + o;
			int here = i < 2 ? S1 : S2, there = i < 2 ? S2 : S1;

			x->lft.row[here][lid] = (uint8_t)(1 + (i & 1));
			x->lft.row[there][lid] = (uint8_t)(3 + o);
		}
	ck_assert_int_eq(ibu_endports_build(&x->f, NULL, NULL, &x->ep, &e), 0);
}

static void net_free(struct net *x)
{
	ibu_endports_free(&x->ep);
	ibu_lft_free(&x->lft);
	ibu_fabric_free(&x->f);
}

static void run(const struct ibu_traffic_in *in, const char *pattern,
		struct ibu_linkload *ll, struct ibu_traffic_result *r)
{
	struct ibu_pattern p;
	struct ibu_err e = { 0 };
	int rc;

	ck_assert_int_eq(ibu_pattern_parse(pattern, &p, &e), 0);
	rc = ibu_traffic_run(in, &p, ll, r, &e);
	ck_assert_msg(rc == 0, "%s: %s", pattern, e.msg);
}

START_TEST(order_and_parsing)
{
	struct net x;
	struct ibu_pattern p;
	struct ibu_err e = { 0 };
	enum ibu_dlid_mode m;
	static const char *const bad[] = {
		"", "shift:0", "shift:x", "all", "mcast:1", "mcast:1:0%",
		"mcast:0:10%", "mcast:1:10", "ucast:101%:10%", "random:0",
		"random:x", "ebb:0", "ebb:", "ebb3",
	};
	unsigned i;

	net_make(&x, 0);
	ck_assert_int_eq(x.ep.num, 4);
	ck_assert_int_eq(x.ep.by_engine, 0);
	ck_assert_int_eq(x.ep.node[0], D);
	ck_assert_int_eq(x.ep.node[3], A);
	ck_assert_int_eq(ibu_endports_find(&x.ep, B, 1), 2);
	ck_assert_int_eq(ibu_endports_find(&x.ep, S1, 1), -1);

	ck_assert_int_eq(ibu_pattern_parse("random", &p, &e), 0);
	ck_assert_int_eq(p.kind, IBU_PAT_RANDOM);
	ck_assert_int_eq(p.k, 1);
	ck_assert_int_eq(ibu_pattern_parse("random:3", &p, &e), 0);
	ck_assert_int_eq(p.k, 3);
	ck_assert_int_eq(ibu_pattern_parse("ebb", &p, &e), 0);
	ck_assert_int_eq(p.kind, IBU_PAT_BISECT);
	ck_assert_int_eq(p.k, IBU_EBB_SAMPLES);
	ck_assert_int_eq(ibu_pattern_parse("ebb:7", &p, &e), 0);
	ck_assert_int_eq(p.k, 7);
	ck_assert_int_eq(ibu_pattern_parse("shift:3", &p, &e), 0);
	ck_assert_int_eq(p.kind, IBU_PAT_SHIFT);
	ck_assert_int_eq(p.k, 3);
	ck_assert_int_eq(ibu_pattern_parse("mcast:40%:10%", &p, &e), 0);
	ck_assert_int_eq(p.kind, IBU_PAT_MCAST);
	ck_assert_int_eq(p.sources_pct, 40);
	ck_assert_int_eq(p.group_pct, 10);
	ck_assert(ibu_pattern_is_mcast(&p));
	ck_assert_int_eq(ibu_pattern_parse("ucast:1:100%", &p, &e), 0);
	ck_assert_int_eq(p.kind, IBU_PAT_MCAST_UCAST);
	ck_assert_int_eq(p.sources, 1);
	ck_assert(!ibu_pattern_is_mcast(&p));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(ibu_pattern_parse(bad[i], &p, &e) == IBU_EINVAL,
			      "'%s' accepted", bad[i]);
	ck_assert_int_eq(ibu_dlid_mode_parse("pairs", &m), 0);
	ck_assert_int_eq(m, IBU_DLIDS_PAIRS);
	ck_assert_int_eq(ibu_dlid_mode_parse("lmc", &m), IBU_EINVAL);
	ck_assert_str_eq(ibu_dlid_mode_name(IBU_DLIDS_ADVISED), "cyclic");
	net_free(&x);
}
END_TEST

static long always_one(void *ctx, int sn, int sp, int dn, int dp)
{
	(void)ctx; (void)sn; (void)sp; (void)dn; (void)dp;
	return 1;
}

/* All-to-all, counted by hand: each HCA sends and receives 3 messages;
 * the 8 pairs across the switches (4 each way) share the cables. */
START_TEST(all_to_all_dlids)
{
	struct net x;
	struct ibu_linkload ll;
	struct ibu_traffic_result r;
	struct ibu_err e = { 0 };
	struct ibu_traffic_in in = { .dlids = IBU_DLIDS_BASE, .size = 100 };

	net_make(&x, 1);
	in.f = &x.f;
	in.lft = &x.lft;
	in.ep = &x.ep;
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);

	/* base: offset 0, all across on cable 3 */
	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.unit, 1);
	ck_assert_int_eq(r.messages, 12);
	ck_assert_int_eq(r.walks, 12);
	ck_assert_int_eq(r.unrouted, 0);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 3), 4);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 3), 4);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 4), 0);
	ck_assert_int_eq(r.st.max_sw, 4);
	ck_assert_int_eq(r.st.max_any, 4);
	ck_assert_int_eq(r.st.max_hca, 3);
	ck_assert_int_eq(r.st.total, 4 * 2 + 8 * 3);
	/* a crossing walk: 3 links, 2 switches, its busiest link carries 4
	 * messages of 100 bytes: 60 + 200 + 1600 ns */
	ck_assert(r.time_ns > 1859.9 && r.time_ns < 1860.1);

	/* pairs: each message in two halves, one per cable */
	in.dlids = IBU_DLIDS_PAIRS;
	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.unit, 2);
	ck_assert_int_eq(r.messages, 12);
	ck_assert_int_eq(r.walks, 24);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 3), 4);	/* 2 messages */
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 4), 4);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 4), 4);
	ck_assert_int_eq(r.st.max_sw, 4);
	ck_assert_int_eq(r.st.max_hca, 6);			/* 3 messages */
	ck_assert_int_eq(r.st.total, 2 * (4 * 2 + 8 * 3));
	/* now the HCA links are the bottleneck: 60 + 200 + 4 x 100 x 3 */
	ck_assert(r.time_ns > 1459.9 && r.time_ns < 1460.1);

	/* cyclic DLIDs from the advice function: offset 1, cable 4 */
	in.dlids = IBU_DLIDS_ADVISED;
	in.advised = always_one;
	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.unit, 1);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 3), 0);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 4), 4);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 4), 4);

	/* a hole in the tables is counted, not fatal */
	x.lft.row[S2][6] = IBU_NO_PATH;		/* C, offset 0 */
	in.dlids = IBU_DLIDS_BASE;
	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.unrouted, 3);	/* A, B and D -> C */
	ck_assert(strstr(r.first_unrouted, "no route") != NULL);
	ibu_linkload_free(&ll);
	net_free(&x);
}
END_TEST

/* Shifts in the order D, C, B, A:
 *   k=1: D->C, C->B, B->A, A->D   one crossing each way: busiest 1
 *   k=2: D->B, C->A, B->D, A->C   two crossings each way: busiest 2
 *   k=3: D->A, C->D, B->C, A->B   one crossing each way: busiest 1 */
/*
 * Flow bandwidth, bounds and bisections on the two-switch net (lmc 1).
 * Base all-to-all: the 4 messages inside a switch are limited by their
 * HCA links (3 messages each: 1/3), the 8 across by cable 3 (4: 1/4).
 * Cuts: each switch with its two HCAs, 2 cables out; all-to-all sends
 * 2 x 2 messages each way over them (2 a cable), below the HCA links' 3.
 */
START_TEST(flow_bw_bounds_and_bisections)
{
	struct net x;
	struct ibu_linkload ll;
	struct ibu_traffic_result r;
	struct ibu_cuts c;
	struct ibu_err e = { 0 };
	struct ibu_traffic_in in = { .dlids = IBU_DLIDS_BASE, .size = 100 };
	int to[4] = { 2, 3, 0, 1 };	/* D<->B, C<->A: every one across */

	net_make(&x, 1);
	in.f = &x.f;
	in.lft = &x.lft;
	in.ep = &x.ep;
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);
	ck_assert_int_eq(ibu_cuts_build(&x.f, &x.ep, &c, &e), 0);
	ck_assert_int_eq(c.num, 2);
	ck_assert_int_eq(c.size[0], 2);
	ck_assert_int_eq(c.cables[0], 2);
	ck_assert_int_eq(c.cables[1], 2);
	ck_assert(ibu_cuts_bound(&c, 4, NULL) == 3.0);
	ck_assert(ibu_cuts_bound(&c, 4, to) == 1.0);
	in.cuts = &c;

	run(&in, "all-to-all", &ll, &r);
	ck_assert(r.flow_bw > (4.0 / 3 + 8.0 / 4) / 12 - 1e-9 &&
		  r.flow_bw < (4.0 / 3 + 8.0 / 4) / 12 + 1e-9);
	ck_assert(r.bound == 3.0);
	/* one DLID a destination (base) takes the cuts' whole-destination
	 * figure where it is higher; pairs split a destination: not */
	c.a2a_one_dlid = 7;
	run(&in, "all-to-all", &ll, &r);
	ck_assert(r.bound == 7.0);
	run(&in, "shift:1", &ll, &r);
	{
		int sh1[4] = { 1, 2, 3, 0 };

		ck_assert(r.bound == ibu_cuts_bound(&c, 4, sh1));
	}
	in.dlids = IBU_DLIDS_PAIRS;
	run(&in, "all-to-all", &ll, &r);
	ck_assert(r.bound == 3.0);
	in.dlids = IBU_DLIDS_BASE;
	c.a2a_one_dlid = 0;
	/* pairs: the halves across share nothing but the HCA links */
	in.dlids = IBU_DLIDS_PAIRS;
	run(&in, "all-to-all", &ll, &r);
	ck_assert(r.flow_bw > 1.0 / 3 - 1e-9 && r.flow_bw < 1.0 / 3 + 1e-9);
	in.dlids = IBU_DLIDS_BASE;

	/* bisections: every sample a perfect matching, both ways */
	run(&in, "ebb:5", &ll, &r);
	ck_assert_int_eq(r.permutations, 5);
	ck_assert_int_eq(r.messages, 5 * 4);
	ck_assert_int_eq(r.unrouted, 0);
	ck_assert_int_eq(r.st.max_hca, 1);
	ck_assert(r.bound >= 1.0);
	ck_assert(r.flow_bw > 0.49 && r.flow_bw <= 1.0);
	run(&in, "random:3", &ll, &r);
	ck_assert_int_eq(r.permutations, 3);
	ck_assert(r.worst_k >= 1 && r.worst_k <= 3);
	/* each sample's flow-bw kept: their mean is the pattern's (every
	 * sample N messages), beyond sample_cap none is written */
	{
		double sbw[4] = { -1, -1, -1, -1 }, mean, ci;
		int i;

		in.sample_bw = sbw;
		in.sample_cap = 3;
		run(&in, "ebb:5", &ll, &r);
		ck_assert(sbw[3] == -1);
		ibu_traffic_ci95(sbw, NULL, 3, &mean, &ci);
		for (i = 0; i < 3; i++)
			ck_assert(sbw[i] > 0.49 && sbw[i] <= 1.0);
		in.sample_cap = 4;
		run(&in, "ebb:4", &ll, &r);
		ibu_traffic_ci95(sbw, NULL, 4, &mean, &ci);
		ck_assert(mean > r.flow_bw - 1e-12 && mean < r.flow_bw + 1e-12);
		in.sample_bw = NULL;
		in.sample_cap = 0;
	}

	/* one cable left: the cut bound is 4 a cable, above the HCA's 3 */
	ibu_cuts_free(&c);
	x.f.nodes[S1].ports[4].peer_node = -1;
	x.f.nodes[S2].ports[4].peer_node = -1;
	ck_assert_int_eq(ibu_cuts_build(&x.f, &x.ep, &c, &e), 0);
	ck_assert_int_eq(c.cables[0], 1);
	ck_assert(ibu_cuts_bound(&c, 4, NULL) == 4.0);
	ck_assert(ibu_cuts_bound(NULL, 4, NULL) == 3.0);
	/* a permutation's bound is the cuts' (2 hosts over the one cable),
	 * not its end ports' busiest cable, with the one-DLID figure set */
	in.cuts = &c;
	c.a2a_one_dlid = 6;
	run(&in, "shift:2", &ll, &r);
	ck_assert(r.bound == 2.0);
	run(&in, "all-to-all", &ll, &r);
	ck_assert(r.bound == 6.0);
	ibu_cuts_free(&c);
	ibu_linkload_free(&ll);
	net_free(&x);
}
END_TEST

START_TEST(shifts_and_random)
{
	struct net x;
	struct ibu_linkload ll;
	struct ibu_traffic_result r, r2;
	struct ibu_err e = { 0 };
	struct ibu_traffic_in in = { .dlids = IBU_DLIDS_BASE, .size = 1 };
	int i;

	net_make(&x, 0);
	in.f = &x.f;
	in.lft = &x.lft;
	in.ep = &x.ep;
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);
	run(&in, "shift:1", &ll, &r);
	ck_assert_int_eq(r.messages, 4);
	ck_assert_int_eq(r.st.max_any, 1);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 3), 1);	/* C -> B */
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 3), 1);	/* A -> D */
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 2), 1);	/* to D */
	ck_assert_int_eq(r.st.total, 2 + 3 + 2 + 3);
	run(&in, "shift:2", &ll, &r);
	ck_assert_int_eq(r.st.max_sw, 2);
	ck_assert_int_eq(r.st.total, 4 * 3);
	run(&in, "shift", &ll, &r);
	ck_assert_int_eq(r.permutations, 3);
	ck_assert_int_eq(r.worst_k, 2);
	ck_assert_int_eq(r.messages, 12);
	ck_assert_int_eq(r.st.max_any, 2);
	ck_assert_int_eq(ibu_linkload_get(&ll, S2, 3), 2);	/* k=2 kept */

	/* a random permutation: every HCA sends and receives at most one */
	in.seed = 42;
	run(&in, "random", &ll, &r);
	ck_assert_int_le(r.messages, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_int_le(ibu_linkload_get(&ll, x.ep.node[i], 1), 1);
		ck_assert_int_le(ibu_linkload_get(&ll, i < 2 ? S1 : S2,
						  1 + (i & 1)), 1);
	}
	run(&in, "random", &ll, &r2);
	ck_assert_int_eq(r.messages, r2.messages);
	ck_assert_int_eq(r.st.total, r2.st.total);
	ibu_linkload_free(&ll);
	net_free(&x);
}
END_TEST

START_TEST(multicast_cases)
{
	struct net x;
	struct ibu_linkload ll;
	struct ibu_traffic_result r;
	struct ibu_err e = { 0 };
	struct ibu_traffic_in in = { .dlids = IBU_DLIDS_BASE, .size = 1 };
	struct ibu_mcmembers mm;
	struct ibu_mflows snd = { 0 };
	struct ibu_pattern p;
	struct ibu_mft mft;
	struct ibu_mcast_member m = { 0 };
	int i, j;

	net_make(&x, 0);
	in.f = &x.f;
	in.lft = &x.lft;
	in.ep = &x.ep;
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);

	/* one source to 50%: one MLID, 2 receivers, the source */
	ibu_mcmembers_init(&mm);
	ck_assert_int_eq(ibu_pattern_parse("mcast:1:50%", &p, &e), 0);
	ck_assert_int_eq(ibu_traffic_mcast_case(&x.ep, &p, 7, 0xc001, &mm,
						&snd, &e), 0);
	ck_assert_int_eq(mm.num_groups, 1);
	ck_assert_int_eq(snd.num, 1);
	ck_assert_int_eq(snd.f[0].mlid, 0xc001);
	for (i = 0, j = 0; i < mm.g[0].num; i++)
		j += mm.g[0].m[i].send_only;
	ck_assert_int_le(j, 1);		/* the source, unless it receives */
	ck_assert_int_eq(mm.g[0].num, 2 + j);
	ibu_mcmembers_free(&mm);
	ibu_mflows_free(&snd);

	/* everybody to everybody: 4 MLIDs of 4 full members; by unicast it
	 * is the all-to-all */
	ibu_mcmembers_init(&mm);
	ck_assert_int_eq(ibu_pattern_parse("ucast:100%:100%", &p, &e), 0);
	ck_assert_int_eq(ibu_traffic_mcast_case(&x.ep, &p, 7, 0xc001, &mm,
						&snd, &e), 0);
	ck_assert_int_eq(mm.num_groups, 4);
	ck_assert_int_eq(snd.num, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(mm.g[i].num, 4);
		for (j = 0; j < 4; j++)
			ck_assert(!mm.g[i].m[j].send_only);
		for (j = 0; j < i; j++)
			ck_assert(snd.f[i].node != snd.f[j].node);
	}
	in.mm = &mm;
	in.senders = &snd;
	run(&in, "ucast:100%:100%", &ll, &r);
	ck_assert_int_eq(r.messages, 12);
	ck_assert_int_eq(r.st.max_sw, 4);
	ck_assert_int_eq(r.st.total, 4 * 2 + 8 * 3);
	ibu_mcmembers_free(&mm);
	ibu_mflows_free(&snd);

	/* a group {A send-only, C, D} and its tree S1 {1,3}, S2 {3,1,2} */
	ibu_mcmembers_init(&mm);
	m.node = A; m.port = 1; m.send_only = 1;
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &m, &e), 0);
	m.node = C; m.send_only = 0;
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &m, &e), 0);
	m.node = D;
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &m, &e), 0);
	ck_assert_int_eq(ibu_traffic_group_senders(&mm, &snd, &e), 0);
	ck_assert_int_eq(snd.num, 1);
	ck_assert_int_eq(snd.f[0].node, A);
	ck_assert_int_eq(ibu_mft_init(&mft, x.f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S1, 1, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S1, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S2, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S2, 1, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&mft, 0xc001, S2, 2, &e), 0);
	in.mm = &mm;
	in.senders = &snd;
	in.mft = &mft;
	run(&in, "groups", &ll, &r);
	ck_assert_int_eq(r.messages, 1);
	ck_assert_int_eq(r.unrouted, 0);
	ck_assert_int_eq(r.st.total, 4);	/* A, cable 3, to C, to D */
	ck_assert_int_eq(r.st.max_any, 1);
	/* 20 + 100 per hop on the 3-link path, 4 ns for the one byte */
	ck_assert(r.time_ns > 263.9 && r.time_ns < 264.1);
	run(&in, "groups-ucast", &ll, &r);
	ck_assert_int_eq(r.messages, 2);
	ck_assert_int_eq(ibu_linkload_get(&ll, A, 1), 2);
	ck_assert_int_eq(ibu_linkload_get(&ll, S1, 3), 2);
	ck_assert_int_eq(r.st.total, 6);
	/* B joins, the tables do not follow: a receiver misses its copy */
	m.node = B;
	ck_assert_int_eq(ibu_mcmembers_add(&mm, 0xc001, &m, &e), 0);
	run(&in, "groups", &ll, &r);
	ck_assert_int_eq(r.unrouted, 1);
	ibu_mft_free(&mft);
	ibu_mcmembers_free(&mm);
	ibu_mflows_free(&snd);
	ibu_linkload_free(&ll);
	net_free(&x);
}
END_TEST

/* IBFT(4,3) with the paper's tables at LMC 2 (offsets=paper). */
struct ft {
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan plan;
	struct ibu_lft lft;
	struct ibu_endports ep;
	enum ibu_cyclic_offsets mode;
};

/* The fat tree's PID order, as the cyclic engine's endport_index. */
static int ibft_index(const void *ctx, int node, int port)
{
	return ibft_view_ep(ctx, node, port);
}

static long advised_offset(void *ctx, int sn, int sp, int dn, int dp)
{
	const struct ft *x = ctx;

	return cyclic_offset(&x->t, x->plan.offset_digits,
				 x->mode,
				 (uint32_t)ibft_view_ep(&x->t, sn, sp),
				 (uint32_t)ibft_view_ep(&x->t, dn, dp));
}

static void ft_make(struct ft *x, enum ibu_cyclic_offsets mode)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 3 };
	struct ibu_err e = { 0 };
	struct ibft_view t0;
	int rc;

	ck_assert_int_eq(ibu_gen_fattree(&x->f, 4, 3, &o, &e), 0);
	ck_assert_int_eq(ibu_fabric_index(&x->f, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(&x->f, &t0, &e), 0);
	ck_assert_int_eq(paper_lids(&x->f, 2,
						  LIDS_ALIGNED, &e), 0);
	ibft_view_free(&t0);
	x->mode = mode;
	ck_assert_int_eq(ibft_view_recognize(&x->f, &x->t, &e), 0);
	ck_assert_int_eq(lidplan_build(&x->f, &x->plan, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->plan.map.max_lid,
				      &e), 0);
	rc = cyclic_route(&x->f, &x->plan, mode, &x->lft, &e);
	ck_assert_msg(rc == 0, "%s", e.msg);
	ck_assert_int_eq(ibu_endports_build(&x->f, ibft_index, &x->t, &x->ep, &e), 0);
	ck_assert_int_eq(x->ep.by_engine, 1);
	ck_assert_int_eq(x->ep.num, 16);
	ck_assert_int_eq(ibft_view_ep(&x->t, x->ep.node[5], x->ep.port[5]), 5);
}

static void ft_free(struct ft *x)
{
	ibu_endports_free(&x->ep);
	ibu_lft_free(&x->lft);
	lidplan_free(&x->plan);
	ibft_view_free(&x->t);
	ibu_fabric_free(&x->f);
}

/*
 * By hand, with up-digits from the offset (paper Eq. 2):
 * base LIDs (offset 0) climb through up-digit 0 everywhere: a pod's level-1
 * switch (p0, 0) carries its 4 hosts' traffic to the 12 hosts of other
 * pods up to SW<00,0>: 48, and SW<00,0> the same 48 down into each pod.
 * Cyclic DLIDs: a host climbs through its own digits, so a leaf up-link
 * carries one host's 14 messages out of the leaf, a level-1 up-link one
 * host's 12 out of the pod, a top down-link 3 hosts x 4 = 12, a level-1
 * down-link 6 hosts of other pods x 2 + 1 host of the pod's other leaf x 2
 * = 14; the HCA links 15. Shifts with cyclic DLIDs: at most 1 anywhere.
 */
START_TEST(fat_tree_paper_tables)
{
	struct ft x;
	struct ibu_linkload ll;
	struct ibu_traffic_result r;
	struct ibu_err e = { 0 };
	struct ibu_traffic_in in = { .dlids = IBU_DLIDS_BASE, .size = 64 };
	int k;
	char pat[32];

	ft_make(&x, IBU_OFFSETS_PAPER);
	in.f = &x.f;
	in.lft = &x.lft;
	in.ep = &x.ep;
	in.advised = advised_offset;
	in.advised_ctx = &x;
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);

	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.messages, 16 * 15);
	ck_assert_int_eq(r.unrouted, 0);
	ck_assert_int_eq(r.st.max_sw, 48);
	ck_assert_int_eq(r.st.max_hca, 15);

	in.dlids = IBU_DLIDS_ADVISED;
	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.unrouted, 0);
	ck_assert_int_eq(r.st.max_any, 15);
	ck_assert_int_eq(r.st.max_sw, 14);
	for (k = 1; k < 16; k++) {
		snprintf(pat, sizeof(pat), "shift:%d", k);
		run(&in, pat, &ll, &r);
		ck_assert_msg(r.st.max_any == 1, "%s: %llu", pat,
			      (unsigned long long)r.st.max_any);
	}
	run(&in, "shift", &ll, &r);
	ck_assert_int_eq(r.permutations, 15);
	ck_assert_int_eq(r.st.max_any, 1);

	/* pairs: the 4 offsets of each message over 4 climbs */
	in.dlids = IBU_DLIDS_PAIRS;
	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.unit, 4);
	ck_assert_int_eq(r.walks, 16 * 15 * 4);
	ck_assert_int_eq(r.st.max_hca, 15 * 4);
	ibu_linkload_free(&ll);
	ft_free(&x);
}
END_TEST

/*
 * The destination-rotated rule (the default): offset 0 of destination D
 * climbs through D's own digits (D-mod-k). In a shift i -> i+k in PID
 * order, each up-link is named by the destination's last digits and the
 * source's first ones, hence by one source, and each down-link leads to
 * one destination: 1 per link for every k on base LIDs as on cyclic DLIDs.
 * All-to-all on base LIDs: a leaf up-link carries 2 sources x 7 of the
 * destinations whose last digit picks it, a level-1 up-link 4 sources x 3,
 * fewer than the 15 every HCA link carries.
 */
/* The interval of a mean and of a paired difference, by hand: x = 1, 2,
 * 3, 4 has mean 2.5 and sample variance 5/3, so the half-width is 1.96
 * sqrt(5/3 / 4); x - x is 0 with none; one sample has none. */
START_TEST(ci95_by_hand)
{
	static const double x[4] = { 1, 2, 3, 4 }, y[4] = { 0, 2, 2, 4 };
	double mean, ci;

	ibu_traffic_ci95(x, NULL, 4, &mean, &ci);
	ck_assert(fabs(mean - 2.5) < 1e-12);
	ck_assert(fabs(ci - 1.96 * sqrt(5.0 / 3 / 4)) < 1e-12);
	ibu_traffic_ci95(x, x, 4, &mean, &ci);
	ck_assert(mean == 0 && ci == 0);
	/* x - y = 1, 0, 1, 0: mean 0.5, variance 1/3 */
	ibu_traffic_ci95(x, y, 4, &mean, &ci);
	ck_assert(fabs(mean - 0.5) < 1e-12);
	ck_assert(fabs(ci - 1.96 * sqrt(1.0 / 3 / 4)) < 1e-12);
	ibu_traffic_ci95(x, NULL, 1, &mean, &ci);
	ck_assert(mean == 1 && ci == 0);
	ibu_traffic_ci95(x, NULL, 0, &mean, &ci);
	ck_assert(mean == 0 && ci == 0);
}
END_TEST

START_TEST(fat_tree_rotated_tables)
{
	struct ft x;
	struct ibu_linkload ll;
	struct ibu_traffic_result r;
	struct ibu_err e = { 0 };
	struct ibu_traffic_in in = { .dlids = IBU_DLIDS_BASE, .size = 64 };
	int k, d;
	char pat[32];

	ft_make(&x, IBU_OFFSETS_ROTATED);
	in.f = &x.f;
	in.lft = &x.lft;
	in.ep = &x.ep;
	in.advised = advised_offset;
	in.advised_ctx = &x;
	ck_assert_int_eq(ibu_linkload_init(&ll, &x.f, &e), 0);
	run(&in, "all-to-all", &ll, &r);
	ck_assert_int_eq(r.unrouted, 0);
	ck_assert_int_eq(r.st.max_any, 15);
	ck_assert_int_eq(r.st.max_hca, 15);
	ck_assert_int_eq(r.st.max_sw, 14);
	for (d = 0; d < 2; d++) {
		in.dlids = d ? IBU_DLIDS_ADVISED : IBU_DLIDS_BASE;
		for (k = 1; k < 16; k++) {
			snprintf(pat, sizeof(pat), "shift:%d", k);
			run(&in, pat, &ll, &r);
			ck_assert_msg(r.st.max_any == 1, "%s %s: %llu", pat,
				      d ? "cyclic" : "base",
				      (unsigned long long)r.st.max_any);
		}
	}
	ibu_linkload_free(&ll);
	ft_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("traffic");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, order_and_parsing);
	tcase_add_test(tc, all_to_all_dlids);
	tcase_add_test(tc, shifts_and_random);
	tcase_add_test(tc, flow_bw_bounds_and_bisections);
	tcase_add_test(tc, multicast_cases);
	tcase_add_test(tc, fat_tree_paper_tables);
	tcase_add_test(tc, fat_tree_rotated_tables);
	tcase_add_test(tc, ci95_by_hand);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
