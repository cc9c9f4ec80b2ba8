/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Engine option tables: lookup, parsing, formatting (engine_options.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "num.h"
#include "engine.h"

static int parse_apex(const char *text, int *value)
{
	enum ibu_mcast_policy p;

	if (ibu_mcast_policy_parse(text, &p))
		return IBU_EINVAL;
	*value = (int)p;
	return IBU_OK;
}

static void format_apex(int value, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
		 ibu_mcast_policy_name((enum ibu_mcast_policy)value));
}

const struct ibu_engine_option ibu_engine_opt_mcast_apex = {
	.key = "mcast_apex",
	.values = "balanced|source|lowest-guid|compact",
	.def = IBU_MCAST_COMPACT,
	.help = "where a multicast tree's apex (root) goes: balanced spreads "
		"the trees over the top switches, source puts it above a "
		"sender, lowest-guid on the lowest-GUID candidate, compact "
		"spreads them over as few switches as it can, since OpenSM "
		"resends every MFT block to every switch that ever held an "
		"MLID on each join",
	.parse = parse_apex,
	.format = format_apex,
};

void ibu_engine_opts_default(struct ibu_engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mcast_policy = (enum ibu_mcast_policy)ibu_engine_opt_mcast_apex.def;
	o->qos = -1;
}

/* One option, or two entries of one key (engines that share it). */
static int same_key(const struct ibu_engine_option *a,
		    const struct ibu_engine_option *b)
{
	return a == b || (a->key && b->key && !strcmp(a->key, b->key));
}

int ibu_engine_opt(const struct ibu_engine_opts *o,
		   const struct ibu_engine_option *opt)
{
	int i;

	if (!o)
		return opt->def;
	/* mcast_apex lives in its own field: callers set it directly */
	if (opt == &ibu_engine_opt_mcast_apex)
		return (int)o->mcast_policy;
	/* a key several engines declare holds one value (max_faults) */
	for (i = 0; i < o->num_set; i++)
		if (same_key(o->set[i].opt, opt))
			return o->set[i].value;
	return opt->def;
}

int ibu_engine_opt_put(struct ibu_engine_opts *o,
		       const struct ibu_engine_option *opt, int value)
{
	int i;

	if (opt == &ibu_engine_opt_mcast_apex) {
		o->mcast_policy = (enum ibu_mcast_policy)value;
		return IBU_OK;
	}
	for (i = 0; i < o->num_set; i++)
		if (same_key(o->set[i].opt, opt)) {
			o->set[i].value = value;
			return IBU_OK;
		}
	if (o->num_set >= IBU_ENGINE_MAX_SET)
		return IBU_EINVAL;
	o->set[o->num_set].opt = opt;
	o->set[o->num_set].value = value;
	o->num_set++;
	return IBU_OK;
}

/* Was key listed by an engine before engine k, option j? */
static int listed_before(const struct ibu_engine_ops *const *l, int k, int j)
{
	int a, b;

	for (a = 0; a <= k; a++)
		for (b = 0; b < l[a]->num_options && (a < k || b < j); b++)
			if (!strcmp(l[a]->options[b].key, l[k]->options[j].key))
				return 1;
	return 0;
}

const struct ibu_engine_option *ibu_engine_option_at(int i,
						     const char **engine)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	int k, j;

	if (engine)
		*engine = NULL;
	if (i == 0)
		return &ibu_engine_opt_mcast_apex;
	for (k = 0; l[k]; k++)
		for (j = 0; j < l[k]->num_options; j++) {
			if (listed_before(l, k, j) || --i > 0)
				continue;
			if (engine)
				*engine = l[k]->name;
			return &l[k]->options[j];
		}
	return NULL;
}

const struct ibu_engine_option *ibu_engine_option_find(const char *key)
{
	const struct ibu_engine_option *opt;
	int i;

	for (i = 0; (opt = ibu_engine_option_at(i, NULL)); i++)
		if (!strcmp(opt->key, key))
			return opt;
	return NULL;
}

int ibu_engine_opts_parse_word(struct ibu_engine_opts *o, const char *word,
			       const char **expected)
{
	const char *eq = strchr(word, '=');
	const struct ibu_engine_option *opt;
	char key[64];
	int value;

	if (expected)
		*expected = NULL;
	if (!eq || eq == word || (size_t)(eq - word) >= sizeof(key))
		return eq && eq != word ? IBU_ENOTFOUND : IBU_EINVAL;
	memcpy(key, word, (size_t)(eq - word));
	key[eq - word] = '\0';
	opt = ibu_engine_option_find(key);
	if (!opt)
		return IBU_ENOTFOUND;
	if (expected)
		*expected = opt->values;
	if (ibu_engine_option_parse(opt, eq + 1, &value))
		return IBU_EINVAL;
	return ibu_engine_opt_put(o, opt, value);
}

void ibu_engine_opt_format(const struct ibu_engine_opts *o,
			   const struct ibu_engine_option *opt, char *buf,
			   size_t len)
{
	char val[64];

	ibu_engine_option_format(opt, ibu_engine_opt(o, opt), val,
				 sizeof(val));
	snprintf(buf, len, "%s=%s", opt->key, val);
}

