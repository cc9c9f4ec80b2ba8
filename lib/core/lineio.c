/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "input.h"
#include "lineio.h"

void ibu_lines_init(struct ibu_lines *l, FILE *in, const char *name)
{
	memset(l, 0, sizeof(*l));
	l->in = in;
	l->name = name ? name : "(input)";
}

/* Room for at least 128 more bytes; -1 when the line would pass
 * IBU_LINE_MAX, -2 out of memory. */
static int grow(struct ibu_lines *l, size_t n)
{
	size_t cap = l->cap ? l->cap : 128;
	char *p;

	while (cap - n < 128)
		cap *= 2;
	if (cap == l->cap)
		return 0;
	if (n > IBU_LINE_MAX)
		return -1;
	p = realloc(l->line, cap);
	if (!p)
		return -2;
	l->line = p;
	l->cap = cap;
	return 0;
}

/*
 * fgets() into line + n; returns how many bytes it stored (NULs included:
 * the area is filled with '\n' first, so the first '\n' is either the
 * line's own, followed by fgets' '\0', or the fill right after that '\0').
 */
static size_t chunk(struct ibu_lines *l, size_t n, int *got_nl)
{
	size_t room = l->cap - n;
	char *a = l->line + n, *p;

	memset(a, '\n', room);
	*got_nl = 0;
	if (!fgets(a, (int)(room < INT_MAX ? room : INT_MAX), l->in))
		return 0;
	p = memchr(a, '\n', room);
	if (!p)			/* filled up: room - 1 bytes and the '\0' */
		return room - 1;
	if ((size_t)(p - a) + 1 < room && p[1] == '\0') {
		*got_nl = 1;
		return (size_t)(p - a) + 1;
	}
	return (size_t)(p - a) - 1;	/* end of file without a newline */
}

int ibu_lines_next(struct ibu_lines *l, struct ibu_err *e)
{
	size_t n = 0, k;
	int nl = 0, rc;

	/* not getline(): a line may not grow without limit (a file without
	 * newlines, /dev/zero); fgets() in chunks, NUL bytes still seen */
	errno = 0;
	while (!nl) {
		rc = grow(l, n);
		if (rc == -2)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		if (rc < 0)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s:%d: line longer than %d bytes",
					   l->name, l->lineno + 1, IBU_LINE_MAX);
		k = chunk(l, n, &nl);
		if (!k)
			break;
		n += k;
	}
	if (ferror(l->in)) {
		char where[IBU_ERR_MSG_LEN];
		int err = errno;

		snprintf(where, sizeof(where), "%s:%d", l->name, l->lineno + 1);
		return ibu_input_err(e, where, err);
	}
	if (!n)
		return 0;
	l->line[n] = '\0';
	l->lineno++;
	if (memchr(l->line, '\0', n))
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: NUL byte in line",
				   l->name, l->lineno);
	while (n > 0 && (l->line[n - 1] == '\n' || l->line[n - 1] == '\r'))
		l->line[--n] = '\0';
	l->len = n;
	return 1;
}

void ibu_lines_free(struct ibu_lines *l)
{
	free(l->line);
	l->line = NULL;
	l->cap = 0;
}
