/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * IBFT(m,n) recognition from the link graph (see ibft.h for the labels),
 * exact or degraded (missing links and switches, absent end ports).
 *
 *  1. m = the most cabled ports of any switch (even, >= 4); leaves =
 *     switches with end ports, plus switches whose parents show them to be
 *     leaves without end ports; level = n-1 - distance to the nearest leaf.
 *     Links join adjacent levels only, no switch has more than m/2 up- or
 *     down-links (m down for a top), counts stay within IBFT(m,n)'s.
 *  2. Prefix w0..w(l-1) of a level-l switch names its sub-tree: the
 *     connected components of the switches at levels >= l; components get
 *     digits in the order of their smallest leaf, under their parent.
 *  3. Suffix: a top switch's digit w_i separates, inside the class of tops
 *     sharing their level-(n-1-i) descendants, the classes sharing their
 *     level-(n-2-i) descendants (classes: tops joined by a common
 *     descendant, transitively). Lower switches inherit the suffix of their
 *     parents minus its last digit (the up-digit their children use); a
 *     switch without any parent left takes it from a child plus the lowest
 *     last digit its siblings leave free.
 *  4. Every label must be unique and every link must obey the paper's rule.
 *  5. Label slots without a switch are missing switches; paper ports of two
 *     present switches the rule joins without a cable are missing links;
 *     more of them than the limit is a rejection.
 * All digit choices are free (automorphisms of the tree); every one is
 * made by the smallest GUID of the set it distinguishes (see ibft.h), so
 * the labels depend on the link graph and the GUIDs only, never on record
 * order, names or port numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_options.h"
#include "ibft.h"

struct rec {
	struct ibu_ibft *t;
	const struct ibu_fabric *f;
	struct ibu_err *e;
	int *level;		/* by switch index */
	int *grp;		/* group of a switch at its level */
	int *key;		/* scratch: min descendant rank per switch */
	int *rank;		/* switch index -> rank in node GUID order */
	int *uf;		/* scratch: union-find parents */
	int *ufkey;		/* scratch: min rank per union-find root */
	int max_faults;
	long per_level[IBU_IBFT_MAX_N];
	long level_first[IBU_IBFT_MAX_N];
};

static const char *nname(const struct rec *r, int sw)
{
	return r->f->nodes[r->t->sw[sw].node].name;
}

/* peer switch index of port p of switch s, -1 if none/not a switch */
static int peer_sw(const struct rec *r, int s, int p)
{
	const struct ibu_port *pt = &r->f->nodes[r->t->sw[s].node].ports[p];

	return pt->peer_node < 0 ? -1 : r->t->sw_of_node[pt->peer_node];
}

static int num_ports(const struct rec *r, int s)
{
	return r->f->nodes[r->t->sw[s].node].num_ports;
}

struct guidkey {
	uint64_t guid;
	int idx;
};

static int cmp_guidkey(const void *x, const void *y)
{
	const struct guidkey *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return a->idx - b->idx;
}

#define NOT_IBFT(r, fmt, ...) \
	ibu_err_set((r)->e, IBU_ETOPO, "not an IBFT(m,n): " fmt, __VA_ARGS__)

/* rank[s]: position of switch s in node GUID order (the canonical order) */
static int rank_switches(struct rec *r)
{
	int S = r->t->num_switches, s;
	struct guidkey *v = malloc(S * sizeof(*v));

	if (!v)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (s = 0; s < S; s++) {
		v[s].guid = r->f->nodes[r->t->sw[s].node].guid;
		v[s].idx = s;
	}
	qsort(v, S, sizeof(*v), cmp_guidkey);
	for (s = 0; s < S; s++)
		r->rank[v[s].idx] = s;
	free(v);
	return IBU_OK;
}

static int collect_switches(struct rec *r)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_ibft *t = r->t;
	int i, s = 0;

	t->num_fabric_nodes = f->num_nodes;
	t->sw_of_node = malloc((f->num_nodes + 1) * sizeof(int));
	if (!t->sw_of_node)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++)
		t->sw_of_node[i] = ibu_node_is_switch(&f->nodes[i]) ? s++ : -1;
	if (!s)
		return NOT_IBFT(r, "%s", "no switches");
	t->num_switches = s;
	t->sw = calloc(s, sizeof(*t->sw));
	r->level = malloc(s * sizeof(int));
	r->grp = malloc(s * sizeof(int));
	r->key = malloc(s * sizeof(int));
	r->rank = malloc(s * sizeof(int));
	r->uf = malloc(s * sizeof(int));
	r->ufkey = malloc(s * sizeof(int));
	if (!t->sw || !r->level || !r->grp || !r->key || !r->rank || !r->uf ||
	    !r->ufkey)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++)
		if (t->sw_of_node[i] >= 0)
			t->sw[t->sw_of_node[i]].node = i;
	return rank_switches(r);
}

