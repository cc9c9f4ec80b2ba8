/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The cyclic engine's one path (lib/fattree/cyclic_pgft.h) as the IBFT
 * tests read it:
 *  - the LID plan: LMC in use, what the paper needs, the offset digits and
 *    the LID owners (lidplan_build), the paper's LIDs (paper_lids: through
 *    ibu_cyclic_pgft_assign_lids, as `ibunion lids` writes them);
 *  - the tables (cyclic_route): with IBU_OFFSETS_PAPER what the engine
 *    writes with offsets=paper; with IBU_OFFSETS_ROTATED lib/fattree/cyclic.h's
 *    rotated rule in the paper's port order (lft: ibu_lft_init'ed by the
 *    caller; st may be NULL);
 *  - the paper's equations on the labels of tests/ibft_view.h, written
 *    independently of the router
 *    (cyclic_up_digit, cyclic_paper_port, cyclic_offset,
 *    cyclic_turn_switch: lib/fattree/cyclic.h's rule, written out);
 *  - an IBFT generated, labelled, given LIDs and routed in one call
 *    (struct ibft_routed: ibft_route, ibft_route_mode, ibft_unroute).
 */
#ifndef IBU_TEST_CYCLIC_UTIL_H
#define IBU_TEST_CYCLIC_UTIL_H

#include <string.h>
#include "cyclic.h"
#include "cyclic_pgft.h"
#include "ibft_view.h"
#include "lidmap.h"
#include "pgft_verify.h"
#include "gen.h"
#include "unit.h"

struct lidplan {
	int lmc_needed;		/* ceil(log2((m/2)^(n-1))), may exceed 7 */
	int lmc;		/* smallest LMC of the tree's end ports */
	int offset_digits;	/* up levels the LID offset decides */
	struct ibu_lidmap map;	/* owner and offset of every LID */
};

enum lid_numbering {
	LIDS_PAPER_EXACT,	/* BaseLID = 2^lmc PID + 1 (the paper's) */
	LIDS_ALIGNED,		/* 2^lmc (PID + 1), as OpenSM takes them */
};

/* An IBFT(m,n)'s PGFT parameters (no fabric). */
static inline struct ibu_pgft ibft_params(int m, int n)
{
	struct ibu_pgft g;
	int l;

	memset(&g, 0, sizeof(g));
	g.P.h = n;
	for (l = 1; l <= n; l++) {
		g.P.m[l] = l < n ? m / 2 : m;
		g.P.w[l] = l > 1 ? m / 2 : 1;
		g.P.p[l] = 1;
	}
	return g;
}

static inline int needed_lmc(int m, int n)
{
	struct ibu_pgft g = ibft_params(m, n);

	return ibu_pgft_needed_lmc(&g);
}

static inline int offset_digits(int half, int n, int lmc)
{
	struct ibu_pgft g = ibft_params(2 * half, n);

	return ibu_pgft_offset_levels(&g, lmc);
}

static inline uint32_t paper_base(uint32_t pid, int lmc, enum lid_numbering how)
{
	return how == LIDS_PAPER_EXACT ? (pid << lmc) + 1 : (pid + 1) << lmc;
}

/* The tree as the engine recognises it (the paper's rule: an IBFT's
 * labels and LIDs, degraded too). */
static inline int one_path(const struct ibu_fabric *f,
			   enum ibu_cyclic_rule_kind rule,
			   struct ibu_cyclic_pgft **c, struct ibu_err *e)
{
	return ibu_cyclic_pgft_recognise(f, NULL, 0, 1 << 20, rule, c, e);
}

static inline int lidplan_build(const struct ibu_fabric *f,
				struct lidplan *p, struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c;
	int rc = one_path(f, IBU_CYCLIC_GENERALISED, &c, e);

	memset(p, 0, sizeof(*p));
	if (rc)
		return rc;
	p->lmc = ibu_pgft_hosts_lmc(f, &c->g);
	p->lmc_needed = ibu_pgft_needed_lmc(&c->g);
	p->offset_digits = ibu_pgft_offset_levels(&c->g, p->lmc);
	ibu_cyclic_pgft_free(c);
	return ibu_lidmap_build(f, &p->map, e);
}

static inline void lidplan_free(struct lidplan *p)
{
	ibu_lidmap_free(&p->map);
	memset(p, 0, sizeof(*p));
}

static inline int paper_lids(struct ibu_fabric *f, int lmc,
			     enum lid_numbering how, struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c;
	int rc, used;

	if (lmc < 0 || lmc > IBU_MAX_LMC)
		return ibu_err_set(e, IBU_EINVAL, "LMC %d is outside 0..7", lmc);
	rc = one_path(f, IBU_CYCLIC_PAPER, &c, e);
	if (rc)
		return rc;
	rc = ibu_cyclic_pgft_assign_lids(f, c, lmc, how == LIDS_PAPER_EXACT,
					 &used, e);
	ibu_cyclic_pgft_free(c);
	return rc;
}

static inline int cyclic_route_st(const struct ibu_fabric *f,
				  const struct lidplan *p,
				  enum ibu_cyclic_offsets mode,
				  struct ibu_lft *lft,
				  struct ibu_pgft_route_stats *st,
				  struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c;
	int rc = one_path(f, mode == IBU_OFFSETS_ROTATED ?
			  IBU_CYCLIC_PAPER_ROTATED : IBU_CYCLIC_PAPER, &c, e);

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
			       const struct lidplan *p,
			       enum ibu_cyclic_offsets mode,
			       struct ibu_lft *lft, struct ibu_err *e)
{
	return cyclic_route_st(f, p, mode, lft, NULL, e);
}

/* r_l(D): what the destination adds to the offset digit at level l. */
static inline int cyclic_rotation(enum ibu_cyclic_offsets mode,
				  const uint8_t *dst, int level)
{
	return mode == IBU_OFFSETS_PAPER ? 0 : dst[level];
}

/* Up-digit u_l (level l = 1..n-1) for destination pid, LID offset o. */
static inline int cyclic_up_digit(const struct ibft_view *t, int offset_digits,
				  enum ibu_cyclic_offsets mode, int level,
				  uint32_t pid, unsigned offset)
{
	const uint8_t *p = t->ep[pid].p;
	int j = t->n - 1 - level, i;

	if (j < offset_digits) {
		for (i = 0; i < j; i++)
			offset /= (unsigned)t->half;
		return (int)((offset % (unsigned)t->half +
			      (unsigned)cyclic_rotation(mode, p, level)) %
			     (unsigned)t->half);
	}
	return p[level];	/* LMC set too small: D-mod-k */
}

/* Paper port (1..m) at switch sw for destination (pid, offset). */
static inline int cyclic_paper_port(const struct ibft_view *t, int offset_digits,
				    enum ibu_cyclic_offsets mode, int sw,
				    uint32_t pid, unsigned offset)
{
	int l = t->sw[sw].level;

	if (l == 0 || ibft_view_below(t, sw, (int)pid))
		return t->ep[pid].p[l] + 1;				/* Eq. 1 */
	return t->half + 1 + cyclic_up_digit(t, offset_digits, mode, l, pid,
					     offset);			/* Eq. 2 */
}

/* The offset that gives src one climbing chain (ibu_cyclic_label_offset). */
static inline unsigned cyclic_offset(const struct ibft_view *t, int offset_digits,
				     enum ibu_cyclic_offsets mode,
				     uint32_t src_pid, uint32_t dst_pid)
{
	return ibu_cyclic_label_offset(t->half, t->n, offset_digits, mode,
				       t->ep[src_pid].p, t->ep[dst_pid].p);
}

/* A_lca = SW<s0 .. s(lca-1) u(n-1) .. u(lca+1), lca>: where src's route
 * toward (dst, offset) stops climbing. */
static inline int cyclic_turn_switch(const struct ibft_view *t, int offset_digits,
				     enum ibu_cyclic_offsets mode,
				     uint32_t src_pid, uint32_t dst_pid,
				     unsigned offset)
{
	const uint8_t *s = t->ep[src_pid].p;
	uint8_t w[IBFT_VIEW_MAX_N];
	int lca = ibft_view_lca_level(t, (int)src_pid, (int)dst_pid), l, i = 0;

	for (l = 0; l < lca; l++)
		w[i++] = s[l];
	for (l = t->n - 1; l > lca; l--)
		w[i++] = (uint8_t)cyclic_up_digit(t, offset_digits, mode, l,
						  dst_pid, offset);
	return ibft_view_find_switch(t, lca, w);
}

/* An IBFT(m,n) generated (o), its labels (t), the paper's LIDs at lmc
 * (how), the LID plan and the tables of the rule mode, as the engine
 * writes them. */
struct ibft_routed {
	struct ibu_fabric f;
	struct ibft_view t;
	struct lidplan p;
	struct ibu_lft lft;
	enum ibu_cyclic_offsets mode;
};

static inline void ibft_route_mode(struct ibft_routed *r, int m, int n,
				   int lmc, enum lid_numbering how,
				   const struct ibu_gen_opts *o,
				   enum ibu_cyclic_offsets mode)
{
	struct ibu_err e = { 0 };

	r->mode = mode;
	ck_assert_int_eq(ibu_gen_fattree(&r->f, m, n, o, &e), 0);
	ck_assert_msg(ibft_view_recognize(&r->f, &r->t, &e) == 0, "%s", e.msg);
	ck_assert_msg(paper_lids(&r->f, lmc, how, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(lidplan_build(&r->f, &r->p, &e), 0);
	ck_assert_int_eq(ibu_lft_init(&r->lft, &r->f, r->p.map.max_lid, &e), 0);
	ck_assert_msg(cyclic_route(&r->f, &r->p, mode, &r->lft,
				       &e) == 0, "%s", e.msg);
}

/* The paper's own rule (offsets=paper), as every worked example uses. */
static inline void ibft_route(struct ibft_routed *r, int m, int n, int lmc,
			      enum lid_numbering how,
			      const struct ibu_gen_opts *o)
{
	ibft_route_mode(r, m, n, lmc, how, o, IBU_OFFSETS_PAPER);
}

static inline void ibft_unroute(struct ibft_routed *r)
{
	ibu_lft_free(&r->lft);
	lidplan_free(&r->p);
	ibft_view_free(&r->t);
	ibu_fabric_free(&r->f);
}

#endif
