/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Union multicast trees on fat trees (see pgft_mcast.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_mcast.h"
#include "cdg_ports.h"

static int most_ports(const struct ibu_fabric *f)
{
	int n, r = 0;

	for (n = 0; n < f->num_nodes; n++)
		if (f->nodes[n].num_ports > r)
			r = f->nodes[n].num_ports;
	return r;
}

int ibu_pgft_mcast_load_new(const struct ibu_fabric *f,
			    const struct ibu_pgft *g,
			    struct ibu_pgft_mcast_load **out, struct ibu_err *e)
{
	struct ibu_pgft_mcast_load *l;
	int size = g->num_nodes > 0 ? g->num_nodes : 1, stride, sizes[3], rc;

	*out = NULL;
	if (g->num_nodes != f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL,
				   "the fat tree was recognised on another fabric");
	stride = most_ports(f) + 1;
	if ((long)size * stride > INT_MAX)
		return ibu_err_set(e, IBU_EINVAL,
				   "fabric too large for the multicast load state");
	l = calloc(1, sizeof(*l));
	if (!l)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	l->stride = stride;
	sizes[0] = sizes[2] = size;
	sizes[1] = size * stride;
	rc = ibu_mcload_init(&l->core, 3, sizes, e);
	if (rc)
		free(l);
	else
		*out = l;
	return rc;
}

int ibu_pgft_mcast_load_ever(const struct ibu_pgft_mcast_load *l)
{
	int s, k = 0;

	for (s = 0; s < l->core.size[2]; s++)
		k += l->core.count[2][s] != 0;
	return k;
}

struct build {
	const struct ibu_fabric *f;
	const struct ibu_pgft *g;
	const struct ibu_pgft_ibft *x;	/* an exact IBFT's labels, or NULL */
	const struct ibu_pgft_mcast_load *load;
	struct ibu_pgft_mcast_tree *t;
	uint32_t key;
	int radix;			/* most ports of a node */
	struct ibu_portmask *mask, *seen, *recv;	/* [node] tree ports,
					 * member ports, receiving ones */
	int *in;			/* [node] switch in the tree */
	int *cnt;			/* [node] member switches at or below */
	int *mark, *prev, *queue, stamp;
	int *kid_at, *kid, *kid_port;	/* [node]: its distinct children in
					 * kid[kid_at[node] .. kid_at[node +
					 * 1]), the first port to each */
	int *msw, nd;			/* distinct member switches */
	int *cand, nc;			/* apex candidates */
	int src;			/* the source policy's host, -1 */
	const struct ibu_cdg_ports *ucdg;	/* unicast's, or NULL */
	struct ibu_cdg_ports cdg;	/* a copy the junctions are tried on */
	int *dn, *upok, *cut, ncut;	/* junction scratch (junction_alloc) */
	int *low;			/* [node] least host D at or below */
	struct ibu_portmask *keep_mask;	/* the tree before a trial */
	int *keep_in;
};

/* A switch one level below s, reached by its port p; -1 otherwise. */
static int child_at(const struct build *b, int s, int p)
{
	int q = b->f->nodes[s].ports[p].peer_node;

	return ibu_is_sw(b->f, q) && b->g->level[q] == b->g->level[s] - 1 ?
	       q : -1;
}

/* Both ends of the cable at (s, p) join the tree. */
static void add_cable(struct build *b, int s, int p)
{
	int q = b->f->nodes[s].ports[p].peer_node;

	ibu_pm_set(&b->mask[s], p);
	ibu_pm_set(&b->mask[q], b->f->nodes[s].ports[p].peer_port);
	b->in[s] = b->in[q] = 1;
}

/*
 * Breadth-first over switches from b->queue[0..tail), marked b->stamp: up
 * only climbing, else along any cable with b->prev[q] the port back;
 * stops once t (-1: none) is marked.
 */
static void bfs(struct build *b, int tail, int up, int t)
{
	int head = 0, n, p, q;

	while (head < tail && (t < 0 || b->mark[t] != b->stamp)) {
		n = b->queue[head++];
		for (p = 1; p <= b->f->nodes[n].num_ports; p++) {
			q = b->f->nodes[n].ports[p].peer_node;
			if (!ibu_is_sw(b->f, q) || b->mark[q] == b->stamp ||
			    (up && b->g->level[q] != b->g->level[n] + 1))
				continue;
			b->mark[q] = b->stamp;
			b->prev[q] = b->f->nodes[n].ports[p].peer_port;
			b->queue[tail++] = q;
		}
	}
}

/* The cable a tree takes from s to its child q, first reached by port
 * first: of the parallel ones in port order, number (key + q's column)
 * mod their count, so groups spread over a bundle. */
static int cable_to(const struct build *b, int s, int q, int first)
{
	int p, k = 0, cab[IBU_MAX_PORTS + 1], l = b->g->level[s];

	if (l >= 1 && l <= b->g->P.h && b->g->P.p[l] == 1)
		return first;	/* one cable per child: no scan */
	for (p = first; p <= b->f->nodes[s].num_ports; p++)
		if (b->f->nodes[s].ports[p].peer_node == q)
			cab[k++] = p;
	return cab[(b->key + (uint32_t)b->g->col[q]) % (uint32_t)k];
}

/* From s down toward the switches marked by bfs(up), taking at each the
 * first child in port order (the same for every tree), until t or, with
 * join, until the path meets the tree. */
static void walk_down(struct build *b, int s, int t, int join)
{
	int p, q = -1, was_in;

	while (s != t) {
		for (p = 1; p <= b->f->nodes[s].num_ports; p++)
			if ((q = child_at(b, s, p)) >= 0 && b->mark[q] == b->stamp)
				break;
		if (p > b->f->nodes[s].num_ports)
			return;
		was_in = b->in[q];
		add_cable(b, s, cable_to(b, s, q, p));
		if (join && was_in)
			return;
		s = q;
	}
}

struct score {
	uint32_t max;		/* trees on the busiest cable */
	uint64_t sum;		/* trees summed over the cables */
	int fresh;		/* switches that never held a tree */
};

/*
 * The tree from apex c: every switch below c that is above (or is) a
 * member switch, each reached once, from its first parent in the walk
 * (in a fat tree the way down is unique, so that is the way to it).
 * Added to the tree, or with sc only scored against the load.
 */
static void walk_tree(struct build *b, int c, struct score *sc)
{
	int head = 0, tail = 0, s, i, q, port;
	uint32_t v;

	b->mark[c] = ++b->stamp;
	b->queue[tail++] = c;
	while (head < tail) {
		s = b->queue[head++];
		for (i = b->kid_at[s]; i < b->kid_at[s + 1]; i++) {
			q = b->kid[i];
			if (!b->cnt[q] || b->mark[q] == b->stamp)
				continue;
			b->mark[q] = b->stamp;
			b->queue[tail++] = q;
			port = cable_to(b, s, q, b->kid_port[i]);
			if (!sc) {
				add_cable(b, s, port);
				continue;
			}
			v = b->load->core.count[1][(long)s * b->load->stride + port];
			sc->sum += v;
			sc->max = v > sc->max ? v : sc->max;
			sc->fresh += !b->load->core.count[2][q];
		}
	}
}

/* Shortest path from the tree to switch t, added. */
static void attach(struct build *b, int t)
{
	int tail = 0, n, back;

	b->stamp++;
	for (n = 0; n < b->f->num_nodes; n++)
		if (b->in[n]) {
			b->mark[n] = b->stamp;
			b->prev[n] = -1;
			b->queue[tail++] = n;
		}
	bfs(b, tail, 0, t);
	for (n = t; b->mark[t] == b->stamp && b->prev[n] >= 0;) {
		back = b->prev[n];
		add_cable(b, n, back);
		n = b->f->nodes[n].ports[back].peer_node;
	}
}

/*
 * A member on a top switch t that the apex (another top) cannot reach
 * going down: the tree goes down from the apex to one leaf and up from
 * there to t, and every tree crosses at the same leaf (the first in
 * column order), on the same way down from each top. A down-up turn at
 * one leaf only closes no credit loop where a top reaches that leaf one
 * way: a packet that turned up there reaches its top and goes down
 * elsewhere (back to the leaf is the way it came), where nothing turns
 * up again. Crossings at leaves picked per tree closed loops (two groups
 * with members on two spines, crossing in opposite directions).
 */
static void cross(struct build *b, int apex, int t)
{
	int n, leaf = -1;

	for (n = 0; n < b->f->num_nodes; n++)
		if (b->g->level[n] == 1 &&
		    (leaf < 0 || b->g->col[n] < b->g->col[leaf]))
			leaf = n;
	if (leaf >= 0) {
		b->mark[leaf] = ++b->stamp;
		b->queue[0] = leaf;
		bfs(b, 1, 1, -1);
	}
	if (leaf < 0 || b->mark[apex] != b->stamp || b->mark[t] != b->stamp) {
		attach(b, t);	/* a top above no such leaf: any way */
		return;
	}
	if (!b->in[leaf])
		walk_down(b, apex, leaf, 0);
	walk_down(b, t, leaf, 1);
}

/* The switch member m hangs off (or is), in *s. */
static int member_switch(const struct build *b, const struct ibu_mcast_member *m,
			 int *s, struct ibu_err *e)
{
	const struct ibu_node *nd;

	if (m->node < 0 || m->node >= b->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "member node %d out of range",
				   m->node);
	nd = &b->f->nodes[m->node];
	if (ibu_node_is_switch(nd)) {
		if (m->port != 0)
			return ibu_err_set(e, IBU_ETOPO,
					   "member %s port %d: a switch joins through port 0 only",
					   ibu_node_name(b->f, m->node), m->port);
		*s = m->node;
		if (b->g->level[*s] < 1)
			return ibu_err_set(e, IBU_ETOPO,
					   "member switch %s is not part of the fat tree",
					   ibu_node_name(b->f, m->node));
		return IBU_OK;
	}
	if (m->port < 1 || m->port > nd->num_ports)
		return ibu_err_set(e, IBU_EINVAL, "member %s has no port %d",
				   ibu_node_name(b->f, m->node), m->port);
	/* an end port of the tree hangs off a switch of the tree */
	*s = nd->ports[m->port].peer_node;
	if (ibu_pgft_host(b->g, m->node, m->port) < -1)
		return ibu_err_set(e, IBU_ETOPO,
				   "member %s port %d is not an end port of the fat tree",
				   ibu_node_name(b->f, m->node), m->port);
	return IBU_OK;
}

/* The tree's port toward a receiving member: a switch's own port 0, a
 * CA's port at the switch it is cabled to. */
static void add_receiver(struct build *b, int node, int port)
{
	const struct ibu_port *x = &b->f->nodes[node].ports[port];

	if (ibu_is_sw(b->f, node))
		ibu_pm_set(&b->mask[node], 0);
	else
		ibu_pm_set(&b->mask[x->peer_node], x->peer_port);
}

/*
 * Members merged by port (one that is both full and send-only receives):
 * receiving ports into the tree's masks, the distinct member switches
 * into b->msw, and the source policy's host: the send-only (and not
 * receiving) compute host with the lowest D.
 */
static int gather(struct build *b, const struct ibu_mcast_member *m, int n,
		  struct ibu_err *e)
{
	int i, s = -1, rc, port, D;

	b->stamp++;
	for (i = 0; i < n; i++) {
		rc = member_switch(b, &m[i], &s, e);
		if (rc)
			return rc;
		port = m[i].port;
		if (!ibu_pm_test(&b->seen[m[i].node], port))
			b->t->num_members++;
		ibu_pm_set(&b->seen[m[i].node], port);
		if (b->mark[s] != b->stamp) {
			b->mark[s] = b->stamp;
			b->msw[b->nd++] = s;
		}
		if (m[i].send_only || ibu_pm_test(&b->recv[m[i].node], port))
			continue;
		ibu_pm_set(&b->recv[m[i].node], port);
		b->t->num_receivers++;
		add_receiver(b, m[i].node, port);
	}
	for (i = 0; i < n; i++) {
		if (!m[i].send_only || ibu_pm_test(&b->recv[m[i].node], m[i].port))
			continue;
		D = ibu_pgft_host(b->g, m[i].node, m[i].port);
		if (D >= 0 && (b->src < 0 || D < b->src))
			b->src = D;
	}
	return IBU_OK;
}

/*
 * Every switch's distinct children, each with the first port to it, and
 * b->cnt[s]: the member switches s is above or equal to, summed over its
 * children level by level from the leaves (in a fat tree the way down
 * from s to a switch below it is unique, so each is counted once).
 */
static void count_below(struct build *b)
{
	int s, p, q, k = 0, l, i;

	for (s = 0; s < b->f->num_nodes; s++) {
		b->kid_at[s] = k;
		b->stamp++;
		for (p = 1; b->g->level[s] >= 2 &&
		     p <= b->f->nodes[s].num_ports; p++) {
			q = child_at(b, s, p);
			if (q < 0 || b->mark[q] == b->stamp)
				continue;
			b->mark[q] = b->stamp;
			b->kid[k] = q;
			b->kid_port[k++] = p;
		}
	}
	b->kid_at[b->f->num_nodes] = k;
	for (i = 0; i < b->nd; i++)
		b->cnt[b->msw[i]] = 1;
	for (l = 2; l <= b->g->P.h; l++)
		for (s = 0; s < b->f->num_nodes; s++)
			for (i = b->kid_at[s]; b->g->level[s] == l &&
			     i < b->kid_at[s + 1]; i++)
				b->cnt[s] += b->cnt[b->kid[i]];
}

/*
 * The common ancestors of every member at the lowest level that has any
 * (the tree stays as small as it can); none: the top a member sits on,
 * else (faults) the tops that reach the most member switches going down.
 */
static void candidates(struct build *b)
{
	const struct ibu_pgft *g = b->g;
	int j, n, level = 0, want = b->nd;

	for (n = 0; n < b->f->num_nodes; n++)
		if (b->cnt[n] == b->nd &&
		    (!level || g->level[n] < level))
			level = g->level[n];
	b->t->common = level > 0;
	if (!level) {
		level = b->t->level = g->P.h;
		for (j = 0; j < b->nd; j++)
			if (g->level[b->msw[j]] == level) {
				b->cand[b->nc++] = b->msw[j];
				return;
			}
		for (n = want = 0; n < b->f->num_nodes; n++)
			if (g->level[n] == level && b->cnt[n] > want)
				want = b->cnt[n];
	}
	b->t->level = level;
	for (n = 0; n < b->f->num_nodes; n++)
		if (b->cnt[n] == want && g->level[n] == level)
			b->cand[b->nc++] = n;
}

/* The parent the source D's climb takes from s at level l: the paper's
 * up-digit p_(h-l) of its PID on an exact IBFT, else its D-mod-K up-slot
 * (the next surviving one where the cable is lost); -1 if none. */
static int climb_step(const struct build *b, int s, int D, const long *x,
		      int l)
{
	const struct ibu_pgft *g = b->g;
	int U = ibu_pgft_up_ports(&g->P, l), k, p;
	uint32_t pid;

	if (b->x) {
		for (pid = b->x->pid[D], k = 1; k < l; k++)
			pid /= (uint32_t)b->x->half;
		p = b->x->up[s][pid % (uint32_t)b->x->half];
		return p ? b->f->nodes[s].ports[p].peer_node : -1;
	}
	if (!g->up[s] || U <= 0)
		return -1;
	for (k = 0; k < U && !g->up[s][(x[l] + k) % U]; k++)
		;
	if (k == U)
		return -1;
	return b->f->nodes[s].ports[g->up[s][(x[l] + k) % U]].peer_node;
}

/* source: the candidate on the source's climb, -1 if none. */
static int source_apex(const struct build *b)
{
	long x[IBU_PGFT_MAX_H + 1];
	int s, l, i;

	if (b->src < 0)
		return -1;
	ibu_pgft_digits(b->g, b->src, x);
	s = b->g->host[b->src].leaf;
	for (l = 1; l < b->t->level && s >= 0; l++)
		s = climb_step(b, s, b->src, x, l);
	for (i = 0; i < b->nc; i++)
		if (b->cand[i] == s)
			return s;
	return -1;
}

/* Key 4: the paper's label on an exact IBFT, else the column. */
static int label_less(const struct build *b, int a, int c)
{
	long ka = b->x ? ibu_pgft_ibft_slot(b->g, b->x, a) : b->g->col[a];
	long kc = b->x ? ibu_pgft_ibft_slot(b->g, b->x, c) : b->g->col[c];

	return ka != kc ? ka < kc : a < c;
}

/* Walking k candidates' trees stays within the budget. */
static int within_budget(const struct build *b, int k)
{
	return (long)k * b->nd * b->t->level * b->radix <=
	       IBU_PGFT_MCAST_SCORE_BUDGET;
}

static uint32_t trees_at(const struct build *b, int node)
{
	return b->load ? b->load->core.count[0][node] : 0;
}

/*
 * Balanced, keys 1-4 (pgft_mcast.h), after compact's key when compact:
 * the trees adding the fewest switches to those that ever held one
 * (b->prev holds the counts), as OpenSM resends every MFT block in use
 * to each of those after every join or leave. Pod-local groups count
 * too: free, they pulled other planes' middles in (IBFT(16,3), 50 groups
 * of 20 hosts then 500 of 2: 193 switches against 152). Without keys 2-3
 * groups whose apexes share children would all cross the same switches
 * one level down.
 */
static int best_apex(struct build *b, int compact)
{
	uint32_t least = UINT32_MAX, best_max = 0, v;
	uint64_t best_sum = 0;
	int i, c, best = -1, ties = 0, few = INT_MAX;

	b->t->compacted = compact && b->nc > 1 && within_budget(b, b->nc);
	for (i = 0; i < b->nc; i++) {
		struct score sc = { 0 };

		c = b->cand[i];
		v = trees_at(b, c);
		if (b->t->compacted) {
			sc.fresh = b->g->level[c] < b->g->P.h &&
				   !b->load->core.count[2][c];
			walk_tree(b, c, &sc);
		}
		b->prev[i] = sc.fresh;
		if (sc.fresh < few || (sc.fresh == few && v < least)) {
			few = sc.fresh;
			least = v;
			ties = 0;
		}
		ties += sc.fresh == few && v == least;
	}
	b->t->scored = b->load && ties > 1 && within_budget(b, ties);
	for (i = 0; i < b->nc; i++) {
		struct score sc = { 0 };

		c = b->cand[i];
		if (b->prev[i] != few || trees_at(b, c) != least)
			continue;
		if (b->t->scored)
			walk_tree(b, c, &sc);
		if (best < 0 || sc.max < best_max ||
		    (sc.max == best_max && (sc.sum < best_sum ||
		     (sc.sum == best_sum && label_less(b, c, best))))) {
			best = c;
			best_max = sc.max;
			best_sum = sc.sum;
		}
	}
	return best;
}

/* ---- members the apex cannot reach going down (faults) ----
 *
 * A leaf whose surviving parents share no top with the apex's (apart
 * leaves) is joined by one down-up turn at a junction switch J below the
 * apex: the tree goes down to J, up through switches no way down from the
 * apex reaches, to an ancestor of the member, and down to it. Flooded,
 * the tree turns at J both ways, (z->J)->(J->y) and (y->J)->(J->z). Each
 * candidate J is tried against the channel dependencies of unicast (with
 * its own turns, every LID) plus the whole tree, and the first that
 * closes no cycle is kept. Candidates where unicast already turns the
 * same way come first, then the lowest level, then the column: the graph
 * and unicast decide, so every group tends to turn at the same J (turns
 * picked per tree in opposite directions close loops between trees, as
 * cross() found for tops). */

#define JUNCTION_TRIES 64

/* b->low: the least compute host at or below each switch, from the
 * leaves up (count_below() listed the children). */
static void lowest_below(struct build *b)
{
	int n, l, i, D;

	for (n = 0; n < b->f->num_nodes; n++)
		b->low[n] = INT_MAX;
	for (D = b->g->num_hosts - 1; D >= 0; D--)
		b->low[b->g->host[D].leaf] = D;
	for (l = 2; l <= b->g->P.h; l++)
		for (n = 0; n < b->f->num_nodes; n++)
			for (i = b->kid_at[n]; b->g->level[n] == l &&
			     i < b->kid_at[n + 1]; i++)
				if (b->low[b->kid[i]] < b->low[n])
					b->low[n] = b->low[b->kid[i]];
}

/* The order of switches of one level: column, then the least host
 * below (siblings share a column), then node GUID (as unicast's turns). */
static int before(const struct build *b, int a, int c)
{
	if (b->g->col[a] != b->g->col[c])
		return b->g->col[a] < b->g->col[c];
	if (b->low[a] != b->low[c])
		return b->low[a] < b->low[c];
	return b->f->nodes[a].guid < b->f->nodes[c].guid;
}

/* Lower level first, then before(). */
static int lower(const struct build *b, int a, int c)
{
	if (b->g->level[a] != b->g->level[c])
		return b->g->level[a] < b->g->level[c];
	return before(b, a, c);
}

static int junction_alloc(struct build *b, struct ibu_err *e)
{
	size_t N = (size_t)b->f->num_nodes + 1;
	int rc, len;

	if (b->dn)
		return IBU_OK;
	b->dn = calloc(5 * N, sizeof(int));
	b->keep_mask = malloc(N * sizeof(*b->keep_mask));
	if (!b->dn || !b->keep_mask)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	b->upok = b->dn + N;
	b->cut = b->upok + N;
	b->keep_in = b->cut + N;
	b->low = b->keep_in + N;
	lowest_below(b);
	rc = ibu_cdg_ports_copy(&b->cdg, b->ucdg, e);
	if (!rc && (rc = ibu_cdg_ports_find_cycle(&b->cdg, NULL, &len, e)) > 0)
		rc = IBU_OK;	/* cyclic already: every trial fails */
	return rc;
}

static void junction_free(struct build *b)
{
	if (b->dn)
		ibu_cdg_ports_free(&b->cdg);
	free(b->dn);
	free(b->keep_mask);
}

static int refuse(const struct build *b, int s, int apex, struct ibu_err *e)
{
	return ibu_err_set(e, IBU_ETOPO,
			   "the faults leave no top switch with a way down to every member (no up-then-down tree; '%s' is cut off from '%s')",
			   ibu_node_name(b->f, s), ibu_node_name(b->f, apex));
}

/* The port of s to its lowest-column neighbour one level up (up > 0) or
 * down for which want(b, neighbour) holds; 0 if none. Parallel cables:
 * the one cable_to() picks. */
static int step(const struct build *b, int s, int up,
		int (*want)(const struct build *, int))
{
	int p, q, best = 0, bq = -1, l = b->g->level[s] + (up ? 1 : -1);

	for (p = 1; p <= b->f->nodes[s].num_ports; p++) {
		q = b->f->nodes[s].ports[p].peer_node;
		if (!ibu_is_sw(b->f, q) || b->g->level[q] != l || !want(b, q) ||
		    (bq >= 0 && (q == bq || !before(b, q, bq))))
			continue;
		best = p;
		bq = q;
	}
	if (!best || up)
		return best;
	return cable_to(b, s, bq, best);
}

static int is_dn(const struct build *b, int q) { return b->dn[q]; }
static int is_upok(const struct build *b, int q) { return b->upok[q] > 0; }
static int is_above(const struct build *b, int q)
{
	return b->mark[q] == b->stamp;
}

/* Adds the cable from s up through port p, by the parent's cable_to(). */
static void add_up(struct build *b, int s, int p)
{
	int q = b->f->nodes[s].ports[p].peer_node;

	add_cable(b, q, cable_to(b, q, s, b->f->nodes[s].ports[p].peer_port));
}

/* Down from s along the member's ancestors (marked) to t. */
static void down_to(struct build *b, int s, int t)
{
	int p;

	while (s != t && (p = step(b, s, 0, is_above)) > 0) {
		add_cable(b, s, p);
		s = b->f->nodes[s].ports[p].peer_node;
	}
}

/* b->dn: the apex and every switch below it; b->upok: switches neither
 * in the tree nor below the apex that are ancestors of the member
 * (marked) or have a parent that is upok, levels from the top down. */
static void sides(struct build *b, int apex)
{
	int n, l, head = 0, tail = 0, p, q;

	memset(b->dn, 0, 2 * ((size_t)b->f->num_nodes + 1) * sizeof(int));
	b->dn[apex] = 1;
	b->queue[tail++] = apex;
	while (head < tail)
		for (n = b->queue[head++], p = 1; p <= b->f->nodes[n].num_ports; p++)
			if ((q = child_at(b, n, p)) >= 0 && !b->dn[q]) {
				b->dn[q] = 1;
				b->queue[tail++] = q;
			}
	for (l = b->g->P.h; l >= 1; l--)
		for (n = 0; n < b->f->num_nodes; n++)
			if (b->g->level[n] == l && !b->in[n] && !b->dn[n] &&
			    (is_above(b, n) || step(b, n, 1, is_upok)))
				b->upok[n] = 1;
}

/* Does unicast already turn at j from the channel z->j onto j's port
 * py, and back? (0..2) */
static int unicast_turns(const struct build *b, int j, int pz, int py)
{
	const struct ibu_port *a = &b->f->nodes[j].ports[pz];
	const struct ibu_port *c = &b->f->nodes[j].ports[py];

	return ibu_cdg_ports_has(b->ucdg, a->peer_node, a->peer_port, py) +
	       ibu_cdg_ports_has(b->ucdg, c->peer_node, c->peer_port, pz);
}

struct jcand {
	int node, have, level, col, low;
	uint64_t guid;
};

static int cmp_jcand(const void *x, const void *y)
{
	const struct jcand *a = x, *c = y;

	if (a->have != c->have)
		return a->have > c->have ? -1 : 1;
	if (a->level != c->level)
		return a->level < c->level ? -1 : 1;
	if (a->col != c->col)
		return a->col < c->col ? -1 : 1;
	if (a->low != c->low)
		return a->low < c->low ? -1 : 1;
	return (a->guid > c->guid) - (a->guid < c->guid);
}

/* The junction candidates below the apex, best first (see above). */
static int junctions(struct build *b, struct jcand *c)
{
	int n, k = 0, pz, py;

	for (n = 0; n < b->f->num_nodes; n++) {
		if (!b->dn[n] || is_above(b, n) ||
		    !(py = step(b, n, 1, is_upok)) ||
		    !(pz = step(b, n, 1, is_dn)))
			continue;
		c[k].node = n;
		c[k].have = unicast_turns(b, n, pz, py);
		c[k].level = b->g->level[n];
		c[k].col = b->g->col[n];
		c[k].low = b->low[n];
		c[k++].guid = b->f->nodes[n].guid;
	}
	qsort(c, (size_t)k, sizeof(*c), cmp_jcand);
	return k;
}

/* The tree through junction j to the member switch t: down from the tree
 * to j, up to t's first ancestor, down to t. */
static void through(struct build *b, int j, int t)
{
	int s = j, p, q, joined = b->in[j];

	while (!joined && (p = step(b, s, 1, is_dn)) > 0) {
		q = b->f->nodes[s].ports[p].peer_node;
		joined = b->in[q];	/* add_up() marks both ends */
		add_up(b, s, p);
		s = q;
	}
	for (s = j; !is_above(b, s) && (p = step(b, s, 1, is_upok)) > 0;) {
		add_up(b, s, p);
		s = b->f->nodes[s].ports[p].peer_node;
	}
	down_to(b, s, t);
}

/* The tree closes no cycle with unicast: 1 yes, 0 no, < 0 an error. */
static int acyclic(struct build *b, struct ibu_err *e)
{
	int n, rc = IBU_OK, len;

	ibu_cdg_ports_mark(&b->cdg);
	for (n = 0; n < b->f->num_nodes && !rc; n++)
		if (b->in[n] && ibu_is_sw(b->f, n))
			rc = ibu_cdg_ports_add_tree(&b->cdg, n, &b->mask[n], e);
	if (!rc)
		rc = ibu_cdg_ports_find_new_cycle(&b->cdg, NULL, &len, e);
	ibu_cdg_ports_rollback(&b->cdg);
	return rc < 0 ? rc : !rc;
}

/* One cut-off member switch t: below a tree switch above it (one that a
 * junction's way up reached), else through the first junction that
 * keeps the dependencies acyclic. */
static int join_cut(struct build *b, int apex, int t, struct jcand *c,
		    struct ibu_err *e)
{
	size_t N = (size_t)b->f->num_nodes;
	int n, best = -1, k, i, rc;

	b->mark[t] = ++b->stamp;
	b->queue[0] = t;
	bfs(b, 1, 1, -1);
	for (n = 0; n < b->f->num_nodes; n++)
		if (b->in[n] && is_above(b, n) &&
		    (best < 0 || lower(b, n, best)))
			best = n;
	if (best >= 0) {
		down_to(b, best, t);
		return IBU_OK;
	}
	sides(b, apex);
	k = junctions(b, c);
	memcpy(b->keep_in, b->in, N * sizeof(int));
	memcpy(b->keep_mask, b->mask, N * sizeof(*b->mask));
	for (i = 0; i < k && i < JUNCTION_TRIES; i++) {
		through(b, c[i].node, t);
		rc = acyclic(b, e);
		b->t->junctions += rc > 0;
		if (rc)
			return rc < 0 ? rc : IBU_OK;
		memcpy(b->in, b->keep_in, N * sizeof(int));
		memcpy(b->mask, b->keep_mask, N * sizeof(*b->mask));
	}
	return refuse(b, t, apex, e);
}

/* The cut-off member switches by level, then before() (few: insertion). */
static void sort_cut(struct build *b)
{
	int i, j, v;

	for (i = 1; i < b->ncut; i++) {
		for (v = b->cut[i], j = i; j > 0 && lower(b, v, b->cut[j - 1]);
		     j--)
			b->cut[j] = b->cut[j - 1];
		b->cut[j] = v;
	}
}

/* The down paths from the apex, then every member switch it does not
 * reach going down (pgft_mcast.h): a member on another top crosses at
 * a leaf (cross()); with faults the others turn at a junction (above),
 * lowest level and column first, refused when unicast's turns leave
 * none (IBU_ETOPO); an intact tree attaches them by a shortest path. */
static int grow(struct build *b, int apex, struct ibu_err *e)
{
	const struct ibu_pgft *g = b->g;
	struct jcand *c;
	int j, s, rc = IBU_OK;

	b->in[apex] = 1;
	walk_tree(b, apex, NULL);
	for (j = 0; j < b->nd; j++) {
		s = b->msw[j];
		if (b->in[s])
			continue;
		if (g->level[s] == g->P.h && g->level[apex] == g->P.h)
			cross(b, apex, s);
		else if (g->num_faults && !b->ucdg)
			return refuse(b, s, apex, e);
		else if (g->num_faults) {
			if ((rc = junction_alloc(b, e)))
				return rc;
			b->cut[b->ncut++] = s;
			continue;
		} else
			attach(b, s);
		b->in[s] = 1;
	}
	if (!b->ncut)
		return IBU_OK;
	c = malloc(((size_t)b->f->num_nodes + 1) * sizeof(*c));
	if (!c)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	sort_cut(b);
	for (j = 0; j < b->ncut && !rc; j++)
		if (!b->in[b->cut[j]])
			rc = join_cut(b, apex, b->cut[j], c, e);
	free(c);
	return rc;
}

/* The tree's switches, top down, with their ports. */
static int export(const struct build *b, struct ibu_err *e)
{
	struct ibu_pgft_mcast_tree *t = b->t;
	int n, l, k = 0;

	for (n = 0; n < b->f->num_nodes; n++)
		k += b->in[n];
	t->nodes = malloc((size_t)(k ? k : 1) * sizeof(int));
	t->ports = malloc((size_t)(k ? k : 1) * sizeof(*t->ports));
	if (!t->nodes || !t->ports)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (l = b->g->P.h; l >= 1; l--)
		for (n = 0; n < b->f->num_nodes; n++)
			if (b->in[n] && b->g->level[n] == l) {
				t->nodes[t->num_switches] = n;
				t->ports[t->num_switches++] = b->mask[n];
			}
	return IBU_OK;
}

/* Records the tree under key: its switches, its cables (by their upper
 * end; b->kid_port, one int per fabric port, is free by now) and the
 * switches that ever held a tree. */
static int record(struct build *b, struct ibu_pgft_mcast_load *l,
		  uint32_t key, struct ibu_err *e)
{
	struct ibu_pgft_mcast_tree *t = b->t;
	const int *items[3] = { t->nodes, b->kid_port, NULL };
	int i, p, s, rc, n[3] = { t->num_switches, 0, 0 };

	for (i = 0; i < t->num_switches; i++)
		for (s = t->nodes[i], p = 1; p <= b->f->nodes[s].num_ports; p++)
			if (ibu_pm_test(&t->ports[i], p) &&
			    child_at(b, s, p) >= 0)
				b->kid_port[n[1]++] = s * l->stride + p;
	rc = ibu_mcload_add(&l->core, key, items, n, e);
	for (i = 0; !rc && i < t->num_switches; i++)
		l->core.count[2][t->nodes[i]] = 1;
	return rc;
}

/* Two blocks carved into the arrays (calloc: all zero). */
static int build_alloc(struct build *b, size_t N, struct ibu_err *e)
{
	int **ints[] = { &b->in, &b->cnt, &b->mark, &b->prev, &b->queue,
			 &b->msw, &b->cand, &b->kid_at, &b->kid };
	size_t ports = 1, i;

	for (i = 0; i < (size_t)b->f->num_nodes; i++)
		ports += (size_t)b->f->nodes[i].num_ports;
	b->mask = calloc(3 * N, sizeof(*b->mask));
	b->in = calloc(8 * N + 1 + 2 * ports, sizeof(int));
	if (!b->mask || !b->in)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	b->seen = b->mask + N;
	b->recv = b->seen + N;
	for (i = 1; i < 9; i++)		/* kid_at has N + 1 */
		*ints[i] = *ints[i - 1] + N + (i == 8);
	b->kid_port = b->kid + ports;
	return IBU_OK;
}

/* The tree's masks back to the receiving members' ports (gather()). */
static void receivers_only(struct build *b)
{
	int n, p;

	memset(b->mask, 0, (size_t)b->f->num_nodes * sizeof(*b->mask));
	for (n = 0; n < b->f->num_nodes; n++)
		for (p = 0; p <= b->f->nodes[n].num_ports; p++)
			if (ibu_pm_test(&b->recv[n], p))
				add_receiver(b, n, p);
}

/* The policy's apex left a cut-off member no junction joins without a
 * cycle (the junctions of the members before it close one): the other
 * candidates in their order, the first error if none serves. */
static int other_apex(struct build *b, struct ibu_err *e)
{
	size_t N = (size_t)(b->f->num_nodes ? b->f->num_nodes : 1);
	struct ibu_err first = *e;
	int i, tried = b->t->apex, rc = IBU_ETOPO;

	for (i = 0; i < b->nc && rc == IBU_ETOPO; i++) {
		if (b->cand[i] == tried)
			continue;
		memset(b->in, 0, N * sizeof(*b->in));
		receivers_only(b);
		b->ncut = 0;
		b->t->junctions = 0;
		b->t->apex = b->cand[i];
		rc = grow(b, b->cand[i], e);
	}
	if (rc == IBU_ETOPO)
		*e = first;
	return rc;
}

/* The members, their apex (tree->policy: the policy that chose it) and
 * its tree. */
static int build_tree(struct build *b, const struct ibu_mcast_member *m,
		      int n, enum ibu_mcast_policy policy, struct ibu_err *e)
{
	int i, apex = -1, rc = gather(b, m, n, e);

	if (rc || !b->nd)
		return rc;
	count_below(b);
	candidates(b);
	b->t->num_candidates = b->nc;
	if (policy == IBU_MCAST_SOURCE && (apex = source_apex(b)) < 0)
		b->t->policy = IBU_MCAST_BALANCED;
	for (i = 0; policy == IBU_MCAST_LOWEST_GUID && i < b->nc; i++)
		if (apex < 0 || b->f->nodes[b->cand[i]].guid <
				b->f->nodes[apex].guid)
			apex = b->cand[i];
	if (apex < 0 && policy != IBU_MCAST_LOWEST_GUID)
		apex = best_apex(b, policy == IBU_MCAST_COMPACT && b->load);
	if (apex < 0)
		return ibu_err_set(e, IBU_ETOPO,
				   "no switch above the %d members",
				   b->t->num_members);
	b->t->apex = apex;
	rc = grow(b, apex, e);
	return rc == IBU_ETOPO && b->ncut ? other_apex(b, e) : rc;
}

int ibu_pgft_mcast_tree_build(const struct ibu_fabric *f,
			      const struct ibu_pgft *g,
			      const struct ibu_pgft_ibft *x,
			      const struct ibu_mcast_member *m, int n,
			      enum ibu_mcast_policy policy,
			      struct ibu_pgft_mcast_load *load, uint32_t key,
			      struct ibu_pgft_mcast_tree *t, struct ibu_err *e)
{
	return ibu_pgft_mcast_tree_build_turns(f, g, x, NULL, m, n, policy,
					       load, key, t, e);
}

int ibu_pgft_mcast_tree_build_turns(const struct ibu_fabric *f,
				    const struct ibu_pgft *g,
				    const struct ibu_pgft_ibft *x,
				    const struct ibu_cdg_ports *ucdg,
				    const struct ibu_mcast_member *m, int n,
				    enum ibu_mcast_policy policy,
				    struct ibu_pgft_mcast_load *load,
				    uint32_t key, struct ibu_pgft_mcast_tree *t,
				    struct ibu_err *e)
{
	struct build b = { .f = f, .g = g, .x = x, .load = load, .t = t,
			   .key = key, .src = -1, .radix = most_ports(f),
			   .ucdg = ucdg };
	int rc;

	memset(t, 0, sizeof(*t));
	t->apex = -1;
	t->policy = policy;
	if (n < 0 || (n && !m))
		return ibu_err_set(e, IBU_EINVAL, "bad member list");
	if (g->num_nodes != f->num_nodes ||
	    (load && (load->core.size[0] != (f->num_nodes ? f->num_nodes : 1) ||
		      load->stride < b.radix + 1)))
		return ibu_err_set(e, IBU_EINVAL,
				   "the load state or the fat tree is of another fabric");
	if (load)
		ibu_mcload_release(&load->core, key);
	rc = build_alloc(&b, (size_t)(f->num_nodes ? f->num_nodes : 1), e);
	if (!rc)
		rc = build_tree(&b, m, n, policy, e);
	if (!rc)
		rc = export(&b, e);
	if (!rc && load && t->apex >= 0)
		rc = record(&b, load, key, e);
	free(b.mask);
	free(b.in);
	junction_free(&b);
	if (rc)
		ibu_pgft_mcast_tree_free(t);
	return rc;
}

void ibu_pgft_mcast_tree_free(struct ibu_pgft_mcast_tree *t)
{
	free(t->nodes);
	free(t->ports);
	memset(t, 0, sizeof(*t));
	t->apex = -1;
}

int ibu_pgft_mcast_tree_to_mft(const struct ibu_pgft_mcast_tree *t,
			       uint16_t mlid, struct ibu_mft *mft,
			       struct ibu_err *e)
{
	struct ibu_mft_group *g = ibu_mft_group(mft, mlid, e);
	int i, w, node;

	if (!g)
		return e ? e->code : IBU_ENOMEM;
	for (i = 0; i < t->num_switches; i++) {
		node = t->nodes[i];
		if (node < 0 || node >= mft->num_nodes)
			return ibu_err_set(e, IBU_EINVAL,
					   "tree switch node %d outside the MFT model",
					   node);
		for (w = 0; w < 4; w++)
			g->mask[node].w[w] |= t->ports[i].w[w];
	}
	return IBU_OK;
}

int ibu_pgft_mcast_tree_find(const struct ibu_pgft_mcast_tree *t, int node)
{
	int i;

	for (i = 0; i < t->num_switches; i++)
		if (t->nodes[i] == node)
			return i;
	return -1;
}
