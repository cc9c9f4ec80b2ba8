/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The 2-D mesh generator (see gen.h). */
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

int ibu_gen_mesh(struct ibu_fabric *f, int X, int Y, int hcas,
		 const struct ibu_gen_opts *o, struct ibu_err *e)
{
	struct ibu_gen_opts defaults = { 0 };
	long nsw = (long)X * Y, nca = nsw * hcas, total = nsw + nca, i;
	int nports = 4 + hcas, *order = NULL, *node = NULL, *phys = NULL;
	uint64_t st, ca_guid = 0x100000, sw_guid = 0x200000;
	const char *pre;
	int rc, k, x, y;

	if (!o)
		o = &defaults;
	pre = o->prefix ? o->prefix : "";
	if (X < 1 || Y < 1 || hcas < 0 || nsw > 16384 || nports > IBU_MAX_PORTS)
		return ibu_err_set(e, IBU_EINVAL,
				   "mesh %d x %d with %d HCAs per switch: sizes must be >= 1, at most 16384 switches and %d HCAs per switch",
				   X, Y, hcas, IBU_MAX_PORTS - 4);
	rc = ibu_fabric_init(f, "generated");
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	/* slot: switch x + X * y (column-major, so that the canonical
	 * orientation of the unshuffled file is the generator's), then HCA
	 * nsw + switch slot * hcas + k */
	order = malloc(total * sizeof(int));
	node = malloc(total * sizeof(int));
	phys = malloc(nsw * (nports + 1) * sizeof(int));
	if (!order || !node || !phys) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	i = 0;
	if (hcas)
		order[i++] = (int)nsw;	/* an HCA first: ibsim's SM port */
	for (k = 0; k < nsw; k++)
		order[i++] = k;
	for (k = hcas ? 1 : 0; k < nca; k++)
		order[i++] = (int)nsw + k;
	st = o->seed ^ 0x5eedull;
	if (o->shuffle_records)
		ibu_gen_shuffle(order + (hcas ? 1 : 0), (int)total - (hcas ? 1 : 0), &st);
	for (i = 0; i < total && !rc; i++) {
		char name[96];
		int idx, slot = order[i];

		if (slot < nsw) {
			snprintf(name, sizeof(name), "%ssw-%d.%d", pre, slot % X,
				 slot / X);
			rc = ibu_fabric_add_node(f, IBU_NODE_SWITCH, name,
						 sw_guid++, nports, &idx, e);
		} else {
			int s = (slot - (int)nsw) / hcas;

			snprintf(name, sizeof(name), "%shca-%d.%d.%d", pre,
				 s % X, s / X, (slot - (int)nsw) % hcas);
			rc = ibu_fabric_add_node(f, IBU_NODE_CA, name, ca_guid,
						 1, &idx, e);
			ca_guid += 2;
		}
		node[slot] = idx;
	}
	if (rc)
		goto out;
	st = o->seed;
	for (k = 0; k < nsw; k++) {
		int *p = phys + (long)k * (nports + 1), j;

		for (j = 0; j <= nports; j++)
			p[j] = j;
		if (o->shuffle_ports)
			ibu_gen_shuffle(p + 1, nports, &st);
	}
	/* paper ports: E = 1, N = 2, W = 3, S = 4, HCA k = 5 + k */
	for (y = 0; y < Y && !rc; y++)
		for (x = 0; x < X && !rc; x++) {
			int s = x + X * y;
			int *p = phys + (long)s * (nports + 1);

			if (x + 1 < X)
				rc = ibu_fabric_link(f, node[s], p[1],
						     node[s + 1],
						     phys[(long)(s + 1) * (nports + 1) + 3], e);
			if (!rc && y + 1 < Y)
				rc = ibu_fabric_link(f, node[s], p[2],
						     node[s + X],
						     phys[(long)(s + X) * (nports + 1) + 4], e);
			for (k = 0; k < hcas && !rc; k++)
				rc = ibu_fabric_link(f, node[s], p[5 + k],
						     node[nsw + (long)s * hcas + k],
						     1, e);
		}
	if (!rc)
		rc = ibu_gen_damage(f, o, e);
	if (!rc && o->remove_switches > 0)
		rc = drop_orphans(f, e);
	if (!rc)
		rc = ibu_fabric_index(f, e);
out:
	free(order);
	free(node);
	free(phys);
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
