/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the plugin did, published in OpenSM's dump directory so that the
 * tools judge and predict what OpenSM really did (ibunion(1), OPENSM'S
 * CONFIGURATION), with no option repeated by hand:
 *
 *   ibunion-routing.dump   after every unicast routing (any engine's):
 *                          the engine that routed, why ours declined,
 *                          and for ours its topology, LMC, options, qos,
 *                          VLs, the GUID files it used and its other files
 *   ibunion-path-sl.dump   "0xSLID 0xDLID SL" of every pair whose SL is
 *                          not 0 (engines with a VL plan: the SLs SA
 *                          PathRecords hand out)
 *   ibunion-unrouted.dump  every (switch, LID) entry left without a route
 *                          on purpose, "0xSWITCHGUID 0xLID switch -> owner"
 *
 * Every file goes through lib/core/atomicfile (temporary name, renamed
 * when complete); a failure is logged (WRN 5A5C), never fatal.
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "atomicfile.h"

/* Beyond this many (source LID, destination LID) pairs the SLs are not
 * listed: the file would outgrow any use. */
#define MAX_SL_PAIRS 16000000L

typedef int (*write_fn)(struct ibu_plugin_engine *pe, FILE *fp, void *arg);

/* dir/name through an atomic file; logs why it failed. The dump
 * directory may be writable by others: whatever stands at the name (a
 * link, a FIFO that would block the sweep) is replaced, never opened. */
static void publish_file(struct ibu_plugin_engine *pe, osm_opensm_t *osm,
			 const char *name, write_fn fn, void *arg)
{
	const char *dir = osm->subn.opt.dump_files_dir;
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	char path[4096];
	int rc;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = ibu_atomicfile_open_flags(&af, path, IBU_PLUGIN_DUMP_FLAGS, &e);
	if (!rc) {
		if (fn(pe, af.fp, arg) < 0 || ferror(af.fp)) {
			ibu_atomicfile_abort(&af);
			rc = ibu_err_set(&e, IBU_EIO, "%s: write error", path);
		} else {
			rc = ibu_atomicfile_commit(&af, &e);
		}
	}
	if (rc)
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"WRN 5A5C: ibunion: %s not written: %s\n", name, e.msg);
}

void ibu_plugin_note_decline(struct ibu_plugin_engine *pe, const char *why)
{
	struct ibu_plugin *ctx = pe->plugin;
	size_t at = strlen(ctx->declined);

	/* several of our engines may decline in one sweep: every reason */
	if (at < sizeof(ctx->declined) - 1)
		snprintf(ctx->declined + at, sizeof(ctx->declined) - at,
			 "declined %s: %s\n", pe->ops->name, why);
}

/* The (switch, LID) entries the engine left unrouted on purpose. */
static int write_unrouted(struct ibu_plugin_engine *pe, FILE *fp, void *arg)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	const struct ibu_fabric *f = &r->fabric;
	const struct ibu_lft *lft = &r->res.lft;
	long *count = arg;
	uint32_t lid, top = r->res.map.max_lid < lft->max_lid ?
			    r->res.map.max_lid : lft->max_lid;
	int i;

	fprintf(fp, "# (switch, LID) entries %s left unrouted: no route the engine may take\n"
		"# 0xSWITCHGUID 0xLID 'switch' -> 'owner of the LID'\n",
		pe->ops->name);
	for (i = 0; i < f->num_nodes && i < lft->num_nodes; i++) {
		if (!ibu_node_is_switch(&f->nodes[i]) || !lft->row[i])
			continue;
		for (lid = 1; lid <= top; lid++) {
			const uint8_t *at = memchr(lft->row[i] + lid,
						   IBU_NO_PATH, top - lid + 1);
			const struct ibu_lid_owner *o;

			/* a routed row has none: the scan is memchr's */
			if (!at)
				break;
			lid = (uint32_t)(at - lft->row[i]);
			if (!(o = ibu_lidmap_get(&r->res.map, lid)))
				continue;
			(*count)++;
			if (fprintf(fp, "0x%016" PRIx64 " 0x%04x '%s' -> '%s'\n",
				    f->nodes[i].guid, lid, f->nodes[i].name,
				    f->nodes[o->node].name) < 0)
				return -1;
		}
	}
	return 0;
}

