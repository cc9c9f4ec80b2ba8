/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The LIDs up*|down* cannot reach from every switch (a switch's own LID
 * seen from another top or from a leaf that lost its parent toward it; a
 * host on a top seen from another top). Those B switches get one down-up
 * turn, all of one LID's at one switch X: they go up*|down* to X, X and
 * after it keep their way. A turn a -> X -> b adds the dependency (a->X)
 * -> (X->b), a credit loop if (X->b) leads back to (a->X); so when end
 * ports' routes cross B switches the LID waits until every other is
 * routed, and takes the nearest X (hops, then GUID) that covers every B
 * switch with end ports and closes no cycle in cdg_ports.h's graph of all
 * routes. Only the switches' own packets crossing them: a plain shortest
 * path, which no end port's route meets. check --deadlock proves it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cdg_ports.h"
#include "pgft_router.h"

/* Candidate turn switches tried per LID: bounds the cycle searches where
 * none keeps the graph acyclic. */
#define TURN_TRIES 64

/* The B switches' entries for lid toward X: how many reach it, *far the
 * most hops of one, *ends how many with end ports do not. */
static int toward(struct router *r, int x, uint32_t lid, int nb, int *far,
		  int *ends)
{
	int i, s, cov = 0;

	ibu__pgft_route_updown(r, x, 0, lid, 1);
	*far = 0;
	*ends = 0;
	for (i = 0; i < nb; i++) {
		s = r->turnb[i];
		if (r->above[s] != r->stamp && r->dist[s] < 0) {
			*ends += r->hosted[s];
			continue;
		}
		cov++;
		if (r->dist[s] > *far)
			*far = r->dist[s];
	}
	return cov;
}

struct cand {
	int used, d, node;
	uint64_t guid;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->used != y->used)
		return x->used < y->used ? -1 : 1;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->guid > y->guid) - (x->guid < y->guid);
}

/* x into the first *n (at most TURN_TRIES) of c, kept in cmp_cand order:
 * only those are ever tried, so the rest need no sort. */
static void keep_best(struct cand *c, int *n, const struct cand *x)
{
	int i = *n;

	if (i == TURN_TRIES && cmp_cand(x, &c[i - 1]) >= 0)
		return;
	if (i < TURN_TRIES)
		(*n)++;
	else
		i--;
	for (; i > 0 && cmp_cand(x, &c[i - 1]) < 0; i--)
		c[i] = c[i - 1];
	c[i] = *x;
}

/*
 * The switches with an up*|down* way to t, not above it (a turn there is
 * down-up), nearest first, then by GUID: the graph and GUIDs decide, so
 * the plugin and the tool agree. Turn switches already chosen go first,
 * in that order: turns gathered at few switches close fewer cycles
 * (IBFT(8,3) with a middle switch that lost every parent left 142 leaf
 * entries unrouted nearest-first alone). The first TURN_TRIES of them.
 */
static int candidates(struct router *r)
{
	struct cand c[TURN_TRIES], x;
	int n = 0, l, i, s;

	for (l = 1; l <= r->g->P.h; l++)
		for (i = 0; i < r->nlevel[l]; i++) {
			s = r->by_level[l][i];
			if (r->above[s] == r->stamp || r->tdist[s] < 1)
				continue;
			x.used = r->turnx[s] ? r->turnx[s] : INT_MAX;
			x.d = r->tdist[s];
			x.guid = r->f->nodes[s].guid;
			x.node = s;
			keep_best(c, &n, &x);
		}
	for (i = 0; i < n; i++)
		r->turnc[i] = c[i].node;
	return n;
}

/* The B switches' entries (ends_only: with end ports) back to none. */
static void clear_b(struct router *r, uint32_t lid, int nb, int ends_only)
{
	int i;

	for (i = 0; i < nb; i++)
		if (!ends_only || r->hosted[r->turnb[i]])
			r->lft->row[r->turnb[i]][lid] = IBU_NO_PATH;
}

/* B switches without end ports no turn switch took: a plain shortest
 * path for their own packets, which no end port's route meets; no loop:
 * it leads to switches that reach X or are plain ones a hop nearer.
 * fresh: no B switch has an end port or an entry yet (route_updown just
 * left them all unwritten), so their rows are not read: each read was a
 * cache miss, most of this function's time on IBFT(24,3). */
static void finish_b(struct router *r, int t, uint32_t lid, int nb,
		     int fresh)
{
	struct ibu__choice c;
	int i, s, have = 0;

	for (i = 0; i < nb; i++) {
		s = r->turnb[i];
		if (!fresh &&
		    (r->lft->row[s][lid] != IBU_NO_PATH || r->hosted[s]))
			continue;
		if (!have++)
			ibu__pgft_plain_dist(r, t, r->pdist);
		if (r->pdist[s] != INT_MAX && r->pdist[s] > 0) {
			ibu__pgft_plain_choice(r, s, r->pdist, r->pdist[s] - 1,
					       &c);
			r->lft->row[s][lid] = (uint8_t)ibu__choice_port(&c, lid);
			r->st.outside++;
		} else {
			c.k = 0;
			r->st.unrouted++;
		}
		if (r->rec)
			ibu__pgft_rec_note(r, s, c.k ? IBU__TPL_PLAIN :
					   IBU__TPL_UNROUTED, &c);
	}
}

/* Only the B switches on an end port's route keep the way to X (marked
 * in pdist); the others take finish_b()'s plain path as on the intact tree
 * (one cut leaf cable of IBFT(24,3) otherwise rewrote 11 top switches'
 * LIDs on 408 switches each). */
