/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Validation of LFTs: reachability, loops, minimality; engine rules as hooks. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "verify.h"

/* memo states of a switch for the current destination LID; >= 1 = hops */
enum { ST_UNVISITED = 0, ST_VISITING = -1, ST_BAD = -2 };

/* why a route does not arrive */
enum why {
	WHY_NOPATH = 1,		/* entry 0xFF */
	WHY_BADPORT,		/* port the switch does not have */
	WHY_UNCABLED,		/* port without a cable */
	WHY_WRONG_END,		/* delivered to an end port that is not the owner */
	WHY_PORT0,		/* port 0 at a switch that does not own the LID */
	WHY_LOOP,		/* came back to a switch */
};

struct ctx {
	const struct ibu_fabric *f;
	const struct ibu_lft *lft;
	const struct ibu_verify_opts *o;
	struct ibu_verify_report rp;
	struct ibu_verify_result *r;
	/* destination LID owners */
	uint32_t max_lid;
	struct ibu_lidmap lids;
	const struct ibu_lid_owner *own;	/* lids.owner: [0..max_lid] */
	/* memo for the current LID, per fabric node */
	int *st;
	uint8_t *why;
	int *at;		/* switch where the route failed / loop closed */
	int *at_port;		/* its out port */
	int *path;		/* walk stack */
	/* BFS distances (switches, including both ends) to the current owner */
	int *dist;
	int *queue;
	int dist_start;		/* switch the distances are from, -1 none */
	const int *mind;	/* dist or ud: what minimal means for this LID */
	int dist_valid;
	int *adj_first, *adj;	/* [node] switch neighbours of a switch (CSR) */
	/* with o->rank: shape of each switch's route (below) and the
	 * shortest up*|down* path (switches, both ends; 0 = none) */
	uint8_t *shape;
	int *ud;
	int ud_start, ud_valid;
	int *order, num_order;	/* switches top first */
	/* source end ports */
	int *src_node, *src_port;
	long num_src;
	/* the source ports' switches, each once, with their source counts */
	int *grp_sw;
	long *grp_cnt;
	long num_grp;
};

static int nomem(struct ibu_err *e)
{
	return ibu_err_set(e, IBU_ENOMEM, "out of memory");
}

static void port_text(const struct ibu_fabric *f, int node, int port,
		      char *buf, size_t len)
{
	const struct ibu_node *n = &f->nodes[node];

	if (ibu_node_is_switch(n))
		snprintf(buf, len, "'%s'", n->name);
	else
		snprintf(buf, len, "'%s' port %d", n->name, port);
}

void ibu_report_file(void *file, char level, const char *text)
{
	fprintf(file, "-%c- %s\n", level, text);
}

static void vreport(struct ibu_verify_report *rp, char level, const char *fmt,
		    va_list ap) __attribute__((format(printf, 3, 0)));
static void vreport(struct ibu_verify_report *rp, char level, const char *fmt,
		    va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	rp->fn(rp->arg, level, line);
}

