/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The paper's labels of a PGFT that is an IBFT, exact or degraded
 * (see pgft_ibft.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_ibft.h"

#define W(x, node) ((x)->w + (size_t)(node) * IBU_PGFT_MAX_H)

/* IBFT(m,n) as a PGFT, exact or degraded (faults keep the parameters),
 * leaves with up to m/2 end ports (absent end ports are the paper's free
 * PIDs, not another shape), no end port above the leaves. */
static int ibft_shape(const struct ibu_pgft *g, int *half)
{
	struct ibu_pgft_params P = g->P;
	int m, n;

	if (P.h < 2 || P.m[1] > P.w[2] || g->num_spine_hosts)
		return 0;
	P.m[1] = P.w[2];	/* full leaves */
	if (!ibu_pgft_is_ibft(&P, &m, &n) || m < 4)
		return 0;
	*half = m / 2;
	return 1;
}

/* IBFT level of a switch of g (0 = top), -1 for anything else */
static int ib_level(const struct ibu_pgft *g, int node)
{
	return node >= 0 && node < g->num_nodes && g->level[node] >= 1 ?
	       g->P.h - g->level[node] : -1;
}

/* Switch peer of (node, port) one IBFT level below (dir 1) or above
 * (dir -1) node, else -1. */
static int peer_at(const struct ibu_fabric *f, const struct ibu_pgft *g,
		   int node, int port, int dir)
{
	int q = f->nodes[node].ports[port].peer_node;

	return q >= 0 && ib_level(g, q) >= 0 &&
	       ib_level(g, q) == ib_level(g, node) + dir ? q : -1;
}

/*
 * The labeller: the tree's switches by index s (fabric node order), their
 * IBFT level and rank in node GUID order, and the union-find scratch of
 * the digit choices. Every free digit goes by the smallest GUID of the set
 * it distinguishes, so the labels depend on the cables and GUIDs alone:
 *  - prefix w0..w(l-1) of a level-l switch names its sub-tree, a connected
 *    component of the switches at levels >= l; components under one
 *    parent sub-tree get digits in the order of their smallest leaf;
 *  - a top's suffix digit w_i separates, inside the class of tops sharing
 *    their level-(n-1-i) descendants, the classes sharing their
 *    level-(n-2-i) descendants (tops joined by a common descendant,
 *    transitively);
 *  - lower switches inherit a parent's suffix minus its last digit; a
 *    switch with no parent left takes it from a child plus the lowest
 *    last digit its siblings leave free.
 * On a degraded tree a missing cable or switch changes no other label.
 */
struct lab {
	const struct ibu_fabric *f;
	struct ibu_pgft_ibft *x;
	int S;
	int *node;	/* [s]: fabric node */
	int *idx;	/* [node]: s, -1 */
	int *level;	/* [s]: IBFT level */
	int *rank;	/* [s]: rank in node GUID order */
	int *uf, *ufkey, *key, *grp, *queue, *seen, *digit;
	long *cls;
	struct ibu__gkey *v;
};

#define WS(r, s) W((r)->x, (r)->node[s])

/* peer switch index of port p of switch s, -1 if none/not a switch */
static int peer_sw(const struct lab *r, int s, int p)
{
	int q = r->f->nodes[r->node[s]].ports[p].peer_node;

	return q < 0 ? -1 : r->idx[q];
}

static int num_ports(const struct lab *r, int s)
{
	return r->f->nodes[r->node[s]].num_ports;
}

/* The join keeps the smaller key of the two sets. */
static void uf_union(struct lab *r, int a, int b)
{
	int kb = r->ufkey[ibu__uf_find(r->uf, b)];

	a = ibu__uf_union(r->uf, a, b);
	if (kb < r->ufkey[a])
		r->ufkey[a] = kb;
}

/* uf over the switches; key = rank for the given level (S elsewhere). */
static void uf_reset(struct lab *r, int key_level)
{
	int s;

	for (s = 0; s < r->S; s++) {
		r->uf[s] = s;
		r->ufkey[s] = r->level[s] == key_level ? r->rank[s] : r->S;
	}
}

static long prefix_value(const struct lab *r, int s, int len)
{
	long v = 0;
	int i;

	for (i = 0; i < len; i++)
		v = v * r->x->m + WS(r, s)[i];
	return v;
}

/* Is component x (levels >= j, with leaves, s's prefix) reached from c
 * through a level-j child other than s? */
static int reached_else(const struct lab *r, int c, int s, int x, int j)
{
	int q, g;

	for (q = 1; q <= num_ports(r, c); q++) {
		g = peer_sw(r, c, q);
		if (g >= 0 && g != s && r->level[g] == j &&
		    ibu__uf_find(r->uf, g) == x)
			return 1;
	}
	return 0;
}

/* The one component with leaves under s's prefix that parent c reaches
 * through no other child; -1 when none or several. */
static int orphan_home(const struct lab *r, int s, int c, int j)
{
	int x, home = -1;

	for (x = 0; x < r->S; x++) {
		if (r->level[x] < j || ibu__uf_find(r->uf, x) != x ||
		    r->ufkey[x] >= r->S ||
		    prefix_value(r, x, j - 1) != prefix_value(r, s, j - 1) ||
		    reached_else(r, c, s, x, j))
			continue;
		if (home >= 0)
			return -1;
		home = x;
	}
	return home;
}

/*
 * A level-j switch that lost every down link is a component of its own,
 * without a leaf. Its parent has one child in each sub-tree below its own:
 * the one sub-tree (same prefix, with leaves) the parent reaches through
 * no other child is the orphan's. Left alone when no parent tells.
 */
static void adopt_orphans(struct lab *r, int j)
{
	int s, p, c, home;

	for (s = 0; s < r->S; s++) {
		if (r->level[s] != j || ibu__uf_find(r->uf, s) != s ||
		    r->ufkey[s] < r->S)
			continue;
		for (home = -1, p = 1; p <= num_ports(r, s) && home < 0; p++) {
			c = peer_sw(r, s, p);
			if (c >= 0 && r->level[c] == j - 1)
				home = orphan_home(r, s, c, j);
		}
		if (home >= 0)
			uf_union(r, home, s);
	}
}

/* Sorts v[0..k-1] and gives each its rank inside its group (equal keys
 * share it) in r->digit[v.i]; 0 when a rank reaches limit. */
static int rank_groups(struct lab *r, int k, int limit)
{
	int i, d = 0;

	qsort(r->v, (size_t)k, sizeof(*r->v), ibu__cmp_gkey);
	for (i = 0; i < k; i++) {
		if (i && r->v[i].group != r->v[i - 1].group)
			d = 0;
		else if (i && r->v[i].key != r->v[i - 1].key)
			d++;
		if (d >= limit)
			return 0;
		r->digit[r->v[i].i] = d;
	}
	return 1;
}

/* Prefix digit w(j-1) of every switch at level >= j. */
static int prefix_round(struct lab *r, int j)
{
	int s, p, c, k = 0;

	uf_reset(r, r->x->n - 1);
	for (s = 0; s < r->S; s++)
		for (p = 1; r->level[s] >= j && p <= num_ports(r, s); p++)
			if ((c = peer_sw(r, s, p)) >= 0 && r->level[c] >= j)
				uf_union(r, s, c);
	adopt_orphans(r, j);
	for (s = 0; s < r->S; s++)	/* (parent prefix, smallest leaf) */
		if (r->level[s] >= j && ibu__uf_find(r->uf, s) == s) {
			r->v[k].group = (uint64_t)prefix_value(r, s, j - 1);
			r->v[k].key = (uint64_t)r->ufkey[s];
			r->v[k++].i = s;
		}
	if (!rank_groups(r, k, j == 1 ? r->x->m : r->x->half))
		return 0;
	for (s = 0; s < r->S; s++)
		if (r->level[s] >= j)
			WS(r, s)[j - 1] = (uint8_t)r->digit[ibu__uf_find(r->uf, s)];
	return 1;
}

/* From level-j switch d up to the tops: joins the tops it reaches. */
static void climb_tops(struct lab *r, int d)
{
	int head = 0, tail = 0, first = -1, s, p, c;

	r->queue[tail++] = d;
	r->seen[d] = d;
	while (head < tail) {
		s = r->queue[head++];
		if (r->level[s] == 0) {
			if (first < 0)
				first = s;
			else
				uf_union(r, first, s);
			if (r->ufkey[ibu__uf_find(r->uf, s)] > r->rank[d])
				r->ufkey[ibu__uf_find(r->uf, s)] = r->rank[d];
			continue;
		}
		for (p = 1; p <= num_ports(r, s); p++) {
			c = peer_sw(r, s, p);
			if (c >= 0 && r->level[c] == r->level[s] - 1 &&
			    r->seen[c] != d) {
				r->seen[c] = d;
				r->queue[tail++] = c;
			}
		}
	}
}

/* Classes of tops at level j (key[top]: smallest GUID rank of the
 * class's level-j descendants). */
static void top_classes(struct lab *r, int j)
{
	int s;

	uf_reset(r, j);
	for (s = 0; s < r->S; s++)
		r->seen[s] = -1;
	for (s = 0; s < r->S; s++)
		if (r->level[s] == j)
			climb_tops(r, s);
	for (s = 0; s < r->S; s++)
		r->key[s] = r->level[s] == 0 ? r->ufkey[ibu__uf_find(r->uf, s)] :
			    r->S;
}

/* Suffix digits of the tops, each round refining the last's classes. */
static int top_suffixes(struct lab *r)
{
	int n = r->x->n, s, k, cnt;

	for (s = 0; s < r->S; s++)
		r->cls[s] = 0;
	for (k = 0; k < n - 1; k++) {
		top_classes(r, n - 2 - k);
		for (cnt = 0, s = 0; s < r->S; s++)
			if (r->level[s] == 0) {
				r->v[cnt].group = (uint64_t)r->cls[s];
				r->v[cnt].key = (uint64_t)r->key[s];
				r->v[cnt++].i = s;
			}
		if (!rank_groups(r, cnt, r->x->half))
			return 0;
		for (s = 0; s < r->S; s++)
			if (r->level[s] == 0) {
				WS(r, s)[k] = (uint8_t)r->digit[s];
				r->cls[s] = r->key[s];
			}
	}
	return 1;
}

/* Lower switches with a labelled parent: its suffix without the last
 * digit (grp[s] = 1 once labelled). */
static void inherit_from_parents(struct lab *r)
{
	int n = r->x->n, l, s, p, up;

	for (s = 0; s < r->S; s++)
		r->grp[s] = r->level[s] == 0 || r->level[s] == n - 1;
	for (l = 1; l < n - 1; l++)
		for (s = 0; s < r->S; s++) {
			for (p = 1; r->level[s] == l && !r->grp[s] &&
			     p <= num_ports(r, s); p++) {
				up = peer_sw(r, s, p);
				if (up < 0 || r->level[up] != l - 1 ||
				    !r->grp[up])
					continue;
				memcpy(WS(r, s) + l, WS(r, up) + l - 1,
				       (size_t)(n - 1 - l));
				r->grp[s] = 1;
			}
		}
}

/* A parentless switch: a child's suffix plus the lowest last digit no
 * sibling (same w0..w(n-3)) uses. */
static int adopt_suffix(struct lab *r, int s, int l)
{
	uint8_t used[256];
	int n = r->x->n, p, c, o, d, child = -1;

	for (p = 1; p <= num_ports(r, s) && child < 0; p++) {
		c = peer_sw(r, s, p);
		if (c >= 0 && r->level[c] == l + 1 && r->grp[c])
			child = c;
	}
	if (child < 0)
		return 0;
	if (n - 3 >= l)
		memcpy(WS(r, s) + l, WS(r, child) + l + 1, (size_t)(n - 2 - l));
	memset(used, 0, sizeof(used));
	for (o = 0; o < r->S; o++)
		if (o != s && r->grp[o] && r->level[o] == l &&
		    !memcmp(WS(r, o), WS(r, s), (size_t)(n - 2)))
			used[WS(r, o)[n - 2]] = 1;
	for (d = 0; d < r->x->half && used[d]; d++)
		;
	WS(r, s)[n - 2] = (uint8_t)d;	/* >= half: rule_holds rejects */
	r->grp[s] = 1;
	return 1;
}

/* Lower suffixes, parentless switches in node GUID order, bottom up. */
static int inherit_suffixes(struct lab *r)
{
	int l, i, s;

	inherit_from_parents(r);
	for (s = 0; s < r->S; s++)
		r->key[r->rank[s]] = s;		/* switch by GUID rank */
	for (l = r->x->n - 2; l >= 1; l--)
		for (i = 0; i < r->S; i++) {
			s = r->key[i];
			if (r->level[s] == l && !r->grp[s] &&
			    !adopt_suffix(r, s, l))
				return 0;
		}
	return 1;
}

/* The paper's link rule on every switch cable, and unique labels. */
static int rule_holds(const struct ibu_fabric *f, const struct ibu_pgft *g,
		      const struct ibu_pgft_ibft *x, int *owner)
{
	int n = x->n, s, p, q, l, i;

	for (i = 0; i < x->full_switches; i++)
		owner[i] = -1;
	for (s = 0; s < g->num_nodes; s++) {
		long slot = ibu_pgft_ibft_slot(g, x, s);

		if (slot < 0)
			continue;
		l = ib_level(g, s);
		/* digits in range: w0 < m below the tops, the others < m/2 */
		for (i = 0; i < x->n - 1; i++)
			if (W(x, s)[i] >= (i == 0 && l ? x->m : x->half))
				return 0;
		if (slot >= x->full_switches || owner[slot] >= 0)
			return 0;
		owner[slot] = s;
		for (p = 1; p <= f->nodes[s].num_ports; p++) {
			q = peer_at(f, g, s, p, 1);
			if (q >= 0 &&
			    (memcmp(W(x, s), W(x, q), (size_t)l) ||
			     memcmp(W(x, s) + l, W(x, q) + l + 1,
				    (size_t)(n - 2 - l))))
				return 0;
		}
	}
	return 1;
}

/* The switches by index (fabric node order) and their GUID ranks. */
static void lab_index(struct lab *r, const struct ibu_pgft *g)
{
	int i, s = 0;

	for (i = 0; i < g->num_nodes; i++) {
		r->idx[i] = ib_level(g, i) >= 0 ? s : -1;
		if (r->idx[i] >= 0) {
			r->node[s] = i;
			r->level[s] = ib_level(g, i);
			r->v[s].group = r->f->nodes[i].guid;
			r->v[s].key = 0;
			r->v[s].i = s;
			s++;
		}
	}
	r->S = s;
	qsort(r->v, (size_t)s, sizeof(*r->v), ibu__cmp_gkey);
	for (i = 0; i < s; i++)
		r->rank[r->v[i].i] = i;
}

/* Switch labels into x; IBU_ETOPO when they break the paper's rule. */
static int switch_labels(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 struct ibu_pgft_ibft *x, struct ibu_err *e)
{
	size_t N = (size_t)g->num_nodes + 1;
	struct lab r = { .f = f, .x = x };
	int **arr[] = { &r.node, &r.idx, &r.level, &r.rank, &r.uf, &r.ufkey,
			&r.key, &r.grp, &r.queue, &r.seen, &r.digit };
	int *ints = malloc(11 * N * sizeof(int)), j, ok = 0, mem;
	int *owner = malloc((size_t)x->full_switches * sizeof(int));

	r.v = malloc(N * sizeof(*r.v));
	r.cls = malloc(N * sizeof(*r.cls));
	mem = ints && owner && r.v && r.cls;
	if (mem) {
		for (j = 0; j < 11; j++)	/* one block, N ints each */
			*arr[j] = ints + (size_t)j * N;
		lab_index(&r, g);
		for (ok = 1, j = 1; ok && j < x->n; j++)
			ok = prefix_round(&r, j);
		ok = ok && top_suffixes(&r) && inherit_suffixes(&r) &&
		     rule_holds(f, g, x, owner);
	}
	free(ints);
	free(owner);
	free(r.v);
	free(r.cls);
	if (!mem)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return ok ? IBU_OK : IBU_ETOPO;
}

/* PIDs: the leaf's label, then the end port's rank on its leaf by port
 * GUID; *sorted = 1 when they grow with D. */
static int pids(const struct ibu_fabric *f, const struct ibu_pgft *g,
		struct ibu_pgft_ibft *x, int *sorted, struct ibu_err *e)
{
	size_t n = (size_t)(g->num_hosts ? g->num_hosts : 1);
	struct ibu__gkey *v = malloc(n * sizeof(*v));
	int i, d = 0, k, ok = 1;

	if (!v)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < g->num_hosts; i++) {
		v[i].group = (uint64_t)g->host[i].leaf;
		v[i].key = f->nodes[g->host[i].node].ports[g->host[i].port].guid;
		v[i].i = i;
	}
	qsort(v, (size_t)g->num_hosts, sizeof(*v), ibu__cmp_gkey);
	for (i = 0; i < g->num_hosts && ok; i++) {
		uint32_t pid = 0;

		d = i && v[i].group == v[i - 1].group ? d + 1 : 0;
		ok = d < x->half && ib_level(g, (int)v[i].group) == x->n - 1;
		for (k = 0; k < x->n - 1; k++)
			pid = pid * (uint32_t)x->half + W(x, v[i].group)[k];
		x->pid[v[i].i] = pid * (uint32_t)x->half + (uint32_t)d;
	}
	free(v);
	*sorted = 1;
	for (i = 1; i < g->num_hosts; i++)
		if (x->pid[i] <= x->pid[i - 1])
			*sorted = 0;
	return ok ? IBU_OK : IBU_ETOPO;
}

