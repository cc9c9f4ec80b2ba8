/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "mesh_util.h"
#include "cdg.h"
#include "engines.h"
#include "vlplan.h"
#include "xy.h"
#include "xy_mcast.h"

START_TEST(test_names)
{
	enum ibu_vlplan_kind k;
	int i;

	for (i = 0; i < IBU_VLPLAN_KINDS; i++) {
		ck_assert_int_eq(ibu_vlplan_parse(ibu_vlplan_name(i), &k), 0);
		ck_assert_int_eq(k, i);
	}
	ck_assert_int_eq(ibu_vlplan_parse("3", &k), IBU_EINVAL);
	ck_assert_int_eq(ibu_vlplan_num_vls(IBU_VLPLAN_1), 1);
	ck_assert_int_eq(ibu_vlplan_num_vls(IBU_VLPLAN_2_DIRECTION), 2);
	ck_assert_int_eq(ibu_vlplan_num_vls(IBU_VLPLAN_4_SPREAD), 4);
}
END_TEST

START_TEST(test_tables)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .seed = 4 };
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_err e = { 0 };
	uint8_t v[16];
	int s, d, sl;

	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 3, 1, &o, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&f, &t, &e), 0);
	s = ibu_mesh_index(&t, 1, 1);
	for (d = 0; d < IBU_DIRS; d++) {
		int node = t.sw[s].node, p = t.sw[s].port[d];

		ck_assert_int_eq(ibu_vlplan_sl2vl(IBU_VLPLAN_4_DIRECTION, &t, node, 0, p, v), 0);
		for (sl = 0; sl < 16; sl++)
			ck_assert_int_eq(v[sl], d);	/* E N W S = 0 1 2 3 */
		ck_assert_int_eq(ibu_vlplan_sl2vl(IBU_VLPLAN_2_DIRECTION, &t, node, 0, p, v), 0);
		for (sl = 0; sl < 16; sl++)
			ck_assert_int_eq(v[sl], d == IBU_DIR_N || d == IBU_DIR_E ? 0 : 1);
		ck_assert_int_eq(ibu_vlplan_sl2vl(IBU_VLPLAN_4_SPREAD, &t, node, 0, p, v), 0);
		for (sl = 0; sl < 16; sl++)
			ck_assert_int_eq(v[sl], sl % 4);
		ck_assert_int_eq(ibu_vlplan_sl2vl(IBU_VLPLAN_1, &t, node, 0, p, v), 0);
		for (sl = 0; sl < 16; sl++)
			ck_assert_int_eq(v[sl], 0);
	}
	/* the HCA port: VL 0 in direction plans */
	ck_assert_int_eq(ibu_vlplan_sl2vl(IBU_VLPLAN_4_DIRECTION, &t, t.sw[s].node, 0,
					  t.ep[t.sw[s].first_ep].sw_port, v), 0);
	ck_assert_int_eq(v[3], 0);
	ck_assert_int_eq(ibu_vlplan_sl2vl(IBU_VLPLAN_1, &t, t.sw[s].node, 0, 99, v),
			 IBU_EINVAL);
	/* SLs of the spread plans cover every VL */
	ck_assert_int_eq(ibu_vlplan_path_sl(IBU_VLPLAN_2_SPREAD, 3, 4), 1);
	ck_assert_int_eq(ibu_vlplan_path_sl(IBU_VLPLAN_4_SPREAD, 3, 4), 3);
	ck_assert_int_eq(ibu_vlplan_path_sl(IBU_VLPLAN_4_DIRECTION, 3, 4), 0);
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

/* every plan: XY + balanced trees with every member sending stay acyclic
 * per VL; the engine's path_sl/sl2vl agree with the plan */
START_TEST(test_plans_acyclic)
{
	struct ibu_gen_opts o = { .shuffle_ports = 1, .shuffle_records = 1, .seed = 8 };
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	struct ibu_mft mft;
	struct ibu_xy_mcast_load load;
	struct ibu_err e = { 0 };
	struct ibu_mcast_member *m;
	uint64_t st = 5;
	int g, i, k;

	ck_assert_int_eq(ibu_gen_mesh(&f, 5, 4, 1, &o, &e), 0);
	ck_assert_int_eq(ibu_mesh_recognize(&f, &t, &e), 0);
	ck_assert_int_eq(ibu_xy_assign_lids(&f, &t, 0, 0, &e), 0);
	ck_assert_int_eq(ibu_lidmap_build(&f, &map, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&lft, &f, map.max_lid, &e), 0);
	ck_assert_int_eq(ibu_xy_route(&f, &t, &map, &lft, &e), 0);
	ck_assert_int_eq(ibu_mft_init(&mft, f.num_nodes, &e), 0);
	ck_assert_int_eq(ibu_xy_mcast_load_init(&load, &t, &e), 0);
	m = malloc(t.num_endports * sizeof(*m));
	for (g = 0; g < 10; g++) {
		struct ibu_xy_mcast_tree tr;
		int n = 0;

		for (i = 0; i < t.num_endports; i++)
			if (ibu_gen_rand(&st) % 2) {
				m[n].node = t.ep[i].node;
				m[n].port = t.ep[i].port;
				m[n++].send_only = 0;
			}
		ck_assert_int_eq(ibu_xy_mcast_tree_build(&f, &t, m, n, IBU_MCAST_BALANCED,
							 &load, g, &tr, &e), 0);
		ck_assert_int_eq(ibu_xy_mcast_tree_to_mft(&t, &tr, 0xc001 + g, &mft, &e), 0);
		ibu_xy_mcast_tree_free(&tr);
	}
	for (k = 0; k < IBU_VLPLAN_KINDS; k++) {
		struct ibu_vlplan_cdg ctx = { k, &t, &map };
		struct ibu_engine_opts eo;
		struct ibu_cdg_vl vl;
		struct ibu_cdg gr;
		struct ibu_cdg_channel *c;
		int len, vls_used[4] = { 0 }, used = 0;
		size_t j;

		ibu_vlplan_cdg_vl(&vl, &ctx);
		ck_assert_int_eq(ibu_cdg_init(&gr, &f, &vl, &e), 0);
		ck_assert_int_eq(ibu_cdg_add_unicast(&gr, &lft, &map, &e), 0);
		ck_assert_int_eq(ibu_cdg_add_mcast(&gr, &mft, NULL, &e), 0);
		ck_assert_int_eq(ibu_cdg_find_cycle(&gr, &c, &len, &e), 0);
		for (j = 0; j < gr.cap; j++)
			if (gr.set[j])
				vls_used[((gr.set[j] - 1) & 0xffffffffu) % (uint32_t)vl.num_vls] = 1;
		for (j = 0; j < 4; j++)
			used += vls_used[j];
		ck_assert_int_eq(used, vl.num_vls);
		ibu_cdg_free(&gr);
		ibu_engine_opts_default(&eo);
		ck_assert_int_eq(ibu_engine_opt_put(&eo, ibu_engine_option_find("vl_plan"), k), 0);
		ck_assert_int_eq(ibu_engine_xy.vl.path_sl(&f, &t, &map, &eo, 1, 2),
				 ibu_vlplan_path_sl(k, 0, 1));
	}
	free(m);
	ibu_xy_mcast_load_free(&load);
	ibu_mft_free(&mft);
	ibu_lft_free(&lft);
	ibu_lidmap_free(&map);
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vlplan");
	TCase *tc = tcase_create("plans");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_tables);
	tcase_add_test(tc, test_plans_acyclic);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
