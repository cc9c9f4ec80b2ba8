/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* PGFT recognition from the link graph (see pgft.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_options.h"
#include "pgft.h"

#define NOT_PGFT(e, ...) ibu_err_set(e, IBU_ETOPO, "not a PGFT: " __VA_ARGS__)

struct rec {
	const struct ibu_fabric *f;
	struct ibu_pgft *g;
	const uint64_t *roots;	/* node GUIDs of the top switches, or NULL */
	int num_roots;
	int *colour;		/* [node] 0/1 switches, -1 else */
	int *eps;		/* [node] end ports cabled to a switch */
	int *queue;
	int *bmark;		/* [node] bundles(): stamp, cables */
	int *bcnt;
	int bstamp;
	int max_faults;		/* IBU_MAX_FAULTS_DEFAULT: the shape's */
	int h_dist;		/* levels by distance alone (hint_roots) */
	long missing[IBU_PGFT_MAX_H + 1];	/* switches per level */
	int *sib;		/* [node] siblings' root: share a parent */
	int fcap;		/* g->faults allocated */
};

static int is_sw(const struct ibu_fabric *f, int n)
{
	return n >= 0 && ibu_node_is_switch(&f->nodes[n]);
}

/* an end port: a non-switch port cabled to a switch */
static int is_ep(const struct ibu_fabric *f, int n, int p)
{
	int peer = f->nodes[n].ports[p].peer_node;

	return !ibu_node_is_switch(&f->nodes[n]) && is_sw(f, peer);
}

static const char *nm(const struct rec *r, int n)
{
	return r->f->nodes[n].name ? r->f->nodes[n].name : "?";
}

/* Steps 1-2: 2-colour the switch graph from any switch; connected. */
static int colour(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	int n, p, head = 0, tail = 0, start = -1, seen = 0;

	for (n = 0; n < f->num_nodes; n++) {
		r->colour[n] = -1;
		if (is_sw(f, n)) {
			r->g->num_switches++;
			if (start < 0)
				start = n;
		} else {
			for (p = 1; p <= f->nodes[n].num_ports; p++)
				if (is_ep(f, n, p))
					r->eps[f->nodes[n].ports[p].peer_node]++;
		}
	}
	if (start < 0)
		return NOT_PGFT(e, "no switch");
	r->colour[start] = 0;
	r->queue[tail++] = start;
	while (head < tail) {
		n = r->queue[head++];
		seen++;
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;

			if (!is_sw(f, q))
				continue;
			if (q == n)
				return NOT_PGFT(e, "switch '%s' is cabled to itself", nm(r, n));
			if (r->colour[q] == r->colour[n])
				return NOT_PGFT(e, "switches '%s' and '%s' are cabled but cannot be on adjacent levels (odd cycle)",
						nm(r, n), nm(r, q));
			if (r->colour[q] < 0) {
				r->colour[q] = !r->colour[n];
				r->queue[tail++] = q;
			}
		}
	}
	if (seen != r->g->num_switches)
		return NOT_PGFT(e, "the switches form more than one connected fabric");
	return IBU_OK;
}

static int uf_find(int *uf, int x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

/* Steps 2-3: leaves, then levels by distance to them. */
/*
 * Levels from the admin's top switches (OpenSM's root_guid_file), for
 * shapes the end ports leave ambiguous: with an odd number of levels, a
 * top switch carrying hosts (storage, login) looks like a leaf. The
 * roots get level h, their neighbours h-1 and so on down; leaves are the
 * switches h-1 hops below. Returns h, or -1 (e set).
 */
static int levels_from_roots(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	int *depth = r->g->level, n, p, i, head = 0, tail = 0, d = 0;
	long below[2] = { 0, 0 };	/* end ports above / on the leaves */

	for (n = 0; n < f->num_nodes; n++)
		depth[n] = -1;
	for (i = 0; i < r->num_roots; i++) {
		n = ibu_fabric_find_guid(f, r->roots[i]);
		if (n < 0 || !is_sw(f, n))
			continue;	/* another subnet's, or gone: not ours */
		if (depth[n] < 0) {
			depth[n] = 0;
			r->queue[tail++] = n;
		}
	}
	if (!tail) {
		NOT_PGFT(e, "no switch of the fabric is a root in root_guid_file");
		return -1;
	}
	while (head < tail) {
		n = r->queue[head++];
		if (depth[n] > d)
			d = depth[n];
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;

			if (is_sw(f, q) && depth[q] < 0) {
				depth[q] = depth[n] + 1;
				r->queue[tail++] = q;
			}
		}
	}
	for (n = 0; n < f->num_nodes; n++) {
		r->g->level[n] = is_sw(f, n) ? d + 1 - depth[n] : 0;
		if (is_sw(f, n))
			below[r->g->level[n] == 1] += r->eps[n];
	}
	/* most end ports hang on the leaves: roots that put them above
	 * are no top switches (a tree upside down is no fat tree) */
	if (below[1] < below[0]) {
		NOT_PGFT(e, "the switches %d hops below the roots of root_guid_file hold %ld end ports, the switches above them %ld: the roots are not the top switches",
			 d, below[1], below[0]);
		return -1;
	}
	return d + 1;
}

/*
 * A leaf whose hosts are all missing (or not bought yet) has no end
 * port: the distance count puts it two levels up, where it looks like a
 * switch without parents. A switch above level 2 whose switch neighbours
 * are all on level 2, at least two of them and all in one pod (the
 * components of levels 1-2), is such a leaf: any switch above has at
 * most one child per pod, even one that lost cables. It goes back to
 * level 1. Returns the new height.
 */