static void keep_fed(struct router *r, uint32_t lid, int nb)
{
	const struct ibu_node *n;
	int i, s, port;

	for (i = 0; i < nb; i++)
		r->pdist[r->turnb[i]] = 0;
	for (i = 0; i < nb; i++)
		for (s = r->turnb[i]; r->hosted[r->turnb[i]] &&
		     s >= 0 && r->tdist[s] < 0 && !r->pdist[s];) {
			r->pdist[s] = 1;
			port = r->lft->row[s][lid];
			n = &r->f->nodes[s];
			if (port == IBU_NO_PATH || port < 1 || port > n->num_ports)
				break;
			s = n->ports[port].peer_node;
			if (s >= 0 && !ibu_node_is_switch(&r->f->nodes[s]))
				break;
		}
	for (i = 0; i < nb; i++) {
		s = r->turnb[i];
		if (!r->pdist[s])
			r->lft->row[s][lid] = IBU_NO_PATH;
		else if (r->lft->row[s][lid] != IBU_NO_PATH)
			r->st.turned++;
		else
			r->st.unrouted++;
	}
}

/*
 * Does a trial turn close a cycle in the channel dependency graph of
 * every route (cdg_ports.h)? Mostly answered without that graph. Every
 * switch-to-switch cable of a PGFT joins adjacent levels, so a cycle of
 * channels goes down and then up again somewhere: it holds a down-up
 * dependency (a->X)->(X->b). Every end port's route but the turned ones
 * goes up*|down* (the rule, the balance, route_updown: A switches never
 * lead into B ones), so those are the turns of the LIDs committed and of
 * the trial, found by walking their routes. Cut at them, a cycle is
 * pieces from a turn's up channel X->b to a turn's down channel a'->X'
 * with no down-up dependency between: up from b, then down to a'. So
 * when no switch a turn comes down from (a') is reachable by cables up
 * then down from one a turn climbs to (b), the graph is acyclic whatever
 * the other routes' dependencies, and the trial is taken as the graph
 * would take it. Otherwise (a cycle is possible) the graph is built once,
 * of every route as the tables hold them, and answers from then on
 * (IBFT(24,3), one cut leaf cable: 36 trials, each proved acyclic so; the
 * graph, about 53 M instructions of the routing's 322 M, never built).
 */
#define TC_HEAD 1		/* a turn climbs to it (committed) */
#define TC_TAIL 2		/* a turn comes down from it */
#define TC_TRIAL 2		/* shift: the trial's flags */

struct turn_check {
	const uint32_t *eager;	/* every deferred LID */
	unsigned char *flag;	/* [node] TC_* */
	int *trial, ntrial;	/* switches the trial flagged */
	int *queue, *starts, nstarts;
	uint32_t *seen, stamp;	/* [node] */
	int levels_ok;		/* every cable between adjacent levels */
	int exact;		/* cdg built: it answers */
	struct ibu_cdg_ports cdg;
};

/* Switches with an end port (cdg_ports.c's starts); levels_ok. */
static void check_scan(const struct router *r, struct turn_check *tc)
{
	const int *lv = r->g->level;
	int v, p, w, d;

	tc->levels_ok = 1;
	for (v = 0; v < r->f->num_nodes; v++) {
		if (!ibu_is_sw(r->f, v))
			continue;
		d = 0;
		for (p = 1; p <= r->f->nodes[v].num_ports; p++) {
			w = r->f->nodes[v].ports[p].peer_node;
			if (w >= 0 && !ibu_is_sw(r->f, w))
				d = 1;
			else if (w >= 0 && (lv[v] < 1 || lv[w] < 1 ||
					    abs(lv[w] - lv[v]) != 1))
				tc->levels_ok = 0;
		}
		if (d)
			tc->starts[tc->nstarts++] = v;
	}
}

static int check_init(struct router *r, struct turn_check *tc,
		      uint32_t *eager, struct ibu_err *e)
{
	size_t N = (size_t)r->f->num_nodes + 1;
	int i;

	memset(tc, 0, sizeof(*tc));
	for (i = 0; i < r->ndefer; i++)
		eager[i] = r->defer[i].lid;
	tc->eager = eager;
	tc->flag = calloc(N, 1);
	tc->trial = malloc(N * sizeof(int));
	tc->queue = malloc(N * sizeof(int));
	tc->starts = malloc(N * sizeof(int));
	tc->seen = calloc(N, sizeof(*tc->seen));
	if (!tc->flag || !tc->trial || !tc->queue ||
	    !tc->starts || !tc->seen)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	check_scan(r, tc);
	return IBU_OK;
}

static void check_free(struct turn_check *tc)
{
	if (tc->exact)
		ibu_cdg_ports_free(&tc->cdg);
	free(tc->flag);
	free(tc->trial);
	free(tc->queue);
	free(tc->starts);
	free(tc->seen);
}

/* The switch v sends lid to, when a switch (cdg_ports.c's chan_to). */
static int hop(const struct router *r, int v, uint32_t lid)
{
	const struct ibu_node *n = &r->f->nodes[v];
	const uint8_t *row = r->lft->row[v];
	int port;

	if (!row || lid > r->lft->max_lid)
		return -1;
	port = row[lid];
	if (port < 1 || port > n->num_ports)
		return -1;
	return ibu_is_sw(r->f, n->ports[port].peer_node) ?
		n->ports[port].peer_node : -1;
}

/* v's flag bit for the trial, unless committed already (no new turn) */
static void flag_trial(struct turn_check *tc, int v, int bit)
{
	if (tc->flag[v] & (bit | bit << TC_TRIAL))
		return;
	if (!(tc->flag[v] >> TC_TRIAL))
		tc->trial[tc->ntrial++] = v;
	tc->flag[v] |= (unsigned char)(bit << TC_TRIAL);
}

