/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Parallel-ports generalised fat trees PGFT(h; m_1..m_h; w_1..w_h;
 * p_1..p_h) ([Zahavi10]): level 0 hosts, levels 1..h
 * switches; a level-l switch has m_l children, a level-(l-1) node has w_l
 * parents and p_l parallel cables to each. IBFT(m,n) is
 * PGFT(n; m/2,..,m/2, m; 1, m/2,..,m/2; 1,..,1).
 *
 * Node at level l: digits d[0..h-1]; d[i] for i < l is b_(i+1) (which of
 * the w_(i+1) parents was taken at level i+1), d[i] for i >= l is a_(i+1)
 * (which of the m_(i+1) children of its level-(i+1) ancestor it is). A
 * level-(l-1) node d' is cabled, p_l times, to the w_l level-l nodes that
 * equal d' but for d[l-1] = b_l in 0..w_l-1.
 */
#ifndef IBU_PGFT_H
#define IBU_PGFT_H

#include <stddef.h>
#include "fabric.h"

#define IBU_PGFT_MAX_H 8

struct ibu_pgft_params {
	int h;				/* switch levels */
	int m[IBU_PGFT_MAX_H + 1];	/* [1..h] children per level-l switch */
	int w[IBU_PGFT_MAX_H + 1];	/* [1..h] parents of a level-(l-1) node */
	int p[IBU_PGFT_MAX_H + 1];	/* [1..h] cables to each parent */
};

/* Fills P from three comma-separated lists of h positive numbers each
 * ("8,12" "1,4" "1,2"); the message names the list and the problem. */
int ibu_pgft_params_parse(const char *m, const char *w, const char *p,
			  struct ibu_pgft_params *P, struct ibu_err *e);
/* 1 when P is an IBFT(m,n): PGFT(n; m/2,..,m/2, m; 1, m/2,..,m/2; 1,..,1)
 * with n >= 2 (then *m, *n set), else 0. */
int ibu_pgft_is_ibft(const struct ibu_pgft_params *P, int *m, int *n);
/* "PGFT(2; 8,12; 1,4; 1,2)" */
void ibu_pgft_params_text(const struct ibu_pgft_params *P, char *buf,
			  size_t len);
/* Nodes at level l (0 = hosts): prod m_(l+1..h) * prod w_(1..l); -1 when
 * larger than limit. */
long ibu_pgft_level_size(const struct ibu_pgft_params *P, int l, long limit);
/* Cabled ports of a level-l switch: m_l p_l down, w_(l+1) p_(l+1) up. */
int ibu_pgft_down_ports(const struct ibu_pgft_params *P, int l);
int ibu_pgft_up_ports(const struct ibu_pgft_params *P, int l);
/* The lowest level l (1..h-1) whose sub-tree's hosts, m_1 .. m_l, do not
 * divide over the sub-tree's up-cables, w_2 .. w_l x w_(l+1) p_(l+1);
 * 0 when every level's do. There the closed-form rule, which sends every
 * source's flows toward one host down one cable, cannot reach the cut
 * bound (PGFT(2; 8,12; 1,3; 1,2): 8 hosts on 6 cables, 2 on some, all-
 * to-all 176 against a bound of 118 and updn's 168). */
int ibu_pgft_uneven_level(const struct ibu_pgft_params *P);

/*
 * Recognition from the link graph alone (never names, GUID order of the
 * records or port numbers), as a chain of named steps, each with a reason
 * when it rejects:
 *  1. classes: switches, end ports (CA ports cabled to a switch);
 *  2. leaves: the switch graph is connected and bipartite (levels
 *     alternate); the leaves are the switches with end ports in the colour
 *     class that holds most end ports (hosts on spines of the other class
 *     are allowed: end ports above the leaves);
 *  3. levels: 1 + distance to the nearest leaf; every switch-to-switch
 *     cable joins levels l and l+1 (h = 1: one switch and its hosts, a
 *     tree whose tops are all gone);
 *  4. parameters: parallel cables grouped by peer; every level-l switch
 *     has the same number of parents (w_(l+1)) and cables to each
 *     (p_(l+1)), every level-l switch above the leaves the same number of
 *     children (m_l; m_h = the tops' children: fewer pods is a smaller
 *     m_h), m_1 = the most end ports of a leaf (empty leaf ports are the
 *     planned shape); the number of switches per level must be the PGFT's;
 *  5. columns: switches that share a parent (siblings) form a column,
 *     ranked level by level from the top (tops by node GUID, the others
 *     by the least column of their siblings' parents, so a sibling that
 *     lost its cable to that parent keeps its rank); every switch's
 *     up-ports are the U_l slots of its rank (parent columns x cables,
 *     by port), 0 where a cable is missing: siblings agree on which
 *     parent index i means;
 *  6. host order: compute hosts (end ports at leaves) numbered 0..N-1 by
 *     sub-tree (pods, level by level), leaf, port GUID; no gaps.
 * Parameters are what the level's switches have at most (m, w, p): a
 * switch with less, a missing cable or switch that its peers have, is a
 * fault (ibu_pgft_recognize_limit), never the planned shape.
 */
