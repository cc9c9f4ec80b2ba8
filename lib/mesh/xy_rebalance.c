/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Rebalancing a damaged mesh's plan inside its SL layers (see
 * xy_detour_int.h). */
#include <stdlib.h>
#include <string.h>
#include "xy.h"
#include "xy_detour.h"
#include "xy_detour_int.h"

/*
 * Layered trees: the balanced trees built and placed in the SL layers
 * together, destination by destination, switch by switch (nearest to the
 * destination first).  A switch takes the first of its shortest ways, in
 * the balanced order, whose whole route fits a layer with what is placed
 * so far; the balanced choice where it fits, another shortest way where
 * the balanced one would close a cycle in every layer.  So a mesh whose
 * balanced trees need a third layer keeps them wherever two suffice,
 * instead of falling back to XY-first trees everywhere.
 */

/* The shortest ways at s toward d, best first: least busiest channel
 * onward, then least load sum (ties: XY, then E, W, N, S), the XY way
 * first when within slack% of the best (tree_balanced's choice first). */
static int ranked_ways(const struct ibu_mesh *t, int s, int d, const int *dist,
		       const long *load, const long *cmax, const long *csum,
		       int slack, int *way)
{
	int xd = ibu_xy_dir(t, s, d), n = 0, j, i, k, q;
	long m[IBU_DIRS], sm[IBU_DIRS], l;

	for (j = -1; j < IBU_DIRS; j++) {
		k = j < 0 ? xd : ibu_xyd_pref[j];
		q = ibu_xyd_hop(t, s, k);
		if ((j >= 0 && k == xd) || q < 0 || dist[q] != dist[s] - 1)
			continue;
		l = load[s * IBU_DIRS + k];
		for (i = n++; i > 0; i--) {	/* stable insertion */
			long mi = l > cmax[q] ? l : cmax[q];

			if (m[i - 1] < mi || (m[i - 1] == mi &&
					      sm[i - 1] <= l + csum[q]))
				break;
			way[i] = way[i - 1];
			m[i] = m[i - 1];
			sm[i] = sm[i - 1];
		}
		way[i] = k;
		m[i] = l > cmax[q] ? l : cmax[q];
		sm[i] = l + csum[q];
	}
	for (i = 1; i < n && way[i] != xd; i++)
		;
	if (i < n && m[i] * 100 <= m[0] * (100 + slack)) {
		for (; i > 0; i--)
			way[i] = way[i - 1];
		way[0] = xd;
	}
	return n;
}

/* The XY-first tree's ways at s toward d: the XY way alone where the XY
 * path survives, else the shortest ways by fewest turns to d (ties: E,
 * W, N, S); turns[] of the switches nearer d. */
static int ranked_ways_xy(const struct ibu_mesh *t, int s, int d,
			  const int *dist, const int *turns, int *way)
{
	const struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, n = 0, i, j, k, q, tr[IBU_DIRS];

	if (ibu_xyd_xy_survives(t, s, d)) {
		way[0] = ibu_xy_dir(t, s, d);
		return 1;
	}
	for (j = 0; j < IBU_DIRS; j++) {
		k = ibu_xyd_pref[j];
		q = ibu_xyd_hop(t, s, k);
		if (q < 0 || dist[q] != dist[s] - 1)
			continue;
		for (i = n++; i > 0 && tr[i - 1] > turns[q] +
			     (q != d && g->dir[q * S + d] != k); i--) {
			way[i] = way[i - 1];
			tr[i] = tr[i - 1];
		}
		way[i] = k;
		tr[i] = turns[q] + (q != d && g->dir[q * S + d] != k);
	}
	return n;
}

struct mixed {
	struct layers L;
	int nl;				/* layers allowed */
	int slack;			/* -1: XY-first ways */
	int *turns;			/* [switch] turns to d (XY first) */
	int *ch;			/* ibu_xyd_place_route()'s scratch */
	unsigned char *saved;
	long fallbacks;			/* switches off their first way */
	int by_x;			/* see fit_layer() */
	int *cnt;			/* [layer][channel][dir] routes that
					 * make the dependency, NULL: not kept */
};

/* 1 when the route of (s, d) moves west and never east. */
static int route_west(const struct ibu_mesh *t, int s, int d)
{
	int S = t->num_switches, k, w = 0;

	for (; s != d; s = ibu_mesh_neighbour(t, s, k)) {
		k = t->dmg->dir[s * S + d];
		if (k == IBU_DIR_E)
			return 0;
		w |= k == IBU_DIR_W;
	}
	return w;
}

