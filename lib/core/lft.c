/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "lft.h"

static int lft_begin(struct ibu_lft *l, const struct ibu_fabric *f,
		     uint32_t max_lid, struct ibu_err *e)
{
	memset(l, 0, sizeof(*l));
	if (max_lid > IBU_MAX_UCAST_LID)
		return ibu_err_set(e, IBU_ELID, "LID 0x%x beyond unicast space",
				   max_lid);
	l->row = calloc(f->num_nodes ? f->num_nodes : 1, sizeof(*l->row));
	if (!l->row)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	l->num_nodes = f->num_nodes;
	l->max_lid = max_lid;
	return IBU_OK;
}

/* A row for every switch of f in one block, entries unset. */
static int lft_alloc(struct ibu_lft *l, const struct ibu_fabric *f,
		     uint32_t max_lid, size_t *bytes, struct ibu_err *e)
{
	size_t width = (size_t)max_lid + 1, switches = 0;
	uint8_t *next;
	int i, rc = lft_begin(l, f, max_lid, e);

	if (rc)
		return rc;
	for (i = 0; i < f->num_nodes; i++)
		switches += ibu_node_is_switch(&f->nodes[i]);
	/* one block for all rows: one allocation */
	l->block = malloc(switches ? switches * width : 1);
	if (!l->block) {
		ibu_lft_free(l);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	*bytes = switches * width;
	next = l->block;
	for (i = 0; i < f->num_nodes; i++) {
		if (!ibu_node_is_switch(&f->nodes[i]))
			continue;
		l->row[i] = next;
		next += width;
	}
	return IBU_OK;
}

int ibu_lft_init(struct ibu_lft *l, const struct ibu_fabric *f,
		 uint32_t max_lid, struct ibu_err *e)
{
	size_t bytes;
	int rc = lft_alloc(l, f, max_lid, &bytes, e);

	if (!rc)
		memset(l->block, IBU_NO_PATH, bytes);
	return rc;
}

int ibu_lft_copy(struct ibu_lft *l, const struct ibu_fabric *f,
		 const struct ibu_lft *src, struct ibu_err *e)
{
	size_t width = (size_t)src->max_lid + 1, bytes;
	int i, rc = lft_alloc(l, f, src->max_lid, &bytes, e);

	if (rc)
		return rc;
	/* each row written once (was set to IBU_NO_PATH, then copied) */
	for (i = 0; i < f->num_nodes; i++) {
		if (!l->row[i])
			continue;
		if (i < src->num_nodes && src->row[i])
			memcpy(l->row[i], src->row[i], width);
		else
			memset(l->row[i], IBU_NO_PATH, width);
	}
	return IBU_OK;
}

int ibu_lft_init_rows(struct ibu_lft *l, const struct ibu_fabric *f,
		      uint32_t max_lid, uint8_t *const *rows,
		      const uint32_t *cap, struct ibu_err *e)
{
	int i, rc = lft_begin(l, f, max_lid, e);

	if (rc)
		return rc;
	for (i = 0; i < f->num_nodes; i++) {
		if (!ibu_node_is_switch(&f->nodes[i]))
			continue;
		if (!rows[i] || cap[i] < max_lid + 1u) {
			rc = ibu_err_set(e, IBU_EINVAL,
					 "switch '%s' has a forwarding table of %u entries, LID %u needs %u",
					 f->nodes[i].name, rows[i] ? cap[i] : 0,
					 max_lid, max_lid + 1u);
			ibu_lft_free(l);
			return rc;
		}
		l->row[i] = rows[i];
		memset(l->row[i], IBU_NO_PATH, (size_t)max_lid + 1);
	}
	return IBU_OK;
}

void ibu_lft_free(struct ibu_lft *l)
{
	if (!l)
		return;
	free(l->block);
	free(l->row);
	memset(l, 0, sizeof(*l));
}

/* The switch s sends lid to, -1 when none (no entry, an end port). */
static int next_switch(const struct ibu_fabric *f, const struct ibu_lft *l,
		       int s, uint32_t lid)
{
	int port = ibu_lft_get(l, s, lid), peer;

	if (port < 1 || port > f->nodes[s].num_ports)
		return -1;
	peer = f->nodes[s].ports[port].peer_node;
	return peer >= 0 && ibu_node_is_switch(&f->nodes[peer]) ? peer : -1;
}

int ibu_lft_route_has_valley(const struct ibu_fabric *f,
			     const struct ibu_lft *l, int s, uint32_t lid,
			     const int *level)
{
	int u = -1, v = s, w, hops;

	for (hops = 0; hops <= IBU_LFT_MAX_HOPS; hops++) {
		w = next_switch(f, l, v, lid);
		if (w < 0)
			return 0;
		if (u >= 0 && ibu_valley(level, u, v, w))
			return 1;
		u = v;
		v = w;
	}
	return 1;
}

long ibu_lft_count_diff(const struct ibu_lft *a, const struct ibu_lft *b)
{
	uint32_t max = a->max_lid > b->max_lid ? a->max_lid : b->max_lid;
	long diff = 0;
	uint32_t lid;
	int i;

	for (i = 0; i < a->num_nodes && i < b->num_nodes; i++) {
		if (!a->row[i] && !b->row[i])
			continue;
		for (lid = 1; lid <= max; lid++)
			diff += ibu_lft_get(a, i, lid) != ibu_lft_get(b, i, lid);
	}
	return diff;
}
