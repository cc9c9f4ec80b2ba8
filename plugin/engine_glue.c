/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The glue between OpenSM's osm_routing_engine_t and any engine of lib/
 * (struct ibu_engine_ops): converts the subnet, runs ibu_engine_run() and
 * has the engine write its tables straight into every switch's new_lft
 * (checked before OpenSM sends any of it; cleared again on failure).
 *
 * The engine runs in build_lid_matrices, before OpenSM would build its
 * all-pairs min-hop matrices: when it accepts the fabric we return 0 and
 * OpenSM skips them (nothing in OpenSM needs them once the engine has its
 * own mcast_build_stree: SA PathRecords walk the LFTs; only the hop
 * columns of opensm.fdbs read "HOPS UNKNOWN"); option lid_matrices=opensm
 * returns 1 instead, and OpenSM builds them as for its own engines. Any
 * failure is logged with its own code and returns a negative value, so
 * OpenSM falls back to the next engine of `routing_engine` (a positive
 * value would not), and that engine builds its own matrices.
 */
#undef HAVE_CONFIG_H
#include "plugin.h"
#include "guid_order.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ibu_plugin_routing_clear(struct ibu_plugin_engine *pe)
{
	struct ibu_plugin_routing *r = &pe->routing;
	unsigned long sweep = r->sweep;

	ibu_engine_result_free(&r->res);
	ibu_osm_map_free(&r->map);
	ibu_fabric_free(&r->fabric);
	ibu_plugin_inputs_free(&r->in);
	memset(r, 0, sizeof(*r));
	r->sweep = sweep;
}

static double elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* This thread's CPU time since *t0: what a loaded machine's wall clock
 * hides (the benchmarks compare it). */
static double cpu_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* OpenSM's guid_routing_order_file and root_guid_file, read every sweep
 * as the engines take them; a file that cannot be read is logged
 * (code, what happens instead) and not used. */
static void read_guid_file(struct ibu_plugin_engine *pe, const char *key,
			   const char *path, int code, const char *instead,
			   struct ibu_guid_order *out)
{
	struct ibu_err e = { 0 };

	memset(out, 0, sizeof(*out));
	if (!path || !*path)
		return;
	if (ibu_guid_order_read(path, out, &e))
		OSM_LOG(pe->plugin->log, OSM_LOG_INFO,
			"WRN %04X: %s: %s not used: %s; %s\n", code,
			pe->ops->name, key, e.msg, instead);
}

static void read_inputs(struct ibu_plugin_engine *pe,
			struct ibu_plugin_inputs *in)
{
	const osm_subn_opt_t *opt = &pe->plugin->osm->subn.opt;

	/* xy on a damaged mesh needs SL2VL tables: OpenSM programs them
	 * only with `qos TRUE`, and the VLs the switches hold */
	in->qos = opt->qos ? 1 : 0;
	in->max_vls = ibu_osm_max_data_vls(&pe->plugin->osm->subn);
	read_guid_file(pe, "guid_routing_order_file",
		       opt->guid_routing_order_file, 0x5A55,
		       "hosts numbered in the engine's own order", &in->order);
	read_guid_file(pe, "root_guid_file", opt->root_guid_file, 0x5A56,
		       "levels found from the graph alone", &in->roots);
}

static int guids_same(const struct ibu_guid_order *a,
		      const struct ibu_guid_order *b)
{
	return a->num == b->num &&
	       (!a->num || !memcmp(a->guid, b->guid,
				   (size_t)a->num * sizeof(*a->guid)));
}

void ibu_plugin_inputs_free(struct ibu_plugin_inputs *in)
{
	ibu_guid_order_free(&in->order);
	ibu_guid_order_free(&in->roots);
	memset(in, 0, sizeof(*in));
}

#define FALLBACK "falling back to the next routing engine"

