/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The engine registry (lib/engine/engine_registry.c): which engines, in
 * which order, and what each table must hold. */
#include <string.h>
#include "unit.h"
#include "engine.h"
#include "engines.h"

START_TEST(registry)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	int i;

	ck_assert_ptr_nonnull(ibu_engine_find("cyclic"));
	ck_assert_ptr_nonnull(ibu_engine_find("xy"));
	ck_assert_ptr_null(ibu_engine_find("minhop"));
	for (i = 0; l[i]; i++) {
		/* what the plugin and the driver call unconditionally */
		ck_assert_ptr_nonnull(l[i]->name);
		ck_assert_ptr_nonnull(l[i]->topology);
		ck_assert_ptr_nonnull(l[i]->recognise);
		ck_assert_ptr_nonnull(l[i]->topo_free);
		ck_assert_ptr_nonnull(l[i]->route);
		ck_assert_ptr_nonnull(l[i]->describe);
		/* multicast is all or nothing */
		ck_assert_int_eq(!!l[i]->mcast.tree, !!l[i]->mcast.state_new);
		ck_assert_int_eq(!!l[i]->mcast.tree, !!l[i]->mcast.release);
		ck_assert_int_eq(!!l[i]->mcast.tree, !!l[i]->mcast.prune);
		ck_assert_int_eq(!!l[i]->mcast.tree, !!l[i]->mcast.state_free);
		/* what the tools pair up */
		ck_assert_int_eq(!!l[i]->rule.check, !!l[i]->rule.state_free);
		ck_assert_int_eq(!!l[i]->report.port_number,
				 !!l[i]->report.port_numbering);
		ck_assert_int_eq(!!l[i]->vl.path_sl, !!l[i]->vl.sl2vl);
		/* DLID advice: an offset and what ibunion path prints with it */
		ck_assert_int_eq(!!l[i]->advice.offset, !!l[i]->advice.info);
		ck_assert_int_eq(l[i]->num_options > 0, l[i]->options != NULL);
	}
	ck_assert_int_ge(i, 2);
}
END_TEST

/* The list is the two engine tables, xy first (the order of detection and
 * of the plugin's option list), NULL-terminated; names are looked up
 * exactly and each names one table. */
START_TEST(order_and_lookup)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	static const char *const unknown[] = { "", "XY", "Cyclic", "cyclic ",
					       "x", "ftree", "updn" };
	size_t i, j;

	ck_assert_ptr_eq(l[0], &ibu_engine_xy);
	ck_assert_ptr_eq(l[1], &ibu_engine_cyclic);
	ck_assert_ptr_null(l[2]);
	ck_assert_ptr_eq(ibu_engine_find("xy"), &ibu_engine_xy);
	ck_assert_ptr_eq(ibu_engine_find("cyclic"), &ibu_engine_cyclic);
	ck_assert_str_eq(ibu_engine_xy.name, "xy");
	ck_assert_str_eq(ibu_engine_cyclic.name, "cyclic");
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		ck_assert_msg(ibu_engine_find(unknown[i]) == NULL, "'%s'",
			      unknown[i]);
	for (i = 0; l[i]; i++) {
		ck_assert_ptr_eq(ibu_engine_find(l[i]->name), l[i]);
		for (j = i + 1; l[j]; j++)
			ck_assert_str_ne(l[i]->name, l[j]->name);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("engine_registry");
	TCase *tc = tcase_create("list");

	tcase_add_test(tc, registry);
	tcase_add_test(tc, order_and_lookup);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