static void report_line(struct ibu_verify_report *rp, char level,
			const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void report_line(struct ibu_verify_report *rp, char level,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(rp, level, fmt, ap);
	va_end(ap);
}

void ibu_verify_info(struct ibu_verify_report *rp, const char *fmt, ...)
{
	va_list ap;

	if (!rp->fn || rp->quiet)
		return;
	va_start(ap, fmt);
	vreport(rp, 'I', fmt, ap);
	va_end(ap);
}

void ibu_verify_error(struct ibu_verify_report *rp, enum ibu_verify_kind k,
		      const char *fmt, ...)
{
	va_list ap;

	rp->total[k]++;
	if (!rp->fn || rp->max_errors < 0 || rp->printed[k] >= rp->max_errors)
		return;
	rp->printed[k]++;
	va_start(ap, fmt);
	vreport(rp, 'E', fmt, ap);
	va_end(ap);
}

/* Would an error line of kind k still be shown? (to skip costly text) */
static int shown(const struct ibu_verify_report *rp, enum ibu_verify_kind k)
{
	return rp->fn && rp->max_errors >= 0 && rp->printed[k] < rp->max_errors;
}

static void warn(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	c->r->warnings++;
	if (!c->rp.fn)
		return;
	va_start(ap, fmt);
	vreport(&c->rp, 'W', fmt, ap);
	va_end(ap);
}

#define info(c, ...) ibu_verify_info(&(c)->rp, __VA_ARGS__)

/* ------------------------------------------------------------ set-up */

static int count_unaligned(void *ctx, int node, int port,
			   const struct ibu_port *pt)
{
	long *n = ctx;

	(void)node;
	(void)port;
	*n += (pt->lid & ((1u << pt->lmc) - 1)) != 0;
	return 0;
}

static int build_owners(struct ctx *c, struct ibu_err *e)
{
	const struct ibu_fabric *f = c->f;
	long unaligned = 0;
	int rc;

	rc = ibu_lidmap_build(f, &c->lids, e);
	if (rc)
		return rc;
	c->own = c->lids.owner;
	c->max_lid = c->lids.max_lid;
	ibu_fabric_foreach_lid_port(f, count_unaligned, &unaligned);
	if (unaligned)
		warn(c, "%ld ports have a LID set not aligned to its LMC (IBA requires alignment; OpenSM would refuse it)",
		     unaligned);
	return IBU_OK;
}

/*
 * Switch adjacency (CSR, switch links only) for the BFS, and the source
 * switches with how many source ports each carries: routes are memoised
 * per switch, so a LID without problems is counted once per switch.
 */
static int build_groups(struct ctx *c, struct ibu_err *e)
{
	const struct ibu_fabric *f = c->f;
	long *cnt, k, g = 0;
	int i, p, nn = f->num_nodes, edges = 0;

	c->adj_first = malloc((nn + 1) * sizeof(int));
	cnt = calloc(nn ? nn : 1, sizeof(*cnt));
	if (!c->adj_first || !cnt) {
		free(cnt);
		return nomem(e);
	}
	for (i = 0; i < nn; i++) {
		const struct ibu_node *nd = &f->nodes[i];

		c->adj_first[i] = edges;
		if (!ibu_node_is_switch(nd))
			continue;
		for (p = 1; p <= nd->num_ports; p++) {
			int y = nd->ports[p].peer_node;

			edges += ibu_is_sw(f, y);
		}
	}
	c->adj_first[nn] = edges;
	c->adj = malloc((edges ? edges : 1) * sizeof(int));
	if (!c->adj) {
		free(cnt);
		return nomem(e);
	}
	for (i = 0, edges = 0; i < nn; i++) {
		const struct ibu_node *nd = &f->nodes[i];

		if (!ibu_node_is_switch(nd))
			continue;
		for (p = 1; p <= nd->num_ports; p++) {
			int y = nd->ports[p].peer_node;

			if (ibu_is_sw(f, y))
				c->adj[edges++] = y;
		}
	}
	for (k = 0; k < c->num_src; k++)
		g += !cnt[f->nodes[c->src_node[k]].ports[c->src_port[k]].peer_node]++;
	c->grp_sw = malloc((g ? g : 1) * sizeof(int));
	c->grp_cnt = malloc((g ? g : 1) * sizeof(long));
	if (!c->grp_sw || !c->grp_cnt) {
		free(cnt);
		return nomem(e);
	}
	for (i = 0, g = 0; i < nn; i++)
		if (cnt[i]) {
			c->grp_sw[g] = i;
			c->grp_cnt[g++] = cnt[i];
		}
	c->num_grp = g;
	free(cnt);
	return IBU_OK;
}

static int build_sources(struct ctx *c, struct ibu_err *e)
{
	const struct ibu_fabric *f = c->f;
	long n = ibu_fabric_count_endports(f), k = 0, nolid = 0, direct = 0;
	int i, p, rc;

	c->src_node = malloc((n ? n : 1) * sizeof(int));
	c->src_port = malloc((n ? n : 1) * sizeof(int));
	if (!c->src_node || !c->src_port)
		return nomem(e);
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *nd = &f->nodes[i];

		if (ibu_node_is_switch(nd))
			continue;
		for (p = 1; p <= nd->num_ports; p++) {
			const struct ibu_port *pt = &nd->ports[p];

			if (pt->peer_node < 0)
				continue;
			if (!pt->lid)
				nolid++;
			if (!ibu_node_is_switch(&f->nodes[pt->peer_node])) {
				direct++;
				continue;
			}
			c->src_node[k] = i;
			c->src_port[k] = p;
			k++;
		}
	}
	c->num_src = k;
	rc = build_groups(c, e);
	if (rc)
		return rc;
	if (nolid)
		warn(c, "%ld cabled end ports have no LID (not a destination)",
		     nolid);
	if (direct)
		warn(c, "%ld end ports are cabled to an end port, not a switch (not a source)",
		     direct);
	return IBU_OK;
}