struct ibu_pgft_host {
	int node, port;		/* the end port */
	int leaf;		/* fabric node of its switch */
};

/* A deviation from the recognised PGFT. */
enum ibu_pgft_fault_kind {
	IBU_PGFT_MISSING_SWITCHES,	/* count switches of level missing */
	IBU_PGFT_MISSING_CABLES,	/* lower - upper: have of want */
};

struct ibu_pgft_fault {
	enum ibu_pgft_fault_kind kind;
	int level;		/* the missing switches', or lower's */
	int count;		/* faults this record stands for */
	int lower, upper;	/* fabric nodes (cables) */
	int have, want;		/* cables between them */
};

struct ibu_pgft {
	struct ibu_pgft_params P;
	int num_nodes;		/* of the fabric */
	int num_switches;
	int *level;		/* [node]: 1..h switches, 0 end nodes, -1 none */
	int *col;		/* [node]: column rank inside its level */
	int **up;		/* [node]: U_l up-port slots in order, 0: cable missing */
	int num_hosts;		/* compute hosts (D-mod-K numbered) */
	struct ibu_pgft_host *host;	/* [D] */
	int num_spine_hosts;	/* end ports above the leaves */
	struct ibu_pgft_host *spine_host;
	uint64_t *host_sub;	/* [D (h+1) + l]: id of D's level-l sub-tree
				 * (l = 1: its leaf; equal ids = one sub-tree) */
	int *host_base;		/* [node]: first slot of host_of_port */
	int *host_of_port;	/* (node, port) -> D, -1 spine host, -2 none */
	int *leaf_rank;		/* [node]: a leaf's rank in host order, -1 */
	int *leaf_first;	/* [node]: a leaf's first host (D) */
	int uneven_rule;	/* 1: uneven leaves keep D-mod-K (the
				 * engine option uneven=rule) */
	int turn_layer;		/* 1: routes that turn down-up may ride
				 * SL/VL 1 (turns=own-vl, qos TRUE, two
				 * data VLs): checked for credit loops
				 * among themselves only */
	int num_faults;		/* missing switches + missing cables */
	int max_faults;		/* the limit recognition applied */
	int num_fault_recs;
	struct ibu_pgft_fault *faults;
};

int ibu_pgft_recognize(const struct ibu_fabric *f, struct ibu_pgft *g,
		       struct ibu_err *e);
/* The same with the top switches named (node GUIDs, e.g. OpenSM's
 * root_guid_file; GUIDs of no switch here are skipped): levels count
 * down from them instead of up from the end ports. roots NULL: as
 * ibu_pgft_recognize. */
int ibu_pgft_recognize_roots(const struct ibu_fabric *f, struct ibu_pgft *g,
			     const uint64_t *roots, int num_roots,
			     struct ibu_err *e);
/* The same within max_faults missing switches and cables
 * (IBU_MAX_FAULTS_DEFAULT: the default, a tenth of the planned
 * switch-to-switch cables, at least 7 or a quarter of them, at least 1,
 * through ibu_fault_limit(); 0:
 * exact, as ibu_pgft_recognize_roots). */
int ibu_pgft_recognize_limit(const struct ibu_fabric *f, struct ibu_pgft *g,
			     const uint64_t *roots, int num_roots,
			     int max_faults, struct ibu_err *e);
