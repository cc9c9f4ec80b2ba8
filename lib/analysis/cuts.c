/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Lower bounds of the busiest link from cuts of the graph (cuts.h). */
#include <stdlib.h>
#include <string.h>
#include "cuts.h"

struct cut_work {
	const struct ibu_fabric *f;
	int *pbase;		/* [node] first slot of its ports */
	int *ep_of;		/* [pbase[node] + port] end port index, -1 */
	int *rank;		/* [node] switches: distance to an end port */
	uint64_t *h;		/* [node * words ..] end ports below */
	int words;
	char *in_sw;		/* [node] the switches of the cut at hand */
	int *ep_sw;		/* [end port] the node it is cabled to */
	int cap;		/* cuts allocated in ibu_cuts */
};

/* near_cuts() runs a breadth-first search per cable end: only on
 * fabrics up to this many switches (its cost grows with their square). */
#define NEAR_CUTS_MAX_SWITCHES 1024

static int bit(const uint64_t *s, int i)
{
	return (int)((s[i / 64] >> (i % 64)) & 1);
}

static int subset(const uint64_t *a, const uint64_t *b, int words)
{
	int w;

	for (w = 0; w < words; w++)
		if (a[w] & ~b[w])
			return 0;
	return 1;
}

static int empty(const uint64_t *a, int words)
{
	int w;

	for (w = 0; w < words; w++)
		if (a[w])
			return 0;
	return 1;
}

/* Switch ranks: 1 next to an end port, then breadth first. */
static int rank_switches(struct cut_work *w, int *q)
{
	const struct ibu_fabric *f = w->f;
	int n, p, head = 0, tail = 0;

	for (n = 0; n < f->num_nodes; n++) {
		w->rank[n] = -1;
		if (!ibu_node_is_switch(&f->nodes[n]))
			continue;
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int v = f->nodes[n].ports[p].peer_node;

			if (v >= 0 && !ibu_node_is_switch(&f->nodes[v])) {
				w->rank[n] = 1;
				q[tail++] = n;
				break;
			}
		}
	}
	while (head < tail) {
		int u = q[head++];

		for (p = 1; p <= f->nodes[u].num_ports; p++) {
			int v = f->nodes[u].ports[p].peer_node;

			if (!ibu_is_sw(f, v) || w->rank[v] >= 0)
				continue;
			w->rank[v] = w->rank[u] + 1;
			q[tail++] = v;
		}
	}
	return tail;		/* q: switches by rank */
}

/* H(s) for the switches in q, lowest rank first. */
static void below_sets(struct cut_work *w, const int *q, int num)
{
	const struct ibu_fabric *f = w->f;
	int i, p, k;

	for (i = 0; i < num; i++) {
		int s = q[i];
		uint64_t *hs = &w->h[(size_t)s * w->words];

		for (p = 1; p <= f->nodes[s].num_ports; p++) {
			const struct ibu_port *pp = &f->nodes[s].ports[p];
			int v = pp->peer_node, x;

			if (v < 0)
				continue;
			if (!ibu_node_is_switch(&f->nodes[v])) {
				x = w->ep_of[w->pbase[v] + pp->peer_port];
				if (x >= 0)
					hs[x / 64] |= 1ULL << (x % 64);
			} else if (w->rank[v] >= 0 && w->rank[v] < w->rank[s]) {
				const uint64_t *hv = &w->h[(size_t)v * w->words];

				for (k = 0; k < w->words; k++)
					hs[k] |= hv[k];
			}
		}
	}
}

static int inside(const struct cut_work *w, const uint64_t *set,
		  const char *in_sw, int node, int port)
{
	int x;

	if (ibu_node_is_switch(&w->f->nodes[node]))
		return in_sw[node];
	x = w->ep_of[w->pbase[node] + port];
	return x >= 0 && bit(set, x);
}

/* Cables with exactly one end inside the cut: the switches of in_sw and
 * the end ports of set. */
static int crossing(const struct cut_work *w, const uint64_t *set,
		    const char *in_sw)
{
	const struct ibu_fabric *f = w->f;
	int n, p, count = 0;

	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			const struct ibu_port *pp = &f->nodes[n].ports[p];

			if (pp->peer_node < 0 || pp->peer_node < n ||
			    (pp->peer_node == n && pp->peer_port <= p))
				continue;	/* each cable once */
			count += inside(w, set, in_sw, n, p) !=
				 inside(w, set, in_sw, pp->peer_node,
					pp->peer_port);
		}
	return count;
}