static int empty_leaves(struct rec *r, int h)
{
	const struct ibu_fabric *f = r->f;
	int *lv = r->g->level, *uf = r->sib, n, p, q, moved = 0, top;

	/* pods: the components of levels 1 and 2 */
	for (n = 0; n < f->num_nodes; n++)
		uf[n] = n;
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; is_sw(f, n) && lv[n] == 1 && p <= f->nodes[n].num_ports; p++) {
			q = f->nodes[n].ports[p].peer_node;
			if (is_sw(f, q) && lv[q] == 2 && uf_find(uf, n) != uf_find(uf, q))
				uf[uf_find(uf, n)] = uf_find(uf, q);
		}
	for (n = 0; n < f->num_nodes; n++) {
		int pod = -1, one_pod = 1, only2 = 1, two = 0, first = -1;

		if (!is_sw(f, n) || lv[n] < 3 || r->eps[n])
			continue;
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			q = f->nodes[n].ports[p].peer_node;
			if (!is_sw(f, q))
				continue;
			only2 &= lv[q] == 2;
			if (first >= 0 && q != first)
				two = 1;
			first = q;
			if (pod >= 0 && uf_find(uf, q) != pod)
				one_pod = 0;
			pod = uf_find(uf, q);
		}
		if (only2 && two && one_pod) {
			lv[n] = -3;	/* marked: the pods stay as counted */
			moved++;
		}
	}
	if (!moved)
		return h;
	for (n = 0, top = 0; n < f->num_nodes; n++) {
		if (lv[n] == -3)
			lv[n] = 1;
		if (is_sw(f, n) && lv[n] > top)
			top = lv[n];
	}
	return top;
}

/*
 * A switch below the top that lost every cable to its children is
 * counted from the leaves through a top: it lands one level above the
 * tops, alone or nearly (most tops then have no parent). Such switches
 * go back two levels, under the tops. Returns the new height.
 */
static int childless(struct rec *r, int h)
{
	const struct ibu_fabric *f = r->f;
	int *lv = r->g->level, n, p, below = 0, with_parent = 0;

	if (h < 3)
		return h;
	for (n = 0; n < f->num_nodes; n++) {
		int up = 0;

		if (!is_sw(f, n) || lv[n] != h - 1)
			continue;
		below++;
		for (p = 1; p <= f->nodes[n].num_ports && !up; p++) {
			int q = f->nodes[n].ports[p].peer_node;

			up = is_sw(f, q) && lv[q] == h;
		}
		with_parent += up;
	}
	if (2 * with_parent > below)
		return h;
	for (n = 0; n < f->num_nodes; n++)
		if (is_sw(f, n) && lv[n] == h)
			lv[n] = h - 2;
	return h - 1;
}

static int levels(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	long per[2] = { 0, 0 };
	int n, p, leafc, head = 0, tail = 0, h = 0;

	if (r->roots) {
		h = levels_from_roots(r, e);
		if (h < 0)
			return IBU_ETOPO;
		goto check;
	}

	for (n = 0; n < f->num_nodes; n++)
		if (r->colour[n] >= 0)
			per[r->colour[n]] += r->eps[n];
	if (!per[0] && !per[1])
		return NOT_PGFT(e, "no end port");
	leafc = per[1] > per[0];
	for (n = 0; n < f->num_nodes; n++) {
		r->g->level[n] = is_sw(f, n) ? -1 : 0;
		if (r->colour[n] == leafc && r->eps[n]) {
			r->g->level[n] = 1;
			r->queue[tail++] = n;
		}
	}
	while (head < tail) {
		n = r->queue[head++];
		if (r->g->level[n] > h)
			h = r->g->level[n];
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;

			if (is_sw(f, q) && r->g->level[q] < 0) {
				r->g->level[q] = r->g->level[n] + 1;
				r->queue[tail++] = q;
			}
		}
	}
	r->h_dist = h;
	h = empty_leaves(r, h);
	h = childless(r, h);
check:
	if (h < 2 || h > IBU_PGFT_MAX_H)
		return NOT_PGFT(e, "%d switch levels (2..%d)", h, IBU_PGFT_MAX_H);
	r->g->P.h = h;
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; is_sw(f, n) && p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;
			int d = is_sw(f, q) ? r->g->level[q] - r->g->level[n] : 1;

			if (d != 1 && d != -1)
				return NOT_PGFT(e, "'%s' (level %d) and '%s' (level %d) are cabled: not adjacent levels",
						nm(r, n), r->g->level[n], nm(r, q),
						r->g->level[q]);
		}
	return IBU_OK;
}

/* Distinct switch peers of n at level lv; the most cables to one of them
 * in *cables, all of them in *total. Counts per peer in r->bcnt, valid
 * where r->bmark holds this call's stamp. */
static int bundles(struct rec *r, int n, int lv, int *cables, int *total)
{
	const struct ibu_fabric *f = r->f;
	int p, a, peers = 0, c = 0;

	*total = 0;
	r->bstamp++;
	for (p = 1; p <= f->nodes[n].num_ports; p++) {
		a = f->nodes[n].ports[p].peer_node;
		if (!is_sw(f, a) || r->g->level[a] != lv)
			continue;
		(*total)++;
		if (r->bmark[a] != r->bstamp) {
			r->bmark[a] = r->bstamp;
			r->bcnt[a] = 0;
			peers++;
		}
		if (++r->bcnt[a] > c)
			c = r->bcnt[a];
	}
	*cables = c;
	return peers;
}

/*
 * Step 4: h, m, w, p: what the level's switches have at most (a switch
 * with less has lost cables: faults, counted by up_lists()); the
 * switches each level lacks against the PGFT's size.
 */
