/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Traffic patterns and the DLIDs their packets carry, evaluated on a
 * fabric's forwarding tables with the link-load model (lib/analysis/linkload.h).
 *
 * End ports are numbered in a deterministic order derived from the graph:
 * the PID order when the fabric is a recognised IBFT(m,n), else port GUID
 * order. Patterns (text form in parentheses):
 *   all-to-all        (all-to-all)   every end port to every other one
 *   shift             (shift)        i -> i + k mod N in that order, every
 *                                    k = 1..N-1, each its own permutation;
 *                                    the worst one is reported
 *                     (shift:K)      one k
 *   rail-aligned      (rail-shift)   a rail-optimized cluster (servers and
 *                                    rails from the node descriptions,
 *                                    lib/core/rails.h): every rail at once,
 *                                    HCA r of the j-th server of rail r to
 *                                    HCA r of server j + k, every k (the
 *                                    worst reported)
 *                     (rail-shift:K) one k
 *                     (rail:R)       rail R alone, every k
 *                     (rail:R:K)     rail R alone, one k
 *   random            (random)       one seeded random permutation
 *                                    (fixed points send nothing)
 *                     (random:K)     K of them (the seed's, then K-1
 *                                    more); the worst one is reported
 *   bisection         (ebb)          random bisections, [Hoefler08]'s effective
 *                     (ebb:K)        bisection bandwidth (ORCS): the end
 *                                    ports split into two random halves,
 *                                    each port of one half paired with one
 *                                    of the other, both send to each other
 *                                    (an odd port out sends nothing); K
 *                                    samples (default 50), the worst one
 *                                    is reported, flow-bw is the eBB
 *   multicast case    (mcast:S:G)    [Zhou07], sect. 4: S sources ("1",
 *                                    or "40%") and a group of G% of the end
 *                                    ports, both drawn with the seed; one
 *                                    MLID per source, the paper's tree per
 *                                    source; every source sends once
 *                     (ucast:S:G)    the same case by unicast: every source
 *                                    to every receiver
 *   groups            (groups)       the groups of a member list: their
 *                                    send-only members send once each (a
 *                                    group without one: every member)
 *                     (groups-ucast) the same senders to the same
 *                                    receivers by unicast
 * DLIDs of unicast packets:
 *   base     the destination's base LID, what the SA hands out in a
 *            PathRecord and rdma_cm / MPI / UCX use
 *   pairs    the message is split over the 2^LMC LIDs of the destination
 *            (offset k to offset k, the LMC multipath of MPI's virtual
 *            multirail), each part weighing 1/2^LMC of it
 *   cyclic   the DLID offset the engine advises for the source
 *            (ibu_traffic_in.advised: the cyclic engine's scheme on a fat
 *            tree; the destination's base LID where there is none)
 *
 * Flow bandwidth (flow-bw): each message gets, as a share of one link's
 * bandwidth, 1 / the load of the busiest link on its path (a message
 * split over several DLIDs: the sum over its parts of the part's weight /
 * the busiest link on the part's path; a message that does not arrive:
 * 0); the mean over the messages of every permutation or sample the
 * pattern evaluates. For ebb this is the effective bisection bandwidth.
 *
 * Load unit: one whole message. Estimated completion time, [Zhou07]'s
 * model (20 ns flight per link, 100 ns per switch, 4 ns per byte): the
 * maximum over all walks of 20 ns x links + 100 ns x switches on the walk
 * (its deepest delivery for multicast) + 4 ns x bytes x the load of the
 * busiest link on the walk (the messages that share that link are
 * serialised on it).
 */
#ifndef IBU_TRAFFIC_H
#define IBU_TRAFFIC_H

#include <stdint.h>
#include "fabric.h"
#include "lft.h"
#include "linkload.h"
#include "mft.h"
#include "mcmembers.h"

struct ibu_cuts;

#define IBU_TRAFFIC_FLIGHT_NS 20.0
#define IBU_TRAFFIC_SWITCH_NS 100.0
#define IBU_TRAFFIC_BYTE_NS 4.0

struct ibu_endports {
	int num;
	int *node, *port;	/* [i] the i-th end port */
	int by_engine;		/* 1: the engine's order, 0: port GUID order */
};

/* An end port's place in an engine's order, -1 outside it (the engine's
 * report.endport_index op; the cyclic engine: the PID). */
typedef int (*ibu_endport_index_fn)(const void *ctx, int node, int port);

/* Cabled CA/router ports of f in the order above (index may be NULL:
 * GUID order; with it, end ports outside the engine's order follow the
 * others, in GUID order). */
int ibu_endports_build(const struct ibu_fabric *f, ibu_endport_index_fn index,
		       const void *ctx, struct ibu_endports *ep,
		       struct ibu_err *e);
void ibu_endports_free(struct ibu_endports *ep);
/* Index of (node, port), -1 if it is not an end port. */
int ibu_endports_find(const struct ibu_endports *ep, int node, int port);

enum ibu_dlid_mode {
	IBU_DLIDS_BASE = 0,
	IBU_DLIDS_PAIRS,
	IBU_DLIDS_ADVISED,	/* "cyclic": the engine's advised offset */
};

int ibu_dlid_mode_parse(const char *s, enum ibu_dlid_mode *m);
const char *ibu_dlid_mode_name(enum ibu_dlid_mode m);

enum ibu_pattern_kind {
	IBU_PAT_ALL_TO_ALL = 0,
	IBU_PAT_SHIFT,
	IBU_PAT_RANDOM,
	IBU_PAT_MCAST,
	IBU_PAT_MCAST_UCAST,
	IBU_PAT_GROUPS,
	IBU_PAT_GROUPS_UCAST,
	IBU_PAT_BISECT,
	IBU_PAT_RAIL_SHIFT,	/* rail-aligned shift (lib/core/rails.h) */
};

#define IBU_EBB_SAMPLES 50

struct ibu_pattern {
	enum ibu_pattern_kind kind;
	int k;			/* shift: 0 = every k; random, ebb:
				 * samples */
	int sources;		/* mcast: number of sources, or */
	int sources_pct;	/* percent of the end ports (when > 0) */
	int group_pct;		/* mcast: group size, percent */
	int rail;		/* rail shift: -1 every rail at once */
	char name[40];		/* canonical text form */
};

/* Parses one pattern (text forms above); IBU_EINVAL with a message. */
int ibu_pattern_parse(const char *s, struct ibu_pattern *p,
		      struct ibu_err *e);
/* Is it a multicast pattern (needs MFTs)? */
int ibu_pattern_is_mcast(const struct ibu_pattern *p);

/* Multicast senders: who sends once on which MLID. */
struct ibu_mflow {
	uint16_t mlid;
	int node, port;
};

struct ibu_mflows {
	int num, cap;
	struct ibu_mflow *f;
};

void ibu_mflows_free(struct ibu_mflows *s);

/*
 * The paper's multicast case p (mcast:S:G or ucast:S:G) on ep with seed:
 * mm receives one group per source, MLIDs mlid_base, mlid_base + 1, ..,
 * whose members are the receivers (full) and the source (send-only unless
 * it is a receiver); senders gets one flow per source. mm must be
 * initialised (ibu_mcmembers_init) and empty.
 */
int ibu_traffic_mcast_case(const struct ibu_endports *ep,
			   const struct ibu_pattern *p, uint64_t seed,
			   uint16_t mlid_base, struct ibu_mcmembers *mm,
			   struct ibu_mflows *senders, struct ibu_err *e);

/* The senders of the `groups` pattern for the member list mm. */
int ibu_traffic_group_senders(const struct ibu_mcmembers *mm,
			      struct ibu_mflows *senders, struct ibu_err *e);

/* Which DLID offset a source should use toward a destination (the
 * engine's advice.offset op); < 0: the base LID. */
typedef long (*ibu_dlid_offset_fn)(void *ctx, int src_node, int src_port,
				   int dst_node, int dst_port);

struct ibu_traffic_in {
	const struct ibu_fabric *f;	/* ports carry the LIDs in use */
	const struct ibu_lft *lft;
	const struct ibu_endports *ep;
	enum ibu_dlid_mode dlids;
	ibu_dlid_offset_fn advised;	/* advised DLIDs; NULL: base LIDs */
	void *advised_ctx;
	const struct ibu_mft *mft;	/* multicast patterns */
	const struct ibu_mcmembers *mm;	/* receivers of each MLID */
	const struct ibu_mflows *senders;
	uint64_t seed;			/* random */
	long size;			/* bytes per message */
	const struct ibu_cuts *cuts;	/* for the bound; NULL: end ports'
					 * cables only */
	double *sample_bw;		/* random:K, ebb:K: each sample's
					 * flow-bw, in sample order, up to
					 * sample_cap of them; NULL: none */
	int sample_cap;
};

struct ibu_traffic_result {
	long messages;		/* unicast: (source, destination) pairs;
				 * multicast: packets sent */
	long walks;		/* walks followed (pairs: 2^LMC a message) */
	long unrouted;		/* walks that did not reach the destination
				 * (multicast: a receiver got no copy) */
	char first_unrouted[256];	/* the first of them, for a message */
	uint64_t unit;		/* load of one whole message */
	struct ibu_linkload_stats st;	/* in units of 1/unit message */
	double time_ns;		/* estimated completion time */
	int permutations;	/* shift, random, ebb: how many were
				 * evaluated */
	int worst_k;		/* shift: k of the reported permutation;
				 * random, ebb: its sample, from 1 */
	double flow_bw;		/* mean flow bandwidth (above) */
	double bound;		/* unicast patterns: a lower bound of the
				 * busiest link of the reported permutation
				 * for any tables (lib/analysis/cuts.h), in messages;
				 * multicast: the busiest end-port link */
};

/*
 * Runs pattern p. ll (initialised for in->f by the caller) is reset and
 * receives the loads of the pattern (for shift without k: of the worst
 * permutation, the one with the busiest link, ties by its busiest
 * switch-to-switch link, then by time). Returns 0 or a negative IBU_E*;
 * unrouted walks are counted in r, not errors.
 */
int ibu_traffic_run(const struct ibu_traffic_in *in,
		    const struct ibu_pattern *p, struct ibu_linkload *ll,
		    struct ibu_traffic_result *r, struct ibu_err *e);

/*
 * The mean of n samples x (of x - ref where ref is not NULL: two tables
 * measured on the same samples, a paired difference) into *mean, and the
 * half-width of its 95% confidence interval (1.96 standard errors, the
 * normal approximation; 0 below 2 samples) into *ci95. A flow-bw from K
 * random samples is an estimate: two dumps' figures differing by less
 * than the paired difference's half-width are not told apart by K.
 */
void ibu_traffic_ci95(const double *x, const double *ref, int n,
		      double *mean, double *ci95);

#endif
