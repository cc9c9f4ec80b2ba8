/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Flooding multicast forwarding tables with the real replication rule: a
 * switch forwards a packet for an MLID to every port of its MFT entry
 * except the one the packet came in on (port 0 = the switch itself
 * receives), a CA receives. For every MLID and every member as the sender
 * this counts the copies each port receives and reports:
 *   missing    a receiving member (not the sender) got no copy
 *   duplicate  a port got more than one copy (the sender: any copy)
 *   stray      a port that is not a receiving member got a copy
 *              (a non-member, or a send-only member)
 *   loop       a switch received the same packet twice (cycle or two paths)
 *   dead port  an MFT entry names an uncabled port (reported once per
 *              MLID; a warning: it loses nothing)
 * The same floods give the link load (lib/analysis/linkload.h): for each link, the
 * number of MLIDs whose packets cross it (union over all senders).
 *
 * Members come from a membership model, or (mm == NULL) are inferred from
 * the tables themselves: every CA port an MFT entry points at is a full
 * member, and every switch whose entry holds port 0.
 */
#ifndef IBU_MCFLOOD_H
#define IBU_MCFLOOD_H

#include "fabric.h"
#include "mft.h"
#include "mcmembers.h"
#include "linkload.h"

enum ibu_mcf_kind {
	IBU_MCF_MISSING,
	IBU_MCF_DUPLICATE,
	IBU_MCF_STRAY,
	IBU_MCF_LOOP,
	IBU_MCF_DEAD_PORT,
	IBU_MCF_UNLISTED,	/* MLID programmed but not in the member list:
				 * its members are inferred from the MFT */
	IBU_MCF_KINDS
};

struct ibu_mcf_issue {
	enum ibu_mcf_kind kind;
	uint16_t mlid;
	int sender_node, sender_port;	/* -1 for per-MLID issues */
	int node, port;			/* where it was seen */
	int copies;
};

typedef void (*ibu_mcf_issue_fn)(void *ctx, const struct ibu_mcf_issue *is);

struct ibu_mcf_stats {
	long groups;		/* MLIDs checked */
	long floods;		/* (MLID, sender) pairs */
	long deliveries;	/* copies received by receiving members */
	long count[IBU_MCF_KINDS];
};

/*
 * Floods every MLID of mft (and, with mm, every MLID of mm) from every
 * member. issue() (may be NULL) is called for every problem; st gets the
 * counters; ll (may be NULL) is initialised here and gets the link load:
 * per cable, in both directions, the number of MLIDs whose packets cross it
 * (ibu_linkload_stats() summarises it). Returns 0 or a negative IBU_E*
 * (memory); the problems found are in st, not in the return code.
 */
int ibu_mcf_run(const struct ibu_fabric *f, const struct ibu_mft *mft,
		const struct ibu_mcmembers *mm, ibu_mcf_issue_fn issue,
		void *ctx, struct ibu_mcf_stats *st,
		struct ibu_linkload *ll, struct ibu_err *e);

/* Missing + duplicate + stray + loop: what breaks delivery (a dead port
 * or an unlisted MLID is only a warning). */
long ibu_mcf_problems(const struct ibu_mcf_stats *st);

/*
 * The topmost switches of group gi of mft in an up*|down* order: the
 * switches with a non-empty entry at the smallest rank(ctx, node) (an
 * engine's rank op; < 0: outside the order). Writes up to max fabric nodes
 * into tops, the rank into *level, returns how many there are (-1: no
 * switch).
 */
int ibu_mcf_tops(const struct ibu_mft *mft, int gi,
		 int (*rank)(const void *ctx, int node), const void *ctx,
		 int *tops, int max, int *level);

#endif
