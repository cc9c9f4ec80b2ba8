/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "engine_pick.h"
#include "guid_order.h"
#include "commands.h"
#include "opts.h"

const struct ibu_engine_ops *ibu_engine_pick(const char *cmd,
					     const struct ibu_fabric *f,
					     const char *name,
					     const struct ibu_engine_opts *o,
					     void **topo)
{
	const struct ibu_engine_ops *ops;
	struct ibu_err e = { 0 };
	enum ibu_engine_decline_kind kind;
	char names[128];

	*topo = NULL;
	if (!name) {
		ops = ibu_engine_detect(f, o, topo, &e);
		if (!ops)
			ibu_opt_report(cmd, &e);
		return ops;
	}
	ops = ibu_engine_find(name);
	if (!ops) {
		ibu_engine_names(names, sizeof(names));
		fprintf(stderr, "-E- ibunion %s: no engine '%s' (engines: %s)\n",
			cmd, name, names);
		return NULL;
	}
	if (ops->recognise(f, o, topo, &kind, &e)) {
		ibu_opt_report(cmd, &e);
		return NULL;
	}
	return ops;
}

void ibu_engine_names(char *buf, size_t len)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	int i, n = 0;

	buf[0] = '\0';
	for (i = 0; l[i] && n < (int)len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%s%s", i ? ", " : "",
			      l[i]->name);
}

void ibu_engine_topology_name(const struct ibu_engine_ops *ops,
			      const struct ibu_fabric *f, const void *topo,
			      char *buf, size_t len)
{
	char *colon;

	if (!len)
		return;
	ops->describe(f, topo, buf, len);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
}

/* OpenSM's GUID files of this run (one a process: the tools exit after
 * it): guid_routing_order_file (host order), root_guid_file (tops). */
static struct ibu_guid_order host_order, root_guids;

static void guid_files_free(void)
{
	ibu_guid_order_free(&host_order);
	ibu_guid_order_free(&root_guids);
}

/* -O guid_routing_order_file=FILE, -O root_guid_file=FILE: OpenSM's own
 * options, read as OpenSM hands them to the plugin; a file that cannot be
 * used is dropped with a warning, as the plugin does (WRN 5A55/5A56), so
 * that a dry run computes what OpenSM will do. */
static int guid_file(const char *cmd, struct ibu_engine_opts *o,
		     const char *key, const char *path)
{
	static int registered;
	int roots = !strcmp(key, "root_guid_file");
	struct ibu_guid_order *g = roots ? &root_guids : &host_order;
	struct ibu_err e = { 0 };

	ibu_guid_order_free(g);
	if (ibu_guid_order_read(path, g, &e)) {
		fprintf(stderr, "-W- ibunion %s: %s not used: %s; %s (as the plugin does)\n",
			cmd, key, e.msg, roots ?
			"levels found from the graph alone" :
			"hosts numbered in the engine's own order");
		ibu_guid_order_free(g);
		if (roots) {
			o->roots = NULL;
			o->num_roots = 0;
		} else {
			o->host_order = NULL;
			o->num_host_order = 0;
		}
		return 0;
	}
	if (!registered++)
		atexit(guid_files_free);
	if (roots) {
		o->roots = g->guid;
		o->num_roots = g->num;
	} else {
		o->host_order = g->guid;
		o->num_host_order = g->num;
	}
	return 0;
}

/* One of the values "a|b|c" lists? */
static int listed_value(const char *values, const char *v)
{
	size_t len = strlen(v);
	const char *p = values;

	while (p && *p) {
		if (!strncmp(p, v, len) && (p[len] == '|' || !p[len]))
			return 1;
		p = strchr(p, '|');
		if (p)
			p++;
	}
	return 0;
}

/* The plugin's own keys (verbose=1, ...): what OpenSM does around the
 * engines, nothing the tools compute. Taken, so that an
 * event_plugin_options line works as it is, and ignored. */
static int plugin_key(const char *word, const char **expected)
{
	const char *eq = strchr(word, '=');
	const struct ibu_key_doc *d;
	int i;

	for (i = 0; eq && (d = ibu_key_doc_at(i)); i++) {
		if (strcmp(d->where, "plugin") ||
		    strncmp(word, d->key, (size_t)(eq - word)) ||
		    d->key[eq - word])
			continue;
		*expected = d->values;
		return listed_value(d->values, eq + 1) ? IBU_OK : IBU_EINVAL;
	}
	return IBU_ENOTFOUND;
}

int ibu_engine_opt_arg(const char *cmd, struct ibu_engine_opts *o,
		       const char *word)
{
	static const char *const files[] = { "guid_routing_order_file",
					     "root_guid_file" };
	const char *expected = NULL;
	char keys[512];
	size_t f, len;
	int rc;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		len = strlen(files[f]);
		if (!strncmp(word, files[f], len) && word[len] == '=')
			return guid_file(cmd, o, files[f], word + len + 1);
	}
	rc = ibu_engine_opts_parse_word(o, word, &expected);
	if (!rc)
		return 0;
	if (rc == IBU_ENOTFOUND)
		rc = plugin_key(word, &expected);
	if (!rc)
		return 0;
	if (rc == IBU_ENOTFOUND) {
		const char *near = ibu_key_suggest(word);

		ibu_key_list(keys, sizeof(keys));
		fprintf(stderr, "-E- ibunion %s: -O '%s': no such option%s%s%s (options: %s)\n",
			cmd, word, near ? "; did you mean '" : "",
			near ? near : "", near ? "'?" : "", keys);
	} else if (expected) {
		fprintf(stderr, "-E- ibunion %s: -O '%s': bad value (expected %s)\n",
			cmd, word, expected);
	} else {
		fprintf(stderr, "-E- ibunion %s: -O '%s': not key=value\n", cmd,
			word);
	}
	return -1;
}

int ibu_engine_opt_alias(const char *cmd, struct ibu_engine_opts *o,
			 const char *key, const char *value)
{
	char word[128];

	snprintf(word, sizeof(word), "%s=%s", key, value);
	return ibu_engine_opt_arg(cmd, o, word);
}

void ibu_engine_opts_line(const struct ibu_engine_ops *ops,
			  const struct ibu_engine_opts *o, char *buf,
			  size_t len)
{
	char word[96];
	int i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ops->num_options && n < (int)len; i++) {
		ibu_engine_opt_format(o, &ops->options[i], word, sizeof(word));
		n += snprintf(buf + n, len - (size_t)n, "%s%s", i ? " " : "",
			      word);
	}
}

void ibu_engine_opts_usage(FILE *out)
{
	const struct ibu_engine_option *opt;
	const struct ibu_key_doc *d;
	char def[64], owners[128];
	int i;

	fprintf(out, "engine options (-O KEY=VALUE, as event_plugin_options):\n");
	for (i = 0; (opt = ibu_engine_option_at(i, NULL)); i++) {
		ibu_engine_option_format(opt, opt->def, def, sizeof(def));
		ibu_engine_option_owners(opt, owners, sizeof(owners));
		fprintf(out, "  %s=%s  (%s; default %s)\n      %s\n", opt->key,
			opt->values, owners, def, opt->help);
	}
	fprintf(out, "the plugin's own (event_plugin_options; -O takes and ignores them)\n"
		"and OpenSM's (opensm.conf, read through --config; or -O KEY=FILE):\n");
	for (i = 0; (d = ibu_key_doc_at(i)); i++)
		fprintf(out, "  %s=%s  (%s; default %s)\n      %s\n", d->key,
			d->values, d->where, d->def, d->help);
}
