/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* PGFT recognition from the link graph (see pgft.h). Exact and degraded
 * are one path: the shape is what a level's switches have at most, and
 * what a switch lacks against it is a fault, refused beyond max_faults. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_options.h"
#include "pgft.h"

#define NOT_PGFT(e, ...) ibu_err_set(e, IBU_ETOPO, "not a PGFT: " __VA_ARGS__)
#define NOMEM(e) ibu_err_set(e, IBU_ENOMEM, "out of memory")

struct rec {
	const struct ibu_fabric *f;
	struct ibu_pgft *g;
	const uint64_t *roots;	/* node GUIDs of the top switches, or NULL */
	int num_roots;
	int *colour;		/* [node] parity: switches' colour, -1 else */
	int *eps;		/* [node] end ports cabled to a switch */
	int *queue;
	int *bmark;		/* [node] bundles(): stamp, cables */
	int *bcnt;
	int bstamp;
	int max_faults;		/* IBU_MAX_FAULTS_DEFAULT: the shape's */
	int h_dist;		/* levels by distance alone (the roots hint) */
	long missing[IBU_PGFT_MAX_H + 1];	/* switches per level */
	long lost[IBU_PGFT_MAX_H + 1];	/* up-slots without a cable */
	long named[IBU_PGFT_MAX_H + 1];	/* missing cables records name */
	long orphan[IBU_PGFT_MAX_H + 1];	/* of those, of parentless ones */
	int *sib;		/* [node] siblings' root: share a parent */
	int fcap;		/* g->faults allocated */
	struct ibu_err misfit;	/* sizes(): the shape refused before m was
				 * taken from the sub-trees (code 0: was not) */
	int childless;		/* 1: childless() moves its switches down
				 * even where most tops have a parent; 2:
				 * never; 0: as the count says, and sets it
				 * to -1 where it did not, -2 where it did */
};

/* an end port: a non-switch port cabled to a switch */
static int is_ep(const struct ibu_fabric *f, int n, int p)
{
	int peer = f->nodes[n].ports[p].peer_node;

	return !ibu_node_is_switch(&f->nodes[n]) && ibu_is_sw(f, peer);
}

static int on_level(const struct rec *r, int n, int l)
{
	return ibu_is_sw(r->f, n) && r->g->level[n] == l;
}

/* The peer of n's port p when it is a switch on level lv, else -1. */
static int peer_on(const struct rec *r, int n, int p, int lv)
{
	int q = r->f->nodes[n].ports[p].peer_node;

	return on_level(r, q, lv) ? q : -1;
}

static void up_to(int *a, int b)
{
	if (b > *a)
		*a = b;
}

/* uf: the components of the switches up to level k (its sub-trees of
 * height k, leaves and pods among them). */
static void union_below(const struct rec *r, int k, int *uf)
{
	const struct ibu_fabric *f = r->f;
	int n, p, q;

	for (n = 0; n < f->num_nodes; n++)
		uf[n] = n;
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; ibu_is_sw(f, n) && r->g->level[n] <= k &&
			    p <= f->nodes[n].num_ports; p++) {
			q = f->nodes[n].ports[p].peer_node;
			if (ibu_is_sw(f, q) && r->g->level[q] <= k)
				ibu__uf_union(uf, n, q);
		}
}

/* Breadth-first from queue[0..tail-1] over the switches with d < 0, each
 * one more than its neighbour; the largest d in *top. Returns the
 * switches reached (queue[] in order). */
static int bfs(struct rec *r, int *d, int tail, int *top)
{
	const struct ibu_fabric *f = r->f;
	int n, p, head = 0;

	for (*top = 0; head < tail; ) {
		n = r->queue[head++];
		up_to(top, d[n]);
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			int q = f->nodes[n].ports[p].peer_node;

			if (ibu_is_sw(f, q) && d[q] < 0) {
				d[q] = d[n] + 1;
				r->queue[tail++] = q;
			}
		}
	}
	return tail;
}

/* Steps 1-2: 2-colour the switch graph (colour: the distance from any
 * switch, its parity the colour), in BFS order; connected. */
static int colour(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	int *c = r->colour, n, p, q, i, seen, start = -1;

	for (n = 0; n < f->num_nodes; n++) {
		c[n] = -1;
		if (ibu_is_sw(f, n) && start < 0)
			start = n;
		r->g->num_switches += ibu_is_sw(f, n);
		for (p = 1; !ibu_is_sw(f, n) && p <= f->nodes[n].num_ports; p++)
			if (is_ep(f, n, p))
				r->eps[f->nodes[n].ports[p].peer_node]++;
	}
	if (start < 0)
		return NOT_PGFT(e, "no switch");
	c[start] = 0;
	r->queue[0] = start;
	seen = bfs(r, c, 1, &i);
	for (i = 0; i < seen; i++)
		for (n = r->queue[i], p = 1; p <= f->nodes[n].num_ports; p++) {
			q = f->nodes[n].ports[p].peer_node;
			if (q == n)
				return NOT_PGFT(e, "switch '%s' is cabled to itself", ibu_node_name(f, n));
			if (ibu_is_sw(f, q) && c[q] % 2 == c[n] % 2)
				return NOT_PGFT(e, "switches '%s' and '%s' are cabled but cannot be on adjacent levels (odd cycle)",
						ibu_node_name(f, n),
						ibu_node_name(f, q));
		}
	if (seen != r->g->num_switches)
		return NOT_PGFT(e, "the switches form more than one connected fabric (%d of the %d connected to '%s'; OpenSM routes only the part its own port is on, and a dump of the tables it set tells which)",
				seen, r->g->num_switches,
				ibu_node_name(f, start));
	return IBU_OK;
}