/* Renumbers g's hosts in PID order (lib/fattree/pgft_order.c). */
static int pid_order(const struct ibu_fabric *f, struct ibu_pgft *g,
		     const struct ibu_pgft_ibft *x, struct ibu_err *e)
{
	uint64_t *guid = malloc((size_t)(g->num_hosts ? g->num_hosts : 1) *
				sizeof(*guid));
	int *host = malloc((size_t)x->num_pids * sizeof(*host));
	struct ibu_pgft_order_stats st;
	int D, k = 0, pid, rc = IBU_ENOMEM;

	if (guid && host) {
		for (pid = 0; pid < x->num_pids; pid++)
			host[pid] = -1;		/* a free PID */
		for (D = 0; D < g->num_hosts; D++)
			host[x->pid[D]] = D;
		for (pid = 0; pid < x->num_pids; pid++)
			if ((D = host[pid]) >= 0)
				guid[k++] = f->nodes[g->host[D].node]
					    .ports[g->host[D].port].guid;
		rc = ibu_pgft_apply_order(f, g, guid, k, &st, e);
	} else {
		ibu_err_set(e, rc, "out of memory");
	}
	free(guid);
	free(host);
	return rc;
}

static int alloc_labels(const struct ibu_pgft *g, struct ibu_pgft_ibft *x,
			int half)
{
	long pw = 1;
	int i;

	x->half = half;
	x->m = 2 * half;
	x->n = g->P.h;
	for (i = 0; i < x->n - 1; i++)
		pw *= half;
	x->num_pids = (int)(2 * pw * half);
	x->full_switches = (int)((2 * x->n - 1) * pw);
	x->w = calloc((size_t)g->num_nodes, IBU_PGFT_MAX_H);
	x->pid = calloc((size_t)(g->num_hosts ? g->num_hosts : 1),
			sizeof(*x->pid));
	return x->w && x->pid ? IBU_OK : IBU_ENOMEM;
}

