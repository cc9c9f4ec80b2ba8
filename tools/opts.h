/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Small argument helpers shared by the subcommands. */
#ifndef IBU_OPTS_H
#define IBU_OPTS_H

#include <stdint.h>
#include <stdio.h>
#include "err.h"

/* Parses a whole decimal/hex integer in [lo, hi]; prints why not to stderr. */
int ibu_opt_int(const char *cmd, const char *what, const char *text, long lo,
		long hi, long *out);
int ibu_opt_u64(const char *cmd, const char *what, const char *text,
		uint64_t *out);
/* "ibunion <cmd>: <message>" for a lib error. */
void ibu_opt_report(const char *cmd, const struct ibu_err *e);
/* Opens path for writing, "-" or NULL meaning stdout. */
FILE *ibu_opt_open_out(const char *cmd, const char *path);
void ibu_opt_close_out(FILE *f);

#endif