static int popcount(const uint64_t *s, int words)
{
	int w, c = 0;

	for (w = 0; w < words; w++)
		c += __builtin_popcountll(s[w]);
	return c;
}

/* Adds the cut (end ports of set, switches of in_sw) unless a cable-free,
 * empty or full one; the same end ports twice keep the fewer cables (the
 * flows depend on the end ports only). */
static int add_cut(struct cut_work *w, struct ibu_cuts *c, const uint64_t *set,
		   const char *in_sw)
{
	int words = w->words, size = popcount(set, words), cables, j;

	if (!size || size == c->num_ep)
		return IBU_OK;
	cables = crossing(w, set, in_sw);
	if (!cables)
		return IBU_OK;
	for (j = 0; j < c->num; j++)
		if (!memcmp(&c->in[(size_t)j * words], set, words * sizeof(*set))) {
			if (cables < c->cables[j])
				c->cables[j] = cables;
			return IBU_OK;
		}
	if (c->num == w->cap) {
		int cap = 2 * w->cap + 16;
		uint64_t *in = realloc(c->in, (size_t)cap * words * sizeof(*in));
		int *sz = in ? realloc(c->size, cap * sizeof(*sz)) : NULL;
		int *cb = sz ? realloc(c->cables, cap * sizeof(*cb)) : NULL;

		if (in)
			c->in = in;
		if (sz)
			c->size = sz;
		if (!cb)
			return IBU_ENOMEM;
		c->cables = cb;
		w->cap = cap;
	}
	memcpy(&c->in[(size_t)c->num * words], set, words * sizeof(*set));
	c->size[c->num] = size;
	c->cables[c->num++] = cables;
	return IBU_OK;
}

/* The cut below every switch: H(s), and the switches whose H is a
 * non-empty part of it. */
static int rank_cuts(struct cut_work *w, const int *q, int num,
		     struct ibu_cuts *c)
{
	int i, v, rc = IBU_OK, words = w->words;

	for (i = 0; i < num && !rc; i++) {
		const uint64_t *hs = &w->h[(size_t)q[i] * words];

		for (v = 0; v < w->f->num_nodes; v++) {
			const uint64_t *hv = &w->h[(size_t)v * words];

			w->in_sw[v] = ibu_node_is_switch(&w->f->nodes[v]) &&
				      w->rank[v] >= 0 && !empty(hv, words) &&
				      subset(hv, hs, words);
		}
		rc = add_cut(w, c, hs, w->in_sw);
	}
	return rc;
}

/* Breadth-first distances over switch-to-switch cables from switch src
 * into d[node] (-1 unreached). */
static void switch_bfs(const struct ibu_fabric *f, int src, int *d, int *q)
{
	int n, p, head = 0, tail = 0;

	for (n = 0; n < f->num_nodes; n++)
		d[n] = -1;
	d[src] = 0;
	q[tail++] = src;
	while (head < tail) {
		int u = q[head++];

		for (p = 1; p <= f->nodes[u].num_ports; p++) {
			int v = f->nodes[u].ports[p].peer_node;

			if (!ibu_is_sw(f, v) || d[v] >= 0)
				continue;
			d[v] = d[u] + 1;
			q[tail++] = v;
		}
	}
}

/* The switches nearer to a than to b, with their end ports, for every
 * switch-to-switch cable a-b: on a mesh the straight cuts between two
 * columns or rows (its bisections), on a tree a side of each cable. */
