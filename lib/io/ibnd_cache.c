/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibnetdiscover cache reader (see ibnd_cache.h). Layout, all little endian:
 *
 *   header  28 bytes: magic, version, node count, port count (u32 each),
 *           "from" node GUID (u64), max hops (u32)
 *   node   207 bytes: SM LID (u16), SM LMC, enhanced-SP0 flag, SwitchInfo
 *           (64), GUID (u64) at +68, type at +76, port count at +77,
 *           NodeInfo (64), NodeDescription (64) at +142, key count at +206;
 *           then key count keys of 9 bytes: port GUID (u64), port number
 *   port    95 bytes: GUID (u64), number at +8, external number, base LID
 *           (u16) at +10, LMC at +12, PortInfo (64), owner node GUID (u64)
 *           at +77, "has a peer" flag at +85, peer port GUID (u64) at +86,
 *           peer port number at +94
 *
 * A port belongs to the node whose key names it; a cable is a port whose
 * flag is set and whose peer key names a port some node owns (libibnetdisc
 * drops a peer it cannot find, so do we: a partial discovery stops there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ibnd_cache.h"
#include "input.h"

#define HDR_LEN 28u
#define NODE_LEN 207u
#define KEY_LEN 9u
#define PORT_LEN 95u
#define CACHE_VERSION 1u
#define DESC_LEN 64u
#define MAX_LMC 7u

struct cport {
	uint64_t guid;
	int num;
	uint16_t lid;
	uint8_t lmc;
	uint64_t owner;		/* node GUID the record names */
	int has_peer;
	uint64_t peer_guid;
	int peer_num;
	size_t off;		/* offset of the record, for messages */
	int node;		/* owning node index once claimed, else -1 */
};

struct cache {
	const uint8_t *b;
	size_t len;
	const char *name;
	struct cport *ports;	/* in file order */
	int *by_key;		/* port indices sorted by (GUID, number) */
	uint32_t nports;
};

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static int cmp_key(const struct cport *a, uint64_t guid, int num)
{
	if (a->guid != guid)
		return a->guid < guid ? -1 : 1;
	return a->num < num ? -1 : a->num > num;
}

/* qsort has no context argument in C11: sort (GUID, number, index) triples */
struct sortkey {
	uint64_t guid;
	int num;
	int idx;
};

static int cmp_sortkey(const void *x, const void *y)
{
	const struct sortkey *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return a->idx - b->idx;
}

static int find_port(const struct cache *c, uint64_t guid, int num)
{
	uint32_t lo = 0, hi = c->nports;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int r = cmp_key(&c->ports[c->by_key[mid]], guid, num);

		if (!r)
			return c->by_key[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int header(struct cache *c, uint32_t *nnodes, struct ibu_err *e)
{
	uint64_t need;

	if (c->len < HDR_LEN)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: cache header cut short (%zu of %u bytes)",
				   c->name, c->len, c->len, HDR_LEN);
	if (le(c->b, 4) != IBU_IBND_CACHE_MAGIC)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset 0: not a little-endian ibnetdiscover cache (magic 0x%08llx)",
				   c->name, (unsigned long long)le(c->b, 4));
	if (le(c->b + 4, 4) != CACHE_VERSION)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset 4: cache version %llu, only %u is known",
				   c->name, (unsigned long long)le(c->b + 4, 4),
				   CACHE_VERSION);
	*nnodes = (uint32_t)le(c->b + 8, 4);
	c->nports = (uint32_t)le(c->b + 12, 4);
	/* the counts must fit the file before anything is allocated */
	need = HDR_LEN + (uint64_t)*nnodes * NODE_LEN +
	       (uint64_t)c->nports * PORT_LEN;
	if (need > c->len)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset 8: header counts %u nodes and %u ports, which need at least %llu bytes; the file has %zu",
				   c->name, *nnodes, c->nports,
				   (unsigned long long)need, c->len);
	return IBU_OK;
}

static int read_port(struct cache *c, size_t off, struct cport *p,
		     struct ibu_err *e)
{
	const uint8_t *r = c->b + off;

	p->off = off;
	p->guid = le(r, 8);
	p->num = r[8];
	p->lid = (uint16_t)le(r + 10, 2);
	p->lmc = r[12];
	p->owner = le(r + 77, 8);
	p->has_peer = r[85];
	p->peer_guid = le(r + 86, 8);
	p->peer_num = r[94];
	p->node = -1;
	if (p->lmc > MAX_LMC)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: port 0x%016llx/%d has LMC %u (at most %u)",
				   c->name, off + 12, (unsigned long long)p->guid,
				   p->num, p->lmc, MAX_LMC);
	if (p->lid > IBU_MAX_UCAST_LID ||
	    (p->lid && p->lid + (1u << p->lmc) - 1 > IBU_MAX_UCAST_LID))
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: port 0x%016llx/%d has base LID 0x%x with LMC %u, outside the unicast LIDs",
				   c->name, off + 10, (unsigned long long)p->guid,
				   p->num, p->lid, p->lmc);
	if (p->has_peer > 1)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: peer flag %d is neither 0 nor 1",
				   c->name, off + 85, p->has_peer);
	return IBU_OK;
}

