/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Plain shortest paths toward a switch's LID, for the switches with no
 * up*|down* way to it (pgft_turn.c, pgft_balance.c), without a BFS of
 * the switch graph per LID.
 *
 * Twins are switches with the same set of switch neighbours (the tops of
 * one IBFT group, the leaves of one pod). Hops from twins t and t' agree
 * on every switch but t and t' themselves, and the hops from any t are
 * 1 + the least hops from a neighbour, where every twin class among t's
 * neighbours answers for all its members. So one BFS per class, kept,
 * serves the class's own members and every switch next to it (on an
 * IBFT(24,3): 36 BFS instead of 432). The same classes group a switch's
 * neighbours for the choice among those one hop nearer: twins that are
 * not the target are equally far, so one look per class.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_router.h"

/* Neighbour classes mixed into one target's hops at most: beyond, one
 * BFS of its own is as cheap. */
#define MAX_MIX 3

struct pgft_twins {
	int ns;			/* switches, by compact index */
	int *idx;		/* [node] compact index (-1: no switch) */
	int *node;		/* [compact] node */
	int ncls;
	int *cls;		/* [node] twin class */
	int *mstart, *msize;	/* [class] its members in mem */
	int *mem;
	int **cd;		/* [class] plain hops from it (compact), kept */
	long budget;		/* ints cd may still take */
	int *gbase, *ng;	/* [node] neighbour groups, one per class */
	int *gnb, *gstart, *glen;	/* [group] a member, its ports */
	int *gport;		/* ports of each group, ascending */
};

/* Memory the kept hops may take: beyond it, a BFS per LID as before. */
#define CD_BUDGET (16L << 20)	/* ints */

struct twin_key {
	uint64_t h;
	int n;			/* neighbours */
	int i;			/* compact index */
};

