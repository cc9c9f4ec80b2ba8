/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "unit.h"
#include "pgft.h"

START_TEST(params_parse_and_text)
{
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };
	char buf[96];

	ck_assert_int_eq(ibu_pgft_params_parse("8,12", "1,4", "1,2", &P, &e), 0);
	ck_assert_int_eq(P.h, 2);
	ck_assert_int_eq(P.m[2], 12);
	ck_assert_int_eq(P.w[2], 4);
	ck_assert_int_eq(P.p[2], 2);
	ibu_pgft_params_text(&P, buf, sizeof(buf));
	ck_assert_str_eq(buf, "PGFT(2; 8,12; 1,4; 1,2)");
	/* hosts, leaves, tops; ports of a leaf: 8 down, 4 x 2 up */
	ck_assert_int_eq(ibu_pgft_level_size(&P, 0, 1000), 96);
	ck_assert_int_eq(ibu_pgft_level_size(&P, 1, 1000), 12);
	ck_assert_int_eq(ibu_pgft_level_size(&P, 2, 1000), 4);
	ck_assert_int_eq(ibu_pgft_level_size(&P, 0, 50), -1);
	ck_assert_int_eq(ibu_pgft_down_ports(&P, 1), 8);
	ck_assert_int_eq(ibu_pgft_up_ports(&P, 1), 8);
	ck_assert_int_eq(ibu_pgft_down_ports(&P, 2), 24);
	ck_assert_int_eq(ibu_pgft_up_ports(&P, 2), 0);
	ibu_pgft_params_text(&P, buf, 8);	/* cut, terminated */
	ck_assert_int_eq((int)strlen(buf), 7);
}
END_TEST

START_TEST(params_refused)
{
	static const char *bad[][3] = {
		{ "8,12", "1,4", "1" },		/* levels differ */
		{ "8,x", "1,4", "1,2" },
		{ "8,,12", "1,4", "1,2" },
		{ "8,0", "1,4", "1,2" },
		{ "8,255", "1,4", "1,2" },
		{ "8;12", "1,4", "1,2" },
		{ "", "", "" },
		{ "1,1,1,1,1,1,1,1,1", "1,1,1,1,1,1,1,1,1", "1,1,1,1,1,1,1,1,1" },
	};
	struct ibu_pgft_params P;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_pgft_params_parse(bad[_i][0], bad[_i][1],
					       bad[_i][2], &P, &e), IBU_EINVAL);
	ck_assert(e.msg[0]);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pgft");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, params_parse_and_text);
	tcase_add_loop_test(tc, params_refused, 0, 8);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