/* Every pair whose SL is not 0, sources by each LID of their LMC set. */
static int write_path_sl(struct ibu_plugin_engine *pe, FILE *fp, void *arg)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	const struct ibu_lidmap *map = &r->res.map;
	uint32_t s, d;

	(void)arg;
	fprintf(fp, "# SLs %s gives paths (SA PathRecords, SMSL); pairs not listed use SL 0\n"
		"# 0xSLID 0xDLID SL\n", pe->ops->name);
	if (pe->ops->vl.in_use && !pe->ops->vl.in_use(r->res.topo))
		return 0;	/* no plan this routing: every pair SL 0 */
	for (s = 1; s <= map->max_lid; s++) {
		if (!ibu_lidmap_get(map, s))
			continue;
		for (d = 1; d <= map->max_lid; d++) {
			int sl;

			if (d == s || !ibu_lidmap_get(map, d))
				continue;
			sl = pe->ops->vl.path_sl(&r->fabric, r->res.topo, map,
					      &pe->plugin->opts.engine,
					      (uint16_t)s, (uint16_t)d);
			if (sl > 0 && fprintf(fp, "0x%04x 0x%04x %d\n", s, d,
					      sl) < 0)
				return -1;
		}
	}
	return 0;
}

static long owned_lids(const struct ibu_lidmap *map)
{
	long n = 0;
	uint32_t l;

	for (l = 1; l <= map->max_lid; l++)
		n += ibu_lidmap_get(map, l) != NULL;
	return n;
}

void ibu_plugin_publish_tables(struct ibu_plugin_engine *pe)
{
	osm_opensm_t *osm = pe->plugin->osm;
	long unrouted = 0, lids = owned_lids(&pe->routing.res.map);
	const char *dir = osm->subn.opt.dump_files_dir;

	pe->published_sl = 0;
	publish_file(pe, osm, "ibunion-unrouted.dump", write_unrouted,
		     &unrouted);
	if (unrouted)
		OSM_LOG(&osm->log, OSM_LOG_INFO,
			"WRN 5A5D: %s: the %ld entries left unrouted are listed in %s/ibunion-unrouted.dump\n",
			pe->ops->name, unrouted, dir ? dir : "");
	if (!pe->ops->vl.path_sl)
		return;
	if (lids * lids > MAX_SL_PAIRS) {
		OSM_LOG(&osm->log, OSM_LOG_VERBOSE,
			"%s: %ld LIDs: the SLs of their pairs are not listed\n",
			pe->ops->name, lids);
		return;
	}
	publish_file(pe, osm, "ibunion-path-sl.dump", write_path_sl, NULL);
	pe->published_sl = 1;
}

/* The engine's part of ibunion-routing.dump. */
static void write_ours(struct ibu_plugin_engine *pe, FILE *fp)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	osm_subn_opt_t *opt = &pe->plugin->osm->subn.opt;
	char line[2048];

	pe->ops->describe(&r->fabric, r->res.topo, line, sizeof(line));
	fprintf(fp, "topology %s\n", line);
	fprintf(fp, "lmc %u\n", (unsigned)opt->lmc);
	fprintf(fp, "switches %d\nend_ports %d\n",
		ibu_fabric_count_switches(&r->fabric),
		ibu_fabric_count_endports(&r->fabric));
	ibu_plugin_opts_format(&pe->plugin->opts, line, sizeof(line));
	fprintf(fp, "options %s\n", line);
	fprintf(fp, "qos %d\nmax_vls %d\n", r->in.qos, r->in.max_vls);
	/* the files the engine really used (a bad one is dropped) */
	fprintf(fp, "guid_routing_order_file %s\n", r->in.order.num &&
		opt->guid_routing_order_file ? opt->guid_routing_order_file :
		"-");
	fprintf(fp, "root_guid_file %s\n", r->in.roots.num &&
		opt->root_guid_file ? opt->root_guid_file : "-");
	if (pe->ops->report.endport_index)
		fprintf(fp, "host_order ibunion-host-order.dump\n");
	fprintf(fp, "unrouted ibunion-unrouted.dump\n");
	if (pe->published_sl)
		fprintf(fp, "path_sl ibunion-path-sl.dump\n");
}

static int write_routing(struct ibu_plugin_engine *pe, FILE *fp, void *arg)
{
	struct ibu_plugin *ctx = arg;
	const struct osm_routing_engine *used = ctx->osm->routing_engine_used;

	fprintf(fp, "# OpenSM's last unicast routing, as libibunion.so %s saw it\n",
		IBU_PLUGIN_VERSION);
	fprintf(fp, "engine %s\n", used && used->name ? used->name : "none");
	fputs(ctx->declined, fp);
	if (pe)
		write_ours(pe, fp);
	return 0;
}

void ibu_plugin_publish_routing(struct ibu_plugin *ctx)
{
	const struct osm_routing_engine *used = ctx->osm->routing_engine_used;
	struct ibu_plugin_engine *ours = NULL;
	int i;

	for (i = 0; used && used->name && i < ctx->num_engines; i++)
		if (!strcmp(ctx->engines[i].ops->name, used->name) &&
		    ctx->engines[i].routing.valid)
			ours = &ctx->engines[i];
	publish_file(ours, ctx->osm, "ibunion-routing.dump", write_routing,
		     ctx);
	ctx->declined[0] = '\0';
}
