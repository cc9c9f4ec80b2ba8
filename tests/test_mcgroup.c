/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast policies by name (lib/core/mcgroup.c). */
#include "unit.h"
#include "err.h"
#include "mcgroup.h"

START_TEST(parse)
{
	enum ibu_mcast_policy p;

	ck_assert_int_eq(ibu_mcast_policy_parse("source", &p), 0);
	ck_assert_int_eq(p, IBU_MCAST_SOURCE);
	ck_assert_int_eq(ibu_mcast_policy_parse("lowest-guid", &p), 0);
	ck_assert_int_eq(p, IBU_MCAST_LOWEST_GUID);
	ck_assert_int_eq(ibu_mcast_policy_parse("compact", &p), 0);
	ck_assert_int_eq(p, IBU_MCAST_COMPACT);
	ck_assert_str_eq(ibu_mcast_policy_name(IBU_MCAST_COMPACT), "compact");
	ck_assert_int_eq(ibu_mcast_policy_parse("spine", &p), IBU_EINVAL);
	ck_assert_str_eq(ibu_mcast_policy_name(IBU_MCAST_BALANCED), "balanced");
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(ibu_mcast_policy_name(IBU_MCAST_SOURCE), "source");
	ck_assert_str_eq(ibu_mcast_policy_name(IBU_MCAST_LOWEST_GUID),
			 "lowest-guid");
	ck_assert_str_eq(ibu_mcast_policy_name((enum ibu_mcast_policy)42), "?");
}
END_TEST

/* Every policy's name parses back to it; names are exact, a refused one
 * leaves the value alone. */
START_TEST(round_trip)
{
	static const char *const bad[] = { "", "Balanced", "balanced ",
					   "lowest_guid", "sourc", "compact2" };
	enum ibu_mcast_policy p, q;
	size_t i;

	for (p = IBU_MCAST_BALANCED; p <= IBU_MCAST_COMPACT; p++) {
		q = (enum ibu_mcast_policy)99;
		ck_assert_int_eq(ibu_mcast_policy_parse(ibu_mcast_policy_name(p), &q), 0);
		ck_assert_int_eq(q, p);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		q = IBU_MCAST_SOURCE;
		ck_assert_int_eq(ibu_mcast_policy_parse(bad[i], &q), IBU_EINVAL);
		ck_assert_int_eq(q, IBU_MCAST_SOURCE);
	}
	ck_assert_int_eq(ibu_mcast_policy_parse(NULL, &q), IBU_EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mcgroup");
	TCase *tc = tcase_create("policy");

	tcase_add_test(tc, parse);
	tcase_add_test(tc, names);
	tcase_add_test(tc, round_trip);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
