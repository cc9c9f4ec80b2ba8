/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The passes' shared channel dependency graph (lib/fattree/pgft_cdg.c):
 * built once from the router's tables and kept; a LID whose changed
 * routes close no credit loop is kept in it, one that does is found and
 * rolled back, so its corrected routes pass again.
 */
#include <string.h>
#include "unit.h"
#include "pgft_util.h"
#include "pgft_router.h"

/* PGFT(2; 2,3; 1,2; 1,1): three leaves of two hosts, two tops; shuffled,
 * recognised, LIDs at LMC 0, routed; r the router's view of it (what
 * pgft_cdg.c reads of it). */
static void three_leaves(struct fixture *x, struct router *r)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1,
				  .seed = 17 };
	struct ibu_pgft_params P = { .h = 2, .m = { 0, 2, 3 },
				     .w = { 0, 1, 2 }, .p = { 0, 1, 1 } };
	struct ibu_pgft_route_stats st;
	struct ibu_err e = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ibu_gen_pgft(&x->f, &P, 0, 0, &o, &e), 0);
	pgft_route_lmc0(x, &st);
	memset(r, 0, sizeof(*r));
	r->f = &x->f;
	r->g = &x->g;
	r->map = &x->map;
	r->lft = &x->lft;
}

/* Switch a's port to switch b. */
static int port_to(const struct fixture *x, int a, int b)
{
	int p;

	for (p = 1; p <= x->f.nodes[a].num_ports; p++)
		if (x->f.nodes[a].ports[p].peer_node == b)
			return p;
	ck_abort_msg("no cable");
	return 0;
}

/* Sets a's entry for lid toward b. */
static void via(struct fixture *x, int a, int b, uint32_t lid)
{
	x->lft.row[a][lid] = (uint8_t)port_to(x, a, b);
}

/* Valid tables: the graph is built once (acyclic), a second build keeps
 * it; a LID unchanged adds no loop. */
START_TEST(built_once_acyclic)
{
	struct fixture x;
	struct router r;
	struct ibu_err e = { 0 };

	three_leaves(&x, &r);
	ck_assert_int_eq(ibu__pgft_cdg_build(&r, &e), 0);
	ck_assert_int_eq(r.st.cdg_builds, 1);
	ck_assert_int_eq(ibu__pgft_cdg_build(&r, &e), 0);
	ck_assert_int_eq(r.st.cdg_builds, 1);
	ck_assert_int_eq(ibu__pgft_cdg_cycle(&r, x.f.nodes[x.g.host[0].node]
					     .ports[x.g.host[0].port].lid, &e), 0);
	ibu__pgft_cdg_free(&r);
	ck_assert_int_eq(r.cdg_on, 0);
	pgft_fixture_free(&x);
}
END_TEST

/*
 * Leaves L0, L1 and the leaf of hosts a, b (L2); tops T0, T1. Host a's
 * LID made to go L0 T0 L1 T1 L2, host b's L1 T1 L0 T0 L2: each alone is
 * a detour with one down-up turn, together they close the credit loop
 * (L0>T0) (T0>L1) (L1>T1) (T1>L0). a's kept, b's found and rolled back;
 * b's routes put back pass, which they would not if b's loop were still
 * in the graph.
 */
START_TEST(hand_made_loop_found)
{
	struct fixture x;
	struct router r;
	struct ibu_err e = { 0 };
	int lv[3] = { 0 }, top[2], n, k = 0, t = 0, D, L2, A = -1, B = -1;
	uint32_t la, lb;
	uint8_t *keep;

	three_leaves(&x, &r);
	L2 = x.g.host[0].leaf;
	for (D = 0; D < x.g.num_hosts; D++)
		if (x.g.host[D].leaf == L2 && A < 0)
			A = D;
		else if (x.g.host[D].leaf == L2)
			B = D;
	ck_assert(A >= 0 && B >= 0);
	for (n = 0; n < x.f.num_nodes; n++)
		if (x.g.level[n] == 1 && n != L2)
			lv[k++] = n;
		else if (x.g.level[n] == 2)
			top[t++] = n;
	ck_assert(k == 2 && t == 2);
	la = x.f.nodes[x.g.host[A].node].ports[x.g.host[A].port].lid;
	lb = x.f.nodes[x.g.host[B].node].ports[x.g.host[B].port].lid;
	ck_assert_int_eq(ibu__pgft_cdg_build(&r, &e), 0);
	keep = malloc((size_t)x.f.num_nodes);
	ck_assert_ptr_nonnull(keep);
	for (n = 0; n < x.f.num_nodes; n++)
		keep[n] = x.lft.row[n] ? x.lft.row[n][lb] : 0;
	via(&x, lv[0], top[0], la);
	via(&x, top[0], lv[1], la);
	via(&x, lv[1], top[1], la);
	via(&x, top[1], L2, la);
	ck_assert_int_eq(ibu__pgft_cdg_cycle(&r, la, &e), 0);
	via(&x, lv[1], top[1], lb);
	via(&x, top[1], lv[0], lb);
	via(&x, lv[0], top[0], lb);
	via(&x, top[0], L2, lb);
	ck_assert_int_eq(ibu__pgft_cdg_cycle(&r, lb, &e), 1);
	for (n = 0; n < x.f.num_nodes; n++)
		if (x.lft.row[n])
			x.lft.row[n][lb] = keep[n];
	ck_assert_int_eq(ibu__pgft_cdg_cycle(&r, lb, &e), 0);
	free(keep);
	ibu__pgft_cdg_free(&r);
	pgft_fixture_free(&x);
}
END_TEST

/* Tables with a loop already: the build says so (1), and keeps saying
 * it without building again. */
START_TEST(cyclic_when_built)
{
	struct fixture x;
	struct router r;
	struct ibu_err e = { 0 };
	int lv[3], top[2], n, k = 0, t = 0, L2;
	uint32_t la, lb;

	three_leaves(&x, &r);
	L2 = x.g.host[0].leaf;
	for (n = 0; n < x.f.num_nodes; n++)
		if (x.g.level[n] == 1 && n != L2)
			lv[k++] = n;
		else if (x.g.level[n] == 2)
			top[t++] = n;
	for (n = 1; x.g.host[n].leaf != L2; n++)
		;
	la = x.f.nodes[x.g.host[0].node].ports[x.g.host[0].port].lid;
	lb = x.f.nodes[x.g.host[n].node].ports[x.g.host[n].port].lid;
	via(&x, lv[0], top[0], la);
	via(&x, top[0], lv[1], la);
	via(&x, lv[1], top[1], la);
	via(&x, top[1], L2, la);
	via(&x, lv[1], top[1], lb);
	via(&x, top[1], lv[0], lb);
	via(&x, lv[0], top[0], lb);
	via(&x, top[0], L2, lb);
	ck_assert_int_eq(ibu__pgft_cdg_build(&r, &e), 1);
	ck_assert_int_eq(ibu__pgft_cdg_build(&r, &e), 1);
	ck_assert_int_eq(r.st.cdg_builds, 1);
	ibu__pgft_cdg_free(&r);
	pgft_fixture_free(&x);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft_cdg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, built_once_acyclic);
	tcase_add_test(tc, hand_made_loop_found);
	tcase_add_test(tc, cyclic_when_built);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
