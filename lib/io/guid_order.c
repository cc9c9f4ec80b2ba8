/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* OpenSM guid_routing_order_file reader (see guid_order.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "guid_order.h"
#include "lineio.h"
#include "num.h"

struct seen {
	uint64_t guid;
	int line;
};

static int cmp_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->line - y->line;
}

/* No GUID twice: sorted neighbours, the later line named. */
static int check_unique(const char *name, const struct ibu_guid_order *o,
			const int *lines, struct ibu_err *e)
{
	struct seen *k = malloc((size_t)o->num * sizeof(*k));
	int i, rc = IBU_OK;

	if (!k)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < o->num; i++)
		k[i] = (struct seen){ o->guid[i], lines[i] };
	qsort(k, (size_t)o->num, sizeof(*k), cmp_seen);
	for (i = 1; i < o->num && !rc; i++)
		if (k[i].guid == k[i - 1].guid)
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s:%d: port GUID 0x%016" PRIx64 " is listed already (line %d)",
					 name, k[i].line, k[i].guid, k[i - 1].line);
	free(k);
	return rc;
}

/* One line's GUID into o (lines[] keeps its line for messages). */
static int record(const char *name, int line, const char *s,
		  struct ibu_guid_order *o, int **lines, int *cap,
		  struct ibu_err *e)
{
	const char *end;
	uint64_t v;

	if (ibu_num_guid(s, &v, &end) || (*end && !isspace((unsigned char)*end) &&
					   *end != '#'))
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: expected a port GUID, not '%.40s'",
				   name, line, s);
	while (isspace((unsigned char)*end))
		end++;
	if (*end && *end != '#')
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: trailing text '%.40s'",
				   name, line, end);
	if (o->num == *cap) {
		int n = *cap ? 2 * *cap : 256;
		uint64_t *g = realloc(o->guid, (size_t)n * sizeof(*g));
		int *l = g ? realloc(*lines, (size_t)n * sizeof(*l)) : NULL;

		if (g)
			o->guid = g;
		if (!l)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		*lines = l;
		*cap = n;
	}
	(*lines)[o->num] = line;
	o->guid[o->num++] = v;
	return IBU_OK;
}

int ibu_guid_order_read_stream(FILE *in, const char *name,
			       struct ibu_guid_order *o, struct ibu_err *e)
{
	struct ibu_lines l;
	int *lines = NULL, cap = 0, rc;

	memset(o, 0, sizeof(*o));
	ibu_lines_init(&l, in, name);
	while ((rc = ibu_lines_next(&l, e)) > 0) {
		const char *s = l.line;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		rc = record(l.name, l.lineno, s, o, &lines, &cap, e);
		if (rc)
			break;
	}
	if (!rc && !o->num)
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no port GUID", l.name,
				 l.lineno ? l.lineno : 1);
	if (!rc)
		rc = check_unique(l.name, o, lines, e);
	ibu_lines_free(&l);
	free(lines);
	if (rc)
		ibu_guid_order_free(o);
	return rc;
}

int ibu_guid_order_read(const char *path, struct ibu_guid_order *o,
			struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in) {
		memset(o, 0, sizeof(*o));
		return e ? e->code : IBU_EIO;
	}
	rc = ibu_guid_order_read_stream(in, ibu_input_name(path), o, e);
	fclose(in);
	return rc;
}

void ibu_guid_order_free(struct ibu_guid_order *o)
{
	if (!o)
		return;
	free(o->guid);
	memset(o, 0, sizeof(*o));
}
