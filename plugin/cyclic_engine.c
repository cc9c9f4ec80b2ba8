/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The OpenSM routing engine "cyclic": converts the subnet, recognises the
 * IBFT(m,n), plans the LIDs OpenSM assigned, computes the cyclic LFTs in
 * lib/ and writes them into every switch's new_lft. Any failure is logged
 * with its own code and returns a negative value, so OpenSM falls back to
 * the next engine of `routing_engine` (a positive value would not).
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cyclic.h"
#include "lft.h"

void ibu_plugin_routing_clear(struct ibu_plugin *ctx)
{
	struct ibu_plugin_routing *r = &ctx->routing;
	unsigned long sweep = r->sweep;

	ibu_lidplan_free(&r->plan);
	ibu_ibft_free(&r->ibft);
	ibu_osm_map_free(&r->map);
	ibu_fabric_free(&r->fabric);
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

enum step {
	STEP_READ,
	STEP_RECOGNISE,
	STEP_PLAN,
	STEP_ALLOC,
	STEP_ROUTE,
};

static const char *const step_names[] = {
	[STEP_READ] = "reading the subnet",
	[STEP_RECOGNISE] = "recognising the fat tree",
	[STEP_PLAN] = "planning the LIDs",
	[STEP_ALLOC] = "allocating the forwarding tables",
	[STEP_ROUTE] = "computing the cyclic routes",
};

#define TOPO_PREFIX "not an IBFT(m,n): "

/* Logs why a step failed, one code per message; returns -1 (fall back). */
static int cyclic_ucast_failed(struct ibu_plugin *ctx, enum step step,
			       const struct ibu_err *err)
{
	osm_log_t *log = ctx->log;
	const char *why = err->msg[0] ? err->msg : ibu_strerror(err->code);

	if (err->code == IBU_ENOMEM) {
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A04: cyclic: out of memory while %s; "
			"falling back to the next routing engine\n",
			step_names[step]);
		return -1;
	}
	switch (step) {
	case STEP_READ:
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A02: cyclic: cannot read the subnet: %s; "
			"falling back to the next routing engine\n", why);
		break;
	case STEP_RECOGNISE:
		if (!strncmp(why, TOPO_PREFIX, strlen(TOPO_PREFIX)))
			why += strlen(TOPO_PREFIX);	/* said below */
		if (err->code == IBU_ETOPO)
			OSM_LOG(log, OSM_LOG_ERROR,
				"ERR 5A01: cyclic: fabric is not an IBFT(m,n): "
				"%s; falling back to the next routing engine\n",
				why);
		else
			OSM_LOG(log, OSM_LOG_ERROR,
				"ERR 5A09: cyclic: fat-tree recognition failed "
				"(%s): %s; falling back to the next routing "
				"engine\n", ibu_strerror(err->code), why);
		break;
	case STEP_PLAN:
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A03: cyclic: the LIDs OpenSM assigned cannot be "
			"used: %s; falling back to the next routing engine\n",
			why);
		break;
	case STEP_ALLOC:
	case STEP_ROUTE:
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A05: cyclic: %s failed (%s): %s; "
			"falling back to the next routing engine\n",
			step_names[step], ibu_strerror(err->code), why);
		break;
	}
	return -1;
}

static void log_labels(struct ibu_plugin *ctx)
{
	const struct ibu_plugin_routing *r = &ctx->routing;
	char label[64];
	int s;

	if (!osm_log_is_active(ctx->log, OSM_LOG_DEBUG))
		return;
	for (s = 0; s < r->ibft.num_switches; s++) {
		const struct ibu_node *n = &r->fabric.nodes[r->ibft.sw[s].node];

		ibu_ibft_sw_label(&r->ibft, s, label, sizeof(label));
		OSM_LOG(ctx->log, OSM_LOG_DEBUG,
			"cyclic: switch 0x%016" PRIx64 " '%s' is %s (level %d)\n",
			n->guid, n->name, label, r->ibft.sw[s].level);
	}
}

/*
 * Checks the computed tables against what OpenSM can take, before a single
 * new_lft entry is touched: every switch has a table, every port exists,
 * and every LID that belongs to a port is routed. Returns 0 or -1 (logged).
 */
static int check_tables(struct ibu_plugin *ctx, const struct ibu_lft *lft)
{
	const struct ibu_plugin_routing *r = &ctx->routing;
	uint32_t lid;
	int i;

	for (i = 0; i < r->fabric.num_nodes; i++) {
		const struct ibu_node *n = &r->fabric.nodes[i];
		osm_switch_t *sw = r->map.sw[i];

		if (!ibu_node_is_switch(n))
			continue;
		if (!sw || !sw->new_lft || !lft->row[i]) {
			OSM_LOG(ctx->log, OSM_LOG_ERROR,
				"ERR 5A06: cyclic: switch '%s' (0x%016" PRIx64
				") has no forwarding table to fill; falling "
				"back to the next routing engine\n",
				n->name, n->guid);
			return -1;
		}
		for (lid = 1; lid <= lft->max_lid; lid++) {
			uint8_t port = lft->row[i][lid];
			const struct ibu_lid_owner *o =
				lid <= r->plan.map.max_lid ? &r->plan.map.owner[lid] : NULL;

			/* osm_switch_t.num_ports counts port 0 */
			if (port != IBU_NO_PATH && port >= sw->num_ports) {
				OSM_LOG(ctx->log, OSM_LOG_ERROR,
					"ERR 5A07: cyclic: switch '%s' (0x%016"
					PRIx64 ") would forward LID %u to port %u "
					"of %u; falling back to the next routing "
					"engine\n", n->name, n->guid, lid, port,
					sw->num_ports - 1u);
				return -1;
			}
			if (port == IBU_NO_PATH && o && o->node >= 0) {
				OSM_LOG(ctx->log, OSM_LOG_ERROR,
					"ERR 5A08: cyclic: switch '%s' (0x%016"
					PRIx64 ") has no route to LID %u of '%s'; "
					"falling back to the next routing "
					"engine\n", n->name, n->guid, lid,
					r->fabric.nodes[o->node].name);
				return -1;
			}
			if (lid > sw->max_lid_ho && port != IBU_NO_PATH) {
				OSM_LOG(ctx->log, OSM_LOG_ERROR,
					"ERR 5A0A: cyclic: LID %u is beyond the "
					"table OpenSM sized for switch '%s' "
					"(top %u); falling back to the next "
					"routing engine\n", lid, n->name,
					sw->max_lid_ho);
				return -1;
			}
		}
	}
	return 0;
}

