/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "lineio.h"
#include "num.h"
#include "sl2vl.h"

void ibu_sl2vl_free(struct ibu_sl2vl *s)
{
	int i;

	if (!s || !s->tbl)
		return;
	for (i = 0; i < s->num_nodes; i++)
		free(s->tbl[i]);
	free(s->tbl);
	memset(s, 0, sizeof(*s));
}

static size_t tbl_size(const struct ibu_node *n)
{
	size_t p = (size_t)n->num_ports + 1;

	return ibu_node_is_switch(n) ? p * p * 16 : p * 16;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "Switch 0x<GUID>, base LID <n>, ...": the node and port of the table */
static int header(const char *p, const char *name, int lineno,
		  const struct ibu_fabric *f, int *node, int *port,
		  struct ibu_err *e)
{
	const char *g = strstr(p, "0x"), *end, *b;
	uint64_t guid, lid;

	if (!g)
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: no GUID in the header",
				   name, lineno);
	if (ibu_num_guid(g, &guid, &end) || (*end && *end != ',' && *end != ' '))
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: bad GUID in the header (1-16 hex digits)",
				   name, lineno);
	b = strstr(end, "base LID ");
	if (b && (ibu_num(b + 9, IBU_NUM_AUTO, 0, IBU_MAX_UCAST_LID, &lid, &end) ||
		  (*end && *end != ',' && *end != ' ')))
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: bad base LID (a unicast LID, 0..49151)",
				   name, lineno);
	*node = ibu_fabric_find_port_guid(f, guid, port);
	if (*node < 0)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: port GUID 0x%016" PRIx64 " is not in the fabric",
				   name, lineno, guid);
	return IBU_OK;
}

/* "IN OUT : v0 .. v15": the ports, then 16 data VLs and nothing else */
static int table_line(const char *p, const char *name, int lineno,
		      const struct ibu_node *n, int *inp, int *outp,
		      uint8_t vl[16], struct ibu_err *e)
{
	const char *end;
	int sl, v;

	if (ibu_num_int(p, IBU_NUM_DEC, 0, INT_MAX, inp, &end) ||
	    (*end != ' ' && *end != '\t'))
		goto bad;
	p = skip_blank(end);
	if (ibu_num_int(p, IBU_NUM_DEC, 0, INT_MAX, outp, &end))
		goto bad;
	p = skip_blank(end);
	if (*p++ != ':')
		goto bad;
	if (*inp > n->num_ports || *outp > n->num_ports)
		return ibu_err_set(e, IBU_EPARSE, "%s:%d: '%s' has no port %d",
				   name, lineno, n->name,
				   *inp > *outp ? *inp : *outp);
	for (sl = 0; sl < 16; sl++) {
		p = skip_blank(p);
		if (ibu_num_int(p, IBU_NUM_DEC, 0, 15, &v, &end) ||
		    (*end && *end != ' ' && *end != '\t'))
			goto bad;
		if (v == 15)	/* VL15 carries only SMPs: never a data VL */
			return ibu_err_set(e, IBU_EPARSE,
					   "%s:%d: SL %d mapped to VL 15 (the management VL)",
					   name, lineno, sl);
		vl[sl] = (uint8_t)v;
		p = end;
	}
	if (*skip_blank(p))
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: more than 16 VLs: '%.20s'", name,
				   lineno, skip_blank(p));
	return IBU_OK;
bad:
	return ibu_err_set(e, IBU_EPARSE,
			   "%s:%d: expected 'IN OUT : 16 VLs' (decimal, no sign)",
			   name, lineno);
}

/* One byte per table entry: the line that gave it, so a table repeated
 * (a second header for the same switch, a line twice) is an error. */
static int first_time(uint8_t **seen, int node, size_t entry, size_t n)
{
	if (!seen[node]) {
		seen[node] = calloc(n, 1);
		if (!seen[node])
			return -1;
	}
	if (seen[node][entry])
		return 0;
	seen[node][entry] = 1;
	return 1;
}

/* One table line: node's table of ports inp -> outp (an end port's:
 * port's). */