/* m = the most cabled ports of any switch; end ports hang off switches. */
static int find_m(struct rec *r)
{
	const struct ibu_fabric *f = r->f;
	int i, p, m = -1, first = -1, eps = 0;

	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];
		int c = 0;

		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node;

			if (peer < 0)
				continue;
			c++;
			if (!ibu_node_is_switch(n) &&
			    !ibu_node_is_switch(&f->nodes[peer]))
				return NOT_IBFT(r, "end nodes '%s' and '%s' are cabled to each other",
						n->name, f->nodes[peer].name);
		}
		if (!ibu_node_is_switch(n)) {
			eps += c;
			continue;
		}
		if (c > m) {
			m = c;
			first = i;
		}
	}
	if (m < 4 || m % 2)
		return NOT_IBFT(r, "switch '%s' has %d cabled ports, the most of any switch; m must be even and >= 4",
				first >= 0 ? f->nodes[first].name : "-", m);
	if (!eps)
		return NOT_IBFT(r, "%s", "no end ports");
	r->t->m = m;
	r->t->half = m / 2;
	r->t->present_endports = eps;
	return IBU_OK;
}

static int uf_find(int *uf, int x)
{
	while (uf[x] != x) {
		uf[x] = uf[uf[x]];
		x = uf[x];
	}
	return x;
}

static void uf_union(struct rec *r, int a, int b)
{
	a = uf_find(r->uf, a);
	b = uf_find(r->uf, b);
	if (a == b)
		return;
	if (r->ufkey[b] < r->ufkey[a])
		r->ufkey[a] = r->ufkey[b];
	r->uf[b] = a;
}

/* uf over the switches; key = rank for the given level (S elsewhere). */
static void uf_reset(struct rec *r, int key_level)
{
	int s, S = r->t->num_switches;

	for (s = 0; s < S; s++) {
		r->uf[s] = s;
		r->ufkey[s] = key_level < 0 || r->level[s] == key_level ?
			      r->rank[s] : S;
	}
}

static int has_endport(const struct rec *r, int s)
{
	const struct ibu_node *n = &r->f->nodes[r->t->sw[s].node];
	int p;

	for (p = 1; p <= n->num_ports; p++) {
		int peer = n->ports[p].peer_node;

		if (peer >= 0 && !ibu_node_is_switch(&r->f->nodes[peer]))
			return 1;
	}
	return 0;
}

/* How many switch neighbours of s are at distance d. */
static int count_at(const struct rec *r, const int *dist, int s, int d)
{
	int p, c, k = 0;

	for (p = 1; p <= num_ports(r, s); p++) {
		c = peer_sw(r, s, p);
		if (c >= 0 && dist[c] == d)
			k++;
	}
	return k;
}

/*
 * A switch that lost every down link (a middle switch left with up links
 * only) lies 2 further from the leaves than its level says. When one of
 * its neighbours has more than m/2 down links, that neighbour is a top
 * (no other switch has room for them), so s sits below it: at the
 * distance of the neighbour's other children. s is on no shortest path
 * (all its neighbours are nearer), so no other distance changes.
 */
static void lower_orphans(struct rec *r, int *dist)
{
	int S = r->t->num_switches, s, p, c;

	for (s = 0; s < S; s++) {
		int any = 0, top = 0, ok = 1;

		if (dist[s] < 3 || has_endport(r, s))
			continue;
		for (p = 1; p <= num_ports(r, s) && ok; p++) {
			c = peer_sw(r, s, p);
			if (c < 0)
				continue;
			any = 1;
			if (dist[c] != dist[s] - 1)
				ok = 0;
			else if (count_at(r, dist, c, dist[s] - 2) > r->t->half)
				top = 1;
		}
		if (ok && any && top)
			dist[s] -= 2;
	}
}

/*
 * A switch without end ports at distance 2 whose switch neighbours are all
 * at distance 1 and lie in one component of the distance-0/1 switches is a
 * leaf whose end ports are all absent (a top or a switch of another level
 * has neighbours in several sub-trees or further up).
 */
static void find_empty_leaves(struct rec *r, int *dist)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, s, p, c;

	uf_reset(r, -1);
	for (s = 0; s < S; s++)
		for (p = 1; p <= num_ports(r, s); p++) {
			c = peer_sw(r, s, p);
			if (c >= 0 && dist[s] >= 0 && dist[s] <= 1 &&
			    dist[c] >= 0 && dist[c] <= 1)
				uf_union(r, s, c);
		}
	for (s = 0; s < S; s++) {
		int root = -1, ok = 1, any = 0;

		if (dist[s] != 2 || has_endport(r, s))
			continue;
		for (p = 1; p <= num_ports(r, s) && ok; p++) {
			c = peer_sw(r, s, p);
			if (c < 0)
				continue;
			any = 1;
			/* a neighbour with m/2 leaves already has no room for
			 * another: s is a top left with cables to it only */
			if (dist[c] != 1 || count_at(r, dist, c, 0) >= r->t->half)
				ok = 0;
			else if (root < 0)
				root = uf_find(r->uf, c);
			else if (uf_find(r->uf, c) != root)
				ok = 0;
		}
		if (ok && any)
			dist[s] = 0;
	}
}

