/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The multicast tree of a group: union of the downward paths from an apex. */
#include <stdlib.h>
#include <string.h>
#include "mcast.h"

/* ------------------------------------------------------------ load state */

int ibu_mcast_load_init(struct ibu_mcast_load *l, const struct ibu_ibft *t,
			struct ibu_err *e)
{
	int size[3], rc;

	memset(l, 0, sizeof(*l));
	if (!t || t->num_switches < 0 || t->m < 0)
		return ibu_err_set(e, IBU_EINVAL, "no fat tree for the load state");
	l->num_switches = t->num_switches;
	l->ports = t->m + 1;
	size[0] = l->num_switches;
	size[1] = l->num_switches * l->ports;
	size[2] = l->num_switches;
	rc = ibu_mcload_init(&l->core, 3, size, e);
	if (rc) {
		memset(l, 0, sizeof(*l));
		return rc;
	}
	l->trees = l->core.count[0];
	l->link_trees = l->core.count[1];
	l->ever = l->core.count[2];
	return IBU_OK;
}

void ibu_mcast_load_reset(struct ibu_mcast_load *l)
{
	ibu_mcload_reset(&l->core);
}

void ibu_mcast_load_free(struct ibu_mcast_load *l)
{
	if (!l)
		return;
	ibu_mcload_free(&l->core);
	memset(l, 0, sizeof(*l));
}

void ibu_mcast_load_release(struct ibu_mcast_load *l, uint32_t key)
{
	ibu_mcload_release(&l->core, key);
}

void ibu_mcast_load_prune(struct ibu_mcast_load *l,
			  int (*alive)(void *ctx, uint32_t key), void *ctx)
{
	ibu_mcload_prune(&l->core, alive, ctx);
}

int ibu_mcast_load_count(const struct ibu_mcast_load *l)
{
	return ibu_mcload_count(&l->core);
}

int ibu_mcast_load_ever(const struct ibu_mcast_load *l)
{
	int s, n = 0;

	for (s = 0; s < l->num_switches; s++)
		n += l->ever[s] != 0;
	return n;
}

/* Records the switches and links of tree under key, and its switches in
 * `ever` (kind 2 gets no items: a release must not lower it). */
static int load_add(struct ibu_mcast_load *l, uint32_t key,
		    struct ibu_mcast_tree *tree, struct ibu_err *e)
{
	const int *items[3] = { tree->switches, tree->links, NULL };
	int n[3] = { tree->num_switches, tree->num_links, 0 };
	int i, rc;

