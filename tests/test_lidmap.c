/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "unit.h"
#include <string.h>
#include "lidmap.h"

/* switch S (LID 1) with two CAs: A port 1 LIDs 4..7 (lmc 2), B port 1 LID 8 */
static void two_cas(struct ibu_fabric *f)
{
	struct ibu_err e;
	int s, a, b;

	ck_assert_int_eq(ibu_fabric_init(f, "unit"), 0);
	ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_SWITCH, "S", 0x10, 4, &s, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_CA, "A", 0x20, 1, &a, &e), 0);
	ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_CA, "B", 0x30, 1, &b, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(f, s, 2, a, 1, &e), 0);
	ck_assert_int_eq(ibu_fabric_link(f, s, 3, b, 1, &e), 0);
	f->nodes[s].ports[0].lid = 1;
	f->nodes[a].ports[1].lid = 4;
	f->nodes[a].ports[1].lmc = 2;
	f->nodes[b].ports[1].lid = 8;
}

START_TEST(owners_and_offsets)
{
	struct ibu_fabric f;
	struct ibu_lidmap m;
	struct ibu_err e;
	uint32_t o;

	two_cas(&f);
	ck_assert_int_eq(ibu_lidmap_build(&f, &m, &e), 0);
	ck_assert_uint_eq(m.max_lid, 8);
	ck_assert_int_eq(ibu_lidmap_get(&m, 1)->node, 0);
	ck_assert_int_eq(ibu_lidmap_get(&m, 1)->port, 0);
	for (o = 0; o < 4; o++) {
		ck_assert_int_eq(ibu_lidmap_get(&m, 4 + o)->node, 1);
		ck_assert_int_eq(ibu_lidmap_get(&m, 4 + o)->port, 1);
		ck_assert_int_eq(ibu_lidmap_get(&m, 4 + o)->offset, o);
	}
	ck_assert_int_eq(ibu_lidmap_get(&m, 8)->node, 2);
	ck_assert_ptr_null(ibu_lidmap_get(&m, 2));
	ck_assert_ptr_null(ibu_lidmap_get(&m, 9));
	ibu_lidmap_free(&m);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(double_claim_is_an_error)
{
	struct ibu_fabric f;
	struct ibu_lidmap m;
	struct ibu_err e;

	two_cas(&f);
	f.nodes[2].ports[1].lid = 6;	/* inside A's set 4..7 */
	ck_assert_int_eq(ibu_lidmap_build(&f, &m, &e), IBU_ELID);
	ck_assert_ptr_nonnull(strstr(e.msg, "0x0006"));
	ck_assert_ptr_null(m.owner);
	ibu_fabric_free(&f);
}
END_TEST

START_TEST(beyond_unicast_space)
{
	struct ibu_fabric f;
	struct ibu_lidmap m;
	struct ibu_err e;

	two_cas(&f);
	f.nodes[2].ports[1].lid = 0xC000;
	ck_assert_int_eq(ibu_lidmap_build(&f, &m, &e), IBU_ELID);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lidmap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, owners_and_offsets);
	tcase_add_test(tc, double_claim_is_an_error);
	tcase_add_test(tc, beyond_unicast_space);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
