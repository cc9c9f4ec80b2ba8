/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Gathering each destination's arrivals on a damaged 2-level PGFT
 * (docs/design.md, "Degraded trees", has the why and the figures).
 *
 * In a random bisection every host receives exactly one flow, so a spine's
 * cable into a leaf that every source leaf uses for the same few
 * destinations carries a load known in advance: that many flows.  Where
 * the sources of one destination arrive over several spines instead,
 * each such cable's load becomes a sum of chances with the same mean and
 * a spread, and a flow's bandwidth (1 / the busiest channel of its path,
 * against the source leaf's up-cable, whose load is a chance anyway)
 * falls: the spread pass (pgft_balance.c), choosing every destination's
 * tree again over the others' loads, leaves many destinations arriving
 * over 4 to 10 spines.  This pass moves a source leaf's entry of a
 * destination to the spine most source leaves already use for it, where
 * that lifts no all-to-all link above its busiest and puts the entry on
 * an up-cable carrying no more destinations than the one it leaves.
 * Each move raises the sum over destinations of the squared counts of
 * sources per spine, so the pass ends.  Its moves are kept only where the
 * worst shift ends no higher and the eBB estimate (pgft_bisect.h) no
 * lower: on the random league's small trees a few moves can cost the
 * shift pass a step (seed 19's r35, 3 -> 4) or the eBB pass its
 * optimum (r59, 0.6516 -> 0.6446).  Base LIDs of compute hosts only,
 * never a LID routed by turns; a destination whose new routes would
 * close a credit loop gets its old ones back.  Deterministic whatever
 * the node order: destinations by host index, source leaves by their
 * first host, ways by port.
 */
#include <stdlib.h>
#include <string.h>
#include "pgft_gather.h"

/* Rounds over every (destination, source leaf) at most. */
#define GATHER_ROUNDS 10

struct gather {
	struct shp *sp;
	int ntop;
	int *top;		/* [node]: rank of a top switch, -1 */
	int *cnt;		/* [D ntop + rank]: source leaves through it */
	uint32_t *ndst;		/* [cell]: destinations on a leaf's up-cable */
	uint8_t *old;		/* [leaf rank]: D's entries before the round */
	int *changed;		/* D's entries changed in this visit */
	uint8_t *snap;		/* [D nleaf + leaf rank]: before the pass */
};

/* The down-cable cell from top switch s into D's leaf, -1 when its entry
 * for D does not lead there in one hop. */
static int down_cell(const struct gather *ga, int s, int D)
{
	const struct shp *sp = ga->sp;
	int c;

	if (ibu__shp_walk(sp, s, sp->r->g->host[D].leaf, sp->lid[D], &c, 1)
	    != 1)
		return -1;
	return c;
}

/* The cell of leaf L's entry for D when it leads to a top switch, else
 * -1 (no entry, unrouted, or a turned way). */
static int up_cell(const struct gather *ga, int L, int D)
{
	const struct shp *sp = ga->sp;
	const struct router *r = sp->r;
	int p, c;

	if (!r->lft->row[L])
		return -1;
	p = r->lft->row[L][sp->lid[D]];
	if (!p || p == IBU_NO_PATH || p > r->f->nodes[L].num_ports)
		return -1;
	c = r->pbase[L] + p;
	return sp->peer[c] >= 0 && ga->top[sp->peer[c]] >= 0 ? c : -1;
}

/* Counts as the tables stand: sources per spine per destination, and
 * destinations per leaf up-cable. */
static void tally(struct gather *ga)
{
	struct shp *sp = ga->sp;
	const struct router *r = sp->r;
	int D, j, L, c;

	for (D = 0; D < sp->N; D++) {
		if (!sp->lid[D])
			continue;
		for (j = 0; j < sp->nleaf; j++) {
			L = sp->lleaf[j];
			c = L == r->g->host[D].leaf ? -1 : up_cell(ga, L, D);
			if (c >= 0) {
				ga->cnt[(size_t)D * ga->ntop +
					ga->top[sp->peer[c]]]++;
				ga->ndst[c]++;
			}
		}
	}
}

/* The up port of leaf L to move D's entry to (0: none), its down cell. */
static int better_way(const struct gather *ga, int L, int D, int hosts,
		      int *dn)
{
	const struct shp *sp = ga->sp;
	const struct router *r = sp->r;
	const int *cnt = ga->cnt + (size_t)D * ga->ntop;
	int c1 = up_cell(ga, L, D), best = 0, bc = 0, i, p, c, s, d;

	if (c1 < 0)
		return 0;
	bc = cnt[ga->top[sp->peer[c1]]];
	for (i = 0; i < r->nup[L]; i++) {
		p = r->upp[r->upbase[L] + i];
		c = r->pbase[L] + p;
		s = r->upn[r->upbase[L] + i];
		if (ga->top[s] < 0 || cnt[ga->top[s]] <= bc ||
		    ga->ndst[c] > ga->ndst[c1] ||
		    sp->a2a[c] + (uint32_t)hosts > sp->cap)
			continue;
		d = down_cell(ga, s, D);
		if (d < 0 || sp->a2a[d] + (uint32_t)hosts > sp->cap)
			continue;
		best = p;
		bc = cnt[ga->top[s]];
		*dn = d;
	}
	return best;
}

/* Leaf rank j's entry of D moved to port p (down cell dn), the counts
 * and all-to-all loads with it. */
static void move(struct gather *ga, int j, int D, int p, int dn)
{
	struct shp *sp = ga->sp;
	const struct router *r = sp->r;
	int L = sp->lleaf[j], hosts = sp->lstart[j + 1] - sp->lstart[j];
	uint8_t *ent = &r->lft->row[L][sp->lid[D]];
	int c1 = r->pbase[L] + *ent, c2 = r->pbase[L] + p, d1;
	int *cnt = ga->cnt + (size_t)D * ga->ntop;

	d1 = down_cell(ga, sp->peer[c1], D);
	sp->a2a[c1] -= (uint32_t)hosts;
	if (d1 >= 0)
		sp->a2a[d1] -= (uint32_t)hosts;
	sp->a2a[c2] += (uint32_t)hosts;
	sp->a2a[dn] += (uint32_t)hosts;
	ga->ndst[c1]--;
	ga->ndst[c2]++;
	cnt[ga->top[sp->peer[c1]]]--;
	cnt[ga->top[sp->peer[c2]]]++;
	*ent = (uint8_t)p;
}

/* D's source leaves moved where better_way() says; the moves' count, or
 * 0 after putting them back where they would close a credit loop, < 0
 * an error. */
static int visit(struct gather *ga, int D)
{
	struct shp *sp = ga->sp;
	const struct router *r = sp->r;
	int j, L, p, dn = -1, n = 0, rc;

	for (j = 0; j < sp->nleaf; j++) {
		L = sp->lleaf[j];
		ga->old[j] = r->lft->row[L] ? r->lft->row[L][sp->lid[D]] : 0;
		if (L == r->g->host[D].leaf || !r->lft->row[L])
			continue;
		p = better_way(ga, L, D, sp->lstart[j + 1] - sp->lstart[j],
			       &dn);
		if (p) {
			move(ga, j, D, p, dn);
			ga->changed[n++] = j;
		}
	}
	if (!n)
		return 0;
	rc = ibu__shp_no_cycle(sp, sp->lid[D]);
	if (rc > 0)
		return n;
	while (n-- > 0) {	/* back, last first */
		j = ga->changed[n];
		L = sp->lleaf[j];
		move(ga, j, D, ga->old[j], down_cell(ga,
			sp->peer[r->pbase[L] + ga->old[j]], D));
	}
	return rc;
}

static int gather_alloc(struct gather *ga, struct shp *sp)
{
	const struct router *r = sp->r;
	int n = r->f->num_nodes, i, s;

	ga->sp = sp;
	ga->top = malloc((size_t)n * sizeof(int));
	ga->ndst = calloc(sp->nslots + 1, sizeof(uint32_t));
	ga->old = malloc((size_t)sp->nleaf + 1);
	ga->changed = malloc(((size_t)sp->nleaf + 1) * sizeof(int));
	ga->snap = malloc((size_t)sp->N * (size_t)sp->nleaf + 1);
	if (!ga->top || !ga->ndst || !ga->old || !ga->changed || !ga->snap)
		return -1;
	for (s = 0; s < n; s++)
		ga->top[s] = -1;
	for (i = 0; i < r->nlevel[2]; i++)
		ga->top[r->by_level[2][i]] = ga->ntop++;
	ga->cnt = calloc((size_t)sp->N * (size_t)ga->ntop + 1, sizeof(int));
	return ga->cnt ? 0 : -1;
}

static void gather_free(struct gather *ga)
{
	free(ga->top);
	free(ga->cnt);
	free(ga->ndst);
	free(ga->old);
	free(ga->changed);
	free(ga->snap);
}

/* The leaves' entries of every base LID saved (swap = 0), or exchanged
 * with the saved ones (swap = 1: twice gives the tables back). */
static void snapshot(struct gather *ga, int swap)
{
	struct shp *sp = ga->sp;
	const struct router *r = sp->r;
	uint8_t *v, *ent, t;
	int D, j;

	for (D = 0; D < sp->N; D++)
		for (j = 0; j < sp->nleaf; j++) {
			v = &ga->snap[(size_t)D * sp->nleaf + j];
			if (!sp->lid[D] || !r->lft->row[sp->lleaf[j]])
				continue;
			ent = &r->lft->row[sp->lleaf[j]][sp->lid[D]];
			t = *ent;
			if (swap)
				*ent = *v;
			*v = t;
		}
}

/* 1 when the moves keep the worst shift and the eBB estimate (those
 * before the pass: W, and the saved tables'), the shift loads measured
 * on the tables kept. */
static int worth_it(struct gather *ga, long W)
{
	struct shp *sp = ga->sp;
	double after, before;
	int keep;

	ibu__shp_measure(sp);
	keep = sp->W <= W;
	if (keep) {
		after = ibu__bisect_ebb(&sp->bs, sp->r);
		snapshot(ga, 1);
		before = ibu__bisect_ebb(&sp->bs, sp->r);
		snapshot(ga, 1);
		keep = after >= before;
	}
	if (!keep) {
		snapshot(ga, 1);
		ibu__shp_measure(sp);
	}
	return keep;
}

/* Rounds of moves until one moves nothing; the moves, < 0 an error. */
static long gather_rounds(struct gather *ga)
{
	struct shp *sp = ga->sp;
	long moved = 0, n;
	int round, D, rc = 0;

	for (round = 0; round < GATHER_ROUNDS; round++) {
		for (D = 0, n = 0; D < sp->N; D++) {
			if (!sp->lid[D] || sp->fixed[D])
				continue;
			rc = visit(ga, D);
			if (rc < 0)
				return rc;
			n += rc;
		}
		moved += n;
		if (!n)
			break;
	}
	return moved;
}

int ibu__pgft_gather(struct shp *sp)
{
	struct gather ga;
	long moved;

	if (sp->r->g->P.h != 2)
		return 0;
	memset(&ga, 0, sizeof(ga));
	if (gather_alloc(&ga, sp)) {
		gather_free(&ga);
		return ibu_err_set(sp->e, IBU_ENOMEM, "out of memory");
	}
	snapshot(&ga, 0);
	tally(&ga);
	moved = gather_rounds(&ga);
	if (moved < 0)		/* the tables as they were */
		snapshot(&ga, 1);
	else if (moved > 0 && !worth_it(&ga, sp->W))
		moved = 0;
	sp->r->st.gather_moved = moved > 0 ? moved : 0;
	gather_free(&ga);
	return moved < 0 ? (int)moved : 0;
}