/* Logs why the engine cannot route, one code per cause; returns -1. */
static int routing_failed(struct ibu_plugin_engine *pe, int reading,
			  enum ibu_engine_stage stage,
			  const struct ibu_engine_decline *decline,
			  const struct ibu_err *err)
{
	osm_log_t *log = pe->plugin->log;
	const char *name = pe->ops->name;
	const char *why = err->msg[0] ? err->msg : ibu_strerror(err->code);

	if (decline && (decline->kind == IBU_DECLINE_TOPOLOGY ||
			decline->kind == IBU_DECLINE_CONFIG)) {
		char text[IBU_ERR_MSG_LEN + 16];

		snprintf(text, sizeof(text), "fabric is %s", decline->text);
		ibu_plugin_note_decline(pe, text);
	} else {
		ibu_plugin_note_decline(pe, why);
	}
	if (err->code == IBU_ENOMEM)
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A04: %s: out of memory while %s; " FALLBACK "\n",
			name, reading ? "reading the subnet" :
			ibu_engine_stage_name(stage));
	else if (reading)
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A02: %s: cannot read the subnet: %s; " FALLBACK
			"\n", name, why);
	else if (decline && (decline->kind == IBU_DECLINE_TOPOLOGY ||
			     decline->kind == IBU_DECLINE_CONFIG))
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A01: %s: fabric is %s; " FALLBACK "\n",
			name, decline->text);
	else if (stage == IBU_STAGE_RECOGNISE)
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A09: %s: topology recognition failed (%s): %s; "
			FALLBACK "\n", name, ibu_strerror(err->code), why);
	else if (stage == IBU_STAGE_PLAN)
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A03: %s: the LIDs OpenSM assigned cannot be used: "
			"%s; " FALLBACK "\n", name, why);
	else if (stage == IBU_STAGE_CHECK)
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A08: %s: incomplete tables: %s; " FALLBACK "\n",
			name, why);
	else
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A05: %s: %s failed (%s): %s; " FALLBACK "\n",
			name, ibu_engine_stage_name(stage),
			ibu_strerror(err->code), why);
	return -1;
}

static void log_labels(struct ibu_plugin_engine *pe)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	char label[64];
	int i;

	if (!pe->ops->report.node_label ||
	    !osm_log_is_active(pe->plugin->log, OSM_LOG_DEBUG))
		return;
	for (i = 0; i < r->fabric.num_nodes; i++) {
		const struct ibu_node *n = &r->fabric.nodes[i];

		if (!ibu_node_is_switch(n))
			continue;
		pe->ops->report.node_label(r->res.topo, i, label, sizeof(label));
		OSM_LOG(pe->plugin->log, OSM_LOG_DEBUG,
			"%s: switch 0x%016" PRIx64 " '%s' is %s\n",
			pe->ops->name, n->guid, n->name, label);
	}
}

/*
 * OpenSM's new_lft of every switch, for the engine to write into: no copy
 * of ours. OpenSM sized each to its LID top rounded up to a block
 * (lft_size). Returns 0, or -1 (logged) when a switch has none.
 */
static int osm_table_rows(struct ibu_plugin_engine *pe, uint8_t ***rows,
			  uint32_t **cap)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	size_t n = r->fabric.num_nodes > 0 ? (size_t)r->fabric.num_nodes : 1;
	int i;

	*rows = calloc(n, sizeof(**rows));
	*cap = calloc(n, sizeof(**cap));
	if (!*rows || !*cap) {
		free(*rows);
		free(*cap);
		OSM_LOG(pe->plugin->log, OSM_LOG_ERROR,
			"ERR 5A04: %s: out of memory while reading the subnet; "
			FALLBACK "\n", pe->ops->name);
		return -1;
	}
	for (i = 0; i < r->fabric.num_nodes; i++) {
		const struct ibu_node *nd = &r->fabric.nodes[i];
		osm_switch_t *sw = r->map.sw[i];

		if (!ibu_node_is_switch(nd))
			continue;
		if (!sw || !sw->new_lft) {
			OSM_LOG(pe->plugin->log, OSM_LOG_ERROR,
				"ERR 5A06: %s: switch '%s' (0x%016" PRIx64
				") has no forwarding table to fill; " FALLBACK
				"\n", pe->ops->name, nd->name, nd->guid);
			free(*rows);
			free(*cap);
			return -1;
		}
		(*rows)[i] = sw->new_lft;
		(*cap)[i] = sw->lft_size;
	}
	return 0;
}

/* After a failure: new_lft as OpenSM handed it over (all OSM_NO_PATH),
 * so the next engine of `routing_engine` starts clean. */
static void clear_osm_tables(struct ibu_plugin_engine *pe)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	int i;

	for (i = 0; i < r->fabric.num_nodes && i < r->map.num_nodes; i++) {
		osm_switch_t *sw = r->map.sw[i];

		if (sw && sw->new_lft)
			memset(sw->new_lft, OSM_NO_PATH, sw->lft_size);
	}
}

