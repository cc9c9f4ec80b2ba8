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
 * routes, turn switches already chosen first; a new one among the nearest
 * by the all-to-all load of the turns still to choose (turn_rank); on a
 * VL of their own, the nearest by host (by_host). Only
 * the switches' own packets crossing them: a plain shortest path, which
 * no end port's route meets. check --deadlock proves it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cdg_ports.h"
#include "pgft_router.h"

/* Candidate turn switches tried per LID: bounds the cycle searches where
 * none keeps the graph acyclic. */
#define TURN_TRIES 64
/* Hosts up to which a new turn switch is ranked by load and turns on VL
 * 1 spread (as the passes after that measure loads, pgft_shed.c,
 * pgft_shift.c): each ranking walks every source switch's route to each
 * deferred LID, and the loads every LID's (IBFT(24,3) with one cut
 * cable: 372 M -> 574 M instructions routed offline). */
#define TL_PORTS 512

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

/* Turns on a VL of their own: nearest first, then turn switches already
 * chosen (then GUID). */
static int cmp_cand_near(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return cmp_cand(a, b);
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
	/* on a VL of their own, turns need not gather (they close no
	 * cycle with the up*|down* routes): nearest first, so they spread
	 * (among the nearest by host: nearest_by_host; spread by load and
	 * GUID instead, PGFT(2; 18,8; 1,3; 1,1) with 4 cuts lost its worst
	 * shift 18 -> 27); the set still holds the turn switches chosen, which
	 * cover B switches the nearest may not. Up to TL_PORTS hosts, as
	 * the passes that measure loads: the nearest often cover fewer B
	 * switches, and each costs a search (IBFT(24,3) with one cut:
	 * routing +15%, for loads nothing measures there) */
	if (r->st.layered && r->g->num_hosts <= TL_PORTS)
		qsort(c, (size_t)n, sizeof(*c), cmp_cand_near);
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

/* The all-to-all over end ports' base LIDs on the routes so far, to
 * choose a new turn switch by (turn_rank). */
struct turn_load {
	uint32_t *load;		/* [pbase + port]: messages, switch to switch */
	uint32_t *add;		/* [pbase + port]: a trial's, */
	int *touch, nt;		/* on these slots */
	int *nsrc;		/* [node]: end ports cabled to it */
	int *srcs, nsrcs;	/* the switches with any */
	int on;			/* filled (at the first choice it decides) */
};

struct turn_check {
	const uint32_t *eager;	/* every deferred LID */
	const int *ord;		/* the pass's order of the deferred LIDs, */
	int pos;		/* the one being chosen */
	uint8_t *col;		/* route_b's scratch */
	unsigned char tried[TURN_TRIES];	/* choose_partial's */
	uint8_t *keep;		/* [B switch]: via_sibling's saved rows */
	char *used;		/* [B switch]: a sibling tried */
	int by_load;		/* a new turn switch by load (turn_rank) */
	struct turn_load ld;
	unsigned char *flag;	/* [node] TC_* */
	int *trial, ntrial;	/* switches the trial flagged */
	int *queue, *starts, nstarts;
	uint32_t *seen, stamp;	/* [node] */
	int levels_ok;		/* every cable between adjacent levels */
	int exact;		/* cdg built: it answers */
	struct ibu_cdg_ports cdg;
};

/* Switches with an end port (cdg_ports.c's starts). */
static void check_scan(const struct router *r, struct turn_check *tc)
{
	int v;

	tc->levels_ok = r->levels_ok;
	for (v = 0; v < r->f->num_nodes; v++)
		if (ibu_is_sw(r->f, v) && r->hosted[v])
			tc->starts[tc->nstarts++] = v;
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
	tc->keep = malloc(N);
	tc->used = malloc(N);
	if (!tc->flag || !tc->trial || !tc->queue ||
	    !tc->starts || !tc->seen || !tc->keep || !tc->used)
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
	free(tc->keep);
	free(tc->used);
	free(tc->ld.load);
	free(tc->ld.add);
	free(tc->ld.touch);
	free(tc->ld.nsrc);
	free(tc->ld.srcs);
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
			if (ibu_valley(lv, p, v, w)) {
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
	if (r->st.layered)	/* VL 1: the deferred LIDs' turned routes */
		rc = ibu__pgft_cdg_add_deferred(r, &tc->cdg, e);
	else
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
	rc = ibu__pgft_cdg_add_lid(r, &tc->cdg, lid, e);
	if (!rc)
		rc = ibu_cdg_ports_find_new_cycle(&tc->cdg, NULL, &len, e);
	return rc;
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

#define TL_HOPS (4 * IBU_PGFT_MAX_H + 4)
/* Deferred base LIDs a new turn switch is ranked by (TL_PORTS: hosts up
 * to which it is, above). */
#define TL_LIDS 256

/* An end port's base LID: the all-to-all's destinations. */
static int tl_base(const struct router *r, uint32_t lid)
{
	const struct ibu_lid_owner *o = ibu_lidmap_get(r->map, lid);

	return o && !o->offset && !ibu_is_sw(r->f, o->node);
}

/* The switch-to-switch cables (slots) of s's route to lid; how many, -1
 * when it arrives nowhere. */
static int tl_walk(const struct router *r, int s, uint32_t lid, int *slots)
{
	const struct ibu_node *n;
	int k = 0, port, peer;

	for (;;) {
		n = &r->f->nodes[s];
		port = r->lft->row[s][lid];
		if (port == 0)
			return k;
		if (port == IBU_NO_PATH || port > n->num_ports)
			return -1;
		peer = n->ports[port].peer_node;
		if (!ibu_is_sw(r->f, peer))
			return peer >= 0 ? k : -1;
		if (k == TL_HOPS)
			return -1;
		slots[k++] = r->pbase[s] + port;
		s = peer;
	}
}

/* lid's messages from every end port added to the loads (sign 1) or
 * taken off (-1). */
static void tl_lid(const struct router *r, struct turn_load *ld,
		   uint32_t lid, int sign)
{
	int slots[TL_HOPS], i, k, n, s;

	for (i = 0; i < ld->nsrcs; i++) {
		s = ld->srcs[i];
		n = tl_walk(r, s, lid, slots);
		for (k = 0; k < n; k++)
			ld->load[slots[k]] += (uint32_t)(sign * ld->nsrc[s]);
	}
}

/* The loads of every routed LID (the deferred ones not chosen yet left
 * out: they are added whole once chosen). */
static int tl_fill(const struct router *r, struct turn_check *tc,
		   struct ibu_err *e)
{
	struct turn_load *ld = &tc->ld;
	size_t N = (size_t)r->f->num_nodes, np = 1, i;
	unsigned char *pend;
	uint32_t lid;
	int v, p, w;

	for (i = 0; i < N; i++)
		np += (size_t)r->f->nodes[i].num_ports + 1;
	ld->load = calloc(np, sizeof(*ld->load));
	ld->add = calloc(np, sizeof(*ld->add));
	ld->touch = malloc(np * sizeof(int));
	ld->nsrc = calloc(N + 1, sizeof(int));
	ld->srcs = malloc((N + 1) * sizeof(int));
	pend = calloc((size_t)r->lft->max_lid + 1, 1);
	if (!ld->load || !ld->add || !ld->touch || !ld->nsrc || !ld->srcs ||
	    !pend) {
		free(pend);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (v = 0; v < (int)N; v++)
		for (p = 1; ibu_is_sw(r->f, v) && p <= r->f->nodes[v].num_ports;
		     p++) {
			w = r->f->nodes[v].ports[p].peer_node;
			if (w >= 0 && !ibu_is_sw(r->f, w) && !ld->nsrc[v]++)
				ld->srcs[ld->nsrcs++] = v;
		}
	for (v = tc->pos; v < r->ndefer; v++)
		pend[r->defer[tc->ord[v]].lid] = 1;
	for (lid = 1; lid <= r->lft->max_lid && lid <= r->map->max_lid; lid++)
		if (!pend[lid] && tl_base(r, lid))
			tl_lid(r, ld, lid, 1);
	free(pend);
	ld->on = 1;
	return IBU_OK;
}

/* lid's messages on its routes as the tables hold them (a trial's) added
 * to the trial's loads. */
static void tl_add(const struct router *r, struct turn_load *ld,
		   uint32_t lid)
{
	int slots[TL_HOPS], i, k, n, s;

	for (i = 0; i < ld->nsrcs; i++) {
		s = ld->srcs[i];
		n = tl_walk(r, s, lid, slots);
		for (k = 0; k < n; k++) {
			if (!ld->add[slots[k]])
				ld->touch[ld->nt++] = slots[k];
			ld->add[slots[k]] += (uint32_t)ld->nsrc[s];
		}
	}
}

struct ranked {
	uint32_t mx;		/* the busiest cable the trial crosses */
	int left, node;		/* left: deferred base LIDs it cannot take */
	int turn;		/* its place for the LID's host (by_host) */
	uint64_t guid;
};

/* The busiest cable the trial's routes cross, with the trial's loads;
 * the trial's loads back to none. */
static uint32_t tl_result(struct turn_load *ld)
{
	uint32_t mx = 0, l;
	int c;

	while (ld->nt > 0) {
		c = ld->touch[--ld->nt];
		l = ld->load[c] + ld->add[c];
		ld->add[c] = 0;
		if (l > mx)
			mx = l;
	}
	return mx;
}

/* Fewer LIDs left out, then a lower busiest cable, then the host's
 * turn (by_host), then GUID. */
static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->left != y->left)
		return x->left < y->left ? -1 : 1;
	if (x->mx != y->mx)
		return x->mx < y->mx ? -1 : 1;
	if (x->turn != y->turn)
		return x->turn < y->turn ? -1 : 1;
	return (x->guid > y->guid) - (x->guid < y->guid);
}

static int cmp_guid(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->guid > y->guid) - (x->guid < y->guid);
}

/*
 * Turns on a VL of their own (st.layered, up to TL_PORTS hosts) spread by
 * host: the nearest candidates in GUID order, the LID's end port D takes
 * them from its (D mod their number)-th on, so a leaf's consecutive hosts
 * turn at different switches and a shift's flows into the leaf cross them
 * all. Gathered at the first one chosen (the nearest, then any turn
 * switch already chosen, then the load, then GUID: the ties of the load
 * where the busiest cable is a blocking leaf's own), one leaf's turns
 * all crossed one junction leaf whose cable down from the other spine
 * also carried a leaf's worth that has no other way: PGFT(2; 18,8;
 * 1,3; 1,1) with a leaf, a spine and 3 cables gone, worst shift 36
 * (dfsssp 20), now 23, its eBB above dfsssp's. The 900 kept trees of the
 * random leagues: 852 meet every target instead of 844. -1: not so
 * spread (another VL, a switch's own LID, a larger tree).
 */
static int by_host(const struct router *r, const struct turn_job *j)
{
	const struct ibu_port *p;

	if (!r->st.layered || r->g->num_hosts > TL_PORTS || j->host_port < 1)
		return -1;
	p = &r->f->nodes[j->t].ports[j->host_port];
	return p->peer_node < 0 ? -1 :
	       ibu_pgft_host(r->g, p->peer_node, p->peer_port);
}

/* Each's turn: its place in GUID order from D's on (D < 0: all 0, as
 * before, GUID alone deciding). */
static void host_turns(struct ranked *c, int g, int D)
{
	int i;

	if (D >= 0)
		qsort(c, (size_t)g, sizeof(*c), cmp_guid);
	for (i = 0; i < g; i++)
		c[i].turn = D < 0 ? 0 : (i + g - D % g) % g;
}

/* Candidate x as the turn switch of every deferred end port's base LID
 * not chosen yet (at most TL_LIDS): the loads of their routes so, and
 * how many it cannot take. */
static void tl_hub(struct router *r, struct turn_check *tc, struct ranked *c)
{
	const struct turn_job *j;
	int k, n, nb, far, ends, x = c->node;

	c->left = 0;
	for (k = tc->pos, n = 0; k < r->ndefer && n < TL_LIDS; k++) {
		j = &r->defer[tc->ord[k]];
		if (!tl_base(r, j->lid))
			continue;
		n++;
		nb = route_b(r, j, tc->col);
		if (r->above[x] == r->stamp || r->tdist[x] < 1) {
			c->left++;
			continue;
		}
		r->spread_lmc = j->keep ? host_lmc(r, j->lid) : 0;
		toward(r, x, j->lid, nb, &far, &ends);
		r->spread_lmc = 0;
		if (ends)
			c->left++;
		else
			tl_add(r, &tc->ld, j->lid);
		clear_b(r, j->lid, nb, 0);
	}
	c->mx = tl_result(&tc->ld);
}

/*
 * A new turn switch: the nearest candidates (turnc[from..), none a turn
 * switch yet, as near as turnc[from]) ranked as the switch every turn
 * still to choose would join: by the end ports' base LIDs it cannot
 * take, then the all-to-all's busiest cable with their routes through
 * it, then GUID, as before. Only the busiest: where it ties, finer
 * measures (the sum of squared loads, the next busiest cables) picked
 * leaves of PGFT(2; 18,8; 1,3; 1,1) with 4 cut cables that lifted its
 * worst shift 18 -> 23 (whose leaf takes the turns decides which shift
 * meets them at its hosts' cables, which no all-to-all measure tells).
 * Nearest-then-GUID alone put
 * every turn of a PGFT(3; 4,4,4; 1,2,2; 1,2,2) with two pods cut apart
 * at the leaf of a pod whose middle switch had lost a cable to a top:
 * 14 messages on that cable in the worst shift, 10 at a leaf of the
 * intact pod. One LID's routes alone do not tell (they take one cable
 * of the parallel ones, whole or cut); the turns after the first gather
 * at it (candidates()), so the first decides.
 */
static int turn_rank(struct router *r, struct turn_check *tc, uint32_t lid,
		     int nb, int from, int nc, struct ibu_err *e)
{
	const struct turn_job *cur = &r->defer[tc->ord[tc->pos]];
	struct ranked c[TURN_TRIES];
	int i, k, g = 0, rc, far, ends, d = INT_MAX, spread = r->spread_lmc;
	int rest[TURN_TRIES], nr = 0, x;

	for (i = from; i < nc; i++) {	/* the nearest that cover lid's */
		x = r->turnc[i];
		toward(r, x, lid, nb, &far, &ends);
		clear_b(r, lid, nb, 0);
		if (ends || r->tdist[x] > d)
			continue;
		if (r->tdist[x] < d)
			g = 0;
		d = r->tdist[x];
		c[g++].node = x;
	}
	if (g < 2)
		return IBU_OK;
	if (!tc->ld.on && (rc = tl_fill(r, tc, e)))
		return rc;
	r->spread_lmc = 0;
	for (i = 0; i < g; i++) {
		c[i].guid = r->f->nodes[c[i].node].guid;
		tl_hub(r, tc, &c[i]);
	}
	route_b(r, cur, tc->col);	/* the LID being chosen's state again */
	r->spread_lmc = spread;
	host_turns(c, g, by_host(r, cur));
	qsort(c, (size_t)g, sizeof(*c), cmp_ranked);
	for (i = from; i < nc; i++) {	/* the others as they were */
		for (k = 0; k < g && c[k].node != r->turnc[i]; k++)
			;
		if (k == g)
			rest[nr++] = r->turnc[i];
	}
	for (i = 0; i < g; i++)
		r->turnc[from + i] = c[i].node;
	memcpy(r->turnc + from + g, rest, (size_t)nr * sizeof(*rest));
	return IBU_OK;
}

/* A trial's cycle check rc settled: committed, 1, where it closes no
 * cycle (rc 0), rolled back, 0, where it does; rc < 0 (an error) as it
 * is. */
static int settle(struct turn_check *tc, int rc)
{
	if (rc < 0)
		return rc;
	if (rc) {
		check_rollback(tc);
		return 0;
	}
	check_commit(tc);
	return 1;
}

/* x as lid's turn switch (toward() wrote its B entries): kept, 1, when
 * its routes close no cycle with every route, else rolled back, 0; < 0
 * an error. */
static int try_turn(struct router *r, struct turn_check *tc, uint32_t lid,
		    int nb, int x, struct ibu_err *e)
{
	int rc = settle(tc, check_trial(r, tc, lid, nb, x, e));

	if (rc > 0 && !r->turnx[x])
		r->turnx[x] = ++r->nturnx;
	return rc;
}

/* No turn switch covers every B switch with end ports and closes no
 * cycle: the one that covers the most end ports (then in turnc's order)
 * and closes none, so that only the end ports no turn switch reaches
 * stay without an entry (PGFT(3; 4,4,4; 1,2,2; 1,1,1) whose pods reach
 * disjoint halves of the tops, and a leaf of one that lost the parent
 * toward its half: every other leaf of its pod lost the other pod's
 * hosts with it, 448 pairs unreached instead of 32). 1 when one was
 * kept, 0 none, < 0 an error. */
static int choose_partial(struct router *r, uint32_t lid, int nb, int nc,
			  struct turn_check *tc, struct ibu_err *e)
{
	int i, k, rc, far, ends, total = 0, best, bends;
	unsigned char *tried = tc->tried;

	for (i = 0; i < nb; i++)
		total += r->hosted[r->turnb[i]];
	memset(tried, 0, (size_t)nc);
	for (k = 0; k < nc; k++) {	/* fewest ends left out first */
		best = -1;
		bends = total;
		for (i = 0; i < nc; i++) {
			if (tried[i])
				continue;
			toward(r, r->turnc[i], lid, nb, &far, &ends);
			clear_b(r, lid, nb, 0);
			if (ends < bends) {
				best = i;
				bends = ends;
			}
		}
		if (best < 0)
			return 0;
		tried[best] = 1;
		toward(r, r->turnc[best], lid, nb, &far, &ends);
		rc = try_turn(r, tc, lid, nb, r->turnc[best], e);
		if (rc)
			return rc;
		clear_b(r, lid, nb, 0);
	}
	return 0;
}

/* The nearest candidates (turnc[0..)) spread by host (by_host): in
 * GUID order from D's turn on; the others as they were. */
static void nearest_by_host(struct router *r, int nc, int D)
{
	struct ranked c[TURN_TRIES];
	int g = 1, i;

	if (D < 0 || nc < 2)
		return;
	while (g < nc && r->tdist[r->turnc[g]] == r->tdist[r->turnc[0]])
		g++;
	for (i = 0; i < g; i++) {
		c[i].node = r->turnc[i];
		c[i].guid = r->f->nodes[c[i].node].guid;
	}
	host_turns(c, g, D);
	for (i = 0; i < g; i++)
		r->turnc[c[i].turn] = c[i].node;
}

/* The nearest turn switch covering every B switch with end ports that
 * closes no cycle (check_trial); none: the one covering the most that
 * closes none (choose_partial); none either: the best covering one for
 * the switches' own packets, end ports no entry (WRN 5A52). */
static int choose(struct router *r, uint32_t lid, int nb,
		  struct turn_check *tc, struct ibu_err *e)
{
	int nc = candidates(r), i, cov, far, best = -1, bcov = 0, rc;
	int bfar = INT_MAX, ends;

	if (tc->ord)
		nearest_by_host(r, nc,
				by_host(r, &r->defer[tc->ord[tc->pos]]));

	for (i = 0; i < nc; i++) {
		if (tc->by_load && !r->turnx[r->turnc[i]] &&
		    (i == 0 || r->turnx[r->turnc[i - 1]]) &&
		    (rc = turn_rank(r, tc, lid, nb, i, nc, e)))
			return rc;
		cov = toward(r, r->turnc[i], lid, nb, &far, &ends);
		if (!ends && (rc = try_turn(r, tc, lid, nb, r->turnc[i], e)))
			return rc < 0 ? rc : IBU_OK;
		clear_b(r, lid, nb, 0);
		if (cov > bcov || (cov == bcov && cov && far < bfar)) {
			best = r->turnc[i];
			bcov = cov;
			bfar = far;
		}
	}
	rc = choose_partial(r, lid, nb, nc, tc, e);
	if (rc)
		return rc < 0 ? rc : IBU_OK;
	if (best >= 0)
		toward(r, best, lid, nb, &far, &ends);
	clear_b(r, lid, nb, 1);
	return IBU_OK;
}

/* lid's routes as the tables now hold them: 0 when they close no cycle
 * with every route, 1 when they do, < 0 an error (check_trial without a
 * turn switch to route toward: the B switches' entries are kept). */
static int check_now(struct router *r, struct turn_check *tc, uint32_t lid,
		     int nb, struct ibu_err *e)
{
	int rc, len, i;

	if (!tc->exact && tc->levels_ok) {
		walk_turns(r, tc, lid);
		if (!tc->ntrial || proved(r, tc))
			return 0;
	}
	if (!tc->exact) {	/* build_exact clears them: kept */
		for (i = 0; i < nb; i++)
			tc->col[i] = r->lft->row[r->turnb[i]][lid];
		rc = build_exact(r, tc, lid, nb, e);
		for (i = 0; i < nb; i++)
			r->lft->row[r->turnb[i]][lid] = tc->col[i];
		if (rc)
			return rc;
	}
	ibu_cdg_ports_mark(&tc->cdg);
	rc = ibu__pgft_cdg_add_lid(r, &tc->cdg, lid, e);
	if (!rc)
		rc = ibu_cdg_ports_find_new_cycle(&tc->cdg, NULL, &len, e);
	return rc;
}

/* lid's routes as the tables now hold them kept, 1, when they close no
 * cycle with every route, else rolled back, 0 (the entries are the
 * caller's to undo); < 0 an error. */
static int keep_now(struct router *r, struct turn_check *tc, uint32_t lid,
		    int nb, struct ibu_err *e)
{
	return settle(tc, check_now(r, tc, lid, nb, e));
}

/* B switch b's neighbour through port p: how many cables b's route to
 * lid would cross through it, -1 when it would arrive nowhere (no entry
 * there, a loop back to b). */
static int via_len(struct router *r, int b, int p, uint32_t lid)
{
	int slots[TL_HOPS], v = r->f->nodes[b].ports[p].peer_node, n;

	if (r->lft->row[v][lid] == IBU_NO_PATH)
		return -1;
	r->lft->row[b][lid] = (uint8_t)p;
	n = tl_walk(r, b, lid, slots);
	r->lft->row[b][lid] = IBU_NO_PATH;
	return n;
}

/* The B switches' entries for lid back to those saved in keep, but for
 * b's and those of switches without end ports on b's way (route_updown
 * toward a sibling wrote every B switch with a way to it). 0 when b's
 * way reaches y over such switches only, -1 otherwise (all restored). */
static int keep_way(struct router *r, struct turn_check *tc, uint32_t lid,
		    int nb, int b, int y)
{
	int i, s = b, hops = 0, port;

	tc->stamp++;
	while (s != y && hops++ < TL_HOPS) {
		if (s != b && r->hosted[s])
			break;
		tc->seen[s] = tc->stamp;
		port = r->lft->row[s][lid];
		if (port < 1 || port > r->f->nodes[s].num_ports)
			break;
		s = r->f->nodes[s].ports[port].peer_node;
		if (s < 0 || !ibu_is_sw(r->f, s))
			break;
	}
	for (i = 0; i < nb; i++)
		if (s != y || tc->seen[r->turnb[i]] != tc->stamp)
			r->lft->row[r->turnb[i]][lid] = tc->keep[i];
	return s == y ? 0 : -1;
}

/* b (a B switch with end ports left out) up*|down* to the nearest B
 * switch with end ports that has its turn (then by GUID), which it
 * follows from there: a second turn, kept where it closes no cycle.
 * 1 when one was kept, 0 none, < 0 an error. */
static int via_sibling(struct router *r, struct turn_check *tc,
		       uint32_t lid, int nb, int b, struct ibu_err *e)
{
	int i, y, best, bd, rc;
	uint64_t bg = 0;

	for (i = 0; i < nb; i++) {
		tc->keep[i] = r->lft->row[r->turnb[i]][lid];
		tc->used[i] = 0;
	}
	for (;;) {
		best = -1;
		bd = INT_MAX;
		for (i = 0; i < nb; i++) {
			y = r->turnb[i];
			if (tc->used[i] || y == b || !r->hosted[y] ||
			    tc->keep[i] == IBU_NO_PATH)
				continue;
			ibu__pgft_route_updown(r, y, 0, lid, 1);
			if (r->dist[b] >= 0 && (r->dist[b] < bd ||
			    (r->dist[b] == bd && r->f->nodes[y].guid < bg))) {
				best = i;
				bd = r->dist[b];
				bg = r->f->nodes[y].guid;
			}
			keep_way(r, tc, lid, nb, b, -1);
		}
		if (best < 0)
			return 0;
		tc->used[best] = 1;
		ibu__pgft_route_updown(r, r->turnb[best], 0, lid, 1);
		if (keep_way(r, tc, lid, nb, b, r->turnb[best]))
			continue;
		rc = keep_now(r, tc, lid, nb, e);
		if (rc)
			return rc;
		keep_way(r, tc, lid, nb, b, -1);
	}
}

/*
 * The B switches with end ports no turn switch reached (choose_partial
 * left them out): a second turn, through the neighbour whose route
 * (its turn, or finish_b's plain path, now crossed by end ports' packets
 * and so in the graph) arrives in the fewest cables, then by GUID, that
 * closes no cycle. A leaf whose only parent lost every parent reaches
 * the other pods through a sibling leaf's turn (PGFT(3; 4,4,4; 1,2,2;
 * 1,1,1) with 4 cuts and a switch gone: 128 pairs unreached -> 0).
 * Returns how many took one, < 0 an error.
 */
static int second_turns(struct router *r, struct turn_check *tc,
			uint32_t lid, int nb, struct ibu_err *e)
{
	const struct ibu_node *n;
	int i, j, b, p, len, rc, bp, blen, got = 0;
	unsigned char *tried = tc->tried;

	for (i = 0; i < nb; i++) {
		b = r->turnb[i];
		if (!r->hosted[b] || r->lft->row[b][lid] != IBU_NO_PATH)
			continue;
		rc = via_sibling(r, tc, lid, nb, b, e);
		if (rc < 0)
			return rc;
		if (rc) {
			got++;
			continue;
		}
		n = &r->f->nodes[b];
		memset(tried, 0, sizeof(tc->tried));
		for (;;) {
			bp = -1;
			blen = TL_HOPS + 1;
			for (j = r->nbbase[b]; j < r->nbbase[b] + r->nnb[b] &&
			     j - r->nbbase[b] < TURN_TRIES; j++) {
				p = r->nbp[j];
				if (tried[j - r->nbbase[b]])
					continue;
				len = via_len(r, b, p, lid);
				if (len >= 0 && (len < blen || (len == blen &&
				    r->f->nodes[n->ports[p].peer_node].guid <
				    r->f->nodes[n->ports[bp].peer_node].guid))) {
					bp = p;
					blen = len;
				}
				if (len < 0)
					tried[j - r->nbbase[b]] = 1;
			}
			if (bp < 0)
				break;
			for (j = r->nbbase[b]; r->nbp[j] != bp; j++)
				;
			tried[j - r->nbbase[b]] = 1;
			r->lft->row[b][lid] = (uint8_t)bp;
			rc = keep_now(r, tc, lid, nb, e);
			if (rc < 0)
				return rc;
			if (rc) {
				got++;
				break;
			}
			r->lft->row[b][lid] = IBU_NO_PATH;
		}
	}
	return got;
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

/* One pass over the deferred LIDs in the order of ord[], choosing each
 * one's turns against the dependencies of every route so far; failed[i]:
 * deferred LID i left entries unrouted. Returns how many did, < 0 an
 * error. */
static int deferred_pass(struct router *r, const int *ord, int by_load,
			 char *failed, uint8_t *col, uint32_t *eager,
			 struct ibu_err *e)
{
	struct turn_check tc;
	const struct turn_job *j;
	int i, nb, rc, nfail = 0;
	long before;

	rc = check_init(r, &tc, eager, e);
	tc.ord = ord;
	tc.by_load = by_load && r->g->num_hosts <= TL_PORTS;
	tc.col = col;
	for (i = 0; i < r->ndefer && !rc; i++) {
		j = &r->defer[ord[i]];
		before = r->st.unrouted;
		nb = route_b(r, j, col);
		r->spread_lmc = j->keep ? host_lmc(r, j->lid) : 0;
		tc.pos = i;
		rc = choose(r, j->lid, nb, &tc, e);
		r->spread_lmc = 0;
		keep_fed(r, j->lid, nb);
		finish_b(r, j->t, j->lid, nb, 0);
		if (tc.ld.on && tl_base(r, j->lid))
			tl_lid(r, &tc.ld, j->lid, 1);
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

/* What the passes over the deferred LIDs share. */
struct deferred_ctx {
	struct ibu_pgft_route_stats st;	/* before the first */
	int *ord, *turnx, nturnx;	/* turnx, nturnx: before the first */
	uint32_t *eager;
	uint8_t *col;
	char *failed;
};

/*
 * The deferred LIDs in arrival order; where some leave entries unrouted
 * (the turns chosen before theirs close a cycle with every one of theirs:
 * a top that lost the cable into one pod on a small tree), once more with
 * those first, kept when fewer fail. Returns how many fail, < 0 an error.
 */
static int deferred_orders(struct router *r, struct deferred_ctx *c,
			   int by_load, struct ibu_err *e)
{
	int i, k, nfail, again;

	for (i = 0; i < r->ndefer; i++)
		c->ord[i] = i;
	nfail = deferred_pass(r, c->ord, by_load, c->failed, c->col,
			      c->eager, e);
	if (nfail <= 0 || nfail == r->ndefer)
		return nfail;
	for (i = k = 0; i < r->ndefer; i++)	/* the failed ones first */
		if (c->failed[i])
			c->ord[k++] = i;
	for (i = 0; i < r->ndefer; i++)
		if (!c->failed[i])
			c->ord[k++] = i;
	deferred_reset(r, c->col, &c->st, c->turnx, c->nturnx);
	again = deferred_pass(r, c->ord, by_load, c->failed, c->col,
			      c->eager, e);
	if (again >= 0 && again >= nfail) {	/* not better: as first */
		for (i = 0; i < r->ndefer; i++)
			c->ord[i] = i;
		deferred_reset(r, c->col, &c->st, c->turnx, c->nturnx);
		again = deferred_pass(r, c->ord, by_load, c->failed, c->col,
				      c->eager, e);
	}
	return again;
}

/* Once the order is kept: the LIDs whose end ports some B switch still
 * has no entry for, a second turn (second_turns) against the graph of
 * every route (the turns committed are not flagged in a fresh check: the
 * graph answers). A last resort: in a pass, a second turn of an early
 * LID took the single turn of a later one (IBFT(4,3), one cut and two
 * switches gone: all-to-all 30 -> 34, worst shift 4 -> 6). */
static int second_pass(struct router *r, struct deferred_ctx *c,
		       struct ibu_err *e)
{
	struct turn_check tc;
	int i, nb, rc;

	rc = check_init(r, &tc, c->eager, e);
	tc.col = c->col;
	tc.levels_ok = 0;
	for (i = 0; i < r->ndefer && !rc; i++) {
		if (!c->failed[i])
			continue;
		nb = route_b(r, &r->defer[i], c->col);
		rc = second_turns(r, &tc, r->defer[i].lid, nb, e);
		if (rc > 0) {
			r->st.unrouted -= rc;
			r->st.turned += rc;
			r->st.twice += rc;
			rc = 0;
		}
	}
	check_free(&tc);
	return rc;
}

/* VL 1 is worth its SLs only where an end port's route toward another
 * end port turns: where only routes toward switches' own LIDs do (most
 * damaged trees with turns), every route stays on SL 0 and OpenSM's QoS
 * SLs stay, the turns chosen as on one VL. */
static void layer_for_hosts(struct router *r)
{
	const struct ibu_lid_owner *o;
	int i;

	for (i = 0; i < r->ndefer && r->st.layered; i++) {
		o = ibu_lidmap_get(r->map, r->defer[i].lid);
		if (o && !ibu_is_sw(r->f, o->node))
			return;
	}
	r->st.layered = 0;
}

/*
 * The deferred LIDs with new turn switches chosen by load (turn_rank);
 * where some are left unrouted so, as before (nearest, then GUID), kept
 * unless more fail: the load may pick a first turn switch the later
 * LIDs' turns cannot join (IBFT(4,3) with 3 cuts and 2 switches gone,
 * 2 seeds of 40: as many LIDs failed either way, and by load the worst
 * shift rose 3 -> 4 and 4 -> 6).
 */
int ibu__pgft_route_deferred(struct router *r, struct ibu_err *e)
{
	size_t N = (size_t)r->f->num_nodes + 1, D = (size_t)r->ndefer;
	struct deferred_ctx c;
	int nfail, plain;

	layer_for_hosts(r);
	c = (struct deferred_ctx){ .st = r->st, .nturnx = r->nturnx };
	if (!r->ndefer)
		return IBU_OK;
	c.col = malloc(N + D);
	c.eager = malloc(D * sizeof(*c.eager));
	c.ord = malloc(D * sizeof(*c.ord));
	c.turnx = malloc(N * sizeof(*c.turnx));
	if (!c.col || !c.eager || !c.ord || !c.turnx) {
		nfail = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	c.failed = (char *)c.col + N;
	memcpy(c.turnx, r->turnx, (N - 1) * sizeof(*c.turnx));
	nfail = deferred_orders(r, &c, 1, e);
	if (nfail <= 0 || r->g->num_hosts > TL_PORTS)	/* not by load */
		goto out;
	deferred_reset(r, c.col, &c.st, c.turnx, c.nturnx);
	plain = deferred_orders(r, &c, 0, e);
	if (plain >= 0 && plain > nfail) {	/* worse: by load */
		deferred_reset(r, c.col, &c.st, c.turnx, c.nturnx);
		plain = deferred_orders(r, &c, 1, e);
	}
	nfail = plain;
out:
	if (nfail > 0)
		nfail = second_pass(r, &c, e);
	free(c.col);
	free(c.eager);
	free(c.ord);
	free(c.turnx);
	return nfail < 0 ? nfail : ibu__pgft_shed_turned(r, e);
}
