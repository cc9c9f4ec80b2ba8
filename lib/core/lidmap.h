/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The LID map: which port owns each unicast LID a fabric's ports carry,
 * and at which offset inside the port's 2^LMC set. Topology-neutral: every
 * engine, the dump writer and the validators read LIDs through it.
 */
#ifndef IBU_LIDMAP_H
#define IBU_LIDMAP_H

#include "fabric.h"

/* LMC is 3 bits (IBA 7.11.1) */
#define IBU_MAX_LMC 7

struct ibu_lid_owner {
	int32_t node;		/* fabric node, -1 = LID not assigned */
	int16_t port;		/* physical port of the end port, 0 for a switch */
	uint8_t offset;		/* LID - base LID, inside the port's LMC set */
};

struct ibu_lidmap {
	uint32_t max_lid;		/* highest LID any port holds */
	struct ibu_lid_owner *owner;	/* [0..max_lid] */
};

/*
 * Builds the map from the LIDs present in f (OpenSM's, a dump's or a
 * plan's). IBU_ELID when two ports claim one LID or a LID is beyond the
 * unicast space; nothing stays allocated on failure.
 */
int ibu_lidmap_build(const struct ibu_fabric *f, struct ibu_lidmap *m,
		     struct ibu_err *e);
void ibu_lidmap_free(struct ibu_lidmap *m);

/* Owner of lid, or NULL when no port holds it. */
static inline const struct ibu_lid_owner *
ibu_lidmap_get(const struct ibu_lidmap *m, uint32_t lid)
{
	if (lid > m->max_lid || m->owner[lid].node < 0)
		return NULL;
	return &m->owner[lid];
}

#endif
