/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * -o FILE / --output FILE for the commands whose output is a report on
 * standard output (check, diff, load, trace), as every infiniband-diags tool
 * writes to -o: the option is taken out of argv before the command parses
 * it, standard output is pointed at an unnamed spool file while the
 * command runs, and the report is written to FILE through lib/atomicfile
 * (temporary name, renamed into place) when the command ran (exit 0 or 1):
 * no file is created before the inputs were read, an interrupted run
 * leaves nothing behind, and a usage error or a run that could not finish
 * leaves the old file untouched.
 */
#ifndef IBU_REPORT_OUTPUT_H
#define IBU_REPORT_OUTPUT_H

#include "atomicfile.h"

struct ibu_report_output {
	struct ibu_atomicfile af;
	const char *path;	/* -o FILE; NULL or "-": stdout */
	FILE *spool;		/* unnamed file stdout points at, NULL none */
	int saved_fd;		/* the original standard output, -1 none */
};

/*
 * Removes -o FILE, -oFILE, --output FILE and --output=FILE (before any
 * "--") from argv, compacting it; *path is the last one given, NULL when
 * none. Returns the new argc, or -1 after a message when -o lacks FILE.
 */
int ibu_report_output_take(const char *cmd, int argc, char **argv,
			   const char **path);
/* Points standard output at the spool; -1 after a message. */
int ibu_report_output_begin(const char *cmd, const char *path,
			    struct ibu_report_output *r);
/* Restores standard output; commits the file when keep, else discards it.
 * Returns 0, or -1 after a message when the file could not be written. */
int ibu_report_output_end(const char *cmd, struct ibu_report_output *r,
			  int keep);

#endif
