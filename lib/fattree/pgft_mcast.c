/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Union multicast trees on a PGFT (see pgft_mcast.h). */
#include <stdlib.h>
#include <string.h>
#include "pgft_mcast.h"

int ibu_pgft_mcast_load_new(const struct ibu_pgft *g,
			    struct ibu_pgft_mcast_load **out, struct ibu_err *e)
{
	struct ibu_pgft_mcast_load *l = calloc(1, sizeof(*l));
	int size = g->num_nodes ? g->num_nodes : 1, rc;

	*out = NULL;
	if (!l)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	int sizes[2];

	sizes[0] = sizes[1] = size;
	rc = ibu_mcload_init(&l->core, 2, sizes, e);
	if (rc) {
		free(l);
		return rc;
	}
	*out = l;
	return IBU_OK;
}

static long trees_at(const struct ibu_pgft_mcast_load *l, int node)
{
	return node < l->core.size[0] ? (long)l->core.count[0][node] : 0;
}

static int load_add(struct ibu_pgft_mcast_load *l, uint32_t key, int apex,
		    struct ibu_err *e)
{
	const int *items[2] = { &apex, NULL };
	int n[2] = { 1, 0 };

	return ibu_mcload_add(&l->core, key, items, n, e);
}

/* 1 once a tree recorded in l went through node (kind 1: no release
 * lowers it, as OpenSM never lowers a switch's highest MFT block). */
static int ever_held(const struct ibu_pgft_mcast_load *l, int node)
{
	return l && node >= 0 && node < l->core.size[1] && l->core.count[1][node];
}

struct build {
	const struct ibu_fabric *f;
	const struct ibu_pgft *g;
	uint32_t key;
	struct ibu_portmask *mask;	/* [node] */
	char *in;			/* [node] switch in the tree */
	int *mark, *prev, *queue;
	int *msw, *added, *seen;	/* compact_scores() */
	int stamp;
};

static int sw(const struct build *b, int n)
{
	return n >= 0 && ibu_node_is_switch(&b->f->nodes[n]);
}

/* Both ends of the cable at (s, p) join the tree. */
static void add_cable(struct build *b, int s, int p)
{
	int q = b->f->nodes[s].ports[p].peer_node;

	ibu_pm_set(&b->mask[s], p);
	ibu_pm_set(&b->mask[q], b->f->nodes[s].ports[p].peer_port);
	b->in[s] = b->in[q] = 1;
}

/* Up-closure of switch t (stamp). */
static void mark_up(struct build *b, int t)
{
	int head = 0, tail = 0, n, p, q;

	b->stamp++;
	b->mark[t] = b->stamp;
	b->queue[tail++] = t;
	while (head < tail) {
		n = b->queue[head++];
		for (p = 1; p <= b->f->nodes[n].num_ports; p++) {
			q = b->f->nodes[n].ports[p].peer_node;
			if (sw(b, q) && b->g->level[q] == b->g->level[n] + 1 &&
			    b->mark[q] != b->stamp) {
				b->mark[q] = b->stamp;
				b->queue[tail++] = q;
			}
		}
	}
}

/* One step down from s toward the switch marked by mark_up: the child
 * (the first in port order, the same for every tree) and the cable to
 * it, spread over parallel cables by the tree's key; -1 when none. */
static int down_step(const struct build *b, int s, int *port)
{
	int p, k = 0, cab[IBU_MAX_PORTS], child = -1;

	for (p = 1; p <= b->f->nodes[s].num_ports; p++) {
		int q = b->f->nodes[s].ports[p].peer_node;

		if (!sw(b, q) || b->g->level[q] != b->g->level[s] - 1 ||
		    b->mark[q] != b->stamp || (child >= 0 && q != child))
			continue;
		child = q;
		cab[k++] = p;
	}
	if (child >= 0)
		*port = cab[(b->key + (uint32_t)b->g->col[child]) % (uint32_t)k];
	return child;
}

