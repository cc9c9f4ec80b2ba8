/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The live fabric through libibnetdisc and libibmad (see live.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include "atomicfile.h"
#include "opts.h"
#include "dump.h"
#include "fabric_open.h"
#include "live.h"
#include "live_smp.h"
#include "sa_client.h"

#define LFT_BLOCK 64		/* LIDs per LinearForwardingTable block */
#define MFT_BLOCK 32		/* MLIDs per MulticastForwardingTable block */
#define MFT_PORTS 16		/* ports per MFT block position */
#define LIVE_SMP_WINDOW 16	/* SMPs in flight (ibnetdiscover keeps 2 by default) */

struct live_ctx {
	const struct ibu_live_opts *o;
	struct ibu_live *lv;
	struct ibmad_port *mad;
	ibnd_node_t **node;	/* [fabric node] its libibnetdisc node */
	struct ibu_sa_query sa;	/* members: tools/sa_client.c */
	struct ibu_err *e;
};

void ibu_live_free(struct ibu_live *lv)
{
	ibu_lft_free(&lv->lft);
	if (lv->what & IBU_LIVE_MFT) {
		ibu_mft_free(&lv->mft);
		ibu_mcmembers_free(&lv->members);
	}
	if (lv->what & IBU_LIVE_SL2VL)
		ibu_sl2vl_free(&lv->sl2vl);
	ibu_fabric_free(&lv->f);
	if (lv->nd)
		ibnd_destroy_fabric(lv->nd);
	memset(lv, 0, sizeof(*lv));
}

/* Where SMPs to a node go: its LID once an SM gave it one, else the
 * directed route the discovery took (a fabric without an SM). */
static void node_portid(const ibnd_node_t *nd, ib_portid_t *id)
{
	if (nd->smalid) {
		ib_portid_set(id, nd->smalid, 0, 0);
		return;
	}
	*id = nd->path_portid;
}

/* One SubnGet, waiting for its answer (directed routes). */
static int smp_get(struct live_ctx *c, ibnd_node_t *nd, unsigned attr,
		   unsigned mod, uint8_t *buf, const char *what)
{
	ib_portid_t id;

	memset(&id, 0, sizeof(id));
	node_portid(nd, &id);
	memset(buf, 0, IB_SMP_DATA_SIZE);
	if (!smp_query_via(buf, &id, attr, mod, c->o->timeout_ms, c->mad))
		return ibu_err_set(c->e, IBU_EIO,
				   "live: SubnGet(%s) modifier 0x%x to '%s' (0x%016" PRIx64 ", %s) failed",
				   what, mod, nd->nodedesc, nd->guid,
				   portid2str(&id));
	return IBU_OK;
}

static uint32_t lft_top(const ibnd_node_t *nd)
{
	uint32_t top = 0;

	mad_decode_field((uint8_t *)nd->switchinfo, IB_SW_LINEAR_FDB_TOP_F, &top);
	return top > IBU_MAX_UCAST_LID ? IBU_MAX_UCAST_LID : top;
}

/* A growing list of SMPs to send. */
struct reqs {
	struct ibu_smp_req *r;
	long n, cap;
};

static int req_add(struct live_ctx *c, struct reqs *q, int node,
		   unsigned attr, unsigned mod, int a, int b)
{
	struct ibu_smp_req *r;

	if (q->n == q->cap) {
		long cap = q->cap ? 2 * q->cap : 256;

		r = realloc(q->r, (size_t)cap * sizeof(*r));
		if (!r)
			return ibu_err_set(c->e, IBU_ENOMEM, "out of memory");
		q->r = r;
		q->cap = cap;
	}
	r = &q->r[q->n++];
	r->lid = c->node[node]->smalid;
	r->attr = (uint16_t)attr;
	r->mod = mod;
	r->node = node;
	r->a = a;
	r->b = b;
	return IBU_OK;
}

/* Sends q: pipelined when every target has a LID, else one directed-route
 * SMP at a time (a fabric without an SM). */
static int run_reqs(struct live_ctx *c, struct reqs *q, ibu_smp_done done,
		    const char *what)
{
	uint8_t buf[IB_SMP_DATA_SIZE];
	long i;
	int rc = IBU_OK, by_lid = 1;

	for (i = 0; i < q->n; i++)
		by_lid &= q->r[i].lid != 0;
	c->lv->smps += q->n;
	if (by_lid)
		rc = ibu_smp_batch(c->mad, q->r, q->n, LIVE_SMP_WINDOW,
				   c->o->timeout_ms, done, c, c->e);
	for (i = 0; !by_lid && !rc && i < q->n; i++) {
		rc = smp_get(c, c->node[q->r[i].node], q->r[i].attr,
			     q->r[i].mod, buf, what);
		if (!rc)
			rc = done(c, &q->r[i], buf);
	}
	free(q->r);
	memset(q, 0, sizeof(*q));
	return rc;
}

static int lft_done(void *ctx, const struct ibu_smp_req *r, const uint8_t *d)
{
	struct live_ctx *c = ctx;
	uint32_t top = lft_top(c->node[r->node]), k, lid;

	for (k = 0; k < LFT_BLOCK; k++) {
		lid = (uint32_t)r->a * LFT_BLOCK + k;
		if (lid <= top)
			c->lv->lft.row[r->node][lid] = d[k];
	}
	return IBU_OK;
}

/* Every switch's LFT up to its LinearFDBTop, as dump_lfts reads it. */
static int read_lfts(struct live_ctx *c)
{
	struct ibu_fabric *f = &c->lv->f;
	struct reqs q = { 0 };
	uint32_t max = 0, top, b;
	int i, rc;

	for (i = 0; i < f->num_nodes; i++)
		if (ibu_node_is_switch(&f->nodes[i]) && lft_top(c->node[i]) > max)
			max = lft_top(c->node[i]);
	rc = ibu_lft_init(&c->lv->lft, f, max, c->e);
	for (i = 0; !rc && i < f->num_nodes; i++) {
		if (!ibu_node_is_switch(&f->nodes[i]))
			continue;
		top = lft_top(c->node[i]);
		for (b = 0; !rc && b <= top / LFT_BLOCK; b++)
			rc = req_add(c, &q, i, IB_ATTR_LINEARFORWTBL, b, (int)b, 0);
	}
	if (rc) {
		free(q.r);
		return rc;
	}
	return run_reqs(c, &q, lft_done, "LinearForwardingTable");
}

/* Last MLID a switch may hold: MulticastFDBTop, else its capacity (as
 * dump_mfts does for switches that do not report a top). */
static uint32_t mft_end(const ibnd_node_t *nd)
{
	uint32_t cap = 0, top = 0, end;

	mad_decode_field((uint8_t *)nd->switchinfo, IB_SW_MCAST_FDB_CAP_F, &cap);
	mad_decode_field((uint8_t *)nd->switchinfo, IB_SW_MCAST_FDB_TOP_F, &top);
	end = IBU_MCAST_LID_BASE + cap - 1;
	if (!cap)
		return 0;
	if (top && top < end)
		end = top;
	return end > IBU_MAX_MLID ? IBU_MAX_MLID : end;
}

/* One MFT block: 32 MLIDs x 16 ports (position b), big-endian masks,
 * bit i = port 16 * position + i. */
static int mft_done(void *ctx, const struct ibu_smp_req *r, const uint8_t *d)
{
	struct live_ctx *c = ctx;
	ibnd_node_t *nd = c->node[r->node];
	uint32_t end = mft_end(nd), k, mlid;
	int bit, rc;

	for (k = 0; k < MFT_BLOCK; k++) {
		unsigned m = (unsigned)d[2 * k] << 8 | d[2 * k + 1];

		mlid = (uint32_t)r->a * MFT_BLOCK + k;
		for (bit = 0; mlid <= end && bit < MFT_PORTS; bit++) {
			int port = r->b * MFT_PORTS + bit;

			if (!(m >> bit & 1) || port > nd->numports)
				continue;
			rc = ibu_mft_set(&c->lv->mft, (uint16_t)mlid, r->node,
					 port, c->e);
			if (rc)
				return rc;
		}
	}
	return IBU_OK;
}

static int read_mfts(struct live_ctx *c)
{
	struct ibu_fabric *f = &c->lv->f;
	struct reqs q = { 0 };
	uint32_t end, b;
	int i, pos, rc = IBU_OK;

	for (i = 0; !rc && i < f->num_nodes; i++) {
		ibnd_node_t *nd = c->node[i];

		if (!ibu_node_is_switch(&f->nodes[i]))
			continue;
		c->lv->mft.dumped[i] = 1;
		end = mft_end(nd);
		if (end < IBU_MCAST_LID_BASE)
			continue;
		for (b = IBU_MCAST_LID_BASE / MFT_BLOCK; !rc && b <= end / MFT_BLOCK; b++)
			for (pos = 0; !rc && pos <= nd->numports / MFT_PORTS; pos++)
				rc = req_add(c, &q, i, IB_ATTR_MULTICASTFORWTBL,
					     (b - IBU_MCAST_LID_BASE / MFT_BLOCK) |
					     ((uint32_t)pos << 28), (int)b, pos);
	}
	if (rc) {
		free(q.r);
		return rc;
	}
	return run_reqs(c, &q, mft_done, "MulticastForwardingTable");
}

/* A port that carries traffic: port 0 of a switch or a cabled port. */
static int port_used(const struct ibu_node *n, int p)
{
	return p == 0 ? ibu_node_is_switch(n) : n->ports[p].peer_node >= 0;
}

/* SLtoVLMappingTable: 16 nibbles, SL 0 in the high nibble of byte 0. */
static int sl2vl_done(void *ctx, const struct ibu_smp_req *r, const uint8_t *d)
{
	struct live_ctx *c = ctx;
	uint8_t vl[16];
	int sl;

	for (sl = 0; sl < 16; sl++)
		vl[sl] = sl & 1 ? d[sl / 2] & 15 : d[sl / 2] >> 4;
	return ibu_sl2vl_set(&c->lv->sl2vl, &c->lv->f, r->node, r->a, r->b,
			     vl, c->e);
}

/* Switches: every pair of used ports (in may be port 0: the switch's own
 * packets), modifier in << 8 | out. CAs: the table of the port the SMP
 * reaches (their only port: multi-port CAs are not asked). */
static int read_sl2vl(struct live_ctx *c)
{
	struct ibu_fabric *f = &c->lv->f;
	struct reqs q = { 0 };
	int i, in, out, rc;

	rc = ibu_sl2vl_init(&c->lv->sl2vl, f, c->e);
	for (i = 0; !rc && i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		if (!ibu_node_is_switch(n)) {
			if (n->num_ports == 1 && port_used(n, 1) && n->ports[1].lid)
				rc = req_add(c, &q, i, IB_ATTR_SLVL_TABLE, 0, 0, 1);
			continue;
		}
		for (in = 0; !rc && in <= n->num_ports; in++)
			for (out = 1; !rc && out <= n->num_ports; out++)
				if (port_used(n, in) && port_used(n, out))
					rc = req_add(c, &q, i, IB_ATTR_SLVL_TABLE,
						     (unsigned)(in << 8 | out), in, out);
	}
	if (rc) {
		free(q.r);
		return rc;
	}
	return run_reqs(c, &q, sl2vl_done, "SLtoVLMappingTable");
}

static int add_member(void *ctx, const struct ibu_sa_mcm_rec *r)
{
	struct live_ctx *c = ctx;
	struct ibu_mcast_member m;
	int port;

	c->lv->sa_records++;
	if (!r->port_guid) {	/* the SA hid the member: we are not trusted */
		c->lv->sa_hidden++;
		return IBU_OK;
	}
	memset(&m, 0, sizeof(m));
	m.node = ibu_fabric_find_port_guid(&c->lv->f, r->port_guid, &port);
	if (m.node < 0)
		return ibu_err_set(c->e, IBU_EPARSE,
				   "live: the SA lists port GUID 0x%016" PRIx64
				   " in MLID 0x%04x, which discovery did not find",
				   r->port_guid, r->mlid);
	m.port = port;
	/* FullMember (1) and NonMember (2) receive; the send-only states not */
	m.send_only = !(r->join_state & 0x3);
	return ibu_mcmembers_add(&c->lv->members, r->mlid, &m, c->e);
}

/* One GetTable (tools/sa_client.c); *cut: asked again narrower. */
static int get_table(struct live_ctx *c, const uint8_t *port_gid,
		     uint16_t mlid, int *cut)
{
	char err[256];
	int rc = ibu_sa_mcm_get_table(&c->sa, port_gid, mlid, cut, add_member,
				      c, err, sizeof(err));

	c->lv->sa_queries = c->sa.queries;
	if (rc < 0)
		return ibu_err_set(c->e, IBU_EIO, "live: %s", err);
	return rc;
}

/* The members of mlid, one end port at a time (the narrowest question:
 * its answer is taken whole). */
static int get_group_per_port(struct live_ctx *c, uint16_t mlid)
{
	struct ibu_fabric *f = &c->lv->f;
	uint8_t gid[16] = { 0xfe, 0x80 };	/* link-local subnet prefix */
	int i, p, k, rc;

	for (i = 0; i < f->num_nodes; i++)
		for (p = 0; p <= f->nodes[i].num_ports; p++) {
			const struct ibu_port *pt = &f->nodes[i].ports[p];

			if (!pt->guid || !pt->lid ||
			    (p == 0) != ibu_node_is_switch(&f->nodes[i]))
				continue;
			for (k = 0; k < 8; k++)
				gid[8 + k] = (uint8_t)(pt->guid >> (56 - 8 * k));
			rc = get_table(c, gid, mlid, NULL);
			if (rc)
				return rc;
		}
	return IBU_OK;
}

/* Every member: one GetTable; if it may have been cut, one per MLID the
 * switches hold; a group that still fills a MAD, one per end port. */
static int read_members(struct live_ctx *c)
{
	int cut, gi, rc;

	c->sa.port = c->mad;
	c->sa.sm_key = c->o->sm_key;
	c->sa.timeout_ms = c->o->timeout_ms;
	rc = get_table(c, NULL, 0, &cut);
	for (gi = 0; !rc && cut && gi < c->lv->mft.num_groups; gi++) {
		uint16_t mlid = c->lv->mft.g[gi].mlid;
		int gcut;

		rc = get_table(c, NULL, mlid, &gcut);
		if (!rc && gcut)
			rc = get_group_per_port(c, mlid);
	}
	if (!rc && c->lv->sa_hidden)
		rc = ibu_err_set(c->e, IBU_EIO,
				 "live: the SA hid the PortGID of %ld of %ld MCMemberRecords: give OpenSM's sa_key with --smkey (SM_Key 0x%" PRIx64 " is not trusted)",
				 c->lv->sa_hidden, c->lv->sa_records, c->o->sm_key);
	return rc;
}

static int discover(const struct ibu_live_opts *o, struct ibu_live *lv,
		    struct ibu_err *e)
{
	struct ibnd_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.timeout_ms = (unsigned)o->timeout_ms;
	lv->nd = ibnd_discover_fabric((char *)o->ca, o->ca_port, NULL, &cfg);
	if (!lv->nd)
		return ibu_err_set(e, IBU_EIO,
				   "live: discovery from %s port %d failed (no InfiniBand port, or the port is down)",
				   o->ca ? o->ca : "the first CA", o->ca_port);
	return ibu_fabric_from_ibnd(lv->nd, "live fabric", &lv->f, e);
}

static int read_tables(struct live_ctx *c)
{
	int rc = read_lfts(c);

	if (!rc && (c->o->what & IBU_LIVE_MFT))
		rc = read_mfts(c);
	if (!rc && (c->o->what & IBU_LIVE_MFT)) {
		rc = read_members(c);
		/* no MLID anywhere and no SA (no SM yet): no group, no error */
		if (rc == IBU_EIO && !c->lv->mft.num_groups &&
		    !c->lv->sa_queries)
			rc = IBU_OK;
	}
	if (!rc && (c->o->what & IBU_LIVE_SL2VL))
		rc = read_sl2vl(c);
	return rc;
}

int ibu_live_read(const struct ibu_live_opts *o, struct ibu_live *lv,
		  struct ibu_err *e)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	struct live_ctx c = { .o = o, .lv = lv, .e = e };
	ibnd_node_t *nd;
	int rc, i = 0;

	memset(lv, 0, sizeof(*lv));
	rc = discover(o, lv, e);
	if (rc)
		goto fail;
	c.node = calloc(lv->f.num_nodes ? lv->f.num_nodes : 1, sizeof(*c.node));
	if (!c.node) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto fail;
	}
	for (nd = lv->nd->nodes; nd && i < lv->f.num_nodes; nd = nd->next)
		c.node[i++] = nd;
	lv->what = o->what;
	if (o->what & IBU_LIVE_MFT) {
		ibu_mcmembers_init(&lv->members);
		rc = ibu_mft_init(&lv->mft, lv->f.num_nodes, e);
		if (rc) {
			lv->what &= ~(unsigned)IBU_LIVE_MFT;
			goto fail;
		}
	}
	c.mad = mad_rpc_open_port((char *)o->ca, o->ca_port, classes, 3);
	if (!c.mad) {
		rc = ibu_err_set(e, IBU_EIO, "live: cannot open %s port %d: %s",
				 o->ca ? o->ca : "the first CA", o->ca_port,
				 strerror(errno));
		goto fail;
	}
	rc = read_tables(&c);
	mad_rpc_close_port(c.mad);
	if (rc)
		goto fail;
	free(c.node);
	return IBU_OK;
