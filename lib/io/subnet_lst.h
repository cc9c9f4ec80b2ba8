/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reader of OpenSM's opensm-subnet.lst (written to OSM_TMP_DIR after a
 * sweep): one line per direction of every link,
 *
 *   { SW Ports:08 SystemGUID:.. NodeGUID:.. PortGUID:.. VenID:.. DevID:..
 *     Rev:.. {description} LID:0020 PN:01 } { CA ... PN:01 } PHY=4x ...
 *
 * (type SW, CA, CA-SM or Rt; LIDs and GUIDs in hex; a switch's LID is its
 * port 0's). The file carries no LMC: ports get LMC 0 (take the LIDs of a
 * dump with `--lids-from` when the LMC matters).
 */
#ifndef IBU_SUBNET_LST_H
#define IBU_SUBNET_LST_H

#include <stdio.h>
#include "fabric.h"

/* Does this first non-blank line look like opensm-subnet.lst? */
int ibu_subnet_lst_sniff(const char *line);
/* Reads path into f (initialised here). Errors name path:line. */
int ibu_subnet_lst_read(const char *path, struct ibu_fabric *f,
			struct ibu_err *e);
int ibu_subnet_lst_read_stream(FILE *in, const char *name,
			       struct ibu_fabric *f, struct ibu_err *e);

#endif