/* Port records come after every node and its keys: find where they start
 * by walking the nodes' key counts, each checked against the file. */
static int ports_start(const struct cache *c, uint32_t nnodes, size_t *start,
		       struct ibu_err *e)
{
	size_t off = HDR_LEN, tail = (size_t)c->nports * PORT_LEN;
	uint32_t i;

	for (i = 0; i < nnodes; i++) {
		size_t keys;

		if (c->len - tail < off + NODE_LEN)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s: offset %zu: node %u cut short",
					   c->name, off, i);
		keys = (size_t)c->b[off + 206] * KEY_LEN;
		off += NODE_LEN;
		if (c->len - tail < off + keys)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s: offset %zu: node %u has %zu port keys, more than the file holds",
					   c->name, off - 1, i, keys / KEY_LEN);
		off += keys;
	}
	if (off + tail != c->len)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: %zu bytes after the last port record",
				   c->name, off + tail, c->len - off - tail);
	*start = off;
	return IBU_OK;
}

static int load_ports(struct cache *c, size_t start, struct ibu_err *e)
{
	struct sortkey *k;
	uint32_t i;
	int rc = IBU_OK;

	c->ports = calloc(c->nports ? c->nports : 1, sizeof(*c->ports));
	c->by_key = calloc(c->nports ? c->nports : 1, sizeof(*c->by_key));
	k = calloc(c->nports ? c->nports : 1, sizeof(*k));
	if (!c->ports || !c->by_key || !k) {
		free(k);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	for (i = 0; i < c->nports && !rc; i++) {
		rc = read_port(c, start + (size_t)i * PORT_LEN, &c->ports[i], e);
		k[i].guid = c->ports[i].guid;
		k[i].num = c->ports[i].num;
		k[i].idx = (int)i;
	}
	if (!rc)
		qsort(k, c->nports, sizeof(*k), cmp_sortkey);
	for (i = 0; i < c->nports && !rc; i++) {
		c->by_key[i] = k[i].idx;
		if (i && k[i].guid == k[i - 1].guid && k[i].num == k[i - 1].num)
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s: offset %zu: port 0x%016llx/%d recorded twice",
					 c->name, c->ports[k[i].idx].off,
					 (unsigned long long)k[i].guid, k[i].num);
	}
	free(k);
	return rc;
}

/* NodeDescription is 64 bytes, not always NUL-terminated; control bytes
 * become '?' so messages stay one readable line. */
static void node_desc(const uint8_t *d, char *out)
{
	unsigned i;

	for (i = 0; i < DESC_LEN && d[i]; i++)
		out[i] = d[i] < 0x20 || d[i] == 0x7f ? '?' : (char)d[i];
	out[i] = '\0';
	if (!i)
		strcpy(out, "?");
}

static int add_node(struct cache *c, size_t off, uint32_t i,
		    struct ibu_fabric *f, struct ibu_err *e)
{
	const uint8_t *r = c->b + off;
	char desc[DESC_LEN + 1];
	int type = r[76], np = r[77], idx, rc;
	uint64_t guid = le(r + 68, 8);

	if (type < IBU_NODE_CA || type > IBU_NODE_ROUTER)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: node %u has type %d (1 CA, 2 switch, 3 router)",
				   c->name, off + 76, i, type);
	if (np < 1 || np > IBU_MAX_PORTS)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: node %u has %d ports (1..%d)",
				   c->name, off + 77, i, np, IBU_MAX_PORTS);
	if (!guid)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s: offset %zu: node %u has GUID 0",
				   c->name, off + 68, i);
	node_desc(r + 142, desc);
	rc = ibu_fabric_add_node(f, (enum ibu_node_type)type, desc, guid, np,
				 &idx, e);
	if (rc)
		return rc;
	f->nodes[idx].line = 0;
	return IBU_OK;
}

/* The node's keys: each names a port record this node now owns. */
static int claim_ports(struct cache *c, size_t off, int idx,
		       struct ibu_fabric *f, struct ibu_err *e)
{
	struct ibu_node *n = &f->nodes[idx];
	int nkeys = c->b[off + 206], j;

