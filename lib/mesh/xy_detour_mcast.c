/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast trees on a damaged mesh (see xy_detour.h). */
#include <stdlib.h>
#include <string.h>
#include "xy_detour.h"

static int tree_alloc(const struct ibu_mesh *t, struct ibu_xy_mcast_tree *tr,
		      struct ibu_err *e)
{
	int S = t->num_switches;

	memset(tr, 0, sizeof(*tr));
	tr->root = -1;
	tr->policy = IBU_MCAST_BALANCED;
	tr->num_candidates = 1;
	tr->switches = malloc(S * sizeof(int));
	tr->ports = calloc(S, sizeof(*tr->ports));
	tr->up = malloc(S);
	tr->down = calloc(S, 1);
	if (!tr->switches || !tr->ports || !tr->up || !tr->down) {
		ibu_xy_mcast_tree_free(tr);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	memset(tr->up, -1, S);
	return IBU_OK;
}

/* Switch of a member, and whether its switch port joins the tree. */
static int member_switch(const struct ibu_fabric *f, const struct ibu_mesh *t,
			 const struct ibu_mcast_member *m, int *port,
			 struct ibu_err *e)
{
	int s, ep;

	if (m->node < 0 || m->node >= f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "member node %d is outside the fabric",
				   m->node);
	s = ibu_mesh_sw(t, m->node);
	if (s >= 0) {
		*port = 0;
		return s;
	}
	ep = ibu_mesh_ep(t, m->node, m->port);
	if (ep < 0)
		return ibu_err_set(e, IBU_ETOPO, "member '%s' port %d is not cabled to the mesh",
				   f->nodes[m->node].name, m->port);
	*port = t->ep[ep].sw_port;
	return t->ep[ep].sw;
}

/* Joins sw to the tree: up toward the root until a tree switch. */
static int join(const struct ibu_mesh *t, struct ibu_xy_mcast_tree *tr,
		int sw, struct ibu_err *e)
{
	const struct ibu_mesh_damage *g = t->dmg;

	while (tr->up[sw] < 0) {
		int d = g->mup[sw], p;

		if (d < 0)
			return ibu_err_set(e, IBU_ETOPO, "switch N(%d,%d) is cut off from the multicast root",
					   t->sw[sw].x, t->sw[sw].y);
		tr->up[sw] = (int8_t)d;
		if (d == IBU_DIR_LOCAL)
			break;
		p = ibu_mesh_neighbour(t, sw, d);
		ibu_pm_set(&tr->ports[sw], t->sw[sw].port[d]);
		ibu_pm_set(&tr->ports[p], t->sw[p].port[(d + 2) % IBU_DIRS]);
		tr->down[p] |= (uint8_t)(1u << ((d + 2) % IBU_DIRS));
		sw = p;
	}
	return IBU_OK;
}

/* tree switches root first, parents before children (BFS over down) */
static void order(const struct ibu_mesh *t, struct ibu_xy_mcast_tree *tr)
{
	int head = 0, d;

	tr->num_switches = 0;
	tr->switches[tr->num_switches++] = tr->root;
	while (head < tr->num_switches) {
		int s = tr->switches[head++];

		for (d = 0; d < IBU_DIRS; d++)
			if (tr->down[s] & (1u << d))
				tr->switches[tr->num_switches++] =
					ibu_mesh_neighbour(t, s, d);
	}
}

int ibu_xy_detour_mcast_tree(const struct ibu_fabric *f,
			     const struct ibu_mesh *t,
			     const struct ibu_mcast_member *members, int num,
			     struct ibu_xy_mcast_tree *tree,
			     struct ibu_err *e)
{
	int i, rc;

	if (!t->dmg || !t->dmg->mup)
		return ibu_err_set(e, IBU_EINVAL, "the mesh is not damaged");
	rc = tree_alloc(t, tree, e);
	for (i = 0; !rc && i < num; i++) {
		int port = 0, s = member_switch(f, t, &members[i], &port, e);

		if (s < 0)
			rc = s;
		if (!rc)
			rc = join(t, tree, s, e);
		if (rc)
			break;
		tree->num_members++;
		if (!members[i].send_only) {
			if (!ibu_pm_test(&tree->ports[s], port))
				tree->num_receivers++;
			ibu_pm_set(&tree->ports[s], port);
		}
	}
	if (rc) {
		ibu_xy_mcast_tree_free(tree);
		return rc;
	}
	if (num > 0) {
		tree->root = t->dmg->mroot;
		order(t, tree);
	}
	return IBU_OK;
}
