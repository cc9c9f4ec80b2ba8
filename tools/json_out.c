/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "json_out.h"

int ibu_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s)
		return fputs("null", out) < 0 ? -1 : 0;
	if (fputc('"', out) == EOF)
		return -1;
	for (; *p; p++) {
		int rc;

		if (*p == '"' || *p == '\\')
			rc = fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			rc = fprintf(out, "\\u%04x", *p);
		else
			rc = fputc(*p, out) == EOF ? -1 : 1;
		if (rc < 0)
			return -1;
	}
	return fputc('"', out) == EOF ? -1 : 0;
}

int ibu_json_stdout_begin(const char *cmd)
{
	int saved;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		close(saved);
		saved = -1;
	}
	if (saved < 0)
		fprintf(stderr, "-E- ibunion %s: --json: cannot redirect the report: %s\n",
			cmd, strerror(errno));
	return saved;
}

void ibu_json_stdout_end(int saved)
{
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}
