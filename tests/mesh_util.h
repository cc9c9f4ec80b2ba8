/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Fabric builders and mesh assertions shared by the mesh unit tests. */
#ifndef IBU_TEST_MESH_UTIL_H
#define IBU_TEST_MESH_UTIL_H

#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "fabric.h"
#include "gen.h"
#include "gen_mesh.h"
#include "mesh.h"

/*
 * An X x Y grid of switches (8 ports: E=1 N=2 W=3 S=4, HCAs from 5),
 * optionally wrapped in x and/or y (a torus/ring), with `hcas` CAs each.
 */
static inline void tm_grid(struct ibu_fabric *f, int X, int Y, int wrapx,
			   int wrapy, int hcas)
{
	struct ibu_err e = { 0 };
	int *sw = malloc((size_t)X * Y * sizeof(int)), x, y, k, idx;
	char name[64];

	ck_assert_ptr_nonnull(sw);
	ck_assert_int_eq(ibu_fabric_init(f, "test"), 0);
	for (y = 0; y < Y; y++)
		for (x = 0; x < X; x++) {
			snprintf(name, sizeof(name), "s%d.%d", x, y);
			ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_SWITCH, name,
							     0x200000 + (uint64_t)(x + X * y),
							     8, &sw[x + X * y], &e), 0);
		}
	for (y = 0; y < Y; y++)
		for (x = 0; x < X; x++) {
			int s = sw[x + X * y];

			if (x + 1 < X || (wrapx && X > 2))
				ck_assert_int_eq(ibu_fabric_link(f, s, 1,
					sw[(x + 1) % X + X * y], 3, &e), 0);
			if (y + 1 < Y || (wrapy && Y > 2))
				ck_assert_int_eq(ibu_fabric_link(f, s, 2,
					sw[x + X * ((y + 1) % Y)], 4, &e), 0);
			for (k = 0; k < hcas; k++) {
				snprintf(name, sizeof(name), "h%d.%d.%d", x, y, k);
				ck_assert_int_eq(ibu_fabric_add_node(f, IBU_NODE_CA, name,
					0x100000 + 2 * (uint64_t)((x + X * y) * hcas + k),
					1, &idx, &e), 0);
				ck_assert_int_eq(ibu_fabric_link(f, s, 5 + k, idx, 1, &e), 0);
			}
		}
	ck_assert_int_eq(ibu_fabric_index(f, &e), 0);
	free(sw);
}

/* Every direction port leads to the grid neighbour; every HCA hangs off
 * its switch; the labels are a bijection onto the m x n grid. */
static inline void tm_assert_mesh(const struct ibu_fabric *f,
				  const struct ibu_mesh *t)
{
	int s, d, i, eps = 0;

	ck_assert_int_eq(t->num_switches, t->m * t->n);
	for (s = 0; s < t->num_switches; s++) {
		const struct ibu_mesh_switch *w = &t->sw[s];
		const struct ibu_node *nd = &f->nodes[w->node];

		ck_assert_int_eq(ibu_mesh_index(t, w->x, w->y), s);
		ck_assert_int_eq(ibu_mesh_sw(t, w->node), s);
		for (d = 0; d < IBU_DIRS; d++) {
			int nb = ibu_mesh_neighbour(t, s, d);

			if (nb < 0) {
				ck_assert_int_eq(w->port[d], 0);
				continue;
			}
			ck_assert_int_gt(w->port[d], 0);
			ck_assert_int_eq(nd->ports[w->port[d]].peer_node,
					 t->sw[nb].node);
			ck_assert_int_eq(ibu_mesh_port_dir(t, w->node, w->port[d]), d);
		}
		for (i = 0; i < w->num_eps; i++) {
			const struct ibu_mesh_endport *ep = &t->ep[w->first_ep + i];

			ck_assert_int_eq(ep->sw, s);
			ck_assert_int_eq(nd->ports[ep->sw_port].peer_node, ep->node);
			ck_assert_int_eq(ibu_mesh_ep(t, ep->node, ep->port),
					 w->first_ep + i);
			ck_assert_int_eq(ibu_mesh_port_dir(t, w->node, ep->sw_port),
					 IBU_DIR_LOCAL);
		}
		eps += w->num_eps;
	}
	ck_assert_int_eq(eps, t->num_endports);
	ck_assert_int_eq(eps, ibu_fabric_count_endports(f));
}

/* The switch index of generated switch "sw-x.y" (names: tests only). */
static inline int tm_sw_by_name(const struct ibu_fabric *f,
				const struct ibu_mesh *t, int x, int y)
{
	char name[64];
	int node;

	snprintf(name, sizeof(name), "sw-%d.%d", x, y);
	node = ibu_fabric_find_name(f, name);
	ck_assert_int_ge(node, 0);
	return ibu_mesh_sw(t, node);
}

#endif
