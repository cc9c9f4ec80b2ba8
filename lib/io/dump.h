/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * LFT dumps: what `dump_lfts`, `dump_fts` and `ibroute <lid>` print, and
 * OpenSM's opensm-lfts.dump.
 *
 *   Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (Switch1):
 *     Lid  Out   Destination
 *          Port     Info
 *   0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')
 *   0x0003 001 : (path #2 out of 2: portguid 0x0000000000100001)
 *   6 valid lids dumped
 *
 *   Unicast lids [0-11] of switch Lid 1 guid 0x0000000000200000 ('Switch1'):
 *   0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'Hca1'
 *   11 lids dumped
 *
 * A dump is read in two steps. ibu_dump_parse() needs no fabric: it keeps
 * every switch table and works out which port GUID owns which LIDs (a
 * "<type> portguid G: 'name'" line places the LID in G's LID set, a
 * "path #k out of N: portguid G" line fixes G's base LID to LID - k + 1 and
 * its LMC to log2(N); without such a line a port's LIDs form the smallest
 * aligned LMC set holding them, or exactly the 2^k consecutive LIDs seen);
 * conflicting ownership (a LID of two ports, overlapping sets, LIDs that
 * cannot be one set) is an error naming file:line. Sets stated explicitly
 * need not be aligned (the paper's exact numbering is not); the checks
 * report that.
 * ibu_dump_apply() then matches the tables and the owners to a fabric, writes
 * the dump's LIDs into the fabric's ports and fills an LFT.
 */
#ifndef IBU_DUMP_H
#define IBU_DUMP_H

#include <stdio.h>
#include "fabric.h"
#include "lft.h"
#include "progress.h"

/* One switch table of a dump. */
struct ibu_dump_switch {
	uint64_t guid;		/* node GUID from the header */
	char *name;		/* text in the header's parentheses, unquoted */
	uint16_t lid;		/* "Lid N" of the header, 0 for a DR path */
	int line;		/* line of the header */
	uint32_t top;		/* last LID of the header's range */
	uint32_t max_lid;	/* size of port[] - 1 */
	uint8_t *port;		/* [0..max_lid] out port, IBU_NO_PATH if absent */
	int max_port;		/* highest out port in the table */
	int max_port_line;	/* line of an entry using max_port */
};

/* One LID-owning port, as far as the dump tells. */
struct ibu_dump_port {
	uint64_t guid;		/* port GUID (node GUID for switches) */
	char *name;		/* node description from the dump, may be "" */
	enum ibu_node_type type;	/* 0 when the dump never said */
	uint16_t base;		/* base LID */
	uint8_t lmc;
	int explicit_set;	/* a "path #k out of N" line fixed base+lmc */
	int line;		/* first line naming this port */
};

struct ibu_dump {
	char *source;			/* file name, for messages */
	struct ibu_dump_switch *sw;	/* in file order */
	int num_switches;
	struct ibu_dump_port *port;	/* sorted by base LID */
	int num_ports;
	uint32_t max_lid;		/* highest LID in any table */
	int32_t *owner;			/* [0..max_lid] index into port[], -1 */
};

/* Parses a dump without a fabric ("-": standard input, so a dump can be
 * streamed from `ibunion route` or dump_lfts). Errors (IBU_EPARSE for
 * malformed lines, IBU_ELID for inconsistent LID ownership) name path:line. */
int ibu_dump_parse(const char *path, struct ibu_dump *d, struct ibu_err *e);
/* The same, reporting progress to pr (may be NULL) at every table. */
int ibu_dump_parse_progress(const char *path, struct ibu_dump *d,
			    const struct ibu_progress *pr, struct ibu_err *e);
int ibu_dump_parse_stream(FILE *in, const char *name, struct ibu_dump *d,
			  struct ibu_err *e);
void ibu_dump_free(struct ibu_dump *d);

/* Index of the table with this switch GUID, -1 if none. */
int ibu_dump_find_switch(const struct ibu_dump *d, uint64_t guid);

/*
 * Matches d to f: switch tables by GUID, else by name; LID owners by port
 * GUID, else by node name (switch: port 0; CA: its only cabled port).
 * Ports the dump names get the dump's base LID and LMC; other ports keep
 * their LID unless it collides with one of the dump's, then it is cleared.
 * lft is initialised here (ibu_lft_init to d->max_lid) and receives every
 * table. sw_node, if not NULL, receives d->num_switches fabric node indices.
 * A switch, port or out port the fabric does not have is an error naming
 * the dump's file:line.
 */
int ibu_dump_apply(const struct ibu_dump *d, struct ibu_fabric *f,
		   struct ibu_lft *lft, int *sw_node, struct ibu_err *e);

/* ibu_dump_parse() + ibu_dump_apply(). */
int ibu_dump_read_lfts(const char *path, struct ibu_fabric *f,
		       struct ibu_lft *lft, struct ibu_err *e);

/*
 * Writes every switch's table in dump_lfts format ("Lid <switch lid>" as the
 * header's address, one line per LID whose out port exists, destination
 * info as dump_fts prints it, "N valid lids dumped" trailer). Reading the
 * output back with the same fabric gives the same LFT and LIDs.
 */
int ibu_dump_write_lfts(FILE *out, const struct ibu_fabric *f,
			const struct ibu_lft *lft, struct ibu_err *e);
/* The same, reporting progress to pr (may be NULL) at every table. */
int ibu_dump_write_lfts_progress(FILE *out, const struct ibu_fabric *f,
				 const struct ibu_lft *lft,
				 const struct ibu_progress *pr,
				 struct ibu_err *e);

#endif