/*
 * What lib/ cannot know: OpenSM's own switch objects. Every port exists
 * on the OpenSM switch and no routed LID is beyond the table OpenSM
 * sized; past our LID top, new_lft stays OSM_NO_PATH (an engine listed
 * before us may have failed halfway through writing). Returns 0 or -1
 * (logged).
 */
static int check_osm_tables(struct ibu_plugin_engine *pe)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	const struct ibu_lft *lft = &r->res.lft;
	osm_log_t *log = pe->plugin->log;
	const char *name = pe->ops->name;
	uint32_t lid;
	int i;

	for (i = 0; i < r->fabric.num_nodes; i++) {
		const struct ibu_node *n = &r->fabric.nodes[i];
		osm_switch_t *sw = r->map.sw[i];
		uint32_t from;

		if (!ibu_node_is_switch(n))
			continue;
		/* lib/ checked ports against n->num_ports, read from the
		 * same node: rescan only when OpenSM's switch differs */
		from = n->num_ports + 1 == sw->num_ports ?
		       sw->max_lid_ho + 1u : 1u;
		for (lid = from; lid <= lft->max_lid; lid++) {
			uint8_t port = lft->row[i][lid];

			if (port == IBU_NO_PATH)
				continue;
			/* osm_switch_t.num_ports counts port 0 */
			if (port >= sw->num_ports) {
				OSM_LOG(log, OSM_LOG_ERROR,
					"ERR 5A07: %s: switch '%s' (0x%016"
					PRIx64 ") would forward LID %u to port "
					"%u of %u; " FALLBACK "\n", name,
					n->name, n->guid, lid, port,
					sw->num_ports - 1u);
				return -1;
			}
			if (lid > sw->max_lid_ho) {
				OSM_LOG(log, OSM_LOG_ERROR,
					"ERR 5A0A: %s: LID %u is beyond the "
					"table OpenSM sized for switch '%s' "
					"(top %u); " FALLBACK "\n", name, lid,
					n->name, sw->max_lid_ho);
				return -1;
			}
		}
		if (sw->lft_size > lft->max_lid + 1u)
			memset(sw->new_lft + lft->max_lid + 1, OSM_NO_PATH,
			       sw->lft_size - lft->max_lid - 1u);
	}
	return 0;
}

/* The log code of a warning note, by kind (WRN 5A50-5A53). */
static int note_code(enum ibu_engine_note_kind kind)
{
	switch (kind) {
	case IBU_NOTE_FAULT: return 0x5A50;
	case IBU_NOTE_FAULTS: return 0x5A51;
	case IBU_NOTE_UNROUTED: return 0x5A52;
	case IBU_NOTE_INFO: break;
	}
	return 0x5A53;
}

/* The engine's notes as it worded them: warnings at INFO with their
 * code (admins grep WRN), the rest at VERBOSE. */
static void log_notes(struct ibu_plugin_engine *pe)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	struct ibu_engine_note note;
	int i, n;

	if (!pe->ops->num_notes || !pe->ops->note)
		return;
	n = pe->ops->num_notes(r->res.topo);
	for (i = 0; i < n; i++) {
		memset(&note, 0, sizeof(note));
		pe->ops->note(&r->fabric, r->res.topo, i, &note);
		if (note.severity == IBU_NOTE_SEV_WARNING)
			OSM_LOG(pe->plugin->log, OSM_LOG_INFO,
				"WRN %04X: %s: %s\n", note_code(note.kind),
				pe->ops->name, note.text);
		else
			OSM_LOG(pe->plugin->log, OSM_LOG_VERBOSE, "%s: %s\n",
				pe->ops->name, note.text);
	}
}

/* Bytes in use on the heap: its growth over the callback is what we keep
 * (model + tables), reported apart from opensm's own peak RSS. Only for
 * the VERBOSE split line that prints it (measure): mallinfo2() walks every
 * free chunk of opensm's heap, some 1.4 ms a call under IBFT(24,3). */
