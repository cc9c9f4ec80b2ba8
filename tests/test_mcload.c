/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The multicast load tracker (lib/analysis/mcload.c): counters per kind of item,
 * each tree recorded under its key, released exactly. */
#include <stdlib.h>
#include "unit.h"
#include "mcload.h"

static uint32_t total(const struct ibu_mcload *l, int k)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < l->size[k]; i++)
		sum += l->count[k][i];
	return sum;
}

START_TEST(add_release_readd)
{
	static const int size[2] = { 5, 12 };
	static const int sw_a[] = { 0, 2, 4 }, ln_a[] = { 1, 11 };
	static const int sw_b[] = { 2, 3 }, ln_b[] = { 11 };
	const int *a[2] = { sw_a, ln_a }, *b[2] = { sw_b, ln_b };
	const int na[2] = { 3, 2 }, nb[2] = { 2, 1 };
	struct ibu_mcload l;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_mcload_init(&l, 2, size, &e), 0);
	ck_assert_int_eq(ibu_mcload_add(&l, 0xc001, a, na, &e), 0);
	ck_assert_int_eq(ibu_mcload_add(&l, 0xc000, b, nb, &e), 0);
	ck_assert_int_eq(ibu_mcload_count(&l), 2);
	ck_assert_uint_eq(l.count[0][2], 2);
	ck_assert_uint_eq(l.count[1][11], 2);
	/* the same key again replaces its tree, it does not add one */
	ck_assert_int_eq(ibu_mcload_add(&l, 0xc001, b, nb, &e), 0);
	ck_assert_int_eq(ibu_mcload_count(&l), 2);
	ck_assert_uint_eq(l.count[0][0], 0);
	ck_assert_uint_eq(l.count[0][3], 2);
	ck_assert_uint_eq(total(&l, 1), 2);
	ibu_mcload_release(&l, 0xc000);
	ibu_mcload_release(&l, 0xbeef);		/* unknown: nothing */
	ck_assert_int_eq(ibu_mcload_count(&l), 1);
	ck_assert_uint_eq(total(&l, 0), 2);
	ck_assert_uint_eq(total(&l, 1), 1);
	ibu_mcload_reset(&l);
	ck_assert_int_eq(ibu_mcload_count(&l), 0);
	ck_assert_uint_eq(total(&l, 0) + total(&l, 1), 0);
	ibu_mcload_free(&l);
}
END_TEST

static int even(void *ctx, uint32_t key)
{
	(void)ctx;
	return key % 2 == 0;
}

/* Many keys in random order; pruning keeps exactly the live ones, and
 * out-of-range items are ignored rather than written. */
START_TEST(prune_keeps_live_keys)
{
	static const int size[1] = { 8 };
	struct ibu_mcload l;
	struct ibu_err e = { 0 };
	char added[150] = { 0 };
	uint32_t key;
	int i, live = 0;

	srand(7);
	ck_assert_int_eq(ibu_mcload_init(&l, 1, size, &e), 0);
	for (i = 0; i < 200; i++) {
		int items[2] = { rand() % 8, 100 };
		const int *it[1] = { items };
		const int n[1] = { 2 };

		key = (uint32_t)(rand() % 150);
		ck_assert_int_eq(ibu_mcload_add(&l, key, it, n, &e), 0);
		added[key] = 1;
	}
	for (key = 0; key < 150; key += 2)
		live += added[key];
	ck_assert_int_gt(live, 0);
	ck_assert_int_gt(ibu_mcload_count(&l), live);	/* odd ones too */
	ibu_mcload_prune(&l, even, NULL);
	ck_assert_int_eq(ibu_mcload_count(&l), live);
	/* one in-range item per tree: the counters hold exactly the live */
	ck_assert_uint_eq(total(&l, 0), (uint32_t)live);
	for (key = 1; key < 150; key += 2)
		ibu_mcload_release(&l, key);	/* none left: no change */
	ck_assert_uint_eq(total(&l, 0), (uint32_t)ibu_mcload_count(&l));
	ibu_mcload_free(&l);
}
END_TEST

START_TEST(bad_kinds)
{
	static const int size[1] = { 1 };
	struct ibu_mcload l;
	struct ibu_err e = { 0 };

	ck_assert_int_eq(ibu_mcload_init(&l, 0, size, &e), IBU_EINVAL);
	ck_assert_int_eq(ibu_mcload_init(&l, IBU_MCLOAD_MAX_KINDS + 1, size,
					 &e), IBU_EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mcload");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, add_release_readd);
	tcase_add_test(tc, prune_keeps_live_keys);
	tcase_add_test(tc, bad_kinds);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
