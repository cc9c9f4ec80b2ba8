/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Multicast forwarding tables (lib/core/mft.h) as text.
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
#ifndef IBU_MFT_DUMP_H
#define IBU_MFT_DUMP_H

#include <stdio.h>
#include "mft.h"

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