int ibu_pgft_default_max_faults(const struct ibu_pgft_params *P);
/* "missing cables 'leaf3' - 'spine2': 1 of 2" */
void ibu_pgft_fault_text(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 int i, char *buf, size_t len);
void ibu_pgft_free(struct ibu_pgft *g);
/* What the rule adds to leaf's up-slot digit toward host D. On an intact
 * tree whose leaves' hosts do not divide over their up-cables (uneven
 * level 1, m_1 = q U_1 + e, 0 < e): each leaf's last e hosts go up to
 * the parent column T mod W_2 (the cable the rule's own), where T is
 * D's leaf's rank less the source leaf's, less 1, mod the L leaves, plus
 * D's place among the last hosts: from any leaf the other leaves take
 * 0..L-2 once each, and so do the leaves sending into any leaf, so their
 * flows arrive over every parent, as many from each as L - 1 allows,
 * instead of on the cables the first hosts' already load; else 0, the
 * generalised rule as it was.  PGFT(2; 8,12; 1,3; 1,2): all-to-all 176
 * -> 120 (updn 168), eBB the same, the worst shift 2 -> 3 (dfsssp 3).
 * A column of p_2 x the source leaf's rank alone (before) leaves a leaf's
 * senders unevenly over the parents where L - 1 is not a multiple of
 * W_2 at that leaf's rank: PGFT(2; 4,7; 1,3; 1,1) 36 against its bound
 * 32, now 32; PGFT(2; 12,16; 1,5; 1,1) 444 -> 432, PGFT(2; 10,9; 1,4;
 * 1,2) 110 -> 100, both at the bound.  Rotating every host's flows
 * instead loses a tenth of the eBB: one destination's flows no longer
 * come down one cable; the cable by T too (not the rule's) 0.2-0.4% of
 * it on trees with parallel cables. */
long ibu_pgft_rule_rotation(const struct ibu_pgft *g, int leaf, long D);
/* 1 where ibu_pgft_rule_rotation rotates: an intact 2-level tree with an
 * uneven level 1, unless uneven_rule (on three levels the rotated
 * leaves' flows took other middle switches: PGFT(3; 4,4,4; 1,3,2;
 * 1,1,1) all-to-all 144 -> 184). */
int ibu_pgft_rotated(const struct ibu_pgft *g);
/* D of the end port at (node, port): >= 0 compute host, -1 host above the
 * leaves, -2 not an end port of the tree. */
int ibu_pgft_host(const struct ibu_pgft *g, int node, int port);
/* What ibu_pgft_apply_order() did with an order file. */
struct ibu_pgft_order_stats {
	int listed;		/* compute hosts the file lists */
	int absent;		/* compute hosts it omits (numbered after) */
	int unknown;		/* its GUIDs that are no compute host */
	int reordered;		/* listed hosts that had to move because the
				 * file interleaves sub-trees (0: the file's
				 * order is kept exactly) */
};

/*
 * Numbers g's compute hosts in the order of the port GUIDs guid[0..num-1]
 * (lib/fattree/pgft_order.c): sub-trees ranked by their first listed host,
 * top level first, then hosts in file order; omitted hosts after the
 * listed ones in the engine's order.
 */
int ibu_pgft_apply_order(const struct ibu_fabric *f, struct ibu_pgft *g,
			 const uint64_t *guid, int num,
			 struct ibu_pgft_order_stats *st, struct ibu_err *e);

/* "PGFT(2; 8,12; 1,4; 1,2): 16 switches, 96 end ports[, 2 above the
 * leaves]" */
void ibu_pgft_describe(const struct ibu_pgft *g, char *buf, size_t len);

/*
 * The cyclic rule generalised (docs/design.md, "PGFT: the generalised cyclic rule"),
 * with U_l = w_(l+1) p_(l+1), W_l = w_1 p_1 .. w_l p_l (the up-choices
 * below level l: docs/design.md's w_1..w_l, which is the same without parallel
 * cables; with them, w alone reuses a digit and two levels collide),
 * R_l = U_1..U_(l-1):
 *  - toward compute host D on LID base + o, a level-l switch not above D
 *    takes up-port (d_l(o) + r_l(D)) mod U_l of its ordered up-ports,
 *    r_l(D) = floor(D / W_l) mod U_l, d_l(o) = floor(o / R_l) mod U_l
 *    while R_l U_l <= 2^lmc, else 0 (the destination alone: offset 0 is
 *    D-mod-K);
 *  - a level-l switch above D goes down to the child above D, on the
 *    parallel cable floor(D / W_(l-1)) mod p_l (cables by port number):
 *    the cable digit D's climbs use, so the hosts of a child spread;
 *  - toward a host above the leaves or a switch: the shortest up*|down*
 *    path, ties spread by LID; a switch with no such path gets no entry
 *    for a host's LID (0xFF: no legal path exists) and, for a switch's
 *    LID, the plain shortest path when no host is above the leaves (only
 *    switch-own traffic uses it), else no entry either (hosts on spines
 *    would close credit loops through such turns).
 * lmc: the LMC of the compute hosts (the smallest in use).
 */
