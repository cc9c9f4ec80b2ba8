/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The dump_mfts / ibroute -M text of multicast forwarding tables: reader,
 * sniffer and writer (the model is lib/core/mft.c). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "lineio.h"
#include "mft_dump.h"
#include "num.h"

/* ------------------------------------------------------------ reader */

struct mreader {
	const char *name;
	const struct ibu_fabric *f;
	struct ibu_mft *t;
	struct ibu_err *e;
	int node;		/* switch of the open table, -1 none */
	int brief;		/* " MLid  Port Mask" hex form */
	int base;		/* column of port 0 in the grid */
	int nports;		/* ports listed on the "Ports:" line - 1 */
	int header_line;	/* line of the open table's header */
	int rows;		/* MLID rows of the open table */
	int tables;		/* tables read */
	int *first;		/* [node] line of its table, 0 none yet */
};

static int perr(struct mreader *r, int line, const char *fmt, const char *s)
{
	return ibu_err_set(r->e, IBU_EPARSE, "%s:%d: %s%s%s%s", r->name, line,
			   fmt, s ? ": '" : "", s ? s : "", s ? "'" : "");
}

static int header(struct mreader *r, char *line, int lineno)
{
	char *g = strstr(line, " guid 0x"), *b = strchr(line, '[');
	const char *end;
	uint64_t guid, lo, hi;
	int node;

	/* "[0xc000-0xc3ff]": both ends MLIDs, in order */
	if (!b || ibu_num(b + 1, IBU_NUM_AUTO, IBU_MCAST_LID_BASE, IBU_MAX_MLID,
			  &lo, &end) || *end != '-' ||
	    ibu_num(end + 1, IBU_NUM_AUTO, lo, IBU_MAX_MLID, &hi, &end) ||
	    *end != ']')
		return perr(r, lineno, "bad MLID range in MFT header (0xc000..0xfffe, low-high)",
			    line);
	if (!g)
		return perr(r, lineno, "MFT header without a switch GUID", line);
	if (ibu_num_guid(g + 6, &guid, &end) || *end != ' ')
		return perr(r, lineno, "bad GUID in MFT header (1-16 hex digits)", line);
	node = ibu_fabric_find_guid(r->f, guid);
	if (node < 0)
		return ibu_err_set(r->e, IBU_ENOTFOUND,
				   "%s:%d: switch GUID 0x%016" PRIx64
				   " is not in the fabric %s", r->name,
				   lineno, guid,
				   r->f->source ? r->f->source : "");
	if (!ibu_node_is_switch(&r->f->nodes[node]))
		return perr(r, lineno, "MFT header names a node that is not a switch",
			    r->f->nodes[node].name);
	/* two tables of one switch would be OR-ed into one: refused, as
	 * in LFT dumps */
	if (r->first[node])
		return ibu_err_set(r->e, IBU_EPARSE,
				   "%s:%d: second table of switch 0x%016" PRIx64
				   " (first at line %d)", r->name, lineno, guid,
				   r->first[node]);
	r->first[node] = lineno;
	r->node = node;
	r->brief = 0;
	r->base = 12;
	r->nports = r->f->nodes[node].num_ports;
	r->t->dumped[node] = 1;
	return IBU_OK;
}

static int ports_line(struct mreader *r, char *line, int lineno)
{
	char *s = strstr(line, "Ports:") + 6;
	int n = -1;

	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return perr(r, lineno, "empty Ports: line", NULL);
	r->base = (int)(s - line);
	for (; *s; s++)
		if (isdigit((unsigned char)*s))
			n++;
	if (n > r->f->nodes[r->node].num_ports)
		return perr(r, lineno, "more ports listed than the switch has in the fabric",
			    r->f->nodes[r->node].name);
	r->nports = n;
	return IBU_OK;
}

