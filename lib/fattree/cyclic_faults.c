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
};

static void reach_free(struct reach *r)
{
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
	if (!r->down_ok || !r->reach || !r->queue || !r->bfs ||
	    !r->by_level || !r->ud) {
		reach_free(r);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (fault routes)");
	}
	for (l = 0; l < t->n; l++)
		for (s = 0; s < t->num_switches; s++)
			if (t->sw[s].level == l)
				r->by_level[i++] = s;
	return IBU_OK;
}

/* Both arrays for destination leaf switch `leaf`. */
static void reach_leaf(struct reach *r, int leaf)
{
	const struct ibu_ibft *t = r->t;
	int S = t->num_switches, head = 0, tail = 0, s, k, i;

	memset(r->down_ok, 0, S);
	r->down_ok[leaf] = 1;
	r->queue[tail++] = leaf;
	while (head < tail) {
		s = r->queue[head++];
		for (k = t->half + 1; k <= t->m && t->sw[s].level > 0; k++) {
			int p = ibu_ibft_neighbour(r->f, t, s, k);

			if (p >= 0 && !r->down_ok[p]) {
				r->down_ok[p] = 1;
				r->queue[tail++] = p;
			}
		}
	}
	/* plain distances, for the switches no up-then-down route serves */
	for (s = 0; s < S; s++)
		r->bfs[s] = -1;
	head = tail = 0;
	r->bfs[leaf] = 0;
	r->queue[tail++] = leaf;
	while (head < tail) {
		s = r->queue[head++];
		for (k = 1; k <= t->m; k++) {
			int p = ibu_ibft_neighbour(r->f, t, s, k);

			if (p >= 0 && r->bfs[p] < 0) {
				r->bfs[p] = r->bfs[s] + 1;
				r->queue[tail++] = p;
			}
		}
	}
	for (i = 0; i < S; i++) {
		s = r->by_level[i];
		r->reach[s] = r->down_ok[s];
		for (k = t->half + 1; k <= t->m && !r->reach[s] &&
		     t->sw[s].level > 0; k++) {
			int p = ibu_ibft_neighbour(r->f, t, s, k);

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
static int fix_entry(const struct reach *r, int s, int pid, unsigned offset,
		     int cur, int *outside)
{
	const struct ibu_ibft *t = r->t;
	const struct ibu_ibft_switch *sw = &t->sw[s];
	int h = t->half, k = cur > 0 ? sw->k_of_phys[cur] : 0, d0, i;

	*outside = 0;
	if (r->down_ok[s])
		return cur;	/* the paper's unique way down survives */
	if (!r->reach[s]) {
		*outside = 1;
		if (r->bfs[s] <= 0)
			return IBU_NO_PATH;
		d0 = (int)((offset + (unsigned)pid) % (unsigned)t->m);
		for (i = 0; i < t->m; i++) {
			int kk = 1 + (d0 + i) % t->m;
			int p = ibu_ibft_neighbour(r->f, t, s, kk);

			if (p >= 0 && r->bfs[p] == r->bfs[s] - 1)
				return sw->phys_of_k[kk];
		}
		return IBU_NO_PATH;
	}
	if (k > h && sw->level > 0) {
		int p = ibu_ibft_neighbour(r->f, t, s, k);

		if (p >= 0 && r->reach[p])
			return cur;
		d0 = k - h - 1;
	} else {
		d0 = (int)((offset + (unsigned)pid) % (unsigned)h);
	}
	for (i = 0; i < h; i++) {
		int kk = h + 1 + (d0 + i) % h;
		int p = ibu_ibft_neighbour(r->f, t, s, kk);

		if (p >= 0 && r->reach[p])
			return sw->phys_of_k[kk];
	}
	return IBU_NO_PATH;	/* not reached: reach[s] had a parent */
}

int ibu_cyclic_reroute_faults(const struct ibu_fabric *f,
			      const struct ibu_ibft *t,
			      const struct ibu_lidplan *p, struct ibu_lft *lft,
			      struct ibu_cyclic_stats *st, struct ibu_err *e)
{
	uint32_t lid, max = p->map.max_lid < lft->max_lid ? p->map.max_lid :
							    lft->max_lid;
	int S = t->num_switches, s, leaf, rc;
	struct reach r;
	int *lid_leaf;

	if (st)
		memset(st, 0, sizeof(*st));
	if (!t->num_faults)
		return IBU_OK;
	rc = reach_init(&r, f, t, e);
	if (rc)
		return rc;
	lid_leaf = malloc(((size_t)max + 1) * sizeof(int));
	if (!lid_leaf) {
		reach_free(&r);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (fault routes)");
	}
	for (lid = 0; lid <= max; lid++) {
		const struct ibu_lid_owner *o = &p->map.owner[lid];
		int pid;

		lid_leaf[lid] = -1;
		if (!lid || o->node < 0 || ibu_node_is_switch(&f->nodes[o->node]))
			continue;
		pid = ibu_ibft_ep(t, o->node, o->port);
		if (pid >= 0)
			lid_leaf[lid] = t->ep[pid].leaf;
	}
	/* one reachability computation per destination leaf */
	for (leaf = 0; leaf < S; leaf++) {
		if (t->sw[leaf].level != t->n - 1)
			continue;
		reach_leaf(&r, leaf);
		for (lid = 1; lid <= max; lid++) {
			const struct ibu_lid_owner *o = &p->map.owner[lid];
			int pid;

			if (lid_leaf[lid] != leaf)
				continue;
			pid = ibu_ibft_ep(t, o->node, o->port);
			for (s = 0; s < S; s++) {
				uint8_t *row = lft->row[t->sw[s].node];
				int outside, port = fix_entry(&r, s, pid,
							o->offset, row[lid],
							&outside);

				if (outside && t->sw[s].level == t->n - 1) {
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
	reach_free(&r);
	free(lid_leaf);
	return IBU_OK;
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
	uint32_t max = p->map.max_lid < lft->max_lid ? p->map.max_lid :
						       lft->max_lid;
	int S = t->num_switches, s, d, i, rc, *ud;
	struct reach r;

	if (!t->num_faults)
		return IBU_OK;
	rc = reach_init(&r, f, t, e);
	if (rc)
		return rc;
	ud = r.ud;
	for (d = 0; d < S; d++) {
		const struct ibu_port *lp = &f->nodes[t->sw[d].node].ports[0];
		uint32_t lid, cnt = lp->lid ? 1u << lp->lmc : 0;
		long spread = ibu_ibft_sw_slot(t, d);

		if (!cnt)
			continue;
		reach_leaf(&r, d);	/* any switch works as the target */
		/* up-then-down distances: down_ok = hops down, then parents */
		for (s = 0; s < S; s++)
			ud[s] = -1;
		ud[d] = 0;
		{
			int head = 0, tail = 0, k;

			r.queue[tail++] = d;
			while (head < tail) {
				int x = r.queue[head++];

				for (k = t->half + 1; k <= t->m &&
				     t->sw[x].level > 0; k++) {
					int q = ibu_ibft_neighbour(f, t, x, k);

					if (q >= 0 && ud[q] < 0) {
						ud[q] = ud[x] + 1;
						r.queue[tail++] = q;
					}
				}
			}
		}
		for (i = 0; i < S; i++) {
			int k, x = r.by_level[i];

			if (r.down_ok[x])
				continue;
			for (k = t->half + 1; k <= t->m && t->sw[x].level > 0; k++) {
				int q = ibu_ibft_neighbour(f, t, x, k);

				if (q >= 0 && ud[q] >= 0 &&
				    (ud[x] < 0 || ud[q] + 1 < ud[x]))
					ud[x] = ud[q] + 1;
			}
		}
		for (s = 0; s < S; s++) {
			const struct ibu_ibft_switch *sw = &t->sw[s];
			uint8_t *row = lft->row[sw->node];
			int cur, k, want = -1, j, lo, hi, port;

			if (s == d || lp->lid > max)
				continue;
			cur = row[lp->lid];
			/* candidates: down toward an ancestor chain, up toward
			 * a served parent, or any neighbour on a shortest path */
			if (r.down_ok[s]) {
				lo = 1;
				hi = sw->level == 0 ? t->m : t->half;
			} else if (ud[s] > 0) {
				lo = t->half + 1;
				hi = t->m;
			} else {
				lo = 1;
				hi = t->m;
			}
			k = cur > 0 && cur <= f->nodes[sw->node].num_ports ?
			    sw->k_of_phys[cur] : 0;
			for (j = -1; j < hi - lo + 1 && want < 0; j++) {
				int kk = j < 0 ? k : lo + (int)((spread + j) %
						 (hi - lo + 1));
				int q = kk >= lo && kk <= hi ?
					ibu_ibft_neighbour(f, t, s, kk) : -1;

				if (q < 0)
					continue;
				if (r.down_ok[s] ? r.down_ok[q] &&
				    t->sw[q].level > sw->level &&
				    ud[q] == ud[s] - 1 :
				    ud[s] > 0 ? ud[q] == ud[s] - 1 :
				    r.bfs[q] == r.bfs[s] - 1)
					want = kk;
			}
			port = want > 0 ? sw->phys_of_k[want] : IBU_NO_PATH;
			if (!r.down_ok[s] && ud[s] < 0 &&
			    sw->level == t->n - 1) {
				port = IBU_NO_PATH;	/* see the top */
				if (st)
					st->unrouted += cnt;
			}
			for (lid = lp->lid; lid < lp->lid + cnt && lid <= max;
			     lid++) {
				/* 0xFF from the closed form is a cut port: a
				 * deviation even when it stays 0xFF */
				if (row[lid] == port && port != IBU_NO_PATH)
					continue;
				row[lid] = (uint8_t)port;
				if (st)
					st->rerouted++;
			}
		}
	}
	reach_free(&r);
	return IBU_OK;
}