static int cmp_key(const void *a, const void *b)
{
	const struct twin_key *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Each switch's distinct neighbours, sorted (nb[off[i]..off[i+1]-1]),
 * and a hash of the list. */
static int sorted_neighbours(const struct router *r, struct pgft_twins *tw,
			     int *off, int *nb, struct twin_key *key)
{
	int i, j, s, o = 0;

	for (i = 0; i < tw->ns; i++) {
		uint64_t h = 1469598103934665603ull;

		s = tw->node[i];
		off[i] = o;
		for (j = 0; j < r->ndn[s]; j++)
			nb[o + j] = r->dnn[r->dnbase[s] + j];
		qsort(nb + o, (size_t)r->ndn[s], sizeof(int), cmp_int);
		for (j = 0; j < r->ndn[s]; j++)
			h = (h ^ (uint64_t)nb[o + j]) * 1099511628211ull;
		key[i].h = h;
		key[i].n = r->ndn[s];
		key[i].i = i;
		o += r->ndn[s];
	}
	off[tw->ns] = o;
	return o;
}

/* Classes from the sorted keys: equal hash and count, then equal lists
 * (compared against each class already found in the run). */
static void assign_classes(struct pgft_twins *tw, const int *off,
			   const int *nb, const struct twin_key *key)
{
	int a, b, k, c, first;

	tw->ncls = 0;
	for (a = 0; a < tw->ns; a = b) {
		for (b = a; b < tw->ns && key[b].h == key[a].h &&
		     key[b].n == key[a].n;)
			b++;
		first = tw->ncls;
		for (k = a; k < b; k++) {
			int i = key[k].i, n = key[k].n;

			for (c = first; c < tw->ncls; c++) {
				int j = tw->idx[tw->mem[c]];	/* its first */

				if (!memcmp(nb + off[i], nb + off[j],
					    (size_t)n * sizeof(int)))
					break;
			}
			if (c == tw->ncls)
				tw->mem[tw->ncls++] = tw->node[i];
			tw->cls[tw->node[i]] = c;
		}
	}
}

/* Members of each class, contiguous in mem (by node number). */
static void members(struct pgft_twins *tw)
{
	int i, c, s;

	for (c = 0; c < tw->ncls; c++)
		tw->msize[c] = 0;
	for (i = 0; i < tw->ns; i++)
		tw->msize[tw->cls[tw->node[i]]]++;
	for (c = 0, s = 0; c < tw->ncls; c++) {
		tw->mstart[c] = s;
		s += tw->msize[c];
		tw->msize[c] = 0;
	}
	for (i = 0; i < tw->ns; i++) {
		c = tw->cls[tw->node[i]];
		tw->mem[tw->mstart[c] + tw->msize[c]++] = tw->node[i];
	}
}

static int classes(const struct router *r, struct pgft_twins *tw)
{
	int *off = malloc((size_t)(tw->ns + 1) * sizeof(int)), *nb, total = 0;
	struct twin_key *key = malloc((size_t)tw->ns * sizeof(*key) + 1);
	int i;

	for (i = 0; i < tw->ns; i++)
		total += r->ndn[tw->node[i]];
	nb = malloc((size_t)total * sizeof(int) + 1);
	if (!off || !key || !nb) {
		free(off);
		free(key);
		free(nb);
		return IBU_ENOMEM;
	}
	sorted_neighbours(r, tw, off, nb, key);
	qsort(key, (size_t)tw->ns, sizeof(*key), cmp_key);
	assign_classes(tw, off, nb, key);
	members(tw);
	free(off);
	free(key);
	free(nb);
	return IBU_OK;
}

/* Switch s's cables grouped by its neighbours' classes (first seen
 * first), each group's ports ascending; gof: -1 per class, left so. */
static void group_switch(const struct router *r, struct pgft_twins *tw,
			 int s, int *ngroups, int *gof)
{
	int i, g, c, first = *ngroups;

	tw->gbase[s] = first;
	for (i = r->nbbase[s]; i < r->nbbase[s] + r->nnb[s]; i++) {
		c = tw->cls[r->nbn[i]];
		if (gof[c] < 0) {
			gof[c] = (*ngroups)++;
			tw->gnb[gof[c]] = r->nbn[i];
			tw->glen[gof[c]] = 0;
		}
		tw->glen[gof[c]]++;
	}
	tw->ng[s] = *ngroups - first;
	for (g = first; g < *ngroups; g++)
		tw->gstart[g] = g == first ? r->nbbase[s] :
			tw->gstart[g - 1] + tw->glen[g - 1];
	for (g = first; g < *ngroups; g++)
		tw->glen[g] = 0;
	for (i = r->nbbase[s]; i < r->nbbase[s] + r->nnb[s]; i++) {
		g = gof[tw->cls[r->nbn[i]]];
		tw->gport[tw->gstart[g] + tw->glen[g]++] = r->nbp[i];
	}
	for (g = first; g < *ngroups; g++)
		gof[tw->cls[tw->gnb[g]]] = -1;
}

static int groups(const struct router *r, struct pgft_twins *tw)
{
	int total = 0, i, ngroups = 0, *gof;

	for (i = 0; i < tw->ns; i++)
		total += r->nnb[tw->node[i]];
	tw->gnb = malloc((size_t)total * sizeof(int) + 1);
	tw->gstart = malloc((size_t)total * sizeof(int) + 1);
	tw->glen = malloc((size_t)total * sizeof(int) + 1);
	tw->gport = malloc((size_t)total * sizeof(int) + 1);
	gof = malloc((size_t)tw->ncls * sizeof(int) + 1);
	if (!tw->gnb || !tw->gstart || !tw->glen || !tw->gport || !gof) {
		free(gof);
		return IBU_ENOMEM;
	}
	for (i = 0; i < tw->ncls; i++)
		gof[i] = -1;
	for (i = 0; i < tw->ns; i++)
		group_switch(r, tw, tw->node[i], &ngroups, gof);
	free(gof);
	return IBU_OK;
}

static int twins_alloc(struct pgft_twins *tw, int n)
{
	tw->idx = malloc((size_t)n * sizeof(int));
	tw->node = malloc((size_t)n * sizeof(int));
	tw->cls = malloc((size_t)n * sizeof(int));
	tw->mstart = malloc((size_t)n * sizeof(int));
	tw->msize = malloc((size_t)n * sizeof(int));
	tw->mem = malloc((size_t)n * sizeof(int));
	tw->cd = calloc((size_t)n, sizeof(int *));
	tw->gbase = calloc((size_t)n, sizeof(int));
	tw->ng = calloc((size_t)n, sizeof(int));
	return tw->idx && tw->node && tw->cls && tw->mstart && tw->msize &&
	       tw->mem && tw->cd && tw->gbase && tw->ng ? IBU_OK : IBU_ENOMEM;
}

int ibu__pgft_twins_init(struct router *r, struct ibu_err *e)
{
	const struct ibu_fabric *f = r->f;
	struct pgft_twins *tw = calloc(1, sizeof(*tw));
	int n = f->num_nodes ? f->num_nodes : 1, i;

	r->tw = tw;
	if (!tw || twins_alloc(tw, n))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++) {
		tw->idx[i] = -1;
		tw->cls[i] = -1;
		if (ibu_node_is_switch(&f->nodes[i])) {
			tw->idx[i] = tw->ns;
			tw->node[tw->ns++] = i;
		}
	}
	tw->budget = CD_BUDGET;
	if (classes(r, tw) || groups(r, tw))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return IBU_OK;
}