static void write_tables(struct ibu_plugin *ctx, const struct ibu_lft *lft)
{
	const struct ibu_plugin_routing *r = &ctx->routing;
	uint32_t lid, top;
	int i;

	for (i = 0; i < r->fabric.num_nodes; i++) {
		osm_switch_t *sw = r->map.sw[i];

		if (!ibu_node_is_switch(&r->fabric.nodes[i]))
			continue;
		/* OpenSM did this already; an engine listed before us may
		 * have failed halfway through writing. */
		memset(sw->new_lft, OSM_NO_PATH, sw->max_lid_ho + 1u);
		top = lft->max_lid < sw->max_lid_ho ? lft->max_lid :
						      sw->max_lid_ho;
		for (lid = 1; lid <= top; lid++)
			sw->new_lft[lid] = lft->row[i][lid];
	}
}

static int cyclic_ucast_build_fwd_tables(void *context)
{
	struct ibu_plugin *ctx = context;
	struct ibu_plugin_routing *r = &ctx->routing;
	struct ibu_lft lft;
	struct ibu_err err;
	struct timespec t0;
	enum step step;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&lft, 0, sizeof(lft));
	ibu_err_clear(&err);
	ibu_plugin_routing_clear(ctx);	/* the last sweep's state is stale */

	step = STEP_READ;
	rc = ibu_osm_fabric_build(&ctx->osm->subn, &r->fabric, &r->map, &err);
	if (rc)
		goto out;
	step = STEP_RECOGNISE;
	rc = ibu_ibft_recognize(&r->fabric, &r->ibft, &err);
	if (rc)
		goto out;
	if (ctx->opts.verbose)
		log_labels(ctx);
	step = STEP_PLAN;
	rc = ibu_lidplan_build(&r->fabric, &r->ibft, &r->plan, &err);
	if (rc)
		goto out;
	step = STEP_ALLOC;
	rc = ibu_lft_init(&lft, &r->fabric, r->plan.map.max_lid, &err);
	if (rc)
		goto out;
	step = STEP_ROUTE;
	rc = ibu_cyclic_route(&r->fabric, &r->ibft, &r->plan, &lft, &err);
	if (rc)
		goto out;
	if (check_tables(ctx, &lft)) {
		ibu_lft_free(&lft);
		ibu_plugin_routing_clear(ctx);
		return -1;
	}
	write_tables(ctx, &lft);
	ibu_lft_free(&lft);

	r->valid = 1;
	r->sweep++;
	r->route_ms = elapsed_ms(&t0);
	if (r->plan.lmc < r->plan.lmc_needed)
		OSM_LOG(ctx->log, OSM_LOG_INFO,
			"cyclic: LMC %d is below the %d the paper needs: "
			"up-digits beyond offset come from the destination "
			"(D-mod-k) (%d of %d up-digits from the LID offset)\n",
			r->plan.lmc, r->plan.lmc_needed,
			r->plan.offset_digits, r->ibft.n - 1);
	OSM_LOG(ctx->log, OSM_LOG_INFO,
		"cyclic: IBFT(%d,%d): %d switches, %d end ports, LMC in use %d "
		"(paper needs %d), routed in %.3f ms\n",
		r->ibft.m, r->ibft.n, r->ibft.num_switches,
		r->ibft.num_endports, r->plan.lmc, r->plan.lmc_needed,
		r->route_ms);
	return 0;
out:
	ibu_lft_free(&lft);
	ibu_plugin_routing_clear(ctx);
	if (!err.code)
		err.code = rc;
	return cyclic_ucast_failed(ctx, step, &err);
}

static void cyclic_destroy(void *context)
{
	struct ibu_plugin *ctx = context;

	/* The plugin's delete() runs after this and owns ctx. */
	OSM_LOG(ctx->log, OSM_LOG_VERBOSE,
		"cyclic: routing engine destroyed after %lu routings\n",
		ctx->routing.sweep);
}

int ibu_cyclic_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	struct ibu_plugin *ctx = re->context;

	if (!ctx)
		return -1;
	re->build_lid_matrices = NULL;	/* OpenSM builds min-hop matrices */
	re->ucast_build_fwd_tables = cyclic_ucast_build_fwd_tables;
	re->ucast_dump_tables = NULL;
	re->update_sl2vl = NULL;
	re->update_vlarb = NULL;
	re->path_sl = NULL;
	re->mcast_build_stree = ibu_mcast_build_stree;
	re->destroy = cyclic_destroy;
	OSM_LOG(&osm->log, OSM_LOG_VERBOSE,
		"cyclic: routing engine set up (mcast_apex=%s)\n",
		ibu_plugin_apex_name(ctx->opts.mcast_apex));
	return 0;
}
