/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Cyclic routes on a degraded IBFT(m,n) (see cyclic.h): the paper's entries
 * that survive are kept; an entry is re-routed only when it leads into a
 * fault (its port has no cable left, or the switch behind it can no longer
 * reach the destination going up and then down), through the first
 * surviving up-port, cyclically after the paper's one, from which the
 * destination is still reachable. Routes stay up-then-down (level order), so
 * unicast and the multicast trees stay free of credit loops.
 *
 * End ports send through their leaf switch only, so a leaf that has no
 * up-then-down route left to a LID gets no entry for it (0xFF): every path
 * would need a down-up turn, and turned routes of several destinations
 * close credit loops (seen live: a cut cable, a top and a middle switch
 * gone at once). Switches above the leaves keep a shortest path for their
 * own packets there, which no end port's route crosses.
 */
#include <stdlib.h>
#include <string.h>
#include "cyclic.h"

struct reach {
	const struct ibu_fabric *f;
	const struct ibu_ibft *t;
	uint8_t *down_ok;	/* ancestor of the leaf with a surviving path
				 * down to it */
	uint8_t *reach;		/* an up-then-down route to the leaf exists */
	int *bfs;		/* hops to the leaf over any surviving link */
	int *queue;
	int *by_level;		/* switches sorted top level first */
	int *ud;		/* switch LIDs: up-then-down hops, -1 none */
	int *nb;		/* [s * (m + 1) + k] ibu_ibft_neighbour(s, k):
				 * the searches ask it millions of times */
	int leaf;		/* the destination switch of the arrays */
	int bfs_done;		/* bfs is for leaf */
	const uint8_t *bfs8;	/* leaf's hops from a batch search, or NULL */
};

static inline int nb_of(const struct reach *r, int s, int k)
{
	return r->nb[(size_t)s * (size_t)(r->t->m + 1) + (size_t)k];
}

static void reach_free(struct reach *r)
{
	free(r->nb);
	free(r->down_ok);
	free(r->reach);
	free(r->queue);
	free(r->bfs);
	free(r->by_level);
	free(r->ud);
}

/* The work arrays for tree t, by_level filled. */
static int reach_init(struct reach *r, const struct ibu_fabric *f,
		      const struct ibu_ibft *t, struct ibu_err *e)
{
	size_t S = t->num_switches ? (size_t)t->num_switches : 1;
	int s, l, i = 0;

	memset(r, 0, sizeof(*r));
	r->f = f;
	r->t = t;
	r->down_ok = malloc(S);
	r->reach = malloc(S);
	r->queue = malloc(S * sizeof(int));
	r->bfs = malloc(S * sizeof(int));
	r->by_level = malloc(S * sizeof(int));
	r->ud = malloc(S * sizeof(int));
	r->nb = malloc(S * (size_t)(t->m + 1) * sizeof(int));
	if (!r->down_ok || !r->reach || !r->queue || !r->bfs ||
	    !r->by_level || !r->ud || !r->nb) {
		reach_free(r);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (fault routes)");
	}
	for (l = 0; l < t->n; l++)
		for (s = 0; s < t->num_switches; s++)
			if (t->sw[s].level == l)
				r->by_level[i++] = s;
	for (s = 0; s < t->num_switches; s++)
		for (l = 0; l <= t->m; l++)
			r->nb[(size_t)s * (size_t)(t->m + 1) + (size_t)l] =
				ibu_ibft_neighbour(f, t, s, l);
	return IBU_OK;
}

/* down_ok for destination switch `leaf`: its ancestors with a surviving
 * path down to it, counted (leaf included). The plain distances wait
 * until a switch needs them. */
static int reach_down(struct reach *r, int leaf)
{
	const struct ibu_ibft *t = r->t;
	int head = 0, tail = 0, s, k;

	memset(r->down_ok, 0, (size_t)t->num_switches);
	r->down_ok[leaf] = 1;
	r->queue[tail++] = leaf;
	while (head < tail) {
		s = r->queue[head++];
		for (k = t->half + 1; k <= t->m && t->sw[s].level > 0; k++) {
			int p = nb_of(r, s, k);

			if (p >= 0 && !r->down_ok[p]) {
				r->down_ok[p] = 1;
				r->queue[tail++] = p;
			}
		}
	}
	r->leaf = leaf;
	r->bfs_done = 0;
	r->bfs8 = NULL;
	return tail;
}

