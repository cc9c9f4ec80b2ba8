/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The generalised cyclic rule on a recognised PGFT (see pgft.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_router.h"

static int lvl(const struct router *r, int n)
{
	return r->g->level[n];
}

int ibu_pgft_offset_levels(const struct ibu_pgft *g, int lmc)
{
	long R = 1;
	int l, n = 0;

	for (l = 1; l < g->P.h; l++) {
		R *= ibu_pgft_up_ports(&g->P, l);
		if (R > (1L << lmc))
			break;
		n = l;
	}
	return n;
}

int ibu_pgft_needed_lmc(const struct ibu_pgft *g)
{
	int lmc = 0;

	while (g->P.h > 1 && ibu_pgft_offset_levels(g, lmc) < g->P.h - 1)
		lmc++;
	return lmc;
}

/* t's up-closure under a new stamp, in r->queue (t first; returns its
 * size), with hops from t and the port down: parallel cable lid mod
 * their count (lid < 0: the cable's slot in clos_c instead). */
static int mark_above(struct router *r, int t, long lid)
{
	const struct ibu_fabric *f = r->f;
	int head = 0, tail = 0, n, i, q, c;

	r->stamp++;
	r->above[t] = r->stamp;
	r->dist[t] = 0;
	r->queue[tail++] = t;
	while (head < tail) {
		n = r->queue[head++];
		for (i = r->upbase[n]; i < r->upbase[n] + r->nup[n]; i++) {
			q = r->upn[i];
			if (r->above[q] == r->stamp)
				continue;
			r->above[q] = r->stamp;
			r->dist[q] = r->dist[n] + 1;
			c = r->pbase[q] + f->nodes[n].ports[r->upp[i]].peer_port;
			if (lid < 0)
				r->clos_c[tail - 1] = c;
			else
				r->child[q] = r->gports[r->gstart[c] +
							lid % r->glen[c]];
			r->queue[tail++] = q;
		}
	}
	return tail;
}

/* Per level, the closure's switches (the n in r->queue), and below a
 * level it covers in part, each switch's up-cables into it: climbing then
 * knows without a scan when all parents or none are above the target. */
static void count_above(struct router *r, int n)
{
	int i, j, q, s, l;

	for (l = 0; l <= r->g->P.h + 1; l++)
		r->lvabove[l] = 0;
	for (i = 0; i < n; i++)
		r->lvabove[lvl(r, r->queue[i])]++;
	for (i = 0; i < n; i++) {
		q = r->queue[i];
		l = lvl(r, q);
		if (r->lvabove[l] == r->nlevel[l])
			continue;
		for (j = r->nbbase[q]; j < r->nbbase[q] + r->nnb[q]; j++) {
			s = r->nbn[j];
			if (lvl(r, s) != l - 1)
				continue;
			if (r->upcnt_st[s] != r->stamp) {
				r->upcnt_st[s] = r->stamp;
				r->upcnt[s] = 0;
			}
			r->upcnt[s]++;
		}
	}
}

/* Leaf t's up-closure without t, kept: the part of a host's routes its
 * leaf alone decides. */
void ibu__pgft_leaf_closure(struct router *r, int t)
{
	int i;

	r->nclos = mark_above(r, t, -1) - 1;
	r->clos_tops = 0;
	for (i = 0; i < r->nclos; i++) {
		r->clos_q[i] = r->queue[i + 1];
		r->clos_tops += lvl(r, r->clos_q[i]) == r->g->P.h;
	}
	r->clos_leaf = t;
}

/* Entries base..base+nlids-1 of row s (those that exist) = port. */
static void fill(struct router *r, int s, uint32_t base, int nlids,
		 uint8_t port)
{
	int o;

	if (nlids == 1 && base <= r->lft->max_lid) {	/* LMC 0: most */
		r->lft->row[s][base] = port;
		return;
	}
	for (o = 0; o < nlids && base + (uint32_t)o <= r->lft->max_lid; o++)
		r->lft->row[s][base + (uint32_t)o] = port;
}

static int cmp_job_leaf(const void *a, const void *b)
{
	const struct host_job *x = a, *y = b;

	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Leaf s's row over the batch, each host's up-slot rotated by
 * ibu_pgft_rule_rotation. */
static void rotated_rule_row(struct router *r, int s, int U, const int *up)
{
	int j, o, k;

	for (j = 0; j < r->njobs; j++) {
		const struct host_job *jb = &r->jobs[j];
		int q = (int)(ibu_pgft_rule_rotation(r->g, s, jb->x[1]) % U);

		for (o = 0; o < jb->nlids &&
		     jb->base + (uint32_t)o <= r->lft->max_lid; o++) {
			k = (jb->rd + q + (1 <= r->levels ?
				(int)((o / r->R[1]) % U) : 0)) % U;
			r->lft->row[s][jb->base + (uint32_t)o] = (uint8_t)up[k];
		}
	}
}

/* Row s of a level-l switch over the batch: up-port (d_l(o) + r_l(D))
 * mod U_l (U = 0: a top, no entry). single: every job one LID, rd[j] its
 * r_l(D). */
static void up_rule_row(struct router *r, int s, int l, int single,
			const uint32_t *base, const int *rd)
{
	const int *up = ibu__pgft_up(r, s);
	uint8_t *row = r->lft->row[s];
	int U = r->U[l], j, o;

	if (l == 1 && U && !r->paper && ibu_pgft_rotated(r->g) &&
	    r->g->leaf_rank[s] >= 0) {
		rotated_rule_row(r, s, U, up);	/* an uneven tree's leaf */
		return;
	}
	if (single) {	/* n local: the byte stores may alias r */
		int n = r->njobs;

		if (!U)
			for (j = 0; j < n; j++)
				row[base[j]] = IBU_NO_PATH;
		else
			for (j = 0; j < n; j++)
				row[base[j]] = (uint8_t)up[rd[j]];
		return;
	}
	for (j = 0; j < r->njobs; j++) {
		const struct host_job *jb = &r->jobs[j];

		if (!U) {
			fill(r, s, jb->base, jb->nlids, IBU_NO_PATH);
		} else if (jb->nlids == 1) {	/* base <= max_lid */
			row[jb->base] = (uint8_t)up[jb->rd];
		} else {
			for (o = 0; o < jb->nlids &&
			     jb->base + (uint32_t)o <= r->lft->max_lid; o++) {
				int k = jb->rd + (l <= r->levels ?
					(int)((o / r->R[l]) % U) : 0);

				row[jb->base + (uint32_t)o] =
					(uint8_t)up[k < U ? k : k - U];
			}
		}
	}
}

int ibu__pgft_rotation(const struct router *r, const long *x, uint32_t pid,
		       int l)
{
	uint32_t k;
	int i;

	if (!r->U[l])
		return 0;
	if (!r->paper)
		return (int)(x[l] % r->U[l]);
	if (l <= r->levels && !r->paper->rotated)
		return 0;
	/* the paper's D-mod-k: the PID's digit of weight half^(l-1) */
	for (k = pid, i = 1; i < l; i++)
		k /= (uint32_t)r->paper->half;
	return (int)(k % (uint32_t)r->U[l]);
}

/* Jobs first..end-1, all on leaf: the leaf and its closure go down, on
 * the parallel cable the host's digit picks; the tops not above it have
 * no entry (route_hosts leaves the tops to here). */
static void down_rows(struct router *r, int leaf, int first, int end,
		      int single)
{
	int i, k, h = r->g->P.h;
	uint32_t *base = r->jbase;

	for (i = first; i < end; i++)
		base[i] = r->jobs[i].base;

	if (r->clos_leaf != leaf)
		ibu__pgft_leaf_closure(r, leaf);
	if (!r->U[h] && r->clos_tops < r->nlevel[h])	/* tops not above */
		for (k = 0; k < r->nlevel[h]; k++)
			for (i = first; i < end; i++)
				fill(r, r->by_level[h][k], r->jobs[i].base,
				     r->jobs[i].nlids, IBU_NO_PATH);
	/* after the tops: on a one-switch tree the leaf is the top */
	for (i = first; i < end; i++)
		fill(r, leaf, r->jobs[i].base, r->jobs[i].nlids,
		     (uint8_t)r->jobs[i].port);
	for (k = 0; k < r->nclos; k++) {
		int q = r->clos_q[k], c = r->clos_c[k], lq = lvl(r, q) - 1;
		const int *grp = &r->gports[r->gstart[c]];

		if (r->glen[c] == 1 && single) {	/* one cable, one LID */
			uint8_t *row = r->lft->row[q], port = (uint8_t)grp[0];

			for (i = first; i < end; i++)
				row[base[i]] = port;
			continue;
		}
		/* the cable digit of D's climb into q's level */
		for (i = first; i < end; i++)
			fill(r, q, r->jobs[i].base, r->jobs[i].nlids,
			     (uint8_t)grp[r->jobs[i].x[lq] % r->glen[c]]);
	}
}

/* Up*|down* hops from every switch to leaf t (INT_MAX: none), t's
 * closure just taken; parents unread where climb_choice needs none.
 * hopn[d] += the switches at d hops. */
void ibu__pgft_updown_dist(struct router *r, int t, int *hopn)
{
	int l, i, j, s, c, uni = IBU__UNI_NONE, next, *ud = r->ud;

	for (l = 1; l <= r->g->P.h; l++)
		for (i = 0; i < r->nlevel[l]; i++)
			ud[r->by_level[l][i]] = INT_MAX;
	ud[t] = 0;
	hopn[0]++;
	r->queue[0] = t;
	for (i = 0; i < r->nclos; i++) {
		s = r->queue[i + 1] = r->clos_q[i];
		ud[s] = lvl(r, s) - 1;
		hopn[ud[s]]++;
	}
	count_above(r, r->nclos + 1);	/* the closure's stamp */
	for (l = r->g->P.h; l >= 1; l--, uni = next)
		for (i = 0, next = IBU__UNI_NONE; i < r->nlevel[l]; i++) {
			s = r->by_level[l][i];
			if (ud[s] != INT_MAX)	/* in the closure */
				continue;
			c = l == r->g->P.h ? 0 :
			    r->lvabove[l + 1] == r->nlevel[l + 1] ? r->nup[s] :
			    r->upcnt_st[s] == r->stamp ? r->upcnt[s] : 0;
			if (!r->nup[s])
				;
			else if (c == r->nup[s])
				ud[s] = l + 1;
			else if (!c && uni != IBU__UNI_NONE &&
				 uni != IBU__UNI_MIXED)
				ud[s] = uni == INT_MAX ? INT_MAX : uni + 1;
			else
				for (j = r->upbase[s];
				     j < r->upbase[s] + r->nup[s]; j++)
					if (ud[r->upn[j]] != INT_MAX &&
					    ud[r->upn[j]] + 1 < ud[s])
						ud[s] = ud[r->upn[j]] + 1;
			if (ud[s] != INT_MAX)
				hopn[ud[s]]++;
			ibu__pgft_uni_add(&next, ud[s]);
		}
}

/* Every up-peer of a is one of b's (in port order: a few, a scan each). */
static int same_peers(const struct router *r, int a, int b)
{
	const int *pa = &r->upn[r->upbase[a]], *pb = &r->upn[r->upbase[b]];
	int i, j, na = r->nup[a], nb = r->nup[b];

	for (i = 0; i < na; i++) {
		if (i < nb && pa[i] == pb[i])
			continue;
		for (j = 0; j < nb && pb[j] != pa[i]; j++)
			;
		if (j == nb)
			return 0;
	}
	return 1;
}

/* As ibu__pgft_updown_dist() for leaf t (its closure just taken) when ud
 * holds it for prev and both are level-1 switches with the same up-peers
 * (siblings): their closures are one set, so every switch's hops are the
 * same but t's (0) and prev's, both on level 1 where nothing reads them
 * (one BFS less per sibling leaf). 1: done, ud and the closure's stamp
 * set, hopn as for prev; 0: not such a pair. */
int ibu__pgft_updown_sibling(struct router *r, int t, int prev)
{
	int j, n = r->nup[t], *ud = r->ud;

	if (prev < 0 || prev == t || lvl(r, t) != 1 || lvl(r, prev) != 1 ||
	    !n || !r->nup[prev] || !same_peers(r, t, prev) ||
	    !same_peers(r, prev, t))
		return 0;
	ud[t] = 0;
	ud[prev] = INT_MAX;
	for (j = r->upbase[prev]; j < r->upbase[prev] + n; j++)
		if (ud[r->upn[j]] != INT_MAX && ud[r->upn[j]] + 1 < ud[prev])
			ud[prev] = ud[r->upn[j]] + 1;
	r->queue[0] = t;	/* mark_above() left the closure after it */
	count_above(r, r->nclos + 1);	/* the closure's stamp */
	return 1;
}

/* The batch's hosts: the up-rule everywhere, then (no faults) the way
 * down over each leaf's closure; row by row, so the tables are written
 * in runs. */
static void route_hosts(struct router *r)
{
	int l, i, j, end, single = 1, *rd = r->jrd;
	uint32_t *base = r->jbase;

	for (j = 0; j < r->njobs; j++) {
		base[j] = r->jobs[j].base;
		single &= r->jobs[j].nlids == 1;
	}
	for (l = 1; l <= r->g->P.h; l++) {
		for (j = 0; j < r->njobs; j++)
			rd[j] = r->jobs[j].rd = ibu__pgft_rotation(
				r, r->jobs[j].x, r->jobs[j].pid, l);
		if (!r->U[l] && l == r->g->P.h)
			continue;	/* the tops: down_rows */
		for (i = 0; i < r->nlevel[l]; i++)
			up_rule_row(r, r->by_level[l][i], l, single, base, rd);
	}
	if (r->g->num_faults > 0) {	/* the balance writes the ways down */
		r->njobs = 0;
		return;
	}
	qsort(r->jobs, (size_t)r->njobs, sizeof(r->jobs[0]), cmp_job_leaf);
	for (j = 0; j < r->njobs; j = end) {
		for (end = j; end < r->njobs && r->jobs[end].leaf == r->jobs[j].leaf;)
			end++;
		down_rows(r, r->jobs[j].leaf, j, end, single);
	}
	r->njobs = 0;
}

int ibu__pgft_mark_above(struct router *r, int t, uint32_t lid)
{
	int n = mark_above(r, t, lid);

	count_above(r, n);
	return n;
}

/* pick_up without the scan where all parents are above the target (at
 * one distance) or none and uni is known: then all up-ports tie. Inline
 * in route_updown, which calls it for nearly every switch and LID. */
static inline void climb_choice(struct router *r, int s, int uni,
				struct ibu__choice *ch)
{
	int l = lvl(r, s) + 1, c, d;

	ch->k = 0;
	if (!r->nup[s]) {	/* a top (nothing at level l) */
		r->dist[s] = -1;
		return;
	}
	if (r->lvabove[l] == r->nlevel[l])
		c = r->nup[s];
	else
		c = r->upcnt_st[s] == r->stamp ? r->upcnt[s] : 0;
	if (c == r->nup[s])
		d = r->dist[r->upn[r->upbase[s]]];
	else if (!c && uni != IBU__UNI_NONE && uni != IBU__UNI_MIXED)
		d = uni;
	else {
		ibu__pgft_pick_up(r, s, ch);
		return;
	}
	if (d < 0) {
		r->dist[s] = -1;
		return;
	}
	r->dist[s] = d + 1;
	ch->list = &r->upp[r->upbase[s]];
	ch->k = r->nup[s];
}

void ibu__pgft_climb_choice(struct router *r, int s, int uni,
			    struct ibu__choice *ch)
{
	climb_choice(r, s, uni, ch);
}

/* Toward switch t (its own LID, port 0) or a host on it: down above t,
 * else up to the nearest switch above t; those with no way go in turnb.
 * only_b: t is a turn switch, only those (tdist < 0) are written. */
int ibu__pgft_route_updown(struct router *r, int t, int host_port,
			   uint32_t lid, int only_b)
{
	int l, i, s, out, nb = 0, uni = IBU__UNI_NONE, next, stamp;
	int *tdist = r->tdist, *dist = r->dist;	/* locals: the row's */
	uint32_t key = (lid >> r->spread_lmc) +
		       (lid & ((1u << r->spread_lmc) - 1));
	uint8_t **row = r->lft->row;		/* stores may alias r */
	struct ibu__choice c;

	ibu__pgft_mark_above(r, t, lid);
	r->child[t] = host_port;	/* 0 for the switch's own LID */
	stamp = r->stamp;
	for (l = r->g->P.h; l >= 1; l--, uni = next)
		for (i = 0, next = IBU__UNI_NONE; i < r->nlevel[l]; i++) {
			s = r->by_level[l][i];
			if (r->above[s] == stamp) {
				out = r->child[s];
			} else {
				climb_choice(r, s, uni, &c);
				out = ibu__choice_port(&c, key);
				if (r->rec)
					ibu__pgft_rec_note(r, s,
						IBU__TPL_UPDOWN, &c);
				ibu__pgft_uni_add(&next, dist[s]);
			}
			if (only_b) {
				if (tdist[s] < 0 && out != IBU_NO_PATH)
					row[s][lid] = (uint8_t)out;
				continue;
			}
			tdist[s] = dist[s];
			if (out != IBU_NO_PATH)
				row[s][lid] = (uint8_t)out;
			else
				r->turnb[nb++] = s;
		}
	return nb;
}

/* Switch q's cables grouped by peer switch (the parallel ones). */
static void group_cables(struct router *r, int q, int *next)
{
	const struct ibu_node *nd = &r->f->nodes[q];
	int *len = &r->glen[r->pbase[q]], *start = &r->gstart[r->pbase[q]];
	int c, c2, first;

	for (c = 1; c <= nd->num_ports; c++) {
		if (len[c] || !ibu_is_sw(r->f, nd->ports[c].peer_node))
			continue;
		first = *next;
		for (c2 = c; c2 <= nd->num_ports; c2++)
			if (nd->ports[c2].peer_node == nd->ports[c].peer_node)
				r->gports[(*next)++] = c2;
		for (c2 = first; c2 < *next; c2++) {
			start[r->gports[c2]] = first;
			len[r->gports[c2]] = *next - first;
		}
	}
}

/* The per-switch port indexes (up-ports, parallel groups). */
static void index_ports(struct router *r)
{
	const struct ibu_fabric *f = r->f;
	int i, p, nu = 0, ng = 0, nn = 0, nd = 0, np = 0;

	for (i = 0; i < f->num_nodes; i++) {
		r->pbase[i] = np;
		np += f->nodes[i].num_ports + 1;
	}
	for (i = 0; i < f->num_nodes; i++) {
		if (!ibu_is_sw(r->f, i))
			continue;
		r->upbase[i] = nu;
		r->nbbase[i] = nn;
		for (p = 1; p <= f->nodes[i].num_ports; p++) {
			int q = f->nodes[i].ports[p].peer_node;

			if (!ibu_is_sw(r->f, q)) {
				r->hosted[i] |= q >= 0;
				continue;
			}
			r->nbp[nn] = p;
			r->nbn[nn++] = q;
			if (lvl(r, q) == lvl(r, i) + 1) {
				r->upp[nu] = p;
				r->upn[nu++] = q;
			}
		}
		r->nup[i] = nu - r->upbase[i];
		r->nnb[i] = nn - r->nbbase[i];
		group_cables(r, i, &ng);
		r->dnbase[i] = nd;
		for (p = r->nbbase[i]; p < r->nbbase[i] + r->nnb[i]; p++)
			if (r->gports[r->gstart[r->pbase[i] + r->nbp[p]]] == r->nbp[p])
				r->dnn[nd++] = r->nbn[p];	/* first of its bundle */
		r->ndn[i] = nd - r->dnbase[i];
	}
}

/* The router's int arrays in one block: 23 + h per node, 8 per port
 * slot (pbase + port), the levels'. */
static int alloc_arrays(struct router *r)
{
	const struct ibu_fabric *f = r->f;
	size_t n = (size_t)(f->num_nodes ? f->num_nodes : 1), h, np = 1, i;
	int **pn[] = { &r->above, &r->child, &r->dist, &r->queue, &r->clos_q,
		       &r->clos_c, &r->ud, &r->tdist, &r->turnb, &r->turnc,
		       &r->turnx, &r->pdist, &r->upcnt, &r->upcnt_st, &r->pbase,
		       &r->upbase, &r->nup, &r->nbbase, &r->nnb, &r->dnbase,
		       &r->ndn, &r->plain };
	int **pp[] = { &r->upp, &r->gstart, &r->glen, &r->gports, &r->upn,
		       &r->nbp, &r->nbn, &r->dnn }, *m;

	h = (size_t)r->g->P.h;
	for (i = 0; i < (size_t)f->num_nodes; i++)
		np += (size_t)f->nodes[i].num_ports + 1;
	m = r->mem = calloc((23 + h) * n + 8 * np + 2 * h + 3, sizeof(int));
	if (!m)
		return IBU_ENOMEM;
	for (i = 0; i < sizeof(pn) / sizeof(pn[0]); i++, m += n)
		*pn[i] = m;
	for (i = 0; i < sizeof(pp) / sizeof(pp[0]); i++, m += np)
		*pp[i] = m;
	for (i = 1; i <= h; i++, m += n)
		r->by_level[i] = m;
	r->hosted = (unsigned char *)m;
	r->lvabove = m + n;
	r->nlevel = m + n + h + 2;
	return IBU_OK;
}

/* Does every switch-to-switch cable join adjacent levels? Then every
 * route without a down-up turn goes up*|down*. */
static int adjacent_levels(const struct router *r)
{
	const int *lv = r->g->level;
	int v, p, w;

	for (v = 0; v < r->f->num_nodes; v++)
		for (p = 1; ibu_is_sw(r->f, v) &&
		     p <= r->f->nodes[v].num_ports; p++) {
			w = r->f->nodes[v].ports[p].peer_node;
			if (w >= 0 && ibu_is_sw(r->f, w) &&
			    (lv[v] < 1 || lv[w] < 1 || abs(lv[w] - lv[v]) != 1))
				return 0;
		}
	return 1;
}

static int setup(struct router *r, int lmc, struct ibu_err *e)
{
	const struct ibu_pgft *g = r->g;
	int l, s;

	r->R[1] = 1;
	for (l = 1; l <= g->P.h; l++) {
		r->U[l] = ibu_pgft_up_ports(&g->P, l);
		r->R[l + 1] = r->R[l] * (r->U[l] ? r->U[l] : 1);
	}
	r->levels = ibu_pgft_offset_levels(g, lmc);
	r->clos_leaf = -1;
	r->capjobs = g->num_hosts < 1 ? 1 :
		     g->num_hosts < HOST_BATCH ? g->num_hosts : HOST_BATCH;
	r->jobs = malloc((size_t)r->capjobs * sizeof(*r->jobs));
	r->jbase = malloc((size_t)r->capjobs * sizeof(*r->jbase));
	r->jrd = malloc((size_t)r->capjobs * sizeof(*r->jrd));
	r->defer = malloc(((size_t)r->map->max_lid + 1) * sizeof(*r->defer));
	if (!r->jobs || !r->jbase || !r->jrd || !r->defer || alloc_arrays(r))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (s = 0; s < r->f->num_nodes; s++)
		if (g->level[s] >= 1)
			r->by_level[g->level[s]][r->nlevel[g->level[s]]++] = s;
	index_ports(r);
	r->levels_ok = adjacent_levels(r);
	r->st.layered = g->turn_layer && g->num_faults > 0 && r->levels_ok;
	return ibu__pgft_twins_init(r, e);
}

static void teardown(struct router *r)
{
	ibu__pgft_twins_free(r);
	ibu__pgft_cdg_free(r);
	free(r->jobs);
	free(r->jbase);
	free(r->jrd);
	free(r->defer);
	free(r->mem);
}

/* Every LID a port owns: compute hosts in closed form (balanced around
 * the faults on a damaged tree), the rest by up*|down* distances. */
static int route_all(struct router *r, struct ibu_err *e)
{
	uint32_t lid;
	int rc = IBU_OK, D;

	for (lid = 1; lid <= r->map->max_lid && !rc; lid++) {
		const struct ibu_lid_owner *o = ibu_lidmap_get(r->map, lid);
		const struct ibu_port *pt;

		if (!o)
			continue;
		pt = &r->f->nodes[o->node].ports[o->port];
		if (ibu_is_sw(r->f, o->node)) {
			rc = ibu__pgft_route_switch(r, o->node, lid, e);
		} else if ((D = ibu_pgft_host(r->g, o->node, o->port)) == -1) {
			rc = ibu__pgft_route_turned(r, pt->peer_node,
				pt->peer_port, lid, ibu__pgft_route_updown(r,
				pt->peer_node, pt->peer_port, lid, 0), e);
		} else if (D >= 0 && !o->offset) {	/* faults: balanced after */
			struct host_job *jb = &r->jobs[r->njobs];

			ibu_pgft_digits(r->g, D, jb->x);
			jb->pid = r->paper ? r->paper->pid[D] : 0;
			jb->base = lid;
			jb->nlids = 1 << pt->lmc;
			jb->leaf = pt->peer_node;
			jb->port = pt->peer_port;
			jb->seq = r->njobs;
			if (++r->njobs == r->capjobs)
				route_hosts(r);
		}
	}
	if (rc)
		return rc;
	route_hosts(r);
	if (r->g->num_faults > 0)
		rc = ibu__pgft_balance(r, r->plain, e);
	rc = rc ? rc : ibu__pgft_route_deferred(r, e);
	rc = rc || !r->g->num_faults ? rc : ibu__pgft_lower_shift(r, e);
	if (!rc)
		ibu__pgft_count_layered(r);
	return rc;
}

/*
 * A damaged 2-level tree whose leaves' hosts do not divide over their
 * up-cables (a spine gone as well as a cable) keeps D-mod-K for each
 * leaf's last hosts, two of them down one cable into their leaf from
 * every source (the rotation that spreads them on an intact tree is
 * not read by the balance, which takes one level-1 slot a LID).
 * Placing those hosts' LIDs as damaged ones instead (the balance's
 * greedy tree, by load, per source switch) lowers the all-to-all on
 * some trees and raises the worst shift or lowers the eBB on others,
 * so the tree is routed both ways and the second kept only where its
 * all-to-all busiest link is lower, its worst shift no higher and its
 * eBB estimate at least EXTRAS_EBB_KEEP of the first's (the passes' own
 * figures, on the same bisections).  Only where those passes ran
 * (st.ebb_a2a); twice the routing time there.  The second failing
 * leaves the first.
 */
/* PGFT(2; 8,12; 1,4; 1,2) with 3 cuts and 2 switches gone: all-to-all
 * 168 -> 136 (dfsssp 160) for 0.4% of the eBB estimate (still above
 * dfsssp's) */
#define EXTRAS_EBB_KEEP 0.99
static void extras_too(struct router *r, int lmc)
{
	const struct ibu_pgft *g = r->g;
	struct router r2 = { .f = r->f, .g = g, .map = r->map,
			     .paper = r->paper, .extras = 1 };
	struct ibu_lft l2;
	struct ibu_err e2 = { 0 };
	int i, rc;

	if (!g->num_faults || g->P.h != 2 || g->uneven_rule || r->paper ||
	    ibu_pgft_uneven_level(&g->P) != 1 || !r->st.ebb_a2a)
		return;
	r->st.extras = 3;	/* until the second routing completes */
	if (ibu_lft_init(&l2, r->f, r->lft->max_lid, &e2))
		return;
	r2.lft = &l2;
	rc = setup(&r2, lmc, &e2);
	if (!rc)
		rc = route_all(&r2, &e2);
	teardown(&r2);
	if (!rc)
		r->st.extras = 1;
	if (!rc && r2.st.ebb_a2a && r2.st.ebb_a2a < r->st.ebb_a2a &&
	    r2.st.shift_to <= r->st.shift_to &&
	    r2.st.ebb_to >= r->st.ebb_to * EXTRAS_EBB_KEEP) {
		for (i = 0; i < r->f->num_nodes; i++)
			if (r->lft->row[i] && l2.row[i])
				memcpy(r->lft->row[i], l2.row[i],
				       (size_t)r->lft->max_lid + 1);
		r->st = r2.st;
		r->st.extras = 2;
	}
	ibu_lft_free(&l2);
}

int ibu_pgft_route_stats(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 const struct ibu_lidmap *map, int lmc,
			 struct ibu_lft *lft, struct ibu_pgft_route_stats *st,
			 struct ibu_err *e)
{
	return ibu_pgft_route_paper(f, g, map, lmc, NULL, lft, st, e);
}

int ibu_pgft_route_paper(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 const struct ibu_lidmap *map, int lmc,
			 const struct ibu_pgft_paper *paper,
			 struct ibu_lft *lft, struct ibu_pgft_route_stats *st,
			 struct ibu_err *e)
{
	struct router r = { .f = f, .g = g, .map = map, .lft = lft,
			    .paper = paper };
	int rc;

	if (lft->max_lid < map->max_lid)
		return ibu_err_set(e, IBU_EINVAL,
				   "tables up to LID 0x%04x, LIDs up to 0x%04x",
				   lft->max_lid, map->max_lid);
	rc = setup(&r, lmc, e);
	if (!rc)
		rc = route_all(&r, e);
	teardown(&r);
	if (!rc)
		extras_too(&r, lmc);
	if (st)
		*st = r.st;
	return rc;
}

int ibu_pgft_route(const struct ibu_fabric *f, const struct ibu_pgft *g,
		   const struct ibu_lidmap *map, int lmc, struct ibu_lft *lft,
		   struct ibu_err *e)
{
	int rc = ibu_lft_init(lft, f, map->max_lid, e);

	if (rc)
		return rc;
	rc = ibu_pgft_route_stats(f, g, map, lmc, lft, NULL, e);
	if (rc)
		ibu_lft_free(lft);
	return rc;
}

/* Highest LID of the numbering below at LMC lmc. */
static long lid_top(const struct ibu_pgft *g, int lmc)
{
	return ((long)g->num_hosts + g->num_spine_hosts + 1) * (1L << lmc) +
	       g->num_switches - 1;
}

int ibu_pgft_fit_lmc(const struct ibu_pgft *g, int want)
{
	int lmc = want > IBU_PGFT_MAX_LMC ? IBU_PGFT_MAX_LMC : want;

	while (lmc >= 0 && lid_top(g, lmc) > IBU_MAX_UCAST_LID)
		lmc--;
	return lmc;
}

int ibu_pgft_assign_lids(struct ibu_fabric *f, const struct ibu_pgft *g,
			 int lmc, struct ibu_err *e)
{
	uint32_t next;
	int i;

	if (lmc < 0 || lmc > IBU_PGFT_MAX_LMC || lid_top(g, lmc) > IBU_MAX_UCAST_LID)
		return ibu_err_set(e, IBU_ELID,
				   "%d end ports and %d switches at LMC %d: beyond the unicast LID space 0xBFFF",
				   g->num_hosts + g->num_spine_hosts,
				   g->num_switches, lmc);
	ibu_fabric_clear_lids(f);
	/* compute hosts in D order, then the others (aligned), switches */
	next = 1u << lmc;
	for (i = 0; i < g->num_hosts + g->num_spine_hosts; i++) {
		const struct ibu_pgft_host *h = i < g->num_hosts ? &g->host[i] :
			&g->spine_host[i - g->num_hosts];

		f->nodes[h->node].ports[h->port].lid = (uint16_t)next;
		f->nodes[h->node].ports[h->port].lmc = (uint8_t)lmc;
		next += 1u << lmc;
	}
	for (i = 0; i < f->num_nodes; i++)
		if (ibu_node_is_switch(&f->nodes[i]))
			f->nodes[i].ports[0].lid = (uint16_t)next++;
	return IBU_OK;
}
