/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* OpenSM's configuration and the plugin's published state (osm_state.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "osm_state.h"
#include "engine_pick.h"
#include "guid_order.h"

#define OSM_DEFAULT_CONFIG "/etc/opensm/opensm.conf"
#define OSM_DEFAULT_DUMP_DIR "/var/log"

/* One pair's SL: key = slid << 16 | dlid. */
struct pair_sl {
	uint32_t key;
	uint8_t sl;
};

/* One run of the tool reads these once (the tools exit after it). */
static struct {
	const char *config;		/* --config, NULL: the default */
	int applied;
	/* opensm.conf */
	char conf_path[4096];
	int have_conf;
	char dump_dir[4096];
	char plugin_options[2048];
	char order_file[4096], root_file[4096];
	int qos;			/* -1: not said */
	/* published */
	struct ibu_osm_published pub;
	char pub_options[2048];
	char pub_order_file[4096], pub_root_file[4096];
	char host_order_dump[64], path_sl_dump[64];
	struct ibu_guid_order host_order, roots;
	struct pair_sl *sls;
	long num_sls;
	int have_sls;
} st = { .qos = -1 };

void ibu_osm_state_config(const char *path)
{
	st.config = path;
}

const struct ibu_osm_published *ibu_osm_state_published(void)
{
	return &st.pub;
}

static void state_free(void)
{
	ibu_guid_order_free(&st.host_order);
	ibu_guid_order_free(&st.roots);
	free(st.sls);
	st.sls = NULL;
}

/* "key value...": the key into key, *val at the value (trimmed). */
static int split_line(char *line, char **key, char **val)
{
	char *p = line, *end;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	*key = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (*p)
		*p++ = '\0';
	while (isspace((unsigned char)*p))
		p++;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	*val = p;
	return 1;
}

/* OpenSM writes "(null)" for a file option not set. */
static void set_file(char *dst, size_t len, const char *val)
{
	snprintf(dst, len, "%s", strcmp(val, "(null)") ? val : "");
}

static void conf_key(const char *key, const char *val)
{
	if (!strcmp(key, "dump_files_dir"))
		set_file(st.dump_dir, sizeof(st.dump_dir), val);
	else if (!strcmp(key, "event_plugin_options"))
		set_file(st.plugin_options, sizeof(st.plugin_options), val);
	else if (!strcmp(key, "guid_routing_order_file"))
		set_file(st.order_file, sizeof(st.order_file), val);
	else if (!strcmp(key, "root_guid_file"))
		set_file(st.root_file, sizeof(st.root_file), val);
	else if (!strcmp(key, "qos"))
		st.qos = !strcmp(val, "TRUE") ? 1 : 0;
}

/* opensm.conf: --config FILE must be there; the default may be absent. */
static int read_conf(const char *cmd)
{
	const char *path = st.config ? st.config : OSM_DEFAULT_CONFIG;
	char line[8192], *key, *val;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		if (!st.config)
			return 0;
		fprintf(stderr, "-E- ibunion %s: --config %s: %s\n", cmd, path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp))
		if (split_line(line, &key, &val))
			conf_key(key, val);
	fclose(fp);
	snprintf(st.conf_path, sizeof(st.conf_path), "%s", path);
	st.have_conf = 1;
	return 0;
}

/* OpenSM's dump directory: the configuration's, else $OSM_TMP_DIR. */
static const char *dump_dir(void)
{
	const char *env = getenv("OSM_TMP_DIR");

	if (st.dump_dir[0])
		return st.dump_dir;
	return env && *env ? env : OSM_DEFAULT_DUMP_DIR;
}

/* dir/name of a file in the dump directory; -1 when it does not fit. */
static int dump_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dump_dir(), name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int number(const char *val, int *out)
{
	char *end;
	long v = strtol(val, &end, 10);

	if (end == val || *end || v < 0 || v > 1000000000L)
		return -1;
	*out = (int)v;
	return 0;
}

/* One line of ibunion-routing.dump; -1 on a bad number. */
static int pub_key(const char *key, const char *val)
{
	struct ibu_osm_published *p = &st.pub;
	size_t at = strlen(p->declined);

	if (!strcmp(key, "engine"))
		snprintf(p->engine, sizeof(p->engine), "%s", val);
	else if (!strcmp(key, "declined") && at < sizeof(p->declined) - 1)
		snprintf(p->declined + at, sizeof(p->declined) - at,
			 "%sdeclined %s", at ? "; " : "", val);
	else if (!strcmp(key, "topology"))
		snprintf(p->topology, sizeof(p->topology), "%s", val);
	else if (!strcmp(key, "options"))
		snprintf(st.pub_options, sizeof(st.pub_options), "%s", val);
	else if (!strcmp(key, "guid_routing_order_file"))
		set_file(st.pub_order_file, sizeof(st.pub_order_file),
			 strcmp(val, "-") ? val : "");
	else if (!strcmp(key, "root_guid_file"))
		set_file(st.pub_root_file, sizeof(st.pub_root_file),
			 strcmp(val, "-") ? val : "");
	else if (!strcmp(key, "host_order"))
		snprintf(st.host_order_dump, sizeof(st.host_order_dump), "%s", val);
	else if (!strcmp(key, "path_sl"))
		snprintf(st.path_sl_dump, sizeof(st.path_sl_dump), "%s", val);
	else if (!strcmp(key, "switches"))
		return number(val, &p->switches);
	else if (!strcmp(key, "end_ports"))
		return number(val, &p->end_ports);
	else if (!strcmp(key, "lmc"))
		return number(val, &p->lmc);
	else if (!strcmp(key, "qos"))
		return number(val, &p->qos);
	else if (!strcmp(key, "max_vls"))
		return number(val, &p->max_vls);
	return 0;
}