/* The layer (s, d)'s route is placed in, -1 when none fits: the lowest
 * first, or (by_x) for a route that moves west and never east the
 * highest first (as in a double-Y split, eastward and westward routes in
 * layers of their own). */
static int fit_layer(const struct ibu_mesh *t, struct mixed *x, int s, int d)
{
	int i, l, first = x->by_x && route_west(t, s, d) ? x->nl - 1 : 0;

	for (i = 0; i < x->nl; i++) {
		l = i == 0 ? first : i == first ? 0 : i;
		if (!ibu_xyd_place_route(&x->L, t, l, s, d, x->ch, x->saved))
			return l;
	}
	return -1;
}

/* Counts the dependencies of (s, d)'s route in its layer in (delta 1) or
 * out (-1: a dependency no route keeps leaves the layer; the layer's
 * order stays valid). */
static void route_deps(const struct ibu_mesh *t, struct mixed *x, int s,
		       int d, int delta)
{
	int S = t->num_switches, l = t->dmg->layer[s * S + d], prev = -1, k;
	size_t C = 4 * (size_t)S;
	unsigned char *succ = x->L.succ + l * C;
	int *cnt = x->cnt + l * C * IBU_DIRS;

	for (; s != d; prev = s * 4 + k, s = ibu_mesh_neighbour(t, s, k)) {
		k = t->dmg->dir[s * S + d];
		if (prev < 0)
			continue;
		cnt[prev * IBU_DIRS + k] += delta;
		if (cnt[prev * IBU_DIRS + k] > 0)
			succ[prev] |= (unsigned char)(1u << k);
		else
			succ[prev] &= (unsigned char)~(1u << k);
	}
}

/* d's tree and its pairs' layers, switch by switch (queue: BFS from d);
 * IBU_ETOPO when a switch has no shortest way that fits a layer. */
static int tree_layered(struct ibu_mesh *t, struct mixed *x, int d,
			const int *dist, const int *queue, int reached,
			const long *load, long *cmax, long *csum,
			struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, i, c, n, l = 0, k = -1, q;
	int way[IBU_DIRS];

	ibu_xyd_clear_tree(g, S, d);
	cmax[d] = csum[d] = 0;
	x->turns[d] = 0;
	for (i = 1; i < reached; i++) {
		int s = queue[i];

		n = x->slack < 0 ?
		    ranked_ways_xy(t, s, d, dist, x->turns, way) :
		    ranked_ways(t, s, d, dist, load, cmax, csum, x->slack,
				way);
		for (c = 0; c < n; c++) {
			g->dir[s * S + d] = (signed char)(k = way[c]);
			l = fit_layer(t, x, s, d);
			if (l >= 0)
				break;
		}
		if (c == n) {
			while (x->cnt && --i > 0)	/* d's pairs out again */
				route_deps(t, x, queue[i], d, -1);
			return ibu_err_set(e, IBU_ETOPO,
					   "the layered trees need more than %d SL layers (N(%d,%d) to N(%d,%d))",
					   x->nl, t->sw[s].x, t->sw[s].y,
					   t->sw[d].x, t->sw[d].y);
		}
		x->fallbacks += c > 0;
		g->layer[s * S + d] = (unsigned char)l;
		if (x->cnt)
			route_deps(t, x, s, d, 1);
		q = ibu_mesh_neighbour(t, s, k);
		x->turns[s] = x->turns[q] + (q != d && g->dir[q * S + d] != k);
		cmax[s] = load[s * IBU_DIRS + k] > cmax[q] ?
			  load[s * IBU_DIRS + k] : cmax[q];
		csum[s] = load[s * IBU_DIRS + k] + csum[q];
		g->xy[s * S + d] = (unsigned char)(k == ibu_xy_dir(t, s, d) &&
						   (q == d || g->xy[q * S + d]));
	}
	return IBU_OK;
}

/*
 * Rebalancing a plan inside its layers: destination by destination, the
 * tree is taken out (its flows and its pairs' dependencies) and built
 * again as tree_layered() does, over the flows of every other
 * destination; the new tree stays when the all-to-all's busiest channel
 * (then the sum of squared loads) is not higher, else the old one goes
 * back (it fitted before, so it fits again).  Like dfsssp's passes over
 * its weights, but every route stays a shortest path and the layers
 * stay free of cycles with the multicast flooding.
 */

static void loads_score(const long *load, int n, long *max, double *sq)
{
	int i;

	*max = 0;
	*sq = 0;
	for (i = 0; i < n; i++) {
		if (load[i] > *max)
			*max = load[i];
		*sq += (double)load[i] * (double)load[i];
	}
}

