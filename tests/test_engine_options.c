/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Engine option tables (lib/engine/engine_options.c): the list every consumer
 * reads, parsing words, values kept per option, formatting. */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "engine.h"

/* Every option of every registered engine is listed once, the
 * framework's first, each with what its consumers need. */
START_TEST(every_option_listed_once)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	const struct ibu_engine_option *opt;
	const char *engine;
	int i, j, k, seen;

	ck_assert_ptr_eq(ibu_engine_option_at(0, &engine),
			 &ibu_engine_opt_mcast_apex);
	ck_assert_ptr_null(engine);
	for (i = 0; (opt = ibu_engine_option_at(i, &engine)); i++) {
		ck_assert_ptr_nonnull(opt->key);
		ck_assert_ptr_nonnull(opt->values);
		ck_assert_ptr_nonnull(opt->help);
		char def[64];
		int back = -99;

		/* both callbacks or none (a word list); either way the
		 * default formats and parses back */
		ck_assert_int_eq(!opt->parse, !opt->format);
		ibu_engine_option_format(opt, opt->def, def, sizeof(def));
		ck_assert_int_eq(ibu_engine_option_parse(opt, def, &back), IBU_OK);
		ck_assert_int_eq(back, opt->def);
		ck_assert_ptr_eq(ibu_engine_option_find(opt->key), opt);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(ibu_engine_option_at(j, NULL)->key,
					 opt->key);
	}
	/* each engine's key is there once, its engine among the owners (a
	 * key two engines declare, max_faults, holds one value for both) */
	for (k = 0; l[k]; k++)
		for (j = 0; j < l[k]->num_options; j++) {
			char owners[128];

			seen = 0;
			for (i = 0; (opt = ibu_engine_option_at(i, &engine)); i++)
				seen += !strcmp(opt->key, l[k]->options[j].key);
			ck_assert_int_eq(seen, 1);
			ibu_engine_option_owners(&l[k]->options[j], owners,
						 sizeof(owners));
			ck_assert_ptr_nonnull(strstr(owners, l[k]->name));
		}
	ck_assert_ptr_null(ibu_engine_option_find("no_such_option"));
}
END_TEST

/* A word sets its option; a value never set is the default; the last
 * setting wins; errors leave the value alone and say what is expected. */
START_TEST(parse_words)
{
	const struct ibu_engine_option *off = ibu_engine_option_find("offsets");
	const struct ibu_engine_option *mf = ibu_engine_option_find("max_faults");
	struct ibu_engine_opts o;
	const char *expected;
	char buf[64];

	ck_assert_ptr_nonnull(off);
	ck_assert_ptr_nonnull(mf);
	ibu_engine_opts_default(&o);
	ck_assert_int_eq(ibu_engine_opt(&o, off), off->def);
	ck_assert_int_eq(ibu_engine_opt(NULL, mf), -1);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "max_faults=7",
						    &expected), IBU_OK);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "max_faults=9", NULL),
			 IBU_OK);
	ck_assert_int_eq(ibu_engine_opt(&o, mf), 9);
	ck_assert_int_eq(o.num_set, 1);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "max_faults=-2",
						    &expected), IBU_EINVAL);
	ck_assert_str_eq(expected, "default|0..1000000");
	ck_assert_int_eq(ibu_engine_opt(&o, mf), 9);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "bogus=1", &expected),
			 IBU_ENOTFOUND);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "offsets", &expected),
			 IBU_EINVAL);
	ck_assert_ptr_null(expected);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "=paper", NULL),
			 IBU_EINVAL);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "mcast_apex=source",
						    NULL), IBU_OK);
	ck_assert_int_eq(o.mcast_policy, IBU_MCAST_SOURCE);
	ibu_engine_opt_format(&o, mf, buf, sizeof(buf));
	ck_assert_str_eq(buf, "max_faults=9");
	ibu_engine_opt_format(&o, off, buf, sizeof(buf));
	ck_assert_str_eq(buf, "offsets=rotated");
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "max_faults=default",
						    NULL), IBU_OK);
	ibu_engine_opt_format(&o, mf, buf, sizeof(buf));
	ck_assert_str_eq(buf, "max_faults=default");
}
END_TEST

/* An option without callbacks takes the words of its values, the
 * value the word's index: every word, only whole words. */
START_TEST(word_list_options)
{
	const struct ibu_engine_option *t = ibu_engine_option_find("turns");
	struct ibu_engine_opts o;
	char buf[64];
	int v = -1;

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_null(t->parse);
	ck_assert_str_eq(t->values, "own-vl|shared");
	ibu_engine_opts_default(&o);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "turns=shared", NULL), IBU_OK);
	ck_assert_int_eq(ibu_engine_opt(&o, t), 1);
	ibu_engine_opt_format(&o, t, buf, sizeof(buf));
	ck_assert_str_eq(buf, "turns=shared");
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "turns=own-vl", NULL), IBU_OK);
	ibu_engine_opt_format(&o, t, buf, sizeof(buf));
	ck_assert_str_eq(buf, "turns=own-vl");
	ck_assert_int_eq(ibu_engine_option_parse(t, "own", &v), IBU_EINVAL);
	ck_assert_int_eq(ibu_engine_option_parse(t, "own-vl|shared", &v), IBU_EINVAL);
	ck_assert_int_eq(ibu_engine_option_parse(t, "", &v), IBU_EINVAL);
	ck_assert_int_eq(ibu_engine_option_parse(t, "sharedx", &v), IBU_EINVAL);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "uneven=rule", NULL), IBU_OK);
	ck_assert_int_eq(ibu_engine_opt(&o, ibu_engine_option_find("uneven")), 1);
}
END_TEST