static int near_cuts(struct cut_work *w, struct ibu_cuts *c, int *q)
{
	const struct ibu_fabric *f = w->f;
	int *da = malloc((f->num_nodes + 1) * sizeof(*da));
	int *db = malloc((f->num_nodes + 1) * sizeof(*db));
	uint64_t *set = calloc(w->words, sizeof(*set));
	int a, p, v, k, rc = da && db && set ? IBU_OK : IBU_ENOMEM;

	for (a = 0; a < f->num_nodes && !rc; a++) {
		if (!ibu_node_is_switch(&f->nodes[a]))
			continue;
		switch_bfs(f, a, da, q);
		for (p = 1; p <= f->nodes[a].num_ports && !rc; p++) {
			int b = f->nodes[a].ports[p].peer_node;

			if (b < 0 || b == a || !ibu_node_is_switch(&f->nodes[b]))
				continue;
			switch_bfs(f, b, db, q);
			memset(set, 0, w->words * sizeof(*set));
			for (v = 0; v < f->num_nodes; v++)
				w->in_sw[v] = ibu_node_is_switch(&f->nodes[v]) &&
					      da[v] >= 0 && da[v] < db[v];
			for (k = 0; k < c->num_ep; k++)
				if (w->in_sw[w->ep_sw[k]])
					set[k / 64] |= 1ULL << (k % 64);
			rc = add_cut(w, c, set, w->in_sw);
		}
	}
	free(da);
	free(db);
	free(set);
	return rc;
}

static int work_init(struct cut_work *w, const struct ibu_fabric *f,
		     const struct ibu_endports *ep)
{
	int n, slots = 0, i;

	memset(w, 0, sizeof(*w));
	w->f = f;
	w->words = ep->num / 64 + 1;
	w->pbase = malloc((f->num_nodes + 1) * sizeof(*w->pbase));
	w->rank = malloc((f->num_nodes + 1) * sizeof(*w->rank));
	if (!w->pbase || !w->rank)
		return IBU_ENOMEM;
	for (n = 0; n < f->num_nodes; n++) {
		w->pbase[n] = slots;
		slots += f->nodes[n].num_ports + 1;
	}
	w->ep_of = malloc((slots + 1) * sizeof(*w->ep_of));
	w->h = calloc((size_t)(f->num_nodes + 1) * w->words, sizeof(*w->h));
	w->in_sw = calloc(f->num_nodes + 1, 1);
	w->ep_sw = malloc((ep->num + 1) * sizeof(*w->ep_sw));
	if (!w->ep_of || !w->h || !w->in_sw || !w->ep_sw)
		return IBU_ENOMEM;
	for (i = 0; i < slots; i++)
		w->ep_of[i] = -1;
	for (i = 0; i < ep->num; i++) {
		w->ep_of[w->pbase[ep->node[i]] + ep->port[i]] = i;
		w->ep_sw[i] = f->nodes[ep->node[i]].ports[ep->port[i]].peer_node;
	}
	return IBU_OK;
}

static void work_free(struct cut_work *w)
{
	free(w->pbase);
	free(w->ep_of);
	free(w->rank);
	free(w->h);
	free(w->in_sw);
	free(w->ep_sw);
}

/* The most flows a cut can carry out or in per cable when every end port
 * sends and receives at most one message. */
static double ceiling(const struct ibu_cuts *c, int k)
{
	int size = c->size[k], rest = c->num_ep - c->size[k];

	return (double)(size < rest ? size : rest) / c->cables[k];
}

struct ranked {
	double ceil;
	int k;
};

static int by_ceiling(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->ceil != b->ceil)
		return a->ceil < b->ceil ? 1 : -1;
	return (a->k > b->k) - (a->k < b->k);
}

/* c->order, by ceiling() highest first, ties by build order. */
static void sort_cuts(struct ibu_cuts *c)
{
	struct ranked *r = malloc((size_t)(c->num ? c->num : 1) * sizeof(*r));
	int k;

	c->order = r ? malloc((size_t)(c->num ? c->num : 1) * sizeof(int))
		     : NULL;
	if (!c->order) {	/* the bound reads every cut in build order */
		free(r);
		return;
	}
	for (k = 0; k < c->num; k++)
		r[k] = (struct ranked){ ceiling(c, k), k };
	qsort(r, (size_t)c->num, sizeof(*r), by_ceiling);
	for (k = 0; k < c->num; k++)
		c->order[k] = r[k].k;
	free(r);
}

/* ibu_cuts_a2a_one_dlid's figure: per switch, its end ports h and its
 * cables to switches u (h[] counts into the cut_work's scratch). */