static int params(struct rec *r, struct ibu_err *e)
{
	struct ibu_pgft *g = r->g;
	struct ibu_pgft_params *P = &g->P;
	const struct ibu_fabric *f = r->f;
	long count[IBU_PGFT_MAX_H + 1] = { 0 };
	int least[IBU_PGFT_MAX_H + 1], most[IBU_PGFT_MAX_H + 1];
	int n, l, up, down, cu, cd, cables, downc, who[IBU_PGFT_MAX_H + 1];

	P->w[1] = P->p[1] = 1;
	P->m[1] = 0;
	for (l = 2; l <= P->h; l++)
		P->m[l] = P->w[l] = P->p[l] = 0;
	for (l = 0; l <= P->h; l++) {
		least[l] = -1;
		most[l] = 0;
	}
	for (n = 0; n < f->num_nodes; n++) {
		if (!is_sw(f, n))
			continue;
		l = g->level[n];
		count[l]++;
		if (l == 1 && r->eps[n] > P->m[1])
			P->m[1] = r->eps[n];
		if (l < P->h) {
			up = bundles(r, n, l + 1, &cu, &cables);
			if (least[l] < 0 || cables < least[l]) {
				least[l] = cables;
				who[l] = n;
			}
			if (cables > most[l])
				most[l] = cables;
			if (up > P->w[l + 1])
				P->w[l + 1] = up;
			if (cu > P->p[l + 1])
				P->p[l + 1] = cu;
		}
		if (l > 1) {
			down = bundles(r, n, l - 1, &cd, &downc);
			if (down > P->m[l])
				P->m[l] = down;
		}
	}
	/* exact only: a switch with fewer up-cables than its peers fails
	 * here, before columns and slots are built for nothing */
	for (l = 1; !r->max_faults && l < P->h; l++)
		if (least[l] >= 0 && least[l] < most[l])
			return NOT_PGFT(e, "'%s' (level %d) has %d up-cables, its peers up to %d: missing cables (max_faults 0)",
					nm(r, who[l]), l, least[l], most[l]);
	/* a lone leaf or a level with one child per switch is no tree of
	 * sub-trees: another engine's fabric (two switches cabled twice) */
	if (count[1] < 2)
		return NOT_PGFT(e, "%ld leaf switch: a fat tree has at least two",
				count[1]);
	for (l = 2; l < P->h; l++)
		if (P->m[l] < 2)
			return NOT_PGFT(e, "level-%d switches have %d child: not a fat tree",
					l, P->m[l]);
	for (l = 1; l <= P->h; l++) {
		long want = ibu_pgft_level_size(P, l, 1L << 30);

		r->missing[l] = want - count[l];
		if (want < 0 || want < count[l]) {
			char txt[128];

			ibu_pgft_params_text(P, txt, sizeof(txt));
			return NOT_PGFT(e, "%s has %ld level-%d switches, the fabric %ld",
					txt, want, l, count[l]);
		}
	}
	return IBU_OK;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Siblings at level l (switches that share a parent: in a PGFT they
 * share all) into r->sib, and each sibling set's key: the least column
 * of any of their parents, so that a switch that lost its cable to that
 * parent keeps the rank of its siblings. key[node] is set for level l.
 */
static void sibling_keys(struct rec *r, int l, uint64_t *key)
{
	const struct ibu_fabric *f = r->f;
	const struct ibu_pgft *g = r->g;
	int n, p, first;

	for (n = 0; n < f->num_nodes; n++)
		if (is_sw(f, n) && g->level[n] == l)
			r->sib[n] = n;
	for (n = 0; n < f->num_nodes; n++) {
		if (!is_sw(f, n) || g->level[n] != l + 1)
			continue;
		first = -1;
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;
			int a, b;

			if (!is_sw(f, q) || g->level[q] != l)
				continue;
			if (first < 0) {
				first = q;
				continue;
			}
			a = uf_find(r->sib, first);
			b = uf_find(r->sib, q);
			if (a != b)
				r->sib[a] = b;
		}
	}
	for (n = 0; n < f->num_nodes; n++)
		if (is_sw(f, n) && g->level[n] == l)
			key[uf_find(r->sib, n)] = UINT64_MAX;
	for (n = 0; n < f->num_nodes; n++) {
		uint64_t *k;

		if (!is_sw(f, n) || g->level[n] != l)
			continue;
		k = &key[uf_find(r->sib, n)];
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;

			if (is_sw(f, q) && g->level[q] == l + 1 &&
			    (uint64_t)g->col[q] < *k)
				*k = (uint64_t)g->col[q];
		}
	}
	for (n = 0; n < f->num_nodes; n++)
		if (is_sw(f, n) && g->level[n] == l) {
			r->sib[n] = uf_find(r->sib, n);
			key[n] = key[r->sib[n]];
		}
}

/* 1 if switch n has a cable to a switch of column c on level lv. */
static int has_parent_col(const struct rec *r, int n, int lv, int c)
{
	const struct ibu_fabric *f = r->f;
	int p;

	for (p = 1; p <= f->nodes[n].num_ports; p++) {
		int q = f->nodes[n].ports[p].peer_node;

		if (is_sw(f, q) && r->g->level[q] == lv && r->g->col[q] == c)
			return 1;
	}
	return 0;
}

/* Parents of c on level lv other than x, each counted once. */
static int distinct_parents(struct rec *r, int c, int lv, int x)
{
	const struct ibu_fabric *f = r->f;
	int p, k = 0;

	r->bstamp++;
	for (p = 1; p <= f->nodes[c].num_ports; p++) {
		int q = f->nodes[c].ports[p].peer_node;

		if (is_sw(f, q) && r->g->level[q] == lv && q != x &&
		    r->bmark[q] != r->bstamp) {
			r->bmark[q] = r->bstamp;
			k++;
		}
	}
	return k;
}

