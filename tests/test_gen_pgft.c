/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The PGFT generator, judged on the cabling alone (names, GUIDs and port
 * numbers carry no meaning). */
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "pgft.h"
#include "ibft_view.h"

static void params(struct ibu_pgft_params *P, const char *m, const char *w,
		   const char *p)
{
	struct ibu_err e = { 0 };

	ck_assert_msg(ibu_pgft_params_parse(m, w, p, P, &e) == 0, "%s", e.msg);
}

/* Cables from node a to node b. */
static int cables(const struct ibu_fabric *f, int a, int b)
{
	int p, n = 0;

	for (p = 1; p <= f->nodes[a].num_ports; p++)
		n += f->nodes[a].ports[p].peer_node == b;
	return n;
}

/* CAs cabled to switch s, distinct switch neighbours, cables to them. */
static void degree(const struct ibu_fabric *f, int s, int *cas, int *nsw,
		   int *ncab)
{
	int p, q, b;

	*cas = *nsw = *ncab = 0;
	for (p = 1; p <= f->nodes[s].num_ports; p++) {
		b = f->nodes[s].ports[p].peer_node;
		if (b < 0)
			continue;
		if (!ibu_node_is_switch(&f->nodes[b])) {
			(*cas)++;
			continue;
		}
		(*ncab)++;
		for (q = 1; q < p; q++)
			if (f->nodes[s].ports[q].peer_node == b)
				break;
		if (q == p)
			(*nsw)++;
	}
}

/* PGFT(2; 8,12; 1,4; 1,2): 12 leaves with 8 hosts and 2 cables to each of
 * 4 tops; every top: 2 cables to each of the 12 leaves. Shuffled. */
START_TEST(two_levels_parallel_cables)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 7 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int i, j, cas, nsw, ncab, leaves = 0, tops = 0;

	params(&P, "8,12", "1,4", "1,2");
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_int_eq(ibu_fabric_count_switches(&f), 16);
	ck_assert_int_eq(ibu_fabric_count_endports(&f), 96);
	ck_assert(!ibu_node_is_switch(&f.nodes[0]));
	for (i = 0; i < f.num_nodes; i++) {
		if (!ibu_node_is_switch(&f.nodes[i]))
			continue;
		degree(&f, i, &cas, &nsw, &ncab);
		if (cas) {
			leaves++;
			ck_assert_int_eq(cas, 8);
			ck_assert_int_eq(nsw, 4);
		} else {
			tops++;
			ck_assert_int_eq(nsw, 12);
		}
		ck_assert_int_eq(ncab, 2 * nsw);
		for (j = 0; j < f.num_nodes; j++)
			if (ibu_node_is_switch(&f.nodes[j]) &&
			    cables(&f, i, j))
				ck_assert_int_eq(cables(&f, i, j), 2);
	}
	ck_assert_int_eq(leaves, 12);
	ck_assert_int_eq(tops, 4);
	ibu_fabric_free(&f);
}
END_TEST

/* IBFT(m,n) = PGFT(n; m/2,..,m/2, m; 1, m/2,..; 1,..): the IBFT
 * recognition finds it, exact. */
START_TEST(ibft_is_a_pgft)
{
	static const char *cfg[][3] = {
		{ "2,4", "1,2", "1,1" }, { "2,2,4", "1,2,2", "1,1,1" },
		{ "3,3,6", "1,3,3", "1,1,1" },
	};
	static const int mn[][2] = { { 4, 2 }, { 4, 3 }, { 6, 3 } };
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 3 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_err e = { 0 };

	params(&P, cfg[_i][0], cfg[_i][1], cfg[_i][2]);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, &o, &e), 0);
	ck_assert_msg(ibft_view_recognize(&f, &t, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(t.m, mn[_i][0]);
	ck_assert_int_eq(t.n, mn[_i][1]);
	ck_assert_int_eq(t.num_faults, 0);
	ibft_view_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* 3 levels, 5 of 8 pods (m3 = 5), a blocking leaf (8 hosts, 4 up-cables),
 * radix 16: empty ports stay empty; 3 hosts on the tops, round robin. */
START_TEST(fewer_pods_blocking_radix_spine_hosts)
{
	struct ibu_gen_opts o = { .remove_hosts = 4, .seed = 5 };
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int i, p, cas, nsw, ncab, on_tops = 0, tops = 0, empty = 0;

	params(&P, "8,4,5", "1,4,4", "1,1,1");
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 16, 3, &o, &e), 0);
	/* 20 leaves, 20 middles (w1 w2 = 4 per pod), 16 tops */
	ck_assert_int_eq(ibu_fabric_count_switches(&f), 20 + 20 + 16);
	ck_assert_int_eq(ibu_fabric_count_endports(&f), 8 * 4 * 5 + 3 - 4);
	for (i = 0; i < f.num_nodes; i++) {
		if (!ibu_node_is_switch(&f.nodes[i])) {
			ck_assert_int_eq(f.nodes[i].num_ports, 1);
			ck_assert_int_ge(f.nodes[i].ports[1].peer_node, 0);
			continue;
		}
		ck_assert_int_eq(f.nodes[i].num_ports, 16);
		for (p = 1; p <= 16; p++)
			empty += f.nodes[i].ports[p].peer_node < 0;
		degree(&f, i, &cas, &nsw, &ncab);
		if (nsw == 5) {		/* a top: one cable to each pod */
			tops++;
			on_tops += cas;
		}
	}
	ck_assert_int_eq(tops, 16);
	ck_assert_int_eq(on_tops, 3);
	ck_assert_int_gt(empty, 0);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(refused)
{
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };

	params(&P, "8,12", "1,4", "1,2");
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 20, 0, NULL, &e), IBU_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "radix 20"));
	/* tops of radix 24 are full: no room for a host */
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 24, 0, NULL, &e), 0);
	ibu_fabric_free(&f);
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 24, 1, NULL, &e), IBU_EINVAL);
	params(&P, "8,12", "2,4", "1,2");
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, NULL, &e), IBU_EINVAL);
	params(&P, "200,200,200", "1,200,200", "1,1,1");
	ck_assert_int_eq(ibu_gen_pgft(&f, &P, 0, 0, NULL, &e), IBU_EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gen_pgft");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, two_levels_parallel_cables);
	tcase_add_loop_test(tc, ibft_is_a_pgft, 0, 3);
	tcase_add_test(tc, fewer_pods_blocking_radix_spine_hosts);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
