/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * State shared by the files of the OpenSM plugin libibunion.so.
 *
 * Every plugin .c file starts with `#undef HAVE_CONFIG_H` and includes this
 * header before anything else: OpenSM's osm_base.h would otherwise include
 * our config.h, and opensm/osm_config.h must be seen before osm_opensm.h
 * (it defines ENABLE_OSM_PERF_MGR, which changes the layout of
 * osm_opensm_t; a wrong layout crashes opensm at the first OSM_LOG).
 *
 * Life cycle (OpenSM 3.3.x):
 *   create()  (ibunion_plugin.c)  allocates struct ibu_plugin, parses the
 *             options, registers the routing engine "cyclic";
 *   ibu_cyclic_setup() (cyclic_engine.c) fills the osm_routing_engine_t
 *             when `routing_engine cyclic` names it; re->context is the
 *             struct ibu_plugin;
 *   ucast_build_fwd_tables, once per (re)route, replaces ctx->routing;
 *   engine destroy() runs first at exit and frees nothing;
 *   delete()  (ibunion_plugin.c) frees the routing state and the context.
 *
 * Multicast hook (mcast engine, plugin/mcast_engine.c): set
 *   re->mcast_build_stree = ibu_mcast_build_stree;
 * in ibu_cyclic_setup() (the one marked line), declare it below, and keep
 * any private state in ctx->mcast_priv with its destructor in
 * ctx->mcast_priv_free (called by delete()). OpenSM only calls
 * mcast_build_stree when `cyclic` is the engine in use, i.e. after the
 * last ucast routing succeeded, so ctx->routing.valid is then normally 1;
 * still check it, and reach OpenSM objects through ibu_osm_node()/
 * ibu_osm_switch(), which re-validate the cached pointers by GUID.
 * Everything runs under OpenSM's exclusive lock: no locking here.
 */
#ifndef IBU_PLUGIN_H
#define IBU_PLUGIN_H

#ifdef HAVE_CONFIG_H
#error "#undef HAVE_CONFIG_H before including plugin.h (see the comment above)"
#endif

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>

#include "fabric.h"
#include "ibft.h"
#include "lidplan.h"
#include "options.h"

#define IBU_ENGINE_NAME "cyclic"

/* fabric node index <-> OpenSM objects, valid for one routing sweep */
struct ibu_osm_map {
	int num_nodes;
	osm_node_t **node;	/* [fabric node] OpenSM node */
	osm_switch_t **sw;	/* [fabric node] OpenSM switch, NULL for CAs */
};

/* What the last successful cyclic routing computed; reused by multicast. */
struct ibu_plugin_routing {
	int valid;		/* 1 after a successful ucast routing */
	unsigned long sweep;	/* successful routings so far (1 = first) */
	struct ibu_fabric fabric;
	struct ibu_ibft ibft;
	struct ibu_lidplan plan;
	struct ibu_osm_map map;
	double route_ms;	/* time of the last ucast callback */
};

struct ibu_plugin {
	osm_opensm_t *osm;
	osm_log_t *log;
	struct ibu_plugin_opts opts;
	struct ibu_plugin_routing routing;
	void *mcast_priv;			/* owned by the mcast engine */
	void (*mcast_priv_free)(void *priv);	/* called by delete() */
};

/* ---- osm_fabric.c: osm_subn_t -> struct ibu_fabric ---- */

/*
 * Builds f (one node per osm_node_t, ports, peer links, GUIDs, base LID +
 * LMC of every CA port and switch port 0, node description as name) and
 * map. On failure everything built so far is freed.
 */
int ibu_osm_fabric_build(osm_subn_t *subn, struct ibu_fabric *f,
			 struct ibu_osm_map *map, struct ibu_err *e);
void ibu_osm_map_free(struct ibu_osm_map *map);
/* Fabric node index of an OpenSM node (by node GUID); -1 if unknown. */
int ibu_osm_node_index(const struct ibu_fabric *f, const osm_node_t *node);
/*
 * The OpenSM node / switch of fabric node idx, or NULL when idx is out of
 * range or the object is no longer in the subnet (looked up by GUID, so a
 * node dropped since the last routing is never returned).
 */
osm_node_t *ibu_osm_node(const struct ibu_plugin *ctx, int idx);
osm_switch_t *ibu_osm_switch(const struct ibu_plugin *ctx, int idx);

/* ---- cyclic_engine.c ---- */

/* external_routing_engine_module_t.setup for the engine "cyclic". */
int ibu_cyclic_setup(struct osm_routing_engine *re, osm_opensm_t *osm);
/* Frees ctx->routing and marks it invalid. */
void ibu_plugin_routing_clear(struct ibu_plugin *ctx);

/* ---- mcast_engine.c (owner: mcast): mcast_build_stree of "cyclic" ---- */
ib_api_status_t ibu_mcast_build_stree(void *context, osm_mgrp_box_t *mgb);

#endif