/* Hops to r->leaf over any surviving link, for the switches no
 * up-then-down route serves (rare: computed the first time one asks). */
static const int *reach_bfs(struct reach *r)
{
	const struct ibu_ibft *t = r->t;
	int head = 0, tail = 0, s, k;

	if (r->bfs_done)
		return r->bfs;
	if (r->bfs8) {
		for (s = 0; s < t->num_switches; s++)
			r->bfs[s] = r->bfs8[s] == 0xFF ? -1 : r->bfs8[s];
		r->bfs_done = 1;
		return r->bfs;
	}
	for (s = 0; s < t->num_switches; s++)
		r->bfs[s] = -1;
	r->bfs[r->leaf] = 0;
	r->queue[tail++] = r->leaf;
	while (head < tail) {
		const int *nbs;
		int m = t->m, hops;

		s = r->queue[head++];
		/* local copies: the stores below may not alias them */
		nbs = r->nb + (size_t)s * (size_t)(m + 1);
		hops = r->bfs[s] + 1;
		for (k = 1; k <= m; k++) {
			int p = nbs[k];

			if (p >= 0 && r->bfs[p] < 0) {
				r->bfs[p] = hops;
				r->queue[tail++] = p;
			}
		}
	}
	r->bfs_done = 1;
	return r->bfs;
}

/* reach after reach_down: an up-then-down route to r->leaf exists. */
static void reach_up(struct reach *r)
{
	const struct ibu_ibft *t = r->t;
	int S = t->num_switches, s, k, i;

	for (i = 0; i < S; i++) {
		s = r->by_level[i];
		r->reach[s] = r->down_ok[s];
		for (k = t->half + 1; k <= t->m && !r->reach[s] &&
		     t->sw[s].level > 0; k++) {
			int p = nb_of(r, s, k);

			if (p >= 0 && r->reach[p])
				r->reach[s] = 1;
		}
	}
}

/*
 * The route of (switch s, destination pid) given the entry cur written by
 * the fault-free rule; returns the physical port (IBU_NO_PATH if none).
 * *outside: no up-then-down route starts here (no end port's route passes
 * through s for this destination; only the switch's own traffic uses the
 * entry), so it takes a shortest path over the surviving links.
 */
static int fix_entry(struct reach *r, int s, int pid, unsigned offset,
		     int cur, int *outside)
{
	const struct ibu_ibft *t = r->t;
	const struct ibu_ibft_switch *sw = &t->sw[s];
	int h = t->half, k = cur > 0 ? sw->k_of_phys[cur] : 0, d0, i;

	*outside = 0;
	if (r->down_ok[s])
		return cur;	/* the paper's unique way down survives */
	if (!r->reach[s]) {
		const int *bfs = reach_bfs(r);

		*outside = 1;
		if (bfs[s] <= 0)
			return IBU_NO_PATH;
		d0 = (int)((offset + (unsigned)pid) % (unsigned)t->m);
		for (i = 0; i < t->m; i++) {
			int kk = 1 + (d0 + i) % t->m;
			int p = nb_of(r, s, kk);

			if (p >= 0 && bfs[p] == bfs[s] - 1)
				return sw->phys_of_k[kk];
		}
		return IBU_NO_PATH;
	}
	if (k > h && sw->level > 0) {
		int p = nb_of(r, s, k);

		if (p >= 0 && r->reach[p])
			return cur;
		d0 = k - h - 1;
	} else {
		d0 = (int)((offset + (unsigned)pid) % (unsigned)h);
	}
	for (i = 0; i < h; i++) {
		int kk = h + 1 + (d0 + i) % h;
		int p = nb_of(r, s, kk);

		if (p >= 0 && r->reach[p])
			return sw->phys_of_k[kk];
	}
	return IBU_NO_PATH;	/* not reached: reach[s] had a parent */
}

