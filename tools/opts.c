/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

int ibu_opt_int(const char *cmd, const char *what, const char *text, long lo,
		long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = text ? strtol(text, &end, 0) : 0;
	if (!text || !*text || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "ibunion %s: %s must be an integer in %ld..%ld, not '%s'\n",
			cmd, what, lo, hi, text ? text : "");
		return -1;
	}
	*out = v;
	return 0;
}

int ibu_opt_u64(const char *cmd, const char *what, const char *text,
		uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = text ? strtoull(text, &end, 0) : 0;
	if (!text || !*text || *end || errno) {
		fprintf(stderr, "ibunion %s: %s must be an unsigned integer, not '%s'\n",
			cmd, what, text ? text : "");
		return -1;
	}
	*out = v;
	return 0;
}

void ibu_opt_report(const char *cmd, const struct ibu_err *e)
{
	fprintf(stderr, "ibunion %s: %s\n", cmd,
		e->msg[0] ? e->msg : ibu_strerror(e->code));
}

FILE *ibu_opt_open_out(const char *cmd, const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "ibunion %s: %s: cannot open for writing: %s\n",
			cmd, path, strerror(errno));
	return f;
}

void ibu_opt_close_out(FILE *f)
{
	if (f && f != stdout)
		fclose(f);
	else if (f)
		fflush(f);
}