/* Distinct switch peers of n at level lv; the most cables to one of them
 * in *cables, all of them in *total. Counts per peer in r->bcnt, valid
 * where r->bmark holds this call's stamp. */
static int bundles(struct rec *r, int n, int lv, int *cables, int *total)
{
	int p, a, peers = 0;

	*total = *cables = 0;
	r->bstamp++;
	for (p = 1; p <= r->f->nodes[n].num_ports; p++) {
		if ((a = peer_on(r, n, p, lv)) < 0)
			continue;
		(*total)++;
		if (r->bmark[a] != r->bstamp) {
			r->bmark[a] = r->bstamp;
			r->bcnt[a] = 0;
			peers++;
		}
		up_to(cables, ++r->bcnt[a]);
	}
	return peers;
}

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
	int *depth = r->g->level, n, i, tail = 0, d;
	long below[2] = { 0, 0 };	/* end ports above / on the leaves */

	for (n = 0; n < f->num_nodes; n++)
		depth[n] = -1;
	for (i = 0; i < r->num_roots; i++) {
		n = ibu_fabric_find_guid(f, r->roots[i]);
		/* not a switch here: another subnet's, or gone */
		if (ibu_is_sw(f, n) && depth[n] < 0) {
			depth[n] = 0;
			r->queue[tail++] = n;
		}
	}
	if (!tail)
		return NOT_PGFT(e, "no switch of the fabric is a root in root_guid_file"), -1;
	bfs(r, depth, tail, &d);
	for (n = 0; n < f->num_nodes; n++) {
		/* the level */
		depth[n] = ibu_is_sw(f, n) ? d + 1 - depth[n] : 0;
		below[depth[n] == 1] += r->eps[n];	/* 0 off switches */
	}
	/* most end ports hang on the leaves: roots that put them above
	 * are no top switches (a tree upside down is no fat tree) */
	if (below[1] < below[0])
		return NOT_PGFT(e, "the switches %d hops below the roots of root_guid_file hold %ld end ports, the switches above them %ld: the roots are not the top switches",
				d, below[1], below[0]), -1;
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
	int *lv = r->g->level, *uf = r->sib, n, p, q, moved = 0, top = 0;

	union_below(r, 2, uf);
	for (n = 0; n < f->num_nodes; n++) {
		int pod = -1, one_pod = 1, only2 = 1, two = 0, first = -1;

		if (!ibu_is_sw(f, n) || lv[n] < 3 || r->eps[n])
			continue;
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			q = f->nodes[n].ports[p].peer_node;
			if (!ibu_is_sw(f, q))
				continue;
			only2 &= lv[q] == 2;
			two |= first >= 0 && q != first;
			first = q;
			one_pod &= pod < 0 || ibu__uf_find(uf, q) == pod;
			pod = ibu__uf_find(uf, q);
		}
		/* moved at once: level 1 is not 2 either for the next ones */
		if (only2 && two && one_pod) {
			lv[n] = 1;
			moved++;
		}
	}
	for (n = 0; moved && n < f->num_nodes; n++)
		if (ibu_is_sw(f, n))
			up_to(&top, lv[n]);
	return moved ? top : h;
}

/*
 * A switch below the top that lost every cable to its children is
 * counted from the leaves through a top: it lands one level above the
 * tops, alone or nearly (most tops then have no parent). Such switches
 * go back two levels, under the tops. Returns the new height. (On a
 * small tree that also lost a top, most tops may have that parent: the
 * shape is then tried both ways, r->childless.)
 */
static int childless(struct rec *r, int h)
{
	int n, a, b, below = 0, with_parent = 0;

	if (h < 3 || r->childless == 2)
		return h;
	for (n = 0; n < r->f->num_nodes; n++)
		if (on_level(r, n, h - 1)) {
			below++;
			with_parent += bundles(r, n, h, &a, &b) > 0;
		}
	if (2 * with_parent > below && r->childless < 1) {
		r->childless = -1;
		return h;
	}
	if (!r->childless)
		r->childless = -2;
	for (n = 0; n < r->f->num_nodes; n++)
		if (on_level(r, n, h))
			r->g->level[n] = h - 2;
	return h - 1;
}

/* Steps 2-3: leaves (the colour with most end ports), then levels by
 * distance to them. Returns h, or -1 (e set). */
static int levels_from_leaves(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	long per[2] = { 0, 0 };
	int n, leafc, tail = 0;

	for (n = 0; n < f->num_nodes; n++)
		if (r->colour[n] >= 0)
			per[r->colour[n] % 2] += r->eps[n];
	if (!per[0] && !per[1])
		return NOT_PGFT(e, "no end port"), -1;
	leafc = per[1] > per[0];
	for (n = 0; n < f->num_nodes; n++) {
		r->g->level[n] = ibu_is_sw(f, n) ? -1 : 0;
		if (r->colour[n] % 2 == leafc && r->eps[n]) {
			r->g->level[n] = 1;
			r->queue[tail++] = n;
		}
	}
	bfs(r, r->g->level, tail, &r->h_dist);
	return childless(r, empty_leaves(r, r->h_dist));
}

