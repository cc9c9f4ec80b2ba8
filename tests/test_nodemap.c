/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "nodemap.h"

static void two_nodes(struct ibu_fabric *f)
{
	int a, b;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_fabric_init(f, "t"), 0);
	ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_SWITCH, "sw", 0x2c9000a, 8, &a, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_CA, "hca", 0x2c9000b, 1, &b, &e), 0);
	ck_assert_int_eq(ibu_fabric_index(f, &e), 0);
}

static int apply(const char *text, struct ibu_fabric *f, int *renamed,
		 struct ibu_err *e)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_nodemap_apply_stream(in, "map", f, renamed, e);
	fclose(in);
	return rc;
}

START_TEST(renames_by_node_guid)
{
	static const char text[] =
		"# ibnetdiscover's node name map\n\n"
		"0x0000000002c9000a \"spine 1 (rack 7)\"   # quoted\n"
		"2c9000b   host-11  \n"
		"0x00000000deadbeef \"another fabric\"\n";
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	int n = -1;

	two_nodes(&f);
	ck_assert_msg(apply(text, &f, &n, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(f.nodes[0].name, "spine 1 (rack 7)");
	ck_assert_str_eq(f.nodes[1].name, "host-11");
	/* the name index follows */
	ck_assert_int_eq(ibu_fabric_find_name(&f, "host-11"), 1);
	ck_assert_int_lt(ibu_fabric_find_name(&f, "hca"), 0);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(bad_lines)
{
	static const char *const bad[] = {
		"0xzz name\n", "0x2c9000a\n", "0x2c9000a \"unclosed\n",
		"0x2c9000a \"\"\n", "name 0x2c9000a\n", "0x2c9000a\"glued\"\n",
	};
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		two_nodes(&f);
		ck_assert_msg(apply(bad[i], &f, NULL, &e) == IBU_EPARSE, "case %zu", i);
		ck_assert_msg(!strncmp(e.msg, "map:1:", 6), "case %zu: %s", i, e.msg);
		ck_assert_str_eq(f.nodes[0].name, "sw");
		ibu_fabric_free(&f);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("nodemap");
	TCase *tc = tcase_create("map");

	tcase_add_test(tc, renames_by_node_guid);
	tcase_add_test(tc, bad_lines);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
