/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The MFT model (lib/core/mft.c): port masks and the MLID-sorted groups.
 * Its text form is test_mft_dump's. */
#include <string.h>
#include "unit.h"
#include "mft.h"

START_TEST(port_masks)
{
	struct ibu_portmask m;
	static const int ports[] = { 0, 1, 63, 64, 127, 128, 200, 255 };
	size_t i;

	memset(&m, 0, sizeof(m));
	ck_assert(ibu_pm_empty(&m));
	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
		ibu_pm_set(&m, ports[i]);
		ck_assert(ibu_pm_test(&m, ports[i]));
		ck_assert_int_eq(ibu_pm_count(&m), (int)i + 1);
	}
	ck_assert(!ibu_pm_test(&m, 2));
	ck_assert(!ibu_pm_test(&m, -1));
	ck_assert(!ibu_pm_test(&m, 256));
	ibu_pm_clear(&m, 64);
	ck_assert(!ibu_pm_test(&m, 64));
	ck_assert(ibu_pm_test(&m, 63));
	ck_assert_int_eq(ibu_pm_count(&m), 7);
	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		ibu_pm_clear(&m, ports[i]);
	ck_assert(ibu_pm_empty(&m));
}
END_TEST

/* Groups come into being on their first entry, stay sorted by MLID
 * whatever the insertion order, and go as a whole. */
START_TEST(groups_sorted)
{
	static const uint16_t mlids[] = { 0xc010, 0xc001, 0xfffe, 0xc008,
					  0xc000, 0xc009 };
	struct ibu_mft t;
	struct ibu_err e = { 0 };
	size_t i;
	int k;

	ck_assert_int_eq(ibu_mft_init(&t, 5, &e), 0);
	ck_assert_int_eq(ibu_mft_find(&t, 0xc001), -1);
	ck_assert_ptr_null(ibu_mft_get(&t, 0xc001, 0));
	for (i = 0; i < sizeof(mlids) / sizeof(mlids[0]); i++)
		ck_assert_int_eq(ibu_mft_set(&t, mlids[i], (int)i % 5,
					     (int)i + 1, &e), 0);
	ck_assert_int_eq(t.num_groups, 6);
	for (k = 1; k < t.num_groups; k++)
		ck_assert_uint_lt(t.g[k - 1].mlid, t.g[k].mlid);
	for (i = 0; i < sizeof(mlids) / sizeof(mlids[0]); i++) {
		k = ibu_mft_find(&t, mlids[i]);
		ck_assert_int_ge(k, 0);
		ck_assert_uint_eq(t.g[k].mlid, mlids[i]);
		ck_assert(ibu_pm_test(ibu_mft_get(&t, mlids[i], (int)i % 5),
				      (int)i + 1));
		ck_assert_int_eq(ibu_pm_count(ibu_mft_get(&t, mlids[i], (int)i % 5)), 1);
		ck_assert(ibu_pm_empty(ibu_mft_get(&t, mlids[i], ((int)i + 1) % 5)));
		ck_assert(!ibu_mft_group_empty(&t, k));
	}
	ck_assert_ptr_null(ibu_mft_get(&t, 0xc001, 5));
	ck_assert_ptr_null(ibu_mft_get(&t, 0xc001, -1));
	/* a second port of the same switch, the same group */
	ck_assert_int_eq(ibu_mft_set(&t, 0xc001, 1, 7, &e), 0);
	ck_assert_int_eq(t.num_groups, 6);
	ck_assert_int_eq(ibu_pm_count(ibu_mft_get(&t, 0xc001, 1)), 2);
	/* an empty group is found but forwards nothing */
	ck_assert_ptr_nonnull(ibu_mft_group(&t, 0xc003, &e));
	k = ibu_mft_find(&t, 0xc003);
	ck_assert_int_eq(k, 2);
	ck_assert(ibu_mft_group_empty(&t, k));
	ck_assert(ibu_mft_group_empty(&t, -1));
	ck_assert(ibu_mft_group_empty(&t, t.num_groups));
	ibu_mft_clear_mlid(&t, 0xc008);
	ibu_mft_clear_mlid(&t, 0xc004);	/* absent: nothing happens */
	ck_assert_int_eq(t.num_groups, 6);
	ck_assert_int_eq(ibu_mft_find(&t, 0xc008), -1);
	ck_assert_int_ge(ibu_mft_find(&t, 0xc009), 0);
	for (k = 1; k < t.num_groups; k++)
		ck_assert_uint_lt(t.g[k - 1].mlid, t.g[k].mlid);
	ibu_mft_free(&t);
}
END_TEST

/* Unicast LIDs, nodes and ports outside the table are refused and add no
 * group. */
START_TEST(refused)
{
	struct ibu_mft t;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_mft_init(&t, -1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_mft_init(&t, 3, &e), 0);
	ck_assert_int_eq(ibu_mft_set(&t, 0xbfff, 0, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_mft_set(&t, 0xffff, 0, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_mft_set(&t, 0xc001, 3, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_mft_set(&t, 0xc001, -1, 1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_mft_set(&t, 0xc001, 0, -1, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_mft_set(&t, 0xc001, 0, IBU_MAX_PORTS + 1, &e),
			 IBU_EINVAL);
	ck_assert_ptr_null(ibu_mft_group(&t, 0x10, &e));
	ck_assert_int_eq(t.num_groups, 0);
	ibu_mft_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mft");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, port_masks);
	tcase_add_test(tc, groups_sorted);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
