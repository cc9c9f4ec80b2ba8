/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Cut bounds of the busiest link (lib/analysis/cuts.c), on small fabrics
 * whose cuts are counted by hand. */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "fabric.h"
#include "traffic.h"
#include "cuts.h"
#include "gen.h"
#include "pgft.h"

/* Four switches in a line, one HCA each: each switch alone is cut off by
 * at most 2 cables (the HCA's own cable bounds all-to-all at 3), the two
 * halves by the middle cable: 2 x 2 flows each way over it, bound 4. */
START_TEST(bound_of_a_line)
{
	struct ibu_fabric f;
	struct ibu_endports ep;
	struct ibu_cuts c;
	struct ibu_err e = { 0 };
	int i, idx, to[4] = { 3, 2, 1, 0 };

	ck_assert_int_eq(ibu_fabric_init(&f, "line"), 0);
	for (i = 0; i < 8; i++) {
		char name[8];

		snprintf(name, sizeof(name), "%c%d", i < 4 ? 'S' : 'H', i % 4);
		ck_assert_int_eq(ibu_fabric_add_node(&f, i < 4 ? IBU_NODE_SWITCH :
						     IBU_NODE_CA, name, 0x200 + i,
						     i < 4 ? 3 : 1, &idx, &e), 0);
	}
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(ibu_fabric_link(&f, i, 2, i + 1, 3, &e), 0);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(ibu_fabric_link(&f, 4 + i, 1, i, 1, &e), 0);
		f.nodes[4 + i].ports[1].guid = 0x10 + i;	/* H0 first */
	}
	ck_assert_int_eq(ibu_endports_build(&f, NULL, NULL, &ep, &e), 0);
	ck_assert_int_eq(ibu_cuts_build(&f, &ep, &c, &e), 0);
	ck_assert(ibu_cuts_bound(&c, 4, NULL) == 4.0);
	/* the reversal sends both left hosts across the middle cable */
	ck_assert(ibu_cuts_bound(&c, 4, to) == 2.0);
	ibu_cuts_free(&c);
	ibu_endports_free(&ep);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * A two-level tree: leaves L0..L3 with two hosts each (ports 1, 2), up
 * to spines S0 (port 3) and S1 (port 4), but the cable L0-S0 is missing.
 * Host GUIDs go leaf by leaf, so end ports 0, 1 are L0's.
 *   all-to-all: a host's own cable carries 7 each way; L0 with its two
 *   hosts sends 2 x 6 = 12 messages over its one cable: bound 12. Every
 *   other cut is weaker (e.g. S1 with L0, L2, L3: 6 hosts, 3 cables,
 *   12 / 3 = 4).
 *   intact (L0-S0 cabled): each leaf 12 over 2 cables = 6 < 7: bound 7.
 */
static void two_level(struct ibu_fabric *f, int cabled)
{
	struct ibu_err e = { 0 };
	int i, k, idx;
	char name[8];

	ck_assert_int_eq(ibu_fabric_init(f, "two-level"), 0);
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), i < 4 ? "L%d" : "S%d", i < 4 ? i : i - 4);
		ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_SWITCH, name,
						     0x300 + i, 4, &idx, &e), 0);
	}
	for (i = 0; i < 4; i++) {
		if (i || cabled)
			ck_assert_int_eq(ibu_fabric_link(f, i, 3, 4, 1 + i, &e), 0);
		ck_assert_int_eq(ibu_fabric_link(f, i, 4, 5, 1 + i, &e), 0);
		for (k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "H%d", 2 * i + k);
			ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_CA, name,
							     0x400 + 2 * i + k, 1,
							     &idx, &e), 0);
			ck_assert_int_eq(ibu_fabric_link(f, idx, 1, i, 1 + k, &e), 0);
			f->nodes[idx].ports[1].guid = 0x10 + 2 * i + k;
		}
	}
}

