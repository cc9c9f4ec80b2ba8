/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The multicast tree of a group: union of the downward paths from an apex. */
#include <stdlib.h>
#include <string.h>
#include "mcast.h"

int ibu_mcast_policy_parse(const char *s, enum ibu_mcast_policy *p)
{
	if (!s)
		return IBU_EINVAL;
	if (!strcmp(s, "balanced"))
		*p = IBU_MCAST_BALANCED;
	else if (!strcmp(s, "source"))
		*p = IBU_MCAST_SOURCE;
	else if (!strcmp(s, "lowest-guid"))
		*p = IBU_MCAST_LOWEST_GUID;
	else
		return IBU_EINVAL;
	return IBU_OK;
}

const char *ibu_mcast_policy_name(enum ibu_mcast_policy p)
{
	switch (p) {
	case IBU_MCAST_BALANCED: return "balanced";
	case IBU_MCAST_SOURCE: return "source";
	case IBU_MCAST_LOWEST_GUID: return "lowest-guid";
	}
	return "?";
}

/* ------------------------------------------------------------ load state */

struct ibu_mcast_load_rec {
	uint32_t key;
	int n;
	int *sw;
};

int ibu_mcast_load_init(struct ibu_mcast_load *l, int num_switches,
			struct ibu_err *e)
{
	memset(l, 0, sizeof(*l));
	if (num_switches < 0)
		return ibu_err_set(e, IBU_EINVAL, "negative switch count");
	l->trees = calloc(num_switches ? num_switches : 1, sizeof(*l->trees));
	if (!l->trees)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast load)");
	l->num_switches = num_switches;
	return IBU_OK;
}

void ibu_mcast_load_reset(struct ibu_mcast_load *l)
{
	int i;

	for (i = 0; i < l->num_rec; i++)
		free(l->rec[i].sw);
	l->num_rec = 0;
	if (l->trees)
		memset(l->trees, 0, l->num_switches * sizeof(*l->trees));
}

void ibu_mcast_load_free(struct ibu_mcast_load *l)
{
	if (!l)
		return;
	ibu_mcast_load_reset(l);
	free(l->rec);
	free(l->trees);
	memset(l, 0, sizeof(*l));
}