static int read_published(const char *cmd)
{
	struct ibu_osm_published *p = &st.pub;
	char line[8192], *key, *val;
	FILE *fp;
	int n = 0;

	fp = dump_path(p->path, sizeof(p->path), "ibunion-routing.dump") ?
	     NULL : fopen(p->path, "r");
	if (!fp)
		return 0;	/* no plugin published there */
	p->qos = -1;
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (split_line(line, &key, &val) && pub_key(key, val)) {
			fprintf(stderr, "-E- ibunion %s: %s:%d: bad number '%s'\n",
				cmd, p->path, n, val);
			fclose(fp);
			return -1;
		}
	}
	fclose(fp);
	p->have = p->engine[0] != '\0';
	p->ours = p->have && p->topology[0] && ibu_engine_find(p->engine);
	return 0;
}

/* ibunion-host-order.dump: "0xPORTGUID 0xLID name" lines, in order. */
static int read_host_order(const char *cmd, const char *path)
{
	struct ibu_guid_order *g = &st.host_order;
	char line[4096];
	FILE *fp = fopen(path, "r");
	int n = 0;

	if (!fp) {
		fprintf(stderr, "-E- ibunion %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *end;
		uint64_t guid = strtoull(line, &end, 16);
		uint64_t *grown;

		n++;
		if (end == line || !isspace((unsigned char)*end)) {
			fprintf(stderr, "-E- ibunion %s: %s:%d: expected a port GUID\n",
				cmd, path, n);
			fclose(fp);
			return -1;
		}
		grown = realloc(g->guid, (size_t)(g->num + 1) * sizeof(*grown));
		if (!grown) {
			fclose(fp);
			fprintf(stderr, "-E- ibunion %s: out of memory\n", cmd);
			return -1;
		}
		g->guid = grown;
		g->guid[g->num++] = guid;
	}
	fclose(fp);
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair_sl *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* ibunion-path-sl.dump: "0xSLID 0xDLID SL" lines. */
static int read_sls(const char *cmd, const char *path)
{
	char line[256];
	FILE *fp = fopen(path, "r");
	unsigned s, d, sl;
	long cap = 0;
	int n = 0;

	if (!fp)
		return 0;	/* none published: SLs stay unknown */
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%x %x %u", &s, &d, &sl) != 3 || s > 0xffff ||
		    d > 0xffff || sl > 15) {
			fprintf(stderr, "-E- ibunion %s: %s:%d: expected '0xSLID 0xDLID SL'\n",
				cmd, path, n);
			fclose(fp);
			return -1;
		}
		if (st.num_sls == cap) {
			struct pair_sl *g;

			cap = cap ? 2 * cap : 1024;
			g = realloc(st.sls, (size_t)cap * sizeof(*g));
			if (!g) {
				fclose(fp);
				fprintf(stderr, "-E- ibunion %s: out of memory\n", cmd);
				return -1;
			}
			st.sls = g;
		}
		st.sls[st.num_sls].key = s << 16 | d;
		st.sls[st.num_sls++].sl = (uint8_t)sl;
	}
	fclose(fp);
	qsort(st.sls, (size_t)st.num_sls, sizeof(*st.sls), cmp_pair);
	st.have_sls = 1;
	return 0;
}

int ibu_osm_state_path_sl(uint16_t slid, uint16_t dlid)
{
	struct pair_sl k = { .key = (uint32_t)slid << 16 | dlid }, *hit;

	if (!st.have_sls)
		return -1;
	hit = bsearch(&k, st.sls, (size_t)st.num_sls, sizeof(*st.sls),
		      cmp_pair);
	return hit ? hit->sl : 0;
}

/* Is guid an end port of f? */
static int has_endport(const struct ibu_fabric *f, uint64_t guid)
{
	int i, p;

	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; !ibu_node_is_switch(&f->nodes[i]) &&
		     p <= f->nodes[i].num_ports; p++)
			if (f->nodes[i].ports[p].guid == guid)
				return 1;
	return 0;
}

/* The published state describes f: counts, and its host order's hosts. */
static int published_matches(const struct ibu_fabric *f)
{
	int i;

	if (!st.pub.ours || st.pub.switches != ibu_fabric_count_switches(f) ||
	    st.pub.end_ports != ibu_fabric_count_endports(f))
		return 0;
	for (i = 0; i < st.host_order.num; i++)
		if (!has_endport(f, st.host_order.guid[i]))
			return 0;
	return 1;
}

