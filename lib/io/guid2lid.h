/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reader of OpenSM's guid2lid file ($OSM_CACHE_DIR/guid2lid), the file
 * `ibunion lids` writes (ibu_guid2lid_write()):
 *
 *   0x0000000000100001 0x0004 0x0007
 *   <blank line>
 *
 * one record per port GUID: the first and last LID of its LID set. Blank
 * lines and '#' comments are skipped. Every record is checked: numbers are
 * whole (hex 0x.. or decimal), 1 <= first <= last <= 0xBFFF, the set holds
 * 2^k LIDs (k <= 7), no port GUID and no LID appears twice; an error names
 * file:line of the offending record. A file without a record is an error.
 */
#ifndef IBU_GUID2LID_H
#define IBU_GUID2LID_H

#include <stdint.h>
#include <stdio.h>
#include "err.h"
#include "fabric.h"

struct ibu_guid2lid_rec {
	uint64_t guid;
	uint16_t min, max;
	int line;
};

struct ibu_guid2lid {
	struct ibu_guid2lid_rec *rec;	/* in file order */
	int num, cap;
};

int ibu_guid2lid_read(const char *path, struct ibu_guid2lid *g,
		      struct ibu_err *e);
int ibu_guid2lid_read_stream(FILE *in, const char *name,
			     struct ibu_guid2lid *g, struct ibu_err *e);
void ibu_guid2lid_free(struct ibu_guid2lid *g);
/* OpenSM guid2lid records ("0xGUID 0xMIN 0xMAX" + blank line) for every
 * port of f that has a LID; IBU_EIO on a write error. */
int ibu_guid2lid_write(FILE *out, const struct ibu_fabric *f,
		       struct ibu_err *e);

#endif
