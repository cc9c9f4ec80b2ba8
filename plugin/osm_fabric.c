/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * OpenSM's subnet (osm_subn_t) translated into the core's fabric model:
 * one node per osm_node_t, its physical ports and peer links, node and port
 * GUIDs, and the base LID + LMC OpenSM's LID manager gave every end port
 * and switch port 0. Nothing here interprets the topology.
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void ibu_osm_map_free(struct ibu_osm_map *map)
{
	if (!map)
		return;
	free(map->node);
	free(map->sw);
	memset(map, 0, sizeof(*map));
}

static enum ibu_node_type node_type(const osm_node_t *n)
{
	switch (osm_node_get_type(n)) {
	case IB_NODE_TYPE_SWITCH:
		return IBU_NODE_SWITCH;
	case IB_NODE_TYPE_ROUTER:
		return IBU_NODE_ROUTER;
	case IB_NODE_TYPE_CA:
		return IBU_NODE_CA;
	default:
		return 0;
	}
}

static uint8_t lmc_of_range(uint16_t min, uint16_t max)
{
	uint32_t count = (uint32_t)max - min + 1;
	uint8_t lmc = 0;

	while ((1u << lmc) < count && lmc < 7)
		lmc++;
	return lmc;
}

int ibu_osm_node_index(const struct ibu_fabric *f, const osm_node_t *node)
{
	if (!node)
		return -1;
	return ibu_fabric_find_guid(f, cl_ntoh64(osm_node_get_node_guid(node)));
}

/*
 * OpenSM node -> fabric node index while the model is built: every port
 * looks its peer up, so an open-addressing table on the object's address
 * instead of a GUID search per port (a 10,000-node subnet has some 40,000
 * ports).
 */
struct node_table {
	const osm_node_t **key;
	int *idx;
	size_t mask;
};

static size_t node_slot(const struct node_table *t, const osm_node_t *n)
{
	uint64_t x = (uint64_t)(uintptr_t)n;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & t->mask;
}

static int node_table_init(struct node_table *t, size_t count)
{
	size_t size = 64;

	while (size < 2 * count)
		size *= 2;
	t->mask = size - 1;
	t->key = calloc(size, sizeof(*t->key));
	t->idx = calloc(size, sizeof(*t->idx));
	return t->key && t->idx ? IBU_OK : IBU_ENOMEM;
}

static void node_table_free(struct node_table *t)
{
	free(t->key);
	free(t->idx);
}

static void node_table_put(struct node_table *t, const osm_node_t *n, int idx)
{
	size_t i = node_slot(t, n);

	while (t->key[i] && t->key[i] != n)
		i = (i + 1) & t->mask;
	t->key[i] = n;
	t->idx[i] = idx;
}

static int node_table_get(const struct node_table *t, const osm_node_t *n)
{
	size_t i;

	if (!n)
		return -1;
	for (i = node_slot(t, n); t->key[i]; i = (i + 1) & t->mask)
		if (t->key[i] == n)
			return t->idx[i];
	return -1;
}

/* The fields of OpenSM's node add_nodes() reads, fetched ahead: the
 * nodes are scattered over opensm's heap, each a cache miss. */
static void prefetch_node(const cl_map_item_t *item, const cl_qmap_t *tbl)
{
	const osm_node_t *n = (const osm_node_t *)item;

	if (item == cl_qmap_end(tbl))
		return;
	__builtin_prefetch(&n->node_info);
	__builtin_prefetch(&n->print_desc);
}

/* pass 1: one fabric node per OpenSM node, in node GUID order */
static int add_nodes(osm_subn_t *subn, struct ibu_fabric *f,
		     struct ibu_osm_map *map, struct node_table *nt,
		     struct ibu_err *e)
{
	cl_map_item_t *item;
	int rc, idx;

	for (item = cl_qmap_head(&subn->node_guid_tbl);
	     item != cl_qmap_end(&subn->node_guid_tbl);
	     item = cl_qmap_next(item)) {
		osm_node_t *n = (osm_node_t *)item;
		uint64_t guid;
		enum ibu_node_type type;
		int nports;
		char name[80];

		prefetch_node(cl_qmap_next(item), &subn->node_guid_tbl);
		guid = cl_ntoh64(osm_node_get_node_guid(n));
		type = node_type(n);
		nports = (int)n->physp_tbl_size - 1;
		if (!type)
			return ibu_err_set(e, IBU_EINVAL,
					   "node 0x%016" PRIx64 " has unknown type %u",
					   guid, osm_node_get_type(n));
		if (n->print_desc && n->print_desc[0])
			snprintf(name, sizeof(name), "%s", n->print_desc);
		else
			snprintf(name, sizeof(name), "0x%016" PRIx64, guid);
		rc = ibu_fabric_add_node(f, type, name, guid, nports, &idx, e);
		if (rc)
			return rc;
		if (idx >= map->num_nodes)
			return ibu_err_set(e, IBU_EINVAL,
					   "node table changed while reading it");
		map->node[idx] = n;
		map->sw[idx] = type == IBU_NODE_SWITCH ? n->sw : NULL;
		node_table_put(nt, n, idx);
		if (type == IBU_NODE_SWITCH && !n->sw)
			return ibu_err_set(e, IBU_EINVAL,
					   "switch '%s' (0x%016" PRIx64 ") has no switch object",
					   name, guid);
	}
	return ibu_fabric_index(f, e);
}

