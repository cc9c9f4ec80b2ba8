/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "cdg_ports.h"

/* What the last search proved; a new dependency makes an acyclic graph
 * unknown again, a cyclic one stays cyclic. */
enum { CDGP_UNKNOWN, CDGP_ACYCLIC, CDGP_CYCLIC };

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
				ibu_is_sw(f, peer) ? g->base[peer] : -1;
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

			if (!ibu_is_sw(f, peer) || g->seen[peer])
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
	free(g->lazy);
	free(g->lazy_lids);
	memset(g, 0, sizeof(*g));
}

static uint64_t *mask_of(const struct ibu_cdg_ports *g, int ch)
{
	return &g->mask[(size_t)ch * g->words];
}

static int materialize(struct ibu_cdg_ports *g, int d, struct ibu_err *e);

/* Dependency (channel ch) -> (the switch ch enters, port); a lazy channel
 * it leads into has one now: its own are taken. */
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
	if (g->lazy && g->lazy[g->next[ch] + port])
		return materialize(g, g->next[ch] + port, e);
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

/* Lazy channel d's dependencies from the LIDs taken late, as the tables
 * hold them (the caller changed only eager LIDs' entries since), not
 * logged: they were there before any mark (rollback keeps them; a cycle
 * through them also crosses the new dependency into d). */
