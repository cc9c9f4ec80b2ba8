/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The 2-D mesh generator (see gen_mesh.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_mesh.h"

/* A removed switch takes its HCAs with it (they would be records with no
 * cable); the first record stays whatever happens: it is ibsim's SM port. */
static int drop_orphans(struct ibu_fabric *f, struct ibu_err *e)
{
	uint8_t *drop = calloc((size_t)f->num_nodes + 1, 1);
	int n, p, any = 0, rc;

	if (!drop)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (n = 1; n < f->num_nodes; n++) {
		if (ibu_node_is_switch(&f->nodes[n]))
			continue;
		drop[n] = 1;
		for (p = 1; p <= f->nodes[n].num_ports; p++)
			if (f->nodes[n].ports[p].peer_node >= 0)
				drop[n] = 0;
		any |= drop[n];
	}
	rc = any ? ibu_fabric_remove_nodes(f, drop, e) : IBU_OK;
	free(drop);
	return rc;
}

/* One mesh being generated: slot s < nsw is switch x + X * y
 * (column-major, so that the canonical orientation of the unshuffled
 * file is the generator's), slot nsw + switch slot * hcas + k its HCA k. */
struct mesh_gen {
	struct ibu_fabric *f;
	const struct ibu_gen_opts *o;
	int X, Y, hcas, nports;
	long nsw, nca, total;
	int *order;	/* [record] slot, the file's record order */
	int *node;	/* [slot] fabric node */
	int *phys;	/* [switch slot * (nports + 1) + paper port] physical */
};

/* The records' order: an HCA first (ibsim's SM port), then the switches,
 * then the other HCAs; shuffled after the first on request. */
static void record_order(struct mesh_gen *g)
{
	long i = 0, k;
	uint64_t st = g->o->seed ^ 0x5eedull;
	int first = g->hcas ? 1 : 0;

	if (g->hcas)
		g->order[i++] = (int)g->nsw;
	for (k = 0; k < g->nsw; k++)
		g->order[i++] = (int)k;
	for (k = first; k < g->nca; k++)
		g->order[i++] = (int)(g->nsw + k);
	if (g->o->shuffle_records)
		ibu_gen_shuffle(g->order + first, (int)g->total - first, &st);
}

static int add_nodes(struct mesh_gen *g, struct ibu_err *e)
{
	const char *pre = g->o->prefix ? g->o->prefix : "";
	uint64_t ca_guid = 0x100000, sw_guid = 0x200000;
	int rc = IBU_OK, X = g->X;
	long i;

	for (i = 0; i < g->total && !rc; i++) {
		char name[96];
		int idx, slot = g->order[i];

		if (slot < g->nsw) {
			snprintf(name, sizeof(name), "%ssw-%d.%d", pre, slot % X,
				 slot / X);
			rc = ibu_fabric_add_node(g->f, IBU_NODE_SWITCH, name,
						 sw_guid++, g->nports, &idx, e);
		} else {
			int s = (slot - (int)g->nsw) / g->hcas;

			snprintf(name, sizeof(name), "%shca-%d.%d.%d", pre,
				 s % X, s / X, (slot - (int)g->nsw) % g->hcas);
			rc = ibu_fabric_add_node(g->f, IBU_NODE_CA, name,
						 ca_guid, 1, &idx, e);
			ca_guid += 2;
		}
		g->node[slot] = idx;
	}
	return rc;
}

/* Physical port of each paper port of every switch (shuffled on request). */
static void port_maps(struct mesh_gen *g)
{
	uint64_t st = g->o->seed;
	long k;

	for (k = 0; k < g->nsw; k++) {
		int *p = g->phys + k * (g->nports + 1), j;

		for (j = 0; j <= g->nports; j++)
			p[j] = j;
		if (g->o->shuffle_ports)
			ibu_gen_shuffle(p + 1, g->nports, &st);
	}
}

/* Paper ports: E = 1, N = 2, W = 3, S = 4, HCA k = 5 + k. */
static int cable(struct mesh_gen *g, struct ibu_err *e)
{
	int rc = IBU_OK, x, y, k, X = g->X, w = g->nports + 1;
	const int *node = g->node;

	for (y = 0; y < g->Y && !rc; y++)
		for (x = 0; x < X && !rc; x++) {
			int s = x + X * y;
			const int *p = g->phys + (long)s * w;

			if (x + 1 < X)
				rc = ibu_fabric_link(g->f, node[s], p[1],
						     node[s + 1],
						     g->phys[(long)(s + 1) * w + 3], e);
			if (!rc && y + 1 < g->Y)
				rc = ibu_fabric_link(g->f, node[s], p[2],
						     node[s + X],
						     g->phys[(long)(s + X) * w + 4], e);
			for (k = 0; k < g->hcas && !rc; k++)
				rc = ibu_fabric_link(g->f, node[s], p[5 + k],
						     node[g->nsw + (long)s * g->hcas + k],
						     1, e);
		}
	return rc;
}

int ibu_gen_mesh(struct ibu_fabric *f, int X, int Y, int hcas,
		 const struct ibu_gen_opts *o, struct ibu_err *e)
{
	static const struct ibu_gen_opts defaults;
	struct mesh_gen g = { .f = f, .o = o ? o : &defaults, .X = X, .Y = Y,
			      .hcas = hcas, .nports = 4 + hcas };
	int rc;

	g.nsw = (long)X * Y;
	g.nca = g.nsw * hcas;
	g.total = g.nsw + g.nca;
	if (X < 1 || Y < 1 || hcas < 0 || g.nsw > 16384 ||
	    g.nports > IBU_MAX_PORTS)
		return ibu_err_set(e, IBU_EINVAL,
				   "mesh %d x %d with %d HCAs per switch: sizes must be >= 1, at most 16384 switches and %d HCAs per switch",
				   X, Y, hcas, IBU_MAX_PORTS - 4);
	rc = ibu_fabric_init(f, "generated");
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	g.order = malloc(g.total * sizeof(int));
	g.node = malloc(g.total * sizeof(int));
	g.phys = malloc(g.nsw * (g.nports + 1) * sizeof(int));
	if (!g.order || !g.node || !g.phys)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!rc) {
		record_order(&g);
		rc = add_nodes(&g, e);
	}
	if (!rc) {
		port_maps(&g);
		rc = cable(&g, e);
	}
	if (!rc)
		rc = ibu_gen_damage(f, g.o, e);
	if (!rc && g.o->remove_switches > 0)
		rc = drop_orphans(f, e);
	if (!rc)
		rc = ibu_fabric_index(f, e);
	free(g.order);
	free(g.node);
	free(g.phys);
	if (rc)
		ibu_fabric_free(f);
	return rc;
}

