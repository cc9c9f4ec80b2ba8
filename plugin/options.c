/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Parser of the plugin's event_plugin_options words (see options.h): the
 * plugin's own two keys here, every engine's from the engines' option
 * tables (lib/engine/engine_options.h), so no engine option is named here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "options.h"

void ibu_plugin_opts_default(struct ibu_plugin_opts *o)
{
	o->verbose = 0;
	o->lid_matrices = 0;
	o->reuse_model = 1;
	ibu_engine_opts_default(&o->engine);
}

/* Appends text, blank-separated, at buf + *at (cut at len). */
static void append(char *buf, size_t len, size_t *at, const char *text)
{
	int n;

	if (*at >= len)
		return;
	n = snprintf(buf + *at, len - *at, "%s%s", *at ? " " : "", text);
	if (n > 0)
		*at += (size_t)n;
}

void ibu_plugin_opts_format(const struct ibu_plugin_opts *o, char *buf,
			    size_t len)
{
	const struct ibu_engine_option *opt;
	char word[96];
	size_t at = 0;
	int i;

	if (!len)
		return;
	buf[0] = '\0';
	/* the framework's mcast_apex, the plugin's own, then the engines' */
	ibu_engine_opt_format(&o->engine, &ibu_engine_opt_mcast_apex, word,
			      sizeof(word));
	append(buf, len, &at, word);
	snprintf(word, sizeof(word), "verbose=%d lid_matrices=%s reuse_model=%s",
		 o->verbose, o->lid_matrices ? "opensm" : "none",
		 o->reuse_model ? "yes" : "no");
	append(buf, len, &at, word);
	for (i = 1; (opt = ibu_engine_option_at(i, NULL)); i++) {
		ibu_engine_opt_format(&o->engine, opt, word, sizeof(word));
		append(buf, len, &at, word);
	}
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

static int parse_reuse_model(const char *val, struct ibu_plugin_opts *o)
{
	if (!strcmp(val, "yes"))
		o->reuse_model = 1;
	else if (!strcmp(val, "no"))
		o->reuse_model = 0;
	else
		return -1;
	return 0;
}

/* The plugin's own keys: what OpenSM does around the engines. */
struct option_def {
	const char *key;
	const char *expected;
	int (*parse)(const char *val, struct ibu_plugin_opts *o);
};

static const struct option_def option_defs[] = {
	{ "verbose", "0|1", parse_verbose },
	{ "lid_matrices", "none|opensm", parse_lid_matrices },
	{ "reuse_model", "yes|no", parse_reuse_model },
};

static void report_problem(ibu_plugin_opt_report_fn report, void *arg,
			   enum ibu_plugin_opt_problem what, const char *word,
			   const char *expected)
{
	if (report)
		report(arg, what, word, expected);
}

/* One of the plugin's own keys: 1 if word is one (*bad: its value is
 * bad), 0 if it is not. */
static int parse_own(struct ibu_plugin_opts *o, char *word, char *eq,
		     const char **expected, int *bad)
{
	unsigned i;

	*eq = '\0';
	for (i = 0; i < sizeof(option_defs) / sizeof(option_defs[0]); i++)
		if (!strcmp(word, option_defs[i].key)) {
			*expected = option_defs[i].expected;
			*bad = option_defs[i].parse(eq + 1, o) != 0;
			*eq = '=';
			return 1;
		}
	*eq = '=';
	return 0;
}

/* Handles one word; returns 1 if it was a problem, 0 if used. */
static int parse_word(struct ibu_plugin_opts *o, char *word,
		      ibu_plugin_opt_report_fn report, void *arg)
{
	char *eq = strchr(word, '=');
	const char *expected = NULL;
	int bad = 0, rc;

	if (!eq || eq == word) {
		report_problem(report, arg, IBU_PLUGIN_OPT_MALFORMED, word, NULL);
		return 1;
	}
	if (parse_own(o, word, eq, &expected, &bad))
		rc = bad ? IBU_EINVAL : IBU_OK;
	else
		rc = ibu_engine_opts_parse_word(&o->engine, word, &expected);
	if (rc == IBU_ENOTFOUND) {
		/* the nearest accepted key, if the word is a near miss */
		report_problem(report, arg, IBU_PLUGIN_OPT_UNKNOWN_KEY, word,
			       ibu_key_suggest(word));
		return 1;
	}
	if (rc) {
		report_problem(report, arg, IBU_PLUGIN_OPT_BAD_VALUE, word,
			       expected ? expected : "fewer engine options");
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