	rc = ibu_mcload_add(&l->core, key, items, n, e);
	if (rc)
		return rc;
	for (i = 0; i < tree->num_switches; i++) {
		uint32_t *v = &l->ever[tree->switches[i]];

		tree->added += !*v;
		*v = 1;
	}
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
	free(tree->links);
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

/*
 * One step down from s towards the switch `target` (paper port = the
 * target's label digit at s's level + 1): the child switch, -1 if the link
 * is missing. *phys / *peer_port: the physical ports of the link.
 */
static int down_step(const struct ibu_fabric *f, const struct ibu_ibft *t,
		     int s, int target, int *k, int *phys, int *peer_port)
{
	int l = t->sw[s].level, c;

	*k = t->sw[target].w[l] + 1;
	*phys = *k <= t->m ? t->sw[s].phys_of_k[*k] : 0;
	c = *phys ? peer_sw(f, t, s, *phys, peer_port) : -1;
	if (c >= 0 && t->sw[c].level != l + 1)
		return -1;
	return c;
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

/* Adds the unique downward path from the apex to switch target. */
static int add_path(struct build *b, int target)
{
	const struct ibu_ibft *t = b->t;
	int s = b->tree->apex;

	add_switch(b, s);
	while (t->sw[s].level < t->sw[target].level) {
		int k, phys, pp, c = down_step(b->f, t, s, target, &k, &phys, &pp);

		if (c < 0)
			return ibu_err_set(b->e, IBU_ETOPO,
					   "no downward link at paper port %d of switch %s",
					   k, b->f->nodes[t->sw[s].node].name);
		ibu_pm_set(&b->tree->ports[s], phys);
		ibu_pm_set(&b->tree->ports[c], pp);
		if (!b->in_tree[c])	/* a child has one parent in the tree */
			b->tree->links[b->tree->num_links++] = s * (t->m + 1) + k;
		add_switch(b, c);
		s = c;
	}
	if (s != target)
		return ibu_err_set(b->e, IBU_ETOPO,
				   "switch %s is not below the apex %s",
				   b->f->nodes[t->sw[target].node].name,
				   b->f->nodes[t->sw[b->tree->apex].node].name);
	return IBU_OK;
}

/*
 * The links of the tree candidate c would build down to the distinct
 * member switches dist[0..nd-1], each new child once: visit(ctx, s, k, ch)
 * for the link below paper port k of s to child ch. mark[] (per switch)
 * must differ from stamp everywhere on entry.
 */
static void walk_links(const struct ibu_fabric *f, const struct ibu_ibft *t,
		       int c, const int *dist, int nd, uint32_t *mark,
		       uint32_t stamp,
		       void (*visit)(void *ctx, int s, int k, int ch), void *ctx)
{
	int i;

	mark[c] = stamp;
	for (i = 0; i < nd; i++) {
		int s = c;

		while (s >= 0 && t->sw[s].level < t->sw[dist[i]].level) {
			int k, phys, pp, ch = down_step(f, t, s, dist[i], &k,
							&phys, &pp);

			if (ch >= 0 && mark[ch] != stamp) {
				mark[ch] = stamp;
				visit(ctx, s, k, ch);
			}
			s = ch;
		}
	}
}

struct link_score {
	const struct ibu_mcast_load *load;
	uint32_t max;
	uint64_t sum;
	int fresh;
};

static void add_link_load(void *ctx, int s, int k, int ch)
{
	struct link_score *x = ctx;
	uint32_t v = x->load->link_trees[s * x->load->ports + k];

	(void)ch;
	x->sum += v;
	if (v > x->max)
		x->max = v;
}

static void add_fresh(void *ctx, int s, int k, int ch)
{
	struct link_score *x = ctx;

	(void)s;
	(void)k;
	x->fresh += !x->load->ever[ch];
}

/* Load of candidate c's tree: its busiest link and the sum over its links. */
static void score(const struct ibu_fabric *f, const struct ibu_ibft *t,
		  const struct ibu_mcast_load *load, int c, const int *dist,
		  int nd, uint32_t *mark, uint32_t stamp, uint32_t *max,
		  uint64_t *sum)
{
	struct link_score x = { .load = load };

	walk_links(f, t, c, dist, nd, mark, stamp, add_link_load, &x);
	*max = x.max;
	*sum = x.sum;
}

/*
 * How many switches of the tree candidate c would build down to the member
 * switches dist[0..nd-1] no tree has used yet: c too, unless it is a top
 * switch (see mcast.h). mark[] as in score(), with a stamp of its own.
 */
static int fresh(const struct ibu_fabric *f, const struct ibu_ibft *t,
		 const struct ibu_mcast_load *load, int c, const int *dist,
		 int nd, uint32_t *mark, uint32_t stamp)
{
	struct link_score x = { .load = load };

	x.fresh = t->sw[c].level > 0 && !load->ever[c];
	walk_links(f, t, c, dist, nd, mark, stamp, add_fresh, &x);
	return x.fresh;
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

/* Balanced choice among the candidates cand[0..nc-1] (see mcast.h). */
static int choose_balanced(const struct ibu_fabric *f, const struct ibu_ibft *t,
			   const struct ibu_mcast_load *load, const int *cand,
			   int nc, const int *dist, int nd, uint32_t *mark,
			   struct ibu_mcast_tree *tree)
{
	uint32_t least = UINT32_MAX, best_max = 0;
	uint64_t best_sum = 0;
	int i, best = -1, ties = 0;

	for (i = 0; i < nc; i++) {
		uint32_t v = load ? load->trees[cand[i]] : 0;

		if (v < least) {
			least = v;
			ties = 0;
		}
		ties += v == least;
	}
	tree->scored = load && ties > 1 &&
		(long)ties * nd * t->n <= IBU_MCAST_SCORE_BUDGET;
	for (i = 0; i < nc; i++) {
		int c = cand[i];
		uint32_t mx = 0;
		uint64_t sm = 0;

		if ((load ? load->trees[c] : 0) != least)
			continue;
		if (tree->scored)
			score(f, t, load, c, dist, nd, mark, (uint32_t)i + 1,
			      &mx, &sm);
		if (best < 0 || mx < best_max ||
		    (mx == best_max && (sm < best_sum ||
		     (sm == best_sum && label_cmp(t, c, best) < 0)))) {
			best = c;
			best_max = mx;
			best_sum = sm;
		}
	}
	tree->max_link_trees = best_max;
	return best;
}

/* The work arrays of one tree build, all sized to the switches. */
struct work {
	struct attach *a;	/* resolved members, merged in place */
	int na;			/* distinct members */
	int *cnt;		/* [s] member switches s is above or equal to */
	int *stamp, *queue;
	int *dist;		/* the distinct member switches, nd of them */
	int nd;
	int *cand;		/* apex candidates, nc of them */
	int nc;
	int *slot_ep;
	uint32_t *mark;
	uint8_t *in_tree;
};

static void work_free(struct work *w)
{
	free(w->a);
	free(w->cnt);
	free(w->stamp);
	free(w->queue);
	free(w->dist);
	free(w->cand);
	free(w->mark);
	free(w->in_tree);
	free(w->slot_ep);
}

/* The work arrays and the tree's own (switches, links, ports). */
static int work_alloc(struct work *w, const struct ibu_ibft *t, int num,
		      struct ibu_mcast_tree *tree, struct ibu_err *e)
{
	size_t nsz = t->num_switches ? (size_t)t->num_switches : 1;

	memset(w, 0, sizeof(*w));
	w->a = calloc(num ? (size_t)num : 1, sizeof(*w->a));
	w->cnt = calloc(nsz, sizeof(*w->cnt));
	w->stamp = malloc(nsz * sizeof(*w->stamp));
	w->queue = malloc(nsz * sizeof(*w->queue));
	w->dist = malloc(nsz * sizeof(*w->dist));
	w->cand = malloc(nsz * sizeof(*w->cand));
	w->mark = calloc(nsz, sizeof(*w->mark));
	w->in_tree = calloc(nsz, 1);
	w->slot_ep = malloc((t->num_endports ? t->num_endports : 1) *
			    sizeof(*w->slot_ep));
	tree->switches = malloc(nsz * sizeof(*tree->switches));
	tree->links = malloc(nsz * sizeof(*tree->links));
	tree->ports = calloc(nsz, sizeof(*tree->ports));
	if (!w->a || !w->cnt || !w->stamp || !w->queue || !w->dist ||
	    !w->cand || !w->mark || !w->in_tree || !w->slot_ep ||
	    !tree->switches || !tree->links || !tree->ports)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (multicast tree)");
	return IBU_OK;
}

/* Members resolved to their switches and merged; the distinct member
 * switches into w->dist. */
static int gather_members(struct work *w, const struct ibu_fabric *f,
			  const struct ibu_ibft *t,
			  const struct ibu_mcast_member *members, int num,
			  struct ibu_mcast_tree *tree, struct ibu_err *e)
{
	int i, rc;

	for (i = 0; i < num; i++) {
		rc = resolve_member(f, t, &members[i], &w->a[i], e);
		if (rc)
			return rc;
	}
	for (i = 0; i < t->num_switches; i++)
		w->stamp[i] = -1;
	for (i = 0; i < t->num_endports; i++)
		w->slot_ep[i] = -1;
	w->na = merge_members(w->a, num, w->slot_ep, w->stamp);
	tree->num_members = w->na;
	for (i = 0; i < w->na; i++)
		tree->num_receivers += w->a[i].receives;
	for (i = 0; i < w->na; i++)
		if (!w->in_tree[w->a[i].sw]) {
			w->in_tree[w->a[i].sw] = 1;
			w->dist[w->nd++] = w->a[i].sw;
		}
	memset(w->in_tree, 0, t->num_switches ? (size_t)t->num_switches : 1);
	return IBU_OK;
}

/* w->cnt[s]: how many member switches s is above (or equal to), by a
 * climb from each of them. */
static void count_ancestors(struct work *w, const struct ibu_fabric *f,
			    const struct ibu_ibft *t)
{
	int i;

	for (i = 0; i < t->num_switches; i++)
		w->stamp[i] = -1;
	for (i = 0; i < w->nd; i++) {
		int head = 0, tail = 0;

		w->queue[tail++] = w->dist[i];
		w->stamp[w->dist[i]] = i;
		while (head < tail) {
			int s = w->queue[head++], p;
			const struct ibu_node *node = &f->nodes[t->sw[s].node];

			w->cnt[s]++;
			for (p = 1; p <= node->num_ports; p++) {
				int u = peer_sw(f, t, s, p, NULL);

				if (u < 0 || t->sw[u].level >= t->sw[s].level ||
				    w->stamp[u] == i)
					continue;
				w->stamp[u] = i;
				w->queue[tail++] = u;
			}
		}
	}
}

/* The apex candidates: the common ancestors at the lowest level that
 * has any (the deepest, so the tree stays small). */
static int apex_candidates(struct work *w, const struct ibu_ibft *t,
			   struct ibu_mcast_tree *tree, struct ibu_err *e)
{
	int i, level = -1;

	for (i = 0; i < t->num_switches; i++)
		if (w->cnt[i] == w->nd && t->sw[i].level > level)
			level = t->sw[i].level;
	if (level < 0)
		return ibu_err_set(e, IBU_ETOPO,
				   "the %d members have no common ancestor switch",
				   w->na);
	tree->apex_level = level;
	for (i = 0; i < t->num_switches; i++)
		if (w->cnt[i] == w->nd && t->sw[i].level == level)
			w->cand[w->nc++] = i;
	tree->num_candidates = w->nc;
	return IBU_OK;
}

/*
 * Compact's key 0: keeps in w->cand only the candidates whose tree adds
 * the fewest switches to load->ever (w->queue, free by now, holds the
 * counts). Stamps above nc: score() later uses 1..nc.
 */
static void keep_compact(struct work *w, const struct ibu_fabric *f,
			 const struct ibu_ibft *t,
			 const struct ibu_mcast_load *load,
			 struct ibu_mcast_tree *tree)
{
	int i, n = 0, least = -1;

	tree->compacted = w->nc > 1 &&
		(long)w->nc * w->nd * t->n <= IBU_MCAST_SCORE_BUDGET;
	if (!tree->compacted)
		return;
	for (i = 0; i < w->nc; i++) {
		w->queue[i] = fresh(f, t, load, w->cand[i], w->dist, w->nd,
				    w->mark, (uint32_t)(w->nc + i + 1));
		if (least < 0 || w->queue[i] < least)
			least = w->queue[i];
	}
	for (i = 0; i < w->nc; i++)
		if (w->queue[i] == least)
			w->cand[n++] = w->cand[i];
	w->nc = n;
}

/* The apex by policy: source (on the lowest send-only source's cyclic
 * climb, else balanced), lowest GUID, compact (key 0, then balanced), or
 * balanced. */
static void choose_apex(struct work *w, const struct ibu_fabric *f,
			const struct ibu_ibft *t, enum ibu_mcast_policy policy,
			const struct ibu_mcast_load *load,
			struct ibu_mcast_tree *tree)
{
	int i, level = tree->apex_level;

	if (policy == IBU_MCAST_SOURCE) {
		int src = -1;

		for (i = 0; i < w->na; i++)
			if (!w->a[i].receives && w->a[i].pid >= 0 &&
			    (src < 0 || w->a[i].pid < src))
				src = w->a[i].pid;
		if (src >= 0) {
			int s = cyclic_apex(f, t, src, level);

			if (s >= 0 && w->cnt[s] == w->nd &&
			    t->sw[s].level == level)
				tree->apex = s;
		}
		if (tree->apex < 0)
			tree->policy = IBU_MCAST_BALANCED;
	} else if (policy == IBU_MCAST_LOWEST_GUID) {
		for (i = 0; i < w->nc; i++)
			if (tree->apex < 0 ||
			    f->nodes[t->sw[w->cand[i]].node].guid <
			    f->nodes[t->sw[tree->apex].node].guid)
				tree->apex = w->cand[i];
	} else if (policy == IBU_MCAST_COMPACT && load) {
		keep_compact(w, f, t, load, tree);
	}
	if (tree->apex < 0)
		tree->apex = choose_balanced(f, t, load, w->cand, w->nc,
					     w->dist, w->nd, w->mark, tree);
}

/* The downward paths from the apex to every member switch, and the
 * receivers' own ports. */
static int grow_tree(struct work *w, const struct ibu_fabric *f,
		     const struct ibu_ibft *t, struct ibu_mcast_tree *tree,
		     struct ibu_err *e)
{
	struct build b = { .f = f, .t = t, .tree = tree,
			   .in_tree = w->in_tree, .e = e };
	int i, rc;

	for (i = 0; i < w->nd; i++) {
		rc = add_path(&b, w->dist[i]);
		if (rc)
			return rc;
	}
	/* receiving members: their CA port, or port 0 of a switch member */
	for (i = 0; i < w->na; i++)
		if (w->a[i].receives)
			ibu_pm_set(&tree->ports[w->a[i].sw], w->a[i].sw_port);
	sort_top_down(t, tree->switches, tree->num_switches);
	return IBU_OK;
}

int ibu_mcast_tree_build(const struct ibu_fabric *f, const struct ibu_ibft *t,
			 const struct ibu_mcast_member *members, int num,
			 enum ibu_mcast_policy policy,
			 struct ibu_mcast_load *load, uint32_t key,
			 struct ibu_mcast_tree *tree, struct ibu_err *e)
{
	struct work w;
	int rc;

	memset(tree, 0, sizeof(*tree));
	tree->apex = -1;
	if (num < 0 || (num && !members))
		return ibu_err_set(e, IBU_EINVAL, "bad member list");
	if (load && (load->num_switches != t->num_switches ||
		     load->ports != t->m + 1))
		return ibu_err_set(e, IBU_EINVAL,
				   "load state is for %d switches of radix %d, the fat tree has %d of radix %d",
				   load->num_switches, load->ports - 1,
				   t->num_switches, t->m);
	rc = work_alloc(&w, t, num, tree, e);
	tree->policy = policy;
	if (!rc)
		rc = gather_members(&w, f, t, members, num, tree, e);
	if (!rc && load)
		ibu_mcast_load_release(load, key);
	if (!rc && w.na) {
		count_ancestors(&w, f, t);
		rc = apex_candidates(&w, t, tree, e);
		if (!rc)
			choose_apex(&w, f, t, policy, load, tree);
		if (!rc)
			rc = grow_tree(&w, f, t, tree, e);
		if (!rc && load)
			rc = load_add(load, key, tree, e);
	}
	work_free(&w);
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
