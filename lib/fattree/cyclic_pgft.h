/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The cyclic engine on PGFTs, exact IBFT(m,n)s included: the recognised
 * tree (lib/fattree/pgft.h), the LMC its hosts carry, an IBFT's paper
 * labels (lib/fattree/pgft_ibft.h), and the stages
 * lib/fattree/engine_cyclic.c runs on it; with offsets=paper the router
 * of an IBFT's tables (ibu_cyclic_pgft_route_paper).
 */
#ifndef IBU_CYCLIC_PGFT_H
#define IBU_CYCLIC_PGFT_H

#include "pgft.h"
#include "pgft_ibft.h"
#include "ibft.h"
#include "lft.h"
#include "lidmap.h"

struct ibu_cyclic_pgft {
	struct ibu_pgft g;
	const struct ibu_fabric *f;	/* the fabric recognised */
	int lmc;			/* smallest LMC of the compute hosts */
	int lmc_needed;			/* ceil(log2 prod U_l) */
	int offset_levels;		/* up levels the offset decides */
	struct ibu_pgft_route_stats st;	/* of the last route */
	struct ibu_pgft_ibft *ibft;	/* an exact IBFT(m,n): the paper's
					 * labels and LIDs; else NULL */
};

/* max_faults: as ibu_pgft_recognize_limit (IBU_MAX_FAULTS_DEFAULT, 0 exact) */
int ibu_cyclic_pgft_recognise(const struct ibu_fabric *f,
			      const uint64_t *roots, int num_roots,
			      int max_faults, struct ibu_cyclic_pgft **out,
			      struct ibu_err *e);
void ibu_cyclic_pgft_free(struct ibu_cyclic_pgft *c);
int ibu_cyclic_pgft_plan(const struct ibu_fabric *f, struct ibu_cyclic_pgft *c,
			 struct ibu_err *e);
int ibu_cyclic_pgft_route(const struct ibu_fabric *f,
			  struct ibu_cyclic_pgft *c,
			  const struct ibu_lidmap *map, struct ibu_lft *lft,
			  struct ibu_err *e);
/*
 * offsets=paper on an IBFT(m,n), exact or degraded: the PGFT router with
 * the paper's Eq. 2 (struct ibu_pgft_paper), up-ports in the paper's port
 * order and PIDs from c->ibft (exact) or else from t, ibft.c's labels of
 * the same fabric (a degraded IBFT); lmc: the LID plan's; rotated: r_l(D)
 * = p_l (lib/fattree/cyclic.h), else 0 (offsets=paper).
 */
int ibu_cyclic_pgft_route_paper(const struct ibu_fabric *f,
				struct ibu_cyclic_pgft *c,
				const struct ibu_ibft *t, int lmc, int rotated,
				const struct ibu_lidmap *map,
				struct ibu_lft *lft, struct ibu_err *e);
/* lmc < 0: the LMC the scheme needs, capped to what fits; paper_exact:
 * an IBFT's BaseLID = 2^LMC PID + 1 (lib/fattree/lidplan.h) */
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
 * switches, 16 end ports, LMC in use 2 (paper needs 2)" */
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