static int levels(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	int *lv = r->g->level, n, p, h;

	h = r->roots ? levels_from_roots(r, e) : levels_from_leaves(r, e);
	if (h < 0)
		return IBU_ETOPO;
	if (h < 1 || h > IBU_PGFT_MAX_H)
		return NOT_PGFT(e, "%d switch levels (1..%d)", h, IBU_PGFT_MAX_H);
	r->g->P.h = h;
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; ibu_is_sw(f, n) && p <= f->nodes[n].num_ports;
		     p++) {
			int q = f->nodes[n].ports[p].peer_node;
			int d = ibu_is_sw(f, q) ? lv[q] - lv[n] : 1;

			if (d != 1 && d != -1)
				return NOT_PGFT(e, "'%s' (level %d) and '%s' (level %d) are cabled: not adjacent levels",
						ibu_node_name(f, n), lv[n],
						ibu_node_name(f, q), lv[q]);
		}
	return IBU_OK;
}

/* r->missing[] from the shape; an error when a level has too many. */
static int fit(struct rec *r, const long *count, struct ibu_err *e)
{
	const struct ibu_pgft_params *P = &r->g->P;
	int l;

	for (l = 1; l <= P->h; l++) {
		long want = ibu_pgft_level_size(P, l, 1L << 30);

		r->missing[l] = want - count[l];
		if (want < 0 || want < count[l]) {
			char txt[128];

			if (!e)
				return IBU_ETOPO;
			ibu_pgft_params_text(P, txt, sizeof(txt));
			return NOT_PGFT(e, "%s has %ld level-%d switches, the fabric %ld",
					txt, want, l, count[l]);
		}
	}
	return IBU_OK;
}

/* Sub-trees of height k that hold a leaf (uf: scratch, one per node). */
static long num_subtrees(struct rec *r, int k, int *uf)
{
	int n, q;
	long num = 0;

	union_below(r, k, uf);
	r->bstamp++;
	for (n = 0; n < r->f->num_nodes; n++)
		if (on_level(r, n, 1) && r->bmark[q = ibu__uf_find(uf, n)] != r->bstamp) {
			r->bmark[q] = r->bstamp;
			num++;
		}
	return num;
}

/*
 * Each level's size against the shape; what is short is missing. The
 * shape's m comes from the switches' most children: where every switch
 * of a level lost one (each of a small tree's tops a cable), it is one
 * short and the level below looks too big. Then m is the sub-trees
 * below a sub-tree, counted from the graph (num_subtrees()); the first
 * error stands when that does not fit either, or needs more faults than
 * the limit (count_faults(): a mesh is no fat tree with 8 faults).
 */
static int sizes(struct rec *r, const long *count, struct ibu_err *e)
{
	struct ibu_pgft_params *P = &r->g->P;
	int l, rc = fit(r, count, e), *uf;
	long below, here;

	if (rc != IBU_ETOPO || !r->max_faults)
		return rc;
	uf = malloc((size_t)r->f->num_nodes * sizeof(*uf));
	if (!uf)
		return NOMEM(e);
	for (l = 2; l <= P->h; l++) {
		below = num_subtrees(r, l - 1, uf);
		here = l == P->h ? 1 : num_subtrees(r, l, uf);
		if (here > 0 && below % here == 0 && below / here > P->m[l])
			P->m[l] = (int)(below / here);
	}
	free(uf);
	if (fit(r, count, NULL))
		return rc;
	r->misfit = *e;
	ibu_err_clear(e);
	return IBU_OK;
}

/*
 * Step 4: h, m, w, p: what the level's switches have at most (a switch
 * with less has lost cables: faults, counted by up_lists()); the
 * switches each level lacks against the PGFT's size.
 */
static int params(struct rec *r, struct ibu_err *e)
{
	struct ibu_pgft_params *P = &r->g->P;
	const struct ibu_fabric *f = r->f;
	long count[IBU_PGFT_MAX_H + 1] = { 0 };
	int least[IBU_PGFT_MAX_H + 1], most[IBU_PGFT_MAX_H + 1] = { 0 };
	int n, l, peers, cu, cables, who[IBU_PGFT_MAX_H + 1];

	for (l = 1; l <= P->h; l++) {
		P->m[l] = 0;
		P->w[l] = P->p[l] = l == 1;
		least[l] = -1;
	}
	for (n = 0; n < f->num_nodes; n++) {
		if (!ibu_is_sw(f, n))
			continue;
		l = r->g->level[n];
		count[l]++;
		if (l == 1)
			up_to(&P->m[1], r->eps[n]);
		if (l < P->h) {
			peers = bundles(r, n, l + 1, &cu, &cables);
			if (least[l] < 0 || cables < least[l]) {
				least[l] = cables;
				who[l] = n;
			}
			up_to(&most[l], cables);
			up_to(&P->w[l + 1], peers);
			up_to(&P->p[l + 1], cu);
		}
		if (l > 1)
			up_to(&P->m[l], bundles(r, n, l - 1, &cu, &cables));
	}
	/* exact only: a switch with fewer up-cables than its peers fails
	 * here, before columns and slots are built for nothing */
	for (l = 1; !r->max_faults && l < P->h; l++)
		if (least[l] >= 0 && least[l] < most[l])
			return NOT_PGFT(e, "'%s' (level %d) has %d up-cables, its peers up to %d: missing cables (max_faults 0)",
					ibu_node_name(f, who[l]), l, least[l],
					most[l]);
	/* a lone leaf under tops, or a level with one child per switch, is
	 * no tree of sub-trees: another engine's fabric (two switches cabled
	 * twice). A lone switch is: a tree that lost every top, PGFT(1; m;
	 * 1; 1), every LID down the port it hangs on (no engine else takes
	 * it, and falling back would only route it the same) */
	if (count[1] < 2 && P->h > 1)
		return NOT_PGFT(e, "%ld leaf switch: a fat tree has at least two",
				count[1]);
	for (l = 2; l < P->h; l++)
		if (P->m[l] < 2)
			return NOT_PGFT(e, "level-%d switches have %d child: not a fat tree",
					l, P->m[l]);
	return sizes(r, count, e);
}

