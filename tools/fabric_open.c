/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* FABRIC arguments of every subcommand (see fabric_open.h). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/ibnetdisc.h>
#include "fabric_open.h"
#include "input.h"
#include "ibnd_cache.h"
#include "nodemap.h"
#include "netfile.h"
#include "subnet_lst.h"

const char *ibu_fabric_format_name(enum ibu_fabric_format fmt)
{
	switch (fmt) {
	case IBU_FABRIC_NETFILE: return "net file / ibnetdiscover output";
	case IBU_FABRIC_SUBNET_LST: return "opensm-subnet.lst";
	case IBU_FABRIC_IBND_CACHE: return "ibnetdiscover cache";
	}
	return "?";
}

/*
 * An ibnetdiscover cache is told by its magic number, not by binary bytes:
 * a text file with a stray NUL must reach the text readers, which name its
 * file and line. The first 4 KB decide.
 */
static enum ibu_fabric_format sniff(const char *text, size_t size)
{
	const unsigned char *buf = (const unsigned char *)text;
	size_t n = size < 4096 ? size : 4096, start = 0;

	if (ibu_ibnd_cache_sniff(buf, n))
		return IBU_FABRIC_IBND_CACHE;
	/* first line that is neither blank nor a comment, after a UTF-8
	 * byte order mark; a line longer than the buffer is judged by its
	 * start (opensm-subnet.lst lines start with their keys) */
	if (n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		start = 3;
	while (start < n) {
		size_t end = start, len;
		char line[4096 + 1];
		const char *s = line;

		while (end < n && buf[end] != '\n')
			end++;
		len = end - start;
		memcpy(line, buf + start, len);
		line[len] = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (*s && *s != '#')
			return ibu_subnet_lst_sniff(s) ? IBU_FABRIC_SUBNET_LST :
			       IBU_FABRIC_NETFILE;
		start = end + 1;
	}
	return IBU_FABRIC_NETFILE;
}

static enum ibu_node_type node_type(int t)
{
	return t == IB_NODE_SWITCH ? IBU_NODE_SWITCH :
	       t == IB_NODE_ROUTER ? IBU_NODE_ROUTER : IBU_NODE_CA;
}

int ibu_fabric_from_ibnd(ibnd_fabric_t *fab, const char *path,
			 struct ibu_fabric *f, struct ibu_err *e)
{
	ibnd_node_t *nd, **v = NULL;
	int rc, n = 0, idx, p;

	rc = ibu_fabric_init(f, path);
	if (rc)
		return ibu_err_set(e, rc, "out of memory");
	/* a node's index is its position in the list: nodes first ... */
	for (nd = fab->nodes; nd; nd = nd->next) {
		int np = nd->numports;

		if (np < 1 || np > IBU_MAX_PORTS) {
			rc = ibu_err_set(e, IBU_EPARSE,
					 "%s: node 0x%016llx has %d ports", path,
					 (unsigned long long)nd->guid, np);
			goto fail;
		}
		rc = ibu_fabric_add_node(f, node_type(nd->type),
					 nd->nodedesc[0] ? nd->nodedesc : "?",
					 nd->guid, np, &idx, e);
		if (rc)
			goto fail;
		for (p = 0; p <= np; p++) {
			ibnd_port_t *pt = nd->ports ? nd->ports[p] : NULL;
			struct ibu_port *q = &f->nodes[idx].ports[p];

			if (!pt)
				continue;
			if (p || nd->type == IB_NODE_SWITCH) {
				q->guid = pt->guid;
				q->lid = pt->base_lid;
				q->lmc = pt->lmc;
			}
		}
		n++;
	}
	/* ... then the cables, each once */
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
		goto fail;
	}
	for (nd = fab->nodes, idx = 0; nd; nd = nd->next)
		v[idx++] = nd;
	for (idx = 0; idx < n; idx++)
		for (p = 1; p <= v[idx]->numports; p++) {
			ibnd_port_t *pt = v[idx]->ports ? v[idx]->ports[p] : NULL;
			int ri, rp;

			if (!pt || !pt->remoteport || !pt->remoteport->node)
				continue;
			for (ri = 0; ri < n && v[ri] != pt->remoteport->node; ri++)
				;
			rp = pt->remoteport->portnum;
			if (ri == n || rp < 1 || rp > v[ri]->numports) {
				rc = ibu_err_set(e, IBU_EPARSE,
						 "%s: node 0x%016llx port %d: peer outside the fabric",
						 path, (unsigned long long)v[idx]->guid, p);
				goto fail;
			}
			if (ri > idx || (ri == idx && rp > p)) {
				rc = ibu_fabric_link(f, idx, p, ri, rp, e);
				if (rc)
					goto fail;
			}
		}
	free(v);
	v = NULL;
	rc = ibu_fabric_index(f, e);
	if (rc)
		goto fail;
	return IBU_OK;
fail:
	free(v);
	ibu_fabric_free(f);
	return rc;
}

