/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "cdg_ports.h"

/* What the last search proved; a new dependency makes an acyclic graph
 * unknown again, a cyclic one stays cyclic. */
enum { CDGP_UNKNOWN, CDGP_ACYCLIC, CDGP_CYCLIC };

static int is_switch(const struct ibu_fabric *f, int node)
{
	return node >= 0 && ibu_node_is_switch(&f->nodes[node]);
}

/* Channel numbering, and the switch each channel enters (as the channel
 * of its port 0) when it joins two switches. */
static int layout(struct ibu_cdg_ports *g)
{
	const struct ibu_fabric *f = g->f;
	int i, p, maxp = 0;

	for (i = 0; i < f->num_nodes; i++) {
		g->base[i] = g->num_ch;
		g->num_ch += f->nodes[i].num_ports + 1;
		if (f->nodes[i].num_ports > maxp)
			maxp = f->nodes[i].num_ports;
	}
	g->base[f->num_nodes] = g->num_ch;
	g->words = (maxp + 1 + 63) / 64;
	g->node_of = malloc((size_t)(g->num_ch + 1) * sizeof(int));
	g->next = malloc((size_t)(g->num_ch + 1) * sizeof(int));
	if (!g->node_of || !g->next)
		return IBU_ENOMEM;
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		for (p = 0; p <= n->num_ports; p++) {
			int peer = p ? n->ports[p].peer_node : -1;

			g->node_of[g->base[i] + p] = i;
			g->next[g->base[i] + p] = ibu_node_is_switch(n) &&
				is_switch(f, peer) ? g->base[peer] : -1;
		}
	}
	return IBU_OK;
}

/* Switches where end ports' routes start (cdg.c follows every CA or
 * router port cabled to a switch), each once. */
static int find_starts(struct ibu_cdg_ports *g)
{
	const struct ibu_fabric *f = g->f;
	int i, p;

	g->starts = malloc((size_t)(f->num_nodes + 1) * sizeof(int));
	if (!g->starts)
		return IBU_ENOMEM;
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		if (ibu_node_is_switch(n))
			continue;
		for (p = 1; p <= n->num_ports; p++) {
			int peer = n->ports[p].peer_node;

			if (!is_switch(f, peer) || g->seen[peer])
				continue;
			g->seen[peer] = 1;
			g->starts[g->num_starts++] = peer;
		}
	}
	return IBU_OK;
}

int ibu_cdg_ports_init(struct ibu_cdg_ports *g, const struct ibu_fabric *f,
		       struct ibu_err *e)
{
	size_t nn = (size_t)f->num_nodes + 1;

	memset(g, 0, sizeof(*g));
	g->f = f;
	g->state = CDGP_ACYCLIC;
	g->base = malloc(nn * sizeof(int));
	g->seen = calloc(nn, sizeof(*g->seen));
	if (!g->base || !g->seen || layout(g) || find_starts(g))
		goto oom;
	g->mask = calloc((size_t)g->num_ch * g->words + 1, sizeof(uint64_t));
	g->vis = calloc((size_t)g->num_ch + 1, sizeof(uint32_t));
	g->on = calloc((size_t)g->num_ch + 1, 1);
	g->dch = malloc(((size_t)g->num_ch + 1) * sizeof(int));
	g->dport = malloc(((size_t)g->num_ch + 1) * sizeof(int));
	if (g->mask && g->vis && g->on && g->dch && g->dport)
		return IBU_OK;
oom:
	ibu_cdg_ports_free(g);
	return ibu_err_set(e, IBU_ENOMEM, "out of memory");
}

void ibu_cdg_ports_free(struct ibu_cdg_ports *g)
{
	if (!g)
		return;
	free(g->base);
	free(g->node_of);
	free(g->next);
	free(g->mask);
	free(g->starts);
	free(g->seen);
	free(g->vis);
	free(g->on);
	free(g->dch);
	free(g->dport);
	free(g->log);
	memset(g, 0, sizeof(*g));
}