/* out[n] for the switches n of level l: the index of key[n] among the
 * level's distinct keys (equal keys one rank); tmp holds them. */
static void dense_rank(const struct rec *r, int l, const uint64_t *key,
		       int *out, uint64_t *tmp)
{
	int n, i, u, cnt = 0;

	for (n = 0; n < r->f->num_nodes; n++)
		if (on_level(r, n, l))
			tmp[cnt++] = key[n];
	qsort(tmp, (size_t)cnt, sizeof(*tmp), ibu__cmp_u64);
	for (i = u = 0; i < cnt; i++)
		if (!u || tmp[u - 1] != tmp[i])
			tmp[u++] = tmp[i];
	for (n = 0; n < r->f->num_nodes; n++)
		if (on_level(r, n, l))
			out[n] = (int)((uint64_t *)bsearch(&key[n], tmp, (size_t)u,
						sizeof(*tmp), ibu__cmp_u64) - tmp);
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
	int n, p, q, first, *sib = r->sib;

	for (n = 0; n < f->num_nodes; n++)
		if (on_level(r, n, l)) {
			sib[n] = n;
			key[n] = UINT64_MAX;
		}
	/* each parent joins its children and offers them its column */
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1, first = -1; on_level(r, n, l + 1) &&
		     p <= f->nodes[n].num_ports; p++) {
			if ((q = peer_on(r, n, p, l)) < 0)
				continue;
			if ((uint64_t)r->g->col[n] < key[q])
				key[q] = (uint64_t)r->g->col[n];
			if (first < 0)
				first = q;
			else
				ibu__uf_union(sib, first, q);
		}
	for (n = 0; n < f->num_nodes; n++)
		if (on_level(r, n, l) && key[n] < key[ibu__uf_find(sib, n)])
			key[ibu__uf_find(sib, n)] = key[n];
	for (n = 0; n < f->num_nodes; n++)
		if (on_level(r, n, l)) {
			sib[n] = ibu__uf_find(sib, n);
			key[n] = key[sib[n]];
		}
}

/* n's parent (level lv) in column c, or -1. */
static int parent_in_col(const struct rec *r, int n, int lv, int c)
{
	int p, q;

	for (p = 1; p <= r->f->nodes[n].num_ports; p++)
		if ((q = peer_on(r, n, p, lv)) >= 0 && r->g->col[q] == c)
			return q;
	return -1;
}

/*
 * A switch x on level l < h with no parent left has no siblings to rank
 * it. Its children still tell its column: a child's other parents are
 * in all but one of the columns a full child of their rank has above it;
 * x's column is that one (found on any switch of level l-1 that has
 * every column of the child's other parents and one more). Returns 1
 * when child c tells it.
 */
static int column_from_child(struct rec *r, int x, int l, int c)
{
	const struct ibu_fabric *f = r->f;
	int p, n, q, need, a, b;

	need = bundles(r, c, l, &a, &b) - 1;	/* c's parents but x */
	for (n = 0; n < f->num_nodes && need >= 1; n++) {
		int extra = -1, other = 0, ok = 1;

		if (!on_level(r, n, l - 1) || n == c)
			continue;
		r->bstamp++;
		for (p = 1; p <= f->nodes[n].num_ports && ok; p++) {
			q = peer_on(r, n, p, l);
			if (q < 0 || q == x || r->bmark[q] == r->bstamp)
				continue;
			r->bmark[q] = r->bstamp;
			if (parent_in_col(r, c, l, r->g->col[q]) >= 0)
				other++;
			else if (extra < 0)
				extra = r->g->col[q];
			else
				ok = 0;
		}
		/* n covers the child's other parents' columns, plus one */
		if (ok && extra >= 0 && other == need) {
			r->g->col[x] = extra;
			return 1;
		}
	}
	return 0;
}

/* The first of x's children that tells its column (one that lost its
 * other parents too tells nothing). */
static void rank_parentless(struct rec *r, int x, int l)
{
	int p, c, done = 0;

	for (p = 1; p <= r->f->nodes[x].num_ports && !done; p++)
		if ((c = peer_on(r, x, p, l - 1)) >= 0)
			done = column_from_child(r, x, l, c);
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
	int n, l, rc = key && sorted ? IBU_OK : NOMEM(e);

	for (l = g->P.h; l >= 1 && !rc; l--) {
		for (n = 0; l == g->P.h && n < f->num_nodes; n++)
			key[n] = f->nodes[n].guid;
		if (l < g->P.h)
			sibling_keys(r, l, key);
		dense_rank(r, l, key, g->col, sorted);
		for (n = 0; l < g->P.h && l > 1 && n < f->num_nodes; n++)
			if (on_level(r, n, l) && key[n] == UINT64_MAX)
				rank_parentless(r, n, l);
	}
	free(key);
	free(sorted);
	return rc;
}