START_TEST(two_level_missing_up_cable)
{
	struct ibu_fabric f;
	struct ibu_endports ep;
	struct ibu_cuts c;
	struct ibu_err e = { 0 };
	int i, leaf0 = -1, w;
	/* both L0 hosts to L1's, L1's back: 2 over L0's one cable */
	int out2[8] = { 2, 3, 0, 1, 4, 5, 6, 7 };
	/* L0's hosts swap: nothing leaves L0 */
	int inside[8] = { 1, 0, -1, -1, -1, -1, -1, -1 };

	two_level(&f, 0);
	ck_assert_int_eq(ibu_endports_build(&f, NULL, NULL, &ep, &e), 0);
	ck_assert_int_eq(ep.num, 8);
	ck_assert_int_eq(ibu_cuts_build(&f, &ep, &c, &e), 0);
	ck_assert_int_eq(c.num_ep, 8);
	for (i = 0; i < c.num; i++) {
		ck_assert_int_ge(c.cables[i], 1);
		if (c.size[i] == 2 && (c.in[(long)i * c.words] & 0xff) == 0x3)
			leaf0 = i;
	}
	ck_assert_int_ge(leaf0, 0);
	ck_assert_int_eq(c.cables[leaf0], 1);
	ck_assert(ibu_cuts_bound(&c, 8, NULL) == 12.0);
	ck_assert(ibu_cuts_bound(NULL, 8, NULL) == 7.0);
	ck_assert(ibu_cuts_bound(&c, 8, out2) == 2.0);
	ck_assert(ibu_cuts_bound(&c, 8, inside) == 1.0);
	ibu_cuts_free(&c);
	ibu_endports_free(&ep);
	ibu_fabric_free(&f);

	two_level(&f, 1);
	ck_assert_int_eq(ibu_endports_build(&f, NULL, NULL, &ep, &e), 0);
	ck_assert_int_eq(ibu_cuts_build(&f, &ep, &c, &e), 0);
	for (i = 0, w = 0; i < c.num; i++)
		w += c.size[i] == 2 && c.cables[i] == 2;
	ck_assert_int_eq(w, 4);	/* the four leaves */
	ck_assert(ibu_cuts_bound(&c, 8, NULL) == 7.0);
	ck_assert(ibu_cuts_bound(&c, 8, out2) == 1.0);
	ibu_cuts_free(&c);
	ibu_endports_free(&ep);
	ibu_fabric_free(&f);
}
END_TEST

/* No switch, no cuts: the end ports' own cables bound alone. */
START_TEST(no_switch)
{
	struct ibu_fabric f;
	struct ibu_endports ep;
	struct ibu_cuts c;
	struct ibu_err e = { 0 };
	int a, b;

	ck_assert_int_eq(ibu_fabric_init(&f, "pair"), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_CA, "A", 0x1, 1, &a, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_CA, "B", 0x2, 1, &b, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&f, a, 1, b, 1, &e), 0);
	f.nodes[a].ports[1].guid = 0x11;
	f.nodes[b].ports[1].guid = 0x12;
	ck_assert_int_eq(ibu_endports_build(&f, NULL, NULL, &ep, &e), 0);
	ck_assert_int_eq(ibu_cuts_build(&f, &ep, &c, &e), 0);
	ck_assert_int_eq(c.num, 0);
	ck_assert(ibu_cuts_bound(&c, ep.num, NULL) == 1.0);
	ibu_cuts_free(&c);
	ibu_endports_free(&ep);
	ibu_fabric_free(&f);
}
END_TEST

/*
 * One DLID a destination: PGFT(2; 4,8; 1,3; 1,1), IBFT(8,2) without a
 * top, 8 leaves of 4 hosts on 3 up-cables. A leaf's 4 hosts send their
 * messages to each of the 28 others out of one port, so one of its 3
 * up-ports carries ceil(28 / 3) = 10 destinations, 40 messages; the
 * cuts count 4 x 28 / 3 = 37.3. With a spine back (4 up-cables) 28
 * destinations divide: 28, under every host cable's 31.
 */
