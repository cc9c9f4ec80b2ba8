/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast forwarding tables of all switches of a fabric model: for every
 * MLID, a port mask (ports 0..254) per switch. Only MLIDs that some switch
 * holds are stored.
 *
 * Text form (read and written): the grid `dump_mfts` and `ibroute -M` print,
 *
 *   Multicast mlids [0xc000-0xc3ff] of switch <Lid N | DR path ..> guid 0x<G> (<name>):
 *        Ports: 0 1 2 3 4 ...
 *    MLid
 *   0xc001        x x
 *   1 valid mlids dumped
 *
 * where port i is column 12 + 2i ('x' = in the mask); switches with more
 * than 9 ports get an extra tens line above "Ports:". The `ibroute -M -n`
 * form (" MLid       Port Mask" then hex 16-bit words, ports 0-15 first) is
 * read too. Switches are matched to the fabric by node GUID.
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

/* Reads a dump_mfts / ibroute -M text. Switches are looked up by node GUID
 * in f (which must be indexed); a GUID not in f, or a second table of one
 * switch, is an error (file:line). */
int ibu_mft_read(const char *path, const struct ibu_fabric *f,
		 struct ibu_mft *t, struct ibu_err *e);
int ibu_mft_read_stream(FILE *in, const char *name,
			const struct ibu_fabric *f, struct ibu_mft *t,
			struct ibu_err *e);
/* 1 when the file's first table line is an MFT header ("Multicast mlids
 * ..."), 0 when it is something else, < 0 when it cannot be read. */
int ibu_mft_sniff(const char *path, struct ibu_err *e);
/* The same on the first bytes of a dump (IBU_MFT_SNIFF_BYTES are enough
 * unless a dump opens with that much noise). */
#define IBU_MFT_SNIFF_BYTES 65536
int ibu_mft_sniff_text(const char *buf, size_t len);
/* Adds to f one switch (IBU_MAX_PORTS ports, no links) for every MFT header
 * of the dump whose GUID f does not hold yet, named as the header names it:
 * the fabric two dumps are compared on when no fabric file is given.
 * Re-index f afterwards. */
int ibu_mft_add_switches(const char *path, struct ibu_fabric *f,
			 struct ibu_err *e);
int ibu_mft_add_switches_stream(FILE *in, const char *name,
				struct ibu_fabric *f, struct ibu_err *e);
/* Writes the dump_mfts grid for every switch of f, in node order. */
int ibu_mft_write(FILE *out, const struct ibu_fabric *f,
		  const struct ibu_mft *t, struct ibu_err *e);

#endif