/* Every switch reaches every other one over switch links. */
static int check_connected(struct rec *r, int *queue)
{
	int S = r->t->num_switches, head = 0, tail = 0, s, p;
	char *seen = calloc(S, 1);

	if (!seen)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	seen[0] = 1;
	queue[tail++] = 0;
	while (head < tail) {
		s = queue[head++];
		for (p = 1; p <= num_ports(r, s); p++) {
			int c = peer_sw(r, s, p);

			if (c >= 0 && !seen[c]) {
				seen[c] = 1;
				queue[tail++] = c;
			}
		}
	}
	for (s = 0; s < S; s++)
		if (!seen[s])
			break;
	free(seen);
	if (tail == S)
		return IBU_OK;
	return NOT_IBFT(r, "switches '%s' and '%s' are not connected by switch links",
			nname(r, 0), nname(r, s < S ? s : 0));
}

/* BFS from the switches at distance 0; returns how many were reached. */
static int bfs_distances(struct rec *r, int *queue)
{
	int S = r->t->num_switches, head = 0, tail = 0, s, p;

	for (s = 0; s < S; s++)
		if (r->level[s] == 0)
			queue[tail++] = s;
	while (head < tail) {
		s = queue[head++];
		for (p = 1; p <= num_ports(r, s); p++) {
			int c = peer_sw(r, s, p);

			if (c >= 0 && r->level[c] < 0) {
				r->level[c] = r->level[s] + 1;
				queue[tail++] = c;
			}
		}
	}
	return tail;
}

/* Levels from the distance to the nearest leaf; n from the deepest. */
static int find_levels(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, *queue, tail, s, maxd = 0, rc;
	long pw = 1, l, cnt[IBU_IBFT_MAX_N];

	queue = malloc(S * sizeof(int));
	if (!queue)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	rc = check_connected(r, queue);
	if (rc) {
		free(queue);
		return rc;
	}
	for (s = 0; s < S; s++)
		r->level[s] = has_endport(r, s) ? 0 : -1;	/* distance */
	tail = bfs_distances(r, queue);
	if (tail == S) {
		/* leaves without end ports: sources too, distances again */
		find_empty_leaves(r, r->level);
		for (s = 0; s < S; s++)
			if (r->level[s] != 0)
				r->level[s] = -1;
		tail = bfs_distances(r, queue);
	}
	if (tail == S)
		lower_orphans(r, r->level);
	free(queue);
	if (!tail)
		return NOT_IBFT(r, "%s", "no switch carries an end port");
	for (s = 0; s < S; s++)
		if (r->level[s] < 0)
			return NOT_IBFT(r, "switch '%s' has no path to any end port",
					nname(r, s));
	for (s = 0; s < S; s++)
		if (r->level[s] > maxd)
			maxd = r->level[s];
	t->n = maxd + 1;
	if (t->n < 2)
		return NOT_IBFT(r, "all %d switches carry end ports (a tree needs n >= 2 levels)",
				S);
	if (t->n > IBU_IBFT_MAX_N)
		return NOT_IBFT(r, "%d levels, at most %d supported", t->n,
				IBU_IBFT_MAX_N);
	for (s = 0; s < S; s++)
		r->level[s] = t->n - 1 - r->level[s];
	for (l = 0; l < t->n - 1; l++) {
		pw *= t->half;
		if (pw > 10000000)
			return NOT_IBFT(r, "IBFT(%d,%d) would be too large", t->m,
					t->n);
	}
	t->full_switches = (int)((2L * t->n - 1) * pw);
	t->num_endports = (int)(2 * pw * t->half);
	for (l = 0; l < t->n; l++) {
		r->per_level[l] = l == 0 ? pw : 2 * pw;
		r->level_first[l] = l == 0 ? 0 : r->level_first[l - 1] + r->per_level[l - 1];
		cnt[l] = 0;
	}
	for (s = 0; s < S; s++)
		cnt[r->level[s]]++;
	if ((long)S > t->full_switches || t->present_endports > t->num_endports)
		return NOT_IBFT(r, "%d switches and %d end ports with m=%d, n=%d "
				"(IBFT(m,n) has (2n-1)(m/2)^(n-1) = %d and 2(m/2)^n = %d)",
				S, t->present_endports, t->m, t->n,
				t->full_switches, t->num_endports);
	for (l = 0; l < t->n; l++)
		if (cnt[l] > r->per_level[l])
			return NOT_IBFT(r, "%ld switches at level %ld; IBFT(%d,%d) has %ld",
					cnt[l], l, t->m, t->n, r->per_level[l]);
	return IBU_OK;
}

/* Up/down/end-port link counts per level. */
static int check_degrees(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int s, p, h = t->half;

	for (s = 0; s < t->num_switches; s++) {
		int l = r->level[s], up = 0, down = 0, ends = 0;
		const struct ibu_node *n = &r->f->nodes[t->sw[s].node];

		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node, c;

			if (peer < 0)
				continue;
			c = t->sw_of_node[peer];
			if (c < 0)
				ends++;
			else if (r->level[c] == l - 1)
				up++;
			else if (r->level[c] == l + 1)
				down++;
			else
				return NOT_IBFT(r, "link '%s'[%d] - '%s' joins levels %d and %d",
						n->name, p, nname(r, c), l,
						r->level[c]);
		}
		if (l == 0 && (ends || down > t->m))
			return NOT_IBFT(r, "top switch '%s' has %d down links and %d end ports, at most %d and none expected",
					n->name, down, ends, t->m);
		if (l > 0 && l < t->n - 1 && (up > h || down > h || ends))
			return NOT_IBFT(r, "switch '%s' at level %d has %d up links, %d down links and %d end ports, at most %d, %d and none expected",
					n->name, l, up, down, ends, h, h);
		if (l == t->n - 1 && (up > h || ends > h))
			return NOT_IBFT(r, "leaf switch '%s' has %d up links and %d end ports, at most %d and %d expected",
					n->name, up, ends, h, h);
	}
	return IBU_OK;
}

