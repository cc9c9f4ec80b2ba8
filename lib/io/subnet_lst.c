/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* opensm-subnet.lst reader (see subnet_lst.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
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

static int hex_at(const char *s, const char *end, const char *key,
		  uint64_t *v)
{
	const char *p = field(s, end, key);
	char *q;

	if (!p || !isxdigit((unsigned char)*p))
		return -1;
	*v = strtoull(p, &q, 16);
	return q > end ? -1 : 0;
}

/* One "{ ... }" at *s; *s moves past it. */
static int parse_end(const char **s, struct end *x)
{
	const char *b = strchr(*s, '{'), *d, *de, *e;
	uint64_t v;

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
	if (hex_at(b, e, "NodeGUID:", &x->node_guid) ||
	    hex_at(b, e, "PortGUID:", &x->port_guid) ||
	    hex_at(b, e, "LID:", &v) || v > 0xffff)
		return -1;
	x->lid = (unsigned)v;
	d = field(b, e, "Ports:");
	if (!d)
		return -1;
	x->ports = (int)strtol(d, NULL, 16);
	d = field(b, e, " PN:");
	if (!d)
		return -1;
	x->pn = (int)strtol(d, NULL, 16);
	if (x->ports < 1 || x->ports > IBU_MAX_PORTS || x->pn < 1 ||
	    x->pn > x->ports)
		return -1;
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

static int apply_end(struct ibu_fabric *f, const struct end *x, int idx)
{
	struct ibu_node *n = &f->nodes[idx];
	struct ibu_port *lp = ibu_node_is_switch(n) ? &n->ports[0] :
						       &n->ports[x->pn];

	if (x->pn > n->num_ports)
		return -1;
	if (!ibu_node_is_switch(n))
		n->ports[x->pn].guid = x->port_guid;
	if (x->lid)
		lp->lid = (uint16_t)x->lid;
	return 0;
}

int ibu_subnet_lst_read_stream(FILE *in, const char *name,
			       struct ibu_fabric *f, struct ibu_err *e)
{
	char line[2048];
	int lineno = 0, rc, links = 0;

	rc = ibu_fabric_init(f, name);
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	while (fgets(line, sizeof(line), in)) {
		const char *s = line;
		struct end a, b;
		int ia, ib;

		lineno++;
		if (!strchr(line, '\n') && !feof(in)) {
			rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: line too long",
					 name, lineno);
			goto fail;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		if (parse_end(&s, &a) || parse_end(&s, &b)) {
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s:%d: not an opensm-subnet.lst link line",
					 name, lineno);
			goto fail;
		}
		rc = node_of(f, &a, &ia, e);
		if (!rc)
			rc = node_of(f, &b, &ib, e);
		if (rc)
			goto fail;
		if (apply_end(f, &a, ia) || apply_end(f, &b, ib)) {
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s:%d: port number beyond the node's ports",
					 name, lineno);
			goto fail;
		}
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
	if (ferror(in)) {
		rc = ibu_err_set(e, IBU_EIO, "%s: read error", name);
		goto fail;
	}
	if (!links) {
		rc = ibu_err_set(e, IBU_EPARSE, "%s: no link lines", name);
		goto fail;
	}
	rc = ibu_fabric_index(f, e);
	if (rc)
		goto fail;
	return IBU_OK;
fail:
	ibu_fabric_free(f);
	return rc;
}

int ibu_subnet_lst_read(const char *path, struct ibu_fabric *f,
			struct ibu_err *e)
{
	FILE *in = fopen(path, "r");
	int rc;

	if (!in)
		return ibu_err_set(e, IBU_EIO, "%s: cannot open", path);
	rc = ibu_subnet_lst_read_stream(in, path, f, e);
	fclose(in);
	return rc;
}
