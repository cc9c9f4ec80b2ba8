/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Small argument helpers shared by the subcommands. */
#ifndef IBU_OPTS_H
#define IBU_OPTS_H

#include <stdint.h>
#include <stdio.h>
#include "atomicfile.h"
#include "dump_scope.h"
#include "err.h"

/* Strict numbers: the whole text is one decimal integer or 0x hex
 * integer (no blanks, no '+', no octal, '-' only where lo < 0) within the
 * range; otherwise prints why to stderr and returns -1. */
int ibu_opt_int(const char *cmd, const char *what, const char *text, long lo,
		long hi, long *out);
int ibu_opt_u64(const char *cmd, const char *what, const char *text,
		uint64_t *out);
/* "ibunion <cmd>: <message>" for a lib error. */
void ibu_opt_report(const char *cmd, const struct ibu_err *e);
/* "-W- ibunion <cmd>: ..." on out when reading dump left part of the
 * fabric out (ibu_dump_scope(): cut off from OpenSM's subnet); nothing
 * otherwise. */
void ibu_opt_scope_note(FILE *out, const char *cmd, const char *dump,
			const struct ibu_dump_scope *left);
/* Output files go through lib/core/atomicfile: path ("-" or NULL = stdout) is
 * written under a temporary name and renamed by ibu_opt_out_close(). Both
 * print "ibunion <cmd>: <why>" on failure and return -1 (exit 3). */
int ibu_opt_out_open(const char *cmd, const char *path,
		     struct ibu_atomicfile *af);
/* wrc is the writer's result: 0 commits (flush, fsync, fclose, rename);
 * otherwise the temporary file is removed and the target left as it was.
 * Prints the reason (the system's for a failed write, else e's message).
 * Returns 0 only for a committed file. */
int ibu_opt_out_close(const char *cmd, struct ibu_atomicfile *af, int wrc,
		      const struct ibu_err *e);

/*
 * Every output file of the tool: lib/core/atomicfile with the tool's policy.
 * A symbolic link given as the name is replaced, never its target, unless
 * --replace-link-target was given (ibu_out_replace_link_target(1)); the
 * temporary file is removed if SIGINT or SIGTERM ends the run before the
 * commit or abort.
 */
void ibu_out_replace_link_target(int yes);
int ibu_out_open(struct ibu_atomicfile *af, const char *path,
		 struct ibu_err *e);
int ibu_out_commit(struct ibu_atomicfile *af, struct ibu_err *e);
void ibu_out_abort(struct ibu_atomicfile *af);

/*
 * Takes an option with a value out of argv (before any "--"), for the
 * options main() handles for every command: short ("-o FILE", "-oFILE";
 * NULL: none) and long ("--output FILE", "--output=FILE"). argv is
 * compacted; *val is the last value given, NULL when none. Returns the new
 * argc, or -1 after "ibunion CMD: OPT needs a value".
 */
int ibu_opt_take(const char *cmd, int argc, char **argv, const char *shopt,
		 const char *lopt, const char **val);

#endif