int ibu_engine_option_parse(const struct ibu_engine_option *opt,
			    const char *text, int *value)
{
	const char *w = opt->values, *bar;
	size_t n = strlen(text);
	int i;

	if (opt->parse)
		return opt->parse(text, value);
	for (i = 0; w; i++, w = bar ? bar + 1 : NULL) {
		bar = strchr(w, '|');
		if ((bar ? (size_t)(bar - w) : strlen(w)) == n &&
		    !strncmp(w, text, n)) {
			*value = i;
			return IBU_OK;
		}
	}
	return IBU_EINVAL;
}

void ibu_engine_option_format(const struct ibu_engine_option *opt,
			      int value, char *buf, size_t len)
{
	const char *w = opt->values, *bar;
	int i;

	if (opt->format) {
		opt->format(value, buf, len);
		return;
	}
	for (i = 0; i < value && (bar = strchr(w, '|')); i++)
		w = bar + 1;
	bar = strchr(w, '|');
	snprintf(buf, len, "%.*s", bar ? (int)(bar - w) : (int)strlen(w), w);
}

int ibu_engine_opt_parse_count(const char *text, int *value)
{
	int v;

	if (!strcmp(text, "default")) {
		*value = IBU_MAX_FAULTS_DEFAULT;
		return IBU_OK;
	}
	if (ibu_num_int(text, IBU_NUM_DEC, 0, 1000000, &v, NULL))
		return IBU_EINVAL;
	*value = v;
	return IBU_OK;
}

int ibu_fault_limit(int max_faults, int shape_default)
{
	return max_faults >= 0 ? max_faults : shape_default;
}

void ibu_engine_opt_format_count(int value, char *buf, size_t len)
{
	if (value < 0)
		snprintf(buf, len, "default");
	else
		snprintf(buf, len, "%d", value);
}

void ibu_engine_option_owners(const struct ibu_engine_option *opt, char *buf,
			      size_t len)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	size_t o = 0;
	int k, j;

	buf[0] = '\0';
	for (k = 0; l[k] && o < len; k++)
		for (j = 0; j < l[k]->num_options && o < len; j++)
			if (!strcmp(l[k]->options[j].key, opt->key)) {
				o += (size_t)snprintf(buf + o, len - o, "%s%s",
						      o ? ", " : "", l[k]->name);
				break;
			}
	if (!buf[0])
		snprintf(buf, len, "every engine");
}

static const struct ibu_key_doc key_docs[] = {
	{ "verbose", "0|1", "0", "plugin",
	  "1 logs, at DEBUG level (log flag 0x08), the label recognised for "
	  "every switch at each routing" },
	{ "lid_matrices", "none|opensm", "none", "plugin",
	  "none: when the engine accepts the fabric, OpenSM does not build its "
	  "min-hop matrices; opensm builds them anyway (hop columns in "
	  "opensm.fdbs, opensm-lid-matrix.dump, console commands that read "
	  "hop counts)" },
	{ "reuse_model", "yes|no", "yes", "plugin",
	  "yes: a sweep that finds the subnet unchanged reuses the model of "
	  "the last routing; no: recognise and plan again at every sweep" },
	{ "guid_routing_order_file", "FILE", "none", "OpenSM's opensm.conf",
	  "port GUIDs, one a line, in the order the engine numbers the compute "
	  "hosts (cyclic on a PGFT: the D-mod-K order); a bad file is not "
	  "used and the hosts keep the engine's own order" },
	{ "root_guid_file", "FILE", "none", "OpenSM's opensm.conf",
	  "node GUIDs of the top switches, for fat trees whose levels the "
	  "graph alone does not tell (hosts on the tops)" },
};

const struct ibu_key_doc *ibu_key_doc_at(int i)
{
	if (i < 0 || (size_t)i >= sizeof(key_docs) / sizeof(key_docs[0]))
		return NULL;
	return &key_docs[i];
}

/* Every accepted key: the engines' options, then the documented others. */
static const char *key_at(int i)
{
	const struct ibu_engine_option *opt = ibu_engine_option_at(i, NULL);
	const struct ibu_key_doc *d;
	int n = 0;

	if (opt)
		return opt->key;
	while (ibu_engine_option_at(n, NULL))
		n++;
	d = ibu_key_doc_at(i - n);
	return d ? d->key : NULL;
}

/* Edit distance of a[0..la) and b (insert, delete, replace, swap), cut
 * at 9: keys are short, and only a near miss is worth suggesting. */
static int distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), i, j;
	int d[64][64];

	if (la >= 64 || lb >= 64)
		return 9;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

const char *ibu_key_suggest(const char *word)
{
	const char *eq = strchr(word, '='), *key, *best = NULL;
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	char part[64];
	int i, d, best_d = 9;

	if (!len || len >= sizeof(part))
		return NULL;
	memcpy(part, word, len);
	part[len] = '\0';
	for (i = 0; (key = key_at(i)); i++) {
		d = distance(part, len, key);
		/* "routing_order=" for guid_routing_order_file: a part of it */
		if (len >= 4 && d > 2 && strstr(key, part))
			d = 2;
		/* "root_guids=": the key's first words right */
		if (d > 2 && common_prefix(part, key) >= 5)
			d = 2;
		if (d < best_d) {
			best_d = d;
			best = key;
		}
	}
	/* a third of the key may be wrong, at least 2 characters */
	return best && best_d <= (int)(len / 3 > 2 ? len / 3 : 2) ? best : NULL;
}

void ibu_key_list(char *buf, size_t len)
{
	const char *key;
	size_t at = 0;
	int i, n;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; (key = key_at(i)) && at < len; i++) {
		n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", key);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}