struct ibu_lft;
struct ibu_lidmap;
int ibu_pgft_route(const struct ibu_fabric *f, const struct ibu_pgft *g,
		   const struct ibu_lidmap *map, int lmc, struct ibu_lft *lft,
		   struct ibu_err *e);
/* On a PGFT with faults, what the fault-aware balance did with the
 * compute hosts' LIDs (lib/fattree/pgft_balance.c). */
struct ibu_pgft_route_stats {
	long rerouted;		/* entries other than the rule's way */
	long balanced;		/* LIDs whose rule crossed a fault */
	long outside;		/* entries of switches above the leaves with
				 * no up*|down* way: a plain shortest path,
				 * for the switch's own packets only */
	long unrouted;		/* leaf entries left 0xFF: no up*|down* way */
	long turned;		/* entries of switches with no up*|down* way
				 * to a switch LID or a host above the
				 * leaves: one down-up turn, at the switch
				 * chosen for that LID */
	long twice;		/* of those, leaf entries no turn switch
				 * reached: a second turn, through a
				 * sibling's (pgft_turn.c second_turns) */
	long spread_work;	/* the balance's spread pass: switches of
				 * the LIDs' trees it chose again (its cost) */
	long shift_from, shift_to;	/* the worst shift (base LIDs) before
					 * and after lowering it (pgft_shift.c) */
	long shift_moved, shift_tries;	/* entries it changed, changes tried */
	long shift_floor;	/* a floor under the worst shift any tables
				 * have (the hosts' switches' cables) */
	long shift_pairs;	/* of those entries, changed two at once */
	long shed_checked;	/* LIDs the shedding after the turns checked
				 * for a credit loop (pgft_shed.c) */
	long cdg_builds;	/* walks of every route into the dependency
				 * graph those passes share (pgft_cdg.c) */
	long gather_moved;	/* entries moved to the spine most source
				 * leaves use for their LID (pgft_gather.c) */
	long ebb_moved, ebb_tries;	/* the eBB pass's (pgft_ebb.c), */
	long ebb_pairs;			/* moves kept as a pair, */
	long ebb_turned;		/* of a LID routed by turns, */
	long ebb_relaxed;		/* kept by the unguarded round, */
	long ebb_walks;			/* and the flows its tries walked; */
	double ebb_from, ebb_to;	/* its estimate before and after */
	long ebb_a2a;			/* the all-to-all's busiest it kept */
	int layered;		/* the routes with a down-up turn ride SL/VL
				 * 1 (g->turn_layer, every cable between
				 * adjacent levels): path_sl 1 for them */
	long layered_lids;	/* LIDs some end port reaches so */
	int extras;		/* a damaged 2-level tree with uneven
				 * leaves: 0 not tried, 1 routed again with
				 * their last hosts placed as damaged LIDs
				 * and the first kept, 2 the second kept,
				 * 3 the second could not be completed (out
				 * of memory) and the first kept */
};
/* The same into tables the caller allocated (ibu_lft_init: every entry
 * IBU_NO_PATH, up to at least map's highest LID), e.g. the engine
 * driver's; those figures in st (may be NULL). */
int ibu_pgft_route_stats(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 const struct ibu_lidmap *map, int lmc,
			 struct ibu_lft *lft, struct ibu_pgft_route_stats *st,
			 struct ibu_err *e);
/*
 * The paper's rule ([Zhou07] Eq. 2, offsets=paper; lib/fattree/cyclic.h)
 * on a PGFT that is an IBFT(m,n), exact or degraded: a level-l switch not
 * above D takes up-port up[s][u] (paper port half + 1 + u), u = digit
 * l-1 of the offset while the offset decides level l (r_l(D) = 0), else
 * the label digit of D's PID at paper level h - l. up[s]: U_l ports by
 * paper up-digit, 0 where the cable is missing; pid[D]: compute host D's
 * PID. Everything else as ibu_pgft_route_stats (down ways, switch LIDs,
 * the balance of LIDs whose rule crosses a fault).
 */
struct ibu_pgft_paper {
	int half;
	int rotated;		/* r_l(D) = the PID's digit at every level
				 * (lib/fattree/cyclic.h's rotated rule) */
	const int *const *up;	/* [node] */
	const uint32_t *pid;	/* [D] */
};

int ibu_pgft_route_paper(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 const struct ibu_lidmap *map, int lmc,
			 const struct ibu_pgft_paper *paper,
			 struct ibu_lft *lft, struct ibu_pgft_route_stats *st,
			 struct ibu_err *e);
