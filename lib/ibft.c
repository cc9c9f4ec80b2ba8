/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * IBFT(m,n) recognition from the link graph (see ibft.h for the labels).
 *
 *  1. m = cabled ports per switch (uniform, even); leaves = switches with end
 *     ports; level = n-1 - distance to the nearest leaf; counts must match
 *     (2n-1)(m/2)^(n-1) switches and 2(m/2)^n end ports.
 *  2. Prefix w0..w(l-1) of a level-l switch names its sub-tree: switches
 *     with the same descendant leaves form one group; groups get digits in
 *     the order of their smallest leaf, under their parent group.
 *  3. Suffix: a top switch's digit w_i separates, inside the class of tops
 *     sharing their level-(n-1-i) descendants, the classes sharing their
 *     level-(n-2-i) descendants. Lower switches inherit the suffix of their
 *     parents minus its last digit (the up-digit their children use).
 *  4. Every label must be unique and every link must obey the paper's rule;
 *     only then is the fabric accepted.
 * All digit choices are free (automorphisms of the tree); every one is
 * made by the smallest GUID of the set it distinguishes (see ibft.h), so
 * the labels depend on the link graph and the GUIDs only, never on record
 * order, names or port numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ibft.h"

struct rec {
	struct ibu_ibft *t;
	const struct ibu_fabric *f;
	struct ibu_err *e;
	int *level;		/* by switch index */
	int *grp;		/* group of a switch at its level */
	int *key;		/* scratch: min descendant rank per switch */
	int *rank;		/* switch index -> rank in node GUID order */
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
	if (!t->sw || !r->level || !r->grp || !r->key || !r->rank)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++)
		if (t->sw_of_node[i] >= 0)
			t->sw[t->sw_of_node[i]].node = i;
	return rank_switches(r);
}

/* m from the cabled ports; end ports must hang off switches. */
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
		if (m < 0) {
			m = c;
			first = i;
		} else if (c != m) {
			return NOT_IBFT(r, "switch '%s' has %d cabled ports but switch '%s' has %d",
					n->name, c, f->nodes[first].name, m);
		}
	}
	if (m < 4 || m % 2)
		return NOT_IBFT(r, "switches have %d cabled ports; m must be even and >= 4",
				m);
	if (!eps)
		return NOT_IBFT(r, "%s", "no end ports");
	r->t->m = m;
	r->t->half = m / 2;
	r->t->num_endports = eps;
	return IBU_OK;
}

/* Levels from the distance to the nearest leaf; n from the deepest. */
static int find_levels(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, *queue, head = 0, tail = 0, s, p, maxd = 0;
	long pw = 1, l;

	queue = malloc(S * sizeof(int));
	if (!queue)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (s = 0; s < S; s++) {
		const struct ibu_node *n = &r->f->nodes[t->sw[s].node];

		r->level[s] = -1;
		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node;

			if (peer >= 0 && !ibu_node_is_switch(&r->f->nodes[peer])) {
				r->level[s] = 0;	/* distance for now */
				queue[tail++] = s;
				break;
			}
		}
	}
	while (head < tail) {
		s = queue[head++];
		for (p = 1; p <= num_ports(r, s); p++) {
			int c = peer_sw(r, s, p);

			if (c >= 0 && r->level[c] < 0) {
				r->level[c] = r->level[s] + 1;
				if (r->level[c] > maxd)
					maxd = r->level[c];
				queue[tail++] = c;
			}
		}
	}
	free(queue);
	for (s = 0; s < S; s++)
		if (r->level[s] < 0)
			return NOT_IBFT(r, "switch '%s' has no path to any end port",
					nname(r, s));
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
	if ((long)S != (2L * t->n - 1) * pw || (long)t->num_endports != 2 * pw * t->half)
		return NOT_IBFT(r, "%d switches and %d end ports with m=%d, n=%d "
				"(IBFT(m,n) has (2n-1)(m/2)^(n-1) = %ld and 2(m/2)^n = %ld)",
				S, t->num_endports, t->m, t->n,
				(2L * t->n - 1) * pw, 2 * pw * t->half);
	for (l = 0; l < t->n; l++) {
		r->per_level[l] = l == 0 ? pw : 2 * pw;
		r->level_first[l] = l == 0 ? 0 : r->level_first[l - 1] + r->per_level[l - 1];
	}
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
		if (l == 0 && (up || down != t->m))
			return NOT_IBFT(r, "top switch '%s' has %d down links, expected %d",
					n->name, down, t->m);
		if (l > 0 && l < t->n - 1 && (up != h || down != h || ends))
			return NOT_IBFT(r, "switch '%s' at level %d has %d up and %d down links, expected %d and %d",
					n->name, l, up, down, h, h);
		if (l == t->n - 1 && (up != h || ends != h))
			return NOT_IBFT(r, "leaf switch '%s' has %d up links and %d end ports, expected %d and %d",
					n->name, up, ends, h, h);
	}
	return IBU_OK;
}

