/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* SA MCMemberRecord join/leave with libibmad. */
#include <ctype.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include "sa_client.h"

/* MCMemberRecord component mask bits (IBA 15.2.5.17) */
enum {
	CM_MGID = 0, CM_PORT_GID = 1, CM_QKEY = 2, CM_MLID = 3, CM_TCLASS = 6,
	CM_PKEY = 7,
	CM_SL = 12, CM_FLOW_LABEL = 13, CM_JOIN_STATE = 16,
};

int ibu_sa_parse_mgid(const char *text, uint8_t mgid[16])
{
	char *end;
	unsigned long long n;

	if (!text || !*text)
		return -1;
	if (strchr(text, ':'))
		return inet_pton(AF_INET6, text, mgid) == 1 ? 0 : -1;
	/* strict, as every number option: decimal or 0x hex, nothing else */
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		if (!isxdigit((unsigned char)text[2]))
			return -1;
		errno = 0;
		n = strtoull(text + 2, &end, 16);
	} else {
		if (!isdigit((unsigned char)text[0]))
			return -1;
		errno = 0;
		n = strtoull(text, &end, 10);
	}
	if (errno || *end || n > 0xffffffffULL)
		return -1;
	memset(mgid, 0, 16);
	mgid[0] = 0xff;		/* multicast */
	mgid[1] = 0x12;		/* flags 1 (transient), scope 2 (link local) */
	mgid[2] = 0x60;
	mgid[3] = 0x1b;
	mgid[4] = 0xff;
	mgid[5] = 0xff;
	mgid[12] = (uint8_t)(n >> 24);
	mgid[13] = (uint8_t)(n >> 16);
	mgid[14] = (uint8_t)(n >> 8);
	mgid[15] = (uint8_t)n;
	return 0;
}

void ibu_sa_format_mgid(const uint8_t mgid[16], char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, mgid, buf, (socklen_t)len) && len)
		buf[0] = '\0';
}

int ibu_sa_mcm_open(const char *ca, int ca_port, int timeout_ms,
		    struct ibu_sa_mcm_port *sp, char *err, size_t errlen)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	ib_portid_t self, sm;
	ibmad_gid_t gid;
	int portnum = 0, i;

	memset(sp, 0, sizeof(*sp));
	sp->port = mad_rpc_open_port((char *)ca, ca_port, classes, 3);
	if (!sp->port) {
		snprintf(err, errlen, "cannot open the local port%s%s: %s",
			 ca ? " of " : "", ca ? ca : "", strerror(errno));
		return -1;
	}
	memset(&self, 0, sizeof(self));
	memset(&sm, 0, sizeof(sm));
	if (ib_resolve_self_via(&self, &portnum, &gid, sp->port) < 0) {
		snprintf(err, errlen, "cannot read the local port's LID/GID");
		goto fail;
	}
	memcpy(sp->gid, gid, sizeof(sp->gid));
	if (ib_resolve_smlid_via(&sm, timeout_ms, sp->port) < 0 || !sm.lid) {
		snprintf(err, errlen, "no subnet manager (SM LID unknown): is opensm up?");
		goto fail;
	}
	sp->sm_lid = (uint16_t)sm.lid;
	sp->port_lid = (uint16_t)self.lid;
	for (i = 8; i < 16; i++)
		sp->port_guid = (sp->port_guid << 8) | sp->gid[i];
	return 0;
fail:
	ibu_sa_mcm_close(sp);
	return -1;
}

void ibu_sa_mcm_close(struct ibu_sa_mcm_port *sp)
{
	if (sp->port)
		mad_rpc_close_port(sp->port);
	sp->port = NULL;
}

int ibu_sa_mcm_send(struct ibu_sa_mcm_port *sp, int leave, int timeout_ms,
		    struct ibu_sa_mcm *r, char *err, size_t errlen)
{
	ib_portid_t sm;
	ib_sa_call_t sa;
	uint8_t data[IB_SA_DATA_SIZE];
	uint8_t *res;
	uint32_t v;
	uint64_t mask;

