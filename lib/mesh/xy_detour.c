/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Detour next hops and SL layers on a damaged mesh (see xy_detour.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xy.h"
#include "xy_detour.h"
#include "xy_detour_int.h"

/* neighbour of sw through a surviving cable toward d, -1 if none */
int ibu_xyd_hop(const struct ibu_mesh *t, int sw, int d)
{
	if (d < 0 || d >= IBU_DIRS || !t->sw[sw].port[d])
		return -1;
	return ibu_mesh_neighbour(t, sw, d);
}

int ibu_xyd_xy_survives(const struct ibu_mesh *t, int s, int d)
{
	while (s != d) {
		s = ibu_xyd_hop(t, s, ibu_xy_dir(t, s, d));
		if (s < 0)
			return 0;
	}
	return 1;
}

/* BFS distances to d over the surviving graph (links are symmetric). */
int ibu_xyd_distances(const struct ibu_mesh *t, int d, int *dist, int *queue)
{
	int head = 0, tail = 0, s, k;

	for (s = 0; s < t->num_switches; s++)
		dist[s] = -1;
	dist[d] = 0;
	queue[tail++] = d;
	while (head < tail) {
		s = queue[head++];
		for (k = 0; k < IBU_DIRS; k++) {
			int q = ibu_xyd_hop(t, s, k);

			if (q >= 0 && dist[q] < 0) {
				dist[q] = dist[s] + 1;
				queue[tail++] = q;
			}
		}
	}
	return tail;
}

/*
 * The flows of an all-to-all toward d (each switch's end ports, summed
 * along the tree from the farthest switches in) added to the channel
 * loads, so the next destinations' routes avoid what is already busy.
 */
void ibu_xyd_add_flows(const struct ibu_mesh *t, int d, const int *queue,
		       int reached, long *w, long *load, int sign)
{
	const struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, i, s, k;

	for (i = 0; i < reached; i++)
		w[queue[i]] = queue[i] == d ? 0 : t->sw[queue[i]].num_eps;
	for (i = reached - 1; i > 0; i--) {
		s = queue[i];
		k = g->dir[s * S + d];
		if (k < 0 || k >= IBU_DIRS)
			continue;
		load[s * IBU_DIRS + k] += sign * w[s];
		w[ibu_mesh_neighbour(t, s, k)] += w[s];
	}
}

/* Ties between directions, in this order. */
const int ibu_xyd_pref[IBU_DIRS] = { IBU_DIR_E, IBU_DIR_W, IBU_DIR_N,
				    IBU_DIR_S };

/* d's column of next hops before its tree: none but d itself. */
void ibu_xyd_clear_tree(struct ibu_mesh_damage *g, int S, int d)
{
	int i;

	for (i = 0; i < S; i++)
		g->dir[i * S + d] = -1;
	g->dir[d * S + d] = IBU_DIR_LOCAL;
}

/* Next hops toward d, switches in BFS order (queue from
 * ibu_xyd_distances()). */
static void tree(struct ibu_mesh *t, int d, const int *dist,
		 const int *queue, int reached, int *turns)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, i, j;

	ibu_xyd_clear_tree(g, S, d);
	turns[d] = 0;
	for (i = 1; i < reached; i++) {
		int s = queue[i], best = -1, bt = 0;

		g->xy[s * S + d] = (unsigned char)ibu_xyd_xy_survives(t, s, d);
		for (j = 0; j < IBU_DIRS; j++) {
			int k = ibu_xyd_pref[j], q = ibu_xyd_hop(t, s, k), tr;

			if (q < 0 || dist[q] != dist[s] - 1)
				continue;
			if (g->xy[s * S + d] && k != ibu_xy_dir(t, s, d))
				continue;
			tr = turns[q] + (q != d && g->dir[q * S + d] != k);
			if (best < 0 || tr < bt) {
				best = k;
				bt = tr;
			}
		}
		g->dir[s * S + d] = (signed char)best;
		turns[s] = bt;
	}
}

/*
 * The balanced variant: every switch (XY surviving or not) takes, among
 * its shortest ways toward d, the one whose busiest channel onward (cmax,
 * then the load sum csum) is least over the flows so far, the XY way
 * where it is within slack% of that (ties: XY, then E, W, N, S); a pair is
 * on its XY path when every hop of its route is.
 */
static void tree_balanced(struct ibu_mesh *t, int d, const int *dist,
			  const int *queue, int reached, const long *load,
			  long *cmax, long *csum, int slack)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, i, j;

	ibu_xyd_clear_tree(g, S, d);
	cmax[d] = csum[d] = 0;
	for (i = 1; i < reached; i++) {
		int s = queue[i], best = -1, xd = ibu_xy_dir(t, s, d), q;
		long bm = 0, bs = 0;

		for (j = -1; j < IBU_DIRS; j++) {
			int k = j < 0 ? xd : ibu_xyd_pref[j];
			long l, m, sm;

			q = ibu_xyd_hop(t, s, k);
			if (q < 0 || dist[q] != dist[s] - 1)
				continue;
			l = load[s * IBU_DIRS + k];
			m = l > cmax[q] ? l : cmax[q];
			sm = l + csum[q];
			if (best < 0 || m < bm || (m == bm && sm < bs)) {
				best = k;
				bm = m;
				bs = sm;
			}
		}
		/* the XY way within slack% of the best keeps the route on XY
		 * (fewer turns: fewer channel dependencies to layer) */
		q = ibu_xyd_hop(t, s, xd);
		if (best != xd && q >= 0 && dist[q] == dist[s] - 1) {
			long l = load[s * IBU_DIRS + xd];
			long m = l > cmax[q] ? l : cmax[q];

			if (m * 100 <= bm * (100 + slack)) {
				best = xd;
				bm = m;
				bs = l + csum[q];
			}
		}
		cmax[s] = bm;
		csum[s] = bs;
		g->dir[s * S + d] = (signed char)best;
		q = ibu_mesh_neighbour(t, s, best);
		g->xy[s * S + d] = (unsigned char)(best == xd &&
						   (q == d || g->xy[q * S + d]));
	}
}

static unsigned next_stamp(struct layers *L)
{
	if (++L->stamp == 0) {
		memset(L->seen, 0, 4 * (size_t)L->S * sizeof(unsigned));
		L->stamp = 1;
	}
	return L->stamp;
}

/*
 * A topological order of layer l's channels (Kahn): the placements below
 * keep it while they add dependencies, so that most need no search.  The
 * layers are acyclic whenever this runs (IBU_EINVAL if not: a bug).
 */