/* The leaf switch of an end port's LID, -1 for other LIDs. */
static int lid_leaf(const struct ibu_fabric *f, const struct ibu_ibft *t,
		    const struct ibu_lidplan *p, uint32_t lid)
{
	const struct ibu_lid_owner *o = &p->map.owner[lid];
	int pid;

	if (o->node < 0 || ibu_node_is_switch(&f->nodes[o->node]))
		return -1;
	pid = ibu_ibft_ep(t, o->node, o->port);
	return pid >= 0 ? t->ep[pid].leaf : -1;
}

/*
 * The end-port LIDs grouped by their leaf: by_leaf[start[l]..start[l+1]-1]
 * are leaf l's (counting sort), so each leaf's reachability is computed
 * once and its entries are visited row by row.
 */
static int lids_by_leaf(const struct ibu_fabric *f, const struct ibu_ibft *t,
			const struct ibu_lidplan *p, uint32_t max,
			uint32_t **by_leaf, int **start, struct ibu_err *e)
{
	int S = t->num_switches, *fill;
	uint32_t lid;

	*by_leaf = malloc(((size_t)max + 1) * sizeof(**by_leaf));
	*start = calloc((size_t)S + 1, sizeof(**start));
	fill = calloc((size_t)S + 1, sizeof(*fill));
	if (!*by_leaf || !*start || !fill) {
		free(*by_leaf);
		free(*start);
		free(fill);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (fault routes)");
	}
	for (lid = 1; lid <= max; lid++) {
		int leaf = lid_leaf(f, t, p, lid);

		if (leaf >= 0)
			(*start)[leaf + 1]++;
	}
	for (int l = 0; l < S; l++)
		(*start)[l + 1] += (*start)[l];
	memcpy(fill, *start, (size_t)S * sizeof(*fill));
	for (lid = 1; lid <= max; lid++) {
		int leaf = lid_leaf(f, t, p, lid);

		if (leaf >= 0)
			(*by_leaf)[fill[leaf]++] = lid;
	}
	free(fill);
	return IBU_OK;
}

/*
 * Leaf `leaf`'s LIDs on every switch, rows in turn (a row stays cached).
 * A switch with a surviving way down keeps the paper's entries untouched
 * (fix_entry returns them), so its row is not read at all.
 */
static void reroute_leaf(struct reach *r, const struct ibu_lidplan *p,
			 struct ibu_lft *lft, const uint32_t *lids, int n,
			 const int *visit, int num_visit, int *pids,
			 struct ibu_cyclic_stats *st)
{
	const struct ibu_ibft *t = r->t;
	int s, i, v;

	for (i = 0; i < n; i++) {
		const struct ibu_lid_owner *o = &p->map.owner[lids[i]];

		pids[i] = ibu_ibft_ep(t, o->node, o->port);
	}
	for (v = 0; v < num_visit; v++) {
		uint8_t *row;

		s = visit ? visit[v] : v;
		row = lft->row[t->sw[s].node];
		int is_leaf = t->sw[s].level == t->n - 1;

		if (r->down_ok[s])
			continue;
		for (i = 0; i < n; i++) {
			uint32_t lid = lids[i];
			int outside, port = fix_entry(r, s, pids[i],
						      p->map.owner[lid].offset,
						      row[lid], &outside);

			if (outside && is_leaf) {
				port = IBU_NO_PATH;
				outside = 0;
				if (st)
					st->unrouted++;
			}
			if (port == row[lid])
				continue;
			row[lid] = (uint8_t)port;
			if (st)
				st->rerouted++;
			if (st && outside)
				st->outside++;
		}
	}
}

/*
 * The switches that lost an up-link (a cut cable or a missing parent):
 * the only ones whose up-entries a fault outside a destination's
 * ancestors can touch. *all_climb: every switch still has a way up to
 * the top, so an up-then-down route exists from everywhere to any leaf
 * whose ancestors all survive.
 */
