/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast forwarding tables of all switches of a fabric model: for every
 * MLID, a port mask (ports 0..254) per switch. Only MLIDs that some switch
 * holds are stored.
 *
 * Their text form (dump_mfts) is read and written by lib/io/mft_dump.h.
 */
#ifndef IBU_MFT_H
#define IBU_MFT_H

#include <stdio.h>
#include "fabric.h"

#define IBU_MAX_MLID 0xFFFE

/* Ports 0..255 of one switch. */
struct ibu_portmask {
	uint64_t w[4];
};

static inline void ibu_pm_set(struct ibu_portmask *m, int port)
{
	m->w[(port >> 6) & 3] |= 1ULL << (port & 63);
}

static inline void ibu_pm_clear(struct ibu_portmask *m, int port)
{
	m->w[(port >> 6) & 3] &= ~(1ULL << (port & 63));
}

static inline int ibu_pm_test(const struct ibu_portmask *m, int port)
{
	return port >= 0 && port < 256 &&
	       ((m->w[port >> 6] >> (port & 63)) & 1);
}

static inline int ibu_pm_empty(const struct ibu_portmask *m)
{
	return !(m->w[0] | m->w[1] | m->w[2] | m->w[3]);
}

/* Number of ports in the mask. */
int ibu_pm_count(const struct ibu_portmask *m);

struct ibu_mft_group {
	uint16_t mlid;
	struct ibu_portmask *mask;	/* [fabric node]; zero for non-switches */
};

struct ibu_mft {
	int num_nodes;
	int num_groups, cap_groups;
	struct ibu_mft_group *g;	/* sorted by MLID */
	uint8_t *dumped;		/* [node] the dump held a table for it */
};

int ibu_mft_init(struct ibu_mft *t, int num_nodes, struct ibu_err *e);
void ibu_mft_free(struct ibu_mft *t);

/* Index of the group of mlid in t->g, -1 if no switch holds it. */
int ibu_mft_find(const struct ibu_mft *t, uint16_t mlid);
/* Mask of mlid at node, NULL when absent (no switch holds mlid). */
const struct ibu_portmask *ibu_mft_get(const struct ibu_mft *t, uint16_t mlid,
				       int node);
/* Group of mlid, created (empty) when missing; NULL only on ENOMEM/EINVAL. */
struct ibu_mft_group *ibu_mft_group(struct ibu_mft *t, uint16_t mlid,
				    struct ibu_err *e);
/* Adds port to the mask of mlid at node. */
int ibu_mft_set(struct ibu_mft *t, uint16_t mlid, int node, int port,
		struct ibu_err *e);
/* Drops the whole MLID from every switch. */
void ibu_mft_clear_mlid(struct ibu_mft *t, uint16_t mlid);
/* Does any switch forward mlid anywhere? */
int ibu_mft_group_empty(const struct ibu_mft *t, int gi);

#endif