/* From apex down to t (apex above t): one cable per (switch, child). */
static void walk_down(struct build *b, int apex, int t)
{
	int s = apex, port, child;

	while (s != t && (child = down_step(b, s, &port)) >= 0) {
		add_cable(b, s, port);
		s = child;
	}
}

/* Shortest path from the tree to switch t, added. */
static void attach(struct build *b, int t)
{
	int head = 0, tail = 0, n, p, q;

	b->stamp++;
	for (n = 0; n < b->f->num_nodes; n++)
		if (b->in[n]) {
			b->mark[n] = b->stamp;
			b->prev[n] = -1;
			b->queue[tail++] = n;
		}
	while (head < tail && b->mark[t] != b->stamp) {
		n = b->queue[head++];
		for (p = 1; p <= b->f->nodes[n].num_ports; p++) {
			q = b->f->nodes[n].ports[p].peer_node;
			if (sw(b, q) && b->mark[q] != b->stamp) {
				b->mark[q] = b->stamp;
				b->prev[q] = b->f->nodes[n].ports[p].peer_port;
				b->queue[tail++] = q;
			}
		}
	}
	for (n = t; b->mark[t] == b->stamp && b->prev[n] >= 0;) {
		int back = b->prev[n];

		q = b->f->nodes[n].ports[back].peer_node;
		add_cable(b, n, back);
		n = q;
	}
}

/* The leaf every crossing between top switches goes through: the first
 * in column order (the same for every tree). */
static int crossing_leaf(const struct build *b)
{
	int n, leaf = -1;

	for (n = 0; n < b->f->num_nodes; n++)
		if (sw(b, n) && b->g->level[n] == 1 &&
		    (leaf < 0 || b->g->col[n] < b->g->col[leaf]))
			leaf = n;
	return leaf;
}

/* From top t down toward the leaf marked by mark_up, on the cables
 * walk_down takes, until the path meets the tree (t is not in it). */
static void join_down(struct build *b, int t, int leaf)
{
	int s = t, port, child;

	while (s != leaf && (child = down_step(b, s, &port)) >= 0) {
		int was_in = b->in[child];

		add_cable(b, s, port);
		if (was_in)
			return;
		s = child;
	}
}

/*
 * A member on a top switch t that the apex (another top) cannot reach
 * going down: the tree goes down from the apex to one leaf and up from
 * there to t, and every tree crosses at the same leaf, on the same way
 * down from each top (the one walk_down takes). A down-up turn at one
 * leaf only closes no credit loop where a top reaches that leaf one way:
 * a packet that turned up there reaches its top and goes down elsewhere
 * (back to the leaf is the way it came), where nothing turns up again.
 * Crossings at leaves picked per tree closed loops (two groups with
 * members on two spines, crossing in opposite directions).
 */
static void cross(struct build *b, int apex, int t)
{
	int leaf = crossing_leaf(b);

	if (leaf < 0) {
		attach(b, t);
		return;
	}
	mark_up(b, leaf);
	if (b->mark[apex] != b->stamp || b->mark[t] != b->stamp) {
		attach(b, t);	/* a top above no such leaf: any way */
		return;
	}
	if (!b->in[leaf])
		walk_down(b, apex, leaf);
	join_down(b, t, leaf);
}

static int member_switch(const struct ibu_fabric *f,
			 const struct ibu_mcast_member *m)
{
	if (m->node < 0 || m->node >= f->num_nodes)
		return -1;
	if (ibu_node_is_switch(&f->nodes[m->node]))
		return m->node;
	if (m->port < 1 || m->port > f->nodes[m->node].num_ports)
		return -1;
	return f->nodes[m->node].ports[m->port].peer_node;
}

/*
 * On a PGFT with faults, how many members each top still reaches going
 * down (into b->prev, free before the tree is built: the apex goes among those that reach most,
 * so that the tree stays a union of down paths where one can).
 */
