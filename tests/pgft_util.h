/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A recognised PGFT with LIDs and tables, shared by the PGFT unit tests. */
#ifndef IBU_TEST_PGFT_UTIL_H
#define IBU_TEST_PGFT_UTIL_H

#include "unit.h"
#include "pgft.h"
#include "lft.h"
#include "lidmap.h"

struct fixture {
	struct ibu_fabric f;
	struct ibu_pgft g;
	struct ibu_lidmap map;
	struct ibu_lft lft;
	int lmc;
};

/* x->g recognised: LIDs at the largest LMC up to the scheme's that fits,
 * the LID map and the generalised rule's tables. */
static inline void pgft_lids_and_route(struct fixture *x)
{
	struct ibu_err e = { 0 };
	int used = ibu_pgft_fit_lmc(&x->g, ibu_pgft_needed_lmc(&x->g));

	ck_assert_int_ge(used, 0);
	ck_assert_int_eq(ibu_pgft_assign_lids(&x->f, &x->g, used, &e), 0);
	x->lmc = used;
	ck_assert_int_eq(ibu_lidmap_build(&x->f, &x->map, &e), 0);
	ck_assert_msg(ibu_pgft_route(&x->f, &x->g, &x->map, used, &x->lft, &e) == 0,
		      "%s", e.msg);
}

static inline void pgft_fixture_free(struct fixture *x)
{
	ibu_lft_free(&x->lft);
	ibu_lidmap_free(&x->map);
	ibu_pgft_free(&x->g);
	ibu_fabric_free(&x->f);
}

#endif
