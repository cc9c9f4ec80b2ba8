/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reading the live fabric, as the infiniband-diags tools do: discovery with
 * libibnetdisc (ibnd_discover_fabric, what ibnetdiscover runs), the
 * switches' LFT, MFT and SL2VL blocks with SubnGet SMPs through libibmad
 * (what dump_lfts, dump_mfts and smpquery sl2vl send), the multicast
 * members with an SA MCMemberRecord GetTable (what saquery -m sends). The
 * result is the same model the file readers build (fabric, LFT, MFT,
 * SL2VL, members), so every check runs on it unchanged.
 * Glue around libibmad/libibnetdisc, not an algorithm: lives in tools/.
 */
#ifndef IBU_LIVE_H
#define IBU_LIVE_H

#include <stdint.h>
#include "fabric.h"
#include "lft.h"
#include "mft_dump.h"
#include "sl2vl.h"
#include "mcmembers.h"

struct ibnd_fabric;

/* What to read besides the topology and the LFTs. */
enum {
	IBU_LIVE_MFT = 1 << 0,		/* MFTs and the SA's members */
	IBU_LIVE_SL2VL = 1 << 1,	/* SL2VL tables of switches and CAs */
};

struct ibu_live_opts {
	const char *ca;		/* -C: local CA, NULL = the first */
	int ca_port;		/* -P: its port, 0 = the first active */
	int timeout_ms;		/* per MAD, 0 = libibmad's default */
	unsigned what;		/* IBU_LIVE_* */
	uint64_t sm_key;	/* SM_Key of SA queries: OpenSM lists every
				 * member's PortGID only to a trusted requester
				 * (its sa_key, 1 by default) */
};

struct ibu_live {
	struct ibnd_fabric *nd;	/* the discovery, kept for the cache file */
	struct ibu_fabric f;	/* node i = i-th node of nd->nodes */
	struct ibu_lft lft;
	struct ibu_mft mft;	/* valid with IBU_LIVE_MFT */
	struct ibu_mcmembers members;	/* valid with IBU_LIVE_MFT */
	struct ibu_sl2vl sl2vl;	/* valid with IBU_LIVE_SL2VL */
	unsigned what;
	long smps;		/* SMPs sent for the tables */
	long sa_records;	/* MCMemberRecords the SA returned */
	long sa_queries;	/* SA GetTables sent */
	long sa_hidden;		/* ... without a PortGID (untrusted SM_Key) */
};

/* Reads the fabric; on error lv is left empty and e says what failed
 * (which CA/port, which switch and block). */
int ibu_live_read(const struct ibu_live_opts *o, struct ibu_live *lv,
		  struct ibu_err *e);
void ibu_live_free(struct ibu_live *lv);

/* Paths of a snapshot written by ibu_live_save(). */
struct ibu_live_files {
	char fabric[4096];	/* ibnetdiscover cache (libibnetdisc's format) */
	char lfts[4096];	/* dump_lfts format */
	char mfts[4096];	/* dump_mfts format ("" without IBU_LIVE_MFT) */
	char members[4096];	/* ibunion members file ("" likewise) */
	char sl2vl[4096];	/* opensm-sl2vl.dump format ("" likewise) */
};

/* Writes the snapshot into the existing directory dir, each file under a
 * temporary name renamed after a successful close (lib/core/atomicfile). */
int ibu_live_save(struct ibu_live *lv, const char *dir,
		  struct ibu_live_files *out, struct ibu_err *e);

#endif