/* Was key set by the user (-O, or an option that stands for one)? */
static int user_set(const struct ibu_engine_opts *eo, const char *key)
{
	int i;

	if (!strcmp(key, "mcast_apex"))
		return (int)eo->mcast_policy != ibu_engine_opt_mcast_apex.def;
	for (i = 0; i < eo->num_set; i++)
		if (!strcmp(eo->set[i].opt->key, key))
			return 1;
	return 0;
}

/* event_plugin_options words into eo: the engines' keys the user left;
 * the plugin's own and words no engine knows are no business here. */
static void take_words(struct ibu_engine_opts *eo, const char *words)
{
	char copy[2048], *w, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", words);
	for (w = strtok_r(copy, " \t,", &save); w;
	     w = strtok_r(NULL, " \t,", &save)) {
		char key[64];
		const char *eq = strchr(w, '=');

		if (!eq || (size_t)(eq - w) >= sizeof(key))
			continue;
		memcpy(key, w, (size_t)(eq - w));
		key[eq - w] = '\0';
		if (!user_set(eo, key))
			ibu_engine_opts_parse_word(eo, w, NULL);
	}
}

/* A GUID file of OpenSM's (order or roots); a bad one is dropped with a
 * warning, as the plugin does. */
static void take_guid_file(const char *cmd, const char *key, const char *path,
			   struct ibu_guid_order *g)
{
	struct ibu_err e = { 0 };

	if (!path[0] || g->num)
		return;
	if (ibu_guid_order_read(path, g, &e)) {
		fprintf(stderr, "-W- ibunion %s: %s not used: %s (as the plugin does)\n",
			cmd, key, e.msg);
		ibu_guid_order_free(g);
	}
}

/* The plugin's own record of the routing, for the fabric it describes. */
static int apply_published(const char *cmd, struct ibu_engine_opts *eo)
{
	char sl[4096];

	take_words(eo, st.pub_options);
	eo->qos = st.pub.qos;
	eo->max_vls = st.pub.max_vls;
	if (!eo->roots)
		take_guid_file(cmd, "root_guid_file", st.pub_root_file,
			       &st.roots);
	if (st.path_sl_dump[0]) {
		if (dump_path(sl, sizeof(sl), st.path_sl_dump) ||
		    read_sls(cmd, sl))
			return -1;
	}
	fprintf(stderr, "-I- %s: OpenSM's last routing (%s): %s, %s; %s%s%s\n",
		cmd, st.pub.path, st.pub.engine, st.pub.topology,
		st.pub_options, st.host_order.num && !eo->host_order ?
		"; host order of the plugin's ibunion-host-order.dump" : "",
		st.have_sls ? "; SLs of ibunion-path-sl.dump" : "");
	return 0;
}

/* OpenSM's configuration alone (nothing published for this fabric). */
static void apply_conf(const char *cmd, struct ibu_engine_opts *eo)
{
	take_words(eo, st.plugin_options);
	if (st.qos >= 0)
		eo->qos = st.qos;
	if (!eo->host_order)
		take_guid_file(cmd, "guid_routing_order_file", st.order_file,
			       &st.host_order);
	if (!eo->roots)
		take_guid_file(cmd, "root_guid_file", st.root_file, &st.roots);
	fprintf(stderr, "-I- %s: OpenSM's configuration %s:%s%s%s%s%s\n", cmd,
		st.conf_path, st.plugin_options[0] ? " event_plugin_options " : "",
		st.plugin_options, st.host_order.num ?
		" guid_routing_order_file " : "",
		st.host_order.num ? st.order_file : "",
		st.roots.num ? " root_guid_file" : "");
}

/* Loads the configuration and the published state (and its host order). */
static int load(const char *cmd)
{
	char path[4096];

	if (read_conf(cmd) || read_published(cmd))
		return -1;
	atexit(state_free);
	if (!st.pub.ours || !st.pub_order_file[0] || !st.host_order_dump[0])
		return 0;
	if (dump_path(path, sizeof(path), st.host_order_dump)) {
		fprintf(stderr, "-E- ibunion %s: %s: path too long\n", cmd,
			dump_dir());
		return -1;
	}
	return read_host_order(cmd, path);
}

int ibu_osm_state_apply(const char *cmd, const struct ibu_fabric *f,
			struct ibu_engine_opts *eo)
{
	if (!st.applied++ && load(cmd))
		return -1;
	st.pub.matches = published_matches(f);
	if (st.pub.matches) {
		if (apply_published(cmd, eo))
			return -1;
	} else {
		ibu_guid_order_free(&st.host_order);
		if (st.pub.ours)
			fprintf(stderr, "-I- %s: %s describes another fabric (%d switches, %d end ports): not used\n",
				cmd, st.pub.path, st.pub.switches,
				st.pub.end_ports);
		if (st.have_conf)
			apply_conf(cmd, eo);
	}
	if (!eo->host_order && st.host_order.num) {
		eo->host_order = st.host_order.guid;
		eo->num_host_order = st.host_order.num;
	}
	if (!eo->roots && st.roots.num) {
		eo->roots = st.roots.guid;
		eo->num_roots = st.roots.num;
	}
	return 0;
}
