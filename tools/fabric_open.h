/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One entry point for every subcommand's FABRIC argument, the format
 * detected from the content:
 *   - ibsim net files and `ibnetdiscover` text output (lib/io/netfile.c);
 *   - OpenSM's opensm-subnet.lst (lib/io/subnet_lst.c; no LMC in it);
 *   - `ibnetdiscover --cache` files (binary), read by lib/io/ibnd_cache.c, our
 *     own bounded reader (libibnetdisc's loader trusts the file: a damaged
 *     count or LMC made it loop while its memory grew without limit).
 */
#ifndef IBU_FABRIC_OPEN_H
#define IBU_FABRIC_OPEN_H

#include "fabric.h"

enum ibu_fabric_format {
	IBU_FABRIC_NETFILE,		/* net file or ibnetdiscover text */
	IBU_FABRIC_SUBNET_LST,
	IBU_FABRIC_IBND_CACHE,
};

/* Reads path into f (initialised here); *fmt (may be NULL) gets the
 * format. Errors name the file (and line for text formats). */
int ibu_fabric_open(const char *path, struct ibu_fabric *f,
		    enum ibu_fabric_format *fmt, struct ibu_err *e);
/* n independent models f[0..n-1] of path, which is read once (a pipe
 * can be read only once); on failure none is left allocated. */
int ibu_fabric_open_n(const char *path, struct ibu_fabric *f, int n,
		      enum ibu_fabric_format *fmt, struct ibu_err *e);
const char *ibu_fabric_format_name(enum ibu_fabric_format fmt);
/* --node-name-map FILE (infiniband-diags' format, lib/io/nodemap.h): every
 * fabric ibu_fabric_open() reads from then on has its nodes renamed. The
 * option is global to a run (main() takes it for every command), hence a
 * setting here rather than an argument of every command's reader. */
void ibu_fabric_open_name_map(const char *path);

struct ibnd_fabric;
/* A libibnetdisc fabric (discovered live; caches are read by
 * lib/io/ibnd_cache.c, never loaded through libibnetdisc) as a
 * model: node i is the i-th node of fab->nodes; source names it. */
int ibu_fabric_from_ibnd(struct ibnd_fabric *fab, const char *source,
			 struct ibu_fabric *f, struct ibu_err *e);

#endif
