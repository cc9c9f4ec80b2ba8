/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Linear forwarding tables (lib/core/lft.c): rows for switches only,
 * copies, differences. */
#include "unit.h"
#include "fabric.h"
#include "lft.h"

START_TEST(lft_rows)
{
	struct ibu_fabric f;
	struct ibu_lft a, b;
	struct ibu_err e = { 0 };
	int sw;

	ck_assert_int_eq(ibu_fabric_init(&f, NULL), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_SWITCH, "s", 1, 4, &sw, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_CA, "c", 2, 1, NULL, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&a, &f, 10, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&b, &f, 12, &e), 0);
	ck_assert_ptr_null(a.row[1]);
	ck_assert_int_eq(ibu_lft_get(&a, sw, 4), IBU_NO_PATH);
	ck_assert_int_eq(ibu_lft_get(&a, sw, 11), IBU_NO_PATH);
	ck_assert_int_eq(ibu_lft_get(&a, 1, 4), IBU_NO_PATH);
	a.row[sw][4] = 2;
	b.row[sw][12] = 1;
	ck_assert_int_eq(ibu_lft_count_diff(&a, &b), 2);
	ibu_lft_free(&b);
	/* a copy: the same entries, rows of its own */
	ck_assert_int_eq(ibu_lft_copy(&b, &f, &a, &e), 0);
	ck_assert_uint_eq(b.max_lid, 10);
	ck_assert_ptr_null(b.row[1]);
	ck_assert_ptr_ne(b.row[sw], a.row[sw]);
	ck_assert_int_eq(ibu_lft_get(&b, sw, 4), 2);
	ck_assert_int_eq(ibu_lft_get(&b, sw, 10), IBU_NO_PATH);
	ck_assert_int_eq(ibu_lft_count_diff(&a, &b), 0);
	b.row[sw][4] = 3;
	ck_assert_int_eq(ibu_lft_get(&a, sw, 4), 2);
	ibu_lft_free(&b);
	ck_assert_int_eq(ibu_lft_init(&b, &f, 0xC000, &e), IBU_ELID);
	ibu_lft_free(&a);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lft");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, lft_rows);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