/* The switch a LID's owner hangs off (the owner itself for a switch);
 * -1 when the owner is not cabled to a switch. */
static int owner_switch(const struct ibu_fabric *f, int node, int port)
{
	int start = ibu_node_is_switch(&f->nodes[node]) ? node :
		    f->nodes[node].ports[port].peer_node;

	return ibu_is_sw(f, start) ? start : -1;
}

/* y is above x: lower rank, ties broken by node index */
static int above(const struct ctx *c, int y, int x)
{
	const int *rk = c->o->rank;

	return rk[y] < rk[x] || (rk[y] == rk[x] && y < x);
}

/*
 * Switch distances to start (1 = start itself, 0 = none) into dist, over
 * every link, or with up_only only from a switch to the ones above it
 * (which then reach start going only down).
 */
static void bfs_from(struct ctx *c, int start, int *dist, int up_only)
{
	int head = 0, tail = 0, i;

	memset(dist, 0, c->f->num_nodes * sizeof(int));
	if (start < 0)
		return;
	dist[start] = 1;
	c->queue[tail++] = start;
	while (head < tail) {
		int x = c->queue[head++];

		for (i = c->adj_first[x]; i < c->adj_first[x + 1]; i++) {
			int y = c->adj[i];

			if (dist[y] || (up_only && !above(c, y, x)))
				continue;
			dist[y] = dist[x] + 1;
			c->queue[tail++] = y;
		}
	}
}

/* Switch distances from every switch to the owner (node, port); kept while
 * the owners hang off the same switch. */
static void bfs(struct ctx *c, int node, int port)
{
	int start = owner_switch(c->f, node, port);

	if (c->dist_valid && c->dist_start == start)
		return;
	c->dist_valid = 1;
	c->dist_start = start;
	bfs_from(c, start, c->dist, 0);
}

/* ------------------------------------------------------------ up*|down* */

/* route shapes from a switch on: only down (or none), up then down, turned */
enum { SH_DOWN, SH_UPDOWN, SH_TURN };

/*
 * ud[] for the owner's switch: hops going only down first (BFS upward from
 * the owner), then, top first, one hop up to the best parent. O(links)
 * per destination switch, kept while the owners hang off one switch.
 */
static void updown_dist(struct ctx *c, int start)
{
	int i, j;

	if (c->ud_valid && c->ud_start == start)
		return;
	c->ud_valid = 1;
	c->ud_start = start;
	bfs_from(c, start, c->ud, 1);
	if (start < 0)
		return;
	/* parents come first in top-down order: one pass */
	for (j = 0; j < c->num_order; j++) {
		int x = c->order[j];

		for (i = c->adj_first[x]; i < c->adj_first[x + 1]; i++) {
			int y = c->adj[i];

			if (c->ud[y] && above(c, y, x) &&
			    (!c->ud[x] || c->ud[y] + 1 < c->ud[x]))
				c->ud[x] = c->ud[y] + 1;
		}
	}
}

struct rank_key {
	int rank, node;
};

