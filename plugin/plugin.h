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
 *             options, registers every engine of lib's ibu_engine_list()
 *             ("cyclic", "xy", ...) with its own struct ibu_plugin_engine
 *             as context;
 *   setup (engine_glue.c) fills the osm_routing_engine_t of an engine that
 *             `routing_engine` names;
 *   build_lid_matrices runs the engine (lib's ibu_engine_run: recognise,
 *             plan, route, check) and, when it accepts the fabric, tells
 *             OpenSM not to build its min-hop matrices (option
 *             lid_matrices=opensm keeps them); a fabric the engine cannot
 *             route is logged and returned as an error, so OpenSM moves
 *             on to the next engine (which builds its own matrices);
 *   ucast_build_fwd_tables writes the checked tables into new_lft;
 *   mcast_build_stree (mcast_engine.c) per MLID from the kept state;
 *   engine destroy() runs first at exit and frees nothing;
 *   delete()  (ibunion_plugin.c) frees every engine's state and the context.
 * OpenSM objects are reached through ibu_osm_node()/ibu_osm_switch(),
 * which re-validate the cached pointers by GUID.
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

#include "atomicfile.h"
#include "fabric.h"
#include "engine.h"
#include "guid_order.h"
#include "options.h"


/* fabric node index <-> OpenSM objects, valid for one routing sweep */
struct ibu_osm_map {
	int num_nodes;
	osm_node_t **node;	/* [fabric node] OpenSM node */
	osm_switch_t **sw;	/* [fabric node] OpenSM switch, NULL for CAs */
};

/* What OpenSM feeds an engine besides the subnet, read every sweep. */
struct ibu_plugin_inputs {
	int qos, max_vls;		/* `qos TRUE`, the switches' data VLs */
	struct ibu_guid_order order;	/* guid_routing_order_file's hosts */
	struct ibu_guid_order roots;	/* root_guid_file's top switches */
};
void ibu_plugin_inputs_free(struct ibu_plugin_inputs *in);

/* What the last successful routing of one engine computed. */
struct ibu_plugin_routing {
	int valid;		/* 1 after a successful ucast routing */
	unsigned long sweep;	/* successful routings so far (1 = first) */
	struct ibu_fabric fabric;
	struct ibu_osm_map map;
	struct ibu_engine_result res;	/* topology, LID map, LFTs */
	double route_ms;	/* time of the last routing */
	/* its split: reading the subnet, OpenSM's own table check (the
	 * stages are in res.stage_ms; the tables are written in place) */
	double read_ms, osm_check_ms;
	double cpu_ms;		/* the callback's CPU time (this thread) */
	size_t own_bytes;	/* heap we keep after the callback */
	/* what the model was built with besides the fabric (it is reused
	 * while all of it stays the same) */
	struct ibu_plugin_inputs in;
	int reused;		/* the last routing reused the model */
};

struct ibu_plugin;

/* One registered engine: the context OpenSM hands to its callbacks. */
struct ibu_plugin_engine {
	struct ibu_plugin *plugin;
	const struct ibu_engine_ops *ops;
	struct ibu_plugin_routing routing;
	void *mcast_state;		/* ops->mcast.state_new, per routing */
	unsigned long mcast_sweep;	/* routing the state belongs to */
	int published_sl;		/* ibunion-path-sl.dump is this
					 * routing's */
};

struct ibu_plugin {
	osm_opensm_t *osm;
	osm_log_t *log;
	struct ibu_plugin_opts opts;
	int num_engines;
	struct ibu_plugin_engine *engines;
	/* "declined ENGINE: why" lines of this sweep's routing, for
	 * ibunion-routing.dump (publish.c) */
	char declined[2 * IBU_ERR_MSG_LEN];
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
osm_node_t *ibu_osm_node(const struct ibu_plugin_engine *pe, int idx);
osm_switch_t *ibu_osm_switch(const struct ibu_plugin_engine *pe, int idx);

/* ---- engine_glue.c ---- */

/* external_routing_engine_module_t.setup of every engine. */
int ibu_engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm);
/* Frees an engine's routing state and marks it invalid. */
void ibu_plugin_routing_clear(struct ibu_plugin_engine *pe);

/* How the plugin writes its files into OpenSM's dump directory, which
 * others may be able to write to: always a new file renamed over the
 * name (a planted link or FIFO is replaced, never opened), and no fsync()
 * (an OpenSM sweep must not wait on the disk; a reader never sees a
 * partial file all the same). */
#define IBU_PLUGIN_DUMP_FLAGS (IBU_ATOMICFILE_STRICT | IBU_ATOMICFILE_NOSYNC)

/* ---- host_order.c: ibunion-host-order.dump after each routing ---- */
void ibu_plugin_write_host_order(struct ibu_plugin_engine *pe);

/* ---- publish.c: what the plugin did, in OpenSM's dump directory ---- */
/* Why an engine of ours declined this sweep (its log line's text). */
void ibu_plugin_note_decline(struct ibu_plugin_engine *pe, const char *why);
/* After ucast_build_fwd_tables: ibunion-unrouted.dump, ibunion-path-sl.dump. */
void ibu_plugin_publish_tables(struct ibu_plugin_engine *pe);
/* On OSM_EVENT_ID_UCAST_ROUTING_DONE: ibunion-routing.dump. */
void ibu_plugin_publish_routing(struct ibu_plugin *ctx);

/* ---- osm_vl.c: path_sl / update_sl2vl of engines with a VL plan ---- */
void ibu_vl_setup(struct osm_routing_engine *re, struct ibu_plugin_engine *pe,
		  osm_opensm_t *osm);
/* Data VLs every link of a switch can carry, HCA links included (an SL's
 * VL must exist on the source's own link): the smallest VLCap of either
 * end, capped by max_op_vls (1, 2, 4, 8 or 15; 15 when no port says). */
int ibu_osm_max_data_vls(osm_subn_t *subn);

/* ---- mcast_engine.c: mcast_build_stree of every engine ---- */
ib_api_status_t ibu_mcast_build_stree(void *context, osm_mgrp_box_t *mgb);
/* Frees an engine's multicast state. */
void ibu_mcast_state_clear(struct ibu_plugin_engine *pe);

#endif
