/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Gathering each destination's arrivals on a damaged 2-level PGFT
 * (pgft_gather.c), on the shift pass's state before it lowers the worst
 * shift.
 */
#ifndef IBU_PGFT_GATHER_H
#define IBU_PGFT_GATHER_H

#include "pgft_shift.h"

/* A source leaf's entry of a destination moved to the spine most source
 * leaves use for it, under the all-to-all's busiest (sp->cap) and the
 * up-cables' destination counts; kept only where the worst shift is no
 * higher and the eBB estimate no lower, the shift loads measured again.
 * 0, or < 0 an error (in sp->e). */
int ibu__pgft_gather(struct shp *sp);

#endif