fail:
	free(c.node);
	ibu_live_free(lv);
	return rc;
}

/* dir/name written by fn through lib/core/atomicfile. */
static int save_one(const char *dir, const char *name, char *path, size_t len,
		    int (*fn)(FILE *out, struct ibu_live *lv, struct ibu_err *e),
		    struct ibu_live *lv, struct ibu_err *e)
{
	struct ibu_atomicfile af;
	int rc;

	if ((size_t)snprintf(path, len, "%s/%s", dir, name) >= len)
		return ibu_err_set(e, IBU_EINVAL, "%s: path too long", dir);
	rc = ibu_out_open(&af, path, e);
	if (rc)
		return rc;
	rc = fn(af.fp, lv, e);
	if (rc) {
		ibu_out_abort(&af);
		return rc;
	}
	return ibu_out_commit(&af, e);
}

static int w_lfts(FILE *out, struct ibu_live *lv, struct ibu_err *e)
{
	return ibu_dump_write_lfts(out, &lv->f, &lv->lft, e);
}

static int w_mfts(FILE *out, struct ibu_live *lv, struct ibu_err *e)
{
	return ibu_mft_write(out, &lv->f, &lv->mft, e);
}

static int w_members(FILE *out, struct ibu_live *lv, struct ibu_err *e)
{
	fprintf(out, "# multicast members the SA listed (MCMemberRecord GetTable)\n");
	return ibu_mcmembers_write(out, &lv->f, &lv->members, e);
}