void ibu__pgft_twins_free(struct router *r)
{
	struct pgft_twins *tw = r->tw;
	int c;

	if (!tw)
		return;
	for (c = 0; tw->cd && c < tw->ncls; c++)
		free(tw->cd[c]);
	free(tw->cd);
	free(tw->idx);
	free(tw->node);
	free(tw->cls);
	free(tw->mstart);
	free(tw->msize);
	free(tw->mem);
	free(tw->gbase);
	free(tw->ng);
	free(tw->gnb);
	free(tw->gstart);
	free(tw->glen);
	free(tw->gport);
	free(tw);
	r->tw = NULL;
}

/* Plain BFS hops from switch t over the switch graph into d. */
static void bfs(struct router *r, int t, int *d)
{
	int head = 0, tail = 0, n, i, q;

	for (n = 0; n < r->f->num_nodes; n++)
		d[n] = INT_MAX;
	d[t] = 0;
	r->queue[tail++] = t;
	while (head < tail) {
		n = r->queue[head++];
		for (i = r->dnbase[n]; i < r->dnbase[n] + r->ndn[n]; i++) {
			q = r->dnn[i];
			if (d[q] == INT_MAX) {
				d[q] = d[n] + 1;
				r->queue[tail++] = q;
			}
		}
	}
}

/* Hops from class c's first member to every switch (compact), kept;
 * NULL when the budget is spent or memory short (then a BFS per LID). */
static const int *class_dist(struct router *r, int c)
{
	struct pgft_twins *tw = r->tw;
	int *d, head = 0, tail = 0, n, i, q, t = tw->mem[tw->mstart[c]];

	if (tw->cd[c])
		return tw->cd[c];
	if (tw->budget < tw->ns || !(d = malloc((size_t)tw->ns * sizeof(int))))
		return NULL;
	tw->budget -= tw->ns;
	for (i = 0; i < tw->ns; i++)
		d[i] = INT_MAX;
	d[tw->idx[t]] = 0;
	r->queue[tail++] = t;
	while (head < tail) {
		n = r->queue[head++];
		for (i = r->dnbase[n]; i < r->dnbase[n] + r->ndn[n]; i++) {
			q = r->dnn[i];
			if (d[tw->idx[q]] == INT_MAX) {
				d[tw->idx[q]] = d[tw->idx[n]] + 1;
				r->queue[tail++] = q;
			}
		}
	}
	tw->cd[c] = d;
	return d;
}