struct tline {
	const struct ibu_node *n;
	int node, port, inp, outp;
	uint8_t vl[16];
};

/* t's table into s, once per port pair. */
static int store(struct ibu_sl2vl *s, uint8_t **seen, const struct tline *t,
		 const char *name, int lineno, struct ibu_err *e)
{
	const struct ibu_node *n = t->n;
	int node = t->node, inp = t->inp, outp = t->outp;
	const uint8_t *vl = t->vl;
	size_t entry;
	int got, i;

	if (!s->tbl[node]) {
		s->tbl[node] = calloc(tbl_size(n), 1);
		if (!s->tbl[node])
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	entry = ibu_node_is_switch(n) ?
		(size_t)inp * (n->num_ports + 1) + outp : (size_t)t->port;
	got = first_time(seen, node, entry, tbl_size(n) / 16);
	if (got < 0)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (!got)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: '%s': the table %d -> %d is given twice",
				   name, lineno, n->name, inp, outp);
	memcpy(s->tbl[node] + entry * 16, vl, 16);
	for (i = 0; i < 16; i++)
		if (vl[i] > s->max_vl)
			s->max_vl = vl[i];
	s->tables++;
	return IBU_OK;
}

int ibu_sl2vl_read_stream(FILE *in, const char *name,
			  const struct ibu_fabric *f, struct ibu_sl2vl *s,
			  struct ibu_err *e)
{
	struct ibu_lines lines;
	int lineno = 0, node = -1, port = 0, rc = IBU_OK, got, i;
	uint8_t **seen;

	memset(s, 0, sizeof(*s));
	s->num_nodes = f->num_nodes;
	s->tbl = calloc(f->num_nodes ? f->num_nodes : 1, sizeof(*s->tbl));
	seen = calloc(f->num_nodes ? f->num_nodes : 1, sizeof(*seen));
	if (!s->tbl || !seen) {
		free(s->tbl);
		free(seen);
		s->tbl = NULL;
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	ibu_lines_init(&lines, in, name);
	while ((got = ibu_lines_next(&lines, e)) > 0) {
		const char *p = skip_blank(lines.line);
		struct tline t;

		lineno = lines.lineno;
		if (*p == '#' || !*p)
			continue;
		if (!strncmp(p, "Switch ", 7) || !strncmp(p, "Channel Adapter ", 16) ||
		    !strncmp(p, "Router ", 7)) {
			rc = header(p, name, lineno, f, &node, &port, e);
			if (rc)
				break;
			continue;
		}
		if (node < 0) {
			rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: table line before any header",
					 name, lineno);
			break;
		}
		t.n = &f->nodes[node];
		t.node = node;
		t.port = port;
		rc = table_line(p, name, lineno, t.n, &t.inp, &t.outp, t.vl, e);
		if (rc)
			break;
		rc = store(s, seen, &t, name, lineno, e);
		if (rc)
			break;
	}
	if (!rc && got < 0)
		rc = got;
	if (!rc && !s->tables)
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no SL2VL table (not an opensm-sl2vl.dump?)",
				 name, lineno ? lineno : 1);
	ibu_lines_free(&lines);
	for (i = 0; i < f->num_nodes; i++)
		free(seen[i]);
	free(seen);
	if (rc)
		ibu_sl2vl_free(s);
	return rc;
}

int ibu_sl2vl_read(const char *path, const struct ibu_fabric *f,
		   struct ibu_sl2vl *s, struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in) {
		memset(s, 0, sizeof(*s));
		return e ? e->code : IBU_EIO;
	}
	rc = ibu_sl2vl_read_stream(in, ibu_input_name(path), f, s, e);
	fclose(in);
	return rc;
}

