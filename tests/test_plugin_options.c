/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The plugin's event_plugin_options parser (plugin/options.c). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "err.h"
#include "options.h"
#include "cyclic.h"

/* An engine option's value, looked up by key in the engines' tables. */
static int opt(const struct ibu_plugin_opts *o, const char *key)
{
	const struct ibu_engine_option *d = ibu_engine_option_find(key);

	ck_assert_ptr_nonnull(d);
	return ibu_engine_opt(&o->engine, d);
}

/* The name of vl_plan value v, as the xy engine's table formats it. */
static const char *vl_plan_name(int v)
{
	static char buf[32];

	ibu_engine_option_find("vl_plan")->format(v, buf, sizeof(buf));
	return buf;
}

struct seen {
	int n;
	enum ibu_plugin_opt_problem what[8];
	char word[8][64];
	const char *expected[8];
};

static void record(void *arg, enum ibu_plugin_opt_problem what,
		   const char *word, const char *expected)
{
	struct seen *s = arg;

	if (s->n < 8) {
		s->what[s->n] = what;
		snprintf(s->word[s->n], sizeof(s->word[0]), "%s", word);
		s->expected[s->n] = expected;
	}
	s->n++;
}

START_TEST(defaults)
{
	struct ibu_plugin_opts o;
	char buf[160];

	memset(&o, 0x5a, sizeof(o));
	ibu_plugin_opts_default(&o);
	ck_assert_int_eq(o.engine.mcast_policy, IBU_MCAST_COMPACT);
	ck_assert_int_eq(o.verbose, 0);
	ck_assert_int_eq(opt(&o, "offsets"), IBU_OFFSETS_ROTATED);
	ibu_plugin_opts_format(&o, buf, sizeof(buf));
	ck_assert_int_eq(o.lid_matrices, 0);
	ck_assert_str_eq(buf, "mcast_apex=compact verbose=0 lid_matrices=none reuse_model=yes vl_plan=1 max_faults=default offsets=rotated uneven=rotate turns=own-vl");
	/* no option line at all */
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, NULL, record, NULL), 0);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "  \t", record, NULL), 0);
	ck_assert_int_eq(o.engine.mcast_policy, IBU_MCAST_COMPACT);
}
END_TEST

START_TEST(all_values)
{
	static const struct {
		const char *text;
		enum ibu_mcast_policy apex;
		int verbose;
	} cases[] = {
		{ "mcast_apex=source", IBU_MCAST_SOURCE, 0 },
		{ "mcast_apex=lowest-guid verbose=1", IBU_MCAST_LOWEST_GUID, 1 },
		{ "verbose=1,mcast_apex=balanced", IBU_MCAST_BALANCED, 1 },
		{ "mcast_apex=compact", IBU_MCAST_COMPACT, 0 },
		{ " verbose=1\tverbose=0 ", IBU_MCAST_COMPACT, 0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibu_plugin_opts o;
		struct seen s = { 0 };

		ibu_plugin_opts_default(&o);
		ck_assert_int_eq(ibu_plugin_opts_parse(&o, cases[i].text,
						       record, &s), 0);
		ck_assert_int_eq(s.n, 0);
		ck_assert_int_eq(o.engine.mcast_policy, cases[i].apex);
		ck_assert_int_eq(o.verbose, cases[i].verbose);
	}
}
END_TEST

START_TEST(lid_matrices)
{
	struct ibu_plugin_opts o;
	struct seen s = { 0 };

	ibu_plugin_opts_default(&o);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "lid_matrices=opensm",
					       record, &s), 0);
	ck_assert_int_eq(o.lid_matrices, 1);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "lid_matrices=none",
					       record, &s), 0);
	ck_assert_int_eq(o.lid_matrices, 0);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "lid_matrices=yes",
					       record, &s), 1);
	ck_assert_int_eq(o.lid_matrices, 0);
}
END_TEST

START_TEST(reuse_model)
{
	struct ibu_plugin_opts o;
	struct seen s = { 0 };

	ibu_plugin_opts_default(&o);
	ck_assert_int_eq(o.reuse_model, 1);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "reuse_model=no",
					       record, &s), 0);
	ck_assert_int_eq(o.reuse_model, 0);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "reuse_model=1",
					       record, &s), 1);
	ck_assert_int_eq(o.reuse_model, 0);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "reuse_model=yes",
					       record, &s), 0);
	ck_assert_int_eq(o.reuse_model, 1);
}
END_TEST

START_TEST(vl_plans)
{
	static const char *const names[] = {
		"1", "2-spread", "2-direction", "4-spread", "4-direction",
	};
	struct ibu_plugin_opts o;
	struct seen s = { 0 };
	char word[32];
	int i;

	for (i = 0; i < 5; i++) {
		ibu_plugin_opts_default(&o);
		snprintf(word, sizeof(word), "vl_plan=%s", names[i]);
		ck_assert_int_eq(ibu_plugin_opts_parse(&o, word, record, &s), 0);
		ck_assert_int_eq(opt(&o, "vl_plan"), i);
		ck_assert_str_eq(vl_plan_name(i), names[i]);
	}
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "vl_plan=3", record, &s), 1);
	ck_assert_int_eq(opt(&o, "vl_plan"), 4);	/* kept */
}
END_TEST

