/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A minimal SA client (libibmad): MCMemberRecord join (SubnAdmSet) and
 * leave (SubnAdmDelete) from the local port - under libumad2sim, from the
 * simulated node SIM_HOST names. Glue, not an algorithm: lives in tools/.
 */
#ifndef IBU_SA_CLIENT_H
#define IBU_SA_CLIENT_H

#include <stddef.h>
#include <stdint.h>

/* IBA MCMemberRecord JoinState bits */
enum {
	IBU_JOIN_FULL = 0x1,		/* FullMember: sends and receives */
	IBU_JOIN_NON = 0x2,		/* NonMember: receives */
	IBU_JOIN_SEND_ONLY = 0x4,	/* SendOnlyNonMember */
	IBU_JOIN_SEND_ONLY_FULL = 0x8,	/* SendOnlyFullMember (IBA 1.3) */
};

struct ibu_sa_mcm {
	/* request */
	uint8_t mgid[16];
	uint32_t qkey;
	uint16_t pkey;
	uint8_t join_state;
	/* answer */
	uint16_t mlid;		/* MLID the SM assigned */
	uint64_t port_guid;	/* our port GUID (from our port GID) */
	uint16_t port_lid;
	uint8_t join_state_out;	/* join state the SA returned */
};

struct ibmad_port;

/* The local port, opened once for several joins or leaves (one process,
 * one simulated HCA: the port and the SM's LID are resolved once). */
struct ibu_sa_mcm_port {
	struct ibmad_port *port;
	uint8_t gid[16];	/* our port GID */
	uint64_t port_guid;
	uint16_t port_lid;
	uint16_t sm_lid;
};

/* Opens ca/ca_port (NULL/0: the first) and finds the SM; -1 with a
 * message in err. */
int ibu_sa_mcm_open(const char *ca, int ca_port, int timeout_ms,
		    struct ibu_sa_mcm_port *sp, char *err, size_t errlen);
void ibu_sa_mcm_close(struct ibu_sa_mcm_port *sp);

/* One join (leave = 0) or leave (leave = 1) through an open port. */
int ibu_sa_mcm_send(struct ibu_sa_mcm_port *sp, int leave, int timeout_ms,
		    struct ibu_sa_mcm *r, char *err, size_t errlen);

/*
 * Joins (leave = 0) or leaves (leave = 1) the group. ca/ca_port select the
 * local port (NULL/0: the first). On failure returns -1 with a message in
 * err.
 */
int ibu_sa_mcm_call(const char *ca, int ca_port, int leave, int timeout_ms,
		    struct ibu_sa_mcm *r, char *err, size_t errlen);

/* One MCMemberRecord of a GetTable answer. */
struct ibu_sa_mcm_rec {
	uint16_t mlid;
	uint64_t port_guid;	/* 0 when the SA hid it (untrusted SM_Key) */
	uint8_t join_state;
};

/* An SA to query through a port already open with the SA class. */
struct ibu_sa_query {
	struct ibmad_port *port;
	uint64_t sm_key;	/* OpenSM lists other ports' GIDs only to its
				 * sa_key (1 by default) */
	int timeout_ms;		/* 0: 1000 */
	uint16_t sm_lid;	/* 0: asked on first use, then kept */
	long queries;		/* GetTables sent */
};

/*
 * GetTable of the MCMemberRecords of port_gid (NULL: any port) and mlid
 * (0: any). Calls fn for each record and returns 0, or fn's first non-zero
 * return, or -1 with a message in err. With cut non-NULL, an answer that
 * exactly fills one MAD is not passed to fn and *cut is set: it may have
 * been cut (libumad2sim hands over the first RMPP segment only; the kernel
 * reassembles longer answers on real ports), the caller asks narrower.
 */
int ibu_sa_mcm_get_table(struct ibu_sa_query *q, const uint8_t *port_gid,
			 uint16_t mlid, int *cut,
			 int (*fn)(void *ctx, const struct ibu_sa_mcm_rec *r),
			 void *ctx, char *err, size_t errlen);

/* "ff12:601b:ffff::1" style text, or a number n for ff12:601b:ffff::n. */
int ibu_sa_parse_mgid(const char *text, uint8_t mgid[16]);
void ibu_sa_format_mgid(const uint8_t mgid[16], char *buf, size_t len);

#endif