struct sortent {
	long a, b;
	int s;
};

static int cmp_sortent(const void *x, const void *y)
{
	const struct sortent *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->s - q->s;
}

static long prefix_value(const struct ibu_ibft *t, int s, int len)
{
	long x = 0;
	int i;

	for (i = 0; i < len; i++)
		x = x * t->m + t->sw[s].w[i];
	return x;
}

/*
 * A level-j switch that lost every down link is a component of its own,
 * without a leaf. Its parent has one child in each sub-tree below its own:
 * the one sub-tree (same prefix, with leaves) the parent reaches through
 * no other child is the orphan's. Left alone when no parent tells.
 */
static void adopt_orphans(struct rec *r, int j)
{
	int S = r->t->num_switches, s, p, q, c, g, x, home;

	for (s = 0; s < S; s++) {
		if (r->level[s] != j || uf_find(r->uf, s) != s ||
		    r->ufkey[s] < S)
			continue;
		for (home = -1, p = 1; p <= num_ports(r, s) && home < 0; p++) {
			c = peer_sw(r, s, p);
			if (c < 0 || r->level[c] != j - 1)
				continue;
			/* sub-trees with leaves under s's prefix, not reached
			 * through another child of c */
			for (x = 0; x < S; x++) {
				int reached = 0;

				if (r->level[x] < j || uf_find(r->uf, x) != x ||
				    r->ufkey[x] >= S ||
				    prefix_value(r->t, x, j - 1) !=
				    prefix_value(r->t, s, j - 1))
					continue;
				for (q = 1; q <= num_ports(r, c) && !reached; q++) {
					g = peer_sw(r, c, q);
					reached = g >= 0 && g != s &&
						  r->level[g] == j &&
						  uf_find(r->uf, g) == x;
				}
				if (reached)
					continue;
				if (home >= 0) {	/* two candidates: no answer */
					home = -2;
					break;
				}
				home = x;
			}
			if (home == -2)
				home = -1;
		}
		if (home >= 0)
			uf_union(r, home, s);
	}
}

/*
 * Prefix digits: the sub-trees at level j are the connected components of
 * the switches at levels >= j; under one parent sub-tree they are numbered
 * in the order of their smallest leaf (GUID rank).
 */
static int assign_prefixes(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, n = t->n, j, i, s, p;
	struct sortent *v = malloc(S * sizeof(*v));
	int *digit = malloc(S * sizeof(int));
	int rc = IBU_OK;

	if (!v || !digit) {
		rc = ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (j = 1; j < n && !rc; j++) {
		int cnt = 0, limit = j == 1 ? t->m : t->half, d = 0;

		uf_reset(r, n - 1);
		for (s = 0; s < S; s++) {
			if (r->level[s] < j)
				continue;
			for (p = 1; p <= num_ports(r, s); p++) {
				int c = peer_sw(r, s, p);

				if (c >= 0 && r->level[c] >= j)
					uf_union(r, s, c);
			}
		}
		adopt_orphans(r, j);
		/* one entry per component: (parent prefix, smallest leaf) */
		for (s = 0; s < S; s++)
			if (r->level[s] >= j && uf_find(r->uf, s) == s) {
				v[cnt].a = prefix_value(t, s, j - 1);
				v[cnt].b = r->ufkey[s];
				v[cnt].s = s;
				cnt++;
			}
		qsort(v, cnt, sizeof(*v), cmp_sortent);
		for (i = 0; i < cnt; i++) {
			d = i > 0 && v[i].a == v[i - 1].a ? d + 1 : 0;
			if (d >= limit) {
				rc = NOT_IBFT(r, "more than %d sub-trees below the sub-tree of '%s' at level %d",
					      limit, nname(r, v[i].s), j - 1);
				break;
			}
			digit[v[i].s] = d;
		}
		for (s = 0; s < S && !rc; s++)
			if (r->level[s] >= j)
				t->sw[s].w[j - 1] =
					(uint8_t)digit[uf_find(r->uf, s)];
	}
out:
	free(v);
	free(digit);
	return rc;
}

/*
 * Classes of tops at level j: tops sharing a descendant at level j are in
 * one class (transitively); key[top] = smallest GUID rank of the class's
 * level-j descendants. Each level-j switch climbs to its top ancestors.
 */
static int top_classes(struct rec *r, int j, int *queue, int *seen)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, s, p, d;

	uf_reset(r, j);
	for (s = 0; s < S; s++)
		seen[s] = -1;
	for (d = 0; d < S; d++) {
		int head = 0, tail = 0, first = -1;

		if (r->level[d] != j)
			continue;
		queue[tail++] = d;
		seen[d] = d;
		while (head < tail) {
			s = queue[head++];
			if (r->level[s] == 0) {
				if (first < 0)
					first = s;
				else
					uf_union(r, first, s);
				if (r->ufkey[uf_find(r->uf, s)] > r->rank[d])
					r->ufkey[uf_find(r->uf, s)] = r->rank[d];
				continue;
			}
			for (p = 1; p <= num_ports(r, s); p++) {
				int c = peer_sw(r, s, p);

				if (c >= 0 && r->level[c] == r->level[s] - 1 &&
				    seen[c] != d) {
					seen[c] = d;
					queue[tail++] = c;
				}
			}
		}
	}
	for (s = 0; s < S; s++)
		r->key[s] = r->level[s] == 0 ? r->ufkey[uf_find(r->uf, s)] : S;
	return IBU_OK;
}