/* The down-up dependencies of lid's routes from every end port, walked
 * as ibu_cdg_ports_add_lid walks them: a -> v -> b with v below both. */
static void walk_turns(const struct router *r, struct turn_check *tc,
		       uint32_t lid)
{
	const int *lv = r->g->level;
	int i, p, v, w;

	tc->stamp++;
	for (i = 0; i < tc->nstarts; i++) {
		p = tc->starts[i];
		if (tc->seen[p] == tc->stamp)
			continue;
		tc->seen[p] = tc->stamp;
		for (v = hop(r, p, lid); v >= 0; p = v, v = w) {
			w = hop(r, v, lid);
			if (w < 0)
				break;
			if (lv[p] > lv[v] && lv[w] > lv[v]) {
				flag_trial(tc, w, TC_HEAD);
				flag_trial(tc, p, TC_TAIL);
			}
			if (tc->seen[v] == tc->stamp)
				break;
			tc->seen[v] = tc->stamp;
		}
	}
}

/* Switches from queue[from..*n) and their neighbours at level + dir,
 * breadth first, marked with stamp. */
static void closure(const struct router *r, struct turn_check *tc, int *n,
		    int from, int dir, uint32_t stamp)
{
	const int *lv = r->g->level;
	const struct ibu_node *nd;
	int i, p, v, w;

	for (i = from; i < *n; i++) {
		v = tc->queue[i];
		nd = &r->f->nodes[v];
		for (p = 1; p <= nd->num_ports; p++) {
			w = nd->ports[p].peer_node;
			if (ibu_is_sw(r->f, w) && lv[w] == lv[v] + dir &&
			    tc->seen[w] != stamp) {
				tc->seen[w] = stamp;
				tc->queue[(*n)++] = w;
			}
		}
	}
}

/* 1: no switch a turn (committed or trial) comes down from is reachable
 * up then down from one a turn climbs to, so no cycle; 0: maybe one. */
static int proved(const struct router *r, struct turn_check *tc)
{
	const int heads = TC_HEAD | TC_HEAD << TC_TRIAL;
	const int tails = TC_TAIL | TC_TAIL << TC_TRIAL;
	uint32_t up = ++tc->stamp, dn = ++tc->stamp;
	int n = 0, nu, i, v;

	for (v = 0; v < r->f->num_nodes; v++)
		if (tc->flag[v] & heads) {
			tc->seen[v] = up;
			tc->queue[n++] = v;
		}
	closure(r, tc, &n, 0, 1, up);
	nu = n;
	for (i = 0; i < nu; i++)
		tc->seen[tc->queue[i]] = dn;
	closure(r, tc, &n, 0, -1, dn);
	for (i = 0; i < n; i++)
		if (tc->flag[tc->queue[i]] & tails)
			return 0;
	return 1;
}

/* The graph of every route as the tables hold them, lid's B entries
 * (its trial's) none meanwhile: what deferred_pass built before the
 * first trial (every LID, the deferred ones' B switches none) plus the
 * LIDs committed since, whose routes from end ports are what they were
 * at their trial (keep_fed and finish_b change only B switches no end
 * port's route meets). */
static int build_exact(struct router *r, struct turn_check *tc,
		       uint32_t lid, int nb, struct ibu_err *e)
{
	int rc, len;

	clear_b(r, lid, nb, 0);
	rc = ibu_cdg_ports_init(&tc->cdg, r->f, e);
	if (rc)
		return rc;
	tc->exact = 1;
	rc = ibu_cdg_ports_add_unicast_lazy(&tc->cdg, r->lft, r->map,
					    tc->eager, r->ndefer, e);
	/* once over the whole graph: each trial then searches only from
	 * its new dependencies (a cycle already there fails every trial) */
	if (!rc && (rc = ibu_cdg_ports_find_cycle(&tc->cdg, NULL, &len, e)) > 0)
		rc = IBU_OK;
	return rc;
}

static void check_rollback(struct turn_check *tc)
{
	int i;

	if (tc->exact)
		ibu_cdg_ports_rollback(&tc->cdg);
	for (i = 0; i < tc->ntrial; i++)
		tc->flag[tc->trial[i]] &= (1 << TC_TRIAL) - 1;
	tc->ntrial = 0;
}

static void check_commit(struct turn_check *tc)
{
	int i, v;

	if (tc->exact)
		ibu_cdg_ports_commit(&tc->cdg);
	for (i = 0; i < tc->ntrial; i++) {
		v = tc->trial[i];
		tc->flag[v] = (unsigned char)((tc->flag[v] |
					       tc->flag[v] >> TC_TRIAL) &
					      ((1 << TC_TRIAL) - 1));
	}
	tc->ntrial = 0;
}

/* lid's routes with their turns toward x (toward() wrote its B entries):
 * 0 when they close no cycle with every route, 1 when they do, < 0 an
 * error. */
static int check_trial(struct router *r, struct turn_check *tc,
		       uint32_t lid, int nb, int x, struct ibu_err *e)
{
	int rc, len, far, ends;

	if (!tc->exact && tc->levels_ok) {
		walk_turns(r, tc, lid);
		/* no turn but those committed, which were proved so */
		if (!tc->ntrial || proved(r, tc))
			return 0;
	}
	if (!tc->exact) {
		rc = build_exact(r, tc, lid, nb, e);
		if (rc)
			return rc;
		toward(r, x, lid, nb, &far, &ends);
	}
	ibu_cdg_ports_mark(&tc->cdg);
	rc = ibu_cdg_ports_add_lid(&tc->cdg, r->lft, lid, e);
	if (!rc)
		rc = ibu_cdg_ports_find_new_cycle(&tc->cdg, NULL, &len, e);
	return rc;
}

