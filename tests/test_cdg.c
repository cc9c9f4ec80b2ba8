/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "mesh_util.h"
#include "cdg.h"
#include "engines.h"
#include "ibft_view.h"
#include "cyclic_util.h"
#include "mcmembers.h"
#include "vlplan.h"
#include "xy.h"
#include "xy_mcast.h"

struct mfix {
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	struct ibu_mft mft;
	struct ibu_mcmembers mm;
};

static void mfix_up(struct mfix *x, int X, int Y, int hcas, uint64_t seed)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = seed };
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_gen_mesh(&x->f, X, Y, hcas, &o, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&x->f, &x->t, &e), 0);
	ck_assert_int_eq(ibu_xy_assign_lids(&x->f, &x->t, 0, 0, &e), 0);
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&x->lft, &x->f, x->map.max_lid, &e), 0);
	ck_assert_int_eq(ibu_xy_route(&x->f, &x->t, &x->map, &x->lft, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&x->mft, x->f.num_nodes, &e), 0);
	ibu_mcmembers_init(&x->mm);
}

static void mfix_down(struct mfix *x)
{
	ibu_mcmembers_free(&x->mm);
	ibu_mft_free(&x->mft);
	ibu_lft_free(&x->lft);
	ibu_lidmap_free(&x->map);
	ibu_mesh_free(&x->t);
	ibu_fabric_free(&x->f);
}

/* `groups` random groups (about 1 in `every` end ports, 1 in 4 of them
 * send-only) under policy; every member is listed (and sends). */
static void add_groups(struct mfix *x, int groups, int every,
		       enum ibu_mcast_policy pol, uint64_t seed)
{
	struct ibu_xy_mcast_load load;
	struct ibu_err e = { 0 };
	struct ibu_mcast_member *m = malloc(x->t.num_endports * sizeof(*m));
	uint64_t st = seed;
	int g, i;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(ibu_xy_mcast_load_init(&load, &x->t, &e), 0);
	for (g = 0; g < groups; g++) {
		struct ibu_xy_mcast_tree tr;
		uint16_t mlid = (uint16_t)(0xc001 + g);
		int n = 0;

		for (i = 0; i < x->t.num_endports; i++)
			if (ibu_gen_rand(&st) % (uint64_t)every == 0) {
				m[n].node = x->t.ep[i].node;
				m[n].port = x->t.ep[i].port;
				m[n].send_only = ibu_gen_rand(&st) % 4 == 0;
				ck_assert_int_eq(ibu_mcmembers_add(&x->mm, mlid, &m[n], &e), 0);
				n++;
			}
		ck_assert_int_eq(ibu_xy_mcast_tree_build(&x->f, &x->t, m, n, pol,
							 &load, mlid, &tr, &e), 0);
		ck_assert_int_eq(ibu_xy_mcast_tree_to_mft(&x->t, &tr, mlid, &x->mft, &e), 0);
		ibu_xy_mcast_tree_free(&tr);
	}
	ibu_xy_mcast_load_free(&load);
	free(m);
}

static int cycle_of(struct mfix *x, int mcast, const struct ibu_cdg_vl *vl,
		    long *deps)
{
	struct ibu_cdg g;
	struct ibu_cdg_channel *c;
	struct ibu_err e = { 0 };
	int len, found;

	ck_assert_int_eq(ibu_cdg_init(&g, &x->f, vl, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&g, &x->lft, &x->map, &e), 0);
	if (mcast)
		ck_assert_msg(ibu_cdg_add_mcast(&g, &x->mft, &x->mm, &e) == 0, "%s", e.msg);
	found = ibu_cdg_find_cycle(&g, &c, &len, &e);
	ck_assert_int_ge(found, 0);
	if (found) {
		int i;

		ck_assert_int_ge(len, 2);
		/* every channel on the cycle is a real, cabled port */
		for (i = 0; i < len; i++) {
			ck_assert_int_gt(c[i].port, 0);
			ck_assert_int_ge(x->f.nodes[c[i].node].ports[c[i].port].peer_node, 0);
			/* consecutive channels meet at a node */
			ck_assert_int_eq(x->f.nodes[c[i].node].ports[c[i].port].peer_node,
					 c[(i + 1) % len].node);
		}
	}
	if (deps)
		*deps = (long)g.num_deps;
	free(c);
	ibu_cdg_free(&g);
	return found;
}

