/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* DLID pairs files (lib/io/dlids.c). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "dlids.h"

static int parse(const char *text, struct ibu_dlid_pairs *p,
		 struct ibu_err *e)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = ibu_dlid_pairs_read_stream(f, "t.pairs", p, e);
	fclose(f);
	return rc;
}

START_TEST(good_file)
{
	struct ibu_dlid_pairs p;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(parse("# SLID DLID\n0x0010 0x0024\n\n"
			       "  0x0010\t0x0031  # comment\r\n16 0xBFFF\n",
			       &p, &e), 0);
	ck_assert_int_eq(p.num, 3);
	ck_assert_uint_eq(p.pair[0].slid, 0x10);
	ck_assert_uint_eq(p.pair[0].dlid, 0x24);
	ck_assert_int_eq(p.pair[0].line, 2);
	ck_assert_uint_eq(p.pair[1].dlid, 0x31);
	ck_assert_int_eq(p.pair[1].line, 4);
	ck_assert_uint_eq(p.pair[2].slid, 16);
	ck_assert_uint_eq(p.pair[2].dlid, 0xbfff);
	ibu_dlid_pairs_free(&p);
	/* hostile input: an input without records is an error naming file:line */
	ck_assert_int_eq(parse("", &p, &e), IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, ":1: no '0xSLID 0xDLID' line"), "%s", e.msg);
	ck_assert_int_eq(parse("# comments only\n\n", &p, &e), IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, ":2: no '0xSLID 0xDLID' line"), "%s", e.msg);
}
END_TEST

START_TEST(bad_lines)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "0x1 0x2\n0x3\n", "t.pairs:2: expected '0xSLID 0xDLID'" },
		{ "0x1 0x2 0x3\n", "t.pairs:1: expected" },
		{ "\n\n0xzz 0x2\n", "t.pairs:3: bad SLID" },
		{ "0x1 0xc000\n", "t.pairs:1: bad DLID (a unicast LID 0x0001-0xbfff): '0xc000'" },
		{ "0x1 0\n", "t.pairs:1: bad DLID" },
		{ "-1 0x2\n", "t.pairs:1: bad SLID" },
		{ "0x1 0x2x\n", "t.pairs:1: bad DLID" },
		{ "0x1 99999999999999999999\n", "t.pairs:1: bad DLID" },
	};
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ibu_dlid_pairs p;
		struct ibu_err e = { 0 };

		ck_assert_int_eq(parse(bad[i].text, &p, &e), IBU_EPARSE);
		ck_assert_msg(strstr(e.msg, bad[i].msg), "%s: got '%s'",
			      bad[i].text, e.msg);
		ck_assert_ptr_null(p.pair);
		ck_assert_ptr_null(p.source);
	}
}
END_TEST

START_TEST(write_read_back)
{
	struct ibu_dlid_pairs p;
	struct ibu_err e = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_int_eq(ibu_dlid_pair_write(f, 0x10, 0x24, &e), 0);
	ck_assert_int_eq(ibu_dlid_pair_write(f, 0xbfff, 1, &e), 0);
	fclose(f);
	ck_assert_str_eq(text, "0x0010 0x0024\n0xbfff 0x0001\n");
	ck_assert_int_eq(parse(text, &p, &e), 0);
	ck_assert_int_eq(p.num, 2);
	ck_assert_uint_eq(p.pair[1].slid, 0xbfff);
	ibu_dlid_pairs_free(&p);
	free(text);
	ck_assert_int_eq(ibu_dlid_pairs_read("/nonexistent/x.pairs", &p, &e),
			 IBU_EIO);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/x.pairs"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dlids");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, good_file);
	tcase_add_test(tc, bad_lines);
	tcase_add_test(tc, write_read_back);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