/* The nearest turn switch covering every B switch with end ports that
 * closes no cycle (check_trial); none: the best covering one for the
 * switches' own packets, end ports no entry (WRN 5A52). */
static int choose(struct router *r, uint32_t lid, int nb,
		  struct turn_check *tc, struct ibu_err *e)
{
	int nc = candidates(r), i, cov, far, best = -1, bcov = 0, rc;
	int bfar = INT_MAX, ends;

	for (i = 0; i < nc; i++) {
		cov = toward(r, r->turnc[i], lid, nb, &far, &ends);
		if (!ends) {
			rc = check_trial(r, tc, lid, nb, r->turnc[i], e);
			if (rc < 0)
				return rc;
			if (!rc) {
				check_commit(tc);
				if (!r->turnx[r->turnc[i]])
					r->turnx[r->turnc[i]] = ++r->nturnx;
				return IBU_OK;
			}
			check_rollback(tc);
		}
		clear_b(r, lid, nb, 0);
		if (cov > bcov || (cov == bcov && cov && far < bfar)) {
			best = r->turnc[i];
			bcov = cov;
			bfar = far;
		}
	}
	if (best >= 0)
		toward(r, best, lid, nb, &far, &ends);
	clear_b(r, lid, nb, 1);
	return IBU_OK;
}

/* Once per LID: the array is sized for every LID. */
static void defer(struct router *r, int t, int host_port, uint32_t lid,
		  int keep)
{
	struct turn_job *j = &r->defer[r->ndefer++];

	j->lid = lid;
	j->t = t;
	j->host_port = host_port;
	j->keep = keep;
}

int ibu__pgft_route_turned(struct router *r, int t, int host_port,
			   uint32_t lid, int nb, struct ibu_err *e)
{
	int i;

	/* no B switch with an end port: only the switches' own packets
	 * cross the turn (A switches never lead into B ones) */
	for (i = 0; i < nb && !r->hosted[r->turnb[i]]; i++)
		;
	if (i == nb) {
		finish_b(r, t, lid, nb, 1);
		return IBU_OK;
	}
	defer(r, t, host_port, lid, 0);
	return IBU_OK;
}

void ibu__pgft_defer_host(struct router *r, int t, int host_port,
			  uint32_t lid)
{
	defer(r, t, host_port, lid, 1);
}

static int host_lmc(const struct router *r, uint32_t lid)
{
	const struct ibu_lid_owner *o = ibu_lidmap_get(r->map, lid);

	return o ? r->f->nodes[o->node].ports[o->port].lmc : 0;
}

/* The B switches of a deferred LID toward its switch; a kept LID's other
 * rows (the balance's) as they were: route_updown writes every switch
 * with a way, and only the distances are wanted of it. */
static int route_b(struct router *r, const struct turn_job *j, uint8_t *col)
{
	int s, nb;

	if (j->keep)
		for (s = 0; s < r->f->num_nodes; s++)
			col[s] = r->lft->row[s] ? r->lft->row[s][j->lid] : 0;
	nb = ibu__pgft_route_updown(r, j->t, j->host_port, j->lid, 0);
	if (j->keep)
		for (s = 0; s < r->f->num_nodes; s++)
			if (r->lft->row[s] && r->tdist[s] >= 0)
				r->lft->row[s][j->lid] = col[s];
	return nb;
}

/* One pass over the deferred LIDs in the order of ord[], choosing each
 * one's turns against the dependencies of every route so far; failed[i]:
 * deferred LID i left entries unrouted. Returns how many did, < 0 an
 * error. */
static int deferred_pass(struct router *r, const int *ord, char *failed,
			 uint8_t *col, uint32_t *eager, struct ibu_err *e)
{
	struct turn_check tc;
	const struct turn_job *j;
	int i, nb, rc, nfail = 0;
	long before;

	rc = check_init(r, &tc, eager, e);
	for (i = 0; i < r->ndefer && !rc; i++) {
		j = &r->defer[ord[i]];
		before = r->st.unrouted;
		nb = route_b(r, j, col);
		r->spread_lmc = j->keep ? host_lmc(r, j->lid) : 0;
		rc = choose(r, j->lid, nb, &tc, e);
		r->spread_lmc = 0;
		keep_fed(r, j->lid, nb);
		finish_b(r, j->t, j->lid, nb, 0);
		failed[ord[i]] = r->st.unrouted > before;
		nfail += failed[ord[i]];
	}
	check_free(&tc);
	return rc ? rc : nfail;
}

/* The deferred LIDs' entries, statistics and turn switches as they were
 * before a pass (the B switches' entries none, as route_updown left
 * them), for another pass in another order. */
static void deferred_reset(struct router *r, uint8_t *col,
			   const struct ibu_pgft_route_stats *st,
			   const int *turnx, int nturnx)
{
	int i, nb;

	for (i = 0; i < r->ndefer; i++) {
		nb = route_b(r, &r->defer[i], col);
		clear_b(r, r->defer[i].lid, nb, 0);
	}
	r->st = *st;
	memcpy(r->turnx, turnx, (size_t)r->f->num_nodes * sizeof(int));
	r->nturnx = nturnx;
}

static int turn_balance(struct router *r, struct ibu_err *e);

