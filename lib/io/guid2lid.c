/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* OpenSM guid2lid reader (see guid2lid.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "fabric.h"
#include "guid2lid.h"
#include "lineio.h"
#include "num.h"

/* One whole number at *s (0x hex or decimal), at most max; a GUID
 * (max UINT64_MAX) in hex has 1-16 digits. */
static int number(char **s, uint64_t max, uint64_t *v)
{
	char *p = *s;
	const char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (max == UINT64_MAX && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ?
	    ibu_num_guid(p, v, &end) :
	    ibu_num(p, IBU_NUM_AUTO, 0, max, v, &end))
		return -1;
	if (*end && *end != ' ' && *end != '\t')
		return -1;
	*s = (char *)end;
	return 0;
}

struct by_guid {
	uint64_t key;
	int idx;
};

static int cmp_key(const void *a, const void *b)
{
	const struct by_guid *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx - y->idx;
}

/* No GUID twice, no LID in two sets: sorted neighbours. */
static int check_unique(const char *name, const struct ibu_guid2lid *g,
			struct ibu_err *e)
{
	struct by_guid *k = malloc((size_t)g->num * sizeof(*k));
	int i, rc = IBU_OK;

	if (!k)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < g->num; i++) {
		k[i].key = g->rec[i].guid;
		k[i].idx = i;
	}
	qsort(k, (size_t)g->num, sizeof(*k), cmp_key);
	for (i = 1; i < g->num; i++)
		if (k[i].key == k[i - 1].key) {
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s:%d: port GUID 0x%016" PRIx64 " already has LIDs (line %d)",
					 name, g->rec[k[i].idx].line, k[i].key,
					 g->rec[k[i - 1].idx].line);
			goto out;
		}
	for (i = 0; i < g->num; i++) {
		k[i].key = g->rec[i].min;
		k[i].idx = i;
	}
	qsort(k, (size_t)g->num, sizeof(*k), cmp_key);
	for (i = 1; i < g->num; i++) {
		const struct ibu_guid2lid_rec *a = &g->rec[k[i - 1].idx];
		const struct ibu_guid2lid_rec *b = &g->rec[k[i].idx];

		if (b->min <= a->max) {
			const struct ibu_guid2lid_rec *later = a->line > b->line ? a : b;
			const struct ibu_guid2lid_rec *first = later == a ? b : a;

			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s:%d: LIDs 0x%04x..0x%04x overlap 0x%04x..0x%04x (line %d)",
					 name, later->line, later->min, later->max,
					 first->min, first->max, first->line);
			goto out;
		}
	}
out:
	free(k);
	return rc;
}

static int record(const char *name, struct ibu_guid2lid *g, char *s, int line,
		  struct ibu_err *e)
{
	uint64_t guid, lo, hi, size;
	struct ibu_guid2lid_rec *r;

	if (number(&s, UINT64_MAX, &guid) || number(&s, IBU_MAX_UCAST_LID, &lo) ||
	    number(&s, IBU_MAX_UCAST_LID, &hi))
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: expected '0xGUID 0xFIRST-LID 0xLAST-LID' (LIDs up to 0x%x)",
				   name, line, IBU_MAX_UCAST_LID);
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s)
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: trailing text '%s'",
				   name, line, s);
	size = hi - lo + 1;
	if (!lo || hi < lo || size > 128 || (size & (size - 1)))
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: LIDs 0x%04x..0x%04x are not a set of 2^LMC LIDs (LMC 0..7, LID 0 invalid)",
				   name, line, (unsigned)lo, (unsigned)hi);
	if (g->num == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		struct ibu_guid2lid_rec *n = realloc(g->rec, (size_t)cap * sizeof(*n));

		if (!n)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		g->rec = n;
		g->cap = cap;
	}
	r = &g->rec[g->num++];
	r->guid = guid;
	r->min = (uint16_t)lo;
	r->max = (uint16_t)hi;
	r->line = line;
	return IBU_OK;
}

int ibu_guid2lid_read_stream(FILE *in, const char *name,
			     struct ibu_guid2lid *g, struct ibu_err *e)
{
	struct ibu_lines l;
	int rc;

	memset(g, 0, sizeof(*g));
	ibu_lines_init(&l, in, name);
	while ((rc = ibu_lines_next(&l, e)) > 0) {
		char *s = l.line;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		rc = record(l.name, g, s, l.lineno, e);
		if (rc)
			break;
	}
	if (!rc && !g->num)
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no guid2lid record",
				 l.name, l.lineno ? l.lineno : 1);
	if (!rc)
		rc = check_unique(l.name, g, e);
	ibu_lines_free(&l);
	if (rc)
		ibu_guid2lid_free(g);
	return rc;
}

int ibu_guid2lid_read(const char *path, struct ibu_guid2lid *g,
		      struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in) {
		memset(g, 0, sizeof(*g));
		return e ? e->code : IBU_EIO;
	}
	rc = ibu_guid2lid_read_stream(in, ibu_input_name(path), g, e);
	fclose(in);
	return rc;
}

void ibu_guid2lid_free(struct ibu_guid2lid *g)
{
	if (!g)
		return;
	free(g->rec);
	memset(g, 0, sizeof(*g));
}

static int write_record(void *ctx, int node, int port,
			const struct ibu_port *pt)
{
	(void)node;
	(void)port;
	/* OpenSM's DB parser needs the blank line after each record */
	fprintf(ctx, "0x%016" PRIx64 " 0x%04x 0x%04x\n\n", pt->guid, pt->lid,
		pt->lid + (1u << pt->lmc) - 1);
	return 0;
}

int ibu_guid2lid_write(FILE *out, const struct ibu_fabric *f,
		       struct ibu_err *e)
{
	ibu_fabric_foreach_lid_port(f, write_record, out);
	if (ferror(out))
		return ibu_err_set(e, IBU_EIO, "write error");
	return IBU_OK;
}