	r->port_lid = sp->port_lid;
	r->port_guid = sp->port_guid;
	memset(&sm, 0, sizeof(sm));
	ib_portid_set(&sm, sp->sm_lid, 1, IB_DEFAULT_QP1_QKEY);

	memset(data, 0, sizeof(data));
	mad_encode_field(data, IB_SA_MCM_MGID_F, r->mgid);
	mad_encode_field(data, IB_SA_MCM_PORTGID_F, sp->gid);
	v = r->qkey;
	mad_encode_field(data, IB_SA_MCM_QKEY_F, &v);
	v = 0;
	mad_encode_field(data, IB_SA_MCM_TCLASS_F, &v);
	v = r->pkey;
	mad_encode_field(data, IB_SA_MCM_PKEY_F, &v);
	v = 0;
	mad_encode_field(data, IB_SA_MCM_SL_F, &v);
	mad_encode_field(data, IB_SA_MCM_FLOW_LABEL_F, &v);
	v = r->join_state;
	mad_encode_field(data, IB_SA_MCM_JOIN_STATE_F, &v);
	mask = (1ULL << CM_MGID) | (1ULL << CM_PORT_GID) | (1ULL << CM_QKEY) |
	       (1ULL << CM_TCLASS) | (1ULL << CM_PKEY) | (1ULL << CM_SL) |
	       (1ULL << CM_FLOW_LABEL) | (1ULL << CM_JOIN_STATE);

	memset(&sa, 0, sizeof(sa));
	sa.attrid = IB_SA_ATTR_MCRECORD;
	sa.mask = mask;
	sa.method = leave ? IB_MAD_METHOD_DELETE : IB_MAD_METHOD_SET;
	res = sa_rpc_call(sp->port, data, &sm, &sa, timeout_ms);
	if (!res) {
		snprintf(err, errlen, "SA %s of MCMemberRecord failed (rejected by the SM, or no answer in %d ms)",
			 leave ? "Delete" : "Set", timeout_ms);
		return -1;
	}
	v = 0;
	mad_decode_field(res, IB_SA_MCM_MLID_F, &v);
	r->mlid = (uint16_t)v;
	v = 0;
	mad_decode_field(res, IB_SA_MCM_JOIN_STATE_F, &v);
	r->join_state_out = (uint8_t)v;
	return 0;
}

int ibu_sa_mcm_call(const char *ca, int ca_port, int leave, int timeout_ms,
		    struct ibu_sa_mcm *r, char *err, size_t errlen)
{
	struct ibu_sa_mcm_port sp;
	int rc;

	if (ibu_sa_mcm_open(ca, ca_port, timeout_ms, &sp, err, errlen))
		return -1;
	rc = ibu_sa_mcm_send(&sp, leave, timeout_ms, r, err, errlen);
	ibu_sa_mcm_close(&sp);
	return rc;
}

#define SA_STATUS_NO_RECORDS 0x0300	/* IBA 15.2.1.1: ERR_NO_RECORDS */
#define SA_REQUEST_SIZE 256

/* Sends the GetTable and receives the whole answer (*umad_out, freed by
 * the caller). */