static int make_mesh(struct ibu_fabric *f, char *const *pos,
		     const struct ibu_gen_arg *args, int nargs,
		     const struct ibu_gen_opts *o, char *head, size_t len,
		     struct ibu_err *e)
{
	const char *h = ibu_gen_arg_find(args, nargs, "hcas");
	int X, Y, hcas = 1, rc;

	if (ibu_gen_arg_int("X", pos[0], 1, 16384, &X, e) ||
	    ibu_gen_arg_int("Y", pos[1], 1, 16384, &Y, e) ||
	    (h && ibu_gen_arg_int("--hcas", h, 0, 250, &hcas, e)))
		return IBU_EINVAL;
	if (o->extra_ports)
		return ibu_err_set(e, IBU_EINVAL, "--extra-ports is for fat trees");
	rc = ibu_gen_mesh(f, X, Y, hcas, o, e);
	if (!rc)
		snprintf(head, len, "%d x %d mesh, %d HCAs per switch", X, Y,
			 hcas);
	return rc;
}

static const char *const mesh_keys[] = { "hcas", NULL };

const struct ibu_engine_gen ibu_xy_gen = {
	.shape = "mesh", .synopsis = "X Y [--hcas K] [options]",
	.help = "  mesh: the 2-D mesh of X x Y switches with K HCAs per switch\n"
		"  (default 1; switches have 4 + K ports: E, N, W, S, then the HCAs\n"
		"  unless shuffled)\n",
	.keys = mesh_keys,
	.keys_help = "  --hcas K              mesh: HCAs per switch (default 1, 0..250)\n",
	.num_positional = 2, .make = make_mesh,
};
