/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include "unit.h"
#include "verify.h"
START_TEST(placeholder)
{
	ck_assert_int_eq(1, 1);
}
END_TEST
static Suite *suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, placeholder);
	suite_add_tcase(s, tc);
	return s;
}
IBU_UNIT_MAIN