static void reach_counts(struct build *b, const struct ibu_mcast_member *m,
			 int n)
{
	int i, s;

	for (s = 0; s < b->f->num_nodes; s++)
		b->prev[s] = 0;
	for (i = 0; i < n; i++) {
		int ms = member_switch(b->f, &m[i]);

		if (!sw(b, ms))
			continue;
		mark_up(b, ms);
		for (s = 0; s < b->f->num_nodes; s++)
			if (b->mark[s] == b->stamp && b->g->level[s] == b->g->P.h)
				b->prev[s]++;
	}
}

/* With faults: top s reaches fewer members going down than the best. */
static int reach_short(const struct build *b, int s)
{
	int n, most = 0;

	for (n = 0; n < b->f->num_nodes; n++)
		if (sw(b, n) && b->g->level[n] == b->g->P.h && b->prev[n] > most)
			most = b->prev[n];
	return b->prev[s] < most;
}

/*
 * The top host member m's own climb reaches: its D-mod-K up-slot at each
 * level (the next surviving one where the cable is lost); -1 if none.
 */
static int climb_top(const struct build *b, const struct ibu_mcast_member *m)
{
	const struct ibu_pgft *g = b->g;
	long x[IBU_PGFT_MAX_H + 1];
	int D = ibu_pgft_host(g, m->node, m->port), s, l, k, U;

	if (D < 0)
		return -1;
	ibu_pgft_digits(g, D, x);
	s = g->host[D].leaf;
	for (l = 1; l < g->P.h; l++) {
		U = ibu_pgft_up_ports(&g->P, l);
		if (!g->up[s] || U <= 0)
			return -1;
		for (k = 0; k < U && !g->up[s][(x[l] + k) % U]; k++)
			;
		if (k == U)
			return -1;
		s = b->f->nodes[s].ports[g->up[s][(x[l] + k) % U]].peer_node;
	}
	return s;
}

/* source: the climb of the send-only host member with the lowest D. */
static int source_top(const struct build *b, const struct ibu_mcast_member *m,
		      int n)
{
	int i, D, best = -1, bestD = -1;

	for (i = 0; i < n; i++) {
		D = ibu_pgft_host(b->g, m[i].node, m[i].port);
		if (m[i].send_only && D >= 0 && (bestD < 0 || D < bestD)) {
			bestD = D;
			best = i;
		}
	}
	return best < 0 ? -1 : climb_top(b, &m[best]);
}

/*
 * compact's key: for every top, into b->added, the switches below the
 * tops its tree would add to those that ever held one (walk_down's way to
 * every member switch it reaches, each counted once). Returns 0 when the
 * walks would cost more than IBU_PGFT_MCAST_SCORE_BUDGET (no key 0).
 */
#define IBU_PGFT_MCAST_SCORE_BUDGET 4000000L
static int compact_scores(struct build *b, const struct ibu_mcast_member *m,
			  int n, const struct ibu_pgft_mcast_load *load)
{
	const struct ibu_fabric *f = b->f;
	const struct ibu_pgft *g = b->g;
	int N = f->num_nodes, i, j, T, s, p, nm = 0, tops = 0, radix = 1;
	int *msw = b->msw;		/* distinct member switches below */

	for (s = 0; s < N; s++) {
		tops += sw(b, s) && g->level[s] == g->P.h;
		if (f->nodes[s].num_ports > radix)
			radix = f->nodes[s].num_ports;
	}
	b->stamp++;
	for (i = 0; i < n; i++) {
		s = member_switch(f, &m[i]);
		if (sw(b, s) && g->level[s] < g->P.h && b->mark[s] != b->stamp) {
			b->mark[s] = b->stamp;
			msw[nm++] = s;
		}
	}
	if ((long)tops * nm * g->P.h * radix > IBU_PGFT_MCAST_SCORE_BUDGET)
		return 0;
	for (s = 0; s < N; s++)
		b->added[s] = b->seen[s] = 0;
	for (j = 0; j < nm; j++) {
		mark_up(b, msw[j]);	/* msw[j]'s up-closure: this stamp */
		for (T = 0; T < N; T++) {
			if (!sw(b, T) || g->level[T] != g->P.h ||
			    b->mark[T] != b->stamp)
				continue;
			for (s = T; s != msw[j];) {
				int q = -1;

				for (p = 1; p <= f->nodes[s].num_ports && q < 0; p++) {
					int c = f->nodes[s].ports[p].peer_node;

					if (sw(b, c) && g->level[c] == g->level[s] - 1 &&
					    b->mark[c] == b->stamp)
						q = c;
				}
				if (q < 0)
					break;
				s = q;
				/* counted once per top: seen[] holds the top */
				if (!ever_held(load, s) && b->seen[s] != T + 1) {
					b->seen[s] = T + 1;
					b->added[T]++;
				}
			}
		}
	}
	return 1;
}

