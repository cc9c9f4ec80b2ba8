/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reader and writer of ibsim net files. The reader also accepts the topology
 * files ibnetdiscover writes (ibsim's format plus GUID directives and
 * "# ... lid N lmc L" comments), so a live fabric can be saved and checked.
 * GUIDs are assigned exactly as ibsim assigns them, so the model matches
 * what OpenSM sees when ibsim runs the same file.
 */
#ifndef IBU_NETFILE_H
#define IBU_NETFILE_H

#include <stdio.h>
#include "fabric.h"

/* Reads path into f (initialised here). Errors name path:line. */
int ibu_netfile_read(const char *path, struct ibu_fabric *f, struct ibu_err *e);
/* Same, from an open stream; name is used in messages. */
int ibu_netfile_read_stream(FILE *in, const char *name, struct ibu_fabric *f,
			    struct ibu_err *e);
/* Writes f as an ibsim net file, records in node order. */
int ibu_netfile_write(FILE *out, const struct ibu_fabric *f, struct ibu_err *e);

#endif
