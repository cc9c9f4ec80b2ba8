/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast for every engine with trees (ops->mcast.tree): OpenSM's
 * mcast_build_stree, per MLID.
 *
 * OpenSM has already cleared the MLID on every switch (so switches that
 * left the tree lose their entries) and pushes the MFT blocks after we
 * return. Here: collect the members of every group sharing the MLID, with
 * their join state (a port receives when any of its joins is FullMember or
 * NonMember; SendOnlyNonMember / SendOnlyFullMember ports only send), let
 * the engine compute the union tree from the root the configured policy
 * picks, and set osm_mcast_tbl_set() for every tree port.
 *
 * The `balanced` load state lives in pe->mcast_state;
 * each group's contribution is recorded under its MLID, so a group routed
 * again first releases its old tree, and groups OpenSM deleted since are
 * released on the next call. It is reset whenever the unicast routing (and
 * so the fabric model) was rebuilt: OpenSM then re-processes every MLID.
 *
 * On any error the MLID is left unprogrammed (OpenSM cleared it; there is
 * no fallback to OpenSM's own spanning tree from an engine), the reason is
 * logged with its own code, and IB_ERROR makes OpenSM log ERR 0A17 too:
 *   5A30 no valid routing of this engine (it failed or fell back)
 *   5A31 out of memory
 *   5A32 a member port is not in the routed fabric model (re-sweep)
 *   5A33 a member is not an end port of the topology / no common root
 *   5A34 a tree switch is gone, does not support multicast, or its MFT
 *        cannot hold the MLID / port
 *   5A35 other library error
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opensm/osm_multicast.h>
#include <opensm/osm_mcm_port.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_mcast_tbl.h>

#include "engine.h"

void ibu_mcast_state_clear(struct ibu_plugin_engine *pe)
{
	if (pe->mcast_state)
		pe->ops->mcast.state_free(pe->mcast_state);
	pe->mcast_state = NULL;
	pe->mcast_sweep = 0;
}

/* The load state of the current routing (a new routing starts afresh:
 * OpenSM then re-processes every MLID). NULL when out of memory. */
static void *get_state(struct ibu_plugin_engine *pe)
{
	struct ibu_plugin_routing *r = &pe->routing;

	if (pe->mcast_state && pe->mcast_sweep == r->sweep)
		return pe->mcast_state;
	ibu_mcast_state_clear(pe);
	if (pe->ops->mcast.state_new(&r->fabric, r->res.topo, &pe->mcast_state,
				     NULL))
		return NULL;
	pe->mcast_sweep = r->sweep;
	return pe->mcast_state;
}

static int mbox_alive(void *arg, uint32_t key)
{
	osm_subn_t *subn = arg;

	if (key < IB_LID_MCAST_START_HO || key > subn->max_mcast_lid_ho)
		return 0;
	return osm_get_mbox_by_mlid(subn, cl_hton16((uint16_t)key)) != NULL;
}

struct member_tmp {
	struct ibu_mcast_member m;
	const osm_mcm_port_t *mcm;
	uint8_t join;		/* OR of the join states of its aliases */
};

static int cmp_mcm(const void *a, const void *b)
{
	const osm_mcm_port_t *x = ((const struct member_tmp *)a)->mcm;
	const osm_mcm_port_t *y = ((const struct member_tmp *)b)->mcm;

	return x < y ? -1 : x > y;
}

/*
 * Members of every group of the box. Returns the count, -1 on ENOMEM,
 * -2 when a member port is not in the fabric model (*bad = its GUID).
 */
static int collect_members(struct ibu_plugin_engine *pe, osm_mgrp_box_t *mgb,
			   struct ibu_mcast_member **out, uint64_t *bad)
{
	const struct ibu_fabric *f = &pe->routing.fabric;
	struct member_tmp *tmp = NULL;
	struct ibu_mcast_member *mem;
	cl_list_item_t *li;
	int n = 0, cap = 0, i;

	*out = NULL;
	for (li = cl_qlist_head(&mgb->mgrp_list);
	     li != cl_qlist_end(&mgb->mgrp_list); li = cl_qlist_next(li)) {
		osm_mgrp_t *mgrp = cl_item_obj(li, mgrp, list_item);
		cl_map_item_t *mi;
		int first = n;

		for (mi = cl_qmap_head(&mgrp->mcm_port_tbl);
		     mi != cl_qmap_end(&mgrp->mcm_port_tbl);
		     mi = cl_qmap_next(mi)) {
			osm_mcm_port_t *mcm = (osm_mcm_port_t *)mi;
			osm_port_t *port = mcm->port;
			int node;

			if (!port || !port->p_node || !port->p_physp) {
				*bad = port ? cl_ntoh64(port->guid) : 0;
				free(tmp);
				return -2;
			}
			node = ibu_osm_node_index(f, port->p_node);
			if (node < 0) {
				*bad = cl_ntoh64(port->guid);
				free(tmp);
				return -2;
			}
			if (n == cap) {
				int nc = cap ? 2 * cap : 32;
				struct member_tmp *t = realloc(tmp, nc * sizeof(*t));

				if (!t) {
					free(tmp);
					return -1;
				}
				tmp = t;
				cap = nc;
			}
			tmp[n].mcm = mcm;
			tmp[n].join = 0;
			tmp[n].m.node = node;
			tmp[n].m.port = ibu_node_is_switch(&f->nodes[node]) ?
				0 : osm_physp_get_port_num(port->p_physp);
			tmp[n].m.send_only = 0;
			n++;
		}
		/* join states live in the alias table, keyed by alias GUID */
		qsort(tmp + first, n - first, sizeof(*tmp), cmp_mcm);
		for (mi = cl_qmap_head(&mgrp->mcm_alias_port_tbl);
		     mi != cl_qmap_end(&mgrp->mcm_alias_port_tbl);
		     mi = cl_qmap_next(mi)) {
			osm_mcm_alias_guid_t *al = (osm_mcm_alias_guid_t *)mi;
			struct member_tmp key = { .mcm = al->p_base_mcm_port };
			struct member_tmp *hit;

			if (n == first)
				break;
			hit = bsearch(&key, tmp + first, n - first, sizeof(*tmp),
				      cmp_mcm);
			if (hit)
				hit->join |= al->scope_state & 0x0f;
		}
	}
	mem = malloc((n ? n : 1) * sizeof(*mem));
	if (!mem) {
		free(tmp);
		return -1;
	}
	for (i = 0; i < n; i++) {
		mem[i] = tmp[i].m;
		/* unknown (0) counts as receiving: never drop a receiver */
		mem[i].send_only = tmp[i].join &&
			!(tmp[i].join & (IB_JOIN_STATE_FULL | IB_JOIN_STATE_NON));
	}
	free(tmp);
	*out = mem;
	return n;
}

/* All tree switches exist, take multicast, hold the MLID and the ports. */
static int check_switches(struct ibu_plugin_engine *pe,
			  const struct ibu_engine_tree *tree, uint16_t mlid)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	int i, p;

	for (i = 0; i < tree->num_switches; i++) {
		int node = tree->nodes[i];
		const struct ibu_node *nd = &r->fabric.nodes[node];
		osm_switch_t *sw = ibu_osm_switch(pe, node);
		osm_mcast_tbl_t *tbl;
		const char *why = NULL;

		if (!sw)
			why = "is no longer in the subnet";
		else if (!osm_switch_supports_mcast(sw))
			why = "does not support multicast";
		else if (!(tbl = osm_switch_get_mcast_tbl_ptr(sw)) ||
			 !tbl->p_mask_tbl || mlid > tbl->max_mlid_ho)
			why = "has no MFT entry for this MLID";
		if (!why)
			for (p = 0; p < 256; p++)
				if (ibu_pm_test(&tree->ports[i], p) &&
				    p >= sw->num_ports)	/* counts port 0 */
					why = "lacks a tree port";
		if (why) {
			OSM_LOG(pe->plugin->log, OSM_LOG_ERROR,
				"ERR 5A34: %s: MLID 0x%04x: switch '%s' "
				"(0x%016" PRIx64 ") %s; MLID left unprogrammed\n",
				pe->ops->name, mlid, nd->name, nd->guid, why);
			return -1;
		}
	}
	return 0;
}