/* Suffix digits of the top switches from their descendant classes. */
static int assign_top_suffixes(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, n = t->n, i, k, cnt = 0;
	struct sortent *v = malloc(S * sizeof(*v));
	long *cls = malloc(S * sizeof(long));
	int *queue = malloc(S * sizeof(int)), *seen = malloc(S * sizeof(int));
	int rc = IBU_OK;

	if (!v || !cls || !queue || !seen) {
		rc = ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < S; i++)
		cls[i] = 0;
	for (k = 0; k < n - 1; k++) {
		/* classes at level n-1-k were keyed in the previous round */
		top_classes(r, n - 2 - k, queue, seen);
		cnt = 0;
		for (i = 0; i < S; i++) {
			if (r->level[i] != 0)
				continue;
			v[cnt].a = cls[i];
			v[cnt].b = r->key[i];
			v[cnt].s = i;
			cnt++;
		}
		qsort(v, cnt, sizeof(*v), cmp_sortent);
		{
			int d = 0;

			for (i = 0; i < cnt; i++) {
				if (i > 0 && v[i].a != v[i - 1].a)
					d = 0;
				else if (i > 0 && v[i].b != v[i - 1].b)
					d++;
				if (d >= t->half) {
					rc = NOT_IBFT(r, "top switch '%s' falls in a class of more than %d at depth %d",
						      nname(r, v[i].s), t->half, k);
					goto out;
				}
				t->sw[v[i].s].w[k] = (uint8_t)d;
			}
		}
		/* the next round refines these classes */
		for (i = 0; i < cnt; i++)
			cls[v[i].s] = r->key[v[i].s];
	}
out:
	free(v);
	free(cls);
	free(queue);
	free(seen);
	return rc;
}

/*
 * Lower switches: suffix = a parent's suffix without its last digit
 * (r->grp[s] = 1 once labelled). A switch whose parents are all gone takes
 * w(l)..w(n-3) from a child's w(l+1)..w(n-2) and, as last digit, the
 * lowest one no sibling (same prefix and w(l)..w(n-3)) uses.
 */
static int inherit_suffixes(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, n = t->n, l, s, k, p;

	for (s = 0; s < S; s++)
		r->grp[s] = r->level[s] == 0 || r->level[s] == n - 1;
	for (l = 1; l < n - 1; l++)
		for (s = 0; s < S; s++) {
			if (r->level[s] != l)
				continue;
			for (p = 1; p <= num_ports(r, s); p++) {
				int up = peer_sw(r, s, p);

				if (up < 0 || r->level[up] != l - 1 || !r->grp[up])
					continue;
				for (k = 0; k <= n - 2 - l; k++)
					t->sw[s].w[l + k] = t->sw[up].w[l - 1 + k];
				r->grp[s] = 1;
				break;
			}
		}
	for (s = 0; s < S; s++)
		r->key[r->rank[s]] = s;		/* switch by GUID rank */
	for (l = n - 2; l >= 1; l--) {
		int i;

		for (i = 0; i < S; i++) {	/* orphans in GUID rank order */
			uint8_t used[256];
			int o, d, child = -1;

			s = r->key[i];
			if (r->level[s] != l || r->grp[s])
				continue;
			for (p = 1; p <= num_ports(r, s) && child < 0; p++) {
				int c = peer_sw(r, s, p);

				if (c >= 0 && r->level[c] == l + 1 && r->grp[c])
					child = c;
			}
			if (child < 0)
				return NOT_IBFT(r, "switch '%s' at level %d has neither a parent nor a child left",
						nname(r, s), l);
			for (k = l; k <= n - 3; k++)
				t->sw[s].w[k] = t->sw[child].w[k + 1];
			memset(used, 0, sizeof(used));
			for (o = 0; o < S; o++)
				if (o != s && r->grp[o] && r->level[o] == l &&
				    !memcmp(t->sw[o].w, t->sw[s].w, n - 2))
					used[t->sw[o].w[n - 2]] = 1;
			for (d = 0; d < t->half && used[d]; d++)
				;
			t->sw[s].w[n - 2] = (uint8_t)d;	/* >= half: caught later */
			r->grp[s] = 1;
		}
	}
	return IBU_OK;
}

static long label_slot(const struct rec *r, int level, const uint8_t *w)
{
	const struct ibu_ibft *t = r->t;
	long x = w[0];
	int i;

	for (i = 1; i < t->n - 1; i++)
		x = x * t->half + w[i];
	return r->level_first[level] + x;
}

