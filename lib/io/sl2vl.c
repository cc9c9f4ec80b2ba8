/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lineio.h"
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

int ibu_sl2vl_read_stream(FILE *in, const char *name,
			  const struct ibu_fabric *f, struct ibu_sl2vl *s,
			  struct ibu_err *e)
{
	struct ibu_lines lines;
	int lineno = 0, node = -1, port = 0, rc = IBU_OK, got;

	memset(s, 0, sizeof(*s));
	s->num_nodes = f->num_nodes;
	s->tbl = calloc(f->num_nodes ? f->num_nodes : 1, sizeof(*s->tbl));
	if (!s->tbl)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	ibu_lines_init(&lines, in, name);
	while ((got = ibu_lines_next(&lines, e)) > 0) {
		char *p = lines.line, *end;
		uint64_t guid;
		int inp, outp, sl;
		const struct ibu_node *n;
		uint8_t *t;

		lineno = lines.lineno;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		if (!strncmp(p, "Switch ", 7) || !strncmp(p, "Channel Adapter ", 16) ||
		    !strncmp(p, "Router ", 7)) {
			char *g = strstr(p, "0x");

			if (!g) {
				rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no GUID in the header", name, lineno);
				break;
			}
			guid = strtoull(g, &end, 16);
			node = ibu_fabric_find_port_guid(f, guid, &port);
			if (node < 0) {
				rc = ibu_err_set(e, IBU_EPARSE,
						 "%s:%d: port GUID 0x%016" PRIx64 " is not in the fabric",
						 name, lineno, guid);
				break;
			}
			continue;
		}
		if (node < 0) {
			rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: table line before any header",
					 name, lineno);
			break;
		}
		n = &f->nodes[node];
		inp = (int)strtol(p, &end, 10);
		if (end == p)
			goto bad;
		p = end;
		outp = (int)strtol(p, &end, 10);
		if (end == p)
			goto bad;
		p = end;
		while (*p == ' ')
			p++;
		if (*p++ != ':')
			goto bad;
		if (inp < 0 || outp < 0 || inp > n->num_ports || outp > n->num_ports) {
			rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: '%s' has no port %d",
					 name, lineno, n->name,
					 inp > outp ? inp : outp);
			break;
		}
		if (!s->tbl[node]) {
			s->tbl[node] = calloc(tbl_size(n), 1);
			if (!s->tbl[node]) {
				rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
				break;
			}
		}
		t = ibu_node_is_switch(n) ?
			s->tbl[node] + ((size_t)inp * (n->num_ports + 1) + outp) * 16 :
			s->tbl[node] + (size_t)port * 16;
		for (sl = 0; sl < 16; sl++) {
			long v = strtol(p, &end, 10);

			if (end == p || v < 0 || v > 15)
				goto bad;
			p = end;
			t[sl] = (uint8_t)v;
			if (v < 15 && v > s->max_vl)
				s->max_vl = (int)v;
		}
		s->tables++;
		continue;
bad:
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: expected 'IN OUT : 16 VLs'",
				 name, lineno);
		break;
	}
	if (!rc && got < 0)
		rc = got;
	if (!rc && !s->tables)
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no SL2VL table (not an opensm-sl2vl.dump?)",
				 name, lineno ? lineno : 1);
	ibu_lines_free(&lines);
	if (rc)
		ibu_sl2vl_free(s);
	return rc;
}

int ibu_sl2vl_read(const char *path, const struct ibu_fabric *f,
		   struct ibu_sl2vl *s, struct ibu_err *e)
{
	FILE *in = fopen(path, "r");
	int rc;

	if (!in) {
		memset(s, 0, sizeof(*s));
		return ibu_err_set(e, IBU_EIO, "%s: cannot open", path);
	}
	rc = ibu_sl2vl_read_stream(in, path, f, s, e);
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