int ibu_xyd_order_layer(struct layers *L, int l, struct ibu_err *e)
{
	int C = 4 * L->S, c, k, head = 0, tail = 0, *q = L->stack;
	const unsigned char *succ = L->succ + (size_t)l * C;
	int *ord = L->ord + (size_t)l * C, *indeg = (int *)L->seen;

	for (c = 0; c < C && !succ[c]; c++)
		;
	if (c >= C) {	/* an empty layer (most of 15): Kahn's order */
		for (c = 0; c < C; c++)
			ord[c] = c;
		return IBU_OK;
	}
	memset(indeg, 0, (size_t)C * sizeof(int));
	for (c = 0; c < C; c++)
		for (k = 0; k < IBU_DIRS; k++)
			if (succ[c] & (1u << k))
				indeg[L->nb[c] * 4 + k]++;
	for (c = 0; c < C; c++)
		if (!indeg[c])
			q[tail++] = c;
	while (head < tail) {
		c = q[head];
		ord[c] = head++;
		for (k = 0; k < IBU_DIRS; k++)
			if ((succ[c] & (1u << k)) && --indeg[L->nb[c] * 4 + k] == 0)
				q[tail++] = L->nb[c] * 4 + k;
	}
	memset(L->seen, 0, (size_t)C * sizeof(unsigned));
	L->stamp = 0;
	if (tail < C)
		return ibu_err_set(e, IBU_EINVAL,
				   "internal: SL layer %d has a dependency cycle before the detours are placed",
				   l);
	return IBU_OK;
}

/* Channels reached from c through channels ordered below bound, into
 * out (*n of them); 1 as soon as one is stop (the new dependency closes
 * a cycle).  The pointers are read once: the loop writes through char
 * and int pointers the compiler must otherwise assume alias them. */
static int sweep_forward(struct layers *L, const unsigned char *succ,
			 const int *ord, int c, int bound, int stop,
			 struct slot *out, int *n)
{
	const int *nb = L->nb;
	unsigned *seen = L->seen, st = L->stamp;
	int *stack = L->stack, top = 0, m = *n, k;

	seen[c] = st;
	stack[top++] = c;
	while (top > 0) {
		int u = stack[--top], base = nb[u] * 4;
		unsigned bits = succ[u];

		out[m].ord = ord[u];
		out[m++].ch = u;
		for (k = 0; k < IBU_DIRS; k++) {
			int v = base + k;

			if (!(bits & (1u << k)))	/* u -> (the switch u enters, k) */
				continue;
			if (v == stop) {
				*n = m;
				return 1;
			}
			if (seen[v] != st && ord[v] < bound) {
				seen[v] = st;
				stack[top++] = v;
			}
		}
	}
	*n = m;
	return 0;
}

/* Channels from which c is reached through channels ordered above bound
 * (the dependencies into them), into out (*n of them). */
static void sweep_backward(struct layers *L, const unsigned char *succ,
			   const int *ord, int c, int bound, struct slot *out,
			   int *n)
{
	const int *nb = L->nb;
	unsigned *seen = L->seen, st = L->stamp;
	int *stack = L->stack, top = 0, m = *n, k;

	seen[c] = st;
	stack[top++] = c;
	while (top > 0) {
		int u = stack[--top], q = u / 4;

		out[m].ord = ord[u];
		out[m++].ch = u;
		for (k = 0; k < IBU_DIRS; k++) {
			/* (p, k) -> u, p behind q */
			int p = nb[q * 4 + (k + 2) % IBU_DIRS], v = p * 4 + k;

			if (p < 0 || !(succ[v] & (1u << (u % 4))))
				continue;
			if (seen[v] != st && ord[v] > bound) {
				seen[v] = st;
				stack[top++] = v;
			}
		}
	}
	*n = m;
}

/* The slots by ord (all distinct, within lo..hi): most sets are a dozen
 * channels, sorted in place; larger ones through tmp (hi - lo + 1
 * entries), by ord. */
