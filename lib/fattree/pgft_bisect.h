/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The effective bisection bandwidth of the router's current tables
 * ([Hoefler08], ORCS), estimated on a fixed sample of random bisections:
 * each bisection a seeded shuffle of the compute hosts, its first half
 * paired with its second, both ways (as `ibunion load --pattern ebb`
 * pairs them); each flow (source leaf to the destination's base LID over
 * switch-to-switch cables) gets 1 / the load of the busiest cable of its
 * path, and the estimate is the mean over flows and bisections. The
 * sample depends only on the host count and the seed, never on the
 * tables, so before and after a change see the same pairs. Used by the
 * passes that must not cost the bisection bandwidth (pgft_shed.c,
 * pgft_shift.c) and by the one that raises it (pgft_ebb.c).
 */
#ifndef IBU_PGFT_BISECT_H
#define IBU_PGFT_BISECT_H

#include <stdint.h>
#include "pgft_router.h"

/* Bisections the passes sample (the estimate moves by well under 0.5%
 * between seeds at 64 and more on 512 hosts). */
#define IBU__BISECT_SAMPLES 100
/* The passes' sample's seed (not the league's: tuned on its own). */
#define IBU__BISECT_SEED 0x6b1d5ec7ull

struct ibu__bisect {
	int N, nb;		/* compute hosts, bisections */
	int *to;		/* [b N + S]: S's partner in bisection b, -1 */
	uint32_t *load;		/* [pbase + port]: scratch, left 0 */
	int *touch, ntouch;	/* its cables in use */
};

/* nb bisections of r's compute hosts drawn from seed. */
int ibu__bisect_init(struct ibu__bisect *b, const struct router *r, int nb,
		     uint64_t seed, struct ibu_err *e);
void ibu__bisect_free(struct ibu__bisect *b);
/* The cables (slots) from switch s toward lid as the tables hold them,
 * up to max; how many, -1 when the walk ends nowhere (unrouted). */
int ibu__bisect_walk(const struct router *r, int s, uint32_t lid, int *slots,
		     int max);
/* Hops a walk follows at most. */
#define IBU__BISECT_HOPS (4 * IBU_PGFT_MAX_H + 4)
/* The base LID of compute host D, 0 when it has none in the tables. */
uint32_t ibu__bisect_lid(const struct router *r, int D);
/* Bisection k's sum over its flows of 1 / their busiest cable. */
double ibu__bisect_one(struct ibu__bisect *b, const struct router *r, int k);
/* The estimate: mean flow bandwidth over every bisection (0 below two
 * hosts). */
double ibu__bisect_ebb(struct ibu__bisect *b, const struct router *r);

#endif