static size_t heap_in_use(int measure)
{
	struct mallinfo2 mi;

	if (!measure)
		return 0;
	mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

/* One VERBOSE line: where the callback's time went. */
static void log_split(struct ibu_plugin_engine *pe)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	const double *st = r->res.stage_ms;

	OSM_LOG(pe->plugin->log, OSM_LOG_VERBOSE,
		"%s: callback split ms: read %.3f recognise %.3f plan %.3f "
		"alloc %.3f route %.3f check %.3f osm-check %.3f (written in "
		"place%s); cpu %.3f ms; own memory %.2f MiB\n", pe->ops->name,
		r->read_ms, st[IBU_STAGE_RECOGNISE], st[IBU_STAGE_PLAN],
		st[IBU_STAGE_ALLOC], st[IBU_STAGE_ROUTE], st[IBU_STAGE_CHECK],
		r->osm_check_ms, r->reused ? ", model reused" : "", r->cpu_ms,
		(double)r->own_bytes / (1024.0 * 1024.0));
}

/*
 * The model of the last routing serves again when the subnet, the
 * options OpenSM feeds the engine and the host order are all unchanged
 * (a periodic heavy sweep, a SIGHUP with nothing new): recognition and
 * the LID plan are skipped, the tables are routed again into the new
 * new_lft. next/next_map: the subnet just read.
 */
static int model_reusable(const struct ibu_plugin_engine *pe,
			  const struct ibu_fabric *next,
			  const struct ibu_plugin_inputs *in)
{
	const struct ibu_plugin_routing *r = &pe->routing;

	return r->res.topo && pe->plugin->opts.reuse_model &&
	       r->in.qos == in->qos && r->in.max_vls == in->max_vls &&
	       guids_same(&r->in.order, &in->order) &&
	       guids_same(&r->in.roots, &in->roots) &&
	       ibu_fabric_same(&r->fabric, next);
}

/* Takes the subnet just read: as the model's fabric (after the last
 * routing's state is dropped), or only its OpenSM objects when the model
 * is reused. Returns 1 when reused. */
static int adopt_subnet(struct ibu_plugin_engine *pe, struct ibu_fabric *next,
			struct ibu_osm_map *next_map,
			struct ibu_plugin_inputs *in)
{
	struct ibu_plugin_routing *r = &pe->routing;
	int reuse = model_reusable(pe, next, in);

	r->valid = 0;
	if (reuse) {
		ibu_fabric_free(next);
		ibu_plugin_inputs_free(in);
	} else {
		ibu_plugin_routing_clear(pe);
		r->fabric = *next;
		r->in = *in;
	}
	ibu_osm_map_free(&r->map);
	r->map = *next_map;
	memset(next, 0, sizeof(*next));
	memset(next_map, 0, sizeof(*next_map));
	memset(in, 0, sizeof(*in));
	r->reused = reuse;
	return reuse;
}

/* The engine's stages into OpenSM's new_lft: all of them, or from the
 * allocation on with a reused model. */
static int run_engine(struct ibu_plugin_engine *pe, int reuse,
		      struct ibu_err *err)
{
	struct ibu_plugin_routing *r = &pe->routing;
	struct ibu_engine_opts *o = &pe->plugin->opts.engine;
	uint8_t **rows;
	uint32_t *cap;
	int rc;

	if (osm_table_rows(pe, &rows, &cap)) {
		ibu_plugin_routing_clear(pe);
		return -1;
	}
	o->host_order = r->in.order.num ? r->in.order.guid : NULL;
	o->num_host_order = r->in.order.num;
	o->roots = r->in.roots.num ? r->in.roots.guid : NULL;
	o->num_roots = r->in.roots.num;
	o->qos = r->in.qos;
	o->max_vls = r->in.max_vls;
	rc = reuse ? ibu_engine_rerun_into(&r->fabric, o, rows, cap, &r->res,
					   err) :
		     ibu_engine_run_into(pe->ops, &r->fabric, o, rows, cap,
					 &r->res, err);
	/* the engine copied what it needs; the files are read every sweep */
	o->host_order = o->roots = NULL;
	o->num_host_order = o->num_roots = 0;
	free(rows);
	free(cap);
	if (rc) {
		enum ibu_engine_stage st = r->res.stage;
		struct ibu_engine_decline d = r->res.decline;

		clear_osm_tables(pe);
		ibu_plugin_routing_clear(pe);
		if (!err->code)
			err->code = rc;
		return routing_failed(pe, 0, st, &d, err);
	}
	return 0;
}