static int cut_below(struct reach *r, int *cut, int *all_climb)
{
	const struct ibu_ibft *t = r->t;
	int S = t->num_switches, i, k, s, n = 0;

	*all_climb = 1;
	for (i = 0; i < S; i++) {
		int lost = 0;

		s = r->by_level[i];
		r->reach[s] = t->sw[s].level == 0;	/* climbs to the top */
		for (k = t->half + 1; k <= t->m && t->sw[s].level > 0; k++) {
			int q = nb_of(r, s, k);

			if (q < 0)
				lost = 1;
			else if (r->reach[q])
				r->reach[s] = 1;
		}
		if (lost)
			cut[n++] = s;
		if (!r->reach[s])
			*all_climb = 0;
	}
	return n;
}

int ibu_cyclic_reroute_faults(const struct ibu_fabric *f,
			      const struct ibu_ibft *t,
			      const struct ibu_lidplan *p, struct ibu_lft *lft,
			      struct ibu_cyclic_stats *st, struct ibu_err *e)
{
	uint32_t max = p->map.max_lid < lft->max_lid ? p->map.max_lid :
						       lft->max_lid;
	int S = t->num_switches, leaf, rc, *start, *pids, *cut = NULL;
	int num_cut = 0, all_climb = 0, cone = 0, l, w = 1;
	uint32_t *by_leaf;
	struct reach r;

	if (st)
		memset(st, 0, sizeof(*st));
	/* a leaf's ancestors in the whole tree: (m/2)^l at each level l */
	for (l = t->n - 1; l >= 0; l--, w *= t->half)
		cone += w;
	if (!t->num_faults)
		return IBU_OK;
	rc = reach_init(&r, f, t, e);
	if (rc)
		return rc;
	rc = lids_by_leaf(f, t, p, max, &by_leaf, &start, e);
	if (rc) {
		reach_free(&r);
		return rc;
	}
	pids = malloc(((size_t)max + 1) * sizeof(*pids));
	cut = malloc((size_t)(S ? S : 1) * sizeof(*cut));
	if (!pids || !cut)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (fault routes)");
	else
		num_cut = cut_below(&r, cut, &all_climb);
	/* one reachability computation per destination leaf */
	for (leaf = 0; leaf < S && !rc; leaf++) {
		int n = start[leaf + 1] - start[leaf];

		if (!n)
			continue;
		if (reach_down(&r, leaf) == cone && all_climb) {
			/* the leaf's ancestors all survive and every switch
			 * still climbs to them: only an entry through a cut
			 * up-link can change */
			memset(r.reach, 1, (size_t)S);
			reroute_leaf(&r, p, lft, by_leaf + start[leaf], n, cut,
				     num_cut, pids + start[leaf], st);
			continue;
		}
		reach_up(&r);
		reroute_leaf(&r, p, lft, by_leaf + start[leaf], n, NULL, S,
			     pids + start[leaf], st);
	}
	free(cut);
	free(pids);
	reach_free(&r);
	free(by_leaf);
	free(start);
	return rc;
}

/*
 * Plain hops over the surviving links from up to 64 destination switches
 * at once, one bit each (the distances of the switches no up-then-down
 * route serves): dist[b * S + s], 0xFF unreached. One word operation per
 * link and hop instead of one search per destination.
 */
static void bfs_batch(const struct reach *r, const int *dst, int nb,
		      uint64_t *seen, uint64_t *front, uint64_t *next,
		      uint8_t *dist)
{
	const struct ibu_ibft *t = r->t;
	int S = t->num_switches, m = t->m, s, k, b, hop, more = 1;

	memset(seen, 0, (size_t)S * sizeof(*seen));
	memset(dist, 0xFF, (size_t)nb * (size_t)S);
	for (b = 0; b < nb; b++) {
		seen[dst[b]] |= 1ull << b;
		dist[(size_t)b * (size_t)S + (size_t)dst[b]] = 0;
	}
	memcpy(front, seen, (size_t)S * sizeof(*seen));
	for (hop = 1; more && hop < 0xFF; hop++) {
		more = 0;
		for (s = 0; s < S; s++) {
			const int *nbs = r->nb + (size_t)s * (size_t)(m + 1);
			uint64_t got = 0;

			for (k = 1; k <= m; k++)
				if (nbs[k] >= 0)
					got |= front[nbs[k]];
			next[s] = got & ~seen[s];
		}
		for (s = 0; s < S; s++) {
			uint64_t v = next[s];

			seen[s] |= v;
			more |= v != 0;
			for (; v; v &= v - 1)
				dist[(size_t)__builtin_ctzll(v) * (size_t)S +
				     (size_t)s] = (uint8_t)hop;
		}
		memcpy(front, next, (size_t)S * sizeof(*next));
	}
}

