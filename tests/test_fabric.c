/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "unit.h"
#include "fabric.h"
#include "lft.h"

START_TEST(build_and_lookup)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int sw, ca, port;

	ck_assert_int_eq(ibu_fabric_init(&f, "mem"), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_SWITCH, "s", 0x20, 4, &sw, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_CA, "c", 0x10, 2, &ca, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&f, sw, 3, ca, 2, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(&f, sw, 3, ca, 2, &e), 0);	/* idempotent */
	ck_assert_int_eq(ibu_fabric_link(&f, sw, 3, ca, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_fabric_link(&f, sw, 5, ca, 1, &e), IBU_EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "no port 5"));
	ck_assert_int_eq(ibu_fabric_index(&f, &e), 0);
	ck_assert_int_eq(ibu_fabric_find_name(&f, "c"), ca);
	ck_assert_int_eq(ibu_fabric_find_name(&f, "x"), -1);
	ck_assert_int_eq(ibu_fabric_find_guid(&f, 0x20), sw);
	ck_assert_int_eq(ibu_fabric_find_port_guid(&f, 0x12, &port), ca);
	ck_assert_int_eq(port, 2);
	ck_assert_int_eq(ibu_fabric_count_endports(&f), 1);
	f.nodes[ca].ports[2].lid = 8;
	f.nodes[ca].ports[2].lmc = 2;
	f.nodes[sw].ports[0].lid = 3;
	ck_assert_uint_eq(ibu_fabric_max_lid(&f), 11);
	ck_assert_int_eq(ibu_fabric_add_node(&f, IBU_NODE_CA, "big", 1, 300, NULL, &e), IBU_EINVAL);
	ibu_fabric_free(&f);
}
END_TEST

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
	Suite *s = suite_create("fabric");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, build_and_lookup);
	tcase_add_test(tc, lft_rows);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