static int rank_key_cmp(const void *a, const void *b)
{
	const struct rank_key *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* The switches, top first: (rank, node index), the order of above(). */
static int build_order(struct ctx *c, struct ibu_err *e)
{
	const struct ibu_fabric *f = c->f;
	int nn = f->num_nodes ? f->num_nodes : 1, i, n = 0;
	struct rank_key *key = malloc(nn * sizeof(*key));

	c->order = malloc(nn * sizeof(int));
	if (!key || !c->order) {
		free(key);
		return nomem(e);
	}
	for (i = 0; i < f->num_nodes; i++)
		if (ibu_node_is_switch(&f->nodes[i])) {
			key[n].rank = c->o->rank[i];
			key[n++].node = i;
		}
	qsort(key, n, sizeof(*key), rank_key_cmp);
	for (i = 0; i < n; i++)
		c->order[i] = key[i].node;
	c->num_order = n;
	free(key);
	return IBU_OK;
}

/* ------------------------------------------------------------ walking */

/* x's state is final: 1 hop when the entry reached the owner, else ST_BAD
 * for reason why. Returns 0 (the walk stops at x). */
static int settle(struct ctx *c, int x, int reached, int why)
{
	if (reached) {
		c->st[x] = 1;
	} else {
		c->st[x] = ST_BAD;
		c->why[x] = (uint8_t)why;
	}
	return 0;
}

/* One hop of the walk at switch x: 1 and *next when x's entry for lid
 * leads to another switch, 0 when x's state is final (settle). */
static int hop(struct ctx *c, int x, uint32_t lid,
	       const struct ibu_lid_owner *o, int *next)
{
	const struct ibu_node *nd = &c->f->nodes[x];
	uint8_t port = ibu_lft_get(c->lft, x, lid);
	int peer;

	c->at[x] = x;
	c->at_port[x] = port;
	if (c->shape)
		c->shape[x] = SH_DOWN;
	if (port == 0)
		return settle(c, x, o->node == x, WHY_PORT0);
	if (port == IBU_NO_PATH)
		return settle(c, x, 0, WHY_NOPATH);
	if (port > nd->num_ports)
		return settle(c, x, 0, WHY_BADPORT);
	peer = nd->ports[port].peer_node;
	if (peer < 0)
		return settle(c, x, 0, WHY_UNCABLED);
	if (!ibu_node_is_switch(&c->f->nodes[peer]))
		return settle(c, x, peer == o->node &&
				    nd->ports[port].peer_port == o->port,
			      WHY_WRONG_END);
	*next = peer;
	return 1;
}

/* The walk c->path[0..n-1] ended at res (final): every switch on it takes
 * res's verdict, one hop more, and its route's shape. */
static void unwind(struct ctx *c, int n, int res)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		int y = c->path[i];

		if (c->st[res] == ST_BAD) {
			c->st[y] = ST_BAD;
			c->why[y] = c->why[res];
			c->at[y] = c->at[res];
			c->at_port[y] = c->at_port[res];
		} else {
			c->st[y] = c->st[res] + 1;
			if (c->shape)
				c->shape[y] = above(c, res, y) ?
					(c->shape[res] == SH_TURN ? SH_TURN :
					 SH_UPDOWN) :
					(c->shape[res] == SH_DOWN ? SH_DOWN :
					 SH_TURN);
		}
		res = y;
	}
}

/*
 * State of switch s for LID lid with owner o: hops (>= 1) or ST_BAD, with
 * why/at/at_port set. Iterative; every switch is evaluated once per LID.
 */
static int resolve(struct ctx *c, int s, uint32_t lid, const struct ibu_lid_owner *o)
{
	int n = 0, x = s, i, next;

	for (;;) {
		if (c->st[x] >= 1 || c->st[x] == ST_BAD)
			break;
		if (c->st[x] == ST_VISITING) {
			/* every switch on the walk loops or leads into it */
			for (i = 0; i < n; i++) {
				c->st[c->path[i]] = ST_BAD;
				c->why[c->path[i]] = WHY_LOOP;
				c->at[c->path[i]] = x;
				c->at_port[c->path[i]] = ibu_lft_get(c->lft, x, lid);
			}
			return c->st[s];
		}
		if (!hop(c, x, lid, o, &next))
			break;
		c->st[x] = ST_VISITING;
		c->path[n++] = x;
		x = next;
	}
	unwind(c, n, x);
	return c->st[s];
}

