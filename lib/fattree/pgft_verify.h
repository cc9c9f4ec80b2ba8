/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The cyclic rule on a PGFT (lib/fattree/pgft.h) as a verify hook: every
 * entry of every switch for every LID of a compute host is compared with
 * what the router computes for the same LIDs, under the generalised rule
 * (ibu_pgft_route) or an IBFT's paper rule (ibu_pgft_route_paper).
 */
#ifndef IBU_PGFT_VERIFY_H
#define IBU_PGFT_VERIFY_H

#include "verify.h"
#include "pgft.h"
#include "pgft_ibft.h"
#include "dlids.h"

/*
 * Then each source's climbs: on the DLIDs of dlids ("0xSLID 0xDLID", as
 * `ibunion path --format pairs` writes them; a SLID that is no compute
 * host's base LID, a DLID no compute host owns, is an IBU_EPARSE
 * file:line error; ordered pairs the file lacks are a warning), else on
 * the advised ones (ibu_pgft_offset_rule), every switch a source's routes
 * climb through must be left by one port.
 */
struct ibu_pgft_rule {
	const struct ibu_pgft *g;
	int lmc;		/* the compute hosts' LMC (smallest in use) */
	const struct ibu_dlid_pairs *dlids;	/* NULL: the advised DLIDs */
	const struct ibu_pgft_paper *paper;	/* an IBFT under the paper's
						 * rule (Eq. 2); NULL: the
						 * generalised rule */
	const struct ibu_pgft_ibft *labels;	/* an IBFT's: errors name
						 * switches SW<w,l>; NULL */
	int climb_sources;	/* sources whose climbs are checked: 0 all,
				 * else an evenly spread sample */
	const struct ibu_lft *expected;	/* the rule's tables for these
					 * LIDs when routed already; NULL:
					 * routed here */
};

void ibu_pgft_verify_rule(struct ibu_verify_rule *rule,
			  struct ibu_pgft_rule *arg);
/* The smallest LMC of the compute hosts' ports. */
int ibu_pgft_hosts_lmc(const struct ibu_fabric *f, const struct ibu_pgft *g);
/* up*|down* ranks for ibu_verify_opts.rank: h - level, end nodes h. */
int ibu_pgft_ranks(const struct ibu_fabric *f, const struct ibu_pgft *g,
		   int **rank, struct ibu_err *e);

#endif