/* d's old tree back (columns in old: dir, layer, xy). */
static int restore_dst(struct ibu_mesh *t, struct mixed *x, int d,
		       const int *queue, int reached, const unsigned char *old,
		       struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, i, s;

	for (i = 0; i < S; i++) {
		g->dir[i * S + d] = (signed char)old[i];
		g->layer[i * S + d] = old[S + i];
		g->xy[i * S + d] = old[2 * S + i];
	}
	for (i = 1; i < reached; i++) {
		s = queue[i];
		if (ibu_xyd_place_route(&x->L, t, g->layer[s * S + d], s, d, x->ch,
				x->saved))
			return ibu_err_set(e, IBU_EINVAL,
					   "internal: a route that fitted its layer closes a cycle");
		route_deps(t, x, s, d, 1);
	}
	return IBU_OK;
}

/* One destination rebuilt; *better 1 when its new tree stays. */
static int improve_dst(struct ibu_mesh *t, struct mixed *x, int d, int *dist,
		       int *queue, long *load, long *w, unsigned char *old,
		       int *better, struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, reached = ibu_xyd_distances(t, d, dist, queue), i, rc;
	long m0, m1;
	double q0, q1;

	loads_score(load, 4 * S, &m0, &q0);
	for (i = 0; i < S; i++) {
		old[i] = (unsigned char)g->dir[i * S + d];
		old[S + i] = g->layer[i * S + d];
		old[2 * S + i] = g->xy[i * S + d];
	}
	ibu_xyd_add_flows(t, d, queue, reached, w, load, -1);
	for (i = 1; i < reached; i++)
		route_deps(t, x, queue[i], d, -1);
	rc = tree_layered(t, x, d, dist, queue, reached, load, w, w + S, e);
	*better = 0;
	if (!rc) {
		ibu_xyd_add_flows(t, d, queue, reached, w, load, 1);
		loads_score(load, 4 * S, &m1, &q1);
		if (m1 < m0 || (m1 == m0 && q1 < q0)) {
			*better = 1;
			return IBU_OK;
		}
		ibu_xyd_add_flows(t, d, queue, reached, w, load, -1);
		for (i = 1; i < reached; i++)
			route_deps(t, x, queue[i], d, -1);
	} else if (rc != IBU_ETOPO) {
		return rc;
	}
	ibu_err_clear(e);
	rc = restore_dst(t, x, d, queue, reached, old, e);
	if (!rc)
		ibu_xyd_add_flows(t, d, queue, reached, w, load, 1);
	return rc;
}

/* The plan's dependencies counted into x's layers, the multicast
 * flooding's for good; each layer ordered. */
static int count_plan(struct ibu_mesh *t, struct mixed *x, unsigned char *tmp,
		      struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, s, d, c, k, rc = IBU_OK;
	size_t C = 4 * (size_t)S;

	for (s = 0; s < S; s++)
		for (d = 0; d < S; d++)
			if (s != d && g->dir[s * S + d] >= 0 &&
			    ibu_mesh_present(t, s))
				route_deps(t, x, s, d, 1);
	memset(tmp, 0, C);
	ibu_xyd_add_mcast_tree(t, tmp);
	for (c = 0; c < 4 * S; c++)
		for (k = 0; k < IBU_DIRS; k++)
			if (tmp[c] & (1u << k)) {
				x->cnt[(g->mlayer * C + c) * IBU_DIRS + k]++;
				x->L.succ[g->mlayer * C + c] |=
					(unsigned char)(1u << k);
			}
	for (s = 0; !rc && s < x->nl; s++)
		rc = ibu_xyd_order_layer(&x->L, s, e);
	return rc;
}

#define IMPROVE_PASSES 3

/* Every destination rebuilt, in passes until none improves. */
static int improve_passes(struct ibu_mesh *t, struct mixed *x,
			  struct ibu_err *e)
{
	size_t S = (size_t)t->num_switches, i;
	int *dist = malloc(S * sizeof(int)), *queue = malloc(S * sizeof(int));
	long *load = calloc(S * IBU_DIRS + 1, sizeof(long));
	long *w = calloc(2 * S + 1, sizeof(long));
	unsigned char *old = malloc(4 * S + 1);
	int d, pass, better, improved = 1, rc = IBU_OK;

