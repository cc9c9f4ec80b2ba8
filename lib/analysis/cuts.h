/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Lower bounds of the busiest link, from cuts of the fabric graph.
 *
 * Whatever the tables, the flows that leave a set of nodes T cross the
 * cables between T and the rest, so some directed cable out of T carries
 * at least (flows out of T) / (cables out of T), and some cable into T
 * (flows into T) / (cables into T). Every end port's own cable is such a
 * cut (the flows it sends and receives); the others come from the graph:
 * switches are ranked by their distance to the nearest end port (leaves
 * 1, their parents 2, ..), H(s) is the set of end ports reachable from
 * switch s through ever smaller ranks (what lies below s), and the cut of
 * s is T = the switches whose H is a non-empty part of H(s), plus the end
 * ports of H(s). On a fat tree these are the leaves and the pods (the
 * sub-trees of docs/design.md's bound M(N-M) / up-cables). Then, on fabrics
 * up to 1024 switches, for every switch-to-switch cable a-b the switches
 * nearer to a than to b (hop counts over switches) with their end ports:
 * on a mesh the straight cuts between two columns or rows, its
 * bisections. Any set gives a valid bound, so a damaged or unrecognised
 * fabric only gets weaker ones. Topology-neutral.
 */
#ifndef IBU_CUTS_H
#define IBU_CUTS_H

#include "fabric.h"
#include "traffic.h"

struct ibu_cuts {
	int num_ep;		/* end ports (ibu_endports order) */
	int num;		/* cuts */
	int words;		/* 64-bit words of one member set */
	uint64_t *in;		/* [cut * words ..] end ports inside */
	int *size;		/* [cut] end ports inside */
	int *cables;		/* [cut] cables between the cut and the rest */
	int *order;		/* the cuts by ceiling(), highest first (NULL:
				 * in build order) */
	double a2a_one_dlid;	/* ibu_cuts_a2a_one_dlid */
};

/* The cuts of f, end ports indexed as ep orders them (distinct member
 * sets only; none when f has no switch). */
int ibu_cuts_build(const struct ibu_fabric *f, const struct ibu_endports *ep,
		   struct ibu_cuts *c, struct ibu_err *e);
void ibu_cuts_free(struct ibu_cuts *c);

/*
 * The largest lower bound of the busiest link, in messages, over the end
 * ports' own cables and every cut, for one message from every end port i
 * to to[i] (to[i] == i or < 0: i sends nothing), or, when to is NULL, for
 * all-to-all. c may be NULL (end ports' cables only). Where no two
 * senders share a destination (a permutation, a bisection's pairs), no
 * cut carries more than min(inside, outside) / cables flows out or in,
 * so the cuts are read highest such ceiling first and the reading stops
 * where it cannot beat the best found (the same bound; a shift pattern
 * on a damaged IBFT(24,3), 3455 permutations of 3456 end ports, read
 * every cut of its 720 switches for each).
 */
double ibu_cuts_bound(const struct ibu_cuts *c, int num_ep, const int *to);

/*
 * A lower bound of the all-to-all's busiest link, in messages, for
 * tables on one DLID per destination (base LIDs, as the SA hands them
 * out): a switch with h of the end ports and u cables to other switches
 * forwards its end ports' h messages to one outside destination out of
 * one port, so some port carries h x ceil((N - h) / u) of them. The cuts
 * count flows; this counts them in whole destinations, which is what a
 * leaf whose hosts do not divide over its up-cables cannot beat
 * (PGFT(2; 4,8; 1,3; 1,1): 4 x ceil(28 / 3) = 40, the cuts 37.3). 0
 * where c is NULL.
 */
double ibu_cuts_a2a_one_dlid(const struct ibu_cuts *c);

#endif
