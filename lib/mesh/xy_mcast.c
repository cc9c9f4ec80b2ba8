/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "xy_mcast.h"
#include "xy.h"

int ibu_xy_mcast_load_init(struct ibu_xy_mcast_load *l,
			   const struct ibu_mesh *t, struct ibu_err *e)
{
	int size[2] = { t->num_switches, t->num_switches }, rc;

	memset(l, 0, sizeof(*l));
	rc = ibu_mcload_init(&l->core, 2, size, e);
	if (rc)
		return rc;
	l->num_switches = t->num_switches;
	l->rooted = l->core.count[0];
	l->through = l->core.count[1];
	return IBU_OK;
}

void ibu_xy_mcast_load_free(struct ibu_xy_mcast_load *l)
{
	if (!l)
		return;
	ibu_mcload_free(&l->core);
	memset(l, 0, sizeof(*l));
}

void ibu_xy_mcast_load_release(struct ibu_xy_mcast_load *l, uint32_t key)
{
	if (l)
		ibu_mcload_release(&l->core, key);
}

void ibu_xy_mcast_load_prune(struct ibu_xy_mcast_load *l,
			     int (*alive)(void *ctx, uint32_t key), void *ctx)
{
	ibu_mcload_prune(&l->core, alive, ctx);
}

int ibu_xy_mcast_load_count(const struct ibu_xy_mcast_load *l)
{
	return ibu_mcload_count(&l->core);
}

/* Records the root and the switches of tree under key. */
static int load_record(struct ibu_xy_mcast_load *l, uint32_t key,
		       const struct ibu_xy_mcast_tree *tree, struct ibu_err *e)
{
	const int *items[2] = { &tree->root, tree->switches };
	int n[2] = { tree->root >= 0, tree->num_switches };

	return ibu_mcload_add(&l->core, key, items, n, e);
}

int ibu_xy_mcast_load_record(struct ibu_xy_mcast_load *l, uint32_t key,
			     const struct ibu_xy_mcast_tree *tree,
			     struct ibu_err *e)
{
	ibu_xy_mcast_load_release(l, key);
	return tree->root >= 0 ? load_record(l, key, tree, e) : IBU_OK;
}

int ibu_xy_mcast_root_row(const struct ibu_mesh *t)
{
	return (t->n - 1) / 2;
}

void ibu_xy_mcast_tree_free(struct ibu_xy_mcast_tree *tree)
{
	if (!tree)
		return;
	free(tree->switches);
	free(tree->ports);
	free(tree->up);
	free(tree->down);
	memset(tree, 0, sizeof(*tree));
	tree->root = -1;
}

/* member resolved to the mesh */
struct mem {
	int sw;
	int port;		/* switch port of the CA, 0 for the switch */
	int ep;			/* end-port rank, -1 for a switch */
	int recv;
	int send_only_ca;
};

static int resolve(const struct ibu_fabric *f, const struct ibu_mesh *t,
		   const struct ibu_mcast_member *m, struct mem *r,
		   struct ibu_err *e)
{
	if (m->node < 0 || m->node >= f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "member node %d does not exist",
				   m->node);
	r->sw = ibu_mesh_sw(t, m->node);
	r->recv = !m->send_only;
	r->send_only_ca = 0;
	if (r->sw >= 0) {
		r->port = 0;
		r->ep = -1;
		return IBU_OK;
	}
	r->ep = ibu_mesh_ep(t, m->node, m->port);
	if (r->ep < 0)
		return ibu_err_set(e, IBU_ETOPO,
				   "member '%s' port %d is not an end port of the mesh",
				   f->nodes[m->node].name, m->port);
	r->sw = t->ep[r->ep].sw;
	r->port = t->ep[r->ep].sw_port;
	r->send_only_ca = m->send_only;
	return IBU_OK;
}

static int choose_root(const struct ibu_fabric *f, const struct ibu_mesh *t,
		       const struct mem *mem, int num,
		       enum ibu_mcast_policy policy,
		       const struct ibu_xy_mcast_load *load,
		       struct ibu_xy_mcast_tree *tree)
{
	int i, x, xmin = t->m, xmax = -1, y0 = ibu_xy_mcast_root_row(t);
	int best = -1;

	if (policy == IBU_MCAST_SOURCE) {
		int ep = -1;

		for (i = 0; i < num; i++)
			if (mem[i].send_only_ca && (ep < 0 || mem[i].ep < ep))
				ep = mem[i].ep;
		if (ep >= 0) {
			tree->policy = IBU_MCAST_SOURCE;
			tree->num_candidates = 1;
			return t->ep[ep].sw;
		}
		policy = IBU_MCAST_BALANCED;
	}
	/* a mesh keeps no set of switches that held an MLID: compact is
	 * balanced here, and says so */
	if (policy == IBU_MCAST_COMPACT)
		policy = IBU_MCAST_BALANCED;
	tree->policy = policy;
	for (i = 0; i < num; i++) {
		x = t->sw[mem[i].sw].x;
		if (x < xmin)
			xmin = x;
		if (x > xmax)
			xmax = x;
	}
	tree->num_candidates = xmax - xmin + 1;
	for (x = xmin; x <= xmax; x++) {
		int s = ibu_mesh_index(t, x, y0);

		if (best < 0) {
			best = s;
		} else if (policy == IBU_MCAST_LOWEST_GUID) {
			if (f->nodes[t->sw[s].node].guid <
			    f->nodes[t->sw[best].node].guid)
				best = s;
		} else if (load) {
			if (load->rooted[s] < load->rooted[best] ||
			    (load->rooted[s] == load->rooted[best] &&
			     load->through[s] < load->through[best]))
				best = s;
		}
	}
	return best;
}