/* A record of count faults: missing switches of level l, or missing
 * cables of switch lower (level l) to upper, have of want (upper -1:
 * unknown); lower -1: a count alone, none when 0. */
static int add_fault(struct rec *r, enum ibu_pgft_fault_kind kind, int l,
		     int lower, int upper, int have, int want, long count,
		     struct ibu_err *e)
{
	struct ibu_pgft_fault x = { .kind = kind, .level = l, .lower = lower,
				    .upper = upper, .have = have, .want = want,
				    .count = (int)count };
	struct ibu_pgft *g = r->g;

	if (lower < 0 && x.count <= 0)
		return IBU_OK;
	if (g->num_fault_recs == r->fcap) {
		int nc = r->fcap ? 2 * r->fcap : 16;
		struct ibu_pgft_fault *nf = realloc(g->faults, (size_t)nc * sizeof(*nf));

		if (!nf)
			return NOMEM(e);
		g->faults = nf;
		r->fcap = nc;
	}
	g->faults[g->num_fault_recs++] = x;
	g->num_faults += x.count;
	if (kind == IBU_PGFT_MISSING_CABLES)
		r->named[l] += x.count;
	return IBU_OK;
}

/* The parent of n in parent column c that n lost every cable to: the
 * one its siblings have there; -1 when the switch itself is missing. */
static int lost_parent(struct rec *r, int n, int c)
{
	const struct ibu_fabric *f = r->f;
	int l = r->g->level[n], x, q, a, b;

	for (x = 0; x < f->num_nodes; x++)
		if (x != n && on_level(r, x, l) && r->sib[x] == r->sib[n] &&
		    (q = parent_in_col(r, x, l + 1, c)) >= 0)
			return q;
	/* every sibling lost it: a switch of that column left without a
	 * child (it lost them all), else it is missing */
	for (x = 0; x < f->num_nodes; x++)
		if (on_level(r, x, l + 1) && r->g->col[x] == c &&
		    !bundles(r, x, l, &a, &b))
			return x;
	return -1;
}

/* Parent columns of each column rank at level l (ascending, distinct):
 * the slots every switch of that rank orders its up-ports by. */
struct rank_lists {
	int *start, *len;	/* [rank] into pcol */
	int *pcol;
};

static int rank_lists(struct rec *r, int l, struct rank_lists *rl)
{
	const struct ibu_fabric *f = r->f;
	const int *col = r->g->col;
	int n, p, q, k = 0, u = 0, i, ranks = 1;
	uint64_t *pair;		/* (rank, parent column) */

	for (n = 0; n < f->num_nodes; n++)
		if (on_level(r, n, l))
			k += f->nodes[n].num_ports;
	pair = malloc((size_t)(k ? k : 1) * sizeof(*pair));
	if (!pair)
		return IBU_ENOMEM;
	for (n = k = 0; n < f->num_nodes; n++) {
		if (!on_level(r, n, l))
			continue;
		up_to(&ranks, col[n] + 1);
		for (p = 1; p <= f->nodes[n].num_ports; p++)
			if ((q = peer_on(r, n, p, l + 1)) >= 0)
				pair[k++] = (uint64_t)col[n] << 32 | (uint32_t)col[q];
	}
	qsort(pair, (size_t)k, sizeof(*pair), ibu__cmp_u64);
	rl->start = calloc(2 * (size_t)ranks, sizeof(int));
	rl->len = rl->start ? rl->start + ranks : NULL;
	rl->pcol = malloc((size_t)(k ? k : 1) * sizeof(int));
	for (i = 0; i < k && rl->start && rl->pcol; i++) {
		int c = (int)(pair[i] >> 32);

		if (i && pair[i] == pair[i - 1])
			continue;
		if (!rl->len[c])
			rl->start[c] = u;
		rl->len[c]++;
		rl->pcol[u++] = (int)(uint32_t)pair[i];
	}
	free(pair);
	return rl->start && rl->pcol ? IBU_OK : IBU_ENOMEM;
}

/* n's cables to parent column pc (up[*i..]: column << 32 | port, sorted)
 * into its p slots from out; a bundle short of p is a fault. */
static int fill_slots(struct rec *r, int n, int pc, const uint64_t *up,
		      int k, int *i, int *out, struct ibu_err *e)
{
	const struct ibu_pgft *g = r->g;
	int P = g->P.p[g->level[n] + 1], c = 0, q = -1, port, peer;

	for (; *i < k && (int)(up[*i] >> 32) == pc; (*i)++, c++) {
		port = (int)(uint32_t)up[*i];
		peer = r->f->nodes[n].ports[port].peer_node;
		if (c >= P || (q >= 0 && peer != q))
			return NOT_PGFT(e, "'%s' (level %d) has two parents in one column, or more cables to one than its peers",
					ibu_node_name(r->f, n), g->level[n]);
		q = peer;
		out[c] = port;
	}
	if (c < P && (q >= 0 || (q = lost_parent(r, n, pc)) >= 0))
		return add_fault(r, IBU_PGFT_MISSING_CABLES, g->level[n], n, q,
				 c, P, P - c, e);
	return IBU_OK;
}

