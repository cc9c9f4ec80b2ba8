/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The shapes `ibunion gen` builds for the cyclic engine: fattree, pgft. */
#ifndef IBU_CYCLIC_GEN_H
#define IBU_CYCLIC_GEN_H

#include "engine.h"

#define IBU_CYCLIC_NUM_GEN 3
extern const struct ibu_engine_gen ibu_cyclic_gen[IBU_CYCLIC_NUM_GEN];

#endif
