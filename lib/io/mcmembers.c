/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Multicast group membership and its text file. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "input.h"
#include "lineio.h"
#include "mcmembers.h"
#include "num.h"

void ibu_mcmembers_init(struct ibu_mcmembers *mm)
{
	memset(mm, 0, sizeof(*mm));
}

void ibu_mcmembers_free(struct ibu_mcmembers *mm)
{
	int i;

	if (!mm)
		return;
	for (i = 0; i < mm->num_groups; i++)
		free(mm->g[i].m);
	free(mm->g);
	memset(mm, 0, sizeof(*mm));
}

static int group_pos(const struct ibu_mcmembers *mm, uint16_t mlid)
{
	int lo = 0, hi = mm->num_groups;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (mm->g[mid].mlid < mlid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ibu_mcgroup *ibu_mcmembers_find(const struct ibu_mcmembers *mm,
					     uint16_t mlid)
{
	int i = group_pos(mm, mlid);

	return (i < mm->num_groups && mm->g[i].mlid == mlid) ? &mm->g[i] : NULL;
}

int ibu_mcmembers_add(struct ibu_mcmembers *mm, uint16_t mlid,
		      const struct ibu_mcast_member *m, struct ibu_err *e)
{
	struct ibu_mcgroup *g;
	int i = group_pos(mm, mlid), k;

	if (mlid < IBU_MCAST_LID_BASE || mlid > 0xFFFE)
		return ibu_err_set(e, IBU_EINVAL, "0x%x is not a multicast LID",
				   mlid);
	if (i == mm->num_groups || mm->g[i].mlid != mlid) {
		if (mm->num_groups == mm->cap_groups) {
			int cap = mm->cap_groups ? 2 * mm->cap_groups : 16;
			struct ibu_mcgroup *ng = realloc(mm->g, cap * sizeof(*ng));

			if (!ng)
				return ibu_err_set(e, IBU_ENOMEM, "out of memory (members)");
			mm->g = ng;
			mm->cap_groups = cap;
		}
		memmove(&mm->g[i + 1], &mm->g[i],
			(mm->num_groups - i) * sizeof(*mm->g));
		memset(&mm->g[i], 0, sizeof(mm->g[i]));
		mm->g[i].mlid = mlid;
		mm->num_groups++;
	}
	g = &mm->g[i];
	for (k = 0; k < g->num; k++)
		if (g->m[k].node == m->node && g->m[k].port == m->port) {
			g->m[k].send_only &= m->send_only;
			return IBU_OK;
		}
	if (g->num == g->cap) {
		int cap = g->cap ? 2 * g->cap : 8;
		struct ibu_mcast_member *nm = realloc(g->m, cap * sizeof(*nm));

		if (!nm)
			return ibu_err_set(e, IBU_ENOMEM, "out of memory (members)");
		g->m = nm;
		g->cap = cap;
	}
	g->m[g->num++] = *m;
	return IBU_OK;
}

static int perr(struct ibu_err *e, const char *name, int line,
		const char *what, const char *tok)
{
	return ibu_err_set(e, IBU_EPARSE, "%s:%d: %s%s%s%s", name, line, what,
			   tok ? ": '" : "", tok ? tok : "", tok ? "'" : "");
}

/* Resolves a member token (port GUID or node name) to node/port. */
static int resolve(const struct ibu_fabric *f, const char *tok, int port_opt,
		   struct ibu_mcast_member *m)
{
	int node = -1, port = 0;

	if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
		uint64_t guid;

		if (!ibu_num_guid(tok, &guid, NULL))
			node = ibu_fabric_find_port_guid(f, guid, &port);
	}
	if (node < 0) {
		node = ibu_fabric_find_name(f, tok);
		if (node < 0)
			return -1;
		port = ibu_node_is_switch(&f->nodes[node]) ? 0 : 1;
	}
	if (port_opt >= 0)
		port = port_opt;
	if (ibu_node_is_switch(&f->nodes[node]) ? port != 0 :
	    (port < 1 || port > f->nodes[node].num_ports))
		return -2;
	m->node = node;
	m->port = port;
	return 0;
}

/*
 * `saquery -m --smkey KEY` prints one block per member port (and
 * `saquery MCMR --smkey KEY [--mlid MLID]` a longer one, "MCMember Record
 * dump:", with mlid, PortGid and JoinState):
 *
 *   MCMemberRecord member dump:
 *           MGID....................ff12:601b:ffff::1
 *           Mlid....................0xC001
 *           PortGid.................fe80::10:1
 *           ScopeState..............0x1
 *           ...
 *
 * The port GUID is the low half of PortGid; the low nibble of ScopeState
 * is the join state (bit 0 full, bit 1 non-member: both receive; bits 2, 3
 * send-only), read as the plugin reads OpenSM's. Without the SM key
 * OpenSM's SA hides PortGid (::) and the join state: such a dump says who
 * the members are not, so it is refused.
 */
struct sa_rec {
	int open;		/* a header was seen, not yet added */
	int lineno;		/* of the header, for messages */
	long mlid;		/* -1 until seen */
	int have_gid;
	uint64_t guid;
	int join;
};

/* "  Key.....value": 1 with *key (NUL-terminated) and *val, else 0. */
static int sa_field(char *line, char **key, char **val)
{
	char *s = line, *k, *d;

	while (*s == ' ' || *s == '\t')
		s++;
	k = s;
	while (isalnum((unsigned char)*s) || *s == '_')	/* pkt_life */
		s++;
	if (s == k || s[0] != '.' || s[1] != '.')
		return 0;
	d = s;
	while (*s == '.')
		s++;
	*d = '\0';
	*key = k;
	*val = s;
	s += strcspn(s, " \t\r\n");
	*s = '\0';
	return 1;
}

/* Adds the member of a complete record. */
static int sa_rec_add(struct sa_rec *r, const char *name,
		      const struct ibu_fabric *f, struct ibu_mcmembers *mm,
		      struct ibu_err *e)
{
	struct ibu_mcast_member m = { 0 };
	int node, port;

	r->open = 0;
	if (r->mlid < 0 || !r->have_gid)
		return perr(e, name, r->lineno,
			    "MCMemberRecord without Mlid or PortGid", NULL);
	if (!r->guid)
		return perr(e, name, r->lineno,
			    "MCMemberRecord with PortGid :: (saquery -m without --smkey: OpenSM hides the members; run saquery -m --smkey KEY with OpenSM's sm_key, 1 by default)",
			    NULL);
	node = ibu_fabric_find_port_guid(f, r->guid, &port);
	if (node < 0)
		return ibu_err_set(e, IBU_ENOTFOUND, "%s:%d: no port GUID 0x%016" PRIx64 " in the fabric",
				   name, r->lineno, r->guid);
	m.node = node;
	m.port = port;
	m.send_only = r->join && !(r->join & 0x3);
	return ibu_mcmembers_add(mm, (uint16_t)r->mlid, &m, e);
}

/* One line of saquery -m output: 1 consumed, 0 not such a line, < 0 error. */
static int sa_line(char *line, int lineno, const char *name, struct sa_rec *r,
		   const struct ibu_fabric *f, struct ibu_mcmembers *mm,
		   struct ibu_err *e)
{
	unsigned char gid[16];
	char *key, *val;
	uint64_t v;
	int i;

	if (strstr(line, "MCMemberRecord group dump:"))
		return perr(e, name, lineno,
			    "saquery -g output lists groups, not their members (use saquery -m --smkey KEY)",
			    NULL);
	if (strstr(line, "MCMemberRecord member dump:") ||
	    strstr(line, "MCMember Record dump:")) {
		if (r->open) {
			int rc = sa_rec_add(r, name, f, mm, e);

			if (rc)
				return rc;
		}
		*r = (struct sa_rec){ .open = 1, .lineno = lineno, .mlid = -1 };
		return 1;
	}
	if (!sa_field(line, &key, &val))
		return 0;
	if (!r->open)
		return perr(e, name, lineno,
			    "saquery field outside a record (saquery -m MLID prints neither MLID nor join state: use saquery -m --smkey KEY, or saquery MCMR --smkey KEY --mlid MLID)",
			    NULL);
	if (!strcmp(key, "Mlid") || !strcmp(key, "mlid")) {
		if (ibu_num(val, IBU_NUM_HEX, IBU_MCAST_LID_BASE, 0xFFFE, &v, NULL))
			return perr(e, name, lineno, "bad Mlid", val);
		r->mlid = (long)v;
	} else if (!strcmp(key, "PortGid")) {
		if (inet_pton(AF_INET6, val, gid) != 1)
			return perr(e, name, lineno, "bad PortGid", val);
		r->guid = 0;
		for (i = 8; i < 16; i++)
			r->guid = r->guid << 8 | gid[i];
		r->have_gid = 1;
	} else if (!strcmp(key, "ScopeState")) {
		if (ibu_num(val, IBU_NUM_HEX, 0, 0xFF, &v, NULL))
			return perr(e, name, lineno, "bad ScopeState", val);
		r->join = (int)(v & 0x0F);
	} else if (!strcmp(key, "JoinState")) {	/* saquery MCMR */
		if (ibu_num(val, IBU_NUM_HEX, 0, 0x0F, &v, NULL))
			return perr(e, name, lineno, "bad JoinState", val);
		r->join = (int)v;
	}
	return 1;	/* MGID, ProxyJoin, NodeDescription ...: not needed */
}

/* The words after "MLID member": port=N, full, send-only. */
static int member_words(char **tok, int nt, const char *name, int lineno,
			int *port, struct ibu_mcast_member *m,
			struct ibu_err *e)
{
	int i, v;

	for (i = 2; i < nt; i++) {
		if (!strncmp(tok[i], "port=", 5)) {
			if (ibu_num_int(tok[i] + 5, IBU_NUM_AUTO, 0,
					IBU_MAX_PORTS, &v, NULL))
				return perr(e, name, lineno, "bad port", tok[i]);
			*port = v;
		} else if (!strcmp(tok[i], "full")) {
			m->send_only = 0;
		} else if (!strcmp(tok[i], "send-only")) {
			m->send_only = 1;
		} else {
			return perr(e, name, lineno, "unknown word", tok[i]);
		}
	}
	return IBU_OK;
}

/* One "MLID member [port=N] [full|send-only]" line (comment stripped
 * here); a blank line adds nothing. */
static int member_line(char *line, int lineno, const char *name,
		       const struct ibu_fabric *f, struct ibu_mcmembers *mm,
		       struct ibu_err *e)
{
	char *tok[5], *s, *save = NULL;
	struct ibu_mcast_member m = { 0 };
	uint64_t mlid;
	int nt = 0, port = -1, r, rc;

	s = strchr(line, '#');
	if (s)
		*s = '\0';
	for (s = strtok_r(line, " \t\r\n", &save); s && nt < 5;
	     s = strtok_r(NULL, " \t\r\n", &save))
		tok[nt++] = s;
	if (!nt)
		return IBU_OK;
	if (nt < 2 || s)
		return perr(e, name, lineno, "expected 'MLID member [port=N] [full|send-only]'",
			    NULL);
	if (ibu_num(tok[0], IBU_NUM_AUTO, IBU_MCAST_LID_BASE, 0xFFFE,
		    &mlid, NULL))
		return perr(e, name, lineno, "bad MLID", tok[0]);
	rc = member_words(tok, nt, name, lineno, &port, &m, e);
	if (rc)
		return rc;
	r = resolve(f, tok[1], port, &m);
	if (r == -1)
		return ibu_err_set(e, IBU_ENOTFOUND, "%s:%d: no port GUID or node named '%s' in the fabric",
				   name, lineno, tok[1]);
	if (r == -2)
		return perr(e, name, lineno, "the node has no such member port", tok[1]);
	return ibu_mcmembers_add(mm, (uint16_t)mlid, &m, e);
}

int ibu_mcmembers_read_stream(FILE *in, const char *name,
			      const struct ibu_fabric *f,
			      struct ibu_mcmembers *mm, struct ibu_err *e)
{
	struct ibu_lines lines;
	struct sa_rec sa = { .mlid = -1 };
	int lineno = 0, rc = IBU_OK, got, sr;

	ibu_mcmembers_init(mm);
	ibu_lines_init(&lines, in, name);
	while ((got = ibu_lines_next(&lines, e)) > 0) {
		lineno = lines.lineno;
		sr = sa_line(lines.line, lineno, name, &sa, f, mm, e);
		if (sr < 0) {
			rc = sr;
			break;
		}
		if (sr > 0)
			continue;
		rc = member_line(lines.line, lineno, name, f, mm, e);
		if (rc)
			break;
	}
	if (!rc && got < 0)
		rc = got;
	if (!rc && sa.open)
		rc = sa_rec_add(&sa, name, f, mm, e);
	if (!rc && !mm->num_groups)
		rc = ibu_err_set(e, IBU_EPARSE, "%s:%d: no member line (empty members file?)",
				 name, lineno ? lineno : 1);
	ibu_lines_free(&lines);
	if (rc)
		ibu_mcmembers_free(mm);
	return rc;
}

int ibu_mcmembers_read(const char *path, const struct ibu_fabric *f,
		       struct ibu_mcmembers *mm, struct ibu_err *e)
{
	FILE *in = ibu_input_open(path, e);
	int rc;

	if (!in)
		return e ? e->code : IBU_EIO;
	rc = ibu_mcmembers_read_stream(in, ibu_input_name(path), f, mm, e);
	fclose(in);
	return rc;
}

int ibu_mcmembers_write(FILE *out, const struct ibu_fabric *f,
			const struct ibu_mcmembers *mm, struct ibu_err *e)
{
	int i, k;

	fprintf(out, "# MLID  member-port-GUID  port  join-state  # node\n");
	for (i = 0; i < mm->num_groups; i++) {
		const struct ibu_mcgroup *g = &mm->g[i];

		for (k = 0; k < g->num; k++) {
			const struct ibu_mcast_member *m = &g->m[k];
			const struct ibu_node *nd;
			uint64_t guid;

			if (m->node < 0 || m->node >= f->num_nodes)
				return ibu_err_set(e, IBU_EINVAL, "member node %d out of range",
						   m->node);
			nd = &f->nodes[m->node];
			guid = ibu_node_is_switch(nd) ? nd->guid :
			       nd->ports[m->port].guid;
			fprintf(out, "0x%04x 0x%016" PRIx64 " port=%d %s # %s\n",
				g->mlid, guid, m->port,
				m->send_only ? "send-only" : "full", nd->name);
		}
	}
	if (ferror(out))
		return ibu_err_set(e, IBU_EIO, "write error");
	return IBU_OK;
}