/* x->up: one block, the pointers then every switch's U_l slots. */
static int paper_ups(const struct ibu_fabric *f, const struct ibu_pgft *g,
		     struct ibu_pgft_ibft *x)
{
	size_t nodes = (size_t)g->num_nodes + 1, slots = 1;
	int s, j, p, d, U, *next;

	for (s = 0; s < g->num_nodes; s++)
		if (g->level[s] >= 1)
			slots += (size_t)ibu_pgft_up_ports(&g->P, g->level[s]);
	x->up = calloc(1, nodes * sizeof(int *) + slots * sizeof(int));
	if (!x->up)
		return IBU_ENOMEM;
	next = (int *)(void *)(x->up + nodes);
	for (s = 0; s < g->num_nodes; s++, next += U) {
		int l = g->level[s];

		U = l >= 1 ? ibu_pgft_up_ports(&g->P, l) : 0;
		x->up[s] = next;
		/* paper port half + 1 + the parent's last digit (< half):
		 * the PGFT's up-slots hold every up-cable */
		for (j = 0; j < U; j++) {
			if (!(p = g->up[s][j]))
				continue;
			d = W(x, f->nodes[s].ports[p].peer_node)[x->n - 2];
			if (d < U)
				x->up[s][d] = p;
		}
	}
	return IBU_OK;
}