/* Microseconds since *t0 (monotonic): a join storm's benchmark reads the
 * cost of every tree from the log. */
static long usecs_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000000L +
	       (t.tv_nsec - t0->tv_nsec) / 1000;
}

static void log_tree(struct ibu_plugin_engine *pe,
		     const struct ibu_engine_tree *tree, uint16_t mlid,
		     long usecs)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	osm_log_t *log = pe->plugin->log;
	char label[64], ports[512];
	int i, p;

	OSM_LOG(log, OSM_LOG_VERBOSE,
		"%s: MLID 0x%04x: %d members (%d receive), %s, %d switches in "
		"tree, built in %ld us\n", pe->ops->name, mlid,
		tree->num_members, tree->num_receivers, tree->info,
		tree->num_switches, usecs);
	if (!osm_log_is_active(log, OSM_LOG_DEBUG))
		return;
	for (i = 0; i < tree->num_switches; i++) {
		int len = 0;

		label[0] = '\0';
		if (pe->ops->report.node_label)
			pe->ops->report.node_label(r->res.topo, tree->nodes[i], label,
					    sizeof(label));
		ports[0] = '\0';
		for (p = 0; p < 256 && len < (int)sizeof(ports) - 8; p++)
			if (ibu_pm_test(&tree->ports[i], p))
				len += snprintf(ports + len, sizeof(ports) - len,
						" %d", p);
		OSM_LOG(log, OSM_LOG_DEBUG,
			"%s: MLID 0x%04x: %s '%s' ports%s\n", pe->ops->name,
			mlid, label, r->fabric.nodes[tree->nodes[i]].name,
			ports);
	}
}