/* Is top s better than best under the policy's keys (after faults)? */
static int better(const struct build *b, int s, int best, int compact,
		  const struct ibu_pgft_mcast_load *load,
		  enum ibu_mcast_policy policy)
{
	const struct ibu_fabric *f = b->f;

	if (best < 0)
		return 1;
	if (policy == IBU_MCAST_LOWEST_GUID)
		return f->nodes[s].guid < f->nodes[best].guid;
	if (compact && b->added[s] != b->added[best])
		return b->added[s] < b->added[best];
	if (load && trees_at(load, s) != trees_at(load, best))
		return trees_at(load, s) < trees_at(load, best);
	return b->g->col[s] < b->g->col[best];
}

/*
 * A top a member sits on, else by the policy (pgft_mcast.h); with faults
 * among the tops that reach the most members going down. *used: the
 * policy that chose.
 */
static int pick_apex(struct build *b, const struct ibu_mcast_member *m,
		     int n, enum ibu_mcast_policy policy,
		     const struct ibu_pgft_mcast_load *load,
		     enum ibu_mcast_policy *used)
{
	int i, s, best = -1, compact = 0;

	*used = policy;
	for (i = 0; i < n; i++) {
		s = member_switch(b->f, &m[i]);
		if (sw(b, s) && b->g->level[s] == b->g->P.h)
			return s;
	}
	if (b->g->num_faults)
		reach_counts(b, m, n);
	if (policy == IBU_MCAST_SOURCE) {
		s = source_top(b, m, n);
		if (s >= 0 && (!b->g->num_faults || !reach_short(b, s)))
			return s;
		*used = policy = IBU_MCAST_BALANCED;
	}
	if (policy == IBU_MCAST_COMPACT) {
		compact = compact_scores(b, m, n, load);
		if (!compact)
			*used = IBU_MCAST_BALANCED;
	}
	for (s = 0; s < b->f->num_nodes; s++) {
		if (!sw(b, s) || b->g->level[s] != b->g->P.h)
			continue;
		if (b->g->num_faults && best >= 0 && b->prev[s] != b->prev[best]) {
			if (b->prev[s] > b->prev[best])
				best = s;
			continue;
		}
		if (better(b, s, best, compact, load, policy))
			best = s;
	}
	return best;
}

/*
 * Every member joins the tree down from the apex (a member on another top
 * through the crossing leaf). On a PGFT with faults a member switch the
 * apex no longer reaches going down has no up-then-down tree with the
 * others: refused, as a shortest way there would turn down-up and close
 * credit loops with unicast (seen on a 3-level tree with 4 cut cables).
 */
static int add_members(struct build *b, const struct ibu_mcast_member *m,
		       int n, int apex, struct ibu_err *e)
{
	int i, s;

	for (i = 0; i < n; i++) {
		s = member_switch(b->f, &m[i]);
		if (!sw(b, s))
			continue;
		if (!b->in[s]) {
			mark_up(b, s);
			if (b->mark[apex] == b->stamp)
				walk_down(b, apex, s);
			else if (b->g->level[s] == b->g->P.h &&
				 b->g->level[apex] == b->g->P.h)
				cross(b, apex, s);
			else if (b->g->num_faults)
				return ibu_err_set(e, IBU_ETOPO,
						   "the faults leave no top switch with a way down to every member (no up-then-down tree; '%s' is cut off from '%s')",
						   b->f->nodes[s].name ? b->f->nodes[s].name : "?",
						   b->f->nodes[apex].name ? b->f->nodes[apex].name : "?");
			else
				attach(b, s);
		}
		b->in[s] = 1;
		if (m[i].node == s)
			ibu_pm_set(&b->mask[s], 0);
		else if (!m[i].send_only)
			ibu_pm_set(&b->mask[s], b->f->nodes[m[i].node]
						 .ports[m[i].port].peer_port);
	}
	return IBU_OK;
}