/* n's up-cables (to level l + 1) as parent column << 32 | port, sorted;
 * returns their count. */
static int up_cables(const struct rec *r, int n, int l, uint64_t *up)
{
	int p, q, k = 0;

	for (p = 1; p <= r->f->nodes[n].num_ports; p++)
		if ((q = peer_on(r, n, p, l + 1)) >= 0)
			up[k++] = (uint64_t)r->g->col[q] << 32 | (uint32_t)p;
	qsort(up, (size_t)k, sizeof(*up), ibu__cmp_u64);
	return k;
}

/* Step 5 (end): the U_l up-port slots of every switch: its rank's parent
 * columns in order, p cables each by port; 0 where a cable is missing.
 * A switch without any parent has unknown siblings (and so columns):
 * every up-cable is a fault. */
static int up_lists(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	uint64_t tmp[IBU_MAX_PORTS + 1];
	int n, k, l, i, j, rc = IBU_OK;

	for (l = 1; l < g->P.h && !rc; l++) {
		struct rank_lists rl = { 0 };
		int W = g->P.w[l + 1], U = W * g->P.p[l + 1], *len;

		if (rank_lists(r, l, &rl))
			rc = NOMEM(e);
		len = rl.len;
		for (n = 0; n < f->num_nodes && !rc; n++) {
			if (!on_level(r, n, l))
				continue;
			if (len[g->col[n]] > W) {
				rc = NOT_PGFT(e, "the switches of level %d that rank with '%s' have %d parent columns, each switch at most %d",
					      l, ibu_node_name(f, n),
					      len[g->col[n]], W);
				break;
			}
			k = up_cables(r, n, l, tmp);
			r->lost[l] += U - k;
			g->up[n] = calloc((size_t)(U ? U : 1), sizeof(int));
			if (!g->up[n])
				rc = NOMEM(e);
			else if (!k) {
				rc = add_fault(r, IBU_PGFT_MISSING_CABLES, l, n,
					       -1, 0, U, U, e);
				r->orphan[l] += U;
			}
			for (i = j = 0; j < len[g->col[n]] && !rc; j++)
				rc = fill_slots(r, n, rl.pcol[rl.start[g->col[n]] + j],
						tmp, k, &i, &g->up[n][j * g->P.p[l + 1]], e);
		}
		free(rl.start);
		free(rl.pcol);
	}
	return rc;
}

/* Missing switches per level, then the limit (e set when beyond it). */
static int count_faults(struct rec *r, struct ibu_err *e)
{
	struct ibu_pgft *g = r->g;
	const int *m = g->P.m, *p = g->P.p;
	char txt[128], what[256];
	int l, rc = IBU_OK;

	for (l = 1; l <= g->P.h && !rc; l++)
		rc = add_fault(r, IBU_PGFT_MISSING_SWITCHES, l, -1, -1, 0, 0,
			       r->missing[l], e);
	/* lost up-cables no record names (their parent unknown):
	 * counted, so a lost up-slot never passes for exact */
	for (l = 1; l < g->P.h && !rc; l++) {
		long rest = r->lost[l] - r->named[l] -
			    r->missing[l + 1] * m[l + 1] * p[l + 1];

		rc = add_fault(r, IBU_PGFT_MISSING_CABLES, l, -1, -1, 0, 0,
			       rest, e);
		/* a parentless switch's record counts its cables to missing
		 * parents, which the missing switches count already */
		if (rest < 0)
			g->num_faults -= -rest < r->orphan[l] ? -rest :
					 r->orphan[l];
	}
	if (rc)
		return rc;
	g->max_faults = ibu_fault_limit(r->max_faults,
					ibu_pgft_default_max_faults(&g->P));
	if (g->num_faults <= g->max_faults)
		return IBU_OK;
	if (r->misfit.code) {
		*e = r->misfit;
		return IBU_ETOPO;
	}
	ibu_pgft_params_text(&g->P, txt, sizeof(txt));
	if (g->num_fault_recs && !g->max_faults) {
		ibu_pgft_fault_text(r->f, g, 0, what, sizeof(what));
		return NOT_PGFT(e, "%s with %s (its peers have it; max_faults 0)",
				txt, what);
	}
	return NOT_PGFT(e, "%s with %d missing cables and switches, more than the limit of %d faults (max_faults)",
			txt, g->num_faults, g->max_faults);
}

/* sub[l][node]: least node GUID of the level-<=l sub-tree holding node
 * (union-find in r->sib, done with siblings by now) */
static void subtrees(struct rec *r, uint64_t **sub)
{
	const struct ibu_fabric *f = r->f;
	const int *lv = r->g->level;
	int *uf = r->sib, n, l;

	for (l = 2; l < r->g->P.h; l++) {
		union_below(r, l, uf);
		for (n = 0; n < f->num_nodes; n++)
			sub[l][n] = UINT64_MAX;
		for (n = 0; n < f->num_nodes; n++)
			if (ibu_is_sw(f, n) && lv[n] >= 1 && lv[n] <= l &&
			    f->nodes[n].guid < sub[l][ibu__uf_find(uf, n)])
				sub[l][ibu__uf_find(uf, n)] = f->nodes[n].guid;
		for (n = 0; n < f->num_nodes; n++)
			sub[l][n] = sub[l][ibu__uf_find(uf, n)];
	}
}

