/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Parser of the plugin's event_plugin_options words (see options.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "num.h"
#include "options.h"

/* order = the engine's enum ibu_vlplan_kind */
static const char *const vl_plan_names[] = {
	"1", "2-spread", "2-direction", "4-spread", "4-direction",
};

#define NUM_VL_PLANS (int)(sizeof(vl_plan_names) / sizeof(vl_plan_names[0]))

const char *ibu_plugin_vl_plan_name(int plan)
{
	return plan >= 0 && plan < NUM_VL_PLANS ? vl_plan_names[plan] : "?";
}

static int parse_vl_plan(const char *val, struct ibu_plugin_opts *o)
{
	int i;

	for (i = 0; i < NUM_VL_PLANS; i++)
		if (!strcmp(val, vl_plan_names[i])) {
			o->vl_plan = i;
			return 0;
		}
	return -1;
}

void ibu_plugin_opts_default(struct ibu_plugin_opts *o)
{
	o->mcast_apex = IBU_MCAST_BALANCED;
	o->verbose = 0;
	o->offsets = IBU_OFFSETS_ROTATED;
	o->lid_matrices = 0;
	o->vl_plan = 0;
	o->max_faults = -1;
}

void ibu_plugin_opts_format(const struct ibu_plugin_opts *o, char *buf,
			    size_t len)
{
	char mf[16];

	if (!len)
		return;
	if (o->max_faults < 0)
		snprintf(mf, sizeof(mf), "default");
	else
		snprintf(mf, sizeof(mf), "%d", o->max_faults);
	snprintf(buf, len, "mcast_apex=%s verbose=%d lid_matrices=%s vl_plan=%s max_faults=%s offsets=%s",
		 ibu_mcast_policy_name(o->mcast_apex), o->verbose,
		 o->lid_matrices ? "opensm" : "none",
		 ibu_plugin_vl_plan_name(o->vl_plan), mf,
		 ibu_cyclic_offsets_name(o->offsets));
}

static int parse_apex(const char *val, struct ibu_plugin_opts *o)
{
	return ibu_mcast_policy_parse(val, &o->mcast_apex) ? -1 : 0;
}

static int parse_offsets(const char *val, struct ibu_plugin_opts *o)
{
	return ibu_cyclic_offsets_parse(val, &o->offsets) ? -1 : 0;
}

static int parse_verbose(const char *val, struct ibu_plugin_opts *o)
{
	if (!strcmp(val, "0"))
		o->verbose = 0;
	else if (!strcmp(val, "1"))
		o->verbose = 1;
	else
		return -1;
	return 0;
}

static int parse_lid_matrices(const char *val, struct ibu_plugin_opts *o)
{
	if (!strcmp(val, "none"))
		o->lid_matrices = 0;
	else if (!strcmp(val, "opensm"))
		o->lid_matrices = 1;
	else
		return -1;
	return 0;
}

static int parse_max_faults(const char *val, struct ibu_plugin_opts *o)
{
	int v;

	if (!strcmp(val, "default")) {
		o->max_faults = -1;
		return 0;
	}
	if (ibu_num_int(val, IBU_NUM_DEC, 0, 1000000, &v, NULL))
		return -1;
	o->max_faults = v;
	return 0;
}

struct option_def {
	const char *key;
	const char *expected;
	int (*parse)(const char *val, struct ibu_plugin_opts *o);
};

static const struct option_def option_defs[] = {
	{ "mcast_apex", "balanced|source|lowest-guid", parse_apex },
	{ "offsets", "rotated|paper", parse_offsets },
	{ "verbose", "0|1", parse_verbose },
	{ "lid_matrices", "none|opensm", parse_lid_matrices },
	{ "vl_plan", "1|2-spread|2-direction|4-spread|4-direction",
	  parse_vl_plan },
	{ "max_faults", "default|0..1000000", parse_max_faults },
};

static void report_problem(ibu_plugin_opt_report_fn report, void *arg,
			   enum ibu_plugin_opt_problem what, const char *word,
			   const char *expected)
{
	if (report)
		report(arg, what, word, expected);
}

/* Handles one word; returns 1 if it was a problem, 0 if used. */
static int parse_word(struct ibu_plugin_opts *o, char *word,
		      ibu_plugin_opt_report_fn report, void *arg)
{
	char *eq = strchr(word, '=');
	const struct option_def *d = NULL;
	unsigned i;
	int rc;

	if (!eq || eq == word) {
		report_problem(report, arg, IBU_PLUGIN_OPT_MALFORMED, word, NULL);
		return 1;
	}
	*eq = '\0';
	for (i = 0; i < sizeof(option_defs) / sizeof(option_defs[0]); i++)
		if (!strcmp(word, option_defs[i].key))
			d = &option_defs[i];
	if (!d) {
		*eq = '=';
		report_problem(report, arg, IBU_PLUGIN_OPT_UNKNOWN_KEY, word,
			       NULL);
		return 1;
	}
	rc = d->parse(eq + 1, o);
	*eq = '=';
	if (rc) {
		report_problem(report, arg, IBU_PLUGIN_OPT_BAD_VALUE, word,
			       d->expected);
		return 1;
	}
	return 0;
}

int ibu_plugin_opts_parse(struct ibu_plugin_opts *o, const char *text,
			  ibu_plugin_opt_report_fn report, void *arg)
{
	char *copy, *word, *save = NULL;
	int problems = 0;

	if (!text)
		return 0;
	copy = strdup(text);
	if (!copy)
		return IBU_ENOMEM;
	for (word = strtok_r(copy, " \t\r\n,", &save); word;
	     word = strtok_r(NULL, " \t\r\n,", &save))
		problems += parse_word(o, word, report, arg);
	free(copy);
	return problems;
}
