/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Pipelined SubnGet SMPs (see live_smp.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/umad.h>
#include "live_smp.h"

#define SMP_RETRIES 2

struct batch {
	struct ibmad_port *port;
	const struct ibu_smp_req *reqs;
	long n, next, pending;
	int fd, agent, timeout;
	uint32_t base;		/* low TID word of request 0; request i is base + i
				 * (the kernel owns the high word) */
	uint8_t *answered;	/* [n] */
	void *umad;		/* one send/receive buffer */
	struct ibu_err *e;
};

static int send_one(struct batch *b)
{
	const struct ibu_smp_req *r = &b->reqs[b->next];
	ib_rpc_t rpc;
	ib_portid_t id;

	memset(&rpc, 0, sizeof(rpc));
	memset(&id, 0, sizeof(id));
	rpc.mgtclass = IB_SMI_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = r->attr;
	rpc.attr.mod = r->mod;
	rpc.timeout = b->timeout;
	rpc.datasz = IB_SMP_DATA_SIZE;
	rpc.dataoffs = IB_SMP_DATA_OFFS;
	rpc.trid = (uint64_t)(uint32_t)(b->base + (uint32_t)b->next);
	ib_portid_set(&id, r->lid, 0, 0);
	memset(b->umad, 0, umad_size() + IB_MAD_SIZE);
	if (mad_build_pkt(b->umad, &rpc, &id, NULL, NULL) < 0 ||
	    umad_send(b->fd, b->agent, b->umad, IB_MAD_SIZE, b->timeout,
		      SMP_RETRIES) < 0)
		return ibu_err_set(b->e, IBU_EIO,
				   "live: cannot send SubnGet(0x%x) modifier 0x%x to LID %u: %s",
				   r->attr, r->mod, r->lid, strerror(errno));
	b->next++;
	b->pending++;
	return IBU_OK;
}

/* One answer: which request, its status, then done(). */
static int receive_one(struct batch *b, ibu_smp_done done, void *ctx)
{
	int len = IB_MAD_SIZE, wait = b->timeout * (SMP_RETRIES + 1) + 100;
	uint8_t *mad;
	long i;
	unsigned status;

	if (umad_recv(b->fd, b->umad, &len, wait) < 0)
		return ibu_err_set(b->e, IBU_EIO,
				   "live: %ld SubnGet SMPs without an answer in %d ms (first: LID %u)",
				   b->pending, wait,
				   b->reqs[b->next - b->pending].lid);
	mad = umad_get_mad(b->umad);
	i = (long)(uint32_t)((uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F) - b->base);
	if (i >= b->next || b->answered[i])
		return IBU_OK;	/* a late duplicate or someone else's */
	if (umad_status(b->umad) || (status = mad_get_field(mad, 0, IB_MAD_STATUS_F)))
		return ibu_err_set(b->e, IBU_EIO,
				   "live: SubnGet(0x%x) modifier 0x%x to LID %u failed (%s)",
				   b->reqs[i].attr, b->reqs[i].mod, b->reqs[i].lid,
				   umad_status(b->umad) ? "no answer" : "bad MAD status");
	b->answered[i] = 1;
	b->pending--;
	return done(ctx, &b->reqs[i], mad + IB_SMP_DATA_OFFS);
}

int ibu_smp_batch(struct ibmad_port *port, const struct ibu_smp_req *reqs,
		  long n, int window, int timeout_ms, ibu_smp_done done,
		  void *ctx, struct ibu_err *e)
{
	struct batch b = { .port = port, .reqs = reqs, .n = n, .e = e };
	int rc = IBU_OK;

	if (n <= 0)
		return IBU_OK;
	b.fd = mad_rpc_portid(port);
	b.agent = mad_rpc_class_agent(port, IB_SMI_CLASS);
	b.timeout = timeout_ms > 0 ? timeout_ms : 1000;
	b.base = (uint32_t)mad_trid();
	b.answered = calloc((size_t)n, 1);
	b.umad = calloc(1, umad_size() + IB_MAD_SIZE);
	if (!b.answered || !b.umad) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto out;
	}
	while (!rc && (b.next < n || b.pending)) {
		while (!rc && b.next < n && b.pending < window)
			rc = send_one(&b);
		if (!rc)
			rc = receive_one(&b, done, ctx);
	}
out:
	free(b.answered);
	free(b.umad);
	return rc;
}
