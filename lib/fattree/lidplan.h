/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * LID plan ([Zhou07], sect. 3.1): the LMC the paper needs, the owner and
 * offset of every LID that exists, and the paper's own LID numbering
 * (BaseLID = 2^LMC * PID + 1) for OpenSM to honour through guid2lid.
 */
#ifndef IBU_LIDPLAN_H
#define IBU_LIDPLAN_H

#include <stdio.h>
#include "fabric.h"
#include "ibft.h"
#include "lidmap.h"

#define IBU_MAX_LMC 7

struct ibu_lidplan {
	int lmc_needed;		/* ceil(log2((m/2)^(n-1))), may exceed 7 */
	int lmc;		/* smallest LMC in use on the tree's end ports */
	int offset_digits;	/* up-digits taken from the LID offset: the
				 * largest d <= n-1 with (m/2)^d <= 2^lmc; the
				 * rest come from the destination (D-mod-k) */
	struct ibu_lidmap map;	/* owner and offset of every LID */
};

/* ceil(log2(half^(n-1))); returns a value > 7 when IBA cannot hold it. */
int ibu_lid_needed_lmc(int m, int n);
/* Largest d <= n-1 with half^d <= 2^lmc. */
int ibu_lid_offset_digits(int half, int n, int lmc);

/* Builds the plan of tree t from the LIDs already present in f (OpenSM's or
 * a dump's); t is required (LID owners alone: ibu_lidmap_build). */
int ibu_lidplan_build(const struct ibu_fabric *f, const struct ibu_ibft *t,
		      struct ibu_lidplan *p, struct ibu_err *e);
void ibu_lidplan_free(struct ibu_lidplan *p);

enum ibu_lid_numbering {
	/* the paper's BaseLID = 2^lmc * PID + 1 (49..52 for P(300) in
	 * IBFT(4,3)); not LMC-aligned, so OpenSM refuses it: offline only */
	IBU_LIDS_PAPER_EXACT,
	/* BaseLID = 2^lmc * (PID + 1): the paper's order and set layout,
	 * shifted by one set so every base is 2^lmc-aligned as IBA and
	 * OpenSM's guid2lid loader require (52..55 for P(300)) */
	IBU_LIDS_ALIGNED,
};

/* Base LID of the end port with the given PID under a numbering. */
uint32_t ibu_lidplan_paper_base(uint32_t pid, int lmc,
				enum ibu_lid_numbering how);
/*
 * Writes the paper's LIDs into f: end port P(p) gets its base LID .. +
 * 2^lmc - 1, switches get single LIDs after the last end-port set, in
 * label order. IBU_ELID when the unicast LID space (0x0001..0xBFFF) cannot
 * hold them.
 */
int ibu_lidplan_assign_paper(struct ibu_fabric *f, const struct ibu_ibft *t,
			     int lmc, enum ibu_lid_numbering how,
			     struct ibu_err *e);
/*
 * Largest LMC <= want for which assign_paper fits the LID space; -1 if not
 * even LMC 0 fits.
 */
int ibu_lidplan_fit_lmc(const struct ibu_ibft *t, int want,
			enum ibu_lid_numbering how);

/* = ibu_guid2lid_write() (lib/io/guid2lid.h), kept for its callers. */
int ibu_lidplan_write_guid2lid(FILE *out, const struct ibu_fabric *f,
			       struct ibu_err *e);

#endif