START_TEST(one_dlid_whole_destinations)
{
	static const char *const w[2] = { "1,3", "1,4" };
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 3 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_endports ep;
	struct ibu_cuts c;
	struct ibu_err e = { 0 };
	double cut;
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(ibu_pgft_params_parse("4,8", w[i], "1,1", &P,
						       &e), 0);
		ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
		ck_assert_int_eq(ibu_endports_build(&f, NULL, NULL, &ep, &e), 0);
		ck_assert_int_eq(ep.num, 32);
		ck_assert_int_eq(ibu_cuts_build(&f, &ep, &c, &e), 0);
		cut = ibu_cuts_bound(&c, ep.num, NULL);
		if (!i) {
			ck_assert(cut > 37.33 && cut < 37.34);
			ck_assert(ibu_cuts_a2a_one_dlid(&c) == 40.0);
		} else {
			ck_assert(cut == 31.0);
			ck_assert(ibu_cuts_a2a_one_dlid(&c) == 28.0);
		}
		ibu_cuts_free(&c);
		ibu_endports_free(&ep);
		ibu_fabric_free(&f);
	}
	ck_assert(ibu_cuts_a2a_one_dlid(NULL) == 0);
}
END_TEST

/* A bound read with the cuts in build order, every one. */
static double bound_every_cut(struct ibu_cuts *c, int n, const int *to)
{
	int *order = c->order;
	double b;

	c->order = NULL;
	b = ibu_cuts_bound(c, n, to);
	c->order = order;
	return b;
}

/*
 * The cuts read highest ceiling first stop early on a permutation, with
 * the bound they would give read in full: a damaged IBFT(8,3) (3 cuts, a
 * switch gone, ports shuffled), 40 random permutations (some end ports
 * sending nothing), every shift, a destination shared (every cut read).
 */
START_TEST(sorted_reading_same_bound)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .remove_links = 3,
				  .remove_switches = 1, .seed = 17 };
	struct ibu_fabric f;
	struct ibu_endports ep;
	struct ibu_cuts c;
	struct ibu_err e = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int *to, n, i, k, r;

	ck_assert_int_eq(ibu_gen_fattree(&f, 8, 3, &o, &e), 0);
	ck_assert_int_eq(ibu_endports_build(&f, NULL, NULL, &ep, &e), 0);
	ck_assert_int_eq(ibu_cuts_build(&f, &ep, &c, &e), 0);
	ck_assert_ptr_nonnull(c.order);
	ck_assert_int_gt(c.num, 100);
	n = ep.num;
	to = malloc((size_t)n * sizeof(*to));
	ck_assert_ptr_nonnull(to);
	for (r = 0; r < 40; r++) {
		for (i = 0; i < n; i++)
			to[i] = i;
		ibu_gen_shuffle(to, n, &x);
		for (i = 0; i < n; i += 1 + r % 7)
			if (r % 3 == 0)
				to[i] = -1;
		ck_assert(ibu_cuts_bound(&c, n, to) ==
			  bound_every_cut(&c, n, to));
	}
	for (k = 1; k < n; k++) {
		for (i = 0; i < n; i++)
			to[i] = (i + k) % n;
		ck_assert(ibu_cuts_bound(&c, n, to) ==
			  bound_every_cut(&c, n, to));
	}
	for (i = 0; i < n; i++)
		to[i] = i ? 0 : 1;
	ck_assert(ibu_cuts_bound(&c, n, to) == bound_every_cut(&c, n, to));
	/* port 0's leaf takes n - 4 messages over its 3 or 4 up-cables */
	ck_assert(ibu_cuts_bound(&c, n, to) >= (n - 4) / 4.0);
	free(to);
	ibu_cuts_free(&c);
	ibu_endports_free(&ep);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cuts");
	TCase *tc = tcase_create("bounds");

	tcase_add_test(tc, bound_of_a_line);
	tcase_add_test(tc, two_level_missing_up_cable);
	tcase_add_test(tc, no_switch);
	tcase_add_test(tc, sorted_reading_same_bound);
	tcase_add_test(tc, one_dlid_whole_destinations);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