int ibu_sl2vl_get(const struct ibu_sl2vl *s, const struct ibu_fabric *f,
		  int node, int in_port, int out_port, int sl)
{
	const struct ibu_node *n;

	if (node < 0 || node >= s->num_nodes || !s->tbl[node])
		return 0;
	n = &f->nodes[node];
	if (in_port < 0 || out_port < 0 || in_port > n->num_ports ||
	    out_port > n->num_ports)
		return -1;
	if (ibu_node_is_switch(n))
		return s->tbl[node][((size_t)in_port * (n->num_ports + 1) +
				     out_port) * 16 + (sl & 15)];
	return s->tbl[node][(size_t)out_port * 16 + (sl & 15)];
}

int ibu_sl2vl_init(struct ibu_sl2vl *s, const struct ibu_fabric *f,
		   struct ibu_err *e)
{
	memset(s, 0, sizeof(*s));
	s->num_nodes = f->num_nodes;
	s->tbl = calloc(f->num_nodes ? f->num_nodes : 1, sizeof(*s->tbl));
	if (!s->tbl)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	return IBU_OK;
}

int ibu_sl2vl_set(struct ibu_sl2vl *s, const struct ibu_fabric *f, int node,
		  int in_port, int out_port, const uint8_t vl[16],
		  struct ibu_err *e)
{
	const struct ibu_node *n = &f->nodes[node];
	uint8_t *t;
	int sl;

	if (in_port < 0 || out_port < 0 || in_port > n->num_ports ||
	    out_port > n->num_ports)
		return ibu_err_set(e, IBU_EINVAL, "'%s' has no port %d", n->name,
				   in_port > out_port ? in_port : out_port);
	if (!s->tbl[node]) {
		s->tbl[node] = calloc(tbl_size(n), 1);
		if (!s->tbl[node])
			return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	t = ibu_node_is_switch(n) ?
		s->tbl[node] + ((size_t)in_port * (n->num_ports + 1) + out_port) * 16 :
		s->tbl[node] + (size_t)out_port * 16;
	for (sl = 0; sl < 16; sl++) {
		t[sl] = vl[sl] & 15;
		if (t[sl] < 15 && t[sl] > s->max_vl)
			s->max_vl = t[sl];
	}
	s->tables++;
	return IBU_OK;
}

/* One "IN OUT : 16 VLs" line. */
static void write_row(FILE *out, int in, int outp, const uint8_t *t)
{
	int sl;

	fprintf(out, "%-3d %-3d :", in, outp);
	for (sl = 0; sl < 16; sl++)
		fprintf(out, " %-2u", t[sl]);
	fputc('\n', out);
}

static void write_node(FILE *out, const struct ibu_node *n, const uint8_t *t)
{
	int in, o, p = n->num_ports + 1;
	const struct ibu_port *lp = &n->ports[ibu_node_is_switch(n) ? 0 : 1];

	if (ibu_node_is_switch(n)) {
		fprintf(out, "Switch 0x%016" PRIx64 ", base LID %u, \"%s\"\n",
			n->guid, lp->lid, n->name);
		fprintf(out, "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n");
		/* rows of the ports that carry traffic: port 0 in, cabled
		 * ports in and out (the others are never looked up) */
		for (in = 0; in < p; in++)
			for (o = 1; o < p; o++)
				if ((in == 0 || n->ports[in].peer_node >= 0) &&
				    n->ports[o].peer_node >= 0)
					write_row(out, in, o,
						  t + ((size_t)in * p + o) * 16);
		return;
	}
	/* a CA: one table per port, each under its port GUID */
	for (o = 1; o < p; o++) {
		if (!n->ports[o].guid)
			continue;
		fprintf(out, "Channel Adapter 0x%016" PRIx64 ", base LID %u, \"%s\"\n",
			n->ports[o].guid, n->ports[o].lid, n->name);
		write_row(out, 0, 0, t + (size_t)o * 16);
	}
}

int ibu_sl2vl_write(FILE *out, const struct ibu_fabric *f,
		    const struct ibu_sl2vl *s, struct ibu_err *e)
{
	int i;

	for (i = 0; i < f->num_nodes && i < s->num_nodes; i++)
		if (s->tbl[i])
			write_node(out, &f->nodes[i], s->tbl[i]);
	if (ferror(out))
		return ibu_err_set(e, IBU_EIO, "write error");
	return IBU_OK;
}
