/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* guid_routing_order_file reader (lib/io/guid_order.c). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "guid_order.h"

static int parse(const char *text, struct ibu_guid_order *o,
		 struct ibu_err *e)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_guid_order_read_stream(in, "order", o, e);
	fclose(in);
	return rc;
}

START_TEST(reads_in_file_order)
{
	struct ibu_guid_order o;
	struct ibu_err e = { 0 };

	ck_assert_msg(parse("# hosts by rack\n0x0002c90300000003\n\n"
			    "  100001   # no 0x: hex still\n"
			    "0X00000000000000ff\n", &o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(o.num, 3);
	ck_assert_uint_eq(o.guid[0], 0x0002c90300000003ull);
	ck_assert_uint_eq(o.guid[1], 0x100001);
	ck_assert_uint_eq(o.guid[2], 0xff);
	ibu_guid_order_free(&o);
}
END_TEST

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "0x1\n0x2\n0x1\n", "order:3: port GUID 0x0000000000000001 is listed already (line 1)" },
	{ "# nothing\n\n", "order:2: no port GUID" },
	{ "", "order:1: no port GUID" },
	{ "0x1\nhost-1\n", "order:2: expected a port GUID" },
	{ "0x1 0x2\n", "order:1: trailing text '0x2'" },
	{ "0x12345678901234567\n", "order:1: expected a port GUID" },
	{ "-0x1\n", "order:1: expected a port GUID" },
};

START_TEST(bad_files)
{
	struct ibu_guid_order o;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(parse(bad[_i].text, &o, &e), IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, bad[_i].msg), "%s", e.msg);
	ck_assert_ptr_null(o.guid);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("guid_order");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reads_in_file_order);
	tcase_add_loop_test(tc, bad_files, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
