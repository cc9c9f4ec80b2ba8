/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* opensm-subnet.lst reader (see subnet_lst.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "lineio.h"
#include "num.h"
#include "subnet_lst.h"

struct end {
	enum ibu_node_type type;
	int ports;
	uint64_t node_guid, port_guid;
	char desc[128];
	unsigned lid;
	int pn;
};

int ibu_subnet_lst_sniff(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	return *line == '{' && strstr(line, "NodeGUID:") &&
	       strstr(line, " PN:");
}

static const char *field(const char *s, const char *end, const char *key)
{
	size_t n = strlen(key);

	for (; s && s + n <= end; s++)
		if (!strncmp(s, key, n))
			return s + n;
	return NULL;
}

/* The hex number after key, within [min, max] (a GUID when max is 0),
 * ending at a blank or the closing brace. */
static int hex_at(const char *s, const char *end, const char *key,
		  uint64_t min, uint64_t max, uint64_t *v)
{
	const char *p = field(s, end, key), *q;

	if (!p || (max ? ibu_num(p, IBU_NUM_HEX, min, max, v, &q) :
		   ibu_num_guid(p, v, &q)))
		return -1;
	return q > end || (*q != ' ' && *q != '}') ? -1 : 0;
}

/* One "{ ... }" at *s; *s moves past it. On failure *why says what. */
static int parse_end(const char **s, struct end *x, const char **why)
{
	const char *b = strchr(*s, '{'), *d, *de, *e;
	uint64_t v;

	*why = NULL;
	if (!b)
		return -1;
	b++;
	while (*b == ' ')
		b++;
	/* the description {..} is nested: the end is the '}' after PN: */
	e = strstr(b, " PN:");
	if (!e)
		return -1;
	e = strchr(e, '}');
	if (!e)
		return -1;
	memset(x, 0, sizeof(*x));
	if (!strncmp(b, "SW ", 3))
		x->type = IBU_NODE_SWITCH;
	else if (!strncmp(b, "CA", 2))
		x->type = IBU_NODE_CA;
	else if (!strncmp(b, "Rt", 2))
		x->type = IBU_NODE_ROUTER;
	else
		return -1;
	*why = "bad NodeGUID/PortGUID (1-16 hex digits)";
	if (hex_at(b, e, "NodeGUID:", 0, 0, &x->node_guid) ||
	    hex_at(b, e, "PortGUID:", 0, 0, &x->port_guid))
		return -1;
	*why = "bad LID (a unicast LID, 0001..BFFF)";
	if (hex_at(b, e, "LID:", 1, IBU_MAX_UCAST_LID, &v))
		return -1;
	x->lid = (unsigned)v;
	*why = "bad Ports (01..FE)";
	if (hex_at(b, e, "Ports:", 1, IBU_MAX_PORTS, &v))
		return -1;
	x->ports = (int)v;
	*why = "bad PN (a port 01..Ports)";
	if (hex_at(b, e, " PN:", 1, (uint64_t)x->ports, &v))
		return -1;
	x->pn = (int)v;
	d = strstr(b, "Rev:");
	d = d ? strchr(d, '{') : NULL;
	de = d ? strstr(d, "} LID:") : NULL;
	if (d && de && de < e) {
		size_t n = (size_t)(de - d - 1);

		if (n >= sizeof(x->desc))
			n = sizeof(x->desc) - 1;
		memcpy(x->desc, d + 1, n);
		x->desc[n] = '\0';
	}
	*s = e + 1;
	return 0;
}

static int node_of(struct ibu_fabric *f, const struct end *x, int *idx,
		   struct ibu_err *e)
{
	int i, rc;

	for (i = f->num_nodes - 1; i >= 0; i--)	/* recent first */
		if (f->nodes[i].guid == x->node_guid &&
		    f->nodes[i].type == x->type) {
			*idx = i;
			return IBU_OK;
		}
	rc = ibu_fabric_add_node(f, x->type, x->desc[0] ? x->desc : "?",
				 x->node_guid, x->ports, idx, e);
	return rc;
}

static int apply_end(struct ibu_fabric *f, const struct end *x, int idx,
		     const char *name, int lineno, struct ibu_err *e)
{
	struct ibu_node *n = &f->nodes[idx];
	struct ibu_port *lp = ibu_node_is_switch(n) ? &n->ports[0] :
						       &n->ports[x->pn];

	if (x->pn > n->num_ports)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: port number beyond the node's ports",
				   name, lineno);
	/* a port (a switch: its port 0) has one LID, the same on every line */
	if (lp->lid && lp->lid != x->lid)
		return ibu_err_set(e, IBU_EPARSE,
				   "%s:%d: '%s' port %d has LID %04X here, %04X on line %d",
				   name, lineno, n->name,
				   lp == &n->ports[0] ? 0 : x->pn, x->lid, lp->lid,
				   lp->line);
	if (!ibu_node_is_switch(n))
		n->ports[x->pn].guid = x->port_guid;
	if (!lp->lid)
		lp->line = lineno;
	lp->lid = (uint16_t)x->lid;
	return 0;
}

