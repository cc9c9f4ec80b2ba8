/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
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
#include <stdlib.h>
#include <string.h>
#include "cdg_ports.h"
#include "pgft_bisect.h"
#include "pgft_router.h"

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
	struct ibu__bisect bs;	/* the eBB guard's sample */
	int cdg_on;		/* the shared graph built */
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

/* Cable (s, p) before cable (t, q) among equals: by GUID, then port, so
 * that the tables do not depend on the order of the fabric's records
 * (OpenSM's node order differs from ibnetdiscover's). */
static int tb_first(const struct router *r, int s, int p, int t, int q)
{
	uint64_t a = r->f->nodes[s].guid, b = r->f->nodes[t].guid;

	return a != b ? a < b : p < q;
}

/* The move off cable hot (of switch u) that leaves the least on the
 * cables it takes (ties: the lower LID, then tb_first); m->i -1: none. */
static void tb_pick(const struct tbal *tb, int u, int hot, uint32_t M,
		    struct tb_move *m)
{
	const struct router *r = tb->r;
	int slots[TB_HOPS + 1], nodes[TB_HOPS + 2], i, s, j, n, p;
	const int *T;
	long w;

	*m = (struct tb_move){ .i = -1 };
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
				if (w >= 0 && (m->i < 0 || w < m->worst ||
					       (w == m->worst && i == m->i &&
						tb_first(r, s, p, m->s, m->p))))
					*m = (struct tb_move){ i, s, p, w };
			}
		}
	}
}

/* The busiest switch-to-switch cable: its load, *u its switch, *hot its
 * slot (the first by tb_first). */
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
			if (tb->load[c] > M || (tb->load[c] == M && M &&
						tb_first(r, s, p, *u, *hot - r->pbase[*u]))) {
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
 * move (shared with the passes after, pgft_cdg.c); 1: cyclic already (no
 * move then), 0, < 0 an error. */
static int tb_graph(struct tbal *tb, struct ibu_err *e)
{
	tb->cdg_on = 1;
	return ibu__pgft_cdg_build(tb->r, e);
}

/* Does dest i's route, as the table now holds it, close a credit loop
 * (the old routes' dependencies stay in the graph: a stricter test)?
 * 1 yes, 0 no, < 0 an error. */
static int tb_cycle(struct tbal *tb, int i, struct ibu_err *e)
{
	tb->r->st.shed_checked++;
	return ibu__pgft_cdg_cycle(tb->r, tb->dl[i], e);
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

/* The moves, back to the last drop of the busiest where the worst shift
 * is no worse than w0 and the bisection bandwidth within 1% of b0 (the
 * balance kept the shifts: a lower all-to-all that lifted one cost the
 * league's r30, r44, r88 a step; one tree lost 2.2% of its eBB, with
 * 316 -> 256 of all-to-all; the four turned trees below dfsssp's lose at
 * most 0.6% of it). */
static void tb_keep(struct tbal *tb, uint32_t w0, double b0)
{
	int k = tb->nlvl;

	while (tb->nlog && (tb_shift(tb) > w0 ||
			    ibu__bisect_ebb(&tb->bs, tb->r) < b0 * 0.99))
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
		b0 = ibu__bisect_ebb(&tb->bs, tb->r);
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
	ibu__bisect_free(&tb->bs);
}

/* The pass above; on damaged trees whose end ports' routes turn. */
int ibu__pgft_shed_turned(struct router *r, struct ibu_err *e)
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
	if (!tb.dl || !tb.tried || !tb.hs || !tb.nsrc || !tb.T || !tb.load ||
	    !tb.ulog || !tb.lvl || !tb.sload || !tb.touch)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!rc)
		rc = ibu__bisect_init(&tb.bs, r, IBU__BISECT_SAMPLES,
				      IBU__BISECT_SEED, e);
	if (!rc) {
		tb_ends(&tb);
		for (i = 0; i < tb.nd; i++)
			tb_dest(&tb, i, 1);
		rc = tb_loop(&tb, e);
	}
	tb_free(&tb);
	return rc;
}
