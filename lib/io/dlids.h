/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * DLID pairs: "0xSLID 0xDLID" lines, one per ordered pair of end ports,
 * as `ibunion path --format pairs` writes them: the destination LID a
 * source (named by its base LID) puts into its address handle / QP path
 * toward a destination. '#' starts a comment; blank lines are ignored.
 * Parsed without a fabric (LIDs only), so every bad line is reported as
 * "file:line: problem".
 */
#ifndef IBU_DLIDS_H
#define IBU_DLIDS_H

#include <stdint.h>
#include <stdio.h>
#include "err.h"

struct ibu_dlid_pair {
	uint16_t slid, dlid;
	int line;		/* source line, for messages */
};

struct ibu_dlid_pairs {
	struct ibu_dlid_pair *pair;
	long num, cap;
	char *source;		/* file name, for messages */
};

/* Reads every pair of a stream / file; nothing stays allocated on error. */
int ibu_dlid_pairs_read_stream(FILE *in, const char *name,
			       struct ibu_dlid_pairs *p, struct ibu_err *e);
int ibu_dlid_pairs_read(const char *path, struct ibu_dlid_pairs *p,
			struct ibu_err *e);
void ibu_dlid_pairs_free(struct ibu_dlid_pairs *p);

/* One line "0xSLID 0xDLID\n" (4 hex digits each). IBU_EIO on error. */
int ibu_dlid_pair_write(FILE *out, uint16_t slid, uint16_t dlid,
			struct ibu_err *e);

#endif
