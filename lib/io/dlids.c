/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* DLID pairs files (see dlids.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "dlids.h"
#include "lineio.h"
#include "num.h"
#include "fabric.h"

static int perr(struct ibu_err *e, const char *name, int line,
		const char *what, const char *tok)
{
	return ibu_err_set(e, IBU_EPARSE, "%s:%d: %s%s%s%s", name, line, what,
			   tok ? ": '" : "", tok ? tok : "", tok ? "'" : "");
}

/* A whole unicast LID token: 0x-hex or decimal, 1..0xBFFF. */
static int lid_token(const char *tok, uint16_t *lid)
{
	uint64_t v;

	if (!tok || ibu_num(tok, IBU_NUM_AUTO, 1, IBU_MAX_UCAST_LID, &v, NULL))
		return -1;
	*lid = (uint16_t)v;
	return 0;
}

static int push(struct ibu_dlid_pairs *p, uint16_t s, uint16_t d, int line)
{
	if (p->num == p->cap) {
		long cap = p->cap ? 2 * p->cap : 256;
		struct ibu_dlid_pair *n = realloc(p->pair, cap * sizeof(*n));

		if (!n)
			return -1;
		p->pair = n;
		p->cap = cap;
	}
	p->pair[p->num].slid = s;
	p->pair[p->num].dlid = d;
	p->pair[p->num].line = line;
	p->num++;
	return 0;
}

int ibu_dlid_pairs_read_stream(FILE *in, const char *name,
			       struct ibu_dlid_pairs *p, struct ibu_err *e)
{
	struct ibu_lines lines;
	char *line, *s, *save, *tok[3];
	int lineno = 0, rc = IBU_OK, nt, got;

	memset(p, 0, sizeof(*p));
	p->source = strdup(name ? name : "-");
	if (!p->source)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	ibu_lines_init(&lines, in, p->source);
	while ((got = ibu_lines_next(&lines, e)) > 0) {
		uint16_t sl, dl;

		line = lines.line;
		lineno = lines.lineno;
		s = strchr(line, '#');
		if (s)
			*s = '\0';
		nt = 0;
		for (s = strtok_r(line, " \t\r\n", &save); s && nt < 3;
		     s = strtok_r(NULL, " \t\r\n", &save))
			tok[nt++] = s;
		if (!nt)
			continue;
		if (nt != 2) {
			rc = perr(e, p->source, lineno,
				  "expected '0xSLID 0xDLID'", NULL);
			break;
		}
		if (lid_token(tok[0], &sl)) {
			rc = perr(e, p->source, lineno,
				  "bad SLID (a unicast LID 0x0001-0xbfff)",
				  tok[0]);
			break;
		}
		if (lid_token(tok[1], &dl)) {
			rc = perr(e, p->source, lineno,
				  "bad DLID (a unicast LID 0x0001-0xbfff)",
				  tok[1]);
			break;
		}
		if (push(p, sl, dl, lineno)) {
			rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
			break;
		}
	}
	if (!rc && got < 0)
		rc = got;
	if (!rc && !p->num)
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no '0xSLID 0xDLID' line",
				 p->source, lineno ? lineno : 1);
	ibu_lines_free(&lines);
	if (rc)
		ibu_dlid_pairs_free(p);
	return rc;
}

int ibu_dlid_pairs_read(const char *path, struct ibu_dlid_pairs *p,
			struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in) {
		memset(p, 0, sizeof(*p));
		return e ? e->code : IBU_EIO;
	}
	rc = ibu_dlid_pairs_read_stream(in, ibu_input_name(path), p, e);
	fclose(in);
	return rc;
}

void ibu_dlid_pairs_free(struct ibu_dlid_pairs *p)
{
	free(p->pair);
	free(p->source);
	memset(p, 0, sizeof(*p));
}

int ibu_dlid_pair_write(FILE *out, uint16_t slid, uint16_t dlid,
			struct ibu_err *e)
{
	if (fprintf(out, "0x%04x 0x%04x\n", slid, dlid) < 0)
		return ibu_err_set(e, IBU_EIO, "write error");
	return IBU_OK;
}