/* Offset digits the LID carries at LMC lmc (levels 1..n take theirs from
 * the offset), and the LMC that covers every up level. */
int ibu_pgft_offset_levels(const struct ibu_pgft *g, int lmc);
int ibu_pgft_needed_lmc(const struct ibu_pgft *g);

/*
 * x[1..h]: what of host D is left to choose level l's up-port (r_l(D) =
 * x[l] mod U_l). An up-port is (parent b, cable k); the parent consumes
 * its digit, the cable digit stays for the levels above: x[l+1] =
 * floor(x[l] / U_l) p_(l+1) + (x[l] mod p_(l+1)). Without parallel
 * cables this is floor(D / (w_1..w_l)), Zahavi's D-mod-K; with them, the
 * destinations that reach one switch through different cables of a bundle
 * still take different up-ports above it.
 */
void ibu_pgft_digits(const struct ibu_pgft *g, long D, long *x);
/* Level of the lowest switches above both compute hosts (1: one leaf). */
int ibu_pgft_lca_level(const struct ibu_pgft *g, int S, int D);
/*
 * The DLID offset that gives source S one climbing chain (docs/design.md):
 * o = sum over the levels l below the lca that the offset decides of
 * ((c_l(S) - r_l(D)) mod U_l) R_l, c_l(S) = x_l(S) mod U_l: the up-port
 * (d_l(o) + r_l(D)) mod U_l is then c_l(S) whatever D is. For MPI/UCX
 * integrators: DLID = D's base LID + this offset.
 */
unsigned ibu_pgft_offset(const struct ibu_pgft *g, int lmc, int S, int D);
/* The switch (fabric node) where S's route toward D on that offset turns
 * down: its chain's switch at the lca level; -1 if none. */
int ibu_pgft_turn_switch(const struct ibu_fabric *f, const struct ibu_pgft *g,
			 int lmc, int S, int D);

/* The same under the paper's rule (paper NULL: the generalised one):
 * c_l(S) = S's PID digit p_(h-l), r_l(D) = 0 where the offset decides
 * (Eq. 2; D's digit with paper->rotated), the up-ports by paper up-digit;
 * above the offset's levels D's digit, as the router's. */
unsigned ibu_pgft_offset_rule(const struct ibu_pgft *g, int lmc,
			      const struct ibu_pgft_paper *paper, int S, int D);
int ibu_pgft_turn_rule(const struct ibu_fabric *f, const struct ibu_pgft *g,
		       int lmc, const struct ibu_pgft_paper *paper, int S,
		       int D);

#define IBU_PGFT_MAX_LMC 7
/* LIDs for offline use (ibunion lids / route --lmc): compute hosts in D
 * order, base (D + 1) 2^lmc (aligned as OpenSM requires), hosts above the
 * leaves after them, then one LID per switch. fit_lmc: the largest LMC
 * <= want whose numbering fits the unicast space, -1 if none. */
int ibu_pgft_fit_lmc(const struct ibu_pgft *g, int want);
int ibu_pgft_assign_lids(struct ibu_fabric *f, const struct ibu_pgft *g,
			 int lmc, struct ibu_err *e);

/* lib/fattree's own: qsort and bsearch by a leading uint64_t (struct gpos
 * by guid, ...); union-find (path halving) of x's root and of the join
 * of a's and b's sets under a's root (returned), inline: recognition and
 * labelling call them in their inner loops. */
int ibu__cmp_u64(const void *a, const void *b);
/* Host D's sort key, compared key by key (recognition: its sub-trees top
 * down, leaf, port; pgft_order.c: sub-trees by first listed host, line). */
struct ibu__okey {
	uint64_t key[IBU_PGFT_MAX_H + 1];
	int D;
};
int ibu__cmp_okey(const void *a, const void *b);
/* leaf_rank from the host order (recognition, and again after
 * ibu_pgft_apply_order renumbered the hosts); IBU_ENOMEM. */
int ibu__pgft_rank_leaves(struct ibu_pgft *g);
/* (group, key, i), compared in that order: ranks inside groups
 * (labelling), a sub-tree's least file position (host order). */
struct ibu__gkey {
	uint64_t group, key;
	int i;
};
int ibu__cmp_gkey(const void *a, const void *b);

static inline int ibu__uf_find(int *uf, int x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

static inline int ibu__uf_union(int *uf, int a, int b)
{
	a = ibu__uf_find(uf, a);
	uf[ibu__uf_find(uf, b)] = a;
	return a;
}

#endif
