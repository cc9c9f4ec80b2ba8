/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * An IBFT's tables from the PGFT router with the paper's labels
 * (ibu_cyclic_pgft_route_paper): with IBU_OFFSETS_PAPER what the engine
 * writes with offsets=paper; with IBU_OFFSETS_ROTATED lib/fattree/cyclic.h's
 * rotated rule in the paper's port order. lft: ibu_lft_init'ed by the
 * caller; st may be NULL.
 */
#ifndef IBU_TEST_CYCLIC_UTIL_H
#define IBU_TEST_CYCLIC_UTIL_H

#include "cyclic.h"
#include "cyclic_pgft.h"

static inline int cyclic_route_st(const struct ibu_fabric *f,
				  const struct ibu_ibft *t,
				  const struct ibu_lidplan *p,
				  enum ibu_cyclic_offsets mode,
				  struct ibu_lft *lft,
				  struct ibu_pgft_route_stats *st,
				  struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c;
	int rc = ibu_cyclic_pgft_recognise(f, NULL, 0, 1 << 20,
					   mode == IBU_OFFSETS_ROTATED ?
					   IBU_CYCLIC_PAPER_ROTATED :
					   IBU_CYCLIC_PAPER, &c, e);

	(void)t;
	if (rc)
		return rc;
	rc = c->paper ? ibu_pgft_route_paper(f, &c->g, &p->map, p->lmc,
					     c->paper, lft, &c->st, e) :
	     ibu_err_set(e, IBU_ETOPO, "no paper labels");
	if (st)
		*st = c->st;
	ibu_cyclic_pgft_free(c);
	return rc;
}

static inline int cyclic_route(const struct ibu_fabric *f,
			       const struct ibu_ibft *t,
			       const struct ibu_lidplan *p,
			       enum ibu_cyclic_offsets mode,
			       struct ibu_lft *lft, struct ibu_err *e)
{
	return cyclic_route_st(f, t, p, mode, lft, NULL, e);
}

#endif