static int check_unique(struct rec *r, int **by_slot)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, F = t->full_switches, s;
	int *slot = malloc(F * sizeof(int));

	if (!slot)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (s = 0; s < F; s++)
		slot[s] = -1;
	for (s = 0; s < S; s++) {
		long x = label_slot(r, r->level[s], t->sw[s].w);
		char a[64];

		t->sw[s].level = r->level[s];
		if (x < r->level_first[r->level[s]] ||
		    x >= r->level_first[r->level[s]] + r->per_level[r->level[s]] ||
		    slot[x] >= 0) {
			int rc;

			ibu_ibft_sw_label(t, s, a, sizeof(a));
			rc = NOT_IBFT(r, "switches '%s' and '%s' both get label %s",
				      nname(r, s),
				      x >= 0 && x < F && slot[x] >= 0 ?
				      nname(r, slot[x]) : "?", a);
			free(slot);
			return rc;
		}
		slot[x] = s;
	}
	*by_slot = slot;
	return IBU_OK;
}

/* End ports: p = leaf label + rank of the end port's port GUID on its leaf. */
static int assign_endports(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	const struct ibu_fabric *f = r->f;
	int n = t->n, s, p, i, total = 0, rc = IBU_OK;
	struct guidkey *v = NULL;

	t->ep = calloc(t->num_endports, sizeof(*t->ep));
	t->ep_base_of_node = malloc((f->num_nodes + 1) * sizeof(int));
	if (!t->ep || !t->ep_base_of_node)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++) {
		t->ep_base_of_node[i] = total;
		total += f->nodes[i].num_ports + 1;
	}
	t->ep_base_of_node[f->num_nodes] = total;
	t->ep_of_port = malloc(total * sizeof(int));
	v = malloc((IBU_MAX_PORTS + 1) * sizeof(*v));
	if (!t->ep_of_port || !v) {
		free(v);
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	}
	for (i = 0; i < total; i++)
		t->ep_of_port[i] = -1;
	for (i = 0; i < t->num_endports; i++)
		t->ep[i].node = -1;
	for (s = 0; s < t->num_switches && !rc; s++) {
		const struct ibu_node *nd = &f->nodes[t->sw[s].node];
		int cnt = 0, d;

		if (r->level[s] != n - 1)
			continue;
		for (p = 1; p <= nd->num_ports && p <= IBU_MAX_PORTS; p++) {
			const struct ibu_port *pt = &nd->ports[p];

			if (pt->peer_node < 0 || t->sw_of_node[pt->peer_node] >= 0)
				continue;
			v[cnt].guid = f->nodes[pt->peer_node].ports[pt->peer_port].guid;
			v[cnt].idx = p;
			cnt++;
		}
		qsort(v, cnt, sizeof(*v), cmp_guidkey);
		for (d = 0; d < cnt; d++) {
			const struct ibu_port *pt = &nd->ports[v[d].idx];
			struct ibu_ibft_endport ep;
			long pid = 0;
			int k;

			memset(&ep, 0, sizeof(ep));
			ep.node = pt->peer_node;
			ep.port = pt->peer_port;
			ep.leaf = s;
			memcpy(ep.p, t->sw[s].w, n - 1);
			ep.p[n - 1] = (uint8_t)d;
			for (k = 0; k < n; k++)
				pid = pid * t->half + ep.p[k];
			if (pid >= t->num_endports || t->ep[pid].node >= 0) {
				rc = NOT_IBFT(r, "end port of '%s' gets a duplicate label",
					      f->nodes[ep.node].name);
				break;
			}
			ep.pid = (uint32_t)pid;
			t->ep[pid] = ep;
			t->ep_of_port[t->ep_base_of_node[ep.node] + ep.port] = (int)pid;
		}
	}
	free(v);
	return rc;
}

/* Paper port numbers of every cabled port of every switch. */
static int map_ports(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int s, p, h = t->half;

	for (s = 0; s < t->num_switches; s++) {
		struct ibu_ibft_switch *sw = &t->sw[s];
		const struct ibu_node *nd = &r->f->nodes[sw->node];

		sw->phys_of_k = calloc(t->m + 1, 1);
		sw->k_of_phys = calloc(nd->num_ports + 1, 1);
		if (!sw->phys_of_k || !sw->k_of_phys)
			return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
		for (p = 1; p <= nd->num_ports; p++) {
			const struct ibu_port *pt = &nd->ports[p];
			int c, k;

			if (pt->peer_node < 0)
				continue;
			c = t->sw_of_node[pt->peer_node];
			if (c < 0)
				k = 1 + t->ep[ibu_ibft_ep(t, pt->peer_node,
							  pt->peer_port)].p[t->n - 1];
			else if (t->sw[c].level == sw->level + 1)
				k = 1 + t->sw[c].w[sw->level];
			else
				k = h + 1 + t->sw[c].w[t->n - 2];
			if (sw->phys_of_k[k])
				return NOT_IBFT(r, "switch '%s' reaches two neighbours through paper port %d (physical %d and %d)",
						nd->name, k, sw->phys_of_k[k], p);
			sw->phys_of_k[k] = (uint8_t)p;
			sw->k_of_phys[p] = (uint8_t)k;
		}
	}
	return IBU_OK;
}

/*
 * The paper's link rule, from the upper end of every switch link:
 * SW<w,l> -- SW<w',l+1> iff w0..w(l-1) = w'0..w'(l-1) and
 * w(l)..w(n-3) = w'(l+1)..w'(n-2).
 */