START_TEST(test_xy_unicast_acyclic)
{
	struct mfix x;
	long deps;

	mfix_up(&x, 6, 4, 2, 1);
	ck_assert_int_eq(cycle_of(&x, 0, NULL, &deps), 0);
	ck_assert_int_gt(deps, 0);
	mfix_down(&x);
}
END_TEST

/* a planted U-turn and a planted ring are found */
START_TEST(test_planted)
{
	struct mfix x;
	struct ibu_cdg g;
	struct ibu_cdg_channel *c, a, b;
	struct ibu_err e = { 0 };
	int len, s, d, i;

	mfix_up(&x, 3, 3, 1, 2);
	/* YX route for one LID at one switch: N(0,0) -> N(1,1) goes N first */
	{
		int s00 = ibu_mesh_index(&x.t, 0, 0), s01 = ibu_mesh_index(&x.t, 0, 1);
		int s10 = ibu_mesh_index(&x.t, 1, 0), s11 = ibu_mesh_index(&x.t, 1, 1);
		const struct ibu_mesh_endport *ep;

		ck_assert_int_eq(cycle_of(&x, 0, NULL, NULL), 0);
		/* 4 turns around the square N(0,0) N(1,0) N(1,1) N(0,1): make
		 * each switch send one LID counter-clockwise, two hops each */
		ep = &x.t.ep[x.t.sw[s11].first_ep];
		x.lft.row[x.t.sw[s00].node][x.f.nodes[ep->node].ports[ep->port].lid] =
			(uint8_t)x.t.sw[s00].port[IBU_DIR_E];
		ep = &x.t.ep[x.t.sw[s01].first_ep];
		x.lft.row[x.t.sw[s10].node][x.f.nodes[ep->node].ports[ep->port].lid] =
			(uint8_t)x.t.sw[s10].port[IBU_DIR_N];
		x.lft.row[x.t.sw[s11].node][x.f.nodes[ep->node].ports[ep->port].lid] =
			(uint8_t)x.t.sw[s11].port[IBU_DIR_W];
		ep = &x.t.ep[x.t.sw[s00].first_ep];
		x.lft.row[x.t.sw[s11].node][x.f.nodes[ep->node].ports[ep->port].lid] =
			(uint8_t)x.t.sw[s11].port[IBU_DIR_W];
		x.lft.row[x.t.sw[s01].node][x.f.nodes[ep->node].ports[ep->port].lid] =
			(uint8_t)x.t.sw[s01].port[IBU_DIR_S];
		ep = &x.t.ep[x.t.sw[s10].first_ep];
		x.lft.row[x.t.sw[s01].node][x.f.nodes[ep->node].ports[ep->port].lid] =
			(uint8_t)x.t.sw[s01].port[IBU_DIR_S];
		x.lft.row[x.t.sw[s00].node][x.f.nodes[ep->node].ports[ep->port].lid] =
			(uint8_t)x.t.sw[s00].port[IBU_DIR_E];
		ck_assert_int_eq(cycle_of(&x, 0, NULL, NULL), 1);
	}
	/* a hand-made ring on VL 1 of 2 */
	{
		struct ibu_cdg_vl vl = { .num_vls = 2 };

		ck_assert_int_eq(ibu_cdg_init(&g, &x.f, &vl, &e), 0);
		for (i = 0; i < 4; i++) {
			static const int ring[5][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { 0, 0 } };
			int dd[4] = { IBU_DIR_E, IBU_DIR_N, IBU_DIR_W, IBU_DIR_S };

			s = ibu_mesh_index(&x.t, ring[i][0], ring[i][1]);
			d = ibu_mesh_index(&x.t, ring[i + 1][0], ring[i + 1][1]);
			a.node = x.t.sw[s].node;
			a.port = x.t.sw[s].port[dd[i]];
			a.vl = 1;
			b.node = x.t.sw[d].node;
			b.port = x.t.sw[d].port[dd[(i + 1) % 4]];
			b.vl = 1;
			ck_assert_int_eq(ibu_cdg_add_dep(&g, &a, &b, &e), 0);
		}
		ck_assert_int_eq(ibu_cdg_find_cycle(&g, &c, &len, &e), 1);
		ck_assert_int_eq(len, 4);
		for (i = 0; i < len; i++)
			ck_assert_int_eq(c[i].vl, 1);
		free(c);
		a.vl = 2;
		ck_assert_int_eq(ibu_cdg_add_dep(&g, &a, &b, &e), IBU_EINVAL);
		ibu_cdg_free(&g);
	}
	mfix_down(&x);
}
END_TEST