static void why_text(struct ctx *c, int sw, uint32_t lid, char *buf,
		     size_t len)
{
	const struct ibu_fabric *f = c->f;
	int at = c->at[sw], port = c->at_port[sw];
	const struct ibu_node *n = &f->nodes[at];
	char peer[300];

	switch (c->why[sw]) {
	case WHY_NOPATH:
		snprintf(buf, len, "no entry (0xff) at '%s'", n->name);
		break;
	case WHY_BADPORT:
		snprintf(buf, len, "'%s' sends it to port %d of %d", n->name,
			 port, n->num_ports);
		break;
	case WHY_UNCABLED:
		snprintf(buf, len, "'%s' sends it to port %d, not cabled",
			 n->name, port);
		break;
	case WHY_WRONG_END:
		port_text(f, n->ports[port].peer_node, n->ports[port].peer_port,
			  peer, sizeof(peer));
		snprintf(buf, len, "'%s' port %d delivers it to %s", n->name,
			 port, peer);
		break;
	case WHY_PORT0:
		snprintf(buf, len, "'%s' keeps it (port 0) but does not own it",
			 n->name);
		break;
	case WHY_LOOP:
		snprintf(buf, len, "loop through '%s' port %d", n->name, port);
		break;
	default:
		snprintf(buf, len, "?");
	}
	(void)lid;
}

/* First switch on the route from sw where the remaining distance does not
 * shrink. */
static int detour_at(struct ctx *c, int sw, uint32_t lid)
{
	const struct ibu_fabric *f = c->f;
	int x = sw, steps = 0;

	while (steps++ < f->num_nodes) {
		uint8_t port = ibu_lft_get(c->lft, x, lid);
		int y;

		if (port == 0 || port > f->nodes[x].num_ports)
			break;
		y = f->nodes[x].ports[port].peer_node;
		if (!ibu_is_sw(f, y))
			break;
		if (c->mind[y] >= c->mind[x])
			return x;
		x = y;
	}
	return sw;
}

/* A pair left unrouted on purpose (no up*|down* path): listed as a
 * warning while under the cap, and to the pair callback. */
static void unrouted(struct ctx *c, int sn, int sp, uint32_t lid,
		     const char *dst)
{
	struct ibu_verify_report *rp = &c->rp;
	char src[300];

	if (c->o->pair)
		c->o->pair(c->o->pair_arg, IBU_VK_UNROUTED, sn, sp, lid);
	rp->total[IBU_VK_UNROUTED]++;
	if (!shown(rp, IBU_VK_UNROUTED) || rp->quiet)
		return;
	rp->printed[IBU_VK_UNROUTED]++;
	port_text(c->f, sn, sp, src, sizeof(src));
	report_line(rp, 'W', "unrouted: %s -> LID 0x%04x (%s): no up*/down* path (any path would go down, then up again)",
			       src, lid, dst);
}

/* The distances routes to the owner o are held to: the shortest path, or
 * the shortest up*|down* one; every switch unvisited. */
static void lid_distances(struct ctx *c, const struct ibu_lid_owner *o)
{
	const struct ibu_fabric *f = c->f;
	int i;

	for (i = 0; i < f->num_nodes; i++)
		c->st[i] = ST_UNVISITED;
	if (c->ud) {
		updown_dist(c, owner_switch(f, o->node, o->port));
		c->mind = c->ud;
	} else {
		bfs(c, o->node, o->port);
		c->mind = c->dist;
	}
}

/* Every source switch first: when all arrive on shortest paths (and no
 * turn), the sources are counted per switch and 1 returned; 0 when some
 * source must be judged on its own (check_source). */
static int check_grouped(struct ctx *c, uint32_t lid,
			 const struct ibu_lid_owner *o)
{
	const struct ibu_fabric *f = c->f;
	struct ibu_verify_result *r = c->r;
	int osw;
	long k;

	for (k = 0; k < c->num_grp; k++) {
		int sw = c->grp_sw[k], h = resolve(c, sw, lid, o);

		if (h == ST_BAD || (c->mind[sw] && h > c->mind[sw]) ||
		    (c->shape && c->shape[sw] == SH_TURN))
			return 0;
	}
	osw = ibu_node_is_switch(&f->nodes[o->node]) ? -1 :
	      owner_switch(f, o->node, o->port);
	for (k = 0; k < c->num_grp; k++) {
		long n = c->grp_cnt[k] - (c->grp_sw[k] == osw);
		int h = c->st[c->grp_sw[k]];

		r->pairs += n;
		r->ok += n;
		r->hops[h < IBU_VERIFY_MAX_HOPS ? h : IBU_VERIFY_MAX_HOPS] += n;
	}
	return 1;
}

