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
 * With a rank per switch (opts.rank: lower = nearer the top, e.g. fat-tree
 * levels) the routes must be up*|down*: a route that goes down and then up
 * again is an error (a credit-loop risk), minimality is judged against the
 * shortest up*|down* path, and a pair with no up*|down* path at all is not
 * an error when it is left unrouted (counted as result.no_updown) or routed
 * with a down-up turn (result.needed_turns; whether such turns are safe is
 * the channel dependency graph's question, lib/analysis/cdg.h).
 *
 * An engine's own rule (every entry as the engine computes it, a path
 * property such as cyclic's one ascending path per source) runs as a hook,
 * struct ibu_verify_rule (lib/fattree/pgft_verify.h, ...), after these checks.
 *
 * Lines are reported through a callback (level 'I' information, 'W'
 * warning, 'E' error; ibu_report_file prints ibdiagnet's "-I-", "-W-",
 * "-E-" lines); at most max_errors lines per kind of error, plus totals.
 * Hop counts are the number of switches a route traverses.
 */
#ifndef IBU_VERIFY_H
#define IBU_VERIFY_H

#include <stdio.h>
#include "fabric.h"
#include "lft.h"
#include "lidmap.h"
#include "progress.h"

#define IBU_VERIFY_MAX_HOPS 64		/* longer routes count in the last bin */
#define IBU_VERIFY_DEFAULT_MAX_ERRORS 20

/* One report line: level 'I', 'W' or 'E'; text without prefix or newline. */
typedef void (*ibu_report_fn)(void *arg, char level, const char *text);
/* ibu_report_fn printing "-L- text\n" to the FILE * arg. */
void ibu_report_file(void *file, char level, const char *text);

enum ibu_verify_kind {
	IBU_VK_UNREACH, IBU_VK_LOOP, IBU_VK_NONMIN,
	IBU_VK_RULE,		/* entries that break the engine's rule */
	IBU_VK_PATH,		/* sources that break its path property */
	IBU_VK_TURN,		/* routes with a down-up turn (opts.rank) */
	IBU_VK_UNROUTED,	/* left unrouted, no up*|down* path: listed as
				 * warnings, no error */
	IBU_VK_KINDS,
};

/* The reporter the checks and the rule hooks share. */
struct ibu_verify_report {
	ibu_report_fn fn;	/* NULL: silent */
	void *arg;
	int max_errors;		/* lines per kind; < 0 none */
	int quiet;		/* no 'I' lines */
	long printed[IBU_VK_KINDS], total[IBU_VK_KINDS];
	const char *kind_name[IBU_VK_KINDS];
};

void ibu_verify_info(struct ibu_verify_report *rp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Counts an error of kind k and reports it while under the cap. */
void ibu_verify_error(struct ibu_verify_report *rp, enum ibu_verify_kind k,
		      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct ibu_verify_result;

/* An engine's rule, checked after the generic checks. */
struct ibu_verify_rule {
	const char *name;		/* "cyclic" */
	const char *mismatch_name;	/* "cyclic mismatches" */
	const char *path_name;		/* "sources without one ascending path" */
	const char *path_short;		/* "climb violations" */
	void *arg;
	/* fills r->rule_* and r->path_*; reports through rp */
	int (*run)(void *arg, const struct ibu_fabric *f,
		   const struct ibu_lft *lft, const struct ibu_lidmap *map,
		   struct ibu_verify_report *rp, struct ibu_verify_result *r,
		   struct ibu_err *e);
};

struct ibu_verify_opts {
	int max_errors;		/* error lines printed per kind; 0 = default 20,
				 * < 0 = none (totals only) */
	int quiet;		/* no -I- lines (warnings and errors still) */
	const struct ibu_verify_rule *rule;	/* NULL: generic checks only */
	const struct ibu_progress *progress;	/* per LID checked, may be NULL */
	const int *rank;	/* NULL, or per fabric node (switches): routes
				 * must be up*|down* in this order */
	/* NULL, or called for every pair whose route does not arrive
	 * (IBU_VK_UNREACH, IBU_VK_LOOP) or is left unrouted without an
	 * up*|down* path (IBU_VK_UNROUTED), whatever max_errors says: the
	 * full list for a machine-readable report */
	void (*pair)(void *arg, enum ibu_verify_kind kind, int src_node,
		     int src_port, uint32_t lid);
	void *pair_arg;
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
	/* with opts.rank */
	long turns;		/* routes that go down, then up again */
	long no_updown;		/* unrouted pairs without an up*|down* path */
	long needed_turns;	/* routes (in ok) with a down-up turn where no
				 * up*|down* path exists: not an error */
	/* the engine's rule (opts.rule) */
	const struct ibu_verify_rule *rule;	/* the rule that ran, or NULL */
	long rule_entries;	/* entries compared with the rule */
	long rule_mismatches;
	long path_sources;	/* sources whose paths were checked */
	long path_violations;	/* sources breaking the path property */
	int path_levels;	/* e.g. switch levels the LID decides */
};

/*
 * Runs every check and reports through report (NULL for silence); fills r.
 * Returns IBU_OK when the checks ran (r tells what they found), a negative
 * code when they could not (inconsistent LIDs, memory).
 */
int ibu_verify_lft(const struct ibu_fabric *f, const struct ibu_lft *lft,
		   const struct ibu_verify_opts *o, ibu_report_fn report,
		   void *report_arg, struct ibu_verify_result *r,
		   struct ibu_err *e);

/* Sum of every kind of error in r. */
long ibu_verify_problems(const struct ibu_verify_result *r);

/*
 * One line: "-I- <who>: S sources x L LIDs: U unreachable, L loops,
 * N non-minimal[, C <rule mismatches>, V <path violations>] (hops: 1:n
 * 3:n ...)"; "-E-" instead
 * of "-I-" when there are problems.
 */
void ibu_verify_print_summary(FILE *out, const char *who,
			      const struct ibu_verify_result *r);

#endif