int ibu_pgft_ibft_build(const struct ibu_fabric *f, struct ibu_pgft *g,
			int renumber, struct ibu_pgft_ibft **out,
			struct ibu_err *e)
{
	struct ibu_pgft_ibft *x;
	int half, rc, sorted;

	*out = NULL;
	if (!ibft_shape(g, &half))
		return IBU_OK;
	x = calloc(1, sizeof(*x));
	if (!x || alloc_labels(g, x, half)) {
		ibu_pgft_ibft_free(x);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	rc = switch_labels(f, g, x, e);
	if (!rc)
		rc = pids(f, g, x, &sorted, e);
	if (!rc && !sorted && renumber) {
		rc = pid_order(f, g, x, e);
		if (!rc)
			rc = pids(f, g, x, &sorted, e);
	}
	if (!rc && paper_ups(f, g, x))
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (rc) {		/* IBU_ETOPO: no IBFT after all, PGFT labels */
		ibu_pgft_ibft_free(x);
		return rc == IBU_ETOPO ? IBU_OK : rc;
	}
	*out = x;
	return IBU_OK;
}

void ibu_pgft_ibft_free(struct ibu_pgft_ibft *x)
{
	if (!x)
		return;
	free(x->w);
	free(x->pid);
	free(x->up);
	free(x);
}

void ibu_pgft_ibft_digits(char *buf, size_t len, const uint8_t *d, int nd,
			  int big)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nd && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u",
				      big && i ? "." : "", d[i]);
}

