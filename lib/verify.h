/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Validation of unicast forwarding tables against a fabric.
 *
 * For every source end port (CA or router port with a cable) and every LID
 * that has an owner (all 2^LMC LIDs of each end port and the switch LIDs),
 * the route is followed through the LFTs from the source's switch. A route
 * is unreachable when it meets an entry without a port (0xFF), a port the
 * switch does not have or that is not cabled, an end port other than the
 * LID's owner, or port 0 at a switch that does not own the LID; it loops
 * when it comes back to a switch; it is non-minimal when it traverses more
 * switches than the shortest path in the link graph. Results are memoised
 * per destination LID and switch, so the work is O(switches x LIDs).
 *
 * With an IBFT recognition and a LID plan (cyclic mode) every entry of every
 * tree switch for every end-port LID is also compared with the paper's rule
 * (lib/cyclic.h), and each source's climbs toward all destinations (on the
 * LID ibu_cyclic_offset() picks) must use one up-port per switch.
 *
 * Output uses ibdiagnet's vocabulary: "-I-" information, "-W-" warnings,
 * "-E-" errors; at most max_errors lines per kind of error, plus totals.
 * Hop counts are the number of switches a route traverses.
 */
#ifndef IBU_VERIFY_H
#define IBU_VERIFY_H

#include <stdio.h>
#include "fabric.h"
#include "lft.h"
#include "ibft.h"
#include "lidplan.h"

#define IBU_VERIFY_MAX_HOPS 64		/* longer routes count in the last bin */
#define IBU_VERIFY_DEFAULT_MAX_ERRORS 20

struct ibu_verify_opts {
	int max_errors;		/* error lines printed per kind; 0 = default 20,
				 * < 0 = none (totals only) */
	int quiet;		/* no -I- lines (warnings and errors still) */
	const struct ibu_ibft *ibft;	/* non-NULL: cyclic mode */
	const struct ibu_lidplan *plan;	/* LID plan of the same fabric,
					 * required in cyclic mode */
	int climb_sources;	/* sources checked for one ascending path,
				 * 0 = all, else an evenly spread sample */
};

struct ibu_verify_result {
	long sources;		/* source end ports */
	long lids;		/* destination LIDs with an owner */
	long pairs;		/* (source, LID) routes followed */
	long ok;		/* routes that arrive, minimal or not */
	long unreachable;
	long loops;
	long nonminimal;
	long hops[IBU_VERIFY_MAX_HOPS + 1];	/* [switches traversed] */
	long warnings;
	/* cyclic mode */
	int cyclic;		/* the cyclic checks ran */
	long cyclic_entries;	/* tree-switch entries compared */
	long cyclic_mismatches;
	long climb_sources;	/* sources whose climbs were checked */
	long climb_violations;	/* sources using two up-ports at a switch */
	int climb_levels;	/* switch levels whose up-port the LID decides */
};

/*
 * Runs every check and reports to out (may be NULL for silence); fills r.
 * Returns IBU_OK when the checks ran (r tells what they found), a negative
 * code when they could not (inconsistent LIDs, memory).
 */
int ibu_verify_lft(const struct ibu_fabric *f, const struct ibu_lft *lft,
		   const struct ibu_verify_opts *o, FILE *out,
		   struct ibu_verify_result *r, struct ibu_err *e);

/* Sum of every kind of error in r. */
long ibu_verify_problems(const struct ibu_verify_result *r);

/*
 * One line: "-I- <who>: S sources x L LIDs: U unreachable, L loops,
 * N non-minimal[, C cyclic mismatches] (hops: 1:n 3:n ...)"; "-E-" instead
 * of "-I-" when there are problems.
 */
void ibu_verify_print_summary(FILE *out, const char *who,
			      const struct ibu_verify_result *r);

#endif
