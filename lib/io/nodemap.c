/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Node name maps (--node-name-map), as infiniband-diags reads them. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "lineio.h"
#include "nodemap.h"
#include "num.h"

/* Splits "GUID name" into its parts; 0 blank or comment, 1 a record, < 0
 * error (message in e). The name is NUL-terminated in place. */
static int parse(char *line, const char *file, int lineno, uint64_t *guid,
		 char **name, struct ibu_err *e)
{
	char *s = line, *end;
	const char *g;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '#')
		return 0;
	/* a GUID is 1-16 hex digits (an optional 0x) */
	if (ibu_num_guid(s, guid, &g) || !isspace((unsigned char)*g))
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: expected 'GUID name', not '%s'",
				   file, lineno, line);
	end = (char *)g;
	for (s = end; isspace((unsigned char)*s); s++)
		;
	if (*s == '"') {
		end = strchr(++s, '"');
		if (!end)
			return ibu_err_set(e, IBU_EPARSE, "%s:%d: unclosed quote",
					   file, lineno);
	} else {
		end = s + strlen(s);
		while (end > s && isspace((unsigned char)end[-1]))
			end--;
	}
	*end = '\0';
	if (!*s)
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: GUID without a name",
				   file, lineno);
	*name = s;
	return 1;
}

/* Renames every node of f whose GUID is guid; how many. */
static int rename_nodes(struct ibu_fabric *f, uint64_t guid, const char *name,
			struct ibu_err *e)
{
	int n, count = 0;

	for (n = 0; n < f->num_nodes; n++) {
		char *copy;

		if (f->nodes[n].guid != guid)
			continue;
		copy = ibu_escape_dup(name);
		if (!copy)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
		free(f->nodes[n].name);
		f->nodes[n].name = copy;
		count++;
	}
	return count;
}

int ibu_nodemap_apply_stream(FILE *in, const char *name, struct ibu_fabric *f,
			     int *renamed, struct ibu_err *e)
{
	struct ibu_lines lines;
	int rc, total = 0;

	ibu_lines_init(&lines, in, name);
	while ((rc = ibu_lines_next(&lines, e)) > 0) {
		uint64_t guid;
		char *to = NULL;

		rc = parse(lines.line, name, lines.lineno, &guid, &to, e);
		if (rc < 0)
			break;
		if (!rc)
			continue;
		rc = rename_nodes(f, guid, to, e);
		if (rc < 0)
			break;
		total += rc;
		rc = 0;
	}
	ibu_lines_free(&lines);
	if (rc < 0)
		return rc;
	if (renamed)
		*renamed = total;
	/* names changed: lookups by name must see the new ones */
	return f->indexed ? ibu_fabric_index(f, e) : IBU_OK;
}

int ibu_nodemap_apply(const char *path, struct ibu_fabric *f, int *renamed,
		      struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in)
		return e ? e->code : IBU_EIO;
	rc = ibu_nodemap_apply_stream(in, ibu_input_name(path), f, renamed, e);
	fclose(in);
	return rc;
}