	if (!dist || !queue || !load || !w || !old)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	else
		rc = count_plan(t, x, old, e);
	for (d = 0; !rc && d < (int)S; d++)
		if (ibu_mesh_present(t, d))
			ibu_xyd_add_flows(t, d, queue, ibu_xyd_distances(t, d, dist, queue),
				  w, load, 1);
	for (pass = 0; !rc && improved && pass < IMPROVE_PASSES; pass++)
		for (improved = 0, d = 0; !rc && d < (int)S; d++)
			if (ibu_mesh_present(t, d)) {
				rc = improve_dst(t, x, d, dist, queue, load, w,
						 old, &better, e);
				improved += better;
			}
	for (i = 0, t->dmg->detour_pairs = 0; !rc && i < S * S; i++)
		t->dmg->detour_pairs += t->dmg->dir[i] >= 0 &&
					i / S != i % S && !t->dmg->xy[i];
	free(dist);
	free(queue);
	free(load);
	free(w);
	free(old);
	return rc;
}

/* The plan rebalanced inside its own layers (see above). */
int ibu_xyd_improve_plan(struct ibu_mesh *t, struct ibu_err *e)
{
	int S = t->num_switches, rc;
	struct mixed x = { .L = { .S = S, .num = 1 }, .slack = 0,
			   .nl = t->dmg->num_layers };

	x.ch = malloc((size_t)(S + 1) * sizeof(int));
	x.turns = malloc((size_t)(S + 1) * sizeof(int));
	x.saved = malloc((size_t)S + 1);
	x.cnt = calloc((size_t)x.nl * 4 * S * IBU_DIRS, sizeof(int));
	rc = ibu_xyd_layers_alloc(&x.L, t, x.nl, e);
	if (!rc && (!x.ch || !x.saved || !x.turns || !x.cnt))
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!rc)
		rc = improve_passes(t, &x, e);
	free(x.ch);
	free(x.turns);
	free(x.saved);
	free(x.cnt);
	ibu_xyd_layers_free(&x.L);
	return rc;
}

/* d's next hops and layers built (tree_layered()), its flows added. */
static int layered_dst(struct ibu_mesh *t, struct mixed *x, int d, int *dist,
		       int *queue, long *load, long *w, struct ibu_err *e)
{
	int reached = ibu_xyd_distances(t, d, dist, queue), S = t->num_switches;
	int rc = tree_layered(t, x, d, dist, queue, reached, load, w, w + S, e);

	if (!rc)
		ibu_xyd_add_flows(t, d, queue, reached, w, load, 1);
	return rc;
}

/*
 * A plan whose trees are built and placed together (tree_layered(),
 * slack as there, -1: the XY-first ways), around the flooding of the
 * current multicast tree placed first in layer ml: where packing fixed
 * trees needs a third layer, each switch takes a shortest way that still
 * fits.  IBU_ETOPO when one finds none.  The plan arrays must exist.
 */
int ibu_xyd_layered_plan(struct ibu_mesh *t, int nl, int ml, int slack,
			 struct ibu_err *e)
{
	struct ibu_mesh_damage *g = t->dmg;
	int S = t->num_switches, d, i, rc;
	size_t n = (size_t)S * (size_t)S;
	struct mixed x = { .L = { .S = S, .num = 1 }, .slack = slack,
			   .nl = nl };
	int *dist = malloc((size_t)(S + 1) * sizeof(int));
	int *queue = malloc((size_t)(S + 1) * sizeof(int));
	long *load = calloc(4 * (size_t)S + 1, sizeof(long));
	long *w = calloc(2 * (size_t)S + 1, sizeof(long));

	x.ch = malloc((size_t)(S + 1) * sizeof(int));
	x.turns = malloc((size_t)(S + 1) * sizeof(int));
	x.saved = malloc((size_t)S + 1);
	rc = ibu_xyd_layers_alloc(&x.L, t, nl, e);
	if (!rc && (!x.ch || !x.saved || !x.turns || !dist || !queue ||
		    !load || !w))
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!rc)
		ibu_xyd_add_mcast_tree(t, x.L.succ + (size_t)ml * 4 * S);
	for (i = 0; !rc && i < nl; i++)
		rc = ibu_xyd_order_layer(&x.L, i, e);
	memset(g->layer, 0, n);
	for (d = 0; !rc && d < S; d++)
		if (ibu_mesh_present(t, d))
			rc = layered_dst(t, &x, d, dist, queue, load, w, e);
	g->mlayer = ml;
	g->num_layers = ml + 1;
	for (i = 0; !rc && i < (int)n; i++)
		if (g->layer[i] + 1 > g->num_layers)
			g->num_layers = g->layer[i] + 1;
	free(x.ch);
	free(x.turns);
	free(x.saved);
	free(dist);
	free(queue);
	free(load);
	free(w);
	ibu_xyd_layers_free(&x.L);
	return rc;
}