/* A route that does not arrive: a loop or unreachable. */
static void report_bad(struct ctx *c, int sn, int sp, int sw, uint32_t lid,
		       const char *dst)
{
	struct ibu_verify_result *r = c->r;
	enum ibu_verify_kind kd = c->why[sw] == WHY_LOOP ?
		IBU_VK_LOOP : IBU_VK_UNREACH;
	char src[300] = "", why[700] = "";

	if (kd == IBU_VK_LOOP)
		r->loops++;
	else
		r->unreachable++;
	if (c->o->pair)
		c->o->pair(c->o->pair_arg, kd, sn, sp, lid);
	if (shown(&c->rp, kd)) {
		port_text(c->f, sn, sp, src, sizeof(src));
		why_text(c, sw, lid, why, sizeof(why));
	}
	ibu_verify_error(&c->rp, kd, "%s: %s -> LID 0x%04x (%s): %s",
			 kd == IBU_VK_LOOP ? "loop" : "unreachable",
			 src, lid, dst, why);
}

/* A route that arrives in h switches: a down-up turn, a detour. */
static void report_ok(struct ctx *c, int sn, int sp, int sw, int h,
		      uint32_t lid, const char *dst)
{
	const struct ibu_fabric *f = c->f;
	struct ibu_verify_result *r = c->r;
	char src[300] = "";

	r->ok++;
	r->hops[h < IBU_VERIFY_MAX_HOPS ? h : IBU_VERIFY_MAX_HOPS]++;
	if (c->shape && c->shape[sw] == SH_TURN && !c->ud[sw]) {
		r->needed_turns++;	/* a turn is the only way */
	} else if (c->shape && c->shape[sw] == SH_TURN) {
		r->turns++;
		if (shown(&c->rp, IBU_VK_TURN))
			port_text(f, sn, sp, src, sizeof(src));
		ibu_verify_error(&c->rp, IBU_VK_TURN,
				 "down-up turn: %s -> LID 0x%04x (%s): goes down, then up again (not up*/down*: a credit-loop risk)",
				 src, lid, dst);
	}
	if (!c->mind[sw] || h <= c->mind[sw])
		return;
	r->nonminimal++;
	if (shown(&c->rp, IBU_VK_NONMIN)) {
		int at = detour_at(c, sw, lid);

		port_text(f, sn, sp, src, sizeof(src));
		ibu_verify_error(&c->rp, IBU_VK_NONMIN,
				 "non-minimal: %s -> LID 0x%04x (%s): %d switches, shortest %d; detour at '%s' port %d",
				 src, lid, dst, h, c->mind[sw],
				 f->nodes[at].name,
				 ibu_lft_get(c->lft, at, lid));
	} else {
		c->rp.total[IBU_VK_NONMIN]++;
	}
}

static void check_lid(struct ctx *c, uint32_t lid)
{
	const struct ibu_fabric *f = c->f;
	const struct ibu_lid_owner *o = &c->own[lid];
	char dst[300];
	long k;

	lid_distances(c, o);
	if (check_grouped(c, lid, o))
		return;
	port_text(f, o->node, o->port, dst, sizeof(dst));
	for (k = 0; k < c->num_src; k++) {
		int sn = c->src_node[k], sp = c->src_port[k];
		int sw = f->nodes[sn].ports[sp].peer_node, h;

		if (sn == o->node && sp == o->port)
			continue;
		c->r->pairs++;
		h = resolve(c, sw, lid, o);
		if (h == ST_BAD && c->ud && !c->ud[sw] &&
		    c->why[sw] == WHY_NOPATH) {
			c->r->no_updown++;	/* only a turn would reach it */
			unrouted(c, sn, sp, lid, dst);
		} else if (h == ST_BAD) {
			report_bad(c, sn, sp, sw, lid, dst);
		} else {
			report_ok(c, sn, sp, sw, h, lid, dst);
		}
	}
}

/* ------------------------------------------------------------ driver */