/* build_lid_matrices: read, recognise, plan, route, check. */
static int engine_compute(void *context)
{
	struct ibu_plugin_engine *pe = context;
	struct ibu_plugin *ctx = pe->plugin;
	struct ibu_plugin_routing *r = &pe->routing;
	struct ibu_fabric next;
	struct ibu_osm_map next_map;
	struct ibu_err err;
	struct timespec t0, t1, c0;
	struct ibu_plugin_inputs in;
	int measure = osm_log_is_active(ctx->log, OSM_LOG_VERBOSE);
	size_t heap0 = heap_in_use(measure), own = r->own_bytes;
	double read_ms;
	int rc, reuse;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	ibu_err_clear(&err);
	rc = ibu_osm_fabric_build(&ctx->osm->subn, &next, &next_map, &err);
	read_ms = elapsed_ms(&t0);
	if (rc) {
		ibu_plugin_routing_clear(pe);
		if (!err.code)
			err.code = rc;
		return routing_failed(pe, 1, IBU_STAGE_RECOGNISE, NULL, &err);
	}
	read_inputs(pe, &in);
	reuse = adopt_subnet(pe, &next, &next_map, &in);
	r->read_ms = read_ms;	/* adopt_subnet may clear the last state */
	if (reuse)
		OSM_LOG(ctx->log, OSM_LOG_VERBOSE,
			"%s: subnet unchanged since the last routing: its model is reused (recognition and LID plan skipped)\n",
			pe->ops->name);
	else
		heap0 = heap_in_use(measure);
	if (run_engine(pe, reuse, &err))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (check_osm_tables(pe)) {
		clear_osm_tables(pe);
		ibu_plugin_routing_clear(pe);
		return -1;
	}
	r->osm_check_ms = elapsed_ms(&t1);
	{
		size_t heap1 = heap_in_use(measure);

		/* a reused model is still the memory counted when built */
		r->own_bytes = reuse ? own : heap1 > heap0 ? heap1 - heap0 : 0;
	}
	log_notes(pe);
	if (ctx->opts.verbose)
		log_labels(pe);
	r->route_ms = elapsed_ms(&t0);
	r->cpu_ms = cpu_ms(&c0);
	/* 0: OpenSM skips its min-hop matrices; 1: it builds them */
	return ctx->opts.lid_matrices;
}

static int engine_build_fwd_tables(void *context)
{
	struct ibu_plugin_engine *pe = context;
	struct ibu_plugin_routing *r = &pe->routing;
	char what[1024];	/* a degraded tree's summary is long */

	if (!r->res.topo) {
		OSM_LOG(pe->plugin->log, OSM_LOG_ERROR,
			"ERR 5A0B: %s: no tables were computed for this sweep; "
			FALLBACK "\n", pe->ops->name);
		return -1;
	}
	/* the tables are in new_lft already (engine_compute) */
	r->valid = 1;
	r->sweep++;
	log_split(pe);
	pe->ops->describe(&r->fabric, r->res.topo, what, sizeof(what));
	OSM_LOG(pe->plugin->log, OSM_LOG_INFO, "%s: %s, routed in %.3f ms\n",
		pe->ops->name, what, r->route_ms);
	ibu_plugin_write_host_order(pe);
	ibu_plugin_publish_tables(pe);
	return 0;
}

static void engine_destroy(void *context)
{
	struct ibu_plugin_engine *pe = context;

	/* The plugin's delete() runs after this and owns pe. */
	OSM_LOG(pe->plugin->log, OSM_LOG_VERBOSE,
		"%s: routing engine destroyed after %lu routings\n",
		pe->ops->name, pe->routing.sweep);
}

int ibu_engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	struct ibu_plugin_engine *pe = re->context;

	if (!pe)
		return -1;
	re->build_lid_matrices = engine_compute;
	re->ucast_build_fwd_tables = engine_build_fwd_tables;
	re->ucast_dump_tables = NULL;
	re->update_vlarb = NULL;
	ibu_vl_setup(re, pe, osm);
	re->mcast_build_stree = pe->ops->mcast.tree ? ibu_mcast_build_stree :
						      NULL;
	re->destroy = engine_destroy;
	OSM_LOG(&osm->log, OSM_LOG_VERBOSE,
		"%s: routing engine set up (mcast_apex=%s)\n", pe->ops->name,
		ibu_mcast_policy_name(pe->plugin->opts.engine.mcast_policy));
	return 0;
}
