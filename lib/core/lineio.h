/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Line reading shared by every text reader in lib/: one line at a time,
 * counted, with the trailing "\n" / "\r\n" removed. A line longer than
 * IBU_LINE_MAX bytes is a parse error naming file:line. A NUL byte inside a
 * line is a parse error naming file:line (C string functions would
 * otherwise see a shorter line than the file holds), and a read error is
 * an I/O error, so no reader mistakes a damaged file for a short one.
 */
#ifndef IBU_LINEIO_H
#define IBU_LINEIO_H

#include <stdio.h>
#include "err.h"

/* The longest line any format has is a few KB (an MFT grid of 254 ports);
 * a longer one is an error, so a file without newlines cannot grow the
 * buffer without limit. */
#define IBU_LINE_MAX (1 << 20)

struct ibu_lines {
	FILE *in;
	const char *name;	/* for messages */
	char *line;		/* the current line, NUL-terminated */
	size_t cap;
	size_t len;		/* strlen(line) */
	int lineno;		/* 1-based number of the current line */
};

void ibu_lines_init(struct ibu_lines *l, FILE *in, const char *name);
/* 1: a line is in l->line; 0: end of file; < 0: IBU_EPARSE (NUL byte),
 * IBU_EIO (read error) or IBU_ENOMEM, with the message in e. */
int ibu_lines_next(struct ibu_lines *l, struct ibu_err *e);
void ibu_lines_free(struct ibu_lines *l);

#endif