static int materialize(struct ibu_cdg_ports *g, int d, struct ibu_err *e)
{
	int s = g->node_of[d], p = d - g->base[s], v = g->node_of[g->next[d]];
	int vb = g->base[v], vn = g->base[v + 1] - vb, q, logging, rc;
	const uint8_t *row = g->lazy_lft->row[s], *vrow = g->lazy_lft->row[v];
	uint64_t dm[4] = { 0 }, bits;
	uint32_t wi, lid;

	g->lazy[d] = 0;
	if (!row || !vrow)
		return IBU_OK;
	for (wi = 0; wi <= g->lazy_last / 64; wi++)
		for (bits = g->lazy_lids[wi]; bits; bits &= bits - 1) {
			lid = wi * 64 + (uint32_t)__builtin_ctzll(bits);
			if (row[lid] != p)
				continue;
			q = vrow[lid];
			if (q < vn && g->next[vb + q] >= 0)
				dm[q >> 6] |= 1ull << (q & 63);
		}
	logging = g->logging;
	g->logging = 0;
	rc = add_deps(g, d, dm, e);
	g->logging = logging;
	return rc;
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

/* Start s's route to lid as channels into ch[] (at most
 * IBU_LFT_MAX_HOPS + 1); *valley as ibu_lft_route_has_valley(). */
static int route_channels(const struct ibu_cdg_ports *g,
			  const struct ibu_lft *lft, int s, uint32_t lid,
			  const int *level, int *ch, int *valley)
{
	int n = 0, c, u = -1, v = s, w;

	*valley = 0;
	for (c = chan_to(g, lft, s, lid); c >= 0; c = chan_to(g, lft, v, lid)) {
		if (n > IBU_LFT_MAX_HOPS) {
			*valley = 1;	/* it loops */
			break;
		}
		ch[n++] = c;
		w = g->node_of[g->next[c]];
		if (u >= 0 && ibu_valley(level, u, v, w))
			*valley = 1;
		u = v;
		v = w;
	}
	return n;
}

int ibu_cdg_ports_add_lid_layer(struct ibu_cdg_ports *g,
				const struct ibu_lft *lft, uint32_t lid,
				const int *level, int layer,
				struct ibu_err *e)
{
	int ch[IBU_LFT_MAX_HOPS + 2], i, k, n, valley, rc;

	if (lft->num_nodes < g->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "LFT of another fabric");
	if (lid > lft->max_lid)
		return IBU_OK;
	for (i = 0; i < g->num_starts; i++) {
		n = route_channels(g, lft, g->starts[i], lid, level, ch,
				   &valley);
		if (valley != !!layer)
			continue;
		for (k = 1; k < n; k++) {
			rc = set_dep(g, ch[k - 1], ch[k] - g->next[ch[k - 1]],
				     e);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

/*
 * add_unicast walks switch by switch rather than LID by LID: per switch a
 * bitmap of the LIDs whose end-port routes enter it (reach) and of those
 * not walked on from it yet (pend), a chunk of LIDs at a time. Each
 * (switch, LID) a route enters is walked once, its row and its
 * neighbours' rows read in LID order, the dependencies gathered per port
 * in registers-sized masks: the same set as add_block() gives, at a
 * fraction of its bookkeeping per (switch, LID) (IBFT(24,3) with one cut
 * cable: 98 M instructions before).
 */
#define REACH_WORDS 16		/* LIDs per chunk / 64 */

struct reach {
	uint64_t *reach, *done;	/* [node * REACH_WORDS] */
	uint64_t *ok;		/* ok_ports() */
	uint64_t none[4];
	const uint64_t *lazy;	/* [lid / 64] LIDs taken late (lazy mode) */
	int *queue;		/* switches with reach bits not done, FIFO */
	unsigned char *inq;
	int head, n;
	int *touched, ntouched;	/* switches queued in this chunk */
	uint32_t *tstamp, chunk;	/* [node]: chunk it was last queued in */
};

/* A switch's neighbour over one of its ports, for one pass; ok: the
 * neighbour's ports that lead on to a switch (none: no way on). */
struct hop {
	const uint8_t *row;
	const uint64_t *ok;
	int node;
	int lazy;		/* a channel of g->lazy */
};

static void push(struct reach *w, const struct ibu_cdg_ports *g, int v)
{
	int nn = g->f->num_nodes;

	if (w->inq[v])
		return;
	w->inq[v] = 1;
	if (w->tstamp[v] != w->chunk) {	/* its bits to clear after */
		w->tstamp[v] = w->chunk;
		w->touched[w->ntouched++] = v;
	}
	w->queue[(w->head + w->n++) % nn] = v;
}

/* ok[node * 4]: its ports that lead to a switch (a row to read). */
static void ok_ports(const struct ibu_cdg_ports *g, const struct ibu_lft *lft,
		     uint64_t *ok)
{
	int v, q, vb, vn;

	for (v = 0; v < g->f->num_nodes; v++) {
		vb = g->base[v];
		vn = g->base[v + 1] - vb;
		for (q = 0; q < vn && q < 256 && lft->row[v]; q++)
			if (g->next[vb + q] >= 0)
				ok[4 * v + (q >> 6)] |= 1ull << (q & 63);
	}
}

/* h[0..np) of switch u. */
static void neighbours(const struct ibu_cdg_ports *g,
		       const struct ibu_lft *lft, const struct reach *w,
		       int u, struct hop *h)
{
	int b0 = g->base[u], np = g->base[u + 1] - b0, p, v;

	for (p = 0; p < np; p++) {
		v = g->next[b0 + p] < 0 ? u : g->node_of[g->next[b0 + p]];
		h[p].row = lft->row[v] ? lft->row[v] : lft->row[u];
		h[p].ok = v == u || !lft->row[v] ? w->none : &w->ok[4 * v];
		h[p].node = v == u ? -1 : v;
		h[p].lazy = g->lazy && g->lazy[b0 + p];
	}
}

/* The LIDs lid0 + bit of bits that entered u, one hop on: their
 * dependencies into dm (per port of u), the next switches' reach. */
static void spread_word(struct reach *w, const uint8_t *row,
			const struct hop *h, int np, uint32_t lid0,
			uint64_t bits, int wi, uint64_t (*dm)[4])
{
	const struct hop *hp;
	int j, q, p;

	for (; bits; bits &= bits - 1) {
		j = __builtin_ctzll(bits);
		p = row[lid0 + (uint32_t)j];
		if (p >= np)
			continue;	/* no entry */
		hp = &h[p];
		q = hp->row[lid0 + (uint32_t)j];
		if (!(hp->ok[q >> 6] >> (q & 63) & 1))
			continue;	/* no way on, or it ends next */
		dm[p][q >> 6] |= 1ull << (q & 63);
		w->reach[(size_t)hp->node * REACH_WORDS + wi] |= 1ull << j;
	}
}

/* A start's LIDs lid0 + bit of bits that leave on lazy channels and are
 * taken late go on to the next switches without their dependencies, by
 * ports gathered first (most of a fat tree's LIDs at most of its
 * starts: a few instructions each); returns the others. acc: zero. */
static uint64_t spread_lazy(struct reach *w, const uint8_t *row,
			    const struct hop *h, int np, uint32_t lid0,
			    uint64_t bits, int wi, uint64_t *acc)
{
	uint64_t late = w->lazy[lid0 >> 6], rest = 0;
	int p, j;

	if (bits == ~0ull)	/* a start's full word: no bit scan */
		for (j = 0; j < 64; j++)
			acc[row[lid0 + (uint32_t)j]] |= 1ull << j;
	else
		for (; bits; bits &= bits - 1)
			acc[row[lid0 + (uint32_t)__builtin_ctzll(bits)]] |=
				bits & -bits;
	for (p = 0; p < np; p++) {
		if (!acc[p])
			continue;
		if (h[p].lazy)
			w->reach[(size_t)h[p].node * REACH_WORDS + wi] |=
				acc[p] & late;
		rest |= h[p].lazy ? acc[p] & ~late : acc[p];
		acc[p] = 0;
	}
	return rest;		/* entries >= np: none, dropped */
}

/* Switch u's LIDs of the chunk from lid0 not walked on yet, one hop on;
 * the next switches with new LIDs queued. */
static int spread_switch(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
			 struct reach *w, int u, uint32_t lid0,
			 struct ibu_err *e)
{
	struct hop h[IBU_MAX_PORTS + 1];
	uint64_t dm[IBU_MAX_PORTS + 1][4], acc[256];
	size_t at = (size_t)u * REACH_WORDS;
	int b0 = g->base[u], np = g->base[u + 1] - b0, wi, p, rc = IBU_OK;
	int lazy = 0;
	uint64_t bits;

	if (!lft->row[u])
		return IBU_OK;
	neighbours(g, lft, w, u, h);
	memset(dm, 0, (size_t)np * sizeof(dm[0]));
	for (p = 0; p < np; p++)
		lazy |= h[p].lazy;
	if (lazy)
		memset(acc, 0, sizeof(acc));
	for (wi = 0; wi < REACH_WORDS; wi++) {
		bits = w->reach[at + wi] & ~w->done[at + wi];
		w->done[at + wi] |= bits;
		if (bits && lazy)
			bits = spread_lazy(w, lft->row[u], h, np,
					   lid0 + 64 * (uint32_t)wi, bits, wi,
					   acc);
		if (bits)
			spread_word(w, lft->row[u], h, np,
				    lid0 + 64 * (uint32_t)wi, bits, wi, dm);
	}
	for (p = 0; p < np && !rc; p++) {
		if (!h[p].lazy &&
		    !(dm[p][0] | dm[p][1] | dm[p][2] | dm[p][3]))
			continue;	/* no LID on to a switch there */
		rc = add_deps(g, b0 + p, dm[p], e);
		for (wi = 0; wi < REACH_WORDS; wi++)
			if (w->reach[(size_t)h[p].node * REACH_WORDS + wi] &
			    ~w->done[(size_t)h[p].node * REACH_WORDS + wi]) {
				push(w, g, h[p].node);
				break;
			}
	}
	return rc;
}

/* The chunk of LIDs from lid0 (bits in want) from every start on. */
static int reach_chunk(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
		       struct reach *w, uint32_t lid0, const uint64_t *want,
		       struct ibu_err *e)
{
	int i, u, rc = IBU_OK;

	w->chunk++;
	w->ntouched = 0;
	for (i = 0; i < g->num_starts; i++) {
		u = g->starts[i];
		memcpy(&w->reach[(size_t)u * REACH_WORDS], want,
		       REACH_WORDS * sizeof(uint64_t));
		push(w, g, u);
	}
	while (w->n && !rc) {
		u = w->queue[w->head];
		w->head = (w->head + 1) % g->f->num_nodes;
		w->n--;
		w->inq[u] = 0;
		rc = spread_switch(g, lft, w, u, lid0, e);
	}
	for (i = 0; i < w->ntouched; i++) {	/* zero for the next chunk */
		u = w->touched[i];
		memset(&w->reach[(size_t)u * REACH_WORDS], 0,
		       REACH_WORDS * sizeof(uint64_t));
		memset(&w->done[(size_t)u * REACH_WORDS], 0,
		       REACH_WORDS * sizeof(uint64_t));
	}
	return rc;
}

/* The LIDs of map up to last, chunk by chunk. */
static int reach_all(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
		     const struct ibu_lidmap *map, uint32_t last,
		     struct reach *w, struct ibu_err *e)
{
	uint64_t want[REACH_WORDS];
	uint32_t lid0, lid;
	int rc, any;

	for (lid0 = 0; lid0 <= last; lid0 += 64 * REACH_WORDS) {
		memset(want, 0, sizeof(want));
		for (lid = lid0 ? lid0 : 1, any = 0;
		     lid <= last && lid < lid0 + 64 * REACH_WORDS; lid++)
			if (ibu_lidmap_get(map, lid)) {
				want[(lid - lid0) >> 6] |= 1ull << (lid & 63);
				any = 1;
			}
		rc = any ? reach_chunk(g, lft, w, lid0, want, e) : IBU_OK;
		if (rc)
			return rc;
	}
	return IBU_OK;
}

static int add_unicast(struct ibu_cdg_ports *g, const struct ibu_lft *lft,
		       const struct ibu_lidmap *map, uint32_t last,
		       struct ibu_err *e)
{
	size_t nn = (size_t)g->f->num_nodes + 1;
	struct reach w = { .lazy = g->lazy_lids };
	int rc;

	w.reach = calloc(nn * REACH_WORDS, sizeof(uint64_t));
	w.done = calloc(nn * REACH_WORDS, sizeof(uint64_t));
	w.touched = malloc(nn * sizeof(int));
	w.tstamp = calloc(nn, sizeof(uint32_t));
	w.ok = calloc(nn * 4, sizeof(uint64_t));
	w.queue = malloc(nn * sizeof(int));
	w.inq = calloc(nn, 1);
	if (w.ok)
		ok_ports(g, lft, w.ok);
	rc = w.reach && w.done && w.ok && w.queue && w.inq && w.touched &&
	     w.tstamp ?
		reach_all(g, lft, map, last, &w, e) :
		ibu_err_set(e, IBU_ENOMEM, "out of memory");
	free(w.reach);
	free(w.done);
	free(w.ok);
	free(w.queue);
	free(w.inq);
	free(w.touched);
	free(w.tstamp);
	return rc;
}

int ibu_cdg_ports_add_unicast(struct ibu_cdg_ports *g,
			      const struct ibu_lft *lft,
			      const struct ibu_lidmap *map, struct ibu_err *e)
{
	uint32_t last = map->max_lid;

	if (lft->num_nodes < g->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "LFT of another fabric");
	if (last > lft->max_lid)
		last = lft->max_lid;	/* no entry anywhere: no route */
	return add_unicast(g, lft, map, last, e);
}

/* The lazy channels: from a start into a switch that is none (so no
 * cycle runs through lazy channels only), and the LIDs they take late:
 * the map's up to last, not in eager. */
static int mark_lazy(struct ibu_cdg_ports *g, const struct ibu_lidmap *map,
		     uint32_t last, const uint32_t *eager, int neager)
{
	unsigned char *start = calloc((size_t)g->f->num_nodes + 1, 1);
	uint32_t lid;
	int i, p, s;

	g->lazy = calloc((size_t)g->num_ch + 1, 1);
	g->lazy_lids = calloc(last / 64 + REACH_WORDS + 1, sizeof(uint64_t));
	if (!start || !g->lazy || !g->lazy_lids) {
		free(start);
		return IBU_ENOMEM;
	}
	for (i = 0; i < g->num_starts; i++)
		start[g->starts[i]] = 1;
	for (i = 0; i < g->num_starts; i++) {
		s = g->starts[i];
		for (p = g->base[s]; p < g->base[s + 1]; p++)
			g->lazy[p] = g->next[p] >= 0 &&
				     !start[g->node_of[g->next[p]]];
	}
	free(start);
	for (lid = 1; lid <= last; lid++)
		if (ibu_lidmap_get(map, lid))
			g->lazy_lids[lid >> 6] |= 1ull << (lid & 63);
	for (i = 0; i < neager; i++)
		if (eager[i] <= last)
			g->lazy_lids[eager[i] >> 6] &= ~(1ull << (eager[i] & 63));
	g->lazy_last = last;
	return IBU_OK;
}

int ibu_cdg_ports_add_unicast_lazy(struct ibu_cdg_ports *g,
				   const struct ibu_lft *lft,
				   const struct ibu_lidmap *map,
				   const uint32_t *eager, int neager,
				   struct ibu_err *e)
{
	uint32_t last = map->max_lid;

	if (lft->num_nodes < g->f->num_nodes)
		return ibu_err_set(e, IBU_EINVAL, "LFT of another fabric");
	if (g->deps || g->lazy)
		return ibu_err_set(e, IBU_EINVAL,
				   "lazy dependencies on a graph not empty");
	if (last > lft->max_lid)
		last = lft->max_lid;	/* no entry anywhere: no route */
	g->lazy_lft = lft;
	if (mark_lazy(g, map, last, eager, neager))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return add_unicast(g, lft, map, last, e);
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
	int rc;

	if (src->lazy)
		return ibu_err_set(e, IBU_EINVAL, "copy of a lazy graph");
	rc = ibu_cdg_ports_init(dst, src->f, e);
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
		if (!ibu_pm_test(ports, a) || !ibu_is_sw(g->f, n->ports[a].peer_node))
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