static int check_links(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int s, p, i, n = t->n;

	for (s = 0; s < t->num_switches; s++) {
		const struct ibu_ibft_switch *sw = &t->sw[s];
		int l = sw->level;

		for (p = 1; p <= num_ports(r, s); p++) {
			int c = peer_sw(r, s, p), ok = 1;
			char a[64], b[64];

			if (c < 0 || t->sw[c].level != l + 1)
				continue;
			for (i = 0; i < l; i++)
				ok &= sw->w[i] == t->sw[c].w[i];
			for (i = l; i <= n - 3; i++)
				ok &= sw->w[i] == t->sw[c].w[i + 1];
			if (ok)
				continue;
			ibu_ibft_sw_label(t, s, a, sizeof(a));
			ibu_ibft_sw_label(t, c, b, sizeof(b));
			return NOT_IBFT(r, "link '%s' %s - '%s' %s breaks the IBFT link rule",
					nname(r, s), a, nname(r, c), b);
		}
	}
	return IBU_OK;
}

int ibu_ibft_default_max_faults(int m, int n)
{
	long links = (long)(n - 1) * m, i, lim;

	for (i = 0; i < n - 1 && links < 100000000L; i++)
		links *= m / 2;
	lim = links / 10;
	return lim < 1 ? 1 : lim > 1000000 ? 1000000 : (int)lim;
}

static int add_fault(struct rec *r, int *cap, const struct ibu_ibft_fault *x)
{
	struct ibu_ibft *t = r->t;

	if (t->num_faults == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		struct ibu_ibft_fault *nf = realloc(t->faults, nc * sizeof(*nf));

		if (!nf)
			return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
		t->faults = nf;
		*cap = nc;
	}
	t->faults[t->num_faults++] = *x;
	return IBU_OK;
}

/* Label slots without a switch, paper links without a cable. */
static int find_faults(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int n = t->n, h = t->half, l, k, cap = 0, rc = IBU_OK;
	long slot;

	for (l = 0; l < n && !rc; l++)
		for (slot = r->level_first[l];
		     slot < r->level_first[l] + r->per_level[l] && !rc; slot++) {
			struct ibu_ibft_fault x;
			long v = slot - r->level_first[l];
			int i;

			if (t->sw_of_label[slot] >= 0)
				continue;
			memset(&x, 0, sizeof(x));
			x.kind = IBU_IBFT_MISSING_SWITCH;
			x.level = l;
			x.upper = x.lower = -1;
			for (i = n - 2; i >= 1; i--) {
				x.w[i] = (uint8_t)(v % h);
				v /= h;
			}
			x.w[0] = (uint8_t)v;
			rc = add_fault(r, &cap, &x);
		}
	for (slot = 0; slot < t->full_switches && !rc; slot++) {
		int s = t->sw_of_label[slot], top;
		const struct ibu_ibft_switch *sw;

		if (s < 0 || t->sw[s].level == n - 1)
			continue;
		sw = &t->sw[s];
		top = sw->level == 0 ? t->m : h;
		for (k = 1; k <= top && !rc; k++) {
			uint8_t w[IBU_IBFT_MAX_N];
			struct ibu_ibft_fault x;
			int c, i;

			if (sw->phys_of_k[k])
				continue;
			/* the child: prefix + (k-1), suffix without its last */
			memcpy(w, sw->w, sizeof(w));
			w[sw->level] = (uint8_t)(k - 1);
			for (i = sw->level + 1; i <= n - 2; i++)
				w[i] = sw->w[i - 1];
			c = ibu_ibft_find_switch(t, sw->level + 1, w);
			if (c < 0)
				continue;	/* a missing switch */
			memset(&x, 0, sizeof(x));
			x.kind = IBU_IBFT_MISSING_LINK;
			x.level = sw->level;
			memcpy(x.w, sw->w, sizeof(x.w));
			x.upper = s;
			x.lower = c;
			x.k_upper = k;
			x.k_lower = h + 1 + sw->w[n - 2];
			rc = add_fault(r, &cap, &x);
		}
	}
	if (!rc && t->num_faults > r->max_faults)
		rc = NOT_IBFT(r, "%d missing links and switches, more than the limit of %d faults (max_faults)",
			      t->num_faults, r->max_faults);
	return rc;
}

int ibu_ibft_recognize(const struct ibu_fabric *f, struct ibu_ibft *t,
		       struct ibu_err *e)
{
	return ibu_ibft_recognize_limit(f, t, IBU_MAX_FAULTS_DEFAULT, e);
}

