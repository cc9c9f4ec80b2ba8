/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Lowering the worst shift on a damaged PGFT (docs/design.md, "Degraded
 * trees", has the why and the figures).
 *
 * The balance passes (pgft_balance.c) raise the worst shift permutation
 * (host S to S + k, every k, base LIDs, on the tables) by one at most but
 * never lower it. This pass does: per shift k whose busiest link carries
 * the worst W, a flow S -> S + k over that link is moved off it by
 * changing the entry of D = S + k's base LID at one switch of S's path
 * (up to the link) to another minimal up*|down* way there. An entry
 * (switch n, LID of D) carries every source whose path to D crosses n:
 * in shift k' just the one source D - k', so a change moves one flow in
 * each of a few shifts, and is measured by walking only the flows it
 * moves, on link loads kept per shift (as the spread pass's kload). A
 * change qualifies when it lowers the count of shifts at W (or, where any
 * change may, the count of their links at W), lifts no shift to W or
 * above and no link of the all-to-all above its busiest; of a flow's
 * changes, the one adding least square load to the all-to-all is kept.
 * W is lowered a step at a time, a step kept only if W drops and an eBB
 * estimate (pgft_bisect.h) stays within 0.3%: first with
 * changes that add no square load, else with any; where neither lowers
 * it, the same again with changes of two entries at once for the flows
 * no single change moves (try_pair): where every cable into a pod sits
 * at the all-to-all's busiest, a flow can leave one only if another
 * destination's flows leave the cable it goes to.
 *
 * It runs after every other LID, the turned ones too (pgft_turn.c), so
 * the loads are those of every pair; it changes only the compute hosts'
 * base LIDs (what the SA hands out), one routed by turns only onto a
 * cable parallel to its own before the turn (twin_cable) or a minimal
 * up*|down* way after it, so it keeps its one turn where it was, and
 * keeps a change only where it closes no credit loop with every route
 * (the turns were chosen against the tables before it). Deterministic: shifts
 * by k, sources by S, switches along the path, ways by port, a fixed
 * seed. Bounded: at most SHIFT_TRIES changes and PAIR_TRIES pairs tried
 * (pairs only while single changes are left), PAIR_WALKS walks to find
 * partners, and only where the per-shift loads fit SHIFT_CELLS (hosts
 * times ports: every damaged tree up to IBFT(16,3), not IBFT(24,3)).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cdg_ports.h"
#include "pgft_gather.h"
#include "pgft_shift.h"

/* Per-shift link loads (hosts x ports, 4 bytes each) up to which shifts
 * are measured and lowered: 32 MB.  IBFT(16,3) with 3 faults (1016
 * hosts, 5.4 k ports): worst shift 4 -> 3 in 0.38 s, not 0.10 s, and
 * 81 MB; a 852-host PGFT(3; 12,12,6; 1,6,6; 1,1,1) with 4 faults 13 -> 9
 * (dfsssp 10) in 0.20 s.  Past it (IBFT(24,3), 3456 hosts: 2.4 s and
 * 500 MB for 4 -> 3) the degraded routing would cost 15 times the
 * intact one. */
#define SHIFT_CELLS (1L << 23)
/* Changes tried at most (each walks a destination's source leaves once
 * and the flows it moves): the random league's trees met as many targets
 * with 1024 as with 4096; IBFT(12,3) with 2 cuts went 4 -> 2 with 2048,
 * 4 -> 3 with 1024. */
#define SHIFT_TRIES 2048
/* A step of W is kept where the estimate (pgft_bisect.h's sample) stays
 * above this share of the one before (the random league's trees, seed
 * 1: 0.999 and 0.998 left IBFT(4,3) with 4 cuts one shift step above
 * dfsssp's; 0.997 misses no more than before the shared estimator). */
#define EBB_KEEP 0.997
/* Pairs tried at most (each walks both destinations' source leaves):
 * the random league's trees (seeds 1 and 7) missed dfsssp's worst shift
 * on 3 with 4096, 2 with 8192; 16384 also took another's 4 -> 3 at
 * 0.3% of its eBB, below dfsssp's. */
#define PAIR_TRIES 8192
/* Walks to find a change's partners at most. */
#define PAIR_WALKS 4000000
static uint32_t host_base(const struct router *r, int D)
{
	const struct ibu_pgft_host *h = &r->g->host[D];
	uint32_t lid = r->f->nodes[h->node].ports[h->port].lid;

	return lid <= r->lft->max_lid ? lid : 0;
}

/* Cells of the walk from switch n toward leaf t for lid (at most hops);
 * the count, -1 when it does not arrive. */
int ibu__shp_walk(const struct shp *sp, int n, int t, uint32_t lid,
		  int *cells, int hops)
{
	const struct router *r = sp->r;
	int k = 0, p;

	while (n != t) {
		if (k == hops || !r->lft->row[n])
			return -1;
		p = r->lft->row[n][lid];
		if (!p || p == IBU_NO_PATH)
			return -1;
		cells[k] = r->pbase[n] + p;
		n = sp->peer[cells[k++]];
		if (n < 0)
			return -1;
	}
	return k;
}

/* Shift k's busiest load into nw0[k], its cells at it into nw[k] (two
 * branch-free passes over the row, which measure just filled). */
static void row_worst(struct shp *sp, long k)
{
	const uint32_t *kl = sp->kload + (size_t)k * sp->nslots;
	uint32_t m = 0;
	size_t c;
	int n = 0;

	for (c = 0; c < sp->nslots; c++)
		m = kl[c] > m ? kl[c] : m;
	for (c = 0; c < sp->nslots; c++)
		n += kl[c] == m;
	sp->nw[k] = n;
	sp->nw0[k] = (int)m;
}

/* W and the shifts at it, from every shift's row_worst. */
static void worst_of_rows(struct shp *sp)
{
	long k;

	for (k = 1, sp->W = 0; k < sp->N; k++)
		sp->W = (uint32_t)sp->nw0[k] > sp->W ? sp->nw0[k] : sp->W;
	for (k = 1, sp->nsh = 0; k < sp->N; k++) {
		sp->nw[k] = sp->nw0[k] == sp->W ? sp->nw[k] : 0;
		sp->nsh += sp->nw[k] > 0;
	}
}

/* W, the cells at it per shift, the shifts at it (after any W drop). */
static void count_worst(struct shp *sp)
{
	long k;

	for (k = 1; k < sp->N; k++)
		row_worst(sp, k);
	worst_of_rows(sp);
}

/* The router's ud and closure for leaf t (once per run of one leaf). */
void ibu__shp_prepare(struct shp *sp, int t)
{
	int hopn[2 * IBU_PGFT_MAX_H + 2] = { 0 };

	if (sp->t == t)
		return;
	ibu__pgft_leaf_closure(sp->r, t);
	ibu__pgft_updown_dist(sp->r, t, hopn);
	sp->t = t;
}

/* 1 when port p of switch n is a minimal up*|down* way toward the leaf
 * prepared: one hop nearer, down from a switch above the leaf (ud =
 * level - 1 there), up from any other. */
int ibu__shp_is_way(const struct shp *sp, int n, int p)
{
	const struct router *r = sp->r;
	int q = r->f->nodes[n].ports[p].peer_node, ln = r->g->level[n];

	if (q < 0 || !ibu_is_sw(r->f, q) || r->ud[n] == INT_MAX ||
	    r->ud[q] != r->ud[n] - 1)
		return 0;
	return r->ud[n] == ln - 1 ? r->g->level[q] < ln : r->g->level[q] > ln;
}

/* The source leaves whose walk to D crosses switch n (sp->mv); their
 * count. */
static int movers_into(struct shp *sp, int D, int n, int *mv)
{
	const struct ibu_pgft *g = sp->r->g;
	int c[WALK_HOPS], j, k, m = 0, s, t = g->host[D].leaf;

	for (j = 0; j < sp->nleaf; j++) {
		s = sp->lleaf[j];
		if (s == t)
			continue;
		if (s == n) {
			mv[m++] = j;
			continue;
		}
		k = ibu__shp_walk(sp, s, t, sp->lid[D], c, WALK_HOPS);
		while (k-- > 0)
			if (sp->peer[c[k]] == n)
				break;
		if (k >= 0)
			mv[m++] = j;
	}
	return m;
}

int ibu__shp_movers(struct shp *sp, int D, int n)
{
	return movers_into(sp, D, n, sp->mv);
}

/* The moved leaves' flows to D taken off (d = -1: the cells in oldc) or
 * put on (d = 1: newc) the shift loads, nw kept; 1 when a cell goes
 * above W. The all-to-all by the flows' count. */
static int move_set(struct shp *sp, const int *mv, int D, int m, int d,
		    const int *cells, int nc)
{
	uint32_t *kl, v;
	long S, k;
	int j, h, c, over = 0;

	for (j = 0; j < m; j++)
		for (h = sp->lstart[mv[j]]; h < sp->lstart[mv[j] + 1]; h++) {
			S = sp->lhost[h];
			k = (D - S + sp->N) % sp->N;
			kl = sp->kload + (size_t)k * sp->nslots;
			for (c = 0; c < nc; c++) {
				v = kl[cells[c]] += (uint32_t)d;
				sp->a2a[cells[c]] += (uint32_t)d;
				if (d > 0 && v == sp->W)
					sp->nw[k]++;
				else if (d < 0 && v + 1 == sp->W)
					sp->nw[k]--;
				over |= v > sp->W;
			}
		}
	return over;
}

int ibu__shp_move(struct shp *sp, int D, int m, int d, const int *cells,
		  int nc)
{
	return move_set(sp, sp->mv, D, m, d, cells, nc);
}

/* Shifts at W after the try against before (nw0), over the moved
 * sources' shifts; *raised: one went from below W to it; *cells: the
 * change in their links at W. */
static long delta_shifts(struct shp *sp, int D, int m, int *raised,
			 long *cells)
{
	long d = 0, k;
	int j, h;

	*raised = 0;
	*cells = 0;
	for (j = 0; j < m; j++)
		for (h = sp->lstart[sp->mv[j]]; h < sp->lstart[sp->mv[j] + 1];
		     h++) {
			k = (D - sp->lhost[h] + sp->N) % sp->N;
			d += (sp->nw[k] > 0) - (sp->nw0[k] > 0);
			*cells += sp->nw[k] - sp->nw0[k];
			*raised |= !sp->nw0[k] && sp->nw[k];
		}
	return d;
}

/* The moved sources' nw saved in nw0 (their shifts are all distinct). */
static void save_nw(struct shp *sp, int D, int m)
{
	int j, h;
	long k;

	for (j = 0; j < m; j++)
		for (h = sp->lstart[sp->mv[j]]; h < sp->lstart[sp->mv[j] + 1];
		     h++) {
			k = (D - sp->lhost[h] + sp->N) % sp->N;
			sp->nw0[k] = sp->nw[k];
		}
}

/* Sum of the all-to-all's load over the cells. */
static long a2a_sum(const struct shp *sp, const int *cells, int n)
{
	long v = 0;

	while (n-- > 0)
		v += sp->a2a[cells[n]];
	return v;
}

/*
 * 1 when lid's routes as they stand close no credit loop with every other
 * route (the dependencies of its old routes stay in the graph: a superset,
 * so acyclic is safe); the graph, shared with the shedding before
 * (pgft_cdg.c), is built at the first change either keeps.
 * Turns (pgft_turn.c) were chosen against the tables before this pass:
 * a change may not close a cycle through one. < 0: an error.
 */
int ibu__shp_no_cycle(struct shp *sp, uint32_t lid)
{
	int rc;

	if (!sp->have_cdg) {
		sp->have_cdg = 1;
		rc = ibu__pgft_cdg_build(sp->r, sp->e);
		if (rc)		/* a cycle already: nothing is changed */
			return rc < 0 ? rc : 0;
	}
	rc = ibu__pgft_cdg_cycle(sp->r, lid, sp->e);
	return rc < 0 ? rc : !rc;
}

/*
 * Entry (n, lid of D) set to port p, measured: 1 when that lowers the
 * shifts at W, lifts no shift to W or above and no all-to-all link above
 * its busiest (*cost: the all-to-all load the moved flows now cross less
 * the load they crossed, what the change adds to the sum of squared link
 * loads over twice the flows moved). Put back unless keep, then kept only
 * where it closes no credit loop (0: put back). < 0: an error.
 */
/* D's movers at n (kept until the tables change) and its walks from n as
 * it stands (oldc) and through port p (newc); the movers' count, 0 when
 * none moves or the walks differ in length. */
static int walks(struct shp *sp, int D, int n, int p)
{
	const struct router *r = sp->r;
	uint8_t *ent = &r->lft->row[n][sp->lid[D]], old = *ent;
	int t = r->g->host[D].leaf;

	if (sp->mvD != D || sp->mvn != n) {	/* the tables changed since */
		sp->nmv = ibu__shp_movers(sp, D, n);
		sp->mvD = D;
		sp->mvn = n;
	}
	sp->nold = ibu__shp_walk(sp, n, t, sp->lid[D], sp->oldc, WALK_HOPS);
	*ent = (uint8_t)p;
	sp->nnew = ibu__shp_walk(sp, n, t, sp->lid[D], sp->newc, WALK_HOPS);
	*ent = old;
	return sp->nold < 0 || sp->nnew != sp->nold ? 0 : sp->nmv;
}

static int try_way(struct shp *sp, int D, int n, int p, int keep, long *cost)
{
	const struct router *r = sp->r;
	uint8_t *ent = &r->lft->row[n][sp->lid[D]], old = *ent;
	int m, over, raised, j, ok;
	long d, sold, cells;

	sp->tries += !keep;
	m = walks(sp, D, n, p);
	if (!m)
		return 0;
	sold = a2a_sum(sp, sp->oldc, sp->nold);
	save_nw(sp, D, m);
	ibu__shp_move(sp, D, m, -1, sp->oldc, sp->nold);
	over = ibu__shp_move(sp, D, m, 1, sp->newc, sp->nnew);
	for (j = 0; j < sp->nnew && !over; j++)
		over = sp->a2a[sp->newc[j]] > sp->cap;
	d = delta_shifts(sp, D, m, &raised, &cells);
	ok = !over && !raised && (d < 0 || (!d && cells < 0 && !sp->guard));
	*cost = a2a_sum(sp, sp->newc, sp->nnew) - sold;
	if (ok && keep) {
		*ent = (uint8_t)p;
		ok = ibu__shp_no_cycle(sp, sp->lid[D]);
		if (ok <= 0)
			*ent = old;
	}
	if (ok <= 0 || !keep) {
		ibu__shp_move(sp, D, m, -1, sp->newc, sp->nnew);
		ibu__shp_move(sp, D, m, 1, sp->oldc, sp->nold);
		sp->rc = ok < 0 ? ok : 0;
		return ok > 0;
	}
	sp->log[sp->nlog++] = (struct undo_rec){ n, D, old, 0 };
	sp->mvD = -1;
	sp->nsh += d;
	sp->moved++;
	if (!sp->nsh)
		count_worst(sp);
	return 1;
}

/* 1 when D's LID is routed by turns and port p of switch n is a cable
 * parallel to the one its entry takes: a turned route's switches before
 * the turn have no up*|down* way (is_way), but the same route over
 * another of the parallel cables is as long and turns where it did. */
int ibu__shp_twin_cable(const struct shp *sp, int n, int p, int D)
{
	const struct ibu_node *nd = &sp->r->f->nodes[n];
	int q = sp->r->lft->row[n][sp->lid[D]];

	return sp->fixed[D] && q >= 1 && q <= nd->num_ports &&
	       nd->ports[q].peer_node == nd->ports[p].peer_node &&
	       ibu_is_sw(sp->r->f, nd->ports[p].peer_node);
}

/* The shifts of the moved sources of D (mv, m) added to klist, once. */
static void list_shifts(struct shp *sp, int D, const int *mv, int m)
{
	long k;
	int j, h;

	for (j = 0; j < m; j++)
		for (h = sp->lstart[mv[j]]; h < sp->lstart[mv[j] + 1]; h++) {
			k = (D - sp->lhost[h] + sp->N) % sp->N;
			if (sp->kmark[k] != sp->kstamp) {
				sp->kmark[k] = sp->kstamp;
				sp->nw0[k] = sp->nw[k];
				sp->klist[sp->nk++] = k;
			}
		}
}

/* 1 when a listed shift's load or the all-to-all on the cells is above
 * W or the busiest (every cell was at most that before the swap). */
static int pair_over(const struct shp *sp, const int *cells, int nc)
{
	const uint32_t *kl;
	int j, c;

	for (c = 0; c < nc; c++)
		if (sp->a2a[cells[c]] > sp->cap)
			return 1;
	for (j = 0; j < sp->nk; j++) {
		kl = sp->kload + (size_t)sp->klist[j] * sp->nslots;
		for (c = 0; c < nc; c++)
			if (kl[cells[c]] > sp->W)
				return 1;
	}
	return 0;
}

/* 1 when the listed shifts qualify as in try_way (fewer at W, or their
 * links at W fewer where unguarded, none lifted to W); *d: the change in
 * shifts at W. */
static int pair_gain(const struct shp *sp, long *d)
{
	long cells = 0, k;
	int j, raised = 0;

	*d = 0;
	for (j = 0; j < sp->nk; j++) {
		k = sp->klist[j];
		*d += (sp->nw[k] > 0) - (sp->nw0[k] > 0);
		cells += sp->nw[k] - sp->nw0[k];
		raised |= !sp->nw0[k] && sp->nw[k];
	}
	return !raised && (*d < 0 || (!*d && cells < 0 && !sp->guard));
}

/* Both sets moved to the new walks (d = 1) or back to the old ones. */
static void pair_move(struct shp *sp, int D, int m, int D2, int m2, int d)
{
	move_set(sp, sp->mv, D, m, -1, d > 0 ? sp->oldc : sp->newc, sp->nold);
	move_set(sp, sp->mv2, D2, m2, -1, d > 0 ? sp->pc : sp->pn, sp->npc);
	move_set(sp, sp->mv, D, m, 1, d > 0 ? sp->newc : sp->oldc, sp->nold);
	move_set(sp, sp->mv2, D2, m2, 1, d > 0 ? sp->pn : sp->pc, sp->npc);
}

/* A change of two entries: D's at n to port p, D2's at n2 to p2. */
struct swap {
	int D, n, p, D2, n2, p2;
};

/* Both entries set, kept where neither LID closes a credit loop: 1; 0
 * put back, < 0 an error. */
static int pair_keep(struct shp *sp, const struct swap *w)
{
	uint8_t *e1 = &sp->r->lft->row[w->n][sp->lid[w->D]];
	uint8_t *e2 = &sp->r->lft->row[w->n2][sp->lid[w->D2]];
	uint8_t o1 = *e1, o2 = *e2;
	int ok;

	*e1 = (uint8_t)w->p;
	*e2 = (uint8_t)w->p2;
	ok = ibu__shp_no_cycle(sp, sp->lid[w->D]);
	if (ok > 0)
		ok = ibu__shp_no_cycle(sp, sp->lid[w->D2]);
	if (ok <= 0) {
		*e1 = o1;
		*e2 = o2;
		return ok;
	}
	sp->log[sp->nlog++] = (struct undo_rec){ w->n, w->D, o1, 1 };
	sp->log[sp->nlog++] = (struct undo_rec){ w->n2, w->D2, o2, 1 };
	return 1;
}

/* D2's walks from n2 as it stands (pc) and through p2 (pn); its movers
 * there (mv2), 0 when none or the walks differ in length. */
static int partner_walks(struct shp *sp, const struct swap *w)
{
	uint8_t *e2 = &sp->r->lft->row[w->n2][sp->lid[w->D2]], o2 = *e2;
	int t2 = sp->r->g->host[w->D2].leaf, n2;

	sp->npc = ibu__shp_walk(sp, w->n2, t2, sp->lid[w->D2], sp->pc,
				WALK_HOPS);
	*e2 = (uint8_t)w->p2;
	n2 = ibu__shp_walk(sp, w->n2, t2, sp->lid[w->D2], sp->pn, WALK_HOPS);
	*e2 = o2;
	if (sp->npc < 0 || n2 != sp->npc)
		return 0;
	return movers_into(sp, w->D2, w->n2, sp->mv2);
}

/*
 * Two entries changed at once (w: D2 another destination, p2 going the
 * way, up or down, its entry at n2 goes, and its walk as long: minimal
 * up*|down* too).  Where D's flows cannot leave a link without lifting
 * another above the all-to-all's busiest, D2's flows make room there
 * (with as many flows, the all-to-all does not change).  Measured as
 * try_way, over the shifts of both; 1 when it qualifies (and, keep, was
 * kept), *cost as there.
 */
static int try_pair(struct shp *sp, const struct swap *w, int keep,
		    long *cost)
{
	int m, m2, ok;
	long d = 0, sold;

	sp->ptries += !keep;
	m = walks(sp, w->D, w->n, w->p);
	m2 = m ? partner_walks(sp, w) : 0;
	if (!m2)
		return 0;
	sold = a2a_sum(sp, sp->oldc, sp->nold) + a2a_sum(sp, sp->pc, sp->npc);
	sp->kstamp++;
	sp->nk = 0;
	list_shifts(sp, w->D, sp->mv, m);
	list_shifts(sp, w->D2, sp->mv2, m2);
	pair_move(sp, w->D, m, w->D2, m2, 1);
	ok = !pair_over(sp, sp->newc, sp->nnew) &&
	     !pair_over(sp, sp->pn, sp->npc) && pair_gain(sp, &d);
	*cost = a2a_sum(sp, sp->newc, sp->nnew) +
		a2a_sum(sp, sp->pn, sp->npc) - sold;
	if (ok && keep)
		ok = pair_keep(sp, w);
	if (ok <= 0 || !keep) {
		pair_move(sp, w->D, m, w->D2, m2, -1);
		sp->rc = ok < 0 ? ok : 0;
		return ok > 0;
	}
	sp->mvD = -1;
	sp->nsh += d;
	sp->moved += 2;
	if (!sp->nsh)
		count_worst(sp);
	return 1;
}

/* w tried (not kept); *best and *bw the least cost's. 0: the budget is
 * spent or an error. */
static int consider(struct shp *sp, const struct swap *w, long *best,
		    struct swap *bw)
{
	long cost;

	if (sp->ptries >= PAIR_TRIES || sp->rc)
		return 0;
	if (try_pair(sp, w, 0, &cost) && cost < *best) {
		*best = cost;
		*bw = *w;
	}
	return 1;
}

/* The first link of D's walk through w->p that D's flows lift above the
 * all-to-all's busiest (a cell), -1 none. */
static int hot_cell(struct shp *sp, const struct swap *w)
{
	int m = walks(sp, w->D, w->n, w->p), j, hot = -1;

	if (!m)
		return -1;
	move_set(sp, sp->mv, w->D, m, -1, sp->oldc, sp->nold);
	move_set(sp, sp->mv, w->D, m, 1, sp->newc, sp->nnew);
	for (j = 0; j < sp->nnew && hot < 0; j++)
		if (sp->a2a[sp->newc[j]] > sp->cap)
			hot = sp->newc[j];
	move_set(sp, sp->mv, w->D, m, -1, sp->newc, sp->nnew);
	move_set(sp, sp->mv, w->D, m, 1, sp->oldc, sp->nold);
	return hot;
}

/* 1 when D2's walk from n through port p (0: as it stands) crosses cell
 * hot (-1: 1). */
static int crosses(const struct shp *sp, int D2, int n, int p, int hot)
{
	uint8_t *ent = &sp->r->lft->row[n][sp->lid[D2]], old = *ent;
	int c[WALK_HOPS], k;

	if (hot < 0)
		return 1;
	*ent = p ? (uint8_t)p : old;
	k = ibu__shp_walk(sp, n, sp->r->g->host[D2].leaf, sp->lid[D2], c,
			  WALK_HOPS);
	*ent = old;
	while (k-- > 0)
		if (c[k] == hot)
			return 1;
	return 0;
}

/* 0 when the pair w cannot take load off cell hot (D2's walk does not
 * cross it now, or still does through p2): no need to try it. */
static int relieves(const struct shp *sp, const struct swap *w, int hot)
{
	return hot < 0 || (crosses(sp, w->D2, w->n2, 0, hot) &&
			   !crosses(sp, w->D2, w->n2, w->p2, hot));
}

/* Swaps at w->n (D to w->p): each D2 (by index) whose entry there leads
 * where p does takes D's old port; where D's move lifts a link above the
 * all-to-all's busiest, only those that take load off it (no other can
 * qualify). 0: the budget is spent. */
static int swaps_here(struct shp *sp, struct swap *w, long *best,
		      struct swap *bw)
{
	const struct router *r = sp->r;
	const uint8_t *row = r->lft->row[w->n];
	int base = r->pbase[w->n], q, hot = hot_cell(sp, w);

	w->n2 = w->n;
	w->p2 = row[sp->lid[w->D]];
	for (w->D2 = 0; w->D2 < sp->N; w->D2++) {
		if (w->D2 == w->D || !sp->lid[w->D2] || sp->fixed[w->D2])
			continue;
		q = row[sp->lid[w->D2]];
		if (!q || q == IBU_NO_PATH ||
		    sp->peer[base + q] != sp->peer[base + w->p] ||
		    !relieves(sp, w, hot))
			continue;
		if (!consider(sp, w, best, bw))
			return 0;
	}
	return 1;
}

/* Partners at the switches of walk c (its hot cell the q-th) up to the
 * hot link, each switch once per D2: each other port there going to the
 * level the walk goes to, whose walk leaves the hot link (no other can
 * qualify). 0: the budget is spent. */
static int partners_on(struct shp *sp, struct swap *w, int s, const int *c,
		       int q, long *best, struct swap *bw)
{
	const struct router *r = sp->r;
	int i, lv, pe;

	for (i = 0, w->n2 = s; i <= q; w->n2 = sp->peer[c[i++]]) {
		if (sp->nmark[w->n2] == sp->nstamp)
			continue;
		sp->nmark[w->n2] = sp->nstamp;
		lv = r->g->level[sp->peer[c[i]]];
		for (w->p2 = 1; w->p2 <= r->f->nodes[w->n2].num_ports;
		     w->p2++) {
			pe = sp->peer[r->pbase[w->n2] + w->p2];
			if (r->pbase[w->n2] + w->p2 == c[i] || pe < 0 ||
			    !ibu_is_sw(r->f, pe) || r->g->level[pe] != lv ||
			    crosses(sp, w->D2, w->n2, w->p2, c[q]))
				continue;
			if (!consider(sp, w, best, bw))
				return 0;
		}
	}
	return 1;
}

/*
 * Partners for D's change w (n, p) where it lifts a link h above the
 * all-to-all's busiest: every D2 (by index) a source leaf's walk to
 * which crosses h, changed at a switch of that walk up to h. 0: the
 * budget is spent.
 */
static int partners(struct shp *sp, struct swap *w, long *best,
		    struct swap *bw)
{
	int c[WALK_HOPS], hot = hot_cell(sp, w), j, k, q, t2;

	if (hot < 0)
		return 1;
	for (w->D2 = 0; w->D2 < sp->N; w->D2++) {
		if (w->D2 == w->D || !sp->lid[w->D2] || sp->fixed[w->D2])
			continue;
		sp->nstamp++;
		t2 = sp->r->g->host[w->D2].leaf;
		for (j = 0; j < sp->nleaf; j++) {
			if (sp->pwalks++ >= PAIR_WALKS)
				return 0;
			k = ibu__shp_walk(sp, sp->lleaf[j], t2, sp->lid[w->D2],
					  c, WALK_HOPS);
			for (q = 0; q < k && c[q] != hot; q++)
				;
			if (q < k && !partners_on(sp, w, sp->lleaf[j], c, q,
						  best, bw))
				return 0;
		}
	}
	return 1;
}

/*
 * The flow to D over the link at W (its walk's cells c, the link the
 * h-th, from leaf s0) moved off by two changes, where no single one
 * qualifies: at each switch of its path up to the link, each other way
 * p of D's there, with the swaps there (swaps_here), then, where none
 * qualifies, with the partners elsewhere (partners); of the pairs that
 * qualify, the one adding least to the all-to-all's square load is
 * kept. 1 if kept.
 */
static int lower_pair(struct shp *sp, int D, int s0, const int *c, int h)
{
	const struct router *r = sp->r;
	struct swap w, bw;
	int j, stage, go = 1;
	long cost, best = LONG_MAX;

	w.D = D;
	for (stage = 0; stage < 2 && best == LONG_MAX && go; stage++)
		for (j = 0, w.n = s0; j <= h && go; w.n = sp->peer[c[j++]])
			for (w.p = 1; w.p <= r->f->nodes[w.n].num_ports && go;
			     w.p++) {
				if (w.p == r->lft->row[w.n][sp->lid[D]] ||
				    !ibu__shp_is_way(sp, w.n, w.p))
					continue;
				go = stage ? partners(sp, &w, &best, &bw) :
					     swaps_here(sp, &w, &best, &bw);
			}
	if (best == LONG_MAX || (sp->guard && best > 0))
		return 0;
	return try_pair(sp, &bw, 1, &cost);
}

/*
 * The flow S -> D of shift k (its busiest link at W) moved off that link
 * by a change at one switch of its path up to the link: of the changes
 * that qualify, the one that adds least to the all-to-all's square load
 * (eBB suffers least; ties: the first, nearest S, by port). 1 if kept.
 */
static int lower_flow(struct shp *sp, long S, long D, long k)
{
	const struct router *r = sp->r;
	const struct ibu_pgft *g = r->g;
	int c[WALK_HOPS], n, h, j, p, s, t = g->host[D].leaf, bs = -1, bp = 0;
	const uint32_t *kl = sp->kload + (size_t)k * sp->nslots;
	long cost, best = LONG_MAX;

	n = ibu__shp_walk(sp, g->host[S].leaf, t, sp->lid[D], c, WALK_HOPS);
	for (h = 0; h < n && kl[c[h]] < sp->W; h++)
		;
	if (h == n || n < 0)
		return 0;
	ibu__shp_prepare(sp, t);
	for (j = 0, s = g->host[S].leaf; j <= h; s = sp->peer[c[j++]])
		for (p = 1; p <= r->f->nodes[s].num_ports; p++) {
			if (sp->tries >= SHIFT_TRIES || sp->rc)
				return 0;
			if (p != r->lft->row[s][sp->lid[D]] &&
			    (ibu__shp_is_way(sp, s, p) ||
			     ibu__shp_twin_cable(sp, s, p, (int)D)) &&
			    try_way(sp, (int)D, s, p, 0, &cost) && cost < best) {
				best = cost;
				bs = s;
				bp = p;
			}
		}
	if (bs < 0)
		return sp->pairs && lower_pair(sp, (int)D, g->host[S].leaf, c,
					       h);
	if (sp->guard && best > 0)
		return 0;
	return try_way(sp, (int)D, bs, bp, 1, &cost);
}

/* One round over the shifts at W, by k then S: 1 if a change was kept. */
static int lower_round(struct shp *sp)
{
	long k, S, W = sp->W;
	int any = 0;

	for (k = 1; k < sp->N && sp->W == W && sp->tries < SHIFT_TRIES &&
	     !sp->rc; k++)
		for (S = 0; S < sp->N && sp->nw[k] > 0 && sp->W == W; S++)
			if (sp->lid[(S + k) % sp->N] &&
			    sp->r->g->host[S].leaf !=
			    sp->r->g->host[(S + k) % sp->N].leaf)
				any |= lower_flow(sp, S, (S + k) % sp->N, k);
	return !sp->rc && (any || sp->W < W);
}

/* The leaves with hosts and their hosts in D order (lleaf, lstart,
 * lhost); rank: scratch [node]. */
static void index_hosts(struct shp *sp, int *rank)
{
	const struct ibu_pgft *g = sp->r->g;
	int D, j, n = sp->r->f->num_nodes;

	for (j = 0; j < n; j++)
		rank[j] = -1;
	sp->nleaf = 0;
	for (D = 0; D < sp->N; D++)
		if (rank[g->host[D].leaf] < 0) {
			rank[g->host[D].leaf] = sp->nleaf;
			sp->lleaf[sp->nleaf++] = g->host[D].leaf;
		}
	memset(sp->lstart, 0, sizeof(int) * (size_t)(sp->nleaf + 1));
	for (D = 0; D < sp->N; D++)
		sp->lstart[rank[g->host[D].leaf] + 1]++;
	for (j = 0; j < sp->nleaf; j++)
		sp->lstart[j + 1] += sp->lstart[j];
	for (D = 0; D < sp->N; D++)	/* rank: the fill cursor now */
		sp->lhost[sp->lstart[rank[g->host[D].leaf]]++] = D;
	for (j = sp->nleaf; j > 0; j--)
		sp->lstart[j] = sp->lstart[j - 1];
	sp->lstart[0] = 0;
	for (D = 0; D < sp->N; D++)
		sp->hrank[D] = rank[g->host[D].leaf];
}

/* Ports' peers, base LIDs and the ones routed by turns, once. */
static void fill(struct shp *sp)
{
	const struct router *r = sp->r;
	const struct ibu_fabric *f = r->f;
	long D;
	int s, p, i;

	for (s = 0; s < f->num_nodes; s++)
		for (p = 0; p <= f->nodes[s].num_ports; p++)
			sp->peer[r->pbase[s] + p] =
				p ? f->nodes[s].ports[p].peer_node : -1;
	for (D = 0; D < sp->N; D++)
		sp->lid[D] = host_base(r, (int)D);
	for (i = 0; i < r->ndefer; i++)
		for (D = 0; D < sp->N; D++)
			sp->fixed[D] |= sp->lid[D] == r->defer[i].lid;
}

/* Every walk from a source leaf to a host, into sp->wc. */
static void walk_all(struct shp *sp)
{
	const struct ibu_pgft *g = sp->r->g;
	size_t x;
	long D;
	int j;

	for (j = 0; j < sp->nleaf; j++)
		for (D = 0; D < sp->N; D++) {
			x = (size_t)j * (size_t)sp->N + (size_t)D;
			sp->wlen[x] = !sp->lid[D] ? 0 :
				ibu__shp_walk(sp, sp->lleaf[j],
					      g->host[D].leaf, sp->lid[D],
					      sp->wc + x * WALK_HOPS,
					      WALK_HOPS);
		}
}

/* The shifts' loads and the all-to-all by the tables as they stand (every
 * pair, turned routes too), W and the shifts at it.  One walk per source
 * leaf and host, then shift by shift: a shift's row (its ports' loads)
 * stays in the cache while its flows are added, where pair by pair
 * every flow landed in another row (IBFT(16,3) with a cut, 1024 hosts:
 * `ibunion route` 0.45 -> 0.32 s in all). */
void ibu__shp_measure(struct shp *sp)
{
	uint32_t *kl;
	const int *c;
	long S, D, k;
	size_t x;
	int j, n;

	walk_all(sp);
	memset(sp->a2a, 0, sp->nslots * sizeof(uint32_t));
	memset(sp->kload, 0, sp->nslots * sizeof(uint32_t));
	for (k = 1; k < sp->N; k++) {
		kl = sp->kload + (size_t)k * sp->nslots;
		memset(kl, 0, sp->nslots * sizeof(uint32_t));
		for (S = 0, D = k; S < sp->N; S++, D = D + 1 < sp->N ? D + 1 : 0) {
			x = (size_t)sp->hrank[S] * (size_t)sp->N + (size_t)D;
			n = sp->wlen[x];
			c = sp->wc + x * WALK_HOPS;
			for (j = 0; j < n; j++) {
				kl[c[j]]++;
				sp->a2a[c[j]]++;
			}
		}
		row_worst(sp, k);
	}
	worst_of_rows(sp);
}

/* Rounds until one keeps nothing, W drops or the tries end; 1 if W
 * dropped. */
static int rounds(struct shp *sp)
{
	long W = sp->W;

	while (sp->W == W && sp->tries < SHIFT_TRIES && !sp->rc &&
	       lower_round(sp))
		;
	return sp->W < W;
}

/* The changes kept since log entry u0 put back, last first, each
 * walking back only the flows it moved. */
static void undo(struct shp *sp, int u0)
{
	const struct router *r = sp->r;
	struct undo_rec *u;
	uint8_t *ent;
	int m, t;

	sp->mvD = -1;
	if (sp->nlog == u0)
		return;
	sp->moved -= sp->nlog - u0;
	while (sp->nlog > u0) {
		u = &sp->log[--sp->nlog];
		t = r->g->host[u->D].leaf;
		ent = &r->lft->row[u->node][sp->lid[u->D]];
		m = ibu__shp_movers(sp, u->D, u->node);
		sp->nnew = ibu__shp_walk(sp, u->node, t, sp->lid[u->D],
					 sp->newc, WALK_HOPS);
		*ent = u->port;
		sp->nold = ibu__shp_walk(sp, u->node, t, sp->lid[u->D],
					 sp->oldc, WALK_HOPS);
		ibu__shp_move(sp, u->D, m, -1, sp->newc, sp->nnew);
		ibu__shp_move(sp, u->D, m, 1, sp->oldc, sp->nold);
	}
	count_worst(sp);
}

/* 1 when the eBB estimate is no lower than *bw (then the new one). */
static int kept_ebb(struct shp *sp, double *bw)
{
	double now = ibu__bisect_ebb(&sp->bs, sp->r);

	if (now < *bw * EBB_KEEP)
		return 0;
	*bw = now;
	return 1;
}

/*
 * A floor under W that any tables have: in shift k, the flows leaving a
 * switch with hosts (to a host elsewhere) share its cables to other
 * switches, and so do the flows arriving there.  Where W is at it, no
 * change can lower W, and lower() stops (IBFT(8,3) with a leaf's cable
 * cut: W 2, floor 2; it spent its 2048 tries to keep nothing).  Only the
 * host switches' cuts: lib/analysis/cuts.h bounds any cut, but reads
 * every cut of the fabric for each of the N - 1 shifts.  -1 out of
 * memory (in sp->rc).
 */
static long shift_floor(struct shp *sp)
{
	const struct router *r = sp->r;
	long *out = calloc((size_t)sp->nleaf + 1, sizeof(long)), k, S, D, fl = 1;
	long *in = calloc((size_t)sp->nleaf + 1, sizeof(long));
	int *up = calloc((size_t)sp->nleaf + 1, sizeof(int)), j, p, q, n;

	if (!out || !in || !up) {
		fl = -1;
		sp->rc = ibu_err_set(sp->e, IBU_ENOMEM, "out of memory");
	}
	for (j = 0; fl > 0 && j < sp->nleaf; j++) {
		n = sp->lleaf[j];
		for (p = 1; p <= r->f->nodes[n].num_ports; p++) {
			q = r->f->nodes[n].ports[p].peer_node;
			up[j] += q >= 0 && ibu_is_sw(r->f, q);
		}
	}
	for (k = 1; fl > 0 && k < sp->N; k++) {
		memset(out, 0, (size_t)sp->nleaf * sizeof(long));
		memset(in, 0, (size_t)sp->nleaf * sizeof(long));
		for (S = 0, D = k; S < sp->N; S++, D = D + 1 < sp->N ? D + 1 : 0)
			if (sp->hrank[S] != sp->hrank[D] && sp->lid[D]) {
				out[sp->hrank[S]]++;
				in[sp->hrank[D]]++;
			}
		for (j = 0; j < sp->nleaf; j++)
			if (up[j] > 0) {
				fl = (out[j] + up[j] - 1) / up[j] > fl ?
				     (out[j] + up[j] - 1) / up[j] : fl;
				fl = (in[j] + up[j] - 1) / up[j] > fl ?
				     (in[j] + up[j] - 1) / up[j] : fl;
			}
	}
	free(out);
	free(in);
	free(up);
	return fl;
}

/*
 * W lowered a step at a time, each step kept only if W drops (changes
 * that only make fewer shifts reach W cost eBB for nothing): first with
 * changes that add no square load to the all-to-all, else with any that
 * qualify (the least square load first), links at W fewer counting too.
 */
static void lower(struct shp *sp)
{
	int u0, mode;
	long floor = shift_floor(sp);
	double bw;

	if (floor < 0)
		return;
	sp->r->st.shift_floor = floor;
	if (sp->W <= floor)
		return;
	bw = ibu__bisect_ebb(&sp->bs, sp->r);
	while (sp->W > floor && sp->tries < SHIFT_TRIES && !sp->rc) {
		u0 = sp->nlog;
		for (mode = 0; mode < 4; mode++) {
			sp->guard = !(mode & 1);
			sp->pairs = mode >= 2;
			if (rounds(sp) && kept_ebb(sp, &bw))
				break;
			undo(sp, u0);
		}
		if (mode == 4)
			break;
	}
}

static void shp_free(struct shp *sp)
{
	free(sp->kload);
	free(sp->a2a);
	free(sp->peer);
	free(sp->lid);
	free(sp->fixed);
	free(sp->nw);
	free(sp->nw0);
	free(sp->lleaf);
	free(sp->lstart);
	free(sp->lhost);
	free(sp->mv);
	free(sp->mv2);
	free(sp->nmark);
	free(sp->kmark);
	free(sp->klist);
	free(sp->log);
	free(sp->hrank);
	free(sp->wc);
	free(sp->wlen);
	ibu__bisect_free(&sp->bs);
}

static int shp_alloc(struct shp *sp, struct ibu_err *e)
{
	size_t N = (size_t)sp->N, n = (size_t)sp->r->f->num_nodes + 1;

	sp->kload = calloc(N * sp->nslots + 1, sizeof(uint32_t));
	sp->a2a = calloc(sp->nslots + 1, sizeof(uint32_t));
	sp->peer = malloc((sp->nslots + 1) * sizeof(int));
	sp->lid = malloc(N * sizeof(uint32_t));
	sp->fixed = calloc(N, 1);
	sp->nw = calloc(N, sizeof(int));
	sp->nw0 = calloc(N, sizeof(int));
	sp->lleaf = malloc(n * sizeof(int));
	sp->lstart = malloc((n + 1) * sizeof(int));
	sp->lhost = malloc(N * sizeof(int));
	sp->hrank = malloc(N * sizeof(int));
	sp->mv = malloc(n * sizeof(int));
	sp->mv2 = malloc(n * sizeof(int));
	sp->nmark = calloc(n, sizeof(int));
	sp->kmark = calloc(N, sizeof(int));
	sp->klist = malloc(N * sizeof(long));
	sp->log = malloc((SHIFT_TRIES + 2 * PAIR_TRIES + 1) *
			 sizeof(*sp->log));
	if (!sp->kload || !sp->a2a || !sp->peer || !sp->lid || !sp->fixed || !sp->nw ||
	    !sp->nw0 || !sp->lleaf || !sp->lstart || !sp->lhost || !sp->hrank ||
	    !sp->mv || !sp->mv2 || !sp->nmark || !sp->kmark || !sp->klist || !sp->log)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return ibu__bisect_init(&sp->bs, sp->r, IBU__BISECT_SAMPLES,
				IBU__BISECT_SEED, e);
}

/* The walk cache, once the source leaves are known (index_hosts). */
static int walks_alloc(struct shp *sp, struct ibu_err *e)
{
	size_t n = (size_t)sp->nleaf * (size_t)sp->N + 1;

	sp->wlen = malloc(n * sizeof(int));
	sp->wc = malloc(n * WALK_HOPS * sizeof(int));
	if (!sp->wlen || !sp->wc)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return IBU_OK;
}

int ibu__pgft_lower_shift(struct router *r, struct ibu_err *e)
{
	struct shp sp;
	size_t c;
	int i, rc;

	memset(&sp, 0, sizeof(sp));
	sp.r = r;
	sp.N = r->g->num_hosts;
	sp.t = -1;
	sp.mvD = -1;
	sp.e = e;
	if (sp.N < 3 || !r->g->num_faults)
		return IBU_OK;
	for (i = 0; i < r->f->num_nodes; i++)
		sp.nslots += (size_t)r->f->nodes[i].num_ports + 1;
	if ((double)sp.N * (double)sp.nslots > (double)SHIFT_CELLS)
		return IBU_OK;
	rc = shp_alloc(&sp, e);
	if (!rc) {
		index_hosts(&sp, sp.mv);
		rc = walks_alloc(&sp, e);
	}
	if (!rc) {
		fill(&sp);
		ibu__shp_measure(&sp);
		for (c = 0; c < sp.nslots; c++)
			sp.cap = sp.a2a[c] > sp.cap ? sp.a2a[c] : sp.cap;
		sp.rc = ibu__pgft_gather(&sp);
		r->st.shift_from = sp.W;
		lower(&sp);
		r->st.shift_to = sp.W;
		if (!sp.rc)
			sp.rc = ibu__pgft_raise_ebb(&sp);
		r->st.shift_moved = sp.moved;
		for (i = 0; i < sp.nlog; i++)
			r->st.shift_pairs += sp.log[i].pair;
		r->st.shift_tries = sp.tries + sp.ptries;
		rc = sp.rc;
	}
	shp_free(&sp);
	return rc;
}
