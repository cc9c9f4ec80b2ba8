/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Raising the effective bisection bandwidth on a damaged PGFT, after the
 * shift pass and on its state (pgft_shift.h): a local search whose
 * objective is the eBB estimate itself (pgft_bisect.h, a sample of its
 * own seed). The balance passes reach a local optimum of the sum of
 * squared link loads, not of the eBB, so this pass tries to move one
 * (switch n, compute host D's base LID) entry to another minimal
 * up*|down* way at n, and keeps the move only if the estimate rises, no
 * shift's link goes above the worst shift W, no all-to-all link above
 * the all-to-all's busiest, and the routes close no credit loop.
 * Where that round ends at a local optimum, one more runs without the
 * two load guards and is kept only if it ends with both holding
 * (ebb_relax).
 *
 * Incremental: each bisection's link loads are kept; a move of (n, D)
 * changes in bisection b at most the one flow ending at D, when its
 * source's path crosses n, so only those bisections are measured again.
 * A LID routed by turns moves as in the shift pass: onto a cable
 * parallel to its own before the turn (ibu__shp_twin_cable: as long a
 * route, the turn where it was) or a minimal up*|down* way after it.
 * Deterministic whatever the node
 * order (destinations by host index, switches along the source leaves'
 * walks, ways by port), bounded:
 * where the shift pass runs (its SHIFT_CELLS) and EBB_TRIES tries
 * (EBB_RTRIES more in the unguarded round).
 */
#include <stdlib.h>
#include <string.h>
#include "pgft_shift.h"

/* Bisections the search measures: with 100 the moves fit the sample and
 * the random league's trees lost eBB on a larger one (below dfsssp's on
 * 34 trees, 13 before the pass); with 1000, 8. A bisection of N hosts
 * is N flows, so a small tree's sample says less: from EBB_SMALL hosts,
 * EBB_FLOWS flows, up to EBB_SAMPLES_MAX bisections, the tries' and
 * walks' budgets in proportion (126 hosts: 3000, 3 times the pass's
 * cost). Five league samples, 500 trees: 450 -> 460 met every target,
 * none lost; a sixth, not tuned on: eBB up on 37 trees of 100, down on
 * 2 (by 0.0002 at most). Below EBB_SMALL it only moved the local optimum
 * the search ends in: three trees of about 20 hosts lost 1-2%. */
#define EBB_SAMPLES 1000
#define EBB_SAMPLES_MAX 3000
#define EBB_SMALL 64
#define EBB_FLOWS 384000L
/* Moves measured at most. */
#define EBB_TRIES 1500
/* Flows walked at most by the tries' measures, a bound on the cost
 * whatever the tree (20 M: about 0.28 s more on a 512-host PGFT, 10 M
 * 0.15 s, the random league's misses the same). */
#define EBB_WALKS 10000000L
/* The guarded round stops where its estimate rose by less than
 * EBB_STALL (relative) over the last EBB_WINDOW tries (and the unguarded
 * one is not tried): on trees with one cut the pass spent most of the
 * routing (IBFT(8,3): 0.2 s of 0.2 s) to move a few entries for no
 * gain. On the 808 kept trees of the random leagues of seeds 1-37, offline
 * with their live LIDs: 27% less routing time in all, eBB lower on 87
 * trees (by 0.07% on average, 0.40% at most), higher on 34, no target
 * met or missed that was not before; IBFT(8,3) with a cut 0.20 -> 0.04 s,
 * IBFT(16,3) 0.25 -> 0.15 s. A window of 128 on the 400 trees of
 * seeds 13, 31, 37 and 71: 13% less routing time, eBB lower on 62 trees
 * and higher on 24, one more below dfsssp's. */
#define EBB_WINDOW 256
#define EBB_STALL 2e-4
/* A move is kept where the estimate rises by more than this (rounding). */
#define EBB_EPS 1e-9
/* Second moves tried for a move that takes a cell above a guard. */
#define EBB_PAIRS 16
/* The unguarded round after the guarded one (ebb_relax): its tries and
 * walks at most. */
#define EBB_RTRIES 500
#define EBB_RWALKS 3000000L

/* One entry's move in flight: enough to measure it and put it back. */
struct emove {
	int D, n, m, nc;	/* entry (n, lid of D); m moved leaves */
	uint8_t old;		/* its port before */
	int *mv;		/* [m]: the moved source leaves' ranks */
	int oldc[WALK_HOPS], newc[WALK_HOPS];
	int *aff, naff;		/* the bisections it changes */
	double *osum;		/* [i]: aff[i]'s sum before */
	double gain;		/* the estimate's change (unscaled) */
};

struct ebp {
	struct shp *sp;
	struct ibu__bisect *b;
	uint16_t *lb;		/* [k nslots + cell]: bisection k's loads (a
				 * flow each at most, N < 2^16: the pass
				 * runs within SHIFT_CELLS, and nslots
				 * counts the hosts' ports): half the
				 * cache lines of 32 bits (with inv, six
				 * league trees routed 1.16x faster) */
	double *sum;		/* [k]: its sum of 1 / busiest */
	struct emove mo[2];	/* a move and its pair */
	unsigned char *onmv;	/* [leaf rank]: its path crosses n */
	int *rank;		/* [node]: leaf rank, -1 */
	int *seen, *sw;		/* [node]: D + 1 once listed; the list */
	uint32_t amax;		/* the all-to-all's busiest */
	long walks;		/* flows walked by bsum */
	long pairs;		/* moves kept with a second one */
	long turned;		/* entries moved of LIDs routed by turns */
	int *pc, *plen;		/* the shift pass's walk cache (sp->wc,
				 * sp->wlen), kept current here */
	const int *hrank;	/* [S]: its leaf's rank (sp->hrank) */
	double *inv;		/* [m <= N]: 1.0 / m, m >= 1 (a load: at
				 * most one per flow); a lookup where
				 * the division held up bsum's sums */
	long tmax, wmax;	/* the round's budget: tries, walks */
	long wtry;		/* tries when the stall window began */
	double wsum;		/* the estimate then */
	int stalled;		/* the guarded round gave up (spent()) */
	int relax;		/* the guards off: moves logged */
	struct elog { int D, n; uint8_t old; } *log;
	long nlog;		/* [EBB_RTRIES]: the round's kept moves */
	long relaxed;		/* of those, kept at its end */
};

/* The walk from source leaf rank j to D into the path cache. */
static void cache_path(struct ebp *eb, int j, int D)
{
	const struct shp *sp = eb->sp;
	size_t x = (size_t)j * (size_t)sp->N + (size_t)D;

	eb->plen[x] = ibu__shp_walk(sp, sp->lleaf[j], sp->r->g->host[D].leaf,
				    sp->lid[D], eb->pc + x * WALK_HOPS,
				    WALK_HOPS);
}

/* mo's moved leaves' paths to its destination, after its entry changed. */
static void recache(struct ebp *eb, const struct emove *mo)
{
	int j;

	for (j = 0; j < mo->m; j++)
		cache_path(eb, mo->mv[j], mo->D);
}

/* Bisection k's sum over its flows, on its kept loads. */
static double bsum(struct ebp *eb, int k)
{
	const int *to = eb->b->to + (size_t)k * (size_t)eb->b->N;
	const uint16_t *l = eb->lb + (size_t)k * eb->sp->nslots;
	const int *c;
	int S, n, j;
	size_t x;
	uint32_t m;
	double s = 0;

	eb->walks += eb->b->N;
	for (S = 0; S < eb->b->N; S++) {
		if (to[S] < 0)
			continue;
		x = (size_t)eb->hrank[S] * (size_t)eb->sp->N + (size_t)to[S];
		n = eb->plen[x];
		c = eb->pc + x * WALK_HOPS;
		for (j = 0, m = 1; j < n; j++)
			m = l[c[j]] > m ? l[c[j]] : m;
		s += n >= 0 ? eb->inv[m] : 0;
	}
	return s;
}

/* The path cache, every bisection's loads and sums as the tables
 * stand. */
static void fill_loads(struct ebp *eb)
{
	struct shp *sp = eb->sp;
	const int *to, *c;
	int k, S, j, D;
	size_t x;
	uint16_t *l;

	for (j = 0; j < sp->nleaf; j++)
		for (D = 0; D < sp->N; D++)
			cache_path(eb, j, D);
	for (k = 0; k < eb->b->nb; k++) {
		to = eb->b->to + (size_t)k * (size_t)eb->b->N;
		l = eb->lb + (size_t)k * sp->nslots;
		for (S = 0; S < eb->b->N; S++) {
			if (to[S] < 0)
				continue;
			x = (size_t)eb->hrank[S] * (size_t)sp->N +
			    (size_t)to[S];
			c = eb->pc + x * WALK_HOPS;
			for (j = 0; j < eb->plen[x]; j++)
				l[c[j]]++;
		}
		eb->sum[k] = bsum(eb, k);
	}
}

/* The bisections whose flow ending at mo's destination starts on one of
 * its moved leaves, into mo->aff. */
static void affected(struct ebp *eb, struct emove *mo)
{
	struct shp *sp = eb->sp;
	const int *to;
	int j, k, S;

	for (j = 0; j < mo->m; j++)
		eb->onmv[mo->mv[j]] = 1;
	mo->naff = 0;
	for (k = 0; k < eb->b->nb; k++) {
		to = eb->b->to + (size_t)k * (size_t)eb->b->N;
		S = to[mo->D];
		if (S >= 0 && eb->onmv[eb->rank[sp->r->g->host[S].leaf]])
			mo->aff[mo->naff++] = k;
	}
	for (j = 0; j < mo->m; j++)
		eb->onmv[mo->mv[j]] = 0;
}

/* mo's affected bisections' one flow each onto (d = 1) or off cells. */
static void shift_flows(struct ebp *eb, const struct emove *mo,
			const int *cells, int d)
{
	int i, j;
	uint16_t *l;

	for (i = 0; i < mo->naff; i++) {
		l = eb->lb + (size_t)mo->aff[i] * eb->sp->nslots;
		for (j = 0; j < mo->nc; j++)
			l[cells[j]] += (uint16_t)d;
	}
}

/*
 * Entry (n, lid of D) to port p on the tables and on every bisection's
 * loads and sums, the estimate's change in mo->gain: 1 done, 0 when it is
 * no move (a walk that does not arrive or changes length: put back).
 */
static int move_on(struct ebp *eb, struct emove *mo, int D, int n, int p)
{
	struct shp *sp = eb->sp;
	uint8_t *ent = &sp->r->lft->row[n][sp->lid[D]];
	int t = sp->r->g->host[D].leaf, i, k, nold;

	sp->tries++;
	mo->D = D;
	mo->n = n;
	mo->old = *ent;
	mo->m = ibu__shp_movers(sp, D, n);
	memcpy(mo->mv, sp->mv, (size_t)mo->m * sizeof(int));
	nold = ibu__shp_walk(sp, n, t, sp->lid[D], mo->oldc, WALK_HOPS);
	*ent = (uint8_t)p;
	mo->nc = ibu__shp_walk(sp, n, t, sp->lid[D], mo->newc, WALK_HOPS);
	if (!mo->m || nold < 0 || mo->nc != nold) {
		*ent = mo->old;
		return 0;
	}
	recache(eb, mo);
	affected(eb, mo);
	shift_flows(eb, mo, mo->oldc, -1);
	shift_flows(eb, mo, mo->newc, 1);
	for (mo->gain = 0, i = 0; i < mo->naff; i++) {
		k = mo->aff[i];
		mo->osum[i] = eb->sum[k];
		eb->sum[k] = bsum(eb, k);
		mo->gain += eb->sum[k] - mo->osum[i];
	}
	return 1;
}

/* move_on undone (the last one on first). */
static void move_off(struct ebp *eb, const struct emove *mo)
{
	int i;

	for (i = 0; i < mo->naff; i++)
		eb->sum[mo->aff[i]] = mo->osum[i];
	shift_flows(eb, mo, mo->newc, -1);
	shift_flows(eb, mo, mo->oldc, 1);
	eb->sp->r->lft->row[mo->n][eb->sp->lid[mo->D]] = mo->old;
	recache(eb, mo);
}

/* mo's flows moved on the shift and all-to-all loads (on) or back. */
static void model(struct shp *sp, struct emove *mo, int on)
{
	int *keep = sp->mv;

	sp->mv = mo->mv;
	ibu__shp_move(sp, mo->D, mo->m, -1, on ? mo->oldc : mo->newc, mo->nc);
	ibu__shp_move(sp, mo->D, mo->m, 1, on ? mo->newc : mo->oldc, mo->nc);
	sp->mv = keep;
}

/* The first hop of mo's new walk whose cell is above a guard for the
 * flows it moved: the all-to-all's busiest, or W in one of their shifts;
 * -1 none. */
static int over_hop(const struct ebp *eb, const struct emove *mo)
{
	const struct shp *sp = eb->sp;
	int h, j, x;
	long k;

	if (eb->relax)
		return -1;
	for (h = 0; h < mo->nc; h++) {
		if (sp->a2a[mo->newc[h]] > eb->amax)
			return h;
		for (j = 0; j < mo->m; j++)
			for (x = sp->lstart[mo->mv[j]];
			     x < sp->lstart[mo->mv[j] + 1]; x++) {
				k = (mo->D - sp->lhost[x] + sp->N) % sp->N;
				if (sp->kload[(size_t)k * sp->nslots +
					      mo->newc[h]] > (uint32_t)sp->W)
					return h;
			}
	}
	return -1;
}

/* The second move of a pair: kept (1) with a where the two together
 * raise the estimate, keep every guard and close no credit loop. */
static int try_pair(struct ebp *eb, struct emove *a, int E, int n, int p)
{
	struct shp *sp = eb->sp;
	struct emove *b = &eb->mo[1];
	int ok;

	if (!move_on(eb, b, E, n, p))
		return 0;
	ok = a->gain + b->gain > EBB_EPS;
	if (ok) {
		model(sp, b, 1);
		ok = over_hop(eb, a) < 0 && over_hop(eb, b) < 0;
		if (ok)
			ok = ibu__shp_no_cycle(sp, sp->lid[a->D]);
		if (ok > 0)
			ok = ibu__shp_no_cycle(sp, sp->lid[E]);
		if (ok <= 0)
			model(sp, b, 0);
	}
	if (ok <= 0)
		move_off(eb, b);
	return ok;
}

/*
 * a raises the estimate but takes the cell at hop h of its walk above a
 * guard: the single moves meet a local optimum there, where the search
 * without guards passes through such a state and leaves it a move later.
 * So another destination's entry on that cell, at the same switch, is
 * moved to another way with it (destinations by host index, ways by
 * port, at most EBB_PAIRS tries): 1 the pair kept, 0 none, < 0 an error.
 */
static int repair(struct ebp *eb, struct emove *a, int h)
{
	struct shp *sp = eb->sp;
	const struct router *r = sp->r;
	int n = h ? sp->peer[a->newc[h - 1]] : a->n;
	int port = a->newc[h] - r->pbase[n], E, p, left = EBB_PAIRS, rc = 0;

	for (E = 0; !rc && E < sp->N && left > 0; E++) {
		if (E == a->D || !sp->lid[E] || sp->fixed[E] ||
		    r->lft->row[n][sp->lid[E]] != port)
			continue;
		ibu__shp_prepare(sp, r->g->host[E].leaf);
		for (p = 1; !rc && p <= r->f->nodes[n].num_ports &&
		     left > 0; p++)
			if (p != port && ibu__shp_is_way(sp, n, p)) {
				left--;
				rc = try_pair(eb, a, E, n, p);
			}
	}
	ibu__shp_prepare(sp, r->g->host[a->D].leaf);
	return rc;
}

/*
 * Entry (n, lid of D) to port p, measured and kept when the estimate
 * rises and the guards hold, alone or paired (repair): the entries kept,
 * 0 put back, < 0 an error.
 */
static int try_move(struct ebp *eb, int D, int n, int p)
{
	struct shp *sp = eb->sp;
	struct emove *a = &eb->mo[0];
	int h, ok;

	if (!move_on(eb, a, D, n, p))
		return 0;
	if (a->gain <= EBB_EPS) {
		move_off(eb, a);
		return 0;
	}
	model(sp, a, 1);
	h = over_hop(eb, a);
	ok = h < 0 ? ibu__shp_no_cycle(sp, sp->lid[D]) : repair(eb, a, h);
	if (ok <= 0) {
		model(sp, a, 0);
		move_off(eb, a);
		return ok;
	}
	ok = h < 0 ? 1 : 2;
	if (eb->relax) {	/* single moves only: over_hop finds no cell */
		eb->log[eb->nlog].D = D;
		eb->log[eb->nlog].n = n;
		eb->log[eb->nlog++].old = a->old;
	}
	eb->pairs += ok == 2;
	eb->turned += sp->fixed[D];
	sp->mvD = -1;
	sp->moved += ok;
	return ok;
}

/* The estimate: the mean flow bandwidth over the kept sums. */
static double total(const struct ebp *eb)
{
	double s = 0;
	int k;

	if (!eb->sum || eb->b->N < 2)
		return 0;
	for (k = 0; k < eb->b->nb; k++)
		s += eb->sum[k];
	return s / eb->b->nb / (eb->b->N / 2 * 2);
}

/* 1 when the round's budget is spent: its tries or walks, or, in the
 * guarded round, a stall (the estimate rose by less than EBB_STALL over
 * the last EBB_WINDOW tries). */
static int spent(struct ebp *eb)
{
	const struct shp *sp = eb->sp;
	double now;

	if (sp->tries >= eb->tmax || eb->walks > eb->wmax || eb->stalled)
		return 1;
	if (eb->relax || sp->tries < eb->wtry + EBB_WINDOW)
		return 0;
	now = total(eb);
	eb->stalled = now < eb->wsum * (1 + EBB_STALL);
	eb->wtry = sp->tries;
	eb->wsum = now;
	return eb->stalled;
}

/* The switches on D's routes from the source leaves (by rank, then
 * along the walk: an order the host order fixes, never node indices)
 * into eb->sw; how many. */
static int route_switches(struct ebp *eb, int D)
{
	struct shp *sp = eb->sp;
	int c[WALK_HOPS], t = sp->r->g->host[D].leaf, j, h, k, n, ns = 0;

	for (j = 0; j < sp->nleaf; j++) {
		if (sp->lleaf[j] == t)
			continue;
		k = ibu__shp_walk(sp, sp->lleaf[j], t, sp->lid[D], c,
				  WALK_HOPS);
		for (h = 0, n = sp->lleaf[j]; h < k; n = sp->peer[c[h++]])
			if (eb->seen[n] != D + 1) {
				eb->seen[n] = D + 1;
				eb->sw[ns++] = n;
			}
	}
	return ns;
}

/* Every other minimal way of every switch on D's routes, once; kept
 * moves counted in *kept. */
static int sweep_dest(struct ebp *eb, int D, long *kept)
{
	struct shp *sp = eb->sp;
	const struct router *r = sp->r;
	int i, n, p, cur, rc, ns, way;

	ibu__shp_prepare(sp, r->g->host[D].leaf);
	ns = route_switches(eb, D);
	for (i = 0; i < ns; i++) {
		n = eb->sw[i];
		cur = r->lft->row[n][sp->lid[D]];
		if (!cur || cur == IBU_NO_PATH)
			continue;
		way = ibu__shp_is_way(sp, n, cur);
		if (!way && !sp->fixed[D])
			continue;
		for (p = 1; p <= r->f->nodes[n].num_ports; p++) {
			if (spent(eb))
				return 0;
			if (p == r->lft->row[n][sp->lid[D]] ||
			    !(way ? ibu__shp_is_way(sp, n, p) :
				    ibu__shp_twin_cable(sp, n, p, D)))
				continue;
			rc = try_move(eb, D, n, p);
			if (rc < 0)
				return rc;
			*kept += rc;
		}
	}
	return 0;
}

/* One sweep over the destinations (by host index) within the round's
 * budget; kept moves counted in *kept. */
static int ebb_round(struct ebp *eb, long *kept)
{
	struct shp *sp = eb->sp;
	int D, rc = 0;

	for (D = 0; !rc && D < sp->N && !spent(eb); D++)
		if (sp->lid[D])
			rc = sweep_dest(eb, D, kept);
	return rc;
}

/* 1 when no cell is above a guard: the all-to-all's busiest, or W in a
 * shift. */
static int guards_hold(const struct ebp *eb)
{
	const struct shp *sp = eb->sp;
	size_t c;
	long k;

	for (c = 0; c < sp->nslots; c++) {
		if (sp->a2a[c] > eb->amax)
			return 0;
		for (k = 1; k < sp->N; k++)
			if (sp->kload[(size_t)k * sp->nslots + c] >
			    (uint32_t)sp->W)
				return 0;
	}
	return 1;
}

/*
 * The guarded round ends where every move that raises the estimate breaks
 * a guard, while the search without them passes through such states and
 * leaves them many moves later (on a small tree whose worst shift sits at
 * its cut bound, one cell above a guard for most of the round). So a
 * second round runs without the guards (still closing no credit loop,
 * within a budget of its own) and is kept only where it ends with every
 * guard holding; else its moves are put back, the last one first.
 */
static int ebb_relax(struct ebp *eb, long *kept)
{
	struct shp *sp = eb->sp;
	struct emove *mo = &eb->mo[0];
	long k0 = *kept, t0 = eb->turned, i, tries;
	int rc;

	eb->relax = 1;
	eb->nlog = 0;
	eb->tmax = sp->tries + EBB_RTRIES;
	eb->wmax = eb->walks + EBB_RWALKS;
	rc = ebb_round(eb, kept);
	eb->relax = 0;
	if (rc)
		return rc;
	if (guards_hold(eb)) {
		eb->relaxed = *kept - k0;
		return 0;
	}
	tries = sp->tries;	/* putting back is no try */
	for (i = eb->nlog - 1; i >= 0; i--) {
		ibu__shp_prepare(sp, sp->r->g->host[eb->log[i].D].leaf);
		if (move_on(eb, mo, eb->log[i].D, eb->log[i].n,
			    eb->log[i].old))
			model(sp, mo, 1);
	}
	sp->tries = tries;
	sp->mvD = -1;
	*kept = k0;
	eb->turned = t0;
	return 0;
}

static int ebp_alloc(struct ebp *eb, struct shp *sp, struct ibu__bisect *b)
{
	int n = sp->r->f->num_nodes, j;

	eb->sp = sp;
	eb->b = b;
	eb->lb = calloc((size_t)b->nb * sp->nslots + 1, sizeof(uint16_t));
	eb->sum = calloc((size_t)b->nb + 1, sizeof(double));
	for (j = 0; j < 2; j++) {
		eb->mo[j].mv = malloc(((size_t)sp->nleaf + 1) * sizeof(int));
		eb->mo[j].aff = malloc(((size_t)b->nb + 1) * sizeof(int));
		eb->mo[j].osum = malloc(((size_t)b->nb + 1) * sizeof(double));
		if (!eb->mo[j].mv || !eb->mo[j].aff || !eb->mo[j].osum)
			return ibu_err_set(sp->e, IBU_ENOMEM, "out of memory");
	}
	eb->onmv = calloc((size_t)n + 1, 1);
	eb->plen = sp->wlen;
	eb->pc = sp->wc;
	eb->hrank = sp->hrank;
	eb->rank = malloc(((size_t)n + 1) * sizeof(int));
	eb->seen = calloc((size_t)n + 1, sizeof(int));
	eb->sw = malloc(((size_t)n + 1) * sizeof(int));
	eb->log = malloc((EBB_RTRIES + 1) * sizeof(*eb->log));
	eb->inv = malloc(((size_t)sp->N + 1) * sizeof(double));
	if (!eb->lb || !eb->sum || !eb->onmv || !eb->log || !eb->rank ||
	    !eb->seen || !eb->sw || !eb->inv)
		return ibu_err_set(sp->e, IBU_ENOMEM, "out of memory");
	for (j = 1; j <= sp->N; j++)
		eb->inv[j] = 1.0 / j;
	for (j = 0; j < n; j++)
		eb->rank[j] = -1;
	for (j = 0; j < sp->nleaf; j++)
		eb->rank[sp->lleaf[j]] = j;
	return IBU_OK;
}

static void ebp_free(struct ebp *eb)
{
	int j;

	free(eb->lb);
	free(eb->sum);
	for (j = 0; j < 2; j++) {
		free(eb->mo[j].mv);
		free(eb->mo[j].aff);
		free(eb->mo[j].osum);
	}
	free(eb->onmv);
	free(eb->rank);
	free(eb->seen);
	free(eb->sw);
	free(eb->log);
	free(eb->inv);
}

int ibu__pgft_raise_ebb(struct shp *sp)
{
	struct ibu__bisect b;
	struct ebp eb;
	long kept = 0, tries0 = sp->tries, moved0 = sp->moved, k;
	size_t c;
	int rc;

	memset(&eb, 0, sizeof(eb));
	k = sp->N >= EBB_SMALL ? EBB_FLOWS / sp->N : EBB_SAMPLES;
	k = k < EBB_SAMPLES ? EBB_SAMPLES : k > EBB_SAMPLES_MAX ?
	    EBB_SAMPLES_MAX : k;
	rc = ibu__bisect_init(&b, sp->r, (int)k,
			      IBU__BISECT_SEED ^ 0x5a5a5a5aull, sp->e);
	if (rc)
		return rc;
	rc = ebp_alloc(&eb, sp, &b);
	for (c = 0; !rc && c < sp->nslots; c++)
		eb.amax = sp->a2a[c] > eb.amax ? sp->a2a[c] : eb.amax;
	sp->tries = 0;
	if (!rc)
		fill_loads(&eb);
	sp->r->st.ebb_from = total(&eb);
	sp->r->st.ebb_a2a = eb.amax;
	eb.wsum = sp->r->st.ebb_from;
	eb.tmax = EBB_TRIES * k / EBB_SAMPLES;
	eb.wmax = EBB_WALKS / EBB_SAMPLES * k;
	if (!rc)
		rc = ebb_round(&eb, &kept);
	/* the unguarded round only where the guarded one met a local optimum
	 * within its budget (else it would be a larger budget) */
	if (!rc && sp->tries < eb.tmax && eb.walks <= eb.wmax && !eb.stalled)
		rc = ebb_relax(&eb, &kept);
	sp->r->st.ebb_to = total(&eb);
	sp->r->st.ebb_moved = kept;
	sp->r->st.ebb_pairs = eb.pairs;
	sp->r->st.ebb_turned = eb.turned;
	sp->r->st.ebb_relaxed = eb.relaxed;
	sp->r->st.ebb_tries = sp->tries;
	sp->r->st.ebb_walks = eb.walks;
	sp->tries = tries0;
	sp->moved = moved0;
	ebp_free(&eb);
	ibu__bisect_free(&b);
	return rc;
}