static const char *name_map;	/* --node-name-map, set once by main() */
static const char *map_text;	/* its content, read once */
static size_t map_len;
static struct ibu_input_copy map_copy;

void ibu_fabric_open_name_map(const char *path)
{
	name_map = path;
}

/* The map is streamed the first time a fabric needs it, and its bytes
 * kept: a command that reads several fabrics reads a map given as a pipe
 * only once. */
static int apply_map(struct ibu_fabric *f, struct ibu_err *e)
{
	const char *name = ibu_input_name(name_map);
	FILE *in;
	int rc;

	if (map_text)
		in = ibu_input_mem(map_text, map_len, e);
	else if ((in = ibu_input_open(name_map, e)))
		in = ibu_input_tee(in, &map_copy, e);
	if (!in)
		return e->code;
	rc = ibu_nodemap_apply_stream(in, name, f, NULL, e);
	fclose(in);
	if (!map_text && !rc) {
		map_text = map_copy.buf ? map_copy.buf : "";
		map_len = map_copy.len;
	}
	return rc;
}

/* One fabric from in (streamed: a bad line is an error at once). */
static int parse(enum ibu_fabric_format k, FILE *in, const char *name,
		 struct ibu_fabric *f, struct ibu_err *e)
{
	char *buf;
	size_t len;
	int rc;

	memset(f, 0, sizeof(*f));
	if (k == IBU_FABRIC_SUBNET_LST)
		return ibu_subnet_lst_read_stream(in, name, f, e);
	if (k == IBU_FABRIC_NETFILE)
		return ibu_netfile_read_stream(in, name, f, e);
	/* our own bounded reader: libibnetdisc's trusts the file */
	rc = ibu_input_slurp(in, name, IBU_INPUT_MAX, &buf, &len, e);
	if (rc)
		return rc;
	rc = ibu_ibnd_cache_parse((const uint8_t *)buf, len, name, f, e);
	free(buf);
	return rc;
}

/* Copy i of the fabric, from in or (i > 0) from the bytes kept. */
static int parse_copy(enum ibu_fabric_format k, FILE *in, int i,
		      const struct ibu_input_copy *kept, const char *name,
		      struct ibu_fabric *f, struct ibu_err *e)
{
	FILE *m = i ? ibu_input_mem(kept->buf, kept->len, e) : in;
	int rc;

	if (!m)
		return e->code;
	rc = parse(k, m, name, f, e);
	if (i)
		fclose(m);
	if (!rc && name_map) {
		rc = apply_map(f, e);
		if (rc)
			ibu_fabric_free(f);
	}
	return rc;
}

int ibu_fabric_open_n(const char *path, struct ibu_fabric *f, int n,
		      enum ibu_fabric_format *fmt, struct ibu_err *e)
{
	const char *name = ibu_input_name(path), *head;
	struct ibu_input_copy kept = { NULL, 0, 0 };
	enum ibu_fabric_format k;
	size_t len;
	FILE *in;
	int rc = IBU_OK, i;

	/* read once: a pipe, a FIFO or <(...) works as a file does; the
	 * head tells the format and is read again by the parser */
	in = ibu_input_open_peek(path, 4096, &head, &len, e);
	if (!in)
		return e->code;
	k = sniff(head, len);
	if (fmt)
		*fmt = k;
	if (n > 1 && !(in = ibu_input_tee(in, &kept, e)))
		return e->code;
	for (i = 0; i < n && !rc; i++)
		rc = parse_copy(k, in, i, &kept, name, &f[i], e);
	while (rc && --i > 0)
		ibu_fabric_free(&f[i - 1]);
	fclose(in);
	free(kept.buf);
	return rc;
}

int ibu_fabric_open(const char *path, struct ibu_fabric *f,
		    enum ibu_fabric_format *fmt, struct ibu_err *e)
{
	return ibu_fabric_open_n(path, f, 1, fmt, e);
}