START_TEST(offsets)
{
	struct ibu_plugin_opts o;
	struct seen s = { 0 };
	char buf[128];

	ibu_plugin_opts_default(&o);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "offsets=paper", record,
					       &s), 0);
	ck_assert_int_eq(opt(&o, "offsets"), IBU_OFFSETS_PAPER);
	ibu_plugin_opts_format(&o, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, " offsets=paper"));
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "verbose=1,offsets=rotated",
					       record, &s), 0);
	ck_assert_int_eq(opt(&o, "offsets"), IBU_OFFSETS_ROTATED);
	ck_assert_int_eq(s.n, 0);
	/* bad values keep the previous one and name what is accepted */
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "offsets=paper offsets=Paper "
					       "offsets= offsets=eq2", record,
					       &s), 3);
	ck_assert_int_eq(opt(&o, "offsets"), IBU_OFFSETS_PAPER);
	ck_assert_int_eq(s.n, 3);
	ck_assert_int_eq(s.what[0], IBU_PLUGIN_OPT_BAD_VALUE);
	ck_assert_str_eq(s.word[0], "offsets=Paper");
	ck_assert_str_eq(s.expected[0], "rotated|paper");
	ck_assert_str_eq(s.word[1], "offsets=");
	ck_assert_str_eq(s.word[2], "offsets=eq2");
}
END_TEST

START_TEST(max_faults)
{
	struct ibu_plugin_opts o;
	struct seen s = { 0 };
	char buf[200];

	ibu_plugin_opts_default(&o);
	ck_assert_int_eq(opt(&o, "max_faults"), -1);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "max_faults=0", record, &s), 0);
	ck_assert_int_eq(opt(&o, "max_faults"), 0);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "max_faults=40", record, &s), 0);
	ck_assert_int_eq(opt(&o, "max_faults"), 40);
	ibu_plugin_opts_format(&o, buf, sizeof(buf));
	ck_assert(strstr(buf, " max_faults=40"));
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "max_faults=-1", record, &s), 1);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "max_faults=x", record, &s), 1);
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "max_faults=", record, &s), 1);
	ck_assert_int_eq(opt(&o, "max_faults"), 40);	/* kept */
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "max_faults=default", record, &s), 0);
	ck_assert_int_eq(opt(&o, "max_faults"), -1);
}
END_TEST

START_TEST(problems_keep_defaults)
{
	struct ibu_plugin_opts o;
	struct seen s = { 0 };
	int rc;

	ibu_plugin_opts_default(&o);
	rc = ibu_plugin_opts_parse(&o, "color=red mcast_apex=top verbose=yes "
				   "junk =1 verbose=1 Verbose=0",
				   record, &s);
	ck_assert_int_eq(rc, 6);
	ck_assert_int_eq(s.n, 6);
	ck_assert_int_eq(s.what[0], IBU_PLUGIN_OPT_UNKNOWN_KEY);
	ck_assert_str_eq(s.word[0], "color=red");
	ck_assert_int_eq(s.what[1], IBU_PLUGIN_OPT_BAD_VALUE);
	ck_assert_str_eq(s.word[1], "mcast_apex=top");
	ck_assert_str_eq(s.expected[1], "balanced|source|lowest-guid|compact");
	ck_assert_int_eq(s.what[2], IBU_PLUGIN_OPT_BAD_VALUE);
	ck_assert_str_eq(s.expected[2], "0|1");
	ck_assert_int_eq(s.what[3], IBU_PLUGIN_OPT_MALFORMED);
	ck_assert_str_eq(s.word[3], "junk");
	ck_assert_int_eq(s.what[4], IBU_PLUGIN_OPT_MALFORMED);
	ck_assert_str_eq(s.word[4], "=1");
	ck_assert_int_eq(s.what[5], IBU_PLUGIN_OPT_UNKNOWN_KEY);
	ck_assert_str_eq(s.word[5], "Verbose=0");
	/* the bad words left the defaults, the good one applied */
	ck_assert_int_eq(o.engine.mcast_policy, IBU_MCAST_COMPACT);
	ck_assert_int_eq(o.verbose, 1);
	/* a NULL callback is allowed */
	ck_assert_int_eq(ibu_plugin_opts_parse(&o, "x=1 y", NULL, NULL), 2);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("plugin_options");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, defaults);
	tcase_add_test(tc, all_values);
	tcase_add_test(tc, lid_matrices);
	tcase_add_test(tc, reuse_model);
	tcase_add_test(tc, vl_plans);
	tcase_add_test(tc, offsets);
	tcase_add_test(tc, max_faults);
	tcase_add_test(tc, problems_keep_defaults);
	suite_add_tcase(s, tc);
	return s;
}

IBU_UNIT_MAIN