static int opposite(int d)
{
	return (d + 2) % IBU_DIRS;
}

/* Adds the XY path root -> dst to the tree. */
static void add_path(const struct ibu_mesh *t, struct ibu_xy_mcast_tree *tree,
		     int root, int dst)
{
	int cur = root;

	while (cur != dst) {
		int d = ibu_xy_dir(t, cur, dst);
		int next = ibu_mesh_neighbour(t, cur, d);

		tree->down[cur] |= (uint8_t)(1u << d);
		tree->up[next] = (int8_t)opposite(d);
		ibu_pm_set(&tree->ports[cur], t->sw[cur].port[d]);
		ibu_pm_set(&tree->ports[next], t->sw[next].port[opposite(d)]);
		cur = next;
	}
}

/* members[0..num-1] resolved into mem, duplicates merged (receiving
 * wins); *out the number left. */
static int merge_members(const struct ibu_fabric *f, const struct ibu_mesh *t,
			 const struct ibu_mcast_member *members, int num,
			 struct mem *mem, int *out, struct ibu_err *e)
{
	int i, j, k, rc;

	for (i = 0, j = 0; i < num; i++) {
		struct mem r;

		rc = resolve(f, t, &members[i], &r, e);
		if (rc)
			return rc;
		for (k = 0; k < j; k++)
			if (mem[k].sw == r.sw && mem[k].port == r.port)
				break;
		if (k < j) {
			if (r.recv) {
				mem[k].recv = 1;
				mem[k].send_only_ca = 0;
			}
			continue;
		}
		mem[j++] = r;
	}
	*out = j;
	return IBU_OK;
}

/* The tree's switches, breadth first from the root. */
static void list_switches(const struct ibu_mesh *t,
			  struct ibu_xy_mcast_tree *tree)
{
	int head = 0, tail = 0;

	tree->switches[tail++] = tree->root;
	while (head < tail) {
		int s = tree->switches[head++], d;

		for (d = 0; d < IBU_DIRS; d++)
			if (tree->down[s] & (1u << d))
				tree->switches[tail++] = ibu_mesh_neighbour(t, s, d);
	}
	tree->num_switches = tail;
}

int ibu_xy_mcast_tree_build(const struct ibu_fabric *f,
			    const struct ibu_mesh *t,
			    const struct ibu_mcast_member *members, int num,
			    enum ibu_mcast_policy policy,
			    struct ibu_xy_mcast_load *load, uint32_t key,
			    struct ibu_xy_mcast_tree *tree, struct ibu_err *e)
{
	int S = t->num_switches, i, rc;
	struct mem *mem = NULL;

	memset(tree, 0, sizeof(*tree));
	tree->root = -1;
	tree->policy = policy;
	mem = malloc((num ? num : 1) * sizeof(*mem));
	tree->switches = malloc(S * sizeof(int));
	tree->ports = calloc(S, sizeof(*tree->ports));
	tree->up = malloc(S);
	tree->down = calloc(S, 1);
	if (!mem || !tree->switches || !tree->ports || !tree->up ||
	    !tree->down) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto fail;
	}
	memset(tree->up, -1, S);
	rc = merge_members(f, t, members, num, mem, &num, e);
	if (rc)
		goto fail;
	tree->num_members = num;
	for (i = 0; i < num; i++)
		tree->num_receivers += mem[i].recv;
	if (load)
		ibu_xy_mcast_load_release(load, key);
	if (!num) {
		free(mem);
		return IBU_OK;
	}
	tree->root = choose_root(f, t, mem, num, policy, load, tree);
	tree->up[tree->root] = IBU_DIR_LOCAL;
	for (i = 0; i < num; i++) {
		add_path(t, tree, tree->root, mem[i].sw);
		if (mem[i].recv)
			ibu_pm_set(&tree->ports[mem[i].sw], mem[i].port);
	}
	list_switches(t, tree);
	free(mem);
	mem = NULL;
	if (load) {
		rc = load_record(load, key, tree, e);
		if (rc)
			goto fail;
	}
	return IBU_OK;
fail:
	free(mem);
	ibu_xy_mcast_tree_free(tree);
	return rc;
}

int ibu_xy_mcast_tree_to_mft(const struct ibu_mesh *t,
			     const struct ibu_xy_mcast_tree *tree,
			     uint16_t mlid, struct ibu_mft *mft,
			     struct ibu_err *e)
{
	struct ibu_mft_group *g = ibu_mft_group(mft, mlid, e);
	int i;

	if (!g)
		return e ? e->code : IBU_ENOMEM;
	for (i = 0; i < tree->num_switches; i++) {
		int s = tree->switches[i], node = t->sw[s].node, w;

		if (node < 0 || node >= mft->num_nodes)
			return ibu_err_set(e, IBU_EINVAL, "switch node %d outside the MFT",
					   node);
		for (w = 0; w < 4; w++)
			g->mask[node].w[w] |= tree->ports[s].w[w];
	}
	return IBU_OK;
}