void ibu_pgft_ibft_sw_label(const struct ibu_pgft *g,
			    const struct ibu_pgft_ibft *x, int node, char *buf,
			    size_t len)
{
	char d[4 * IBU_PGFT_MAX_H + 8];

	if (ib_level(g, node) < 0) {
		snprintf(buf, len, "-");
		return;
	}
	ibu_pgft_ibft_digits(d, sizeof(d), W(x, node), x->n - 1, x->m > 10);
	snprintf(buf, len, "SW<%s,%d>", d, ib_level(g, node));
}

void ibu_pgft_ibft_ep_label(const struct ibu_pgft_ibft *x, int D, char *buf,
			    size_t len)
{
	char d[4 * IBU_PGFT_MAX_H + 8];
	uint8_t p[IBU_PGFT_MAX_H];
	uint32_t pid;
	int k;

	if (D < 0) {
		snprintf(buf, len, "-");
		return;
	}
	for (pid = x->pid[D], k = x->n - 1; k >= 1; k--) {
		p[k] = (uint8_t)(pid % (uint32_t)x->half);
		pid /= (uint32_t)x->half;
	}
	p[0] = (uint8_t)pid;
	ibu_pgft_ibft_digits(d, sizeof(d), p, x->n, x->m > 10);
	snprintf(buf, len, "P(%s)", d);
}