static uint64_t *mask_of(const struct ibu_cdg_ports *g, int ch)
{
	return &g->mask[(size_t)ch * g->words];
}

/* Dependency (channel ch) -> (the switch ch enters, port). */
static int set_dep(struct ibu_cdg_ports *g, int ch, int port,
		   struct ibu_err *e)
{
	uint64_t *w = &mask_of(g, ch)[port >> 6], bit = 1ull << (port & 63);

	if (*w & bit)
		return IBU_OK;
	if (g->logging) {
		if (g->nlog == g->logcap) {
			size_t nc = g->logcap ? 2 * g->logcap : 256;
			uint64_t *l = realloc(g->log, nc * sizeof(*l));

			if (!l)
				return ibu_err_set(e, IBU_ENOMEM, "out of memory");
			g->log = l;
			g->logcap = nc;
		}
		g->log[g->nlog++] = (uint64_t)ch << 8 | (uint64_t)port;
	}
	*w |= bit;
	g->deps++;
	if (g->state == CDGP_ACYCLIC)
		g->state = CDGP_UNKNOWN;
	return IBU_OK;
}

/* The channel switch s sends lid into when it leads to a switch, else
 * -1 (no entry, port 0, an end port, no cable: past those cdg.c's
 * follow() adds no dependency that can be on a cycle). The caller has
 * checked lid against the table's size; a node's channels are its ports
 * 0..num_ports. */
static inline int chan_to(const struct ibu_cdg_ports *g,
			  const struct ibu_lft *lft, int s, uint32_t lid)
{
	const uint8_t *row = lft->row[s];
	int ch;

	if (!row || row[lid] >= g->base[s + 1] - g->base[s])
		return -1;
	ch = g->base[s] + row[lid];
	return g->next[ch] >= 0 ? ch : -1;
}

/* Does channel ch depend on port of the switch it enters? */
static int has_dep(const struct ibu_cdg_ports *g, int ch, int port)
{
	return (int)(mask_of(g, ch)[port >> 6] >> (port & 63) & 1);
}

/* From channel ch (lid's way out of a switch walked already, bit of
 * seen), every switch the route enters, until one walked already: each
 * of them has one out-port for lid, so what follows it was added when it
 * was first walked. */
static int walk(struct ibu_cdg_ports *g, const struct ibu_lft *lft, int ch,
		uint32_t lid, uint64_t bit, struct ibu_err *e)
{
	int s, vch, rc;

	for (; ch >= 0; ch = vch) {
		s = g->node_of[g->next[ch]];
		vch = chan_to(g, lft, s, lid);
		if (vch < 0)
			break;
		if (!has_dep(g, ch, vch - g->next[ch])) {
			rc = set_dep(g, ch, vch - g->next[ch], e);
			if (rc)
				return rc;
		}
		if (g->seen[s] & bit)
			break;
		g->seen[s] |= bit;
	}
	return IBU_OK;
}

/* The dependencies of channel ch (into switch v) on v's ports in dm
 * (256 bits), those not there yet. */
static int add_deps(struct ibu_cdg_ports *g, int ch, const uint64_t *dm,
		    struct ibu_err *e)
{
	int w, rc;
	uint64_t nw;

	for (w = 0; w < g->words && w < 4; w++)
		for (nw = dm[w] & ~mask_of(g, ch)[w]; nw; nw &= nw - 1) {
			rc = set_dep(g, ch, w * 64 + __builtin_ctzll(nw), e);
			if (rc)
				return rc;
		}
	return IBU_OK;
}

/* A start's LIDs (lid0 + each bit of by) that leave it into switch v
 * over channel ch: ch's dependencies on v's ports, one mask for all; the
 * walk goes on from v for those v has not been walked for. */
