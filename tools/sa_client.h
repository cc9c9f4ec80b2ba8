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

/*
 * Joins (leave = 0) or leaves (leave = 1) the group. ca/ca_port select the
 * local port (NULL/0: the first). On failure returns -1 with a message in
 * err.
 */
int ibu_sa_mcm_call(const char *ca, int ca_port, int leave, int timeout_ms,
		    struct ibu_sa_mcm *r, char *err, size_t errlen);

/* "ff12:601b:ffff::1" style text, or a number n for ff12:601b:ffff::n. */
int ibu_sa_parse_mgid(const char *text, uint8_t mgid[16]);
void ibu_sa_format_mgid(const uint8_t mgid[16], char *buf, size_t len);

#endif
