/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "xy" (paper 001): 2-D mesh recognition, XY unicast, union
 * multicast trees rooted on one common row, and the paper's VL plans, as
 * one ops table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "mesh.h"
#include "xy.h"

static void topo_free(void *topo)
{
	if (!topo)
		return;
	ibu_mesh_free(topo);
	free(topo);
}

static int recognise(const struct ibu_fabric *f,
		     const struct ibu_engine_opts *o, void **topo,
		     struct ibu_err *e)
{
	struct ibu_mesh *t = calloc(1, sizeof(*t));
	int rc;

	(void)o;
	*topo = NULL;
	if (!t)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = ibu_mesh_recognize(f, t, e);
	if (rc) {
		free(t);
		return rc;
	}
	*topo = t;
	return IBU_OK;
}

static int route(const struct ibu_fabric *f, const void *topo,
		 const struct ibu_lidmap *map, const struct ibu_engine_opts *o,
		 struct ibu_lft *lft, struct ibu_err *e)
{
	(void)o;
	return ibu_xy_route(f, topo, map, lft, e);
}

/* XY needs one LID per end port: LMC 0 unless asked for more. */
static int assign_lids(struct ibu_fabric *f, const void *topo, int lmc,
		       int paper_exact, int *lmc_used, struct ibu_err *e)
{
	if (lmc < 0)
		lmc = 0;
	*lmc_used = lmc;
	return ibu_xy_assign_lids(f, topo, lmc, paper_exact, e);
}

static void describe(const struct ibu_fabric *f, const void *topo, char *buf,
		     size_t len)
{
	const struct ibu_mesh *t = topo;
	int s, lo = -1, hi = 0, lmc = -1, i;

	for (s = 0; s < t->num_switches; s++) {
		if (lo < 0 || t->sw[s].num_eps < lo)
			lo = t->sw[s].num_eps;
		if (t->sw[s].num_eps > hi)
			hi = t->sw[s].num_eps;
	}
	for (i = 0; i < t->num_endports; i++) {
		int l = f->nodes[t->ep[i].node].ports[t->ep[i].port].lmc;

		if (lmc < 0 || l < lmc)
			lmc = l;
	}
	if (lo == hi)
		snprintf(buf, len,
			 "%d x %d mesh: %d switches, %d end ports (%d per switch), LMC %d",
			 t->m, t->n, t->num_switches, t->num_endports, lo,
			 lmc < 0 ? 0 : lmc);
	else
		snprintf(buf, len,
			 "%d x %d mesh: %d switches, %d end ports (%d to %d per switch), LMC %d",
			 t->m, t->n, t->num_switches, t->num_endports, lo, hi,
			 lmc < 0 ? 0 : lmc);
}

static void node_label(const void *topo, int node, char *buf, size_t len)
{
	const struct ibu_mesh *t = topo;

	ibu_mesh_sw_label(t, ibu_mesh_sw(t, node), buf, len);
}

const struct ibu_engine_ops ibu_engine_xy = {
	.name = "xy",
	.topology = "2-D mesh",
	.recognise = recognise,
	.topo_free = topo_free,
	.route = route,
	.assign_lids = assign_lids,
	.describe = describe,
	.node_label = node_label,
};
