/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Cyclic unicast routing on IBFT(m,n) (paper 000, sect. 3.2 and 3.3.1).
 *
 * At SW<w,l>, for a LID owned by P(p) with offset o inside its LMC set:
 *   P(p) below (w0..w(l-1) == p0..p(l-1)): paper port p_l + 1     (Eq. 1)
 *   otherwise: paper port m/2 + 1 + up-digit(j = n-1-l)           (Eq. 2)
 * up-digit(j) = digit j of o in base m/2 when j < offset_digits, else
 * p(n-1-j) (D-mod-k) when the LMC set is too small for the paper's scheme.
 * Switch LIDs use a shortest up/down route; a switch's own LID maps to 0.
 */
#ifndef IBU_CYCLIC_H
#define IBU_CYCLIC_H

#include "fabric.h"
#include "ibft.h"
#include "lidplan.h"
#include "lft.h"

/* Up-digit at level l (1..n-1) for destination pid with LID offset o. */
int ibu_cyclic_up_digit(const struct ibu_ibft *t, int offset_digits, int level,
			uint32_t pid, unsigned offset);
/* Paper port (1..m) at switch sw for destination (pid, offset). */
int ibu_cyclic_paper_port(const struct ibu_ibft *t, int offset_digits, int sw,
			  uint32_t pid, unsigned offset);
/*
 * Cyclic path selection (sect. 3.2): the offset source src uses to reach
 * dst, i.e. rank(gcpg(p0..pl, l+1), src) restricted to offset_digits digits.
 */
unsigned ibu_cyclic_offset(const struct ibu_ibft *t, int offset_digits,
			   uint32_t src_pid, uint32_t dst_pid);

/* Fills lft (initialised by the caller to at least p->map.max_lid) for every
 * switch of the tree and every LID of the plan. */
int ibu_cyclic_route(const struct ibu_fabric *f, const struct ibu_ibft *t,
		     const struct ibu_lidplan *p, struct ibu_lft *lft,
		     struct ibu_err *e);

/*
 * Everything the engine computes for a fabric whose ports already carry
 * LIDs: recognition, LID plan, LFTs sized to the plan. On success the
 * caller owns t, p and lft (free with ibu_ibft_free, ibu_lidplan_free,
 * ibu_lft_free); on failure nothing is left allocated.
 */
int ibu_cyclic_tables(const struct ibu_fabric *f, struct ibu_ibft *t,
		      struct ibu_lidplan *p, struct ibu_lft *lft,
		      struct ibu_err *e);

#endif