#define LEFT "MLID left unprogrammed"

ib_api_status_t ibu_mcast_build_stree(void *context, osm_mgrp_box_t *mgb)
{
	struct ibu_plugin_engine *pe = context;
	const char *name;
	osm_log_t *log;
	struct ibu_plugin_routing *r;
	struct ibu_mcast_member *mem = NULL;
	struct ibu_engine_tree tree;
	struct ibu_err err;
	uint64_t bad = 0;
	uint16_t mlid;
	void *state;
	struct timespec t0;
	int n, rc, i, p;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!pe || !mgb)
		return IB_ERROR;
	r = &pe->routing;
	log = pe->plugin->log;
	name = pe->ops->name;
	mlid = mgb->mlid;
	osm_purge_mtree(&pe->plugin->osm->sm, mgb);	/* we keep no mtree */
	if (!r->valid) {
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A30: %s: MLID 0x%04x: no valid %s routing to build "
			"a multicast tree on; " LEFT "\n", name, mlid, name);
		return IB_ERROR;
	}
	state = get_state(pe);
	if (!state) {
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A31: %s: MLID 0x%04x: out of memory; " LEFT "\n",
			name, mlid);
		return IB_ERROR;
	}
	pe->ops->mcast.prune(state, mbox_alive, &pe->plugin->osm->subn);

	n = collect_members(pe, mgb, &mem, &bad);
	if (n == -1) {
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A31: %s: MLID 0x%04x: out of memory; " LEFT "\n",
			name, mlid);
		return IB_ERROR;
	}
	if (n == -2) {
		pe->ops->mcast.release(state, mlid);
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A32: %s: MLID 0x%04x: member port 0x%016" PRIx64
			" is not in the routed fabric; " LEFT " until the next "
			"sweep\n", name, mlid, bad);
		return IB_ERROR;
	}

	ibu_err_clear(&err);
	rc = pe->ops->mcast.tree(&r->fabric, r->res.topo, state, mem, n,
				 &pe->plugin->opts.engine, mlid, &tree, &err);
	free(mem);
	if (rc) {
		if (rc == IBU_ENOMEM)
			OSM_LOG(log, OSM_LOG_ERROR,
				"ERR 5A31: %s: MLID 0x%04x: out of memory; "
				LEFT "\n", name, mlid);
		else if (rc == IBU_ETOPO)
			OSM_LOG(log, OSM_LOG_ERROR,
				"ERR 5A33: %s: MLID 0x%04x: %s; " LEFT "\n",
				name, mlid, err.msg);
		else
			OSM_LOG(log, OSM_LOG_ERROR,
				"ERR 5A35: %s: MLID 0x%04x: %s (%s); " LEFT "\n",
				name, mlid, err.msg, ibu_strerror(rc));
		return IB_ERROR;
	}
	if (check_switches(pe, &tree, mlid)) {
		pe->ops->mcast.release(state, mlid);
		ibu_engine_tree_free(&tree);
		return IB_ERROR;
	}
	for (i = 0; i < tree.num_switches; i++) {
		osm_switch_t *sw = ibu_osm_switch(pe, tree.nodes[i]);
		osm_mcast_tbl_t *tbl = osm_switch_get_mcast_tbl_ptr(sw);

		for (p = 0; p < sw->num_ports; p++)
			if (ibu_pm_test(&tree.ports[i], p))
				osm_mcast_tbl_set(tbl, mlid, (uint8_t)p);
	}
	log_tree(pe, &tree, mlid, usecs_since(&t0));
	ibu_engine_tree_free(&tree);
	return IB_SUCCESS;
}