/* The end ports: compute hosts (at leaves) into hs, in port order, each
 * with its sort key k: its leaf's sub-trees top down (their least GUIDs),
 * the leaf's GUID, its port GUID, arrival; hosts above the leaves into g.
 * Returns the compute hosts. */
static int end_ports(struct rec *r, uint64_t **sub, struct ibu_pgft_host *hs,
		     struct ibu__okey *k)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	int n, p, l, i, c = 0;

	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			struct ibu_pgft_host h = { n, p, f->nodes[n].ports[p].peer_node };

			if (!is_ep(f, n, p))
				continue;
			if (g->level[h.leaf] != 1) {
				g->spine_host[g->num_spine_hosts++] = h;
				g->host_of_port[g->host_base[n] + p] = -1;
				continue;
			}
			k[c] = (struct ibu__okey){ .D = c };
			for (i = 0, l = g->P.h - 1; l >= 2; l--)
				k[c].key[i++] = sub[l][h.leaf];
			k[c].key[i++] = f->nodes[h.leaf].guid;
			k[c].key[i++] = f->nodes[n].ports[p].guid;
			k[c].key[i] = (uint64_t)c;
			hs[c++] = h;
		}
	return c;
}

/* Step 6: compute hosts in sub-tree order; hosts above the leaves. */
static int hosts(struct rec *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct ibu_pgft *g = r->g;
	uint64_t *sub[IBU_PGFT_MAX_H + 1] = { NULL };
	struct ibu_pgft_host *hs;
	struct ibu__okey *k;
	size_t total = 0, H = (size_t)g->P.h + 1, c = 1, i;	/* c: 1 + hosts */
	int n, l, rc = IBU_OK;

	for (n = 0; n < f->num_nodes; n++) {
		g->host_base[n] = (int)total;
		total += (size_t)f->nodes[n].num_ports + 1;
		c += on_level(r, n, 1) ? (size_t)r->eps[n] : 0;
	}
	g->host_of_port = malloc(total * sizeof(int));
	g->spine_host = malloc(total * sizeof(*g->spine_host));
	g->host = malloc(c * sizeof(*g->host));
	g->host_sub = malloc(c * H * sizeof(uint64_t));
	hs = malloc(c * sizeof(*hs));
	k = malloc(c * sizeof(*k));
	for (l = 2; l < g->P.h; l++)
		if (!(sub[l] = malloc((size_t)f->num_nodes * sizeof(uint64_t))))
			rc = IBU_ENOMEM;
	if (rc || !g->host_of_port || !g->spine_host || !g->host ||
	    !g->host_sub || !hs || !k)
		rc = NOMEM(e);
	if (!rc) {
		subtrees(r, sub);
		for (i = 0; i < total; i++)
			g->host_of_port[i] = -2;
		g->num_hosts = end_ports(r, sub, hs, k);
		qsort(k, (size_t)g->num_hosts, sizeof(*k), ibu__cmp_okey);
	}
	for (n = 0; n < g->num_hosts; n++) {
		struct ibu_pgft_host *x = &g->host[n];

		*x = hs[k[n].D];
		g->host_of_port[g->host_base[x->node] + x->port] = n;
		for (l = 0; l < (int)H; l++)
			g->host_sub[(size_t)n * H + (size_t)l] = l == 1 ?
				(uint64_t)x->leaf : l > 1 && l < g->P.h ?
				sub[l][x->leaf] : 0;
	}
	for (l = 2; l < g->P.h; l++)
		free(sub[l]);
	free(hs);
	free(k);
	if (!rc && ibu__pgft_rank_leaves(g))
		rc = NOMEM(e);
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
	free(g->leaf_rank);
	free(g->faults);
	memset(g, 0, sizeof(*g));
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
	/* a tenth of the cables; a small tree keeps its engine through a
	 * few lost cables and switches (4 cables and 2 switches count at
	 * most 7), up to a third of its cables (PGFT(2; 4,6; 1,1; 1,2) has
	 * 12: 4 cut routed as well as dfsssp does), not more: a 3x3 mesh is
	 * a 2-level tree that lost 8 of 20 */
	lim = cables / 10;
	if (lim < 7)
		lim = cables / 3 < 7 ? cables / 3 : 7;
	return lim < 1 ? 1 : lim > 1000000 ? 1000000 : (int)lim;
}

