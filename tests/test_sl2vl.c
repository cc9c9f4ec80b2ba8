/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "gen.h"
#include "gen_mesh.h"
#include "sl2vl.h"

static int parse(const char *text, const struct ibu_fabric *f,
		 struct ibu_sl2vl *s, struct ibu_err *e)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(in);
	rc = ibu_sl2vl_read_stream(in, "t.dump", f, s, e);
	fclose(in);
	return rc;
}

START_TEST(test_read)
{
	struct ibu_fabric f;
	struct ibu_sl2vl s;
	struct ibu_err e = { 0 };
	int sw, ca;
	static const char text[] =
		"Switch 0x0000000000200000, base LID 26, \"sw-0.0\"\n"
		"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
		"#--------------------------------------------------------\n"
		"1   2   : 0  1  0  1  0  1  0  1  0  1  0  1  0  1  0  1 \n"
		"5   1   : 3  3  3  3  3  3  3  3  3  3  3  3  3  3  3  3 \n"
		"#--------------------------------------------------------\n"
		"\n"
		"Channel Adapter 0x0000000000100001, base LID 1, \"hca-0.0.0\"\n"
		"0   0   : 0  1  2  3  0  1  2  3  0  1  2  3  0  1  2  3 \n";

	ck_assert_int_eq(ibu_gen_mesh(&f, 2, 2, 1, NULL, &e), 0);
	sw = ibu_fabric_find_name(&f, "sw-0.0");
	ca = ibu_fabric_find_name(&f, "hca-0.0.0");
	ck_assert_uint_eq(f.nodes[sw].guid, 0x200000);
	ck_assert_uint_eq(f.nodes[ca].ports[1].guid, 0x100001);
	ck_assert_msg(parse(text, &f, &s, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(s.tables, 3);
	ck_assert_int_eq(s.max_vl, 3);
	ck_assert_int_eq(ibu_sl2vl_get(&s, &f, sw, 1, 2, 3), 1);
	ck_assert_int_eq(ibu_sl2vl_get(&s, &f, sw, 1, 2, 4), 0);
	ck_assert_int_eq(ibu_sl2vl_get(&s, &f, sw, 5, 1, 9), 3);
	ck_assert_int_eq(ibu_sl2vl_get(&s, &f, sw, 2, 1, 9), 0);	/* absent */
	ck_assert_int_eq(ibu_sl2vl_get(&s, &f, ca, 0, 1, 6), 2);
	ibu_sl2vl_free(&s);
	/* errors name file:line */
	ck_assert_int_eq(parse("1 2 : 0 0\n", &f, &s, &e), IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.dump:1"), "%s", e.msg);
	ck_assert_int_eq(parse("Switch 0x0000000000999999, base LID 1, \"x\"\n",
			       &f, &s, &e), IBU_EPARSE);
	ck_assert_int_eq(parse("Switch 0x0000000000200000, base LID 1, \"x\"\n"
			       "1 2 : 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0\n", &f, &s, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.dump:2"), "%s", e.msg);
	ck_assert_int_eq(parse("Switch 0x0000000000200000, base LID 1, \"x\"\n"
			       "1 99 : 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1\n", &f, &s, &e),
			 IBU_EPARSE);
	ibu_fabric_free(&f);
}
END_TEST

/* tables set one by one (as the live reader does) survive a
 * write + read; uncabled ports are not written, bad ports are refused */
START_TEST(test_write_roundtrip)
{
	struct ibu_fabric f;
	struct ibu_sl2vl s, r;
	struct ibu_err e = { 0 };
	uint8_t vl[16];
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int sw, ca, in, o, sl, free_port = 0;

	ck_assert_int_eq(ibu_gen_mesh(&f, 3, 2, 1, NULL, &e), 0);
	sw = ibu_fabric_find_name(&f, "sw-1.0");
	ca = ibu_fabric_find_name(&f, "hca-1.0.0");
	ck_assert_int_ge(sw, 0);
	ck_assert_int_ge(ca, 0);
	ck_assert_int_eq(ibu_sl2vl_init(&s, &f, &e), 0);
	for (in = 0; in <= f.nodes[sw].num_ports; in++)
		for (o = 1; o <= f.nodes[sw].num_ports; o++) {
			for (sl = 0; sl < 16; sl++)
				vl[sl] = (uint8_t)((in + o + sl) % 4);
			ck_assert_int_eq(ibu_sl2vl_set(&s, &f, sw, in, o, vl, &e), 0);
		}
	for (sl = 0; sl < 16; sl++)
		vl[sl] = (uint8_t)(sl % 2);
	ck_assert_int_eq(ibu_sl2vl_set(&s, &f, ca, 0, 1, vl, &e), 0);
	ck_assert_int_eq(ibu_sl2vl_set(&s, &f, sw, 0, 99, vl, &e), IBU_EINVAL);
	ck_assert_int_eq(s.max_vl, 3);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ibu_sl2vl_write(out, &f, &s, &e), 0);
	fclose(out);
	ck_assert_msg(parse(buf, &f, &r, &e) == 0, "%s", e.msg);
	for (o = 1; o <= f.nodes[sw].num_ports; o++)
		if (f.nodes[sw].ports[o].peer_node < 0)
			free_port = o;
	ck_assert_int_gt(free_port, 0);	/* sw-1.0 has no south neighbour */
	for (in = 0; in <= f.nodes[sw].num_ports; in++)
		for (o = 1; o <= f.nodes[sw].num_ports; o++)
			for (sl = 0; sl < 16; sl++) {
				int want = (in + o + sl) % 4;

				if (in == free_port || o == free_port)
					want = 0;	/* not written */
				ck_assert_int_eq(ibu_sl2vl_get(&r, &f, sw, in, o, sl), want);
			}
	for (sl = 0; sl < 16; sl++)
		ck_assert_int_eq(ibu_sl2vl_get(&r, &f, ca, 0, 1, sl), sl % 2);
	ibu_sl2vl_free(&r);
	ibu_sl2vl_free(&s);
	free(buf);
	ibu_fabric_free(&f);
}
END_TEST

/* hostile input: no table, or a NUL byte, is an error naming file:line */
START_TEST(test_hostile)
{
	static const char nul[] = "# sl2vl\0x\n";
	struct ibu_fabric f;
	struct ibu_sl2vl s;
	struct ibu_err e = { 0 };
	FILE *in;

	ck_assert_int_eq(ibu_gen_mesh(&f, 2, 2, 1, NULL, &e), 0);
	ck_assert_int_eq(parse("", &f, &s, &e), IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.dump:1: no SL2VL table"), "%s", e.msg);
	in = fmemopen((void *)nul, sizeof(nul) - 1, "r");
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ibu_sl2vl_read_stream(in, "n.dump", &f, &s, &e), IBU_EPARSE);
	fclose(in);
	ck_assert_msg(strstr(e.msg, "n.dump:1: NUL byte"), "%s", e.msg);
	ibu_fabric_free(&f);
}
END_TEST

/* strict input: strict table lines and headers, each with file:line */
START_TEST(test_strict)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "4294967297 1 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", "t.dump:2: expected 'IN OUT : 16 VLs'" },
		{ "-1 1 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", "t.dump:2: expected 'IN OUT : 16 VLs'" },
		{ "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7\n", "t.dump:2: more than 16 VLs" },
		{ "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 15\n", "t.dump:2: SL 15 mapped to VL 15" },
		{ "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 16\n", "t.dump:2: expected" },
		{ "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1x\n", "t.dump:2: expected" },
		{ "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
		  "Switch 0x0000000000200000, base LID 1, \"x\"\n"
		  "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", "t.dump:4: 'sw-0.0': the table 1 -> 2 is given twice" },
	};
	struct ibu_fabric f;
	struct ibu_sl2vl s;
	struct ibu_err e = { 0 };
	char text[512];
	size_t i;

	ck_assert_int_eq(ibu_gen_mesh(&f, 2, 2, 1, NULL, &e), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "Switch 0x0000000000200000, base LID 1, \"x\"\n%s", bad[i].text);
		ck_assert_int_eq(parse(text, &f, &s, &e), IBU_EPARSE);
		ck_assert_msg(strstr(e.msg, bad[i].want), "case %zu: '%s' lacks '%s'",
			      i, e.msg, bad[i].want);
	}
	ck_assert_int_eq(parse("Switch 0x0000000000200000, base LID 99999999999, \"x\"\n"
			       "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", &f, &s, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.dump:1: bad base LID"), "%s", e.msg);
	ck_assert_int_eq(parse("Switch 0x00000000000200000, base LID 1, \"x\"\n"
			       "1 2 : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", &f, &s, &e),
			 IBU_EPARSE);
	ck_assert_msg(strstr(e.msg, "t.dump:1: bad GUID"), "%s", e.msg);
	ibu_fabric_free(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sl2vl");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_hostile);
	tcase_add_test(tc, test_strict);
	tcase_add_test(tc, test_write_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