/* The default configuration: XY unicast + balanced trees (roots on one
 * row), every member sending, is acyclic on one VL and under every plan. */
START_TEST(test_default_acyclic)
{
	static const int dims[][4] = {
		{ 4, 4, 1, 16 }, { 5, 5, 1, 12 }, { 3, 6, 2, 10 }, { 6, 3, 1, 10 },
		{ 8, 8, 1, 24 },
	};
	size_t i;
	uint64_t seed;

	for (i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
		for (seed = 1; seed <= 3; seed++) {
			struct mfix x;
			long deps0, deps1;

			mfix_up(&x, dims[i][0], dims[i][1], dims[i][2], seed);
			ck_assert_int_eq(cycle_of(&x, 0, NULL, &deps0), 0);
			add_groups(&x, dims[i][3], 1 + (int)seed, IBU_MCAST_BALANCED,
				   seed * 31 + i);
			ck_assert_msg(cycle_of(&x, 1, NULL, &deps1) == 0,
				      "%dx%d seed %d: cycle", dims[i][0], dims[i][1],
				      (int)seed);
			ck_assert_int_gt(deps1, deps0);
			mfix_down(&x);
			mfix_up(&x, dims[i][0], dims[i][1], dims[i][2], seed);
			add_groups(&x, dims[i][3], 2, IBU_MCAST_LOWEST_GUID, seed);
			ck_assert_int_eq(cycle_of(&x, 1, NULL, NULL), 0);
			mfix_down(&x);
		}
}
END_TEST

/* Trees rooted at their sources (the paper's tree) on different rows do
 * close cycles: the reason for the root row. */
START_TEST(test_source_roots_cycle)
{
	struct mfix x;
	int found = 0;
	uint64_t seed;

	for (seed = 1; seed <= 5 && !found; seed++) {
		mfix_up(&x, 4, 4, 1, seed);
		add_groups(&x, 16, 2, IBU_MCAST_SOURCE, seed);
		found = cycle_of(&x, 1, NULL, NULL);
		mfix_down(&x);
	}
	ck_assert_int_eq(found, 1);
}
END_TEST

/* fat-tree tables: cyclic up/down routes are acyclic too */
START_TEST(test_fattree)
{
	struct ibu_fabric f;
	struct ibft_view t;
	struct ibu_engine_opts eo;
	struct ibu_engine_result r;
	struct ibu_cdg g;
	struct ibu_cdg_channel *c;
	struct ibu_err e = { 0 };
	int len;

	ck_assert_int_eq(ibu_gen_fattree(&f, 4, 3, NULL, &e), 0);
	ck_assert_int_eq(ibft_view_recognize(&f, &t, &e), 0);
	ck_assert_int_eq(paper_lids(&f, 2, LIDS_ALIGNED, &e), 0);
	ibft_view_free(&t);
	ibu_engine_opts_default(&eo);
	ck_assert_int_eq(ibu_engine_run(&ibu_engine_cyclic, &f, &eo, &r, &e), 0);
	ck_assert_int_eq(ibu_cdg_init(&g, &f, NULL, &e), 0);
	ck_assert_int_eq(ibu_cdg_add_unicast(&g, &r.lft, &r.map, &e), 0);
	ck_assert_int_eq(ibu_cdg_find_cycle(&g, &c, &len, &e), 0);
	ck_assert_int_gt(ibu_cdg_num_channels(&g), 0);
	ck_assert_int_eq(g.routes, 16L * (16 * 4 + 20));
	ibu_cdg_free(&g);
	ibu_engine_result_free(&r);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cdg");
	TCase *tc = tcase_create("cdg");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_xy_unicast_acyclic);
	tcase_add_test(tc, test_planted);
	tcase_add_test(tc, test_default_acyclic);
	tcase_add_test(tc, test_source_roots_cycle);
	tcase_add_test(tc, test_fattree);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
