/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Parallel-ports generalised fat trees PGFT(h; m_1..m_h; w_1..w_h;
 * p_1..p_h) (Zahavi, "D-Mod-K routing providing non-blocking traffic for
 * shift permutations on real life fat trees"): level 0 hosts, levels 1..h
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
#include "err.h"

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
/* "PGFT(2; 8,12; 1,4; 1,2)" */
void ibu_pgft_params_text(const struct ibu_pgft_params *P, char *buf,
			  size_t len);
/* Nodes at level l (0 = hosts): prod m_(l+1..h) * prod w_(1..l); -1 when
 * larger than limit. */
long ibu_pgft_level_size(const struct ibu_pgft_params *P, int l, long limit);
/* Cabled ports of a level-l switch: m_l p_l down, w_(l+1) p_(l+1) up. */
int ibu_pgft_down_ports(const struct ibu_pgft_params *P, int l);
int ibu_pgft_up_ports(const struct ibu_pgft_params *P, int l);

#endif