int ibu_ibft_recognize_limit(const struct ibu_fabric *f, struct ibu_ibft *t,
			     int max_faults, struct ibu_err *e)
{
	struct rec r;
	int rc, l;

	memset(t, 0, sizeof(*t));
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.f = f;
	r.e = e;
	r.max_faults = max_faults;
	rc = collect_switches(&r);
	if (!rc)
		rc = find_m(&r);
	if (!rc)
		rc = find_levels(&r);
	if (!rc)
		rc = check_degrees(&r);
	if (!rc)
		rc = assign_prefixes(&r);
	if (!rc)
		rc = assign_top_suffixes(&r);
	if (!rc)
		rc = inherit_suffixes(&r);
	if (!rc)
		rc = check_unique(&r, &t->sw_of_label);
	if (!rc)
		rc = assign_endports(&r);
	if (!rc)
		rc = map_ports(&r);
	for (l = 0; l < IBU_IBFT_MAX_N; l++)
		t->level_first[l] = r.level_first[l];
	if (!rc)
		rc = check_links(&r);
	if (!rc) {
		r.max_faults = ibu_fault_limit(r.max_faults,
				ibu_ibft_default_max_faults(t->m, t->n));
		t->max_faults = r.max_faults;
		rc = find_faults(&r);
	}
	free(r.level);
	free(r.grp);
	free(r.key);
	free(r.rank);
	free(r.uf);
	free(r.ufkey);
	if (rc)
		ibu_ibft_free(t);
	return rc;
}

void ibu_ibft_free(struct ibu_ibft *t)
{
	int s;

	if (!t)
		return;
	for (s = 0; t->sw && s < t->num_switches; s++) {
		free(t->sw[s].phys_of_k);
		free(t->sw[s].k_of_phys);
	}
	free(t->sw);
	free(t->ep);
	free(t->sw_of_node);
	free(t->ep_base_of_node);
	free(t->ep_of_port);
	free(t->sw_of_label);
	free(t->faults);
	memset(t, 0, sizeof(*t));
}

int ibu_ibft_ep(const struct ibu_ibft *t, int node, int port)
{
	if (!t->ep_of_port || node < 0 || node >= t->num_fabric_nodes ||
	    port < 0 ||
	    t->ep_base_of_node[node] + port >= t->ep_base_of_node[node + 1])
		return -1;
	return t->ep_of_port[t->ep_base_of_node[node] + port];
}

int ibu_ibft_sw(const struct ibu_ibft *t, int node)
{
	if (!t->sw_of_node || node < 0 || node >= t->num_fabric_nodes)
		return -1;
	return t->sw_of_node[node];
}

void ibu_ibft_fault_text(const struct ibu_fabric *f, const struct ibu_ibft *t,
			 int i, char *buf, size_t len)
{
	const struct ibu_ibft_fault *x = &t->faults[i];
	char a[64], b[64];

	if (x->kind == IBU_IBFT_MISSING_SWITCH) {
		struct ibu_ibft_switch tmp = { .level = x->level };
		struct ibu_ibft one = *t;

		memcpy(tmp.w, x->w, sizeof(tmp.w));
		one.sw = &tmp;
		ibu_ibft_sw_label(&one, 0, a, sizeof(a));
		snprintf(buf, len, "missing switch %s", a);
		return;
	}
	ibu_ibft_sw_label(t, x->upper, a, sizeof(a));
	ibu_ibft_sw_label(t, x->lower, b, sizeof(b));
	snprintf(buf, len, "missing link %s port %d - %s port %d ('%s' - '%s')",
		 a, x->k_upper, b, x->k_lower,
		 f->nodes[t->sw[x->upper].node].name,
		 f->nodes[t->sw[x->lower].node].name);
}

long ibu_ibft_sw_slot(const struct ibu_ibft *t, int sw)
{
	long x = t->sw[sw].w[0];
	int i;

	for (i = 1; i < t->n - 1; i++)
		x = x * t->half + t->sw[sw].w[i];
	return t->level_first[t->sw[sw].level] + x;
}

int ibu_ibft_find_switch(const struct ibu_ibft *t, int level, const uint8_t *w)
{
	long x;
	int i;

	if (level < 0 || level >= t->n || !t->sw_of_label)
		return -1;
	if (w[0] >= (level == 0 ? t->half : t->m))
		return -1;
	x = w[0];
	for (i = 1; i < t->n - 1; i++) {
		if (w[i] >= t->half)
			return -1;
		x = x * t->half + w[i];
	}
	return t->sw_of_label[t->level_first[level] + x];
}

static void digits_text(char *buf, size_t len, const uint8_t *d, int nd, int big)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nd && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u",
				      big && i ? "." : "", d[i]);
}

void ibu_ibft_sw_label(const struct ibu_ibft *t, int sw, char *buf, size_t len)
{
	char d[3 * IBU_IBFT_MAX_N + 8];

	digits_text(d, sizeof(d), t->sw[sw].w, t->n - 1, t->m > 10);
	snprintf(buf, len, "SW<%s,%d>", d, t->sw[sw].level);
}

void ibu_ibft_ep_label(const struct ibu_ibft *t, int pid, char *buf, size_t len)
{
	char d[4 * IBU_IBFT_MAX_N + 8];

	digits_text(d, sizeof(d), t->ep[pid].p, t->n, t->m > 10);
	snprintf(buf, len, "P(%s)", d);
}

int ibu_ibft_below(const struct ibu_ibft *t, int sw, int pid)
{
	int i;

	for (i = 0; i < t->sw[sw].level; i++)
		if (t->sw[sw].w[i] != t->ep[pid].p[i])
			return 0;
	return 1;
}

int ibu_ibft_lca_level(const struct ibu_ibft *t, int a, int b)
{
	int i;

	for (i = 0; i < t->n - 1; i++)
		if (t->ep[a].p[i] != t->ep[b].p[i])
			return i;
	return t->n - 1;
}