/* mcast_apex lives in its own field: a caller that sets the field
 * directly is what the option reads back. */
/* One value per key: max_faults set once reaches both engines' entries. */
START_TEST(shared_key_one_value)
{
	const struct ibu_engine_ops *cy = ibu_engine_find("cyclic");
	const struct ibu_engine_ops *xy = ibu_engine_find("xy");
	const struct ibu_engine_option *a = NULL, *b = NULL;
	struct ibu_engine_opts o;
	const char *exp;
	int j;

	for (j = 0; j < cy->num_options; j++)
		if (!strcmp(cy->options[j].key, "max_faults"))
			a = &cy->options[j];
	for (j = 0; j < xy->num_options; j++)
		if (!strcmp(xy->options[j].key, "max_faults"))
			b = &xy->options[j];
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_ne(a, b);
	ibu_engine_opts_default(&o);
	ck_assert_int_eq(ibu_engine_opts_parse_word(&o, "max_faults=7", &exp), 0);
	ck_assert_int_eq(ibu_engine_opt(&o, a), 7);
	ck_assert_int_eq(ibu_engine_opt(&o, b), 7);
	ck_assert_int_eq(ibu_engine_opt_put(&o, a, 9), 0);
	ck_assert_int_eq(ibu_engine_opt(&o, b), 9);
	ck_assert_int_eq(o.num_set, 1);
}
END_TEST

START_TEST(mcast_apex_field)
{
	struct ibu_engine_opts o;

	ibu_engine_opts_default(&o);
	ck_assert_int_eq(ibu_engine_opt(&o, &ibu_engine_opt_mcast_apex),
			 IBU_MCAST_COMPACT);
	o.mcast_policy = IBU_MCAST_LOWEST_GUID;
	ck_assert_int_eq(ibu_engine_opt(&o, &ibu_engine_opt_mcast_apex),
			 IBU_MCAST_LOWEST_GUID);
	ck_assert_int_eq(o.num_set, 0);
}
END_TEST

/* More distinct options than the set holds: refused, nothing lost. */
START_TEST(set_is_bounded)
{
	static struct ibu_engine_option many[IBU_ENGINE_MAX_SET + 1];
	struct ibu_engine_opts o;
	int i;

	ibu_engine_opts_default(&o);
	for (i = 0; i < IBU_ENGINE_MAX_SET; i++)
		ck_assert_int_eq(ibu_engine_opt_put(&o, &many[i], i + 1), 0);
	ck_assert_int_eq(ibu_engine_opt_put(&o, &many[i], 99), IBU_EINVAL);
	for (i = 0; i < IBU_ENGINE_MAX_SET; i++)
		ck_assert_int_eq(ibu_engine_opt(&o, &many[i]), i + 1);
	ck_assert_int_eq(ibu_engine_opt_put(&o, &many[3], 42), 0);
	ck_assert_int_eq(ibu_engine_opt(&o, &many[3]), 42);
}
END_TEST

/* A misspelt key gets the nearest accepted one; a word far from every
 * key gets none; every documented key is in the list. */
START_TEST(suggest_keys)
{
	char list[512];

	ck_assert_str_eq(ibu_key_suggest("ofsets=paper"), "offsets");
	ck_assert_str_eq(ibu_key_suggest("mcast_appex=source"), "mcast_apex");
	ck_assert_str_eq(ibu_key_suggest("vl-plan=2"), "vl_plan");
	ck_assert_str_eq(ibu_key_suggest("verbos=1"), "verbose");
	ck_assert_str_eq(ibu_key_suggest("routing_order=f"),
			 "guid_routing_order_file");
	ck_assert_str_eq(ibu_key_suggest("root_guids=f"), "root_guid_file");
	ck_assert_ptr_null(ibu_key_suggest("colour=red"));
	ck_assert_ptr_null(ibu_key_suggest("=x"));
	ibu_key_list(list, sizeof(list));
	ck_assert_ptr_nonnull(strstr(list, "mcast_apex, "));
	ck_assert_ptr_nonnull(strstr(list, "reuse_model"));
	ck_assert_ptr_nonnull(strstr(list, "guid_routing_order_file"));
	ck_assert_ptr_nonnull(strstr(list, "root_guid_file"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("engine_options");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_option_listed_once);
	tcase_add_test(tc, parse_words);
	tcase_add_test(tc, word_list_options);
	tcase_add_test(tc, mcast_apex_field);
	tcase_add_test(tc, shared_key_one_value);
	tcase_add_test(tc, set_is_bounded);
	tcase_add_test(tc, suggest_keys);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