/*
 * Up-then-down hops to up to 64 destination switches of one level at once
 * (one bit each): a destination's ancestors go down to it (hops = the
 * level difference), every other switch one hop more than its best
 * parent, top level first. mask[x * D + k]: the destinations x is k hops
 * from; ud8[b * S + x]: the hops, 0xFF none.
 */
static void ud_batch(const struct reach *r, const int *dst, int nb, int D,
		     uint64_t *up, uint64_t *mask, uint8_t *ud8)
{
	const struct ibu_ibft *t = r->t;
	int S = t->num_switches, h = t->half, m = t->m, lvl = t->sw[dst[0]].level;
	int i, b, k, x;

	memset(up, 0, (size_t)S * sizeof(*up));
	memset(mask, 0, (size_t)S * (size_t)D * sizeof(*mask));
	memset(ud8, 0xFF, (size_t)nb * (size_t)S);
	for (b = 0; b < nb; b++)
		up[dst[b]] |= 1ull << b;
	for (i = S - 1; i >= 0; i--) {	/* the ancestors: deepest first */
		const int *nbs;

		x = r->by_level[i];
		if (!up[x] || !t->sw[x].level)
			continue;
		nbs = r->nb + (size_t)x * (size_t)(m + 1);
		for (k = h + 1; k <= m; k++)
			if (nbs[k] >= 0)
				up[nbs[k]] |= up[x];
	}
	for (i = 0; i < S; i++) {
		const int *nbs;
		uint64_t got = up[x = r->by_level[i]], *mx = mask + (size_t)x * (size_t)D;
		int j;

		if (got)
			mx[lvl - t->sw[x].level] |= got;
		if (!t->sw[x].level)
			continue;
		nbs = r->nb + (size_t)x * (size_t)(m + 1);
		for (j = 0; j + 1 < D; j++) {
			uint64_t cand = 0;

			for (k = h + 1; k <= m; k++)
				if (nbs[k] >= 0)
					cand |= mask[(size_t)nbs[k] * (size_t)D + (size_t)j];
			cand &= ~got;
			mx[j + 1] |= cand;
			got |= cand;
		}
	}
	for (x = 0; x < S; x++)
		for (k = 0; k < D; k++) {
			uint64_t v = mask[(size_t)x * (size_t)D + (size_t)k];

			for (; v; v &= v - 1)
				ud8[(size_t)__builtin_ctzll(v) * (size_t)S +
				    (size_t)x] = (uint8_t)k;
		}
}

/*
 * The entry of switch s toward destination switch r->leaf: the current
 * one when its neighbour is one hop closer (down the surviving ancestor
 * chain, up toward a served parent, or for a switch no up-then-down route
 * serves, on a shortest path); otherwise the first such neighbour,
 * cyclically after the destination's label slot. cut_up: r->ud is not
 * filled because every parent of s is one hop closer (see the caller).
 */