static double one_dlid_bound(const struct cut_work *w, int num_ep, int *h)
{
	const struct ibu_fabric *f = w->f;
	double best = 0, b;
	int i, n, p, u, peer;

	for (n = 0; n < f->num_nodes; n++)
		h[n] = 0;
	for (i = 0; i < num_ep; i++)
		if (w->ep_sw[i] >= 0 && w->ep_sw[i] < f->num_nodes)
			h[w->ep_sw[i]]++;
	for (n = 0; n < f->num_nodes; n++) {
		if (!h[n] || !ibu_node_is_switch(&f->nodes[n]))
			continue;
		for (u = 0, p = 1; p <= f->nodes[n].num_ports; p++) {
			peer = f->nodes[n].ports[p].peer_node;
			u += peer >= 0 && peer != n &&
			     ibu_node_is_switch(&f->nodes[peer]);
		}
		if (!u)
			continue;
		b = (double)h[n] * (double)((num_ep - h[n] + u - 1) / u);
		best = b > best ? b : best;
	}
	return best;
}

double ibu_cuts_a2a_one_dlid(const struct ibu_cuts *c)
{
	return c ? c->a2a_one_dlid : 0;
}

int ibu_cuts_build(const struct ibu_fabric *f, const struct ibu_endports *ep,
		   struct ibu_cuts *c, struct ibu_err *e)
{
	struct cut_work w;
	int *q = NULL, num, rc;

	memset(c, 0, sizeof(*c));
	c->num_ep = ep->num;
	rc = work_init(&w, f, ep);
	if (!rc) {
		c->words = w.words;
		q = malloc((f->num_nodes + 1) * sizeof(*q));
		if (!q)
			rc = IBU_ENOMEM;
	}
	if (!rc) {
		c->a2a_one_dlid = one_dlid_bound(&w, ep->num, q);
		num = rank_switches(&w, q);
		below_sets(&w, q, num);
		rc = rank_cuts(&w, q, num, c);
	}
	if (!rc && ibu_fabric_count_switches(f) <= NEAR_CUTS_MAX_SWITCHES)
		rc = near_cuts(&w, c, q);
	free(q);
	work_free(&w);
	if (rc) {
		ibu_cuts_free(c);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (cuts)");
	}
	sort_cuts(c);
	return IBU_OK;
}

void ibu_cuts_free(struct ibu_cuts *c)
{
	if (!c)
		return;
	free(c->in);
	free(c->size);
	free(c->cables);
	free(c->order);
	memset(c, 0, sizeof(*c));
}

static int sends(const int *to, int i, int n)
{
	return to[i] >= 0 && to[i] < n && to[i] != i;
}

/* Flows out of and into cut k for to (NULL: all-to-all). */
static double cut_bound(const struct ibu_cuts *c, int k, int n, const int *to)
{
	const uint64_t *set = &c->in[(size_t)k * c->words];
	long out = 0, in = 0;
	int i;

	if (!to) {
		out = (long)c->size[k] * (n - c->size[k]);
		in = out;
	} else {
		for (i = 0; i < n; i++) {
			if (!sends(to, i, n) || bit(set, i) == bit(set, to[i]))
				continue;
			if (bit(set, i))
				out++;
			else
				in++;
		}
	}
	return (double)(out > in ? out : in) / c->cables[k];
}

/* 1 when no two senders of to share a destination (0 also where the
 * check cannot allocate: then every cut is read). */
static int one_each(const int *to, int n)
{
	unsigned char *got = calloc((size_t)(n ? n : 1), 1);
	int i, ok = got != NULL;

	for (i = 0; ok && i < n; i++) {
		if (!sends(to, i, n))
			continue;
		ok = !got[to[i]];
		got[to[i]] = 1;
	}
	free(got);
	return ok;
}

double ibu_cuts_bound(const struct ibu_cuts *c, int num_ep, const int *to)
{
	double best = 0, b;
	int i, k, j, sorted;

	if (!to) {
		best = num_ep > 1 ? num_ep - 1 : 0;
	} else {
		for (i = 0; i < num_ep && !best; i++)
			if (sends(to, i, num_ep))
				best = 1;	/* every message leaves its port */
	}
	if (!c || c->num_ep != num_ep)
		return best;
	sorted = to && c->order && one_each(to, num_ep);
	for (j = 0; j < c->num; j++) {
		k = sorted ? c->order[j] : j;
		if (sorted && ceiling(c, k) <= best)
			break;
		b = cut_bound(c, k, num_ep, to);
		if (b > best)
			best = b;
	}
	return best;
}