static void print_totals(struct ctx *c)
{
	char line[256];
	int k;

	if (!c->rp.fn)
		return;
	for (k = 0; k < IBU_VK_KINDS; k++)
		if (c->rp.total[k] > c->rp.printed[k]) {
			snprintf(line, sizeof(line), "%ld %s in total, %ld shown%s",
				 c->rp.total[k], c->rp.kind_name[k] ?
				 c->rp.kind_name[k] : "problems",
				 c->rp.printed[k], k == IBU_VK_UNROUTED ?
				 " (-v lists every one)" : "");
			if (k != IBU_VK_UNROUTED || !c->rp.quiet)
				c->rp.fn(c->rp.arg, k == IBU_VK_UNROUTED ?
					 'W' : 'E', line);
		}
}

static void ctx_init(struct ctx *c, const struct ibu_fabric *f,
		     const struct ibu_lft *lft, const struct ibu_verify_opts *o,
		     ibu_report_fn report, void *report_arg,
		     struct ibu_verify_result *r)
{
	static const struct ibu_verify_opts defaults;

	memset(r, 0, sizeof(*r));
	memset(c, 0, sizeof(*c));
	c->f = f;
	c->lft = lft;
	c->o = o ? o : &defaults;
	c->r = r;
	c->rp.fn = report;
	c->rp.arg = report_arg;
	c->rp.quiet = c->o->quiet;
	c->rp.max_errors = c->o->max_errors ? c->o->max_errors :
			   IBU_VERIFY_DEFAULT_MAX_ERRORS;
	c->rp.kind_name[IBU_VK_UNREACH] = "unreachable routes";
	c->rp.kind_name[IBU_VK_LOOP] = "looping routes";
	c->rp.kind_name[IBU_VK_NONMIN] = "non-minimal routes";
	c->rp.kind_name[IBU_VK_TURN] = "routes with a down-up turn";
	c->rp.kind_name[IBU_VK_UNROUTED] = "pairs left unrouted";
	if (c->o->rule) {
		c->rp.kind_name[IBU_VK_RULE] = c->o->rule->mismatch_name;
		c->rp.kind_name[IBU_VK_PATH] = c->o->rule->path_name;
	}
}

/* The per-switch walk state (and, with ranks, shapes and up*|down*
 * distances). */
static int ctx_alloc(struct ctx *c, struct ibu_err *e)
{
	int nn = c->f->num_nodes ? c->f->num_nodes : 1;

	c->st = malloc(nn * sizeof(int));
	c->why = malloc(nn);
	c->at = malloc(nn * sizeof(int));
	c->at_port = malloc(nn * sizeof(int));
	c->path = malloc(nn * sizeof(int));
	c->dist = malloc(nn * sizeof(int));
	c->queue = malloc(nn * sizeof(int));
	if (!c->st || !c->why || !c->at || !c->at_port || !c->path ||
	    !c->dist || !c->queue)
		return nomem(e);
	if (c->o->rank) {
		c->shape = malloc(nn);
		c->ud = malloc(nn * sizeof(int));
		if (!c->shape || !c->ud)
			return nomem(e);
	}
	return IBU_OK;
}

static void ctx_free(struct ctx *c)
{
	ibu_lidmap_free(&c->lids);
	free(c->st);
	free(c->why);
	free(c->at);
	free(c->at_port);
	free(c->path);
	free(c->dist);
	free(c->queue);
	free(c->shape);
	free(c->ud);
	free(c->order);
	free(c->src_node);
	free(c->src_port);
	free(c->adj_first);
	free(c->adj);
	free(c->grp_sw);
	free(c->grp_cnt);
}

/* Owned LIDs into r->lids; a warning for entries of LIDs nobody owns. */
static void count_lids(struct ctx *c)
{
	const struct ibu_lft *lft = c->lft;
	uint32_t lid;
	long unowned = 0;
	int i;

	for (lid = 1; lid <= c->max_lid; lid++)
		c->r->lids += c->own[lid].node >= 0;
	for (i = 0; i < c->f->num_nodes && i < lft->num_nodes; i++) {
		if (!lft->row[i])
			continue;
		for (lid = 1; lid <= lft->max_lid; lid++)
			if (lft->row[i][lid] != IBU_NO_PATH &&
			    (lid > c->max_lid || c->own[lid].node < 0))
				unowned++;
	}
	if (unowned)
		warn(c, "%ld LFT entries route LIDs that no port owns", unowned);
}