static int rec_pos(const struct ibu_mcast_load *l, uint32_t key)
{
	int lo = 0, hi = l->num_rec;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (l->rec[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void rec_drop(struct ibu_mcast_load *l, int i)
{
	struct ibu_mcast_load_rec *r = &l->rec[i];
	int k;

	for (k = 0; k < r->n; k++)
		if (r->sw[k] >= 0 && r->sw[k] < l->num_switches &&
		    l->trees[r->sw[k]])
			l->trees[r->sw[k]]--;
	free(r->sw);
	memmove(&l->rec[i], &l->rec[i + 1], (l->num_rec - i - 1) * sizeof(*r));
	l->num_rec--;
}

void ibu_mcast_load_release(struct ibu_mcast_load *l, uint32_t key)
{
	int i = rec_pos(l, key);

	if (i < l->num_rec && l->rec[i].key == key)
		rec_drop(l, i);
}

void ibu_mcast_load_prune(struct ibu_mcast_load *l,
			  int (*alive)(void *ctx, uint32_t key), void *ctx)
{
	int i = 0;

	while (i < l->num_rec) {
		if (!alive(ctx, l->rec[i].key))
			rec_drop(l, i);
		else
			i++;
	}
}

int ibu_mcast_load_count(const struct ibu_mcast_load *l)
{
	return l->num_rec;
}

/* Records the switches of tree under key (the key must be released). */
static int load_add(struct ibu_mcast_load *l, uint32_t key,
		    const struct ibu_mcast_tree *tree, struct ibu_err *e)
{
	struct ibu_mcast_load_rec r = { .key = key, .n = tree->num_switches };
	int i, k;

	if (l->num_rec == l->cap_rec) {
		int cap = l->cap_rec ? 2 * l->cap_rec : 64;
		struct ibu_mcast_load_rec *nr = realloc(l->rec, cap * sizeof(*nr));

		if (!nr)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast load)");
		l->rec = nr;
		l->cap_rec = cap;
	}
	r.sw = malloc((r.n ? r.n : 1) * sizeof(*r.sw));
	if (!r.sw)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast load)");
	memcpy(r.sw, tree->switches, r.n * sizeof(*r.sw));
	for (k = 0; k < r.n; k++)
		l->trees[r.sw[k]]++;
	i = rec_pos(l, key);
	memmove(&l->rec[i + 1], &l->rec[i], (l->num_rec - i) * sizeof(r));
	l->rec[i] = r;
	l->num_rec++;
	return IBU_OK;
}

/* ------------------------------------------------------------ the tree */

struct attach {
	int sw;			/* switch index the member hangs off (or is) */
	int sw_port;		/* physical port of that switch towards the CA, 0 */
	int pid;		/* end port PID, -1 for a switch member */
	int receives;
};

struct build {
	const struct ibu_fabric *f;
	const struct ibu_ibft *t;
	struct ibu_mcast_tree *tree;
	uint8_t *in_tree;	/* [switch] */
	struct ibu_err *e;
};

void ibu_mcast_tree_free(struct ibu_mcast_tree *tree)
{
	if (!tree)
		return;
	free(tree->switches);
	free(tree->ports);
	memset(tree, 0, sizeof(*tree));
	tree->apex = -1;
}

/* Switch index of the peer of physical port p of switch s, -1 if none. */
static int peer_sw(const struct ibu_fabric *f, const struct ibu_ibft *t,
		   int s, int p, int *peer_port)
{
	const struct ibu_node *nd = &f->nodes[t->sw[s].node];
	int peer;

	if (p < 1 || p > nd->num_ports)
		return -1;
	peer = nd->ports[p].peer_node;
	if (peer < 0 || peer >= t->num_fabric_nodes)
		return -1;
	if (peer_port)
		*peer_port = nd->ports[p].peer_port;
	return t->sw_of_node[peer];
}

static int label_cmp(const struct ibu_ibft *t, int a, int b)
{
	return memcmp(t->sw[a].w, t->sw[b].w, t->n > 1 ? t->n - 1 : 1);
}

static int resolve_member(const struct ibu_fabric *f, const struct ibu_ibft *t,
			  const struct ibu_mcast_member *m, struct attach *a,
			  struct ibu_err *e)
{
	const struct ibu_node *nd;

	if (m->node < 0 || m->node >= f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "member node %d out of range",
				   m->node);
	nd = &f->nodes[m->node];
	if (ibu_node_is_switch(nd)) {
		if (m->port != 0)
			return ibu_err_set(e, IBU_ETOPO,
					   "member %s port %d: a switch joins through port 0 only",
					   nd->name, m->port);
		a->sw = ibu_ibft_sw(t, m->node);
		if (a->sw < 0)
			return ibu_err_set(e, IBU_ETOPO,
					   "member switch %s is not part of the fat tree",
					   nd->name);
		a->sw_port = 0;
		a->pid = -1;
	} else {
		if (m->port < 1 || m->port > nd->num_ports)
			return ibu_err_set(e, IBU_EINVAL,
					   "member %s has no port %d", nd->name,
					   m->port);
		a->pid = ibu_ibft_ep(t, m->node, m->port);
		if (a->pid < 0)
			return ibu_err_set(e, IBU_ETOPO,
					   "member %s port %d is not an end port of the fat tree",
					   nd->name, m->port);
		a->sw = t->ep[a->pid].leaf;
		a->sw_port = nd->ports[m->port].peer_port;
	}
	a->receives = !m->send_only;
	return IBU_OK;
}

/*
 * Merges members naming the same port (slot arrays: one per end port and
 * one per switch, -1 filled); returns the number kept.
 */
static int merge_members(struct attach *a, int num, int *slot_ep, int *slot_sw)
{
	int i, n = 0;

	for (i = 0; i < num; i++) {
		int *slot = a[i].pid >= 0 ? &slot_ep[a[i].pid] : &slot_sw[a[i].sw];

		if (*slot >= 0) {
			a[*slot].receives |= a[i].receives;
			continue;
		}
		*slot = n;
		a[n++] = a[i];
	}
	return n;
}

static void add_switch(struct build *b, int s)
{
	if (b->in_tree[s])
		return;
	b->in_tree[s] = 1;
	b->tree->switches[b->tree->num_switches++] = s;
}

/* Adds the unique downward path from the apex to attachment a. */
static int add_path(struct build *b, const struct attach *a)
{
	const struct ibu_ibft *t = b->t;
	int s = b->tree->apex, target_level = t->sw[a->sw].level;

	add_switch(b, s);
	while (t->sw[s].level < target_level) {
		int l = t->sw[s].level, digit, k, phys, pp, c;

		digit = a->pid >= 0 ? t->ep[a->pid].p[l] : t->sw[a->sw].w[l];
		k = digit + 1;
		phys = (k <= t->m) ? t->sw[s].phys_of_k[k] : 0;
		c = phys ? peer_sw(b->f, t, s, phys, &pp) : -1;
		if (c < 0 || t->sw[c].level != l + 1)
			return ibu_err_set(b->e, IBU_ETOPO,
					   "no downward link at paper port %d of switch %s",
					   k, b->f->nodes[t->sw[s].node].name);
		ibu_pm_set(&b->tree->ports[s], phys);
		ibu_pm_set(&b->tree->ports[c], pp);
		add_switch(b, c);
		s = c;
	}
	if (s != a->sw)
		return ibu_err_set(b->e, IBU_ETOPO,
				   "switch %s is not below the apex %s",
				   b->f->nodes[t->sw[a->sw].node].name,
				   b->f->nodes[t->sw[b->tree->apex].node].name);
	if (a->receives)
		ibu_pm_set(&b->tree->ports[s], a->sw_port);
	return IBU_OK;
}

/* Climbs from the source's leaf on its cyclic chain to level L. */
static int cyclic_apex(const struct ibu_fabric *f, const struct ibu_ibft *t,
		       int pid, int level)
{
	int s = t->ep[pid].leaf;

	while (s >= 0 && t->sw[s].level > level) {
		int l = t->sw[s].level;
		int k = t->half + 1 + t->ep[pid].p[l];
		int phys = k <= t->m ? t->sw[s].phys_of_k[k] : 0;

		s = phys ? peer_sw(f, t, s, phys, NULL) : -1;
		if (s >= 0 && t->sw[s].level != l - 1)
			return -1;
	}
	return s;
}

static int cmp_level(const void *pa, const void *pb, const struct ibu_ibft *t)
{
	int a = *(const int *)pa, b = *(const int *)pb;

	if (t->sw[a].level != t->sw[b].level)
		return t->sw[a].level - t->sw[b].level;
	return a - b;
}

/* insertion sort by (level, index): trees are small, no qsort context */
static void sort_top_down(const struct ibu_ibft *t, int *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		int x = v[i];

		for (j = i; j > 0 && cmp_level(&v[j - 1], &x, t) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int ibu_mcast_tree_build(const struct ibu_fabric *f, const struct ibu_ibft *t,
			 const struct ibu_mcast_member *members, int num,
			 enum ibu_mcast_policy policy,
			 struct ibu_mcast_load *load, uint32_t key,
			 struct ibu_mcast_tree *tree, struct ibu_err *e)
{
	int ns = t->num_switches, na, i, rc = IBU_OK, ndistinct = 0, level = -1;
	struct attach *a = NULL;
	int *cnt = NULL, *stamp = NULL, *queue = NULL, *slot_ep = NULL;
	uint8_t *in_tree = NULL;
	struct build b;

	memset(tree, 0, sizeof(*tree));
	tree->apex = -1;
	if (num < 0 || (num && !members))
		return ibu_err_set(e, IBU_EINVAL, "bad member list");
	if (load && load->num_switches != ns)
		return ibu_err_set(e, IBU_EINVAL,
				   "load state is for %d switches, fabric has %d",
				   load->num_switches, ns);
	a = calloc(num ? num : 1, sizeof(*a));
	cnt = calloc(ns ? ns : 1, sizeof(*cnt));
	stamp = malloc((ns ? ns : 1) * sizeof(*stamp));
	queue = malloc((ns ? ns : 1) * sizeof(*queue));
	in_tree = calloc(ns ? ns : 1, 1);
	slot_ep = malloc((t->num_endports ? t->num_endports : 1) *
			 sizeof(*slot_ep));
	tree->switches = malloc((ns ? ns : 1) * sizeof(*tree->switches));
	tree->ports = calloc(ns ? ns : 1, sizeof(*tree->ports));
	if (!a || !cnt || !stamp || !queue || !in_tree || !slot_ep ||
	    !tree->switches ||
	    !tree->ports) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast tree)");
		goto out;
	}
	tree->num_sw_alloc = ns;
	tree->policy = policy;

	for (i = 0; i < num; i++) {
		rc = resolve_member(f, t, &members[i], &a[i], e);
		if (rc)
			goto out;
	}
	for (i = 0; i < ns; i++)
		stamp[i] = -1;
	for (i = 0; i < t->num_endports; i++)
		slot_ep[i] = -1;
	na = merge_members(a, num, slot_ep, stamp);
	tree->num_members = na;
	for (i = 0; i < na; i++)
		tree->num_receivers += a[i].receives;

	if (load)
		ibu_mcast_load_release(load, key);
	if (!na)
		goto out;

	/* common ancestors: switches above (or equal to) every attachment;
	 * attachments are distinct after the merge except CA members sharing
	 * a leaf, which in_tree (still unused) filters */
	for (i = 0; i < ns; i++)
		stamp[i] = -1;
	for (i = 0; i < na; i++) {
		int head = 0, tail = 0;

		if (in_tree[a[i].sw])
			continue;
		in_tree[a[i].sw] = 1;
		ndistinct++;
		queue[tail++] = a[i].sw;
		stamp[a[i].sw] = i;
		while (head < tail) {
			int s = queue[head++], p;
			const struct ibu_node *nd = &f->nodes[t->sw[s].node];

			cnt[s]++;
			for (p = 1; p <= nd->num_ports; p++) {
				int u = peer_sw(f, t, s, p, NULL);

				if (u < 0 || t->sw[u].level >= t->sw[s].level ||
				    stamp[u] == i)
					continue;
				stamp[u] = i;
				queue[tail++] = u;
			}
		}
	}
	for (i = 0; i < ns; i++)
		if (cnt[i] == ndistinct && t->sw[i].level > level)
			level = t->sw[i].level;
	if (level < 0) {
		rc = ibu_err_set(e, IBU_ETOPO,
				 "the %d members have no common ancestor switch", na);
		goto out;
	}
	tree->apex_level = level;
	memset(in_tree, 0, ns);

	if (policy == IBU_MCAST_SOURCE) {
		int src = -1;

		for (i = 0; i < na; i++)
			if (!a[i].receives && a[i].pid >= 0 &&
			    (src < 0 || a[i].pid < src))
				src = a[i].pid;
		if (src >= 0) {
			int s = cyclic_apex(f, t, src, level);

			if (s >= 0 && cnt[s] == ndistinct)
				tree->apex = s;
		}
		if (tree->apex < 0)
			tree->policy = IBU_MCAST_BALANCED;
	}
	for (i = 0; i < ns; i++) {
		int best = tree->apex;

		if (cnt[i] != ndistinct || t->sw[i].level != level)
			continue;
		tree->num_candidates++;
		if (policy == IBU_MCAST_SOURCE && tree->policy == IBU_MCAST_SOURCE)
			continue;
		if (best < 0) {
			tree->apex = i;
		} else if (tree->policy == IBU_MCAST_LOWEST_GUID) {
			if (f->nodes[t->sw[i].node].guid <
			    f->nodes[t->sw[best].node].guid)
				tree->apex = i;
		} else {
			uint32_t li = load ? load->trees[i] : 0;
			uint32_t lb = load ? load->trees[best] : 0;

			if (li < lb || (li == lb && label_cmp(t, i, best) < 0))
				tree->apex = i;
		}
	}

	b.f = f;
	b.t = t;
	b.tree = tree;
	b.in_tree = in_tree;
	b.e = e;
	for (i = 0; i < na; i++) {
		rc = add_path(&b, &a[i]);
		if (rc)
			goto out;
	}
	/* a switch member: the switch itself receives through port 0 */
	for (i = 0; i < na; i++)
		if (a[i].pid < 0 && a[i].receives)
			ibu_pm_set(&tree->ports[a[i].sw], 0);
	sort_top_down(t, tree->switches, tree->num_switches);
	if (load)
		rc = load_add(load, key, tree, e);
out:
	free(a);
	free(cnt);
	free(stamp);
	free(queue);
	free(in_tree);
	free(slot_ep);
	if (rc) {
		ibu_mcast_tree_free(tree);
		return rc;
	}
	return IBU_OK;
}

int ibu_mcast_tree_to_mft(const struct ibu_ibft *t,
			  const struct ibu_mcast_tree *tree, uint16_t mlid,
			  struct ibu_mft *mft, struct ibu_err *e)
{
	struct ibu_mft_group *g;
	int i;

	g = ibu_mft_group(mft, mlid, e);
	if (!g)
		return e ? e->code : IBU_ENOMEM;
	for (i = 0; i < tree->num_switches; i++) {
		int s = tree->switches[i], node = t->sw[s].node, w;

		if (node < 0 || node >= mft->num_nodes)
			return ibu_err_set(e, IBU_EINVAL,
					   "tree switch node %d outside the MFT model",
					   node);
		for (w = 0; w < 4; w++)
			g->mask[node].w[w] |= tree->ports[s].w[w];
	}
	return IBU_OK;
}