static int row(struct mreader *r, char *line, int lineno)
{
	const struct ibu_node *nd = &r->f->nodes[r->node];
	uint64_t mlid;
	const char *end;
	int rc, i, len;

	if (ibu_num(line, IBU_NUM_HEX, IBU_MCAST_LID_BASE, IBU_MAX_MLID, &mlid,
		    &end) || (*end && *end != ' ' && *end != '\t'))
		return perr(r, lineno, "bad MLID", line);
	len = (int)strlen(line);
	if (r->brief) {
		const char *s = end;
		int word = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		while (isxdigit((unsigned char)s[0])) {
			char hex[5];
			unsigned v;
			int b;

			for (b = 0; b < 4; b++) {
				if (!isxdigit((unsigned char)s[b]))
					return perr(r, lineno, "port mask is not 16-bit hex words",
						    line);
				hex[b] = s[b];
			}
			hex[4] = '\0';
			v = (unsigned)strtoul(hex, NULL, 16);
			for (b = 0; b < 16; b++) {
				int port = word * 16 + b;

				if (!(v & (1u << b)))
					continue;
				if (port > nd->num_ports)
					return perr(r, lineno, "port mask names a port the switch does not have",
						    line);
				rc = ibu_mft_set(r->t, (uint16_t)mlid, r->node,
						 port, r->e);
				if (rc)
					return rc;
			}
			s += 4;
			word++;
		}
		return IBU_OK;
	}
	for (i = (int)(end - line); i < len; i++) {
		int port;

		if (line[i] == ' ' || line[i] == '\t')
			continue;
		if (line[i] != 'x' || i < r->base || (i - r->base) % 2)
			return perr(r, lineno, "unexpected character in the port grid",
				    line);
		port = (i - r->base) / 2;
		if (port > r->nports)
			return perr(r, lineno, "grid marks a port the switch does not have",
				    line);
		rc = ibu_mft_set(r->t, (uint16_t)mlid, r->node, port, r->e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

/* Lines outside the tables that dump_mfts and ibroute may print. */
static int noise(const char *s)
{
	return !*s || !strncmp(s, "ibwarn:", 7) || !strncmp(s, "ibwarn ", 7) ||
	       !strncmp(s, "*** WARNING", 11);
}

/* The tens line above "Ports:" of switches with more than 9 ports. */
static int tens_line(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && !isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int trailer(struct mreader *r, const char *s, int lineno)
{
	const char *end;
	uint64_t n;

	if (ibu_num(s, IBU_NUM_DEC, 0, UINT32_MAX, &n, &end))
		return perr(r, lineno, "bad trailer", s);
	while (*end == ' ')
		end++;
	if (!strncmp(end, "valid ", 6))
		end += 6;
	if (strncmp(end, "mlids dumped", 12))
		return perr(r, lineno, "bad trailer", s);
	for (end += 12; *end == ' '; end++)
		;
	if (*end)
		return perr(r, lineno, "bad trailer", s);
	if (n != (uint64_t)r->rows)
		return ibu_err_set(r->e, IBU_EPARSE,
				   "%s:%d: trailer says %llu MLIDs but the table of line %d has %d (truncated dump?)",
				   r->name, lineno, (unsigned long long)n, r->header_line, r->rows);
	r->node = -1;
	return IBU_OK;
}

static int mft_line(struct mreader *r, char *line, int lineno)
{
	char *s = line;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!strncmp(s, "Multicast mlids", 15)) {
		if (r->node >= 0)
			return ibu_err_set(r->e, IBU_EPARSE,
					   "%s:%d: table of line %d has no 'mlids dumped' line (truncated dump?)",
					   r->name, lineno, r->header_line);
		r->header_line = lineno;
		r->rows = 0;
		r->tables++;
		return header(r, line, lineno);
	}
	if (!strncmp(s, "Unicast lids", 12))
		return perr(r, lineno, "this is a unicast (LFT) dump, not an MFT dump",
			    NULL);
	if (noise(s))
		return IBU_OK;
	if (r->node < 0)
		return perr(r, lineno, "not an MFT dump line", line);
	if (!strncmp(s, "Ports:", 6))
		return ports_line(r, line, lineno);
	if (!strncmp(s, "MLid", 4)) {
		r->brief = strstr(s, "Port Mask") != NULL;
		return IBU_OK;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		r->rows++;
		return row(r, s, lineno);
	}
	if (strstr(s, "mlids dumped"))
		return trailer(r, s, lineno);
	if (tens_line(s))
		return IBU_OK;
	return perr(r, lineno, "not an MFT dump line", line);
}

int ibu_mft_read_stream(FILE *in, const char *name,
			const struct ibu_fabric *f, struct ibu_mft *t,
			struct ibu_err *e)
{
	struct mreader r = { .name = name, .f = f, .t = t, .e = e, .node = -1 };
	struct ibu_lines lines;
	int rc;

	rc = ibu_mft_init(t, f->num_nodes, e);
	if (rc)
		return rc;
	r.first = calloc(f->num_nodes ? f->num_nodes : 1, sizeof(*r.first));
	if (!r.first) {
		ibu_mft_free(t);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	ibu_lines_init(&lines, in, name);
	while ((rc = ibu_lines_next(&lines, e)) > 0) {
		rc = mft_line(&r, lines.line, lines.lineno);
		if (rc)
			break;
	}
	if (!rc && r.node >= 0)
		rc = ibu_err_set(e, IBU_EPARSE,
				 "%s:%d: table of line %d has no 'mlids dumped' line (truncated dump?)",
				 name, lines.lineno, r.header_line);
	if (!rc && !r.tables)
		rc = ibu_err_set(e, IBU_EPARSE,
				 "%s:%d: no multicast table (not an MFT dump?)",
				 name, lines.lineno ? lines.lineno : 1);
	ibu_lines_free(&lines);
	free(r.first);
	if (rc)
		ibu_mft_free(t);
	return rc;
}

int ibu_mft_read(const char *path, const struct ibu_fabric *f,
		 struct ibu_mft *t, struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in)
		return e ? e->code : IBU_EIO;
	rc = ibu_mft_read_stream(in, ibu_input_name(path), f, t, e);
	fclose(in);
	return rc;
}

/* The header's switch GUID and name ("... guid 0x<G> (<name>):"). */
static int header_switch(const char *line, uint64_t *guid, char *name,
			 size_t len)
{
	const char *g = strstr(line, " guid 0x"), *open, *close, *end;

	if (!g || ibu_num_guid(g + 6, guid, &end))
		return -1;
	name[0] = '\0';
	open = strchr(end, '(');
	close = open ? strrchr(open, ')') : NULL;
	if (open && close && (size_t)(close - open - 1) < len) {
		memcpy(name, open + 1, (size_t)(close - open - 1));
		name[close - open - 1] = '\0';
	}
	return 0;
}

int ibu_mft_sniff_text(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t end = i, k = i;
		char line[32];

		while (end < len && buf[end] != '\n')
			end++;
		while (k < end && (buf[k] == ' ' || buf[k] == '\t'))
			k++;
		/* enough of the line to tell noise and headers apart */
		snprintf(line, sizeof(line), "%.*s",
			 (int)(end - k < sizeof(line) - 1 ? end - k : sizeof(line) - 1),
			 buf + k);
		if (line[0] && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		if (!noise(line))
			return !strncmp(line, "Multicast mlids", 15);
		i = end + 1;
	}
	return 0;
}

int ibu_mft_sniff(const char *path, struct ibu_err *e)
{
	const char *head;
	size_t len;
	FILE *in = ibu_input_open_peek(path, IBU_MFT_SNIFF_BYTES, &head, &len, e);
	int rc;

	if (!in)
		return e ? e->code : IBU_EIO;
	rc = ibu_mft_sniff_text(head, len);
	fclose(in);
	return rc;
}

int ibu_mft_add_switches_stream(FILE *in, const char *name,
				struct ibu_fabric *f, struct ibu_err *e)
{
	struct ibu_lines lines;
	char sw[256];
	uint64_t guid;
	int rc, n, idx;

	ibu_lines_init(&lines, in, name);
	while ((rc = ibu_lines_next(&lines, e)) > 0) {
		const char *s = lines.line;

		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "Multicast mlids", 15))
			continue;
		if (header_switch(s, &guid, sw, sizeof(sw))) {
			rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: MFT header without a switch GUID",
					 name, lines.lineno);
			break;
		}
		for (n = 0; n < f->num_nodes && f->nodes[n].guid != guid; n++)
			;
		if (n < f->num_nodes)
			continue;
		rc = ibu_fabric_add_node(f, IBU_NODE_SWITCH, sw[0] ? sw : "?",
					 guid, IBU_MAX_PORTS, &idx, e);
		if (rc)
			break;
	}
	ibu_lines_free(&lines);
	return rc < 0 ? rc : IBU_OK;
}

