/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "unit.h"
#include "fabric.h"

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

static Suite *suite(void)
{
	Suite *s = suite_create("fabric");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, build_and_lookup);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
