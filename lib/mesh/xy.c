/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "xy.h"
#include "xy_detour.h"

int ibu_xy_dir(const struct ibu_mesh *t, int sw, int dst)
{
	const struct ibu_mesh_switch *a = &t->sw[sw], *b = &t->sw[dst];

	if (b->x > a->x)
		return IBU_DIR_E;
	if (b->x < a->x)
		return IBU_DIR_W;
	if (b->y > a->y)
		return IBU_DIR_N;
	if (b->y < a->y)
		return IBU_DIR_S;
	return IBU_DIR_LOCAL;
}

int ibu_xy_owner_switch(const struct ibu_mesh *t,
			const struct ibu_lid_owner *o, int *port)
{
	int s = ibu_mesh_sw(t, o->node), ep;

	if (s >= 0) {
		*port = 0;
		return s;
	}
	ep = ibu_mesh_ep(t, o->node, o->port);
	if (ep < 0)
		return -1;
	*port = t->ep[ep].sw_port;
	return t->ep[ep].sw;
}

static uint8_t port_for(const struct ibu_mesh *t, int sw, int dst, int last)
{
	int d = ibu_xy_dir(t, sw, dst);

	return (uint8_t)(d == IBU_DIR_LOCAL ? last : t->sw[sw].port[d]);
}

/* damaged mesh: the detour plan's port (lib/mesh/xy_detour.h) */
static int detour_port(const struct ibu_mesh *t, int sw, int dst, int last)
{
	int d = ibu_xy_detour_dir(t, sw, dst);

	if (d == IBU_DIR_LOCAL)
		return last;
	return d < 0 ? IBU_NO_PATH : t->sw[sw].port[d];
}

uint8_t ibu_xy_port(const struct ibu_mesh *t, const struct ibu_lidmap *map,
		    int sw, uint32_t lid)
{
	const struct ibu_lid_owner *o = ibu_lidmap_get(map, lid);
	int dst, last;

	if (!o)
		return IBU_NO_PATH;
	dst = ibu_xy_owner_switch(t, o, &last);
	if (dst < 0)
		return IBU_NO_PATH;
	return port_for(t, sw, dst, last);
}

int ibu_xy_route(const struct ibu_fabric *f, const struct ibu_mesh *t,
		 const struct ibu_lidmap *map, struct ibu_lft *lft,
		 struct ibu_err *e)
{
	uint32_t lid;
	int s;

	if (lft->max_lid < map->max_lid)
		return ibu_err_set(e, IBU_EINVAL,
				   "forwarding tables hold LIDs up to %u, the map %u",
				   lft->max_lid, map->max_lid);
	for (lid = 1; lid <= map->max_lid; lid++) {
		const struct ibu_lid_owner *o = ibu_lidmap_get(map, lid);
		int dst, last;

		if (!o)
			continue;
		dst = ibu_xy_owner_switch(t, o, &last);
		if (dst < 0)
			return ibu_err_set(e, IBU_ETOPO,
					   "LID %u belongs to '%s' port %d, which is not cabled to the mesh",
					   lid, f->nodes[o->node].name, o->port);
		for (s = 0; s < t->num_switches; s++) {
			uint8_t *row;

			if (t->sw[s].node < 0)
				continue;	/* a damaged mesh's missing switch */
			row = lft->row[t->sw[s].node];
			if (!row)
				return ibu_err_set(e, IBU_EINVAL,
						   "no forwarding table for switch '%s'",
						   f->nodes[t->sw[s].node].name);
			row[lid] = (uint8_t)(t->dmg ? detour_port(t, s, dst, last) :
					     port_for(t, s, dst, last));
		}
	}
	return IBU_OK;
}

int ibu_xy_assign_lids(struct ibu_fabric *f, const struct ibu_mesh *t,
		       int lmc, int paper_exact, struct ibu_err *e)
{
	uint64_t top, next;
	int r, s;

	if (lmc < 0 || lmc > 7)
		return ibu_err_set(e, IBU_EINVAL, "LMC %d is outside 0..7", lmc);
	next = paper_exact ? ((uint64_t)t->num_endports << lmc) + 1 :
			     ((uint64_t)t->num_endports + 1) << lmc;
	top = next + (uint64_t)t->num_switches - 1;
	if (top > IBU_MAX_UCAST_LID)
		return ibu_err_set(e, IBU_ELID,
				   "%d x %d mesh with %d end ports at LMC %d needs LIDs up to 0x%llx, beyond 0xBFFF",
				   t->m, t->n, t->num_endports, lmc,
				   (unsigned long long)top);
	ibu_fabric_clear_lids(f);
	for (r = 0; r < t->num_endports; r++) {
		struct ibu_port *pt = &f->nodes[t->ep[r].node].ports[t->ep[r].port];

		pt->lid = (uint16_t)(paper_exact ? ((uint32_t)r << lmc) + 1 :
				     ((uint32_t)r + 1) << lmc);
		pt->lmc = (uint8_t)lmc;
	}
	for (s = 0; s < t->num_switches; s++)
		if (t->sw[s].node >= 0)	/* a damaged mesh's missing switch */
			f->nodes[t->sw[s].node].ports[0].lid = (uint16_t)next++;
	return IBU_OK;
}

int ibu_xy_verify(const struct ibu_mesh *t, const struct ibu_lidmap *map,
		  const struct ibu_lft *lft,
		  void (*fn)(void *ctx, const struct ibu_xy_mismatch *mm),
		  void *ctx, long *entries, long *bad, struct ibu_err *e)
{
	uint32_t lid;
	int s;

	*entries = 0;
	*bad = 0;
	for (lid = 1; lid <= map->max_lid; lid++) {
		const struct ibu_lid_owner *o = ibu_lidmap_get(map, lid);
		int dst, last;

		if (!o)
			continue;
		dst = ibu_xy_owner_switch(t, o, &last);
		if (dst < 0)
			return ibu_err_set(e, IBU_ETOPO,
					   "LID %u belongs to a port that is not cabled to the mesh",
					   lid);
		for (s = 0; s < t->num_switches; s++) {
			struct ibu_xy_mismatch mm;

			if (t->sw[s].node < 0)
				continue;	/* a damaged mesh's missing switch */
			mm.node = t->sw[s].node;
			mm.lid = lid;
			mm.have = ibu_lft_get(lft, mm.node, lid);
			mm.want = t->dmg ? detour_port(t, s, dst, last) :
					   port_for(t, s, dst, last);
			(*entries)++;
			if (mm.have == mm.want)
				continue;
			(*bad)++;
			if (fn)
				fn(ctx, &mm);
		}
	}
	return IBU_OK;
}