static int recognize(const struct ibu_fabric *f, struct ibu_pgft *g,
		     const uint64_t *roots, int num_roots, int max_faults,
		     int *childless_try, struct ibu_err *e)
{
	static int (*const step[])(struct rec *, struct ibu_err *) = {
		colour, levels, params, columns, up_lists, count_faults
	};
	struct rec r = { .f = f, .g = g, .roots = roots,
			 .num_roots = num_roots, .max_faults = max_faults,
			 .childless = *childless_try };
	int **part[] = { &r.colour, &r.eps, &r.queue, &r.bmark, &r.bcnt, &r.sib };
	size_t N = (size_t)(f->num_nodes ? f->num_nodes : 1), i;
	int *scratch = calloc(6 * N, sizeof(int)), rc;

	memset(g, 0, sizeof(*g));
	g->num_nodes = f->num_nodes;
	g->level = malloc(N * sizeof(int));
	g->col = malloc(N * sizeof(int));
	g->up = calloc(N, sizeof(int *));
	g->host_base = malloc(N * sizeof(int));
	rc = !g->level || !g->col || !g->up || !g->host_base || !scratch ?
	     NOMEM(e) : IBU_OK;
	for (i = 0; scratch && i < 6; i++)	/* one block, N ints each */
		*part[i] = scratch + i * N;
	for (i = 0; i < sizeof(step) / sizeof(step[0]) && !rc; i++)
		rc = step[i](&r, e);
	/* with an odd number of levels, tops carrying hosts look like
	 * leaves: only the admin can tell them apart */
	if (rc == IBU_ETOPO && !roots && ((g->P.h % 2 && g->P.h > 2) ||
					  (r.h_dist % 2 && r.h_dist > 2)))
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg),
			 "%s", " (hosts on the top switches? name those in OpenSM's root_guid_file)");
	if (!rc)
		rc = hosts(&r, e);
	free(scratch);
	if (rc)
		ibu_pgft_free(g);
	*childless_try = r.childless;
	return rc;
}

int ibu_pgft_recognize_limit(const struct ibu_fabric *f, struct ibu_pgft *g,
			     const uint64_t *roots, int num_roots,
			     int max_faults, struct ibu_err *e)
{
	struct ibu_err first;
	int try = 0, rc;

	rc = recognize(f, g, roots, num_roots, max_faults, &try, e);
	if (rc != IBU_ETOPO || try >= 0)
		return rc;
	/* the top switches childless() kept: under the tops instead; those
	 * it moved under them: where they were (IBFT(4,3) that lost both
	 * tops of one half: half the middle switches have no parent, as
	 * many as a top's worth of childless ones); the first error if
	 * that is no tree either */
	first = *e;
	try = try == -1 ? 1 : 2;
	rc = recognize(f, g, roots, num_roots, max_faults, &try, e);
	if (rc == IBU_ETOPO)
		*e = first;
	return rc;
}

void ibu_pgft_fault_text(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 int i, char *buf, size_t len)
{
	const struct ibu_pgft_fault *x = &g->faults[i];

	if (x->kind == IBU_PGFT_MISSING_SWITCHES)
		snprintf(buf, len, "%d missing level-%d switch%s (of %ld)",
			 x->count, x->level, x->count > 1 ? "es" : "",
			 ibu_pgft_level_size(&g->P, x->level, 1L << 30));
	else if (x->lower < 0)
		snprintf(buf, len, "%d more missing cable%s between levels %d and %d (their switches not told apart)",
			 x->count, x->count > 1 ? "s" : "", x->level, x->level + 1);
	else if (x->upper < 0)
		snprintf(buf, len, "missing cables '%s' (level %d) - every parent: 0 of %d",
			 ibu_node_name(f, x->lower), x->level, x->want);
	else
		snprintf(buf, len, "missing cable%s '%s' (level %d) - parent '%s': %d of %d",
			 x->count > 1 ? "s" : "", ibu_node_name(f, x->lower), x->level,
			 ibu_node_name(f, x->upper), x->have, x->want);
}

int ibu_pgft_rotated(const struct ibu_pgft *g)
{
	return !g->num_faults && !g->uneven_rule && g->leaf_rank &&
	       g->P.h == 2 &&
	       ibu_pgft_uneven_level(&g->P) == 1;
}

long ibu_pgft_rule_rotation(const struct ibu_pgft *g, int leaf, long D)
{
	long U = ibu_pgft_up_ports(&g->P, 1), L, T, W, k;

	if (!ibu_pgft_rotated(g) || U < 1 || leaf < 0 ||
	    leaf >= g->num_nodes || g->leaf_rank[leaf] < 0 || D < 0 ||
	    D >= g->num_hosts ||
	    D - g->leaf_first[g->host[D].leaf] < g->P.m[1] / U * U)
		return 0;
	/* T: D's leaf's rank less the source leaf's, less 1, mod the
	 * leaves (from any leaf the others take 0..L-2 once, and into any
	 * leaf the others come with 0..L-2 once), plus D's place among
	 * its leaf's last hosts; its parent column T mod W, the cable the
	 * rule's own (D mod p_2) */
	L = g->leaf_rank[g->host[g->num_hosts - 1].leaf] + 1;
	T = ((long)g->leaf_rank[g->host[D].leaf] - g->leaf_rank[leaf] - 1 +
	     L) % L + D - g->leaf_first[g->host[D].leaf] - g->P.m[1] / U * U;
	W = U / g->P.p[2];
	k = T % W * g->P.p[2] + D % g->P.p[2];
	return ((k - D) % U + U) % U;
}

int ibu__pgft_rank_leaves(struct ibu_pgft *g)
{
	size_t N = (size_t)(g->num_nodes ? g->num_nodes : 1);
	int n, D, k = 0, t;

	if (!g->leaf_rank && !(g->leaf_rank = malloc(2 * N * sizeof(int))))
		return IBU_ENOMEM;
	g->leaf_first = g->leaf_rank + N;
	for (n = 0; n < g->num_nodes; n++)
		g->leaf_rank[n] = -1;
	for (D = 0; D < g->num_hosts; D++) {
		t = g->host[D].leaf;
		if (g->leaf_rank[t] < 0) {
			g->leaf_rank[t] = k++;
			g->leaf_first[t] = D;
		}
	}
	return IBU_OK;
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