static int export(const struct build *b, int apex,
		  struct ibu_pgft_mcast_tree *t, struct ibu_err *e)
{
	int n, k = 0;

	for (n = 0; n < b->f->num_nodes; n++)
		k += b->in[n];
	t->apex = apex;
	t->num_switches = 0;
	t->nodes = malloc((size_t)(k ? k : 1) * sizeof(int));
	t->ports = malloc((size_t)(k ? k : 1) * sizeof(*t->ports));
	if (!t->nodes || !t->ports) {
		ibu_pgft_mcast_tree_free(t);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (n = 0; n < b->f->num_nodes; n++)
		if (b->in[n]) {
			t->nodes[t->num_switches] = n;
			t->ports[t->num_switches++] = b->mask[n];
		}
	return IBU_OK;
}

/* The tree's switches below the tops join those that ever held one. */
static void mark_ever(struct ibu_pgft_mcast_load *l,
		      const struct ibu_pgft_mcast_tree *t, int *added)
{
	int i;

	for (i = 0; i < t->num_switches; i++) {
		int s = t->nodes[i];

		if (s < l->core.size[1] && !l->core.count[1][s]) {
			l->core.count[1][s] = 1;
			*added += 1;
		}
	}
}

int ibu_pgft_mcast_tree_build(const struct ibu_fabric *f,
			      const struct ibu_pgft *g,
			      const struct ibu_mcast_member *m, int n,
			      enum ibu_mcast_policy policy,
			      struct ibu_pgft_mcast_load *load, uint32_t key,
			      struct ibu_pgft_mcast_tree *t, struct ibu_err *e)
{
	struct build b = { .f = f, .g = g, .key = key };
	size_t N = (size_t)(f->num_nodes ? f->num_nodes : 1);
	enum ibu_mcast_policy used = policy;
	int apex, rc;

	memset(t, 0, sizeof(*t));
	t->apex = -1;
	if (load)
		ibu_mcload_release(&load->core, key);
	b.mask = calloc(N, sizeof(*b.mask));
	b.in = calloc(N, 1);
	b.mark = calloc(N, sizeof(int));
	b.prev = calloc(N, sizeof(int));
	b.queue = calloc(N, sizeof(int));
	b.msw = calloc(N, sizeof(int));
	b.added = calloc(N, sizeof(int));
	b.seen = calloc(N, sizeof(int));
	if (!b.mask || !b.in || !b.mark || !b.prev || !b.queue || !b.msw ||
	    !b.added || !b.seen) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	apex = n ? pick_apex(&b, m, n, policy, load, &used) : -1;
	rc = IBU_OK;
	if (apex >= 0) {
		b.in[apex] = 1;
		rc = add_members(&b, m, n, apex, e);
	}
	if (!rc)
		rc = export(&b, apex, t, e);
	if (!rc && load && apex >= 0)
		rc = load_add(load, key, apex, e);
	if (rc) {
		ibu_pgft_mcast_tree_free(t);
	} else {
		t->policy = used;
		if (load)
			mark_ever(load, t, &t->added);
	}
out:
	free(b.mask);
	free(b.in);
	free(b.mark);
	free(b.prev);
	free(b.queue);
	free(b.msw);
	free(b.added);
	free(b.seen);
	return rc;
}

void ibu_pgft_mcast_tree_free(struct ibu_pgft_mcast_tree *t)
{
	free(t->nodes);
	free(t->ports);
	memset(t, 0, sizeof(*t));
	t->apex = -1;
}
