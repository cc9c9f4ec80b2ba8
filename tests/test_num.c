/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The strict number parser (lib/core/num.c): digits only, range, overflow,
 * GUID length, and what follows the digits. */
#include <stdint.h>
#include "unit.h"
#include "num.h"

START_TEST(accepts_plain_numbers)
{
	uint64_t v;
	int i;
	const char *end;

	ck_assert_int_eq(ibu_num("42", IBU_NUM_DEC, 0, 100, &v, NULL), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(ibu_num("0x2a", IBU_NUM_AUTO, 0, 100, &v, NULL), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(ibu_num("010", IBU_NUM_AUTO, 0, 100, &v, NULL), 0);
	ck_assert_uint_eq(v, 10);	/* never octal */
	ck_assert_int_eq(ibu_num("ff", IBU_NUM_HEX, 0, 255, &v, NULL), 0);
	ck_assert_uint_eq(v, 255);
	ck_assert_int_eq(ibu_num("18446744073709551615", IBU_NUM_DEC, 0,
				 UINT64_MAX, &v, NULL), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(ibu_num_int("7]", IBU_NUM_DEC, 1, 254, &i, &end), 0);
	ck_assert_int_eq(i, 7);
	ck_assert_str_eq(end, "]");
}
END_TEST

START_TEST(refuses_what_strtol_takes)
{
	static const char *bad[] = { "", " 1", "+1", "-1", "1 ", "1x", "0x",
				     "18446744073709551616", "4294967300",
				     "02zz", "1e3", NULL };
	uint64_t v = 99;
	int i, x;

	for (i = 0; bad[i]; i++)
		ck_assert_msg(ibu_num(bad[i], IBU_NUM_AUTO, 0, UINT32_MAX, &v,
				      NULL) == -1, "'%s' accepted", bad[i]);
	ck_assert_uint_eq(v, 99);	/* untouched on failure */
	ck_assert_int_eq(ibu_num_int("4294967300", IBU_NUM_DEC, 1, 254, &x, NULL), -1);
	ck_assert_int_eq(ibu_num_int("255", IBU_NUM_DEC, 1, 254, &x, NULL), -1);
	ck_assert_int_eq(ibu_num_int("0", IBU_NUM_DEC, 1, 254, &x, NULL), -1);
	ck_assert_int_eq(ibu_num("100000002", IBU_NUM_HEX, 0, 255, &v, NULL), -1);
	ck_assert_int_eq(ibu_num("12", IBU_NUM_DEC, 0, 255, &v, NULL) |
			 ibu_num("0x12", IBU_NUM_DEC, 0, 255, &v, NULL), -1);
}
END_TEST

START_TEST(guids_are_one_to_sixteen_hex_digits)
{
	uint64_t v;
	const char *end;

	ck_assert_int_eq(ibu_num_guid("0x0002c903000e0b72", &v, NULL), 0);
	ck_assert_uint_eq(v, 0x0002c903000e0b72ull);
	ck_assert_int_eq(ibu_num_guid("ffffffffffffffff", &v, NULL), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(ibu_num_guid("1", &v, NULL), 0);
	ck_assert_int_eq(ibu_num_guid("2c903000e0b72)", &v, &end), 0);
	ck_assert_str_eq(end, ")");
	ck_assert_int_eq(ibu_num_guid("0x00000000000000001", &v, NULL), -1);
	ck_assert_int_eq(ibu_num_guid("10000000000000000", &v, NULL), -1);
	ck_assert_int_eq(ibu_num_guid("0x", &v, NULL), -1);
	ck_assert_int_eq(ibu_num_guid("g", &v, NULL), -1);
	ck_assert_int_eq(ibu_num_guid("-1", &v, NULL), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("num");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, accepts_plain_numbers);
	tcase_add_test(tc, refuses_what_strtol_takes);
	tcase_add_test(tc, guids_are_one_to_sixteen_hex_digits);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