static int switch_entry(struct reach *r, int s, int cur, long spread,
			int cut_up)
{
	const struct ibu_ibft *t = r->t;
	const struct ibu_ibft_switch *sw = &t->sw[s];
	const int *ud = r->ud;
	int k, want = -1, j, lo, hi, n;

	if (r->down_ok[s]) {
		lo = 1;
		hi = sw->level == 0 ? t->m : t->half;
	} else if (cut_up || ud[s] > 0) {
		lo = t->half + 1;
		hi = t->m;
	} else {
		lo = 1;
		hi = t->m;
	}
	n = hi - lo + 1;
	k = cur > 0 && cur <= r->f->nodes[sw->node].num_ports ?
	    sw->k_of_phys[cur] : 0;
	for (j = -1; j < n && want < 0; j++) {
		int kk = j < 0 ? k : lo + (int)((spread + j) % n);
		int q = kk >= lo && kk <= hi ? nb_of(r, s, kk) : -1;

		if (q < 0)
			continue;
		if (r->down_ok[s] ? r->down_ok[q] &&
		    t->sw[q].level > sw->level && ud[q] == ud[s] - 1 :
		    cut_up ? 1 :
		    ud[s] > 0 ? ud[q] == ud[s] - 1 :
		    reach_bfs(r)[q] == reach_bfs(r)[s] - 1)
			want = kk;
	}
	return want > 0 ? sw->phys_of_k[want] : IBU_NO_PATH;
}

/*
 * switch_entry()'s first try alone, inline: the current entry cur of s
 * still leads one hop closer (1: nothing to write). 0 when it does not,
 * and for a leaf no up-then-down route serves (left unrouted and counted
 * by the caller).
 */
static int entry_kept(const struct reach *r, int s, int cur)
{
	const struct ibu_ibft *t = r->t;
	const struct ibu_ibft_switch *sw = &t->sw[s];
	const int *ud = r->ud;
	int k, q;

	if (cur <= 0 || cur > r->f->nodes[sw->node].num_ports ||
	    !(k = sw->k_of_phys[cur]) || sw->phys_of_k[k] != cur ||
	    (q = nb_of(r, s, k)) < 0)
		return 0;
	if (r->down_ok[s])
		return k <= (sw->level == 0 ? t->m : t->half) &&
		       r->down_ok[q] && t->sw[q].level > sw->level &&
		       ud[q] == ud[s] - 1;
	if (ud[s] > 0)
		return k > t->half && ud[q] == ud[s] - 1;
	if (sw->level == t->n - 1 || !r->bfs8)
		return 0;
	return r->bfs8[s] != 0xFF && r->bfs8[q] != 0xFF &&
	       r->bfs8[q] + 1 == r->bfs8[s];
}

/* Writes port for the LIDs of destination switch d on switch s. */
static void set_switch_lids(uint8_t *row, uint32_t lid, uint32_t cnt,
			    uint32_t max, int port, struct ibu_cyclic_stats *st)
{
	uint32_t end = lid + cnt;

	for (; lid < end && lid <= max; lid++) {
		/* 0xFF from the closed form is a cut port: a deviation even
		 * when it stays 0xFF */
		if (row[lid] == port && port != IBU_NO_PATH)
			continue;
		row[lid] = (uint8_t)port;
		if (st)
			st->rerouted++;
	}
}

struct sw_lids {
	const struct ibu_fabric *f;
	const struct ibu_lidplan *p;
	struct ibu_lft *lft;
	struct ibu_cyclic_stats *st;
	uint32_t max;
	const int *cut;		/* switches that lost an up-link */
	int num_cut, all_climb, cone;
};

/*
 * Every switch's entries toward destination switch d (reach_down done,
 * *dist: its plain hops from bfs_batch). A leaf whose ancestors all
 * survive, on a tree where every switch still climbs: every switch keeps
 * its up-then-down distance and every parent of a switch outside the
 * ancestors is one hop closer, so only a switch that lost an up-link can
 * change.
 */