int ibu_subnet_lst_read_stream(FILE *in, const char *name,
			       struct ibu_fabric *f, struct ibu_err *e)
{
	struct ibu_lines lines;
	int lineno = 0, rc, links = 0, got;

	rc = ibu_fabric_init(f, name);
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	ibu_lines_init(&lines, in, name);
	while ((got = ibu_lines_next(&lines, e)) > 0) {
		const char *s = lines.line, *why = NULL;
		struct end a, b;
		int ia, ib;

		lineno = lines.lineno;
		if (lineno == 1 && !strncmp(s, "\xef\xbb\xbf", 3))
			s += 3;		/* a UTF-8 byte order mark */
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		if (parse_end(&s, &a, &why) || parse_end(&s, &b, &why)) {
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s:%d: not an opensm-subnet.lst link line%s%s",
					 name, lineno, why ? ": " : "",
					 why ? why : "");
			goto fail;
		}
		rc = node_of(f, &a, &ia, e);
		if (!rc)
			rc = node_of(f, &b, &ib, e);
		if (rc)
			goto fail;
		rc = apply_end(f, &a, ia, name, lineno, e);
		if (!rc)
			rc = apply_end(f, &b, ib, name, lineno, e);
		if (rc)
			goto fail;
		f->nodes[ia].line = f->nodes[ia].line ? f->nodes[ia].line : lineno;
		f->nodes[ib].line = f->nodes[ib].line ? f->nodes[ib].line : lineno;
		if (f->nodes[ia].ports[a.pn].peer_node == ib &&
		    f->nodes[ia].ports[a.pn].peer_port == b.pn)
			continue;	/* the other direction of a known link */
		if (f->nodes[ia].ports[a.pn].peer_node >= 0 ||
		    f->nodes[ib].ports[b.pn].peer_node >= 0) {
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s:%d: port already cabled elsewhere",
					 name, lineno);
			goto fail;
		}
		rc = ibu_fabric_link(f, ia, a.pn, ib, b.pn, e);
		if (rc)
			goto fail;
		links++;
	}
	if (got < 0) {
		rc = got;
		goto fail;
	}
	if (!links) {
		rc = ibu_err_set(e, IBU_EPARSE, "%s: no link lines", name);
		goto fail;
	}
	rc = ibu_fabric_index(f, e);
	if (rc)
		goto fail;
	ibu_lines_free(&lines);
	return IBU_OK;
fail:
	ibu_lines_free(&lines);
	ibu_fabric_free(f);
	return rc;
}

int ibu_subnet_lst_read(const char *path, struct ibu_fabric *f,
			struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in)
		return e ? e->code : IBU_EIO;
	rc = ibu_subnet_lst_read_stream(in, ibu_input_name(path), f, e);
	fclose(in);
	return rc;
}