/*
 * A switch x on level l < h with no parent left has no siblings to rank
 * it. Its children still tell its column: a child's other parents are
 * in all but one of the columns a full child of their rank has above it;
 * x's column is that one (found on any switch of level l-1 that has
 * every column of the child's other parents and one more).
 */
static void rank_parentless(struct rec *r, int x, int l)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	int p, n, q, c = -1, need;

	for (p = 1; p <= f->nodes[x].num_ports && c < 0; p++) {
		q = f->nodes[x].ports[p].peer_node;
		if (is_sw(f, q) && g->level[q] == l - 1)
			c = q;
	}
	if (c < 0)
		return;
	need = distinct_parents(r, c, l, x);
	for (n = 0; n < f->num_nodes; n++) {
		int extra = -1, other = 0, ok = 1;

		if (!is_sw(f, n) || g->level[n] != l - 1 || n == c)
			continue;
		r->bstamp++;
		for (p = 1; p <= f->nodes[n].num_ports && ok; p++) {
			q = f->nodes[n].ports[p].peer_node;
			if (!is_sw(f, q) || g->level[q] != l || q == x ||
			    r->bmark[q] == r->bstamp)
				continue;
			r->bmark[q] = r->bstamp;
			if (has_parent_col(r, c, l, g->col[q]))
				other++;
			else if (extra < 0)
				extra = g->col[q];
			else
				ok = 0;
		}
		/* n covers the child's other parents' columns, plus one */
		if (ok && extra >= 0 && other == need && need >= 1) {
			g->col[x] = extra;
			return;
		}
	}
}

/* Step 5: column ranks from the top down (tops by GUID, the others by
 * their siblings' key); rank = index of the key among the level's. */