static void switch_lids_of(struct reach *r, const struct sw_lids *c, int d,
			   int cone_size, const uint8_t *dist, const uint8_t *ud8)
{
	const struct ibu_ibft *t = r->t;
	const struct ibu_port *lp = &c->f->nodes[t->sw[d].node].ports[0];
	uint32_t cnt = 1u << lp->lmc;
	long spread = ibu_ibft_sw_slot(t, d);
	int S = t->num_switches, s, i, fast, n;

	fast = t->sw[d].level == t->n - 1 && cone_size == c->cone &&
	       c->all_climb;
	if (!fast)
		for (s = 0; s < S; s++)
			r->ud[s] = ud8[s] == 0xFF ? -1 : ud8[s];
	r->bfs8 = dist;
	n = fast ? c->num_cut : S;
	for (i = 0; i < n; i++) {
		const struct ibu_ibft_switch *sw;
		uint8_t *row;
		int port;

		s = fast ? c->cut[i] : i;
		sw = &t->sw[s];
		row = c->lft->row[sw->node];
		if (s == d || (fast && r->down_ok[s]) ||
		    (!fast && entry_kept(r, s, row[lp->lid])))
			continue;
		port = switch_entry(r, s, row[lp->lid], spread, fast);
		if (!fast && !r->down_ok[s] && r->ud[s] < 0 &&
		    sw->level == t->n - 1) {
			port = IBU_NO_PATH;	/* see the top */
			if (c->st)
				c->st->unrouted += cnt;
		}
		set_switch_lids(row, lp->lid, cnt, c->max, port, c->st);
	}
}

/*
 * Switch LIDs on a degraded tree: the closed-form entry stays when its
 * neighbour exists and is one hop closer on an up-then-down route (or, for
 * a switch no such route serves, on a shortest path); otherwise the first
 * such neighbour, cyclically after the destination's label slot.
 */
int ibu_cyclic_reroute_switch_lids(const struct ibu_fabric *f,
				   const struct ibu_ibft *t,
				   const struct ibu_lidplan *p,
				   struct ibu_lft *lft,
				   struct ibu_cyclic_stats *st,
				   struct ibu_err *e)
{
	struct sw_lids c = { .f = f, .p = p, .lft = lft, .st = st };
	int S = t->num_switches, d, nd = 0, b, nb, l, w = 1, rc, D, *dst, *cut;
	uint64_t *seen, *front, *next, *up, *mask;
	uint8_t *dist, *ud8;
	struct reach r;

	if (!t->num_faults)
		return IBU_OK;
	c.max = p->map.max_lid < lft->max_lid ? p->map.max_lid : lft->max_lid;
	for (l = t->n - 1; l >= 0; l--, w *= t->half)
		c.cone += w;
	rc = reach_init(&r, f, t, e);
	if (rc)
		return rc;
	D = 2 * t->n + 1;	/* up-then-down hops stay below 2n */
	dst = malloc((size_t)S * sizeof(*dst));
	cut = malloc((size_t)S * sizeof(*cut));
	seen = malloc((size_t)S * (4 + (size_t)D) * sizeof(*seen));
	dist = malloc((size_t)S * 64 * 2);
	if (!dst || !cut || !seen || !dist) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory (fault routes)");
		goto out;
	}
	front = seen + S;
	next = front + S;
	up = next + S;
	mask = up + S;
	ud8 = dist + (size_t)S * 64;
	c.num_cut = cut_below(&r, cut, &c.all_climb);
	c.cut = cut;
	/* destinations by level (by_level), so that a batch is one level */
	for (b = 0; b < S; b++) {
		const struct ibu_port *lp;

		d = r.by_level[b];
		lp = &f->nodes[t->sw[d].node].ports[0];
		if (lp->lid && lp->lid <= c.max)
			dst[nd++] = d;
	}
	for (b = 0; b < nd; b += nb) {
		int i;

		for (nb = 1; nb < 64 && b + nb < nd &&
		     t->sw[dst[b + nb]].level == t->sw[dst[b]].level; nb++)
			;
		bfs_batch(&r, dst + b, nb, seen, front, next, dist);
		ud_batch(&r, dst + b, nb, D, up, mask, ud8);
		for (i = 0; i < nb; i++) {
			int size = reach_down(&r, dst[b + i]);

			switch_lids_of(&r, &c, dst[b + i], size,
				       dist + (size_t)i * (size_t)S,
				       ud8 + (size_t)i * (size_t)S);
		}
	}
out:
	free(dst);
	free(cut);
	free(seen);
	free(dist);
	reach_free(&r);
	return rc;
}