int ibu_mft_add_switches(const char *path, struct ibu_fabric *f,
			 struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in)
		return e ? e->code : IBU_EIO;
	rc = ibu_mft_add_switches_stream(in, ibu_input_name(path), f, e);
	fclose(in);
	return rc;
}

/* ------------------------------------------------------------ writer */

int ibu_mft_write(FILE *out, const struct ibu_fabric *f,
		  const struct ibu_mft *t, struct ibu_err *e)
{
	unsigned top = IBU_MCAST_LID_BASE + 0x3ff;
	int n, gi, p;

	if (t->num_groups && t->g[t->num_groups - 1].mlid > top)
		top = t->g[t->num_groups - 1].mlid | 0x1f;
	if (top > IBU_MAX_MLID)
		top = IBU_MAX_MLID;
	for (n = 0; n < f->num_nodes; n++) {
		const struct ibu_node *nd = &f->nodes[n];
		int rows = 0;

		if (!ibu_node_is_switch(nd))
			continue;
		if (nd->ports[0].lid)
			fprintf(out, "Multicast mlids [0x%x-0x%x] of switch Lid %u guid 0x%016"
				PRIx64 " (%s):\n", IBU_MCAST_LID_BASE, top,
				nd->ports[0].lid, nd->guid, nd->name);
		else
			fprintf(out, "Multicast mlids [0x%x-0x%x] of switch guid 0x%016"
				PRIx64 " (%s):\n", IBU_MCAST_LID_BASE, top,
				nd->guid, nd->name);
		if (nd->num_ports > 9) {
			fprintf(out, "            ");
			for (p = 0; p <= nd->num_ports; p++)
				fprintf(out, "%c ", p % 10 ? ' ' : '0' + p / 10);
			fputc('\n', out);
		}
		fprintf(out, "     Ports: ");
		for (p = 0; p <= nd->num_ports; p++)
			fprintf(out, "%d ", p % 10);
		fprintf(out, "\n MLid\n");
		for (gi = 0; gi < t->num_groups; gi++) {
			const struct ibu_portmask *m = &t->g[gi].mask[n];

			if (ibu_pm_empty(m))
				continue;
			fprintf(out, "0x%04x      ", t->g[gi].mlid);
			for (p = 0; p <= nd->num_ports; p++)
				fprintf(out, "%c ", ibu_pm_test(m, p) ? 'x' : ' ');
			fputc('\n', out);
			rows++;
		}
		fprintf(out, "%d valid mlids dumped \n", rows);
	}
	if (ferror(out))
		return ibu_err_set(e, IBU_EIO, "write error");
	return IBU_OK;
}