static void print_hops(struct ctx *c)
{
	const struct ibu_verify_result *r = c->r;
	char line[1024];
	int h, len;

	if (!c->rp.fn || c->o->quiet)
		return;
	len = snprintf(line, sizeof(line),
		       "hop histogram (switches traversed):");
	for (h = 0; h <= IBU_VERIFY_MAX_HOPS && len < 1000; h++)
		if (r->hops[h])
			len += snprintf(line + len, sizeof(line) - (size_t)len,
					" %d%s:%ld", h,
					h == IBU_VERIFY_MAX_HOPS ? "+" : "",
					r->hops[h]);
	c->rp.fn(c->rp.arg, 'I', line);
}

/* Every owned LID from every source, then the engine's rule. */
static int check_all(struct ctx *c, struct ibu_err *e)
{
	struct ibu_verify_result *r = c->r;
	uint32_t lid;

	info(c, "Checking unicast routes: %ld sources x %ld LIDs, %d switches",
	     r->sources, r->lids, ibu_fabric_count_switches(c->f));
	for (lid = 1; lid <= c->max_lid; lid++) {
		if (c->own[lid].node >= 0)
			check_lid(c, lid);
		if (!(lid & 63) || lid == c->max_lid)
			ibu_progress_report(c->o->progress, "checking LIDs",
					    lid, c->max_lid);
	}
	if (r->no_updown)
		warn(c, "%ld routes left unrouted where no up*/down* path exists (any path would go down, then up again)",
		     r->no_updown);
	if (r->needed_turns)
		info(c, "%ld routes take a down-up turn where no up*/down* path exists (check --deadlock tells whether those turns are safe)",
		     r->needed_turns);
	if (c->o->rule) {
		r->rule = c->o->rule;
		return c->o->rule->run(c->o->rule->arg, c->f, c->lft, &c->lids,
				       &c->rp, r, e);
	}
	return IBU_OK;
}

int ibu_verify_lft(const struct ibu_fabric *f, const struct ibu_lft *lft,
		   const struct ibu_verify_opts *o, ibu_report_fn report,
		   void *report_arg, struct ibu_verify_result *r,
		   struct ibu_err *e)
{
	struct ctx c;
	int rc;

	ctx_init(&c, f, lft, o, report, report_arg, r);
	rc = build_owners(&c, e);
	if (!rc)
		rc = ctx_alloc(&c, e);
	if (!rc)
		rc = build_sources(&c, e);
	if (!rc && c.o->rank)
		rc = build_order(&c, e);
	if (!rc) {
		r->sources = c.num_src;
		count_lids(&c);
		rc = check_all(&c, e);
	}
	if (!rc) {
		print_totals(&c);
		print_hops(&c);
	}
	ctx_free(&c);
	return rc;
}

long ibu_verify_problems(const struct ibu_verify_result *r)
{
	return r->unreachable + r->loops + r->nonminimal + r->turns +
	       r->rule_mismatches + r->path_violations;
}

void ibu_verify_print_summary(FILE *out, const char *who,
			      const struct ibu_verify_result *r)
{
	int h, first = 1;

	fprintf(out, "%s %s: %ld sources x %ld LIDs: %ld unreachable, %ld loops, %ld non-minimal",
		ibu_verify_problems(r) ? "-E-" : "-I-", who, r->sources, r->lids,
		r->unreachable, r->loops, r->nonminimal);
	if (r->turns || r->no_updown || r->needed_turns)
		fprintf(out, ", %ld down-up turns, %ld pairs without an up*/down* path",
			r->turns, r->no_updown + r->needed_turns);
	if (r->needed_turns)
		fprintf(out, " (%ld of them turned)", r->needed_turns);
	if (r->rule)
		fprintf(out, ", %ld %s", r->rule_mismatches,
			r->rule->mismatch_name);
	if (r->rule && r->rule->path_short)
		fprintf(out, ", %ld %s", r->path_violations,
			r->rule->path_short);
	fprintf(out, " (hops:");
	for (h = 0; h <= IBU_VERIFY_MAX_HOPS; h++)
		if (r->hops[h]) {
			fprintf(out, " %d%s:%ld", h,
				h == IBU_VERIFY_MAX_HOPS ? "+" : "", r->hops[h]);
			first = 0;
		}
	fprintf(out, "%s)\n", first ? " none" : "");
}
