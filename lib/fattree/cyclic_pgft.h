/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The cyclic engine's tree: the recognised PGFT (lib/fattree/pgft.h), an
 * IBFT(m,n)'s paper labels on it (lib/fattree/pgft_ibft.h, exact or
 * degraded), the LMC its hosts carry, and the stages
 * lib/fattree/engine_cyclic.c runs: one recognition, one plan, one route,
 * with the generalised rule (offsets=rotated) or on an IBFT the paper's
 * Eq. 2 (offsets=paper, struct ibu_pgft_paper).
 */
#ifndef IBU_CYCLIC_PGFT_H
#define IBU_CYCLIC_PGFT_H

#include "pgft.h"
#include "pgft_ibft.h"
#include "lft.h"
#include "lidmap.h"

struct ibu_cyclic_pgft {
	struct ibu_pgft g;
	const struct ibu_fabric *f;	/* the fabric recognised */
	int lmc;			/* smallest LMC of the compute hosts */
	int lmc_needed;			/* ceil(log2 prod U_l) */
	int offset_levels;		/* up levels the offset decides */
	struct ibu_pgft_route_stats st;	/* of the last route */
	struct ibu_pgft_ibft *ibft;	/* an IBFT(m,n): the paper's labels;
					 * else NULL */
	int numbered;			/* the paper's LIDs: any IBFT, exact
					 * or damaged (not once an admin's
					 * host order renumbers it) */
	struct ibu_pgft_paper *paper;	/* offsets=paper on an IBFT: Eq. 2
					 * in the paper's port order; NULL:
					 * the generalised rule */
};

enum ibu_cyclic_rule_kind {
	IBU_CYCLIC_GENERALISED = 0,
	IBU_CYCLIC_PAPER,		/* Eq. 2 exactly */
	IBU_CYCLIC_PAPER_ROTATED,	/* r_l(D) = p_l, paper ports */
};

/*
 * max_faults: as ibu_pgft_recognize_limit (IBU_MAX_FAULTS_DEFAULT, 0
 * exact). paper: an IBFT gets the paper's rule (c->paper; rotated: r_l(D)
 * = p_l, lib/fattree/cyclic.h's rotated rule in the paper's port order,
 * else Eq. 2) and the paper's LIDs, degraded too; a PGFT that is no IBFT
 * keeps the generalised rule (c->paper NULL).
 */
int ibu_cyclic_pgft_recognise(const struct ibu_fabric *f,
			      const uint64_t *roots, int num_roots,
			      int max_faults, enum ibu_cyclic_rule_kind rule,
			      struct ibu_cyclic_pgft **out, struct ibu_err *e);
void ibu_cyclic_pgft_free(struct ibu_cyclic_pgft *c);
int ibu_cyclic_pgft_plan(const struct ibu_fabric *f, struct ibu_cyclic_pgft *c,
			 struct ibu_err *e);
/* The tables, under c's rule; lft: allocated by the caller (every entry
 * IBU_NO_PATH). */
int ibu_cyclic_pgft_route(const struct ibu_fabric *f,
			  struct ibu_cyclic_pgft *c,
			  const struct ibu_lidmap *map, struct ibu_lft *lft,
			  struct ibu_err *e);
/* The advised DLID offset of compute hosts S -> D under c's rule, and the
 * switch where that route turns down (-1: none). */
unsigned ibu_cyclic_pgft_offset(const struct ibu_cyclic_pgft *c, int S,
				int D);
int ibu_cyclic_pgft_turn(const struct ibu_fabric *f,
			 const struct ibu_cyclic_pgft *c, int S, int D);
/* lmc < 0: the LMC the scheme needs, capped to what fits; paper_exact:
 * an IBFT's BaseLID = 2^LMC PID + 1 (else 2^LMC (PID + 1), aligned) */
int ibu_cyclic_pgft_assign_lids(struct ibu_fabric *f,
				const struct ibu_cyclic_pgft *c, int lmc,
				int paper_exact, int *lmc_used,
				struct ibu_err *e);
/* 1 for a LID of a host above the leaves (no up*|down* path from some
 * switches: left unrouted there), and on a PGFT with faults for any LID
 * at a switch (faults can leave a switch without an up*|down* way) */
int ibu_cyclic_pgft_may_leave_unrouted(const struct ibu_cyclic_pgft *c,
				       int node, uint32_t lid);
/* "PGFT(2; 8,12; 1,4; 1,2): 16 switches, 96 end ports, LMC in use 3
 * (needs 3)"; an exact IBFT as the IBFT path said it: "IBFT(4,3): 20
 * switches, 16 end ports, LMC in use 2 (paper needs 2)"; a degraded tree
 * adds "; degraded: N faults (limit L), ..." */
void ibu_cyclic_pgft_describe(const struct ibu_cyclic_pgft *c, char *buf,
			      size_t len);
/* D of a compute host, then the hosts above the leaves after them; -1 */
int ibu_cyclic_pgft_endport_index(const struct ibu_cyclic_pgft *c, int node,
				  int port);
/* Rows: 0 = the tops .. h-1 = the leaves, h = end ports; keys: column,
 * end port index. -1 for a node outside the tree. */
int ibu_cyclic_pgft_layout(const struct ibu_fabric *f,
			   const struct ibu_cyclic_pgft *c, int node, int *row,
			   double *key);
/* "L2#5": level 2, column 5; an exact IBFT's "SW<01,2>" */
void ibu_cyclic_pgft_node_label(const struct ibu_cyclic_pgft *c, int node,
				char *buf, size_t len);

#endif
