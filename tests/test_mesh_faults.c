/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Recognising a damaged mesh (lib/mesh/mesh_faults.c): what it declines,
 * the fault limit, an intact mesh left intact. */
#include "mesh_util.h"
#include "mesh_faults.h"

/* torus, ring, too much damage: declined with a reason */
START_TEST(test_declined)
{
	struct ibu_fabric f;
	struct ibu_mesh t;
	struct ibu_err e = { 0 };
	struct ibu_gen_opts o = { .shuffle_ports = 1, .remove_links = 3,
				  .seed = 4 };

	tm_grid(&f, 4, 4, 1, 1, 1);
	ck_assert_int_eq(ibu_mesh_recognize_damaged(&f, &t, -1, &e), IBU_ETOPO);
	ck_assert_msg(strstr(e.msg, "nor a damaged mesh"), "%s", e.msg);
	ibu_fabric_free(&f);
	tm_grid(&f, 8, 1, 1, 0, 1);	/* a ring of 8 */
	ck_assert_int_eq(ibu_mesh_recognize_damaged(&f, &t, -1, &e), IBU_ETOPO);
	ibu_fabric_free(&f);
	tm_grid(&f, 12, 1, 1, 0, 1);	/* a ring of 12 */
	ck_assert_int_eq(ibu_mesh_recognize_damaged(&f, &t, -1, &e), IBU_ETOPO);
	ibu_fabric_free(&f);
	/* 3 cuts: fine by default, not with max_faults 2 */
	ck_assert_int_eq(ibu_gen_mesh(&f, 6, 6, 1, &o, &e), 0);
	ck_assert_msg(ibu_mesh_recognize_damaged(&f, &t, -1, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(t.dmg->missing_links, 3);
	ibu_mesh_free(&t);
	ck_assert_int_eq(ibu_mesh_recognize_damaged(&f, &t, 2, &e), IBU_ETOPO);
	ibu_fabric_free(&f);
	/* an intact mesh stays intact */
	tm_grid(&f, 4, 3, 0, 0, 1);
	ck_assert_int_eq(ibu_mesh_recognize_damaged(&f, &t, -1, &e), 0);
	ck_assert_ptr_null(t.dmg);
	ibu_mesh_free(&t);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mesh_faults");
	TCase *tc = tcase_create("damaged");

	tcase_add_test(tc, test_declined);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