static int first_hop(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
		     int ch, uint32_t lid0, uint64_t by, struct ibu_err *e)
{
	int v = g->node_of[g->next[ch]], vb = g->base[v], j, q, rc;
	int vn = g->base[v + 1] - vb;
	const uint8_t *vrow = lft->row[v];
	uint64_t dm[4] = { 0 }, bits, low = 0;

	if (!vrow)
		return IBU_OK;
	for (bits = by; bits; bits &= bits - 1) {
		j = __builtin_ctzll(bits);
		q = vrow[lid0 + (uint32_t)j];
		if (q >= vn || g->next[vb + q] < 0)
			by &= ~(1ull << j);	/* it ends at v */
		else if (q < 64)	/* in a register: no store per LID */
			low |= 1ull << q;
		else
			dm[q >> 6] |= 1ull << (q & 63);
	}
	dm[0] |= low;
	rc = add_deps(g, ch, dm, e);
	by &= ~g->seen[v];
	g->seen[v] |= by;
	for (; by && !rc; by &= by - 1) {
		j = __builtin_ctzll(by);
		rc = walk(g, lft, vb + vrow[lid0 + (uint32_t)j],
			  lid0 + (uint32_t)j, 1ull << j, e);
	}
	return rc;
}

/* Start s's LIDs lid0 + bit of todo, grouped by the port they leave on. */
static int start_block(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
		       int s, uint32_t lid0, uint64_t todo, struct ibu_err *e)
{
	const uint8_t *row = lft->row[s];
	int b0 = g->base[s], np = g->base[s + 1] - b0, ports[64], n = 0;
	int i, j, p, rc;
	uint64_t by[IBU_MAX_PORTS + 1], touched[4] = { 0 };

	for (; todo; todo &= todo - 1) {
		j = __builtin_ctzll(todo);
		p = row[lid0 + (uint32_t)j];
		if (p >= np || g->next[b0 + p] < 0)
			continue;	/* no entry, or to an end port */
		if (!(touched[p >> 6] >> (p & 63) & 1)) {
			touched[p >> 6] |= 1ull << (p & 63);
			by[p] = 0;
			ports[n++] = p;
		}
		by[p] |= 1ull << j;
	}
	for (i = 0; i < n; i++) {
		rc = first_hop(g, lft, b0 + ports[i], lid0, by[ports[i]], e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

/*
 * The LIDs lid0 + j for each bit j of want (at most 64, none past the
 * table), walked together start by start: a start's LIDs that leave it
 * on one port share a channel, whose dependencies come as one mask from
 * the next switch's row (the starts' first hops are most of the work:
 * most routes meet a switch walked already one hop on), and the LFT rows
 * are per switch, so neighbouring LIDs read the same cache lines.
 */
static int add_block(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
		     uint32_t lid0, uint64_t want, struct ibu_err *e)
{
	uint64_t todo;
	int i, s, rc;

	memset(g->seen, 0, (size_t)g->f->num_nodes * sizeof(*g->seen));
	for (i = 0; i < g->num_starts; i++) {
		s = g->starts[i];
		todo = want & ~g->seen[s];
		g->seen[s] |= todo;
		if (!todo || !lft->row[s])
			continue;
		rc = start_block(g, lft, s, lid0, todo, e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

int ibu_cdg_ports_add_lid(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
			  uint32_t lid, struct ibu_err *e)
{
	if (lft->num_nodes < g->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "LFT of another fabric");
	if (lid > lft->max_lid)
		return IBU_OK;		/* no entry anywhere: no route */
	return add_block(g, lft, lid, 1, e);
}

int ibu_cdg_ports_add_unicast(struct ibu_cdg_ports *g,
			      const struct ibu_lft *lft,
			      const struct ibu_lidmap *map, struct ibu_err *e)
{
	uint32_t lid, last = map->max_lid;
	uint64_t want = 0;
	int rc;

	if (lft->num_nodes < g->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "LFT of another fabric");
	if (last > lft->max_lid)
		last = lft->max_lid;	/* no entry anywhere: no route */
	for (lid = 1; lid <= last; lid++) {
		if (ibu_lidmap_get(map, lid))
			want |= 1ull << (lid & 63);
		if ((lid & 63) != 63 && lid != last)
			continue;
		rc = want ? add_block(g, lft, lid & ~63u, want, e) : IBU_OK;
		if (rc)
			return rc;
		want = 0;
	}
	return IBU_OK;
}

void ibu_cdg_ports_mark(struct ibu_cdg_ports *g)
{
	g->logging = 1;
	g->nlog = 0;
	g->mark_state = g->state;
}

void ibu_cdg_ports_commit(struct ibu_cdg_ports *g)
{
	g->logging = 0;
	g->nlog = 0;
}

void ibu_cdg_ports_rollback(struct ibu_cdg_ports *g)
{
	size_t i;

	if (!g->logging)
		return;
	for (i = 0; i < g->nlog; i++) {
		int ch = (int)(g->log[i] >> 8), port = (int)(g->log[i] & 0xff);

		mask_of(g, ch)[port >> 6] &= ~(1ull << (port & 63));
	}
	g->deps -= (long)g->nlog;
	/* a part of an acyclic graph is acyclic: a trial that proved the
	 * whole graph acyclic spares the next one a full search */
	if (g->state != CDGP_ACYCLIC)
		g->state = g->mark_state;
	g->logging = 0;
	g->nlog = 0;
}

/* The first port >= from in ch's mask, or -1. */
static int next_port(const struct ibu_cdg_ports *g, int ch, int from)
{
	const uint64_t *m = mask_of(g, ch);
	int w = from >> 6;
	uint64_t bits;

	if (w >= g->words)
		return -1;
	bits = m[w] & (~0ull << (from & 63));
	while (!bits) {
		if (++w == g->words)
			return -1;
		bits = m[w];
	}
	return w * 64 + __builtin_ctzll(bits);
}

/* The channels on the search path from the one at depth d to the top. */
static int give_cycle(const struct ibu_cdg_ports *g, int d, int sp,
		      struct ibu_cdg_channel **cycle, int *len,
		      struct ibu_err *e)
{
	int i;

	*len = sp - d;
	if (!cycle)
		return 1;
	*cycle = malloc((size_t)*len * sizeof(**cycle));
	if (!*cycle)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < *len; i++) {
		int ch = g->dch[d + i];

		(*cycle)[i].node = g->node_of[ch];
		(*cycle)[i].port = ch - g->base[g->node_of[ch]];
		(*cycle)[i].vl = 0;
	}
	return 1;
}

/* Iterative depth-first search from channel root over channels not met
 * yet in this search (vstamp): 1 and the cycle when a dependency leads
 * back onto the path. */
static int search(struct ibu_cdg_ports *g, int root,
		  struct ibu_cdg_channel **cycle, int *len, struct ibu_err *e)
{
	int sp = 0, rc = 0;

	if (g->vis[root] == g->vstamp)
		return 0;
	g->vis[root] = g->vstamp;
	g->on[root] = 1;
	g->dch[sp] = root;
	g->dport[sp++] = 0;
	while (sp && !rc) {
		int ch = g->dch[sp - 1], p = next_port(g, ch, g->dport[sp - 1]);
		int w;

		if (p < 0) {
			g->on[ch] = 0;
			sp--;
			continue;
		}
		g->dport[sp - 1] = p + 1;
		w = g->next[ch] + p;
		if (g->on[w]) {
			int d = sp - 1;

			while (g->dch[d] != w)
				d--;
			rc = give_cycle(g, d, sp, cycle, len, e);
		} else if (g->vis[w] != g->vstamp) {
			g->vis[w] = g->vstamp;
			g->on[w] = 1;
			g->dch[sp] = w;
			g->dport[sp++] = 0;
		}
	}
	while (sp)		/* a cycle found: leave the flags clean */
		g->on[g->dch[--sp]] = 0;
	return rc;
}

static void next_vstamp(struct ibu_cdg_ports *g)
{
	if (++g->vstamp == 0) {
		memset(g->vis, 0, (size_t)g->num_ch * sizeof(uint32_t));
		g->vstamp = 1;
	}
}

/* Answers what the state already knows; -1: a search is needed. */
static int known(const struct ibu_cdg_ports *g,
		 struct ibu_cdg_channel **cycle, int *len)
{
	if (cycle)
		*cycle = NULL;
	*len = 0;
	if (g->state == CDGP_ACYCLIC)
		return 0;
	if (g->state == CDGP_CYCLIC && !cycle)
		return 1;
	return -1;
}

int ibu_cdg_ports_find_cycle(struct ibu_cdg_ports *g,
			     struct ibu_cdg_channel **cycle, int *len,
			     struct ibu_err *e)
{
	int ch, rc = known(g, cycle, len);

	if (rc >= 0)
		return rc;
	next_vstamp(g);
	for (ch = 0, rc = 0; ch < g->num_ch && !rc; ch++)
		if (g->next[ch] >= 0)
			rc = search(g, ch, cycle, len, e);
	if (rc >= 0)
		g->state = rc ? CDGP_CYCLIC : CDGP_ACYCLIC;
	return rc;
}

int ibu_cdg_ports_find_new_cycle(struct ibu_cdg_ports *g,
				 struct ibu_cdg_channel **cycle, int *len,
				 struct ibu_err *e)
{
	size_t i;
	int rc = known(g, cycle, len);

	if (rc >= 0)
		return rc;
	if (!g->logging || g->mark_state != CDGP_ACYCLIC)
		return ibu_cdg_ports_find_cycle(g, cycle, len, e);
	next_vstamp(g);
	for (i = 0, rc = 0; i < g->nlog && !rc; i++) {
		int ch = (int)(g->log[i] >> 8), port = (int)(g->log[i] & 0xff);

		rc = search(g, g->next[ch] + port, cycle, len, e);
	}
	if (rc >= 0)
		g->state = rc ? CDGP_CYCLIC : CDGP_ACYCLIC;
	return rc;
}

int ibu_cdg_ports_copy(struct ibu_cdg_ports *dst,
		       const struct ibu_cdg_ports *src, struct ibu_err *e)
{
	int rc = ibu_cdg_ports_init(dst, src->f, e);

	if (rc)
		return rc;
	memcpy(dst->mask, src->mask,
	       (size_t)src->num_ch * (size_t)src->words * sizeof(uint64_t));
	dst->deps = src->deps;
	dst->state = src->state;
	return IBU_OK;
}

/* A flooded packet that enters the switch on a port of the tree leaves
 * on every other one: each switch-to-switch channel into it depends on
 * all of them (port 0 and end ports end there, harmless). */
int ibu_cdg_ports_add_tree(struct ibu_cdg_ports *g, int node,
			   const struct ibu_portmask *ports, struct ibu_err *e)
{
	const struct ibu_node *n = &g->f->nodes[node];
	int a, b, rc, ch;

	for (a = 1; a <= n->num_ports; a++) {
		if (!ibu_pm_test(ports, a) || !is_switch(g->f, n->ports[a].peer_node))
			continue;
		ch = g->base[n->ports[a].peer_node] + n->ports[a].peer_port;
		if (g->next[ch] < 0)
			continue;
		for (b = 0; b <= n->num_ports; b++)
			if (b != a && ibu_pm_test(ports, b) &&
			    (rc = set_dep(g, ch, b, e)))
				return rc;
	}
	return IBU_OK;
}

int ibu_cdg_ports_has(const struct ibu_cdg_ports *g, int node, int port,
		      int out_port)
{
	int ch;

	if (node < 0 || node >= g->f->num_nodes || port < 0 ||
	    port > g->f->nodes[node].num_ports || out_port < 0 ||
	    out_port >= g->words * 64)
		return 0;
	ch = g->base[node] + port;
	return g->next[ch] >= 0 && has_dep(g, ch, out_port);
}
