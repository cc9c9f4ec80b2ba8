/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* guid2lid reader (lib/io/guid2lid.c), against its writer. */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "guid2lid.h"
#include "guid2lid.h"
#include "netfile.h"

static int parse(const char *text, size_t len, struct ibu_guid2lid *g,
		 struct ibu_err *e)
{
	FILE *in = fmemopen((void *)text, len, "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_guid2lid_read_stream(in, "g2l", g, e);
	fclose(in);
	return rc;
}

START_TEST(reads_records)
{
	static const char text[] = "# OpenSM guid2lid\n"
		"0x0000000000100001 0x0004 0x0007\n\n"
		"0x0000000000200000 0x0001 0x0001\n\n"
		"1048578 8 11\n";
	struct ibu_guid2lid g;
	struct ibu_err e = { 0 };

	ck_assert_msg(parse(text, strlen(text), &g, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(g.num, 3);
	ck_assert_uint_eq(g.rec[0].guid, 0x100001);
	ck_assert_uint_eq(g.rec[0].min, 4);
	ck_assert_uint_eq(g.rec[0].max, 7);
	ck_assert_int_eq(g.rec[0].line, 2);
	ck_assert_uint_eq(g.rec[2].guid, 0x100002);
	ck_assert_uint_eq(g.rec[2].max, 11);
	ck_assert_int_eq(g.rec[2].line, 6);
	ibu_guid2lid_free(&g);
}
END_TEST

/* What `ibunion lids` writes reads back record for record. */
START_TEST(writer_round_trip)
{
	struct ibu_fabric f;
	struct ibu_guid2lid g;
	struct ibu_err e = { 0 };
	char path[1024], *buf = NULL;
	size_t len = 0;
	FILE *out;
	int i, n = 0;

	snprintf(path, sizeof(path), "%s/ft43.net", FIXTURES_DIR);
	ck_assert_msg(ibu_netfile_read(path, &f, &e) == 0, "%s", e.msg);
	for (i = 0; i < f.num_nodes; i++) {
		struct ibu_node *nd = &f.nodes[i];
		int p = ibu_node_is_switch(nd) ? 0 : 1;

		nd->ports[p].lid = (uint16_t)(4 * (i + 1));
		nd->ports[p].lmc = ibu_node_is_switch(nd) ? 0 : 2;
		n++;
	}
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(ibu_guid2lid_write(out, &f, &e), 0);
	fclose(out);
	ck_assert_msg(parse(buf, len, &g, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(g.num, n);
	for (i = 0; i < g.num; i++)
		ck_assert_uint_eq(g.rec[i].min, 4 * (i + 1));
	free(buf);
	ibu_guid2lid_free(&g);
	ibu_fabric_free(&f);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "", "g2l:1: no guid2lid record" },
	{ "\n# comment\n\n", "g2l:3: no guid2lid record" },
	{ "0x1 0x4\n", "g2l:1: expected" },
	{ "0x1 0x4 0x7 junk\n", "g2l:1: trailing text" },
	{ "0x1 -4 0x7\n", "g2l:1: expected" },
	{ "0x1 0x0 0x0\n", "g2l:1: LIDs 0x0000..0x0000 are not" },
	{ "0x1 0x4 0x6\n", "g2l:1: LIDs 0x0004..0x0006 are not" },
	{ "0x1 0x8 0x4\n", "g2l:1: LIDs 0x0008..0x0004 are not" },
	{ "0x1 0xc000 0xc000\n", "g2l:1: expected" },
	{ "0x1 0x4 0x7\n\n0x1 0x8 0xb\n", "g2l:3: port GUID 0x0000000000000001 already has LIDs (line 1)" },
	{ "0x1 0x4 0x7\n\n0x2 0x6 0x6\n", "g2l:3: LIDs 0x0006..0x0006 overlap 0x0004..0x0007 (line 1)" },
	{ "0x10000000000000000 0x4 0x7\n", "g2l:1: expected" },
	{ "0x 0x4 0x7\n", "g2l:1: expected" },
};

START_TEST(bad_files)
{
	struct ibu_guid2lid g;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(parse(bad[_i].text, strlen(bad[_i].text), &g, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, bad[_i].msg), "got '%s', want '%s'", e.msg,
		      bad[_i].msg);
	ck_assert_ptr_null(g.rec);
}
END_TEST

START_TEST(nul_byte)
{
	static const char text[] = "0x1 0x4 0x7\n\n0x2 0x8\0 0xb\n";
	struct ibu_guid2lid g;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(parse(text, sizeof(text) - 1, &g, &e), IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "g2l:3: NUL byte"), "%s", e.msg);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("guid2lid");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reads_records);
	tcase_add_test(tc, writer_round_trip);
	tcase_add_loop_test(tc, bad_files, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, nul_byte);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