static int columns(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	size_t N = (size_t)(f->num_nodes ? f->num_nodes : 1);
	uint64_t *key = malloc(N * sizeof(uint64_t));
	uint64_t *sorted = malloc(N * sizeof(uint64_t));
	int n, l, i, cnt, u;

	if (!key || !sorted) {
		free(key);
		free(sorted);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (l = g->P.h; l >= 1; l--) {
		if (l < g->P.h)
			sibling_keys(r, l, key);
		cnt = 0;
		for (n = 0; n < f->num_nodes; n++) {
			if (!is_sw(f, n) || g->level[n] != l)
				continue;
			if (l == g->P.h)
				key[n] = f->nodes[n].guid;
			sorted[cnt++] = key[n];
		}
		qsort(sorted, (size_t)cnt, sizeof(uint64_t), cmp_u64);
		for (i = u = 0; i < cnt; i++)
			if (!u || sorted[u - 1] != sorted[i])
				sorted[u++] = sorted[i];
		for (n = 0; n < f->num_nodes; n++) {
			uint64_t *hit;

			if (!is_sw(f, n) || g->level[n] != l)
				continue;
			hit = bsearch(&key[n], sorted, (size_t)u,
				      sizeof(uint64_t), cmp_u64);
			g->col[n] = (int)(hit - sorted);
		}
		for (n = 0; l < g->P.h && l > 1 && n < f->num_nodes; n++)
			if (is_sw(f, n) && g->level[n] == l && key[n] == UINT64_MAX)
				rank_parentless(r, n, l);
	}
	free(key);
	free(sorted);
	return IBU_OK;
}

struct upport {
	int col, port, peer;
};

static int cmp_upport(const void *a, const void *b)
{
	const struct upport *x = a, *y = b;

	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

static int add_fault(struct rec *r, const struct ibu_pgft_fault *x)
{
	struct ibu_pgft *g = r->g;

	if (g->num_fault_recs == r->fcap) {
		int nc = r->fcap ? 2 * r->fcap : 16;
		struct ibu_pgft_fault *nf = realloc(g->faults, (size_t)nc * sizeof(*nf));

		if (!nf)
			return IBU_ENOMEM;
		g->faults = nf;
		r->fcap = nc;
	}
	g->faults[g->num_fault_recs++] = *x;
	g->num_faults += x->count;
	return IBU_OK;
}

/* The parent of n in parent column c that n lost every cable to: the
 * one its siblings have there; -1 when the switch itself is missing. */
static int lost_parent(const struct rec *r, int n, int c)
{
	const struct ibu_fabric *f = r->f;
	const struct ibu_pgft *g = r->g;
	int x, p;

	for (x = 0; x < f->num_nodes; x++) {
		if (x == n || !is_sw(f, x) || g->level[x] != g->level[n] ||
		    r->sib[x] != r->sib[n])
			continue;
		for (p = 1; p <= f->nodes[x].num_ports; p++) {
			int q = f->nodes[x].ports[p].peer_node;

			if (is_sw(f, q) && g->level[q] == g->level[n] + 1 &&
			    g->col[q] == c)
				return q;
		}
	}
	/* every sibling lost it: a switch of that column left without a
	 * child (it lost them all), else it is missing */
	for (x = 0; x < f->num_nodes; x++) {
		int kids = 0;

		if (!is_sw(f, x) || g->level[x] != g->level[n] + 1 ||
		    g->col[x] != c)
			continue;
		for (p = 1; p <= f->nodes[x].num_ports && !kids; p++) {
			int q = f->nodes[x].ports[p].peer_node;

			kids = is_sw(f, q) && g->level[q] == g->level[n];
		}
		if (!kids)
			return x;
	}
	return -1;
}

/* Parent columns of each column rank at level l (ascending, distinct):
 * the slots every switch of that rank orders its up-ports by. */
struct rank_lists {
	int *start, *len;	/* [rank] into pcol */
	int *pcol;
};

static int cmp_pair(const void *a, const void *b)
{
	const int *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

static int rank_lists(struct rec *r, int l, struct rank_lists *rl)
{
	const struct ibu_fabric *f = r->f;
	const struct ibu_pgft *g = r->g;
	int n, p, k = 0, u = 0, i, ranks = 1;
	int *pair;

	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; is_sw(f, n) && g->level[n] == l &&
		     p <= f->nodes[n].num_ports; p++)
			k++;
	pair = malloc((size_t)(k ? k : 1) * 2 * sizeof(int));
	if (!pair)
		return IBU_ENOMEM;
	k = 0;
	for (n = 0; n < f->num_nodes; n++) {
		if (!is_sw(f, n) || g->level[n] != l)
			continue;
		if (g->col[n] + 1 > ranks)
			ranks = g->col[n] + 1;
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;

			if (is_sw(f, q) && g->level[q] == l + 1) {
				pair[2 * k] = g->col[n];
				pair[2 * k++ + 1] = g->col[q];
			}
		}
	}
	qsort(pair, (size_t)k, 2 * sizeof(int), cmp_pair);
	rl->start = calloc((size_t)ranks, sizeof(int));
	rl->len = calloc((size_t)ranks, sizeof(int));
	rl->pcol = malloc((size_t)(k ? k : 1) * sizeof(int));
	if (!rl->start || !rl->len || !rl->pcol) {
		free(pair);
		return IBU_ENOMEM;
	}
	for (i = 0; i < k; i++) {
		if (i && pair[2 * i] == pair[2 * i - 2] &&
		    pair[2 * i + 1] == pair[2 * i - 1])
			continue;
		if (!rl->len[pair[2 * i]])
			rl->start[pair[2 * i]] = u;
		rl->len[pair[2 * i]]++;
		rl->pcol[u++] = pair[2 * i + 1];
	}
	free(pair);
	return IBU_OK;
}

static void rank_lists_free(struct rank_lists *rl)
{
	free(rl->start);
	free(rl->len);
	free(rl->pcol);
}

/* n's cables to parent column pc (tmp[*i..], sorted) into its p slots
 * from out; a bundle short of p is a fault. */
static int fill_slots(struct rec *r, int n, int pc, const struct upport *tmp,
		      int k, int *i, int *out, struct ibu_err *e)
{
	const struct ibu_pgft *g = r->g;
	int P = g->P.p[g->level[n] + 1], c = 0, q = -1;

	for (; *i < k && tmp[*i].col == pc; (*i)++, c++) {
		if (c >= P || (q >= 0 && tmp[*i].peer != q))
			return NOT_PGFT(e, "'%s' (level %d) has two parents in one column, or more cables to one than its peers",
					nm(r, n), g->level[n]);
		q = tmp[*i].peer;
		out[c] = tmp[*i].port;
	}
	if (c < P) {
		struct ibu_pgft_fault x = { .kind = IBU_PGFT_MISSING_CABLES,
					    .level = g->level[n], .lower = n,
					    .have = c, .want = P };

		x.upper = q >= 0 ? q : lost_parent(r, n, pc);
		x.count = P - c;
		if (x.upper >= 0 && add_fault(r, &x))
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	return IBU_OK;
}

/* A switch below the top without a cable to any parent: its siblings
 * (and so its parents' columns) are unknown, every up-cable is a fault. */
static int lost_all_parents(struct rec *r, int n, int U, struct ibu_err *e)
{
	struct ibu_pgft_fault x = { .kind = IBU_PGFT_MISSING_CABLES,
				    .level = r->g->level[n], .lower = n,
				    .upper = -1, .have = 0, .want = U,
				    .count = U };

	return add_fault(r, &x) ? ibu_err_set(e, IBU_ENOMEM, "out of memory") :
				  IBU_OK;
}

/* Step 5 (end): the U_l up-port slots of every switch: its rank's parent
 * columns in order, p cables each by port; 0 where a cable is missing. */
static int up_lists(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	struct upport tmp[IBU_MAX_PORTS + 1];
	int n, p, k, l, i, j, rc = IBU_OK;

	for (l = 1; l < g->P.h && !rc; l++) {
		struct rank_lists rl = { 0 };
		int W = g->P.w[l + 1], U = W * g->P.p[l + 1];

		if (rank_lists(r, l, &rl)) {
			rank_lists_free(&rl);
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		}
		for (n = 0; n < f->num_nodes && !rc; n++) {
			if (!is_sw(f, n) || g->level[n] != l)
				continue;
			if (rl.len[g->col[n]] > W) {
				rc = NOT_PGFT(e, "the switches of level %d that rank with '%s' have %d parent columns, each switch at most %d",
					      l, nm(r, n), rl.len[g->col[n]], W);
				break;
			}
			k = 0;
			for (p = 1; p <= f->nodes[n].num_ports; p++) {
				int q = f->nodes[n].ports[p].peer_node;

				if (is_sw(f, q) && g->level[q] == l + 1) {
					tmp[k].col = g->col[q];
					tmp[k].peer = q;
					tmp[k++].port = p;
				}
			}
			qsort(tmp, (size_t)k, sizeof(tmp[0]), cmp_upport);
			g->up[n] = calloc((size_t)(U ? U : 1), sizeof(int));
			if (!g->up[n]) {
				rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
				break;
			}
			if (!k)
				rc = lost_all_parents(r, n, U, e);
			for (i = j = 0; j < rl.len[g->col[n]] && !rc; j++)
				rc = fill_slots(r, n, rl.pcol[rl.start[g->col[n]] + j],
						tmp, k, &i, &g->up[n][j * g->P.p[l + 1]], e);
		}
		rank_lists_free(&rl);
	}
	return rc;
}

/* Up-slots without a cable on level l. */
static long lost_slots(const struct rec *r, int l)
{
	const struct ibu_pgft *g = r->g;
	long z = 0;
	int n, k;

	for (n = 0; n < r->f->num_nodes; n++)
		for (k = 0; g->up[n] && g->level[n] == l &&
		     k < ibu_pgft_up_ports(&g->P, l); k++)
			z += !g->up[n][k];
	return z;
}

/* Missing cables the records of level l name. */
static long recorded(const struct ibu_pgft *g, int l)
{
	long c = 0;
	int i;

	for (i = 0; i < g->num_fault_recs; i++)
		if (g->faults[i].kind == IBU_PGFT_MISSING_CABLES &&
		    g->faults[i].level == l)
			c += g->faults[i].count;
	return c;
}

/* Missing switches per level, then the limit (e set when beyond it). */
static int count_faults(struct rec *r, struct ibu_err *e)
{
	struct ibu_pgft *g = r->g;
	char txt[128];
	int l;

	for (l = 1; l <= g->P.h; l++) {
		struct ibu_pgft_fault x = { .kind = IBU_PGFT_MISSING_SWITCHES,
					    .level = l, .lower = -1, .upper = -1 };

		x.count = (int)r->missing[l];
		if (x.count && add_fault(r, &x))
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (l = 1; l < g->P.h; l++) {
		struct ibu_pgft_fault x = { .kind = IBU_PGFT_MISSING_CABLES,
					    .level = l, .lower = -1, .upper = -1 };

		x.count = (int)(lost_slots(r, l) - recorded(g, l) -
				r->missing[l + 1] * g->P.m[l + 1] * g->P.p[l + 1]);
		/* lost up-cables no record names (their parent unknown):
		 * counted, so a lost up-slot never passes for exact */
		if (x.count > 0 && add_fault(r, &x))
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	g->max_faults = ibu_fault_limit(r->max_faults,
					ibu_pgft_default_max_faults(&g->P));
	if (g->num_faults <= g->max_faults)
		return IBU_OK;
	ibu_pgft_params_text(&g->P, txt, sizeof(txt));
	if (g->num_fault_recs && !g->max_faults) {
		char what[256];

		ibu_pgft_fault_text(r->f, g, 0, what, sizeof(what));
		return NOT_PGFT(e, "%s with %s (its peers have it; max_faults 0)",
				txt, what);
	}
	return NOT_PGFT(e, "%s with %d missing cables and switches, more than the limit of %d faults (max_faults)",
			txt, g->num_faults, g->max_faults);
}

struct hostkey {
	uint64_t key[IBU_PGFT_MAX_H + 1];	/* sub-trees top down, leaf, port */
	struct ibu_pgft_host h;
};

/* Leaf part of a host key: its sub-trees top down and its GUID. */
struct leafkey {
	uint64_t key[IBU_PGFT_MAX_H + 1];
	int leaf;
};

static int cmp_leafkey(const void *a, const void *b)
{
	const struct leafkey *x = a, *y = b;
	int i;

	for (i = 0; i <= IBU_PGFT_MAX_H; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return (x->leaf > y->leaf) - (x->leaf < y->leaf);
}

/* A host for sorting: its leaf's rank among the leaf keys, port GUID,
 * arrival (equal keys keep it). */
struct hostrank {
	int rank, seq;
	uint64_t guid;
};

static int cmp_hostrank(const void *a, const void *b)
{
	const struct hostrank *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* sub[l][node]: least node GUID of the level-<=l sub-tree holding node */
static int subtrees(struct rec *r, uint64_t **sub, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	int *uf = malloc((size_t)f->num_nodes * sizeof(int));
	int n, p, l, a, b;

	if (!uf)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (n = 0; n < f->num_nodes; n++)
		uf[n] = n;
	for (l = 2; l < g->P.h; l++) {
		for (n = 0; n < f->num_nodes; n++)
			for (p = 1; is_sw(f, n) && g->level[n] == l &&
			     p <= f->nodes[n].num_ports; p++) {
				int q = f->nodes[n].ports[p].peer_node;

				if (!is_sw(f, q) || g->level[q] != l - 1)
					continue;
				a = uf_find(uf, n);
				b = uf_find(uf, q);
				if (a != b)
					uf[a] = b;
			}
		for (n = 0; n < f->num_nodes; n++)
			sub[l][n] = UINT64_MAX;
		for (n = 0; n < f->num_nodes; n++) {
			a = uf_find(uf, n);
			if (is_sw(f, n) && g->level[n] >= 1 && g->level[n] <= l &&
			    f->nodes[n].guid < sub[l][a])
				sub[l][a] = f->nodes[n].guid;
		}
		for (n = 0; n < f->num_nodes; n++)
			sub[l][n] = sub[l][uf_find(uf, n)];
	}
	free(uf);
	return IBU_OK;
}

static int host_keys(struct rec *r, struct hostkey *hk, uint64_t **sub)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	int n, p, l, k = 0;

	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int leaf = f->nodes[n].ports[p].peer_node;

			if (!is_ep(f, n, p) || g->level[leaf] != 1)
				continue;
			memset(&hk[k], 0, sizeof(hk[k]));
			for (l = g->P.h - 1; l >= 2; l--)
				hk[k].key[g->P.h - 1 - l] = sub[l][leaf];
			hk[k].key[g->P.h - 2] = f->nodes[leaf].guid;
			hk[k].key[g->P.h - 1] = f->nodes[n].ports[p].guid;
			hk[k].h.node = n;
			hk[k].h.port = p;
			hk[k++].h.leaf = leaf;
		}
	return k;
}

/*
 * hk[0..k-1] in key order (sub-trees top down, leaf GUID, port GUID;
 * equal keys in arrival order): the leaves' keys sorted once, then the
 * hosts by (leaf rank, port GUID), small records rather than whole keys.
 */
static int sort_hosts(struct rec *r, struct hostkey *hk, int k,
		      struct ibu_err *e)
{
	int h = r->g->P.h, i, j, nl = 0, rc = IBU_OK;
	struct leafkey *lk = malloc((size_t)(k ? k : 1) * sizeof(*lk));
	struct hostrank *hr = malloc((size_t)(k ? k : 1) * sizeof(*hr));
	struct hostkey *out = malloc((size_t)(k ? k : 1) * sizeof(*out));
	int *slot = r->bcnt;	/* [leaf]: its rank, valid under bmark */

	if (!lk || !hr || !out) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto done;
	}
	r->bstamp++;
	for (i = 0; i < k; i++)
		if (r->bmark[hk[i].h.leaf] != r->bstamp) {
			r->bmark[hk[i].h.leaf] = r->bstamp;
			memset(&lk[nl], 0, sizeof(lk[nl]));
			memcpy(lk[nl].key, hk[i].key, (size_t)(h - 1) * sizeof(uint64_t));
			lk[nl++].leaf = hk[i].h.leaf;
		}
	qsort(lk, (size_t)nl, sizeof(*lk), cmp_leafkey);
	for (i = 0; i < nl; i++)
		slot[lk[i].leaf] = i && !memcmp(lk[i].key, lk[i - 1].key, sizeof(lk[i].key)) ?
			slot[lk[i - 1].leaf] : i;
	for (i = 0; i < k; i++) {
		hr[i].rank = slot[hk[i].h.leaf];
		hr[i].seq = i;
		hr[i].guid = hk[i].key[h - 1];
	}
	qsort(hr, (size_t)k, sizeof(*hr), cmp_hostrank);
	for (j = 0; j < k; j++)
		out[j] = hk[hr[j].seq];
	memcpy(hk, out, (size_t)k * sizeof(*hk));
done:
	free(lk);
	free(hr);
	free(out);
	return rc;
}

/* Step 6: compute hosts in sub-tree order; hosts above the leaves. */
static int hosts(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	uint64_t *sub[IBU_PGFT_MAX_H + 1] = { NULL };
	struct hostkey *hk = NULL;
	long total = 0;
	int n, p, l, k, rc = IBU_OK;

	for (n = 0; n < f->num_nodes; n++) {
		g->host_base[n] = (int)total;
		total += f->nodes[n].num_ports + 1;
	}
	g->host_of_port = malloc((size_t)total * sizeof(int));
	hk = malloc((size_t)total * sizeof(*hk));	/* total >= end ports */
	for (l = 2; l < g->P.h; l++)
		sub[l] = malloc((size_t)f->num_nodes * sizeof(uint64_t));
	for (l = 2; l < g->P.h; l++)
		if (!sub[l])
			rc = IBU_ENOMEM;
	if (rc || !g->host_of_port || !hk) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < total; k++)
		g->host_of_port[k] = -2;
	rc = subtrees(r, sub, e);
	if (rc)
		goto out;
	k = host_keys(r, hk, sub);
	rc = sort_hosts(r, hk, k, e);
	if (rc)
		goto out;
	g->host = malloc((size_t)(k ? k : 1) * sizeof(*g->host));
	g->spine_host = malloc((size_t)total * sizeof(*g->spine_host));
	if (!g->host || !g->spine_host) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	g->host_sub = malloc((size_t)(k ? k : 1) * (size_t)(g->P.h + 1) *
			     sizeof(uint64_t));
	if (!g->host_sub) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	for (n = 0; n < k; n++)
		for (l = 0; l <= g->P.h; l++)
			g->host_sub[n * (g->P.h + 1) + l] =
				l == 1 ? (uint64_t)hk[n].h.leaf :
				l > 1 && l < g->P.h ? sub[l][hk[n].h.leaf] : 0;
	for (g->num_hosts = 0; g->num_hosts < k; g->num_hosts++) {
		g->host[g->num_hosts] = hk[g->num_hosts].h;
		g->host_of_port[g->host_base[hk[g->num_hosts].h.node] +
				hk[g->num_hosts].h.port] = g->num_hosts;
	}
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int s = f->nodes[n].ports[p].peer_node;

			if (!is_ep(f, n, p) || g->level[s] == 1)
				continue;
			g->spine_host[g->num_spine_hosts].node = n;
			g->spine_host[g->num_spine_hosts].port = p;
			g->spine_host[g->num_spine_hosts++].leaf = s;
			g->host_of_port[g->host_base[n] + p] = -1;
		}
out:
	for (l = 2; l < g->P.h; l++)
		free(sub[l]);
	free(hk);
	return rc;
}

void ibu_pgft_free(struct ibu_pgft *g)
{
	int n;

	if (g->up)
		for (n = 0; n < g->num_nodes; n++)
			free(g->up[n]);
	free(g->up);
	free(g->level);
	free(g->col);
	free(g->host);
	free(g->host_sub);
	free(g->spine_host);
	free(g->host_base);
	free(g->host_of_port);
	free(g->faults);
	memset(g, 0, sizeof(*g));
}

/* e's message, and what the admin can do about it */
static void hint_roots(struct ibu_err *e)
{
	size_t len = strlen(e->msg);

	snprintf(e->msg + len, sizeof(e->msg) - len, "%s",
		 " (hosts on the top switches? name those in OpenSM's root_guid_file)");
}

int ibu_pgft_recognize(const struct ibu_fabric *f, struct ibu_pgft *g,
		       struct ibu_err *e)
{
	return ibu_pgft_recognize_limit(f, g, NULL, 0, 0, e);
}

int ibu_pgft_recognize_roots(const struct ibu_fabric *f, struct ibu_pgft *g,
			     const uint64_t *roots, int num_roots,
			     struct ibu_err *e)
{
	return ibu_pgft_recognize_limit(f, g, roots, num_roots, 0, e);
}

int ibu_pgft_default_max_faults(const struct ibu_pgft_params *P)
{
	long cables = 0, lim;
	int l;

	for (l = 1; l < P->h; l++) {
		long n = ibu_pgft_level_size(P, l, 1L << 30);

		if (n > 0)
			cables += n * P->w[l + 1] * P->p[l + 1];
	}
	lim = cables / 10;
	return lim < 1 ? 1 : lim > 1000000 ? 1000000 : (int)lim;
}

int ibu_pgft_recognize_limit(const struct ibu_fabric *f, struct ibu_pgft *g,
			     const uint64_t *roots, int num_roots,
			     int max_faults, struct ibu_err *e)
{
	struct rec r = { .f = f, .g = g, .roots = roots,
			 .num_roots = num_roots, .max_faults = max_faults };
	int N = f->num_nodes ? f->num_nodes : 1, rc;

	memset(g, 0, sizeof(*g));
	g->num_nodes = f->num_nodes;
	g->level = malloc((size_t)N * sizeof(int));
	g->col = malloc((size_t)N * sizeof(int));
	g->up = calloc((size_t)N, sizeof(int *));
	g->host_base = malloc((size_t)N * sizeof(int));
	r.colour = malloc((size_t)N * sizeof(int));
	r.eps = calloc((size_t)N, sizeof(int));
	r.queue = malloc((size_t)N * sizeof(int));
	r.bmark = calloc((size_t)N, sizeof(int));
	r.bcnt = calloc((size_t)N, sizeof(int));
	r.sib = malloc((size_t)N * sizeof(int));
	if (!g->level || !g->col || !g->up || !g->host_base || !r.colour ||
	    !r.eps || !r.queue || !r.bmark || !r.bcnt || !r.sib)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	else
		rc = colour(&r, e);
	if (!rc)
		rc = levels(&r, e);
	if (!rc)
		rc = params(&r, e);
	if (!rc)
		rc = columns(&r, e);
	if (!rc)
		rc = up_lists(&r, e);
	if (!rc)
		rc = count_faults(&r, e);
	/* with an odd number of levels, tops carrying hosts look like
	 * leaves: only the admin can tell them apart */
	if (rc == IBU_ETOPO && !roots && ((g->P.h % 2 && g->P.h > 2) ||
					  (r.h_dist % 2 && r.h_dist > 2)))
		hint_roots(e);
	if (!rc)
		rc = hosts(&r, e);
	free(r.colour);
	free(r.eps);
	free(r.queue);
	free(r.bmark);
	free(r.bcnt);
	free(r.sib);
	if (rc)
		ibu_pgft_free(g);
	return rc;
}

void ibu_pgft_fault_text(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 int i, char *buf, size_t len)
{
	const struct ibu_pgft_fault *x = &g->faults[i];

	if (x->kind == IBU_PGFT_MISSING_SWITCHES) {
		snprintf(buf, len, "%d missing level-%d switch%s (of %ld)",
			 x->count, x->level, x->count > 1 ? "es" : "",
			 ibu_pgft_level_size(&g->P, x->level, 1L << 30));
		return;
	}
	if (x->lower < 0) {
		snprintf(buf, len, "%d more missing cable%s between levels %d and %d (their switches not told apart)",
			 x->count, x->count > 1 ? "s" : "", x->level, x->level + 1);
		return;
	}
	if (x->upper < 0) {
		snprintf(buf, len, "missing cables '%s' (level %d) - every parent: 0 of %d",
			 f->nodes[x->lower].name ? f->nodes[x->lower].name : "?",
			 x->level, x->want);
		return;
	}
	snprintf(buf, len, "missing cable%s '%s' (level %d) - parent '%s': %d of %d",
		 x->count > 1 ? "s" : "", f->nodes[x->lower].name ?
		 f->nodes[x->lower].name : "?", x->level,
		 f->nodes[x->upper].name ? f->nodes[x->upper].name : "?",
		 x->have, x->want);
}

int ibu_pgft_host(const struct ibu_pgft *g, int node, int port)
{
	if (node < 0 || node >= g->num_nodes)
		return -2;
	return g->host_of_port[g->host_base[node] + port];
}

void ibu_pgft_describe(const struct ibu_pgft *g, char *buf, size_t len)
{
	char txt[128];

	ibu_pgft_params_text(&g->P, txt, sizeof(txt));
	if (g->num_spine_hosts)
		snprintf(buf, len, "%s: %d switches, %d end ports (%d above the leaves)",
			 txt, g->num_switches, g->num_hosts + g->num_spine_hosts,
			 g->num_spine_hosts);
	else
		snprintf(buf, len, "%s: %d switches, %d end ports", txt,
			 g->num_switches, g->num_hosts);
}