static void sort_slots(struct slot *v, int n, int lo, int hi, int *tmp)
{
	int i, j;

	if (n > 32) {
		for (i = 0; i <= hi - lo; i++)
			tmp[i] = -1;
		for (i = 0; i < n; i++)
			tmp[v[i].ord - lo] = v[i].ch;
		for (i = 0, j = 0; i <= hi - lo; i++)
			if (tmp[i] >= 0) {
				v[j].ord = lo + i;
				v[j++].ch = tmp[i];
			}
		return;
	}
	for (i = 1; i < n; i++) {
		struct slot x = v[i];

		for (j = i; j > 0 && v[j - 1].ord > x.ord; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Adds the dependency x -> y to layer l, keeping its order: 1 (and the
 * order still valid) when it closes a cycle.  Only the channels ordered
 * between y and x are searched and, when it closes none, reordered
 * ([PearceKelly06]).
 */
static int insert(struct layers *L, int l, int x, int y)
{
	size_t C = 4 * (size_t)L->S;
	unsigned char *succ = L->succ + l * C;
	int *ord = L->ord + l * C, nf = 0, nb = 0, i, a, b;

	succ[x] |= (unsigned char)(1u << (y % 4));
	if (ord[x] < ord[y])
		return 0;
	if (x == y)
		return 1;
	next_stamp(L);
	if (sweep_forward(L, succ, ord, y, ord[x], x, L->fw, &nf))
		return 1;
	next_stamp(L);
	sweep_backward(L, succ, ord, x, ord[y], L->bw, &nb);
	/* both sets lie in ord[y]..ord[x] */
	sort_slots(L->fw, nf, ord[y], ord[x], L->stack);
	sort_slots(L->bw, nb, ord[y], ord[x], L->stack);
	/* the positions both held, in order (a merge of the two sorted
	 * lists): the backward set takes the first, the forward set the
	 * rest */
	for (i = 0, a = 0, b = 0; i < nb + nf; i++)
		L->stack[i] = b >= nf || (a < nb && L->bw[a].ord < L->fw[b].ord) ?
			      L->bw[a++].ord : L->fw[b++].ord;
	for (i = 0; i < nb; i++)
		ord[L->bw[i].ch] = L->stack[i];
	for (i = 0; i < nf; i++)
		ord[L->fw[i].ch] = L->stack[nb + i];
	return 0;
}

static int cyclic_from(const struct layers *L, const unsigned char *succ,
		       int c)
{
	int k;

	L->color[c] = 1;
	for (k = 0; k < IBU_DIRS; k++) {
		int nc = L->nb[c] * 4 + k;

		if (!(succ[c] & (1u << k)))
			continue;
		if (L->color[nc] == 1)
			return 1;
		if (!L->color[nc] && cyclic_from(L, succ, nc))
			return 1;
	}
	L->color[c] = 2;
	return 0;
}

static int cyclic(const struct layers *L, const unsigned char *succ)
{
	int c;

	memset(L->color, 0, 4 * (size_t)L->S);
	for (c = 0; c < 4 * L->S; c++)
		if (!L->color[c] && cyclic_from(L, succ, c))
			return 1;
	return 0;
}

/* The dependencies of every XY pair's route (xy 1: the same for every
 * multicast root and placement tried, computed once per plan), or of
 * every other pair's (xy 0), at once. */
static void add_pairs(const struct ibu_mesh *t, unsigned char *succ, int xy)
{
	int S = t->num_switches, s, d;

	for (s = 0; s < S; s++)
		for (d = 0; d < S; d++) {
			int u = s, prev = -1;

			if (s == d || t->dmg->dir[s * S + d] < 0 ||
			    t->dmg->xy[s * S + d] != xy ||
			    !ibu_mesh_present(t, s))
				continue;
			while (u != d) {
				int k = t->dmg->dir[u * S + d];

				if (prev >= 0)
					succ[prev] |= (unsigned char)(1u << k);
				prev = u * 4 + k;
				u = ibu_mesh_neighbour(t, u, k);
			}
		}
}

/* The hops of (s, d) into layer l one dependency at a time; 0 when none
 * closes a cycle, else 1 with the layer as before (saved: the old bytes
 * of the channels touched; the route visits each channel at most once).
 * A dependency the layer has is skipped: the order already holds it. */
int ibu_xyd_place_route(struct layers *L, const struct ibu_mesh *t, int l,
			int s, int d, int *ch, unsigned char *saved)
{
	unsigned char *succ = L->succ + (size_t)l * 4 * L->S;
	/* read once: the stores through succ may alias anything */
	const signed char *dir = t->dmg->dir + d;
	const int *nb = L->nb;
	int S = t->num_switches, n = 0, prev = -1, i;

	while (s != d) {
		int k = dir[s * S];

		if (prev >= 0 && !(succ[prev] & (1u << k))) {
			ch[n] = prev;
			saved[n++] = succ[prev];
			if (insert(L, l, prev, s * 4 + k)) {
				for (i = n - 1; i >= 0; i--)
					succ[ch[i]] = saved[i];
				return 1;
			}
		}
		prev = s * 4 + k;
		s = nb[prev];
	}
	return 0;
}

static int assign(struct ibu_mesh *t, struct layers *L, int max_layers,
		  int s, int d, int *ch, unsigned char *saved,
		  struct ibu_err *e)
{
	int S = t->num_switches, l;

	for (l = 0; l < max_layers; l++)
		if (!ibu_xyd_place_route(L, t, l, s, d, ch, saved)) {
			t->dmg->layer[s * S + d] = (unsigned char)l;
			if (l + 1 > L->num)
				L->num = l + 1;
			return IBU_OK;
		}
	return ibu_err_set(e, IBU_ETOPO,
			   "the detours need more than %d SL layers (N(%d,%d) to N(%d,%d) fits none)",
			   max_layers, t->sw[s].x, t->sw[s].y, t->sw[d].x,
			   t->sw[d].y);
}

/* s's neighbours in the multicast tree, a bit per direction (0 when s
 * is not in it): the flooding's dependencies depend on these alone, not
 * on the root nor the tree's orientation. */
static unsigned char tree_nbs(const struct ibu_mesh *t, int s)
{
	const struct ibu_mesh_damage *g = t->dmg;
	unsigned char nb = 0;
	int a, q;

	if (!g->mup || g->mup[s] < 0)
		return 0;
	for (a = 0; a < IBU_DIRS; a++) {
		q = ibu_xyd_hop(t, s, a);
		if (q >= 0 && (g->mup[s] == a ||
			       g->mup[q] == (a + 2) % IBU_DIRS))
			nb |= (unsigned char)(1u << a);
	}
	return nb;
}

/* Every dependency flooding the multicast spanning tree can make: in from
 * one tree neighbour, out to any other (a superset of every group's). */
void ibu_xyd_add_mcast_tree(const struct ibu_mesh *t, unsigned char *succ)
{
	int s, a, b;

	for (s = 0; s < t->num_switches; s++) {
		unsigned char nb = tree_nbs(t, s);

		for (a = 0; a < IBU_DIRS; a++)
			for (b = 0; b < IBU_DIRS; b++)
				if (a != b && (nb & (1u << a)) &&
				    (nb & (1u << b)))
					succ[ibu_mesh_neighbour(t, s, a) * 4 +
					     (a + 2) % IBU_DIRS] |=
						(unsigned char)(1u << b);
	}
}

/* The multicast tree's flooding into the lowest layer of from..to-1 it
 * keeps acyclic (its SL 0 maps to that layer's VLs). */
static int assign_mcast(struct ibu_mesh *t, struct layers *L, int from,
			int to, unsigned char *keep, struct ibu_err *e)
{
	size_t C = 4 * (size_t)L->S;
	int l;

	for (l = from; l < to; l++) {
		unsigned char *succ = L->succ + (size_t)l * C;

		memcpy(keep, succ, C);
		ibu_xyd_add_mcast_tree(t, succ);
		if (!cyclic(L, succ)) {
			t->dmg->mlayer = l;
			if (l + 1 > L->num)
				L->num = l + 1;
			return IBU_OK;
		}
		memcpy(succ, keep, C);
	}
	return ibu_err_set(e, IBU_ETOPO,
			   "the multicast tree's flooding fits none of %d SL layers",
			   to);
}

/* The XY pairs (xy 1) or the detour pairs (xy 0), lowest layer each;
 * detour pairs marked in L->prio go first (pass 0), the rest after. */
static int assign_pass(struct ibu_mesh *t, struct layers *L, int max_layers,
		       int xy, int by_dst, int *ch, unsigned char *saved,
		       struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, i, j, pass, rc = IBU_OK;

	for (i = 0; i < max_layers && !rc; i++)
		rc = ibu_xyd_order_layer(L, i, e);
	for (pass = xy || !L->prio; pass < 2 && !rc; pass++)
		for (i = 0; i < S && !rc; i++)
			for (j = 0; j < S && !rc; j++) {
				/* source-major or destination-major order */
				int s = by_dst ? j : i, d = by_dst ? i : j;

				if (s == d || g->dir[s * S + d] < 0 ||
				    !ibu_mesh_present(t, s) ||
				    g->xy[s * S + d] != xy ||
				    (L->prio && !xy &&
				     L->prio[s * S + d] != (pass == 0)))
					continue;
				if (!xy)
					g->detour_pairs++;
				rc = assign(t, L, max_layers, s, d, ch, saved,
					    e);
			}
	return rc;
}

/* Layer 0 first holds every XY pair at once (XY alone is acyclic), then
 * each detour pair and last the multicast flooding take the lowest layer
 * they keep acyclic. */
static void mcast_tree(struct ibu_mesh *t, int r, int cols_first,
		       int *queue);

/*
 * After the unicast pairs: the multicast flooding into layer 0 or 1 with
 * the current tree, else with the tree from any other root (row-first or
 * column-first), else (the tree restored) into the lowest layer it fits.
 * The unicast layers no longer depend on the tree here, so only the
 * tree's own dependencies are tried against them.
 */
static int place_mcast_last(struct ibu_mesh *t, struct layers *L,
			    int max_layers, unsigned char *keep,
			    struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, two = max_layers < 2 ? max_layers : 2;
	int root = g->mroot, r, kind, rc = IBU_ENOMEM;
	signed char *mup = malloc((size_t)S + 1);
	int *queue = malloc(((size_t)S + 1) * sizeof(int));
	struct ibu_err e2 = { 0 };

	if (mup && queue) {
		memcpy(mup, g->mup, (size_t)S);
		rc = assign_mcast(t, L, 0, two, keep, &e2);
		for (r = 0; rc && r < S; r++)
			for (kind = 0; rc && kind < 2; kind++)
				if (ibu_mesh_present(t, r)) {
					mcast_tree(t, r, kind, queue);
					rc = assign_mcast(t, L, 0, two, keep, &e2);
				}
		if (rc) {
			g->mroot = root;
			memcpy(g->mup, mup, (size_t)S);
			rc = assign_mcast(t, L, 0, max_layers, keep, e);
		}
	} else {
		ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	free(mup);
	free(queue);
	return rc;
}

void ibu_xyd_layers_free(struct layers *L)
{
	free(L->succ);
	free(L->color);
	free(L->seen);
	free(L->stack);
	free(L->nb);
	free(L->ord);
	free(L->fw);
	free(L->bw);
}

int ibu_xyd_layers_alloc(struct layers *L, const struct ibu_mesh *t,
			 int max_layers, struct ibu_err *e)
{
	size_t C = 4 * (size_t)L->S, c;

	L->succ = calloc((size_t)max_layers * C, 1);
	L->color = malloc(C);
	L->seen = calloc(C, sizeof(unsigned));
	L->stack = malloc(C * sizeof(int) + sizeof(int));
	L->nb = malloc(C * sizeof(int));
	L->ord = malloc((size_t)max_layers * C * sizeof(int));
	L->fw = malloc(C * sizeof(*L->fw));
	L->bw = malloc(C * sizeof(*L->bw));
	if (!L->succ || !L->color || !L->seen || !L->stack || !L->nb ||
	    !L->ord || !L->fw || !L->bw)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (c = 0; c < C; c++)
		L->nb[c] = ibu_mesh_neighbour(t, (int)(c / 4), (int)(c % 4));
	return IBU_OK;
}

static int layer_all(struct ibu_mesh *t, int max_layers, int mcast_at,
		     int by_dst, const unsigned char *prio,
		     const unsigned char *xyl, struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, c, rc;
	struct layers L = { .S = S, .num = 1, .prio = prio };
	int *ch = malloc((size_t)(S + 1) * sizeof(int));
	unsigned char *saved = malloc((size_t)S + 1), *keep = malloc(4 * (size_t)S);

	rc = ibu_xyd_layers_alloc(&L, t, max_layers, e);
	if (!rc && (!ch || !saved || !keep))
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	g->detour_pairs = 0;
	g->mlayer = 0;
	memset(g->layer, 0, (size_t)S * S);
	if (!rc && mcast_at >= 0)
		rc = assign_mcast(t, &L, mcast_at, mcast_at + 1, keep, e);
	if (!rc) {
		memcpy(keep, L.succ, 4 * (size_t)S);
		for (c = 0; c < 4 * S; c++)
			L.succ[c] |= xyl[c];
		if (cyclic(&L, L.succ)) {
			memcpy(L.succ, keep, 4 * (size_t)S);
			rc = assign_pass(t, &L, max_layers, 1, by_dst, ch, saved,
					 e);
		}
	}
	if (!rc)
		rc = assign_pass(t, &L, max_layers, 0, by_dst, ch, saved, e);
	if (!rc && mcast_at < 0)
		rc = place_mcast_last(t, &L, max_layers, keep, e);
	g->num_layers = L.num;
	free(ch);
	free(saved);
	free(keep);
	ibu_xyd_layers_free(&L);
	return rc;
}

/* Re-runs of one placement with the hard pairs first. */
#define RETRIES 4

/* Marks the detour pairs of the top layer in prio; how many are new. */
static int mark_top(const struct ibu_mesh *t, unsigned char *prio)
{
	const struct ibu_mesh_damage *g = t->dmg;
	size_t n = (size_t)t->num_switches * t->num_switches, i;
	int fresh = 0;

	for (i = 0; i < n; i++)
		if (!g->xy[i] && g->dir[i] >= 0 &&
		    g->layer[i] == g->num_layers - 1 && !prio[i]) {
			prio[i] = 1;
			fresh++;
		}
	return fresh;
}

/*
 * Three placements of the multicast flooding, each with the pairs in
 * source-major and in destination-major order (a destination's routing
 * tree placed together); the fewest layers win (the first on ties).
 * Placements:
 * the multicast flooding first into layer 0 (where XY + trees from a
 * middle-row root are acyclic on an intact mesh), first into layer 1
 * (with the detours rather than the XY pairs), or after every unicast
 * pair into the lowest layer it fits.
 */
static int best_layers(struct ibu_mesh *t, int max_layers,
		       const unsigned char *xyl, int lb, unsigned char *memo,
		       struct ibu_err *e)
{
	static const int order[] = { 0, 1, -1 };
	struct ibu_mesh_damage *g = t->dmg;
	size_t n = (size_t)t->num_switches * t->num_switches;
	unsigned char *best = malloc(n), *prio = calloc(n, 1);
	/* the tree of the best (place_mcast_last may pick another) */
	signed char *bmup = malloc((size_t)t->num_switches + 1);
	int i, bl = -1, bm = 0, rc = IBU_OK, retry = 0, marked, broot = 0;
	long bd = 0;

	if (!best || !prio || !bmup) {
		free(best);
		free(prio);
		free(bmup);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	/* no placement beats lb: the first to reach it is the best */
	for (i = 0; i < 6 && !(bl >= 0 && bl <= lb); i += !retry) {
		struct ibu_err e2 = { 0 };

		if (order[i % 3] >= max_layers ||
		    (order[i % 3] < 0 && !retry && memo[i / 3]))
			continue;
		if (!retry)
			memset(prio, 0, n);
		rc = layer_all(t, max_layers, order[i % 3], i / 3,
			       retry ? prio : NULL, xyl, &e2);
		/* in at most 2 layers, the multicast flooding placed last
		 * fails from every root once it fails from one: the unicast
		 * pairs do not depend on the root, and place_mcast_last()
		 * tries every root */
		if (order[i % 3] < 0 && !retry && rc == IBU_ETOPO &&
		    max_layers <= 2)
			memo[i / 3] = 1;
		/* beyond 2 layers: the detour pairs of the top layer go
		 * first next time, a few times over (LASH-like greedy
		 * packing depends on the order) */
		marked = !rc && g->num_layers > 2 && retry < RETRIES ?
			 mark_top(t, prio) : 0;
		retry = marked ? retry + 1 : 0;
		if (rc == IBU_ENOMEM)
			break;
		if (rc) {
			if (bl < 0)
				*e = e2;
			continue;
		}
		if (bl < 0 || g->num_layers < bl) {
			memcpy(best, g->layer, n);
			memcpy(bmup, g->mup, (size_t)t->num_switches);
			broot = g->mroot;
			bl = g->num_layers;
			bm = g->mlayer;
			bd = g->detour_pairs;
		}
	}
	if (rc == IBU_ENOMEM) {
		ibu_err_set(e, rc, "out of memory");
	} else if (bl >= 0) {
		memcpy(g->layer, best, n);
		memcpy(g->mup, bmup, (size_t)t->num_switches);
		g->mroot = broot;
		g->num_layers = bl;
		g->mlayer = bm;
		g->detour_pairs = bd;
		ibu_err_clear(e);
		rc = IBU_OK;
	}
	free(best);
	free(prio);
	free(bmup);
	return rc;
}

/* Root of the multicast tree: a switch of the middle row (the intact
 * mesh's root row) as close to the middle column as possible. */
static int mcast_root(const struct ibu_mesh *t, int nth)
{
	int off, dy, x0 = (t->m - 1) / 2, y0 = (t->n - 1) / 2;

	for (dy = 0; dy < t->n; dy++)
		for (off = 0; off < t->m; off++) {
			int k, y = y0 + ((dy & 1) ? (dy + 1) / 2 : -dy / 2);

			for (k = 0; k < 2; k++) {
				int x = x0 + (k ? -off : off);

				if (k && !off)
					continue;
				if (x >= 0 && x < t->m && y >= 0 && y < t->n &&
				    ibu_mesh_present(t, ibu_mesh_index(t, x, y)) &&
				    nth-- == 0)
					return ibu_mesh_index(t, x, y);
			}
		}
	return -1;
}

/* Attaches q to the tree through its neighbour in direction up. */
static void attach(struct ibu_mesh_damage *g, int q, int up, int *queue,
		   int *tail)
{
	g->mup[q] = (signed char)up;
	queue[(*tail)++] = q;
}

/* Walks from s in direction k while the cables survive, attaching every
 * switch not yet in the tree. */
static void walk(const struct ibu_mesh *t, int s, int k, int *queue,
		 int *tail)
{
	int q;

	while ((q = ibu_xyd_hop(t, s, k)) >= 0 && t->dmg->mup[q] < 0) {
		attach(t->dmg, q, (k + 2) % IBU_DIRS, queue, tail);
		s = q;
	}
}

/*
 * The spanning tree: first the union of the XY paths from the root that
 * survive (along the root's row both ways, then up and down each column
 * from it: the intact mesh's tree, whose flooding is free of cycles with
 * XY), then every other switch attached breadth first from the tree.
 */
static void mcast_tree(struct ibu_mesh *t, int r, int cols_first,
		       int *queue)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, tail = 0, head, row, k;
	/* the root's row then the columns, or its column then the rows */
	int a = cols_first ? IBU_DIR_N : IBU_DIR_E;
	int b = cols_first ? IBU_DIR_E : IBU_DIR_N;

	memset(g->mup, -1, (size_t)S);
	g->mroot = r;
	attach(g, r, IBU_DIR_LOCAL, queue, &tail);
	walk(t, r, a, queue, &tail);
	walk(t, r, (a + 2) % IBU_DIRS, queue, &tail);
	row = tail;
	for (head = 0; head < row; head++) {
		walk(t, queue[head], b, queue, &tail);
		walk(t, queue[head], (b + 2) % IBU_DIRS, queue, &tail);
	}
	for (head = 0; head < tail; head++)
		for (k = 0; k < IBU_DIRS; k++) {
			int q = ibu_xyd_hop(t, queue[head], k);

			if (q >= 0 && g->mup[q] < 0)
				attach(g, q, (k + 2) % IBU_DIRS, queue, &tail);
		}
}

/*
 * xyl: the XY pairs' dependencies; *lb: 2 when every unicast route in one
 * layer closes a cycle (no plan has fewer layers), else 1.  Once a plan
 * reaches *lb, no later root or placement can replace it (they replace
 * only with fewer layers), so the search stops there with the same plan.
 */
static int fewest_layers(const struct ibu_mesh *t, unsigned char *xyl,
			 int *lb, struct ibu_err *e)
{
	struct layers L = { .S = t->num_switches };
	int rc = ibu_xyd_layers_alloc(&L, t, 1, e);

	add_pairs(t, xyl, 1);
	if (!rc) {
		memcpy(L.succ, xyl, 4 * (size_t)L.S);
		add_pairs(t, L.succ, 0);
		*lb = cyclic(&L, L.succ) ? 2 : 1;
	}
	ibu_xyd_layers_free(&L);
	return rc;
}

/*
 * The trees best_root() has placed.  Two roots can span the same
 * undirected tree (along an intact row, say), whose flooding makes the
 * same dependencies; best_layers() depends on the tree only through them
 * (and on its memo), so from the later root it would end exactly as from
 * the first: as many layers, which cannot replace the first (a root wins
 * with fewer), or the same error.  Only that error is kept.
 */
struct tried {
	int n, cap, S;
	unsigned char *key;	/* [cap][S + 2] tree_nbs() of every switch,
				 * then best_layers()'s memo before */
	struct ibu_err *err;	/* [cap] its error, code 0: it placed */
};

static int tried_init(struct tried *tr, int S, int cap)
{
	tr->n = 0;
	tr->S = S;
	tr->cap = cap;
	tr->key = malloc((size_t)cap * (size_t)(S + 2) + 1);
	tr->err = malloc((size_t)cap * sizeof(*tr->err) + 1);
	return tr->key && tr->err ? IBU_OK : IBU_ENOMEM;
}

static void tried_free(struct tried *tr)
{
	free(tr->key);
	free(tr->err);
}

/* The current tree with memo: 1 when tried before (its error in *e2),
 * else 0 with its key in the next slot for tried_keep(). */
static int tried_before(struct tried *tr, const struct ibu_mesh *t,
			const unsigned char *memo, struct ibu_err *e2)
{
	size_t len = (size_t)tr->S + 2;
	unsigned char *k;
	int s, i;

	if (tr->n >= tr->cap)
		return 0;
	k = tr->key + (size_t)tr->n * len;
	for (s = 0; s < tr->S; s++)
		k[s] = tree_nbs(t, s);
	k[tr->S] = memo[0];
	k[tr->S + 1] = memo[1];
	for (i = 0; i < tr->n; i++)
		if (!memcmp(tr->key + (size_t)i * len, k, len)) {
			*e2 = tr->err[i];
			return 1;
		}
	return 0;
}

/* Keeps the tree tried_before() keyed, with the error best_layers()
 * ended with (code 0: it placed). */
static void tried_keep(struct tried *tr, int rc, const struct ibu_err *e2)
{
	if (tr->n >= tr->cap)
		return;
	tr->err[tr->n] = *e2;
	if (!rc)
		tr->err[tr->n].code = 0;
	tr->n++;
}

/* Multicast roots tried: the switches nearest the middle of the middle
 * row first; the one giving the fewest layers wins (the first on ties). */
#define ROOT_CANDIDATES 16
/* ... on meshes of up to this many switches; larger ones try 2 (the plan
 * runs inside an OpenSM sweep: 16x16 with 8 cuts takes about 0.5 s) */
#define ROOT_CANDIDATES_UPTO 100

static int best_root(struct ibu_mesh *t, int max_layers, int *queue,
		     struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	size_t S = (size_t)t->num_switches;
	unsigned char *layer = malloc(S * S), *xyl = calloc(4 * S, 1);
	signed char *mup = malloc(S);
	int i, r, k, best = -1, bl = 0, bm = 0, rc = IBU_OK, lb = 1;
	int cand = S <= ROOT_CANDIDATES_UPTO ? ROOT_CANDIDATES : 2;
	unsigned char memo[2] = { 0, 0 };	/* see best_layers() */
	struct tried tr;
	long bd = 0;

	if (cand > (int)S)
		cand = (int)S;
	/* at most 2S roots tried, cand on larger meshes (see below) */
	if (tried_init(&tr, (int)S,
		       S <= ROOT_CANDIDATES_UPTO ? 2 * (int)S : cand) ||
	    !layer || !mup || !xyl)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	else
		rc = fewest_layers(t, xyl, &lb, e);
	/* row-first trees from the first candidates; then, on small meshes
	 * while more than 2 layers, column-first ones and every other root */
	for (i = 0; !rc && i < 2 * (int)S; i++) {
		struct ibu_err e2 = { 0 };
		int nth = i < 2 * cand ? i % cand : i / 2;
		int cols = i < 2 * cand ? i >= cand : i % 2;

		if ((best >= 0 && bl <= lb) ||
		    (i >= cand && (S > ROOT_CANDIDATES_UPTO ||
				   (best >= 0 && bl <= 2))))
			break;
		if ((i >= 2 * cand && nth < cand) ||
		    (r = mcast_root(t, nth)) < 0)
			continue;
		mcast_tree(t, r, cols, queue);
		if (tried_before(&tr, t, memo, &e2)) {
			if (e2.code && best < 0)
				*e = e2;
			continue;
		}
		k = best_layers(t, max_layers, xyl, lb, memo, &e2);
		tried_keep(&tr, k, &e2);
		if (k) {
			if (e2.code == IBU_ENOMEM)
				rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
			else if (best < 0)
				*e = e2;
			continue;
		}
		if (best < 0 || g->num_layers < bl) {
			best = g->mroot;	/* place_mcast_last may move it */
			bl = g->num_layers;
			bm = g->mlayer;
			bd = g->detour_pairs;
			memcpy(layer, g->layer, S * S);
			memcpy(mup, g->mup, S);
		}
	}
	if (!rc && best < 0 && !e->code)
		rc = ibu_err_set(e, IBU_ETOPO, "no multicast root: no switch present");
	else if (!rc && best < 0)
		rc = e->code;
	if (!rc) {
		ibu_err_clear(e);
		g->mroot = best;
		g->num_layers = bl;
		g->mlayer = bm;
		g->detour_pairs = bd;
		memcpy(g->layer, layer, S * S);
		memcpy(g->mup, mup, S);
	}
	free(layer);
	free(mup);
	free(xyl);
	tried_free(&tr);
	return rc;
}

static int plan_trees(struct ibu_mesh *t, int max_layers, int balanced,
		      int layers, long *busiest, struct ibu_err *e);

/* Fresh plan arrays (the old ones freed); IBU_ENOMEM. */
static int plan_arrays(struct ibu_mesh_damage *g, size_t S)
{
	free(g->dir);
	free(g->xy);
	free(g->layer);
	free(g->mup);
	g->mup = malloc(S + 1);
	g->dir = malloc(S * S);
	g->xy = calloc(S * S, 1);
	g->layer = calloc(S * S, 1);
	g->detour_pairs = 0;
	return g->dir && g->xy && g->layer && g->mup ? IBU_OK : IBU_ENOMEM;
}

/* Missing destinations: nothing reaches them. */
static void unreached_missing(const struct ibu_mesh *t)
{
	size_t S = (size_t)t->num_switches, s, d;

	for (d = 0; d < S; d++)
		if (!ibu_mesh_present(t, (int)d))
			for (s = 0; s < S; s++)
				t->dmg->dir[s * S + d] = -1;
}

/* A plan's arrays and figures, kept aside while another is tried. */
struct kept_plan {
	signed char *dir, *mup;
	unsigned char *xy, *layer;
	int mroot, mlayer, num_layers;
	long detour_pairs;
};

/* Takes (put 0) the plan out of g into p, or puts (put 1) p back into g
 * (g's own arrays freed). */
static void plan_swap(struct ibu_mesh_damage *g, struct kept_plan *p, int put)
{
	struct kept_plan q = { g->dir, g->mup, g->xy, g->layer, g->mroot,
			       g->mlayer, g->num_layers, g->detour_pairs };

	if (put) {
		free(g->dir);
		free(g->mup);
		free(g->xy);
		free(g->layer);
		q = *p;
	} else {
		*p = q;
		q.dir = q.mup = NULL;
		q.xy = q.layer = NULL;
	}
	g->dir = q.dir;
	g->mup = q.mup;
	g->xy = q.xy;
	g->layer = q.layer;
	g->mroot = q.mroot;
	g->mlayer = q.mlayer;
	g->num_layers = q.num_layers;
	g->detour_pairs = q.detour_pairs;
}

/* The plan's all-to-all: busiest channel, sum of squared loads. */
static int plan_score(const struct ibu_mesh *t, long *max, double *sq)
{
	size_t S = (size_t)t->num_switches;
	int *dist = malloc(S * sizeof(int)), *queue = malloc(S * sizeof(int));
	long *load = calloc(S * IBU_DIRS + 1, sizeof(long));
	long *w = calloc(S + 1, sizeof(long));
	int d, rc = dist && queue && load && w ? IBU_OK : IBU_ENOMEM;

	*max = 0;
	*sq = 0;
	for (d = 0; !rc && d < (int)S; d++)
		if (ibu_mesh_present(t, d))
			ibu_xyd_add_flows(t, d, queue,
					  ibu_xyd_distances(t, d, dist, queue),
					  w, load, 1);
	for (d = 0; !rc && d < IBU_DIRS * (int)S; d++) {
		if (load[d] > *max)
			*max = load[d];
		*sq += (double)load[d] * (double)load[d];
	}
	free(dist);
	free(queue);
	free(load);
	free(w);
	return rc;
}

/*
 * A balanced plan rebalanced can sit in a worse spot than the XY-first
 * plan rebalanced in the same number of layers (the balanced trees fix
 * their detours before the rebalance sees the whole load): the XY-first
 * plan is tried too, and kept when its busiest channel (then sum of
 * squared loads) is lower.  Its failing to fit leaves the plan as it was.
 */
static int xy_first_too(struct ibu_mesh *t, int max_layers, struct ibu_err *e)
{
	struct kept_plan p;
	long m0, m1, b;
	double q0, q1;
	int rc = plan_score(t, &m0, &q0);

	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	plan_swap(t->dmg, &p, 0);
	rc = plan_trees(t, max_layers, 0, 1, &b, e);
	if (!rc)
		rc = ibu_xyd_improve_plan(t, e);
	if (!rc)
		rc = plan_score(t, &m1, &q1);
	if (!rc && (m1 < m0 || (m1 == m0 && q1 < q0))) {
		free(p.dir);		/* the XY-first plan stays */
		free(p.mup);
		free(p.xy);
		free(p.layer);
		return IBU_OK;
	}
	plan_swap(t->dmg, &p, 1);
	if (rc == IBU_ENOMEM)
		return ibu_err_set(e, rc, "out of memory");
	if (rc == IBU_EINVAL)
		return rc;
	ibu_err_clear(e);
	return IBU_OK;
}

/*
 * Trees built and placed together in nl layers (ibu_xyd_layered_plan()),
 * around the multicast flooding of a tree from each root in turn
 * (row-first and column-first; the 16 middle roots on meshes above 100
 * switches) placed first, in layer 0 then 1.  Fixed trees packed
 * greedily can leave the rebalance little room where the faults are
 * close together (seed 53's m40, a 10x10 mesh without a switch and 4
 * cables: 439 against minhop's 401); trees that take their layers as
 * they grow leave it more (304).  For each slack (the XY-first ways,
 * then the balanced ones within 100%; then within 0%, only while the
 * plan needs more than nl layers), the first root that fits is
 * rebalanced and replaces the plan when the plan needs more than nl
 * layers or has a busier channel (then a higher sum of squared loads).
 * None fitting leaves the plan as it was.
 */
static int layered_too(struct ibu_mesh *t, int nl, struct ibu_err *e)
{
	static const int slack[] = { -1, 100, 0 };
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, i, ml, nth, r, rc = IBU_OK;
	/* every root on small meshes, the middle ones on larger (a try
	 * that fails ends early, but larger meshes have more) */
	int roots = S <= ROOT_CANDIDATES_UPTO ? S : ROOT_CANDIDATES;
	/* a plan that fits is tried against the alternatives up to 100
	 * switches (each costs a plan and its rebalance: 1.5 s of CPU on
	 * 24x24 with 3 cuts, for 2% off the busiest channel) */
	int alt = S <= ROOT_CANDIDATES_UPTO ? 2 : 0;
	int *queue = malloc(((size_t)S + 1) * sizeof(int));
	struct ibu_err e2 = { 0 };
	struct kept_plan p;
	long m0 = LONG_MAX, m1;
	double q0 = 0, q1;

	if (!queue || (g->num_layers <= nl && plan_score(t, &m0, &q0))) {
		free(queue);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (i = 0; i < 3 && (i < alt || g->num_layers > nl); i++) {
		plan_swap(g, &p, 0);
		rc = plan_arrays(g, (size_t)S) ? IBU_ENOMEM : IBU_ETOPO;
		for (ml = 0; rc == IBU_ETOPO && ml < nl; ml++)
			for (nth = 0; rc == IBU_ETOPO && nth < 2 * roots;
			     nth++) {
				r = mcast_root(t, nth / 2);
				if (r < 0)
					continue;
				mcast_tree(t, r, nth % 2, queue);
				rc = ibu_xyd_layered_plan(t, nl, ml, slack[i],
							  &e2);
			}
		if (!rc) {
			unreached_missing(t);
			rc = ibu_xyd_improve_plan(t, &e2);
		}
		if (!rc && (rc = plan_score(t, &m1, &q1)) == IBU_OK &&
		    (m1 < m0 || (m1 == m0 && q1 < q0))) {
			free(p.dir);	/* the layered plan stays */
			free(p.mup);
			free(p.xy);
			free(p.layer);
			m0 = m1;
			q0 = q1;
			continue;
		}
		plan_swap(g, &p, 1);
		if (rc == IBU_ENOMEM || rc == IBU_EINVAL)
			break;
		rc = IBU_OK;
	}
	free(queue);
	if (rc)
		return ibu_err_set(e, rc, "%s", rc == IBU_ENOMEM ?
				   "out of memory" : e2.msg);
	return IBU_OK;
}

/*
 * The balanced trees first (the detours and the XY traffic around them
 * spread by load); kept when they fit in at most two SL layers, else the
 * XY-first trees.  The kinds' trees alone give their busiest channels;
 * the layers (the costly part) are placed in that order, and the first
 * kind that fits is the plan (the least busiest that fits, the first on
 * ties).
 */
int ibu_xy_detour_plan(struct ibu_mesh *t, int max_layers, struct ibu_err *e)
{
	/* balanced with the XY way kept within 0, 25 and 100% of the best,
	 * then XY first */
	static const int kind[] = { 1, 1 + 25, 1 + 100, 0 };
	enum { KINDS = sizeof(kind) / sizeof(kind[0]) };
	struct ibu_err e2 = { 0 }, exy = { 0 };
	long busiest[KINDS], b;
	int i, j, rc, order[KINDS];

	for (i = 0; i < KINDS; i++) {
		rc = plan_trees(t, max_layers, kind[i], 0, &busiest[i], &e2);
		if (rc)
			return ibu_err_set(e, rc, "%s", e2.msg);
		for (j = i; j > 0 && busiest[order[j - 1]] > busiest[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (j = 0; j < KINDS; j++) {
		i = order[j];
		rc = plan_trees(t, kind[i] ? (max_layers < 2 ? max_layers : 2) :
				max_layers, kind[i], 1, &b, &e2);
		if (rc == IBU_OK)
			rc = ibu_xyd_improve_plan(t, &e2);
		if (rc == IBU_OK && kind[i])
			rc = xy_first_too(t, max_layers < 2 ? max_layers : 2,
					  &e2);
		if (rc == IBU_OK)
			rc = layered_too(t, max_layers < 2 ? max_layers : 2,
					 &e2);
		if (rc == IBU_OK || rc == IBU_ENOMEM || rc == IBU_EINVAL)
			return rc ? ibu_err_set(e, rc, "%s", e2.msg) : IBU_OK;
		if (!kind[i])
			exy = e2;
	}
	/* the XY-first plan's reason */
	return ibu_err_set(e, exy.code, "%s", exy.msg);
}

/* One plan: trees (balanced: 1 + the slack in %, 0: XY first), then
 * (layers) the SL layers; *busiest: the all-to-all's busiest channel. */
static int plan_trees(struct ibu_mesh *t, int max_layers, int balanced,
		      int layers, long *busiest, struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	size_t S = (size_t)t->num_switches;
	int *dist, *queue, *turns, d, rc = IBU_OK, reached;
	long *load, *w;

	if (!g)
		return ibu_err_set(e, IBU_EINVAL, "the mesh is not damaged");
	dist = malloc(S * sizeof(int));
	queue = malloc(S * sizeof(int));
	turns = malloc(S * sizeof(int));
	load = calloc(S * IBU_DIRS + 1, sizeof(long));
	w = calloc(2 * S + 1, sizeof(long));
	if (max_layers < 1 || max_layers > 15)
		max_layers = 15;
	if (plan_arrays(g, S) || !dist || !queue || !turns || !load || !w)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (d = 0; !rc && d < (int)S; d++) {
		if (!ibu_mesh_present(t, d))
			continue;
		reached = ibu_xyd_distances(t, d, dist, queue);
		if (balanced)
			tree_balanced(t, d, dist, queue, reached, load, w,
				      w + S, balanced - 1);
		else
			tree(t, d, dist, queue, reached, turns);
		ibu_xyd_add_flows(t, d, queue, reached, w, load, 1);
	}
	*busiest = 0;
	for (d = 0; load && d < 4 * (int)S; d++)
		if (load[d] > *busiest)
			*busiest = load[d];
	free(load);
	free(w);
	if (!rc)
		unreached_missing(t);
	if (!rc && layers)
		rc = best_root(t, max_layers, queue, e);
	free(dist);
	free(queue);
	free(turns);
	return rc;
}

int ibu_xy_detour_dir(const struct ibu_mesh *t, int sw, int dst)
{
	int S = t->num_switches;

	if (!t->dmg || !t->dmg->dir || sw < 0 || sw >= S || dst < 0 ||
	    dst >= S)
		return -1;
	return t->dmg->dir[sw * S + dst];
}

int ibu_xy_detour_layer(const struct ibu_mesh *t, int src, int dst)
{
	int S = t->num_switches;

	if (!t->dmg || !t->dmg->layer || src < 0 || src >= S || dst < 0 ||
	    dst >= S)
		return 0;
	return t->dmg->layer[src * S + dst];
}

int ibu_xy_detour_num_vls(const struct ibu_mesh *t, enum ibu_vlplan_kind k)
{
	int l = t->dmg && t->dmg->num_layers > 0 ? t->dmg->num_layers : 1;

	return l * ibu_vlplan_num_vls(k);
}

/* switch of an end point: the switch itself or the one its port hangs on */
static int switch_of(const struct ibu_mesh *t, int node, int port)
{
	int s = ibu_mesh_sw(t, node), ep;

	if (s >= 0)
		return s;
	ep = ibu_mesh_ep(t, node, port);
	return ep < 0 ? -1 : t->ep[ep].sw;
}

int ibu_xy_detour_path_sl(const struct ibu_mesh *t, enum ibu_vlplan_kind k,
			  const struct ibu_lidmap *map, int src_node,
			  int src_port, uint32_t dlid)
{
	const struct ibu_lid_owner *o;
	int a, b, P = ibu_vlplan_num_vls(k), psl;

	if (dlid >= IBU_MCAST_LID_BASE)
		return 0;	/* multicast runs in layer 0 */
	o = ibu_lidmap_get(map, dlid);
	a = ibu_vlplan_point(t, src_node, src_port);
	b = o ? ibu_vlplan_point(t, o->node, o->port) : -1;
	if (a < 0 || b < 0)
		return 0;
	psl = ibu_vlplan_path_sl(k, (unsigned)a, (unsigned)b);
	return 1 + ibu_xy_detour_layer(t, switch_of(t, src_node, src_port),
				       switch_of(t, o->node, o->port)) * P + psl;
}

int ibu_xy_detour_sl2vl(enum ibu_vlplan_kind k, const struct ibu_mesh *t,
			int node, int in_port, int out_port,
			uint8_t vl_of_sl[16])
{
	int P = ibu_vlplan_num_vls(k), L = ibu_xy_detour_num_vls(t, k) / P,
	    sl, rc;
	uint8_t plan[16];

	rc = ibu_vlplan_sl2vl(k, t, node, in_port, out_port, plan);
	if (rc)
		return rc;
	vl_of_sl[0] = (uint8_t)((t->dmg ? t->dmg->mlayer : 0) * P + plan[0]);
	for (sl = 1; sl < 16; sl++) {
		int u = sl - 1, layer = u / P < L ? u / P : 0;

		vl_of_sl[sl] = (uint8_t)(layer * P + plan[u % P]);
	}
	return IBU_OK;
}

static int cdg_sl(void *arg, int src_node, int src_port, uint32_t dlid)
{
	const struct ibu_vlplan_cdg *c = arg;

	return ibu_xy_detour_path_sl(c->t, c->kind, c->map, src_node, src_port,
				     dlid);
}

static int cdg_vl(void *arg, int node, int in_port, int out_port, int sl)
{
	const struct ibu_vlplan_cdg *c = arg;
	uint8_t v[16];

	if (ibu_xy_detour_sl2vl(c->kind, c->t, node, in_port, out_port, v))
		return -1;
	return v[sl & 15];
}

void ibu_xy_detour_cdg_vl(struct ibu_cdg_vl *vl, struct ibu_vlplan_cdg *ctx)
{
	memset(vl, 0, sizeof(*vl));
	vl->num_vls = ibu_xy_detour_num_vls(ctx->t, ctx->kind);
	vl->path_sl = cdg_sl;
	vl->vl = cdg_vl;
	vl->ctx = ctx;
}

int ibu_xy_detour_why(const struct ibu_mesh *t, int src, int dst, char *buf,
		      size_t len)
{
	char a[32], b[32], c[32], n[32];
	int s = src;

	ibu_mesh_sw_label(t, src, a, sizeof(a));
	ibu_mesh_sw_label(t, dst, b, sizeof(b));
	while (s != dst) {
		int k = ibu_xy_dir(t, s, dst), q = ibu_mesh_neighbour(t, s, k);

		if (ibu_xyd_hop(t, s, k) < 0) {
			ibu_mesh_sw_label(t, s, c, sizeof(c));
			ibu_mesh_sw_label(t, q, n, sizeof(n));
			if (!ibu_mesh_present(t, q))
				snprintf(buf, len, "the XY path %s -> %s meets missing switch %s",
					 a, b, n);
			else
				snprintf(buf, len, "the XY path %s -> %s meets missing cable %s %s - %s",
					 a, b, c, ibu_dir_name(k), n);
			return 1;
		}
		s = q;
	}
	snprintf(buf, len, "the XY path %s -> %s survives", a, b);
	return 0;
}
