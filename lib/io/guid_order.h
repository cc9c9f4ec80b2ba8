/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reader of OpenSM's guid_routing_order_file: port GUIDs, one a line, in
 * the order the admin wants the end ports numbered (the order MPI ranks
 * are placed in). Blank lines and '#' comments (a whole line, or after
 * the GUID) are skipped. A GUID is hex (0x optional, 1-16 digits); a GUID
 * twice, other text or a file without a GUID is an error naming
 * file:line.
 */
#ifndef IBU_GUID_ORDER_H
#define IBU_GUID_ORDER_H

#include <stdint.h>
#include <stdio.h>
#include "err.h"

struct ibu_guid_order {
	uint64_t *guid;		/* in file order */
	int num;
};

int ibu_guid_order_read(const char *path, struct ibu_guid_order *o,
			struct ibu_err *e);
int ibu_guid_order_read_stream(FILE *in, const char *name,
			       struct ibu_guid_order *o, struct ibu_err *e);
void ibu_guid_order_free(struct ibu_guid_order *o);

#endif
