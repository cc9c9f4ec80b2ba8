/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast group membership: for each MLID, its member ports and whether
 * each one receives (full member) or only sends. Read from and written to a
 * small text file, one member per line:
 *
 *   # MLID   member                 [port=N] [full|send-only]
 *   0xc001   0x0000000000100002     full
 *   0xc001   hca-000                send-only
 *
 * A member is a port GUID (0x...; a switch's node GUID means its port 0) or
 * a node name (a CA's port 1 unless port=N is given; a switch's port 0).
 * The join state defaults to full. Repeated lines merge (full wins).
 */
#ifndef IBU_MCMEMBERS_H
#define IBU_MCMEMBERS_H

#include <stdio.h>
#include "fabric.h"
#include "mcgroup.h"

struct ibu_mcgroup {
	uint16_t mlid;
	int num, cap;
	struct ibu_mcast_member *m;
};

struct ibu_mcmembers {
	int num_groups, cap_groups;
	struct ibu_mcgroup *g;		/* sorted by MLID */
};

void ibu_mcmembers_init(struct ibu_mcmembers *mm);
void ibu_mcmembers_free(struct ibu_mcmembers *mm);
/* Group of mlid, NULL if it has no member. */
const struct ibu_mcgroup *ibu_mcmembers_find(const struct ibu_mcmembers *mm,
					     uint16_t mlid);
/* Adds a member (merging a repeated port: receiving wins). */
int ibu_mcmembers_add(struct ibu_mcmembers *mm, uint16_t mlid,
		      const struct ibu_mcast_member *m, struct ibu_err *e);

/* f must be indexed. Errors name path:line. */
int ibu_mcmembers_read(const char *path, const struct ibu_fabric *f,
		       struct ibu_mcmembers *mm, struct ibu_err *e);
int ibu_mcmembers_read_stream(FILE *in, const char *name,
			      const struct ibu_fabric *f,
			      struct ibu_mcmembers *mm, struct ibu_err *e);
/* Writes mm with port GUIDs and node names as comments. */
int ibu_mcmembers_write(FILE *out, const struct ibu_fabric *f,
			const struct ibu_mcmembers *mm, struct ibu_err *e);

#endif