static int w_sl2vl(FILE *out, struct ibu_live *lv, struct ibu_err *e)
{
	return ibu_sl2vl_write(out, &lv->f, &lv->sl2vl, e);
}

int ibu_live_save(struct ibu_live *lv, const char *dir,
		  struct ibu_live_files *out, struct ibu_err *e)
{
	int rc;

	memset(out, 0, sizeof(*out));
	/* the topology in libibnetdisc's own cache format: it keeps every
	 * LID and LMC, and ibu_fabric_open() reads it back */
	if ((size_t)snprintf(out->fabric, sizeof(out->fabric), "%s/fabric.ibnd-cache",
			     dir) >= sizeof(out->fabric))
		return ibu_err_set(e, IBU_EINVAL, "%s: path too long", dir);
	remove(out->fabric);	/* ibnd_cache_fabric refuses to overwrite */
	if (ibnd_cache_fabric(lv->nd, out->fabric, 0))
		return ibu_err_set(e, IBU_EIO, "%s: cannot write the fabric cache",
				   out->fabric);
	rc = save_one(dir, "lfts.dump", out->lfts, sizeof(out->lfts), w_lfts, lv, e);
	if (!rc && (lv->what & IBU_LIVE_MFT))
		rc = save_one(dir, "mfts.dump", out->mfts, sizeof(out->mfts),
			      w_mfts, lv, e);
	if (!rc && (lv->what & IBU_LIVE_MFT))
		rc = save_one(dir, "members", out->members, sizeof(out->members),
			      w_members, lv, e);
	if (!rc && (lv->what & IBU_LIVE_SL2VL))
		rc = save_one(dir, "sl2vl.dump", out->sl2vl, sizeof(out->sl2vl),
			      w_sl2vl, lv, e);
	return rc;
}