long ibu_pgft_ibft_slot(const struct ibu_pgft *g, const struct ibu_pgft_ibft *x,
			int node)
{
	long per = x->full_switches / (2 * x->n - 1), v;
	int l = ib_level(g, node), i;

	if (l < 0)
		return -1;
	for (v = W(x, node)[0], i = 1; i < x->n - 1; i++)
		v = v * x->half + W(x, node)[i];
	return (l ? per + 2 * per * (l - 1) : 0) + v;
}

int ibu_pgft_ibft_port(const struct ibu_fabric *f, const struct ibu_pgft *g,
		       const struct ibu_pgft_ibft *x, int node, int port)
{
	int l = ib_level(g, node), q, D;

	if (l < 0 || port < 1 || port > f->nodes[node].num_ports)
		return -1;
	if ((q = peer_at(f, g, node, port, -1)) >= 0)
		return x->half + 1 + W(x, q)[x->n - 2];
	if ((q = peer_at(f, g, node, port, 1)) >= 0)
		return W(x, q)[l] + 1;
	q = f->nodes[node].ports[port].peer_node;
	D = q >= 0 ? ibu_pgft_host(g, q, f->nodes[node].ports[port].peer_port) :
	    -2;
	return D >= 0 ? (int)(x->pid[D] % (uint32_t)x->half) + 1 : -1;
}

