/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The paper's labels ([Zhou07], sect. 2.2) of a recognised PGFT that is
 * an IBFT(m,n), exact or degraded, derived from the PGFT's levels and
 * cables alone: IBFT level l = h - PGFT level, SW<w,l> (level 0 = top,
 * digits w0..w(n-2)) and P(p) (p0 < m, the others < m/2), every free digit
 * chosen by the smallest GUID of the set it distinguishes (sub-trees by
 * their smallest leaf, top classes by their smallest descendant, end
 * ports by port GUID on their leaf): record order, names and port numbers
 * never matter.
 * Paper port k of a switch (1..m): a top's k = child's digit + 1; others
 * down k = 1..m/2, up k = m/2 + 1 + the parent's last digit.
 */
#ifndef IBU_PGFT_IBFT_H
#define IBU_PGFT_IBFT_H

#include <stdint.h>
#include "pgft.h"

struct ibu_pgft_ibft {
	int m, n, half;
	int num_pids;		/* 2 half^n: the PID space */
	int full_switches;	/* (2n-1) half^(n-1): the label slots */
	uint8_t *w;		/* [node * IBU_PGFT_MAX_H + i]: digit w_i */
	uint32_t *pid;		/* [D]: PID of compute host D */
	int **up;		/* [node]: a switch's up-ports by paper
				 * up-digit (0: cable missing) */
};

/*
 * *out = the labels when g is an IBFT(m,n), exact or degraded (a PGFT
 * within its fault limit whose parameters are IBFT(m,n)'s; no host above
 * the leaves, leaves with up to m/2 end ports), else NULL (IBU_OK either
 * way; errors: IBU_ENOMEM). renumber: g's compute hosts are renumbered in
 * PID order (D then follows the labels, as the IBFT path's end-port index
 * did); else pid[D] labels g's own order.
 */
int ibu_pgft_ibft_build(const struct ibu_fabric *f, struct ibu_pgft *g,
			int renumber, struct ibu_pgft_ibft **out,
			struct ibu_err *e);
void ibu_pgft_ibft_free(struct ibu_pgft_ibft *x);
/* "SW<w0..,l>" of a switch, "P(p0..)" of compute host D (digits > 9
 * separated by '.' when m > 10); "-" for anything else. */
void ibu_pgft_ibft_sw_label(const struct ibu_pgft *g,
			    const struct ibu_pgft_ibft *x, int node, char *buf,
			    size_t len);
void ibu_pgft_ibft_ep_label(const struct ibu_pgft_ibft *x, int D, char *buf,
			    size_t len);
/* nd label digits as the labels print them (separated by '.' when big,
 * i.e. m > 10): for labels of what is absent (a free PID, a missing
 * switch). */
void ibu_pgft_ibft_digits(char *buf, size_t len, const uint8_t *d, int nd,
			  int big);
/* Label slot of a switch: rank of (level, label), 0..full_switches-1. */
long ibu_pgft_ibft_slot(const struct ibu_pgft *g, const struct ibu_pgft_ibft *x,
			int node);
/* The paper's number (1..m) of a switch's cabled port, -1 if none. */
int ibu_pgft_ibft_port(const struct ibu_fabric *f, const struct ibu_pgft *g,
		       const struct ibu_pgft_ibft *x, int node, int port);
/* The paper's LIDs ([Zhou07] sect. 3.1): BaseLID = 2^lmc PID + 1
 * (paper_exact) or 2^lmc (PID + 1), switches after the PID space in label
 * order. fit_lmc: the largest LMC <= want that fits, -1 if none.
 * assign_lids: lmc < 0: the LMC the tree needs, capped to what fits; else
 * that LMC or IBU_ELID; *lmc_used receives it. */
int ibu_pgft_ibft_fit_lmc(const struct ibu_pgft_ibft *x, int want,
			  int paper_exact);
int ibu_pgft_ibft_assign_lids(struct ibu_fabric *f, const struct ibu_pgft *g,
			      const struct ibu_pgft_ibft *x, int lmc,
			      int paper_exact, int *lmc_used,
			      struct ibu_err *e);

#endif