/*
 * Node i's remote port objects into rp[1..num_ports] (NULL: none, or a
 * cable its other end already read: OpenSM links both ends at once), the
 * end ports' GUIDs on the way. The remote objects are fetched for the
 * second pass: read one by one they were half of the read on IBFT(24,3),
 * a cache miss each.
 */
static void remote_ports(struct ibu_fabric *f, const struct ibu_osm_map *map,
			 int i, osm_physp_t **rp)
{
	osm_node_t *n = map->node[i];
	struct ibu_node *fn = &f->nodes[i];
	int p;

	for (p = 1; p <= fn->num_ports; p++) {
		osm_physp_t *pp = osm_node_get_physp_ptr(n, p);

		rp[p] = NULL;
		if (!pp)
			continue;
		if (!ibu_node_is_switch(fn))
			fn->ports[p].guid = cl_ntoh64(osm_physp_get_port_guid(pp));
		if (fn->ports[p].peer_node >= 0)
			continue;
		rp[p] = osm_physp_get_remote(pp);
		if (rp[p]) {
			__builtin_prefetch(&rp[p]->port_guid);
			__builtin_prefetch(&rp[p]->p_remote_physp);
		}
	}
}

/* pass 2: port GUIDs and cables */
static int add_links(struct ibu_fabric *f, const struct ibu_osm_map *map,
		     const struct node_table *nt, struct ibu_err *e)
{
	osm_physp_t *rp[IBU_MAX_PORTS + 1];
	int i, p, rc;

	for (i = 0; i < f->num_nodes; i++) {
		struct ibu_node *fn = &f->nodes[i];

		remote_ports(f, map, i, rp);
		for (p = 1; p <= fn->num_ports; p++) {
			int peer;

			if (!rp[p] || !osm_physp_is_valid(rp[p]))
				continue;
			peer = node_table_get(nt, osm_physp_get_node_ptr(rp[p]));
			if (peer < 0)
				return ibu_err_set(e, IBU_EINVAL,
						   "'%s' port %d: peer node not in the subnet",
						   fn->name, p);
			rc = ibu_fabric_link(f, i, p, peer,
					     osm_physp_get_port_num(rp[p]), e);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

/* pass 3: LIDs of every port object (CA ports, switch port 0) */
static int add_lids(osm_subn_t *subn, struct ibu_fabric *f,
		    const struct node_table *nt, struct ibu_err *e)
{
	cl_map_item_t *item;

	for (item = cl_qmap_head(&subn->port_guid_tbl);
	     item != cl_qmap_end(&subn->port_guid_tbl);
	     item = cl_qmap_next(item)) {
		osm_port_t *port = (osm_port_t *)item;
		uint16_t min = 0, max = 0;
		int idx, pn;

		if (!port->p_node || !port->p_physp)
			continue;
		idx = node_table_get(nt, port->p_node);
		pn = osm_physp_get_port_num(port->p_physp);
		if (idx < 0 || pn > f->nodes[idx].num_ports)
			return ibu_err_set(e, IBU_EINVAL,
					   "port 0x%016" PRIx64 " belongs to no known node port",
					   cl_ntoh64(port->guid));
		osm_port_get_lid_range_ho(port, &min, &max);
		if (!min || max < min)
			continue;	/* no LID (yet): the LID plan reports it */
		f->nodes[idx].ports[pn].lid = min;
		f->nodes[idx].ports[pn].lmc = lmc_of_range(min, max);
	}
	return IBU_OK;
}

int ibu_osm_fabric_build(osm_subn_t *subn, struct ibu_fabric *f,
			 struct ibu_osm_map *map, struct ibu_err *e)
{
	size_t count = cl_qmap_count(&subn->node_guid_tbl);
	struct node_table nt = { NULL, NULL, 0 };
	int rc;

	memset(map, 0, sizeof(*map));
	rc = ibu_fabric_init(f, "OpenSM subnet");
	if (rc)
		return ibu_err_set(e, rc, "cannot start the fabric model");
	if (count > (size_t)(INT32_MAX / 2)) {
		ibu_fabric_free(f);
		return ibu_err_set(e, IBU_EINVAL, "subnet too large");
	}
	map->node = calloc(count ? count : 1, sizeof(*map->node));
	map->sw = calloc(count ? count : 1, sizeof(*map->sw));
	if (!map->node || !map->sw || node_table_init(&nt, count)) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto fail;
	}
	map->num_nodes = (int)count;
	rc = add_nodes(subn, f, map, &nt, e);
	if (!rc)
		rc = add_links(f, map, &nt, e);
	if (!rc)
		rc = add_lids(subn, f, &nt, e);
	if (!rc) {
		node_table_free(&nt);
		return IBU_OK;
	}
fail:
	node_table_free(&nt);
	ibu_osm_map_free(map);
	ibu_fabric_free(f);
	return rc;
}

osm_node_t *ibu_osm_node(const struct ibu_plugin_engine *pe, int idx)
{
	const struct ibu_plugin_routing *r = &pe->routing;
	osm_node_t *n;

	if (!r->valid || idx < 0 || idx >= r->map.num_nodes ||
	    idx >= r->fabric.num_nodes)
		return NULL;
	n = osm_get_node_by_guid(&pe->plugin->osm->subn,
				 cl_hton64(r->fabric.nodes[idx].guid));
	return n == r->map.node[idx] ? n : NULL;
}

osm_switch_t *ibu_osm_switch(const struct ibu_plugin_engine *pe, int idx)
{
	osm_node_t *n = ibu_osm_node(pe, idx);

	if (!n || !pe->routing.map.sw[idx] || n->sw != pe->routing.map.sw[idx])
		return NULL;
	return n->sw;
}