/* key[s] = smallest GUID rank at level j below s (s itself at level j) */
static void min_descendant(struct rec *r, int j)
{
	int S = r->t->num_switches, s, p, l;

	for (s = 0; s < S; s++)
		r->key[s] = r->level[s] == j ? r->rank[s] : S;
	for (l = j - 1; l >= 0; l--)
		for (s = 0; s < S; s++) {
			if (r->level[s] != l)
				continue;
			for (p = 1; p <= num_ports(r, s); p++) {
				int c = peer_sw(r, s, p);

				if (c >= 0 && r->level[c] == l + 1 &&
				    r->key[c] < r->key[s])
					r->key[s] = r->key[c];
			}
		}
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

static int first_up(const struct rec *r, int s)
{
	int p;

	for (p = 1; p <= num_ports(r, s); p++) {
		int c = peer_sw(r, s, p);

		if (c >= 0 && r->level[c] == r->level[s] - 1)
			return c;
	}
	return -1;
}

/*
 * Prefix digits: a group = switches of one level with the same descendant
 * leaves. Groups are numbered under their parent group in leaf order.
 */
static int assign_prefixes(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, n = t->n, l, i, cnt;
	struct sortent *v = malloc(S * sizeof(*v));
	int *next = calloc(S + 1, sizeof(int));
	int rc = IBU_OK;

	if (!v || !next) {
		rc = ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	min_descendant(r, n - 1);
	for (i = 0; i < S; i++)
		r->grp[i] = 0;		/* tops: one group */
	for (l = 1; l < n; l++) {
		int ngroups = 0, limit = l == 1 ? t->m : t->half;

		cnt = 0;
		for (i = 0; i < S; i++) {
			if (r->level[i] != l)
				continue;
			v[cnt].a = r->grp[first_up(r, i)];
			v[cnt].b = r->key[i];
			v[cnt].s = i;
			cnt++;
		}
		qsort(v, cnt, sizeof(*v), cmp_sortent);
		memset(next, 0, (S + 1) * sizeof(int));
		for (i = 0; i < cnt; i++) {
			int s = v[i].s, up = first_up(r, s), d;

			if (i == 0 || v[i].a != v[i - 1].a || v[i].b != v[i - 1].b) {
				ngroups++;
				d = next[v[i].a]++;
			} else {
				d = t->sw[v[i - 1].s].w[l - 1];
			}
			if (d >= limit) {
				rc = NOT_IBFT(r, "more than %d sub-trees below the sub-tree of '%s' at level %d",
					      limit, nname(r, up), l - 1);
				goto out;
			}
			memcpy(t->sw[s].w, t->sw[up].w, l - 1);
			t->sw[s].w[l - 1] = (uint8_t)d;
			r->grp[s] = ngroups;	/* 1-based is fine: only compared */
		}
	}
out:
	free(v);
	free(next);
	return rc;
}

/* Suffix digits of the top switches from their descendant classes. */
static int assign_top_suffixes(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int S = t->num_switches, n = t->n, i, k, cnt = 0;
	struct sortent *v = malloc(S * sizeof(*v));
	long *cls = malloc(S * sizeof(long));
	int rc = IBU_OK;

	if (!v || !cls) {
		rc = ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < n - 1; k++) {
		/* classes at level n-1-k were keyed in the previous round */
		if (k == 0)
			for (i = 0; i < S; i++)
				cls[i] = 0;
		min_descendant(r, n - 2 - k);
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
		for (i = 0; i < cnt; i++)
			cls[v[i].s] = r->key[v[i].s];
	}
out:
	free(v);
	free(cls);
	return rc;
}

/* Lower switches: suffix = parent's suffix without its last digit. */
static void inherit_suffixes(struct rec *r)
{
	struct ibu_ibft *t = r->t;
	int n = t->n, l, s, k;

	for (l = 1; l < n - 1; l++)
		for (s = 0; s < t->num_switches; s++) {
			int up;

			if (r->level[s] != l)
				continue;
			up = first_up(r, s);
			for (k = 0; k <= n - 2 - l; k++)
				t->sw[s].w[l + k] = t->sw[up].w[l - 1 + k];
		}
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
	int S = t->num_switches, s;
	int *slot = malloc(S * sizeof(int));

	if (!slot)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (s = 0; s < S; s++)
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
				      x >= 0 && x < S && slot[x] >= 0 ?
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

int ibu_ibft_recognize(const struct ibu_fabric *f, struct ibu_ibft *t,
		       struct ibu_err *e)
{
	struct rec r;
	int rc, l;

	memset(t, 0, sizeof(*t));
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.f = f;
	r.e = e;
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
	if (!rc) {
		inherit_suffixes(&r);
		rc = check_unique(&r, &t->sw_of_label);
	}
	if (!rc)
		rc = assign_endports(&r);
	if (!rc)
		rc = map_ports(&r);
	if (!rc)
		rc = check_links(&r);
	for (l = 0; l < IBU_IBFT_MAX_N; l++)
		t->level_first[l] = r.level_first[l];
	free(r.level);
	free(r.grp);
	free(r.key);
	free(r.rank);
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