/*
 * The deferred LIDs in arrival order; where some leave entries unrouted
 * (the turns chosen before theirs close a cycle with every one of theirs:
 * a top that lost the cable into one pod on a small tree), once more with
 * those first, kept when fewer fail.
 */
int ibu__pgft_route_deferred(struct router *r, struct ibu_err *e)
{
	struct ibu_pgft_route_stats st = r->st;
	size_t N = (size_t)r->f->num_nodes + 1, D = (size_t)r->ndefer;
	int *ord, *turnx, i, k, nfail, again, nturnx = r->nturnx;
	uint32_t *eager;
	uint8_t *col;
	char *failed;

	if (!r->ndefer)
		return IBU_OK;
	col = malloc(N + D);
	eager = malloc(D * sizeof(*eager));
	ord = malloc(D * sizeof(*ord));
	turnx = malloc(N * sizeof(*turnx));
	if (!col || !eager || !ord || !turnx) {
		nfail = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	failed = (char *)col + N;
	memcpy(turnx, r->turnx, (N - 1) * sizeof(*turnx));
	for (i = 0; i < r->ndefer; i++)
		ord[i] = i;
	nfail = deferred_pass(r, ord, failed, col, eager, e);
	if (nfail <= 0 || nfail == r->ndefer)
		goto out;
	for (i = k = 0; i < r->ndefer; i++)	/* the failed ones first */
		if (failed[i])
			ord[k++] = i;
	for (i = 0; i < r->ndefer; i++)
		if (!failed[i])
			ord[k++] = i;
	deferred_reset(r, col, &st, turnx, nturnx);
	again = deferred_pass(r, ord, failed, col, eager, e);
	if (again >= 0 && again >= nfail) {	/* not better: as first */
		for (i = 0; i < r->ndefer; i++)
			ord[i] = i;
		deferred_reset(r, col, &st, turnx, nturnx);
		again = deferred_pass(r, ord, failed, col, eager, e);
	}
	nfail = again;
out:
	free(col);
	free(eager);
	free(ord);
	free(turnx);
	return nfail < 0 ? nfail : turn_balance(r, e);
}

/*
 * After the turns: the all-to-all over base LIDs (what SA hands out) with
 * the turned flows in it. The balance placed every LID before the turns
 * existed, so a turn switch's cables carry the turned flows on top of a
 * share the balance thought even (IBFT(4,3) with two pods left one
 * middle switch each, under different halves of the tops: every turn at
 * one leaf, 32 messages on its busiest cable where 30 fit). So while the
 * busiest switch-to-switch cable can shed, the messages one switch's
 * entry for one LID sends over it move to another port of that switch
 * that reaches the LID in as many hops, in the same direction (up or
 * down) and up*|down* from there: an up*|down* route stays one, minimal,
 * and a turned route keeps its one turn at its switch, so the turn
 * check's premise holds. A move is kept when no cable it adds to reaches
 * the old busiest and the channel dependency graph of every route stays
 * acyclic; moves made at a busiest no move lowers are undone, and so are
 * those that lift the worst shift permutation or cost the bisection
 * bandwidth more than 1%. Only where end ports' routes turn on a damaged
 * tree, of up to TB_PORTS end ports (the pass measures every pair).
 */
#define TB_PORTS 512
#define TB_HOPS (4 * IBU_PGFT_MAX_H + 4)

struct tbal {
	struct router *r;
	int N, nd, nhs;
	uint32_t *dl;		/* [dest] an end port's base LID, ascending */
	unsigned char *tried;	/* [dest * N + node] a move closed a cycle */
	int *hs;		/* switches with end ports, */
	int *nsrc;		/* [node] and how many */
	int *T;			/* [dest * N + node] messages its entry sends */
	uint32_t *load;		/* [pbase + port] switch to switch */
	uint32_t *ulog;		/* moves: node, LID, old | new port << 8 */
	int nlog, caplog;
	int *lvl, nlvl;		/* log lengths where the busiest dropped */
	uint32_t *sload;	/* [pbase + port] one shift's, */
	int *touch, np, ntouch;	/* its cables; slots */
	int *perm;		/* [compute host] a bisection */
	int cdg_on;
	struct ibu_cdg_ports cdg;
};

/* The switch-to-switch cables (slots) and switches from s toward lid,
 * nodes[0] = s; how many cables, -1 when it ends nowhere. */
static int tb_walk(const struct router *r, int s, uint32_t lid, int *slots,
		   int *nodes)
{
	int n = 0, port;

	for (nodes[0] = s;; nodes[n] = s) {
		port = r->lft->row[s][lid];
		if (port == 0)
			return n;
		if (port == IBU_NO_PATH || port > r->f->nodes[s].num_ports)
			return -1;
		if (!ibu_is_sw(r->f, r->f->nodes[s].ports[port].peer_node))
			return r->f->nodes[s].ports[port].peer_node >= 0 ? n : -1;
		if (n == TB_HOPS)
			return -1;
		slots[n++] = r->pbase[s] + port;
		s = r->f->nodes[s].ports[port].peer_node;
	}
}

/* The cable s's entry for lid leaves on (a slot), -1: to no switch. */
static int tb_out(const struct router *r, int s, uint32_t lid)
{
	int port = r->lft->row[s][lid];

	if (port < 1 || port > r->f->nodes[s].num_ports ||
	    !ibu_is_sw(r->f, r->f->nodes[s].ports[port].peer_node))
		return -1;
	return r->pbase[s] + port;
}

/* Dest i's messages per switch entry, added to (sign 1) or taken from
 * (-1) the cables' loads; T refilled when adding. */
static void tb_dest(struct tbal *tb, int i, int sign)
{
	int *T = tb->T + (size_t)i * (size_t)tb->N;
	int slots[TB_HOPS + 1], nodes[TB_HOPS + 2], j, k, n, s, c;

	if (sign > 0) {
		memset(T, 0, sizeof(int) * (size_t)tb->N);
		for (j = 0; j < tb->nhs; j++) {
			s = tb->hs[j];
			n = tb_walk(tb->r, s, tb->dl[i], slots, nodes);
			for (k = 0; k <= n; k++)
				T[nodes[k]] += tb->nsrc[s];
		}
	}
	for (s = 0; s < tb->N; s++)
		if (T[s] && (c = tb_out(tb->r, s, tb->dl[i])) >= 0)
			tb->load[c] += (uint32_t)(sign * T[s]);
}

/* Climbs, then only descends (levels of nodes[0..n]). */
static int tb_updown(const struct router *r, const int *nodes, int n)
{
	int k, down = 0;

	for (k = 0; k < n; k++) {
		if (r->g->level[nodes[k + 1]] < r->g->level[nodes[k]])
			down = 1;
		else if (down)
			return 0;
	}
	return 1;
}

static int tb_has(const int *slots, int n, int c)
{
	while (n-- > 0)
		if (slots[n] == c)
			return 1;
	return 0;
}

/* Dest i's messages at s sent on port p instead: the busiest cable they
 * would newly cross (with them), -1 unless as short, the same direction
 * and up*|down* on, off cable hot, and below M everywhere. */
static long tb_try(const struct tbal *tb, int i, int s, int p, int hot,
		   uint32_t M)
{
	const struct router *r = tb->r;
	int s0[TB_HOPS + 1], n0s[TB_HOPS + 2], s1[TB_HOPS + 2];
	int n1s[TB_HOPS + 3], n0, n1, k, v, lv;
	uint32_t F = (uint32_t)tb->T[(size_t)i * (size_t)tb->N + (size_t)s];
	long worst = 0;

	v = r->f->nodes[s].ports[p].peer_node;
	n0 = tb_walk(r, s, tb->dl[i], s0, n0s);
	if (n0 < 1 || !ibu_is_sw(r->f, v))
		return -1;
	n1 = tb_walk(r, v, tb->dl[i], s1 + 1, n1s + 1);
	lv = r->g->level[s];
	if (n1 + 1 != n0 || (r->g->level[v] > lv) != (r->g->level[n0s[1]] > lv))
		return -1;
	s1[0] = r->pbase[s] + p;
	n1s[0] = s;
	if (!tb_updown(r, n1s, n0) || tb_has(s1, n0, hot))
		return -1;
	for (k = 0; k < n0; k++) {
		uint32_t l = tb->load[s1[k]] + (tb_has(s0, n0, s1[k]) ? 0 : F);

		if (l >= M)
			return -1;
		if ((long)l > worst)
			worst = l;
	}
	return worst;
}

struct tb_move {
	int i, s, p;
	long worst;
};

/* The move off cable hot (of switch u) that leaves the least on the
 * cables it takes; m->i -1: none. */
static void tb_pick(const struct tbal *tb, int u, int hot, uint32_t M,
		    struct tb_move *m)
{
	const struct router *r = tb->r;
	int slots[TB_HOPS + 1], nodes[TB_HOPS + 2], i, s, j, n, p;
	const int *T;
	long w;

	m->i = -1;
	m->worst = 0;
	for (i = 0; i < tb->nd; i++) {
		T = tb->T + (size_t)i * (size_t)tb->N;
		if (!T[u] || tb_out(r, u, tb->dl[i]) != hot)
			continue;
		for (s = 0; s < tb->N; s++) {
			if (!T[s] || !ibu_is_sw(r->f, s) ||
			    tb->tried[(size_t)i * (size_t)tb->N + (size_t)s])
				continue;
			n = tb_walk(r, s, tb->dl[i], slots, nodes);
			if (!tb_has(slots, n, hot))
				continue;
			for (j = r->nbbase[s]; j < r->nbbase[s] + r->nnb[s]; j++) {
				p = r->nbp[j];
				if (p == r->lft->row[s][tb->dl[i]])
					continue;
				w = tb_try(tb, i, s, p, hot, M);
				if (w >= 0 && (m->i < 0 || w < m->worst))
					*m = (struct tb_move){ i, s, p, w };
			}
		}
	}
}

/* The busiest switch-to-switch cable: its load, *u its switch, *hot its
 * slot (the first by node and port). */
static uint32_t tb_max(const struct tbal *tb, int *u, int *hot)
{
	const struct router *r = tb->r;
	uint32_t M = 0;
	int s, p, c;

	*u = *hot = -1;
	for (s = 0; s < tb->N; s++)
		for (p = 1; ibu_is_sw(r->f, s) && p <= r->f->nodes[s].num_ports;
		     p++) {
			c = r->pbase[s] + p;
			if (tb->load[c] > M) {
				M = tb->load[c];
				*u = s;
				*hot = c;
			}
		}
	return M;
}

/* Entry of dest i at s to port p, the loads with it; logged. */
static void tb_set(struct tbal *tb, int i, int s, int p)
{
	uint32_t *u = tb->ulog + 3 * tb->nlog++;

	tb_dest(tb, i, -1);
	u[0] = (uint32_t)s;
	u[1] = tb->dl[i];
	u[2] = tb->r->lft->row[s][tb->dl[i]] | (uint32_t)p << 8;
	tb->r->lft->row[s][tb->dl[i]] = (uint8_t)p;
	tb_dest(tb, i, 1);
}

/* The moves logged after the first keep back to the entries before (the
 * loads are not followed). */
static void tb_undo(struct tbal *tb, int keep)
{
	const uint32_t *u;

	while (tb->nlog > keep) {
		u = tb->ulog + 3 * --tb->nlog;
		tb->r->lft->row[u[0]][u[1]] = (uint8_t)(u[2] & 0xff);
	}
}

/* The moves undone up to the first n made again. */
static void tb_redo(struct tbal *tb, int n)
{
	const uint32_t *u;

	for (; tb->nlog < n; tb->nlog++) {
		u = tb->ulog + 3 * tb->nlog;
		tb->r->lft->row[u[0]][u[1]] = (uint8_t)(u[2] >> 8);
	}
}

/* The graph of every route as the tables hold them, before the first
 * move; 1: cyclic already (no move then), 0, < 0 an error. */
static int tb_graph(struct tbal *tb, struct ibu_err *e)
{
	int rc, len;

	rc = ibu_cdg_ports_init(&tb->cdg, tb->r->f, e);
	if (rc)
		return rc;
	tb->cdg_on = 1;
	rc = ibu_cdg_ports_add_unicast(&tb->cdg, tb->r->lft, tb->r->map, e);
	return rc ? rc : ibu_cdg_ports_find_cycle(&tb->cdg, NULL, &len, e);
}

/* Does dest i's route, as the table now holds it, close a credit loop
 * (the old routes' dependencies stay in the graph: a stricter test)?
 * 1 yes, 0 no, < 0 an error. */
static int tb_cycle(struct tbal *tb, int i, struct ibu_err *e)
{
	int rc, len;

	ibu_cdg_ports_mark(&tb->cdg);
	rc = ibu_cdg_ports_add_lid(&tb->cdg, tb->r->lft, tb->dl[i], e);
	if (!rc)
		rc = ibu_cdg_ports_find_new_cycle(&tb->cdg, NULL, &len, e);
	if (rc > 0)
		ibu_cdg_ports_rollback(&tb->cdg);
	else if (!rc)
		ibu_cdg_ports_commit(&tb->cdg);
	return rc;
}

/* The worst shift permutation (compute host D to D + k, every k, base
 * LIDs): its busiest switch-to-switch cable. */
static uint32_t tb_shift(struct tbal *tb)
{
	const struct router *r = tb->r;
	const struct ibu_pgft_host *h = r->g->host;
	int N = r->g->num_hosts, k, S, D, n, nt, c, hops;
	uint32_t worst = 0, lid;

	for (k = 1; k < N; k++) {
		for (S = 0, nt = 0; S < N; S++) {
			D = (S + k) % N;
			lid = r->f->nodes[h[D].node].ports[h[D].port].lid;
			for (n = h[S].leaf, hops = 0; lid && hops++ < TB_HOPS &&
			     (c = tb_out(r, n, lid)) >= 0;
			     n = r->f->nodes[n].ports[c - r->pbase[n]].peer_node) {
				if (!tb->sload[c]++)
					tb->touch[nt++] = c;
				if (tb->sload[c] > worst)
					worst = tb->sload[c];
			}
		}
		while (nt > 0)
			tb->sload[tb->touch[--nt]] = 0;
	}
	return worst;
}

/* Random bisections the guard below measures, the same ones each time. */
#define TB_BISECT 100

/* One bisection's messages (halves of perm paired, both ways): add 1:
 * their loads into sload, 0: the sum of 1 / the busiest cable of each
 * (sload cleared after). */
static double tb_bisect(struct tbal *tb, const int *perm, int add)
{
	const struct router *r = tb->r;
	const struct ibu_pgft_host *h = r->g->host;
	int half = r->g->num_hosts / 2, i, S, D, n, c, hops;
	uint32_t lid, m;
	double sum = 0;

	for (i = 0; i < 2 * half; i++) {
		S = perm[i];
		D = perm[i < half ? i + half : i - half];
		lid = r->f->nodes[h[D].node].ports[h[D].port].lid;
		m = 1;
		for (n = h[S].leaf, hops = 0; lid && hops++ < TB_HOPS &&
		     (c = tb_out(r, n, lid)) >= 0;
		     n = r->f->nodes[n].ports[c - r->pbase[n]].peer_node) {
			if (add && !tb->sload[c]++)
				tb->touch[tb->ntouch++] = c;
			m = tb->sload[c] > m ? tb->sload[c] : m;
		}
		sum += 1.0 / m;
	}
	if (!add)
		while (tb->ntouch > 0)
			tb->sload[tb->touch[--tb->ntouch]] = 0;
	return sum;
}

/* The effective bisection bandwidth over TB_BISECT random bisections
 * (a generator of its own, seeded alike each time: the tables alone
 * decide), as ibunion load's ebb measures it. */
static double tb_ebb(struct tbal *tb)
{
	int N = tb->r->g->num_hosts, *perm = tb->perm, k, i, j, t;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	double sum = 0;

	if (N < 2)
		return 0;
	for (i = 0; i < N; i++)
		perm[i] = i;
	for (k = 0; k < TB_BISECT; k++) {
		for (i = N - 1; i > 0; i--) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			j = (int)(x % (uint64_t)(i + 1));
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		tb_bisect(tb, perm, 1);
		sum += tb_bisect(tb, perm, 0);
	}
	return sum / TB_BISECT / (N / 2 * 2);
}

/* The moves, back to the last drop of the busiest where the worst shift
 * is no worse than w0 and the bisection bandwidth within 1% of b0 (the
 * balance kept the shifts: a lower all-to-all that lifted one cost the
 * league's r30, r44, r88 a step; one tree lost 2.2% of its eBB, with
 * 316 -> 256 of all-to-all; the four turned trees below dfsssp's lose at
 * most 0.6% of it). */
static void tb_keep(struct tbal *tb, uint32_t w0, double b0)
{
	int k = tb->nlvl;

	while (tb->nlog && (tb_shift(tb) > w0 || tb_ebb(tb) < b0 * 0.99))
		tb_undo(tb, --k >= 0 ? tb->lvl[k] : 0);
}

/* While every busiest cable can shed a LID's messages (tb_pick), the
 * load each shed leaves; what cannot reach a lower busiest is undone. */
static int tb_loop(struct tbal *tb, struct ibu_err *e)
{
	struct tb_move m;
	uint32_t M, best = UINT32_MAX, w0;
	double b0;
	int u, hot, keep = 0, rc = 0, it;

	for (it = 0; it < tb->caplog; it++) {
		M = tb_max(tb, &u, &hot);
		if (M < best) {
			best = M;
			keep = tb->nlog;
			if (keep)
				tb->lvl[tb->nlvl++] = keep;
		}
		if (hot < 0)
			break;
		tb_pick(tb, u, hot, M, &m);
		if (m.i < 0 || (!tb->cdg_on && (rc = tb_graph(tb, e))))
			break;
		tb_set(tb, m.i, m.s, m.p);
		rc = tb_cycle(tb, m.i, e);
		if (rc < 0)
			return rc;
		if (rc) {	/* back; that entry not again */
			tb_dest(tb, m.i, -1);
			tb_undo(tb, tb->nlog - 1);
			tb_dest(tb, m.i, 1);
			tb->tried[(size_t)m.i * (size_t)tb->N + (size_t)m.s] = 1;
		}
	}
	tb_undo(tb, keep);
	if (rc >= 0 && (keep = tb->nlog)) {	/* the guards' measure before */
		tb_undo(tb, 0);
		w0 = tb_shift(tb);
		b0 = tb_ebb(tb);
		tb_redo(tb, keep);
		tb_keep(tb, w0, b0);
	}
	return rc < 0 ? rc : IBU_OK;
}

/* End ports (their base LIDs). */
static int tb_count(const struct router *r)
{
	const struct ibu_lid_owner *o;
	uint32_t lid;
	int n = 0;

	for (lid = 1; lid <= r->map->max_lid; lid++) {
		o = ibu_lidmap_get(r->map, lid);
		n += o && !o->offset && !ibu_is_sw(r->f, o->node);
	}
	return n;
}

/* The end ports' base LIDs (dl, ascending), the switches they hang on
 * (hs, nsrc). */
static void tb_ends(struct tbal *tb)
{
	const struct router *r = tb->r;
	const struct ibu_lid_owner *o;
	uint32_t lid;
	int peer;

	for (lid = 1; lid <= r->map->max_lid; lid++) {
		o = ibu_lidmap_get(r->map, lid);
		if (!o || o->offset || ibu_is_sw(r->f, o->node))
			continue;
		tb->dl[tb->nd++] = lid;
		peer = r->f->nodes[o->node].ports[o->port].peer_node;
		if (ibu_is_sw(r->f, peer) && !tb->nsrc[peer]++)
			tb->hs[tb->nhs++] = peer;
	}
}

static void tb_free(struct tbal *tb)
{
	if (tb->cdg_on)
		ibu_cdg_ports_free(&tb->cdg);
	free(tb->dl);
	free(tb->tried);
	free(tb->hs);
	free(tb->nsrc);
	free(tb->T);
	free(tb->load);
	free(tb->ulog);
	free(tb->lvl);
	free(tb->sload);
	free(tb->touch);
	free(tb->perm);
}

/* The pass above; on damaged trees whose end ports' routes turn. */
static int turn_balance(struct router *r, struct ibu_err *e)
{
	struct tbal tb = { .r = r, .N = r->f->num_nodes };
	size_t N = (size_t)tb.N + 1, D, np = 1;
	int i, rc = IBU_OK;

	if (!r->ndefer || r->g->num_faults <= 0)
		return IBU_OK;
	D = (size_t)tb_count(r);
	if (D < 2 || D > TB_PORTS)
		return IBU_OK;
	for (i = 0; i < tb.N; i++)
		np += (size_t)r->f->nodes[i].num_ports + 1;
	tb.caplog = 8 * (int)(D + N);
	tb.dl = malloc(D * sizeof(*tb.dl));
	tb.tried = calloc(D * N, 1);
	tb.hs = malloc(N * sizeof(int));
	tb.nsrc = calloc(N, sizeof(int));
	tb.T = calloc(D * N, sizeof(int));
	tb.load = calloc(np, sizeof(*tb.load));
	tb.ulog = malloc(3 * (size_t)tb.caplog * sizeof(*tb.ulog));
	tb.lvl = malloc((size_t)tb.caplog * sizeof(int));
	tb.sload = calloc(np, sizeof(*tb.sload));
	tb.touch = malloc(np * sizeof(int));
	tb.np = (int)np;
	tb.perm = malloc((size_t)(r->g->num_hosts + 1) * sizeof(int));
	if (!tb.dl || !tb.tried || !tb.hs || !tb.nsrc || !tb.T || !tb.load ||
	    !tb.ulog || !tb.lvl || !tb.sload || !tb.touch || !tb.perm)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!rc) {
		tb_ends(&tb);
		for (i = 0; i < tb.nd; i++)
			tb_dest(&tb, i, 1);
		rc = tb_loop(&tb, e);
	}
	tb_free(&tb);
	return rc;
}
