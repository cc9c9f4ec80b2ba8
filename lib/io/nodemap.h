/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Node name maps, the file infiniband-diags tools (ibnetdiscover, ibroute,
 * ibtracert, saquery ... --node-name-map) read: one node per line,
 *
 *   # comment
 *   0x0002c90300001234 "leaf-01 (rack 3)"
 *   0x0002c90300005678 spine-02
 *
 * a node GUID, then its name (quoted, or the rest of the line). Applied to
 * a fabric it renames the nodes whose node GUID it lists; GUIDs of other
 * fabrics are ignored, as the diags tools do.
 */
#ifndef IBU_NODEMAP_H
#define IBU_NODEMAP_H

#include <stdio.h>
#include "fabric.h"

/* Renames f's nodes; *renamed (may be NULL) gets how many. Errors name
 * file:line (a bad GUID, an unclosed quote, an empty name). */
int ibu_nodemap_apply_stream(FILE *in, const char *name, struct ibu_fabric *f,
			     int *renamed, struct ibu_err *e);
int ibu_nodemap_apply(const char *path, struct ibu_fabric *f, int *renamed,
		      struct ibu_err *e);

#endif
