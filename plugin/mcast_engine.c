/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast for the "cyclic" engine: OpenSM's mcast_build_stree, per MLID.
 *
 * OpenSM has already cleared the MLID on every switch (so switches that
 * left the tree lose their entries) and pushes the MFT blocks after we
 * return. Here: collect the members of every group sharing the MLID, with
 * their join state (a port receives when any of its joins is FullMember or
 * NonMember; SendOnlyNonMember / SendOnlyFullMember ports only send), let
 * lib/mcast.c compute the union tree from the apex the configured policy
 * picks, and set osm_mcast_tbl_set() for every tree port.
 *
 * The `balanced` load state (trees per switch) lives in ctx->mcast_priv;
 * each group's contribution is recorded under its MLID, so a group routed
 * again first releases its old tree, and groups OpenSM deleted since are
 * released on the next call. It is reset whenever the unicast routing (and
 * so the fabric model) was rebuilt: OpenSM then re-processes every MLID.
 *
 * On any error the MLID is left unprogrammed (OpenSM cleared it; there is
 * no fallback to OpenSM's own spanning tree from an engine), the reason is
 * logged with its own code, and IB_ERROR makes OpenSM log ERR 0A17 too:
 *   5A30 no valid cyclic routing (the ucast engine failed or fell back)
 *   5A31 out of memory
 *   5A32 a member port is not in the routed fabric model (re-sweep)
 *   5A33 a member is not an end port of the fat tree / no common ancestor
 *   5A34 a tree switch is gone, does not support multicast, or its MFT
 *        cannot hold the MLID / port
 *   5A35 other library error
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_multicast.h>
#include <opensm/osm_mcm_port.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_mcast_tbl.h>

#include "mcast.h"

struct mcast_priv {
	struct ibu_mcast_load load;
	unsigned long sweep;	/* routing the load belongs to */
	int have_load;
};

static void mcast_priv_free(void *p)
{
	struct mcast_priv *priv = p;

	if (!priv)
		return;
	if (priv->have_load)
		ibu_mcast_load_free(&priv->load);
	free(priv);
}

static struct mcast_priv *get_priv(struct ibu_plugin *ctx)
{
	struct ibu_plugin_routing *r = &ctx->routing;
	struct mcast_priv *priv = ctx->mcast_priv;

	if (!priv) {
		priv = calloc(1, sizeof(*priv));
		if (!priv)
			return NULL;
		ctx->mcast_priv = priv;
		ctx->mcast_priv_free = mcast_priv_free;
	}
	if (!priv->have_load || priv->sweep != r->sweep ||
	    priv->load.num_switches != r->ibft.num_switches ||
	    priv->load.ports != r->ibft.m + 1) {
		if (priv->have_load)
			ibu_mcast_load_free(&priv->load);
		priv->have_load = 0;
		if (ibu_mcast_load_init(&priv->load, &r->ibft, NULL))
			return NULL;
		priv->have_load = 1;
		priv->sweep = r->sweep;
	}
	return priv;
}

static int mbox_alive(void *arg, uint32_t key)
{
	osm_subn_t *subn = arg;

	if (key < IB_LID_MCAST_START_HO || key > subn->max_mcast_lid_ho)
		return 0;
	return osm_get_mbox_by_mlid(subn, cl_hton16((uint16_t)key)) != NULL;
}

static enum ibu_mcast_policy policy_of(enum ibu_plugin_apex a)
{
	switch (a) {
	case IBU_PLUGIN_APEX_SOURCE: return IBU_MCAST_SOURCE;
	case IBU_PLUGIN_APEX_LOWEST_GUID: return IBU_MCAST_LOWEST_GUID;
	case IBU_PLUGIN_APEX_BALANCED: break;
	}
	return IBU_MCAST_BALANCED;
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
static int collect_members(struct ibu_plugin *ctx, osm_mgrp_box_t *mgb,
			   struct ibu_mcast_member **out, uint64_t *bad)
{
	const struct ibu_fabric *f = &ctx->routing.fabric;
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
static int check_switches(struct ibu_plugin *ctx,
			  const struct ibu_mcast_tree *tree, uint16_t mlid)
{
	const struct ibu_plugin_routing *r = &ctx->routing;
	int i, p;

	for (i = 0; i < tree->num_switches; i++) {
		int s = tree->switches[i], node = r->ibft.sw[s].node;
		const struct ibu_node *nd = &r->fabric.nodes[node];
		osm_switch_t *sw = ibu_osm_switch(ctx, node);
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
				if (ibu_pm_test(&tree->ports[s], p) &&
				    p >= sw->num_ports)	/* counts port 0 */
					why = "lacks a tree port";
		if (why) {
			OSM_LOG(ctx->log, OSM_LOG_ERROR,
				"ERR 5A34: cyclic: MLID 0x%04x: switch '%s' "
				"(0x%016" PRIx64 ") %s; MLID left unprogrammed\n",
				mlid, nd->name, nd->guid, why);
			return -1;
		}
	}
	return 0;
}

static void log_tree(struct ibu_plugin *ctx, const struct ibu_mcast_tree *tree,
		     uint16_t mlid)
{
	const struct ibu_plugin_routing *r = &ctx->routing;
	char label[64], ports[512];
	int i, p;

	if (tree->apex >= 0)
		ibu_ibft_sw_label(&r->ibft, tree->apex, label, sizeof(label));
	else
		strcpy(label, "none");
	OSM_LOG(ctx->log, OSM_LOG_VERBOSE,
		"cyclic: MLID 0x%04x: %d members (%d receive), apex %s "
		"(%s, level %d, %d candidates), %d switches in tree\n",
		mlid, tree->num_members, tree->num_receivers, label,
		ibu_mcast_policy_name(tree->policy), tree->apex_level,
		tree->num_candidates, tree->num_switches);
	if (!osm_log_is_active(ctx->log, OSM_LOG_DEBUG))
		return;
	for (i = 0; i < tree->num_switches; i++) {
		int s = tree->switches[i], len = 0;

		ibu_ibft_sw_label(&r->ibft, s, label, sizeof(label));
		ports[0] = '\0';
		for (p = 0; p < 256 && len < (int)sizeof(ports) - 8; p++)
			if (ibu_pm_test(&tree->ports[s], p))
				len += snprintf(ports + len, sizeof(ports) - len,
						" %d", p);
		OSM_LOG(ctx->log, OSM_LOG_DEBUG,
			"cyclic: MLID 0x%04x: %s '%s' ports%s\n", mlid, label,
			r->fabric.nodes[r->ibft.sw[s].node].name, ports);
	}
}

ib_api_status_t ibu_mcast_build_stree(void *context, osm_mgrp_box_t *mgb)
{
	struct ibu_plugin *ctx = context;
	struct ibu_plugin_routing *r;
	struct ibu_mcast_member *mem = NULL;
	struct ibu_mcast_tree tree;
	struct mcast_priv *priv;
	struct ibu_err err;
	uint64_t bad = 0;
	uint16_t mlid;
	int n, rc, i, p;

	if (!ctx || !mgb)
		return IB_ERROR;
	r = &ctx->routing;
	mlid = mgb->mlid;
	osm_purge_mtree(&ctx->osm->sm, mgb);	/* we keep no mtree */
	if (!r->valid) {
		OSM_LOG(ctx->log, OSM_LOG_ERROR,
			"ERR 5A30: cyclic: MLID 0x%04x: no valid cyclic routing "
			"to build a multicast tree on; MLID left unprogrammed\n",
			mlid);
		return IB_ERROR;
	}
	priv = get_priv(ctx);
	if (!priv) {
		OSM_LOG(ctx->log, OSM_LOG_ERROR,
			"ERR 5A31: cyclic: MLID 0x%04x: out of memory; MLID "
			"left unprogrammed\n", mlid);
		return IB_ERROR;
	}
	ibu_mcast_load_prune(&priv->load, mbox_alive, &ctx->osm->subn);

	n = collect_members(ctx, mgb, &mem, &bad);
	if (n == -1) {
		OSM_LOG(ctx->log, OSM_LOG_ERROR,
			"ERR 5A31: cyclic: MLID 0x%04x: out of memory; MLID "
			"left unprogrammed\n", mlid);
		return IB_ERROR;
	}
	if (n == -2) {
		ibu_mcast_load_release(&priv->load, mlid);
		OSM_LOG(ctx->log, OSM_LOG_ERROR,
			"ERR 5A32: cyclic: MLID 0x%04x: member port 0x%016" PRIx64
			" is not in the routed fabric; MLID left unprogrammed "
			"until the next sweep\n", mlid, bad);
		return IB_ERROR;
	}

	ibu_err_clear(&err);
	rc = ibu_mcast_tree_build(&r->fabric, &r->ibft, mem, n,
				  policy_of(ctx->opts.mcast_apex), &priv->load,
				  mlid, &tree, &err);
	free(mem);
	if (rc) {
		if (rc == IBU_ENOMEM)
			OSM_LOG(ctx->log, OSM_LOG_ERROR,
				"ERR 5A31: cyclic: MLID 0x%04x: out of memory; "
				"MLID left unprogrammed\n", mlid);
		else if (rc == IBU_ETOPO)
			OSM_LOG(ctx->log, OSM_LOG_ERROR,
				"ERR 5A33: cyclic: MLID 0x%04x: %s; MLID left "
				"unprogrammed\n", mlid, err.msg);
		else
			OSM_LOG(ctx->log, OSM_LOG_ERROR,
				"ERR 5A35: cyclic: MLID 0x%04x: %s (%s); MLID "
				"left unprogrammed\n", mlid, err.msg,
				ibu_strerror(rc));
		return IB_ERROR;
	}
	if (check_switches(ctx, &tree, mlid)) {
		ibu_mcast_load_release(&priv->load, mlid);
		ibu_mcast_tree_free(&tree);
		return IB_ERROR;
	}
	for (i = 0; i < tree.num_switches; i++) {
		int s = tree.switches[i];
		osm_switch_t *sw = ibu_osm_switch(ctx, r->ibft.sw[s].node);
		osm_mcast_tbl_t *tbl = osm_switch_get_mcast_tbl_ptr(sw);

		for (p = 0; p < sw->num_ports; p++)
			if (ibu_pm_test(&tree.ports[s], p))
				osm_mcast_tbl_set(tbl, mlid, (uint8_t)p);
	}
	log_tree(ctx, &tree, mlid);
	ibu_mcast_tree_free(&tree);
	return IB_SUCCESS;
}
