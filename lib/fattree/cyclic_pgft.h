/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The cyclic engine's tree (lib/fattree/engine_cyclic.c): the recognised
 * PGFT (lib/fattree/pgft.h), an IBFT(m,n)'s paper labels on it
 * (lib/fattree/pgft_ibft.h, exact or degraded), the LMC its hosts carry
 * and what the engine's stages found. The rule is the generalised one
 * (offsets=rotated) or on an IBFT the paper's (offsets=paper, struct
 * ibu_pgft_paper).
 */
#ifndef IBU_CYCLIC_PGFT_H
#define IBU_CYCLIC_PGFT_H

#include "pgft.h"
#include "pgft_ibft.h"
#include "lft.h"
#include "lidmap.h"

struct ibu_cdg_ports;

struct ibu_cyclic_pgft {
	struct ibu_pgft g;
	const struct ibu_fabric *f;	/* the fabric recognised */
	int lmc;			/* smallest LMC of the compute hosts */
	int lmc_needed;			/* ceil(log2 prod U_l) */
	int offset_levels;		/* up levels the offset decides */
	struct ibu_pgft_route_stats st;	/* of the last route */
	struct ibu_pgft_ibft *ibft;	/* an IBFT(m,n), exact or damaged:
					 * the paper's labels and LIDs (not
					 * once an admin's host order
					 * renumbers it); else NULL */
	struct ibu_pgft_paper *paper;	/* offsets=paper on an IBFT: Eq. 2
					 * in the paper's port order
					 * (&paper_rule); NULL: the
					 * generalised rule */
	struct ibu_pgft_paper paper_rule;
	int planned;
	int routed;			/* st holds a routing's counts */
	int ordered;			/* 1: hosts in the admin's order */
	int order_ignored;		/* 1: an order file on an IBFT */
	int paper_ignored;		/* 1: offsets=paper on a PGFT */
	struct ibu_pgft_order_stats order;
	/* with faults: the last routing's unicast tables and LIDs (copies:
	 * the plugin's tables are OpenSM's), and their channel dependencies
	 * for the multicast trees that must turn down-up to reach a member
	 * (pgft_mcast.h), built when a tree first needs them; else empty */
	struct ibu_lft ulft;
	struct ibu_lidmap umap;
	struct ibu_cdg_ports *ucdg;
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
/* lmc < 0: the LMC the scheme needs, capped to what fits; paper_exact:
 * an IBFT's BaseLID = 2^LMC PID + 1 (else 2^LMC (PID + 1), aligned) */
int ibu_cyclic_pgft_assign_lids(struct ibu_fabric *f,
				const struct ibu_cyclic_pgft *c, int lmc,
				int paper_exact, int *lmc_used,
				struct ibu_err *e);

#endif
