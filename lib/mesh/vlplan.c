/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <string.h>
#include "err.h"
#include "vlplan.h"

static const char *const names[IBU_VLPLAN_KINDS] = {
	"1", "2-spread", "2-direction", "4-spread", "4-direction",
};

int ibu_vlplan_parse(const char *s, enum ibu_vlplan_kind *k)
{
	int i;

	for (i = 0; i < IBU_VLPLAN_KINDS; i++)
		if (!strcmp(s, names[i])) {
			*k = (enum ibu_vlplan_kind)i;
			return IBU_OK;
		}
	return IBU_EINVAL;
}

const char *ibu_vlplan_name(enum ibu_vlplan_kind k)
{
	return (int)k >= 0 && k < IBU_VLPLAN_KINDS ? names[k] : "?";
}

int ibu_vlplan_num_vls(enum ibu_vlplan_kind k)
{
	switch (k) {
	case IBU_VLPLAN_2_SPREAD:
	case IBU_VLPLAN_2_DIRECTION:
		return 2;
	case IBU_VLPLAN_4_SPREAD:
	case IBU_VLPLAN_4_DIRECTION:
		return 4;
	default:
		return 1;
	}
}

int ibu_vlplan_path_sl(enum ibu_vlplan_kind k, unsigned a, unsigned b)
{
	if (k == IBU_VLPLAN_2_SPREAD || k == IBU_VLPLAN_4_SPREAD)
		return (int)((a + b) % (unsigned)ibu_vlplan_num_vls(k));
	return 0;
}

int ibu_vlplan_vl(enum ibu_vlplan_kind k, int out_dir, int sl)
{
	switch (k) {
	case IBU_VLPLAN_2_SPREAD:
		return sl % 2;
	case IBU_VLPLAN_4_SPREAD:
		return sl % 4;
	case IBU_VLPLAN_2_DIRECTION:
		return out_dir == IBU_DIR_S || out_dir == IBU_DIR_W ? 1 : 0;
	case IBU_VLPLAN_4_DIRECTION:
		/* E, N, W, S are 0..3 in enum ibu_dir */
		return out_dir >= 0 && out_dir < IBU_DIRS ? out_dir : 0;
	default:
		return 0;
	}
}

int ibu_vlplan_sl2vl(enum ibu_vlplan_kind k, const struct ibu_mesh *t,
		     int node, int in_port, int out_port,
		     uint8_t vl_of_sl[16])
{
	int sl, dir = IBU_DIR_LOCAL;

	(void)in_port;
	if (ibu_mesh_sw(t, node) >= 0) {
		dir = ibu_mesh_port_dir(t, node, out_port);
		if (dir < 0)
			return IBU_EINVAL;
	} else if (node < 0 || node >= t->num_fabric_nodes) {
		return IBU_EINVAL;
	}
	for (sl = 0; sl < 16; sl++)
		vl_of_sl[sl] = (uint8_t)ibu_vlplan_vl(k, dir, sl);
	return IBU_OK;
}

int ibu_vlplan_point(const struct ibu_mesh *t, int node, int port)
{
	int s = ibu_mesh_sw(t, node);

	if (s >= 0)
		return t->num_endports + s;
	return ibu_mesh_ep(t, node, port);
}

static int cdg_sl(void *arg, int src_node, int src_port, uint32_t dlid)
{
	const struct ibu_vlplan_cdg *c = arg;
	const struct ibu_lid_owner *o;
	int a, b;

	if (dlid >= 0xC000)
		return 0;
	o = ibu_lidmap_get(c->map, dlid);
	a = ibu_vlplan_point(c->t, src_node, src_port);
	b = o ? ibu_vlplan_point(c->t, o->node, o->port) : -1;
	if (a < 0 || b < 0)
		return 0;
	return ibu_vlplan_path_sl(c->kind, (unsigned)a, (unsigned)b);
}

static int cdg_vl(void *arg, int node, int in_port, int out_port, int sl)
{
	const struct ibu_vlplan_cdg *c = arg;
	uint8_t v[16];

	if (ibu_vlplan_sl2vl(c->kind, c->t, node, in_port, out_port, v))
		return -1;
	return v[sl & 15];
}

void ibu_vlplan_cdg_vl(struct ibu_cdg_vl *vl, struct ibu_vlplan_cdg *ctx)
{
	memset(vl, 0, sizeof(*vl));
	vl->num_vls = ibu_vlplan_num_vls(ctx->kind);
	vl->path_sl = cdg_sl;
	vl->vl = cdg_vl;
	vl->ctx = ctx;
}