	for (j = 0; j < nkeys; j++) {
		size_t ko = off + NODE_LEN + (size_t)j * KEY_LEN;
		uint64_t g = le(c->b + ko, 8);
		int num = c->b[ko + 8], pi = find_port(c, g, num);
		struct cport *p;

		if (pi < 0)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s: offset %zu: node '%s' names port 0x%016llx/%d, which has no record",
					   c->name, ko, n->name,
					   (unsigned long long)g, num);
		p = &c->ports[pi];
		if (num > n->num_ports || p->owner != n->guid || p->node >= 0)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s: offset %zu: port 0x%016llx/%d does not belong to node '%s' (%d ports)%s",
					   c->name, ko, (unsigned long long)g,
					   num, n->name, n->num_ports,
					   p->node >= 0 ? ", claimed twice" : "");
		p->node = idx;
		/* a CA's port 0 is not a port; a switch's port 0 holds its LID */
		if (num || n->type == IBU_NODE_SWITCH) {
			n->ports[num].guid = p->guid;
			n->ports[num].lid = p->lid;
			n->ports[num].lmc = p->lmc;
		}
	}
	return IBU_OK;
}

static int add_nodes(struct cache *c, uint32_t nnodes, struct ibu_fabric *f,
		     struct ibu_err *e)
{
	size_t off = HDR_LEN;
	uint32_t i;
	int rc;

	for (i = 0; i < nnodes; i++) {
		rc = add_node(c, off, i, f, e);
		if (!rc)
			rc = claim_ports(c, off, f->num_nodes - 1, f, e);
		if (rc)
			return rc;
		off += NODE_LEN + (size_t)c->b[off + 206] * KEY_LEN;
	}
	return IBU_OK;
}

static int add_cables(struct cache *c, struct ibu_fabric *f,
		      struct ibu_err *e)
{
	uint32_t i;

	for (i = 0; i < c->nports; i++) {
		const struct cport *p = &c->ports[i], *q;
		int qi, rc;

		if (p->node < 0)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s: offset %zu: port 0x%016llx/%d belongs to no node",
					   c->name, p->off,
					   (unsigned long long)p->guid, p->num);
		if (!p->has_peer || !p->num)
			continue;
		qi = find_port(c, p->peer_guid, p->peer_num);
		if (qi < 0 || c->ports[qi].node < 0)
			continue;	/* beyond a partial discovery */
		q = &c->ports[qi];
		if (!q->num)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s: offset %zu: port 0x%016llx/%d cabled to a port 0",
					   c->name, p->off + 86,
					   (unsigned long long)p->guid, p->num);
		rc = ibu_fabric_link(f, p->node, p->num, q->node, q->num, e);
		if (rc) {
			ibu_err_prefix(e, "%s: offset %zu", c->name, p->off + 86);
			return IBU_EPARSE;
		}
	}
	return IBU_OK;
}

int ibu_ibnd_cache_sniff(const uint8_t *buf, size_t len)
{
	uint32_t m;

	if (len < 4)
		return 0;
	m = (uint32_t)le(buf, 4);
	return m == IBU_IBND_CACHE_MAGIC ||
	       ((m & 0xffu) << 24 | (m & 0xff00u) << 8 | (m >> 8 & 0xff00u) |
		m >> 24) == IBU_IBND_CACHE_MAGIC;
}

int ibu_ibnd_cache_parse(const uint8_t *buf, size_t len, const char *name,
			 struct ibu_fabric *f, struct ibu_err *e)
{
	struct cache c = { .b = buf, .len = len, .name = name };
	uint32_t nnodes = 0;
	size_t start = 0;
	int rc;

	rc = ibu_fabric_init(f, name);
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	rc = header(&c, &nnodes, e);
	if (!rc)
		rc = ports_start(&c, nnodes, &start, e);
	if (!rc)
		rc = load_ports(&c, start, e);
	if (!rc)
		rc = add_nodes(&c, nnodes, f, e);
	if (!rc)
		rc = ibu_fabric_index(f, e);
	if (!rc)
		rc = ibu_fabric_check_guids(f, e);
	/* libibnetdisc refuses a cache without its discovering node */
	if (!rc && ibu_fabric_find_guid(f, le(buf + 16, 8)) < 0)
		rc = ibu_err_set(e, IBU_EPARSE,
				 "%s: offset 16: the discovering node 0x%016llx is not in the cache",
				 name, (unsigned long long)le(buf + 16, 8));
	if (!rc)
		rc = add_cables(&c, f, e);
	free(c.ports);
	free(c.by_key);
	if (rc)
		ibu_fabric_free(f);
	return rc;
}

int ibu_ibnd_cache_read(const char *path, struct ibu_fabric *f,
			struct ibu_err *e)
{
	char *buf;
	size_t len;
	int rc = ibu_input_read_all(path, IBU_INPUT_MAX, &buf, &len, e);

	if (rc)
		return rc;
	rc = ibu_ibnd_cache_parse((const uint8_t *)buf, len,
				  ibu_input_name(path), f, e);
	free(buf);
	return rc;
}