static int get_table_mad(struct ibu_sa_query *q, const uint8_t *data,
			 uint64_t mask, void **umad_out, int *len_out,
			 char *err, size_t errlen)
{
	int fd = mad_rpc_portid(q->port), len = SA_REQUEST_SIZE, rc;
	int timeout = q->timeout_ms > 0 ? q->timeout_ms : 1000;
	ib_portid_t sm;
	ib_rpc_t rpc;
	void *umad, *bigger;

	memset(&sm, 0, sizeof(sm));
	if (!q->sm_lid) {
		if (ib_resolve_smlid_via(&sm, timeout, q->port) < 0 || !sm.lid) {
			snprintf(err, errlen, "no subnet manager (SM LID unknown): is opensm up?");
			return -1;
		}
		q->sm_lid = (uint16_t)sm.lid;
	}
	ib_portid_set(&sm, q->sm_lid, 1, IB_DEFAULT_QP1_QKEY);
	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = IB_SA_CLASS;
	rpc.method = IB_MAD_METHOD_GET_TABLE;
	rpc.attr.id = IB_SA_ATTR_MCRECORD;
	rpc.mask = mask;
	rpc.datasz = IB_SA_DATA_SIZE;
	rpc.dataoffs = IB_SA_DATA_OFFS;
	umad = calloc(1, len + umad_size());
	if (!umad) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	mad_build_pkt(umad, &rpc, &sm, NULL, (void *)data);
	mad_set_field64(umad_get_mad(umad), 0, IB_SA_MKEY_F, q->sm_key);
	q->queries++;
	rc = umad_send(fd, mad_rpc_class_agent(q->port, IB_SA_CLASS), umad,
		       len, timeout, 3);
	while (rc >= 0) {
		rc = umad_recv(fd, umad, &len, timeout * 4);
		if (rc >= 0 || errno != ENOSPC)
			break;
		bigger = realloc(umad, umad_size() + len);
		if (!bigger)
			break;
		umad = bigger;
		rc = 0;
	}
	if (rc < 0 || umad_status(umad)) {
		snprintf(err, errlen, "SA GetTable(MCMemberRecord): no answer from the SA in %d ms",
			 timeout * 4);
		free(umad);
		return -1;
	}
	*umad_out = umad;
	*len_out = len;
	return 0;
}

static void decode_rec(const uint8_t *rec, struct ibu_sa_mcm_rec *r)
{
	ibmad_gid_t gid;
	uint32_t v = 0;
	int i;

	mad_decode_field((uint8_t *)rec, IB_SA_MCM_PORTGID_F, gid);
	r->port_guid = 0;
	for (i = 8; i < 16; i++)
		r->port_guid = r->port_guid << 8 | gid[i];
	mad_decode_field((uint8_t *)rec, IB_SA_MCM_MLID_F, &v);
	r->mlid = (uint16_t)v;
	v = 0;
	mad_decode_field((uint8_t *)rec, IB_SA_MCM_JOIN_STATE_F, &v);
	r->join_state = (uint8_t)v;
}

int ibu_sa_mcm_get_table(struct ibu_sa_query *q, const uint8_t *port_gid,
			 uint16_t mlid, int *cut,
			 int (*fn)(void *ctx, const struct ibu_sa_mcm_rec *r),
			 void *ctx, char *err, size_t errlen)
{
	uint8_t data[IB_SA_DATA_SIZE], *mad;
	uint64_t mask = 0;
	uint32_t v = mlid;
	struct ibu_sa_mcm_rec r;
	void *umad = NULL;
	int len = 0, status, offs, n, i, rc = 0;

	memset(data, 0, sizeof(data));
	if (port_gid) {
		mad_encode_field(data, IB_SA_MCM_PORTGID_F, (void *)port_gid);
		mask |= 1ULL << CM_PORT_GID;
	}
	if (mlid) {
		mad_encode_field(data, IB_SA_MCM_MLID_F, &v);
		mask |= 1ULL << CM_MLID;
	}
	if (cut)
		*cut = 0;
	if (get_table_mad(q, data, mask, &umad, &len, err, errlen))
		return -1;
	mad = umad_get_mad(umad);
	status = mad_get_field(mad, 0, IB_MAD_STATUS_F);
	offs = mad_get_field(mad, 0, IB_SA_ATTROFFS_F) * 8;
	if (status == SA_STATUS_NO_RECORDS || (!status && !offs))
		goto out;	/* no record */
	if (status || len < IB_SA_DATA_OFFS) {
		snprintf(err, errlen, "SA GetTable(MCMemberRecord): MAD status 0x%x",
			 status);
		rc = -1;
		goto out;
	}
	n = (len - IB_SA_DATA_OFFS) / offs;
	if (cut && len <= IB_MAD_SIZE &&
	    n >= (IB_MAD_SIZE - IB_SA_DATA_OFFS) / offs) {
		*cut = 1;
		goto out;
	}
	for (i = 0; i < n && !rc; i++) {
		decode_rec(mad + IB_SA_DATA_OFFS + i * offs, &r);
		rc = fn(ctx, &r);
	}
out:
	free(umad);
	return rc;
}