/* The base LID of a PID; of PID num_pids: the first switch LID (64 bits:
 * no wrap). */
static uint64_t pid_lid(uint64_t pid, int lmc, int paper_exact)
{
	return paper_exact ? (pid << lmc) + 1 : (pid + 1) << lmc;
}

int ibu_pgft_ibft_fit_lmc(const struct ibu_pgft_ibft *x, int want,
			  int paper_exact)
{
	int lmc;

	for (lmc = want > IBU_PGFT_MAX_LMC ? IBU_PGFT_MAX_LMC : want; lmc >= 0;
	     lmc--)
		if (pid_lid((uint64_t)x->num_pids, lmc, paper_exact) +
		    (uint64_t)x->full_switches - 1 <= IBU_MAX_UCAST_LID)
			return lmc;
	return -1;
}

int ibu_pgft_ibft_assign_lids(struct ibu_fabric *f, const struct ibu_pgft *g,
			      const struct ibu_pgft_ibft *x, int lmc,
			      int paper_exact, int *lmc_used, struct ibu_err *e)
{
	int fit = ibu_pgft_ibft_fit_lmc(x, lmc >= 0 ? lmc :
					ibu_pgft_needed_lmc(g), paper_exact);
	uint64_t sw0;
	int i, D;

	if (fit < 0)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) has %d end ports and %d switches: more than the unicast LID space 0x0001-0xBFFF holds even at LMC 0",
				   x->m, x->n, x->num_pids, x->full_switches);
	if (lmc >= 0 && fit < lmc)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) at LMC %d needs more LIDs than the unicast space 0x0001-0xBFFF holds; the largest LMC that fits is %d",
				   x->m, x->n, lmc, fit);
	*lmc_used = lmc = fit;
	sw0 = pid_lid((uint64_t)x->num_pids, lmc, paper_exact);
	ibu_fabric_clear_lids(f);
	for (D = 0; D < g->num_hosts; D++) {
		struct ibu_port *pt = &f->nodes[g->host[D].node]
				       .ports[g->host[D].port];

		pt->lid = (uint16_t)pid_lid(x->pid[D], lmc, paper_exact);
		pt->lmc = (uint8_t)lmc;
	}
	for (i = 0; i < g->num_nodes; i++)	/* label order; none missing */
		if (ib_level(g, i) >= 0)
			f->nodes[i].ports[0].lid =
				(uint16_t)(sw0 + (uint64_t)ibu_pgft_ibft_slot(g, x, i));
	return IBU_OK;
}
