/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibsim net files and ibnetdiscover topology files.
 *
 *   Switch 8 "id" [# "description" [enhanced port 0] [lid N lmc L]]
 *   [port]  "remote id"[remote port][(remote port guid)]  [# comment]
 *   Hca|Ca|Rt 2 "id" [# "description"]
 *   [port](port guid)  "remote id"[remote port]  [# lid N lmc L ...]
 *   switchguid=0x.. / caguid=0x.. / hcaguids=0x.. / rtguid=0x.. (= absolute,
 *   + relative), other key=value lines, "ibwarn:" lines (stderr captured
 *   with the output) and # comments are ignored; any other line is an
 *   error, so a file that is not a net file is not read as an empty one.
 * A record ends at the first line that is not a port line or comment.
 * Records are read first and cabled afterwards, so links may point forward.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "lineio.h"
#include "netfile.h"
#include "num.h"

enum { GUID_CA, GUID_SW, GUID_RT, GUID_KINDS };

struct pending_link {
	int node;
	int port;
	char *remote;
	int rport;
	int line;
};

struct reader {
	const char *name;
	struct ibu_fabric *f;
	struct ibu_err *e;
	uint64_t abs_guid[GUID_KINDS];
	uint64_t next_guid[GUID_KINDS];
	char **ids;			/* node index -> record id */
	int num_ids;			/* ids set (an error may leave the
					 * last node without one) */
	struct pending_link *links;
	int num_links, cap_links;
	int cur;			/* node of the open record, -1 none */
};

static char *skip_ws(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* Quoted string at s (after blanks): returns a pointer to its text, NUL
 * terminated in place, and sets *rest after the closing quote. */
static char *quoted(char *s, char **rest)
{
	char *end;

	s = skip_ws(s);
	if (*s != '"')
		return NULL;
	end = strchr(s + 1, '"');
	if (!end)
		return NULL;
	*end = '\0';
	*rest = end + 1;
	return s + 1;
}

static int perr(struct reader *r, int line, const char *what, const char *text)
{
	return ibu_err_set(r->e, IBU_EPARSE, "%s:%d: %s%s%s%s", r->name, line,
			   what, text ? ": '" : "", text ? text : "",
			   text ? "'" : "");
}

/* "lid N" and "lmc L" in a comment: a number there is routing data, so a
 * damaged one is an error; "lid" followed by a word is just text. */
static int comment_lid(struct reader *r, int lineno, const char *c,
		       uint16_t *lid, uint8_t *lmc)
{
	const char *s = strstr(c, "lid "), *end;
	uint64_t v;

	if (!s || !isdigit((unsigned char)s[4]))
		return IBU_OK;
	if (ibu_num(s + 4, IBU_NUM_AUTO, 0, IBU_MAX_UCAST_LID, &v, &end) ||
	    (*end && !isspace((unsigned char)*end)))
		return ibu_err_set(r->e, IBU_EPARSE,
				   "%s:%d: bad LID in comment (0..0xbfff): '%.20s'",
				   r->name, lineno, s + 4);
	*lid = (uint16_t)v;
	s = strstr(end, "lmc ");
	if (s && isdigit((unsigned char)s[4])) {
		if (ibu_num(s + 4, IBU_NUM_DEC, 0, 7, &v, &end) ||
		    (*end && !isspace((unsigned char)*end)))
			return ibu_err_set(r->e, IBU_EPARSE,
					   "%s:%d: bad LMC in comment (0..7): '%.20s'",
					   r->name, lineno, s + 4);
		*lmc = (uint8_t)v;
	}
	return IBU_OK;
}

static int guid_directive(struct reader *r, char *line, int lineno)
{
	int kind;
	char *s, *t;
	const char *end;
	uint64_t v;

	if (!strncmp(line, "switchguid", 10))
		kind = GUID_SW;
	else if (!strncmp(line, "caguid", 6) || !strncmp(line, "hcaguids", 8))
		kind = GUID_CA;
	else if (!strncmp(line, "rtguid", 6))
		kind = GUID_RT;
	else
		return 0;
	s = strpbrk(line, "=+");
	if (!s)
		return perr(r, lineno, "GUID directive without '=' or '+'", line);
	t = skip_ws(s + 1);
	if (!isdigit((unsigned char)*t))
		return perr(r, lineno, "GUID directive without a number", line);
	if ((t[0] == '0' && (t[1] == 'x' || t[1] == 'X') ?
	     ibu_num_guid(t, &v, &end) :
	     ibu_num(t, IBU_NUM_DEC, 0, UINT64_MAX, &v, &end)) ||
	    (*end && *end != '(' && !isspace((unsigned char)*end)))
		return perr(r, lineno, "bad number in GUID directive (a GUID is 1-16 hex digits)", line);
	if (*s == '=' && !v)
		return perr(r, lineno, "GUID 0 in a GUID directive", line);
	if (*s == '+') {
		r->next_guid[kind] = r->abs_guid[kind] + v;
	} else {
		r->abs_guid[kind] = v;
		r->next_guid[kind] = v;
	}
	return 1;
}

static int add_pending(struct reader *r, int node, int port, const char *remote,
		       int rport, int line)
{
	struct pending_link *pl;

	if (r->num_links == r->cap_links) {
		int cap = r->cap_links ? 2 * r->cap_links : 256;
		struct pending_link *n = realloc(r->links, cap * sizeof(*n));

		if (!n)
			return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
		r->links = n;
		r->cap_links = cap;
	}
	pl = &r->links[r->num_links];
	pl->remote = strdup(remote);
	if (!pl->remote)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	pl->node = node;
	pl->port = port;
	pl->rport = rport;
	pl->line = line;
	r->num_links++;
	return IBU_OK;
}

static int node_header(struct reader *r, char *line, int lineno)
{
	enum ibu_node_type type;
	int kind, idx, rc, nports;
	char *s = line, *id, *rest, *desc = NULL, **ids;
	const char *end;
	uint64_t guid;
	struct ibu_node *n;

	if (!strncmp(s, "Switch", 6)) {
		type = IBU_NODE_SWITCH;
		kind = GUID_SW;
		s += 6;
	} else if (!strncmp(s, "Hca", 3) || !strncmp(s, "Ca", 2)) {
		type = IBU_NODE_CA;
		kind = GUID_CA;
		s += s[0] == 'H' ? 3 : 2;
	} else {
		type = IBU_NODE_ROUTER;
		kind = GUID_RT;
		s += 2;
	}
	s = skip_ws(s);
	if (!isdigit((unsigned char)*s))
		return perr(r, lineno, "node header without a port count", line);
	if (ibu_num_int(s, IBU_NUM_DEC, 1, IBU_MAX_PORTS, &nports, &end) ||
	    !isspace((unsigned char)*end))
		return perr(r, lineno, "port count out of range 1..254", line);
	id = quoted((char *)end, &rest);
	if (!id)
		return perr(r, lineno, "node header without a quoted id", line);
	s = strchr(rest, '#');
	if (s) {
		char *drest;

		desc = quoted(s + 1, &drest);
		rest = desc ? drest : s + 1;
	}
	guid = r->next_guid[kind];
	rc = ibu_fabric_add_node(r->f, type, desc && *desc ? desc : id, guid,
				 nports, &idx, r->e);
	if (rc)
		return rc;
	/* ibsim reserves one GUID per switch and nports + 1 per end node */
	r->next_guid[kind] += type == IBU_NODE_SWITCH ? 1 : (uint64_t)nports + 1;
	n = &r->f->nodes[idx];
	n->line = lineno;
	/* the id first: the clean-up frees one id per node */
	ids = realloc(r->ids, (idx + 1) * sizeof(*ids));
	if (!ids)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	r->ids = ids;
	r->ids[idx] = strdup(id);
	if (!r->ids[idx])
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	r->num_ids = idx + 1;
	r->cur = idx;
	if (type == IBU_NODE_SWITCH && s)
		return comment_lid(r, lineno, rest, &n->ports[0].lid,
				   &n->ports[0].lmc);
	return IBU_OK;
}

static int port_line(struct reader *r, char *line, int lineno)
{
	struct ibu_node *n = &r->f->nodes[r->cur];
	char *s = line + 1, *remote, *rest, *c;
	const char *end;
	int port, rport = 1;

	if (ibu_num_int(s, IBU_NUM_DEC, 0, INT_MAX, &port, &end) ||
	    *end != ']')
		return perr(r, lineno, "bad port number", line);
	if (port < 1 || port > n->num_ports)
		return ibu_err_set(r->e, IBU_EPARSE,
				   "%s:%d: port %d of '%s' is outside 1..%d",
				   r->name, lineno, port, n->name, n->num_ports);
	s = (char *)end + 1;
	if (*s == '(') {	/* ibnetdiscover: local port GUID */
		uint64_t g;

		if (ibu_num_guid(s + 1, &g, &end) || *end != ')')
			return perr(r, lineno, "bad port GUID (1-16 hex digits)", line);
		if (!ibu_node_is_switch(n) && g) {
			n->ports[port].guid = g;
			n->ports[port].line = lineno;
		}
		s = strchr(s, ')');
		if (!s)
			return perr(r, lineno, "unterminated port GUID", line);
		s++;
	}
	remote = quoted(s, &rest);
	if (!remote)
		return perr(r, lineno, "port line without a quoted remote id",
			    line);
	if (*rest == '[' &&
	    (ibu_num_int(rest + 1, IBU_NUM_DEC, 1, IBU_MAX_PORTS, &rport, &end) ||
	     *end != ']'))
		return perr(r, lineno, "bad remote port number", line);
	c = strchr(rest, '#');
	if (c && !ibu_node_is_switch(n)) {
		int rc = comment_lid(r, lineno, c, &n->ports[port].lid,
				     &n->ports[port].lmc);

		if (rc)
			return rc;
	}
	return add_pending(r, r->cur, port, remote, rport, lineno);
}

/* key=value or key+value (ibsim's relative GUIDs), key a C identifier */
static int is_directive(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '=' || *s == '+';
}

static int parse_line(struct reader *r, char *line, int lineno)
{
	char *s;
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	s = skip_ws(line);
	if (*s == '#')
		return IBU_OK;
	if (*s == '[') {
		if (r->cur < 0)
			return perr(r, lineno, "port line outside a node record",
				    s);
		return port_line(r, s, lineno);
	}
	r->cur = -1;
	if (!*s)
		return IBU_OK;
	if (!strncmp(s, "Switch", 6) || !strncmp(s, "Hca", 3) ||
	    !strncmp(s, "Ca", 2) || !strncmp(s, "Rt", 2))
		return node_header(r, s, lineno);
	if (guid_directive(r, s, lineno) < 0)
		return r->e ? r->e->code : IBU_EPARSE;
	/* vendid=, devid=, sysimgguid=, width=, speed=, ... : no routing
	 * meaning; libibumad's "ibwarn:" lines land in captures made with
	 * 2>&1; anything else is not a net file line */
	if (!is_directive(s) && strncmp(s, "ibwarn:", 7) && !r->f->num_nodes)
		return ibu_err_set(r->e, IBU_EPARSE,
				   "%s:%d: no node records (not a net file?): '%.40s'",
				   r->name, lineno, s);
	if (!is_directive(s) && strncmp(s, "ibwarn:", 7))
		return ibu_err_set(r->e, IBU_EPARSE,
				   "%s:%d: not a net file line (record, port line, key=value or # comment): '%.40s'",
				   r->name, lineno, s);
	return IBU_OK;
}

struct id_entry {
	const char *id;
	int node;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct id_entry *x = a, *y = b;

	return strcmp(x->id, y->id);
}

static int cable(struct reader *r)
{
	int n = r->f->num_nodes, i, rc = IBU_OK;
	struct id_entry *tab = malloc((n ? n : 1) * sizeof(*tab));

	if (!tab)
		return ibu_err_set(r->e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		tab[i].id = r->ids[i];
		tab[i].node = i;
	}
	qsort(tab, n, sizeof(*tab), entry_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(tab[i].id, tab[i - 1].id)) {
			rc = ibu_err_set(r->e, IBU_EPARSE,
					 "%s:%d: node id '%s' already used at line %d",
					 r->name, r->f->nodes[tab[i].node].line,
					 tab[i].id,
					 r->f->nodes[tab[i - 1].node].line);
			goto out;
		}
	for (i = 0; i < r->num_links; i++) {
		struct pending_link *pl = &r->links[i];
		struct id_entry key = { pl->remote, 0 }, *hit;
		struct ibu_node *a, *b;

		hit = bsearch(&key, tab, n, sizeof(*tab), entry_cmp);
		if (!hit) {
			rc = ibu_err_set(r->e, IBU_EPARSE,
					 "%s:%d: port %d of '%s' is cabled to unknown node '%s'",
					 r->name, pl->line, pl->port,
					 r->f->nodes[pl->node].name, pl->remote);
			goto out;
		}
		a = &r->f->nodes[pl->node];
		b = &r->f->nodes[hit->node];
		if (pl->rport > b->num_ports) {
			rc = ibu_err_set(r->e, IBU_EPARSE,
					 "%s:%d: '%s' has only %d ports, port %d named",
					 r->name, pl->line, b->name, b->num_ports,
					 pl->rport);
			goto out;
		}
		if (a->ports[pl->port].peer_node >= 0 &&
		    (a->ports[pl->port].peer_node != hit->node ||
		     a->ports[pl->port].peer_port != pl->rport)) {
			rc = ibu_err_set(r->e, IBU_EPARSE,
					 "%s:%d: port %d of '%s' is cabled twice",
					 r->name, pl->line, pl->port, a->name);
			goto out;
		}
		rc = ibu_fabric_link(r->f, pl->node, pl->port, hit->node,
				     pl->rport, r->e);
		if (rc) {
			ibu_err_prefix(r->e, "%s:%d", r->name, pl->line);
			goto out;
		}
	}
out:
	free(tab);
	return rc;
}

int ibu_netfile_read_stream(FILE *in, const char *name, struct ibu_fabric *f,
			    struct ibu_err *e)
{
	struct reader r;
	struct ibu_lines lines;
	int rc, i;

	rc = ibu_fabric_init(f, name);
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	memset(&r, 0, sizeof(r));
	r.name = name;
	r.f = f;
	r.e = e;
	r.cur = -1;
	/* ibsim's defaults */
	r.abs_guid[GUID_CA] = r.next_guid[GUID_CA] = 0x100000;
	r.abs_guid[GUID_SW] = r.next_guid[GUID_SW] = 0x200000;
	r.abs_guid[GUID_RT] = r.next_guid[GUID_RT] = 0x300000;
	ibu_lines_init(&lines, in, name);
	while ((rc = ibu_lines_next(&lines, e)) > 0) {
		char *line = lines.line;

		if (lines.lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
			line += 3;	/* a UTF-8 byte order mark */
		rc = parse_line(&r, line, lines.lineno);
		if (rc)
			goto out;
	}
	if (rc < 0)
		goto out;
	if (f->num_nodes == 0) {
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no node records (not a net file?)",
				 name, lines.lineno ? lines.lineno : 1);
		goto out;
	}
	rc = cable(&r);
	if (!rc)
		rc = ibu_fabric_index(f, e);
	if (!rc)
		rc = ibu_fabric_check_guids(f, e);
out:
	ibu_lines_free(&lines);
	for (i = 0; i < r.num_ids && r.ids; i++)
		free(r.ids[i]);
	free(r.ids);
	for (i = 0; i < r.num_links; i++)
		free(r.links[i].remote);
	free(r.links);
	if (rc)
		ibu_fabric_free(f);
	return rc;
}

int ibu_netfile_read(const char *path, struct ibu_fabric *f, struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in) {
		memset(f, 0, sizeof(*f));
		return e ? e->code : IBU_EIO;
	}
	rc = ibu_netfile_read_stream(in, ibu_input_name(path), f, e);
	fclose(in);
	return rc;
}

static const char *type_word(enum ibu_node_type t)
{
	switch (t) {
	case IBU_NODE_SWITCH: return "Switch";
	case IBU_NODE_ROUTER: return "Rt";
	default: return "Hca";
	}
}

/* A name the reader gives back unchanged: no quote, no control character. */
static int writable_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s == '"' || iscntrl((unsigned char)*s))
			return 0;
	return 1;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names are the record ids of a net file: each must be unique. */
static int unique_names(const struct ibu_fabric *f, struct ibu_err *e)
{
	size_t n = f->num_nodes > 0 ? (size_t)f->num_nodes : 1;
	const char **v = malloc(n * sizeof(*v));
	int i, rc = IBU_OK;

	if (!v)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++)
		v[i] = f->nodes[i].name;
	qsort(v, (size_t)f->num_nodes, sizeof(*v), name_cmp);
	for (i = 1; i < f->num_nodes; i++)
		if (!strcmp(v[i], v[i - 1])) {
			rc = ibu_err_set(e, IBU_EINVAL,
					 "two nodes are named '%s': a net file needs unique names",
					 v[i]);
			break;
		}
	free(v);
	return rc;
}

int ibu_netfile_write(FILE *out, const struct ibu_fabric *f, struct ibu_err *e)
{
	int i, p, rc;

	for (i = 0; i < f->num_nodes; i++)
		if (!writable_name(f->nodes[i].name))
			return ibu_err_set(e, IBU_EINVAL,
					   "node name '%s' cannot be written to a net file (empty, or holds a '\"' or a control character)",
					   f->nodes[i].name);
	rc = unique_names(f, e);
	if (rc)
		return rc;
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		fprintf(out, "%s\t%d \"%s\"\n", type_word(n->type),
			n->num_ports, n->name);
		for (p = 1; p <= n->num_ports; p++) {
			const struct ibu_port *pt = &n->ports[p];

			if (pt->peer_node < 0)
				continue;
			fprintf(out, "[%d]\t\"%s\"[%d]\n", p,
				f->nodes[pt->peer_node].name, pt->peer_port);
		}
		fputc('\n', out);
	}
	if (ferror(out))
		return ibu_err_set(e, IBU_EIO, "write error");
	return IBU_OK;
}