/* t has twins: its class's hops, but 0 at t and 2 at the other twins
 * (none when t has no neighbour). */
static int from_twins(struct router *r, int t, int *d)
{
	const struct pgft_twins *tw = r->tw;
	int c = tw->cls[t], i, m;
	const int *a = class_dist(r, c);

	if (!a)
		return 0;
	for (i = 0; i < tw->ns; i++)
		d[tw->node[i]] = a[i];
	for (i = 0; i < tw->msize[c]; i++) {
		m = tw->mem[tw->mstart[c] + i];
		d[m] = m == t ? 0 : r->ndn[t] ? 2 : INT_MAX;
	}
	return 1;
}

/* 1 + the least hops of t's neighbour classes (each class is wholly
 * among t's neighbours, so those hops are the class's own); 1 at the
 * neighbours, 0 at t. 0: too many classes or no memory. */
static int from_neighbours(struct router *r, int t, int *d)
{
	const struct pgft_twins *tw = r->tw;
	const int *a[MAX_MIX];
	int k = tw->ng[t], j, i, v;

	if (!k || k > MAX_MIX)
		return 0;
	for (j = 0; j < k; j++)
		if (!(a[j] = class_dist(r, tw->cls[tw->gnb[tw->gbase[t] + j]])))
			return 0;
	for (i = 0; i < tw->ns; i++) {
		for (v = a[0][i], j = 1; j < k; j++)
			if (a[j][i] < v)
				v = a[j][i];
		d[tw->node[i]] = v == INT_MAX ? INT_MAX : v + 1;
	}
	for (i = r->dnbase[t]; i < r->dnbase[t] + r->ndn[t]; i++)
		d[r->dnn[i]] = 1;
	d[t] = 0;
	return 1;
}

/* Plain hops from switch t into d: at every switch (the entries of
 * other nodes are left as they are) */
void ibu__pgft_plain_dist(struct router *r, int t, int *d)
{
	const struct pgft_twins *tw = r->tw;

	if (tw && tw->msize[tw->cls[t]] > 1 && from_twins(r, t, d))
		return;
	if (tw && from_neighbours(r, t, d))
		return;
	bfs(r, t, d);
}

static int scan_plain(const struct router *r, int s, const int *dist,
		      int want, uint32_t lid)
{
	int i, k = 0, cand[IBU_MAX_PORTS];

	for (i = r->nbbase[s]; i < r->nbbase[s] + r->nnb[s]; i++)
		if (dist[r->nbn[i]] == want)
			cand[k++] = r->nbp[i];
	return k ? cand[lid % (uint32_t)k] : IBU_NO_PATH;
}

/* Port of switch s to a neighbour with plain dist == want, the lid-th of
 * them (port order). dist holds the hops to one target: twins other than
 * the target (want 0 names it alone) are equally far, so one look per
 * class; one class or all of them give the candidates without a scan. */
int ibu__pgft_pick_plain(const struct router *r, int s, const int *dist,
			 int want, uint32_t lid)
{
	const struct pgft_twins *tw = r->tw;
	int g, q = 0, k = 0, sel = 0;

	if (!tw || !want)
		return scan_plain(r, s, dist, want, lid);
	for (g = tw->gbase[s]; g < tw->gbase[s] + tw->ng[s]; g++)
		if (dist[tw->gnb[g]] == want) {
			q++;
			k += tw->glen[g];
			sel = g;
		}
	if (!q)
		return IBU_NO_PATH;
	if (q == 1)
		return tw->gport[tw->gstart[sel] + (int)(lid % (uint32_t)k)];
	if (q == tw->ng[s])
		return r->nbp[r->nbbase[s] + (int)(lid % (uint32_t)k)];
	return scan_plain(r, s, dist, want, lid);
}
