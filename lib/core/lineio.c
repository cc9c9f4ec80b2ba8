/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "lineio.h"

void ibu_lines_init(struct ibu_lines *l, FILE *in, const char *name)
{
	memset(l, 0, sizeof(*l));
	l->in = in;
	l->name = name ? name : "(input)";
}

int ibu_lines_next(struct ibu_lines *l, struct ibu_err *e)
{
	ssize_t n;

	errno = 0;
	n = getline(&l->line, &l->cap, l->in);
	if (n < 0) {
		if (ferror(l->in))
			return ibu_err_set(e, errno == ENOMEM ? IBU_ENOMEM : IBU_EIO,
					   "%s:%d: read error: %s", l->name,
					   l->lineno + 1,
					   strerror(errno ? errno : EIO));
		return 0;
	}
	l->lineno++;
	if (memchr(l->line, '\0', (size_t)n))
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: NUL byte in line",
				   l->name, l->lineno);
	while (n > 0 && (l->line[n - 1] == '\n' || l->line[n - 1] == '\r'))
		l->line[--n] = '\0';
	l->len = (size_t)n;
	return 1;
}

void ibu_lines_free(struct ibu_lines *l)
{
	free(l->line);
	l->line = NULL;
	l->cap = 0;
}
