/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* FABRIC arguments of every subcommand (see fabric_open.h). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/ibnetdisc.h>
#include "fabric_open.h"
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
 * file and line.
 */
static int sniff(FILE *in, enum ibu_fabric_format *fmt)
{
	unsigned char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf), in), start = 0;

	if (ferror(in))
		return -1;
	if (ibu_ibnd_cache_sniff(buf, n)) {
		*fmt = IBU_FABRIC_IBND_CACHE;
		return 0;
	}
	*fmt = IBU_FABRIC_NETFILE;
	/* first line that is neither blank nor a comment, after a UTF-8
	 * byte order mark; a line longer than the buffer is judged by its
	 * start (opensm-subnet.lst lines start with their keys) */
	if (n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		start = 3;
	while (start < n) {
		size_t end = start, len;
		char line[sizeof(buf) + 1];
		const char *s = line;

		while (end < n && buf[end] != '\n')
			end++;
		len = end - start;
		memcpy(line, buf + start, len);
		line[len] = '\0';
		while (isspace((unsigned char)*s))
			s++;
		if (*s && *s != '#') {
			if (ibu_subnet_lst_sniff(s))
				*fmt = IBU_FABRIC_SUBNET_LST;
			break;
		}
		start = end + 1;
	}
	return 0;
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

void ibu_fabric_open_name_map(const char *path)
{
	name_map = path;
}

static int open_format(const char *path, struct ibu_fabric *f,
		       enum ibu_fabric_format *fmt, struct ibu_err *e);

int ibu_fabric_open(const char *path, struct ibu_fabric *f,
		    enum ibu_fabric_format *fmt, struct ibu_err *e)
{
	int rc = open_format(path, f, fmt, e);

	if (rc || !name_map)
		return rc;
	rc = ibu_nodemap_apply(name_map, f, NULL, e);
	if (rc)
		ibu_fabric_free(f);
	return rc;
}

static int open_format(const char *path, struct ibu_fabric *f,
		       enum ibu_fabric_format *fmt, struct ibu_err *e)
{
	enum ibu_fabric_format k;
	FILE *in = fopen(path, "rb");
	int rc;

	if (!in)
		return ibu_err_set(e, IBU_EIO, "%s: cannot open", path);
	rc = sniff(in, &k);
	fclose(in);
	if (rc)
		return ibu_err_set(e, IBU_EIO, "%s: read error", path);
	if (fmt)
		*fmt = k;
	switch (k) {
	case IBU_FABRIC_SUBNET_LST:
		return ibu_subnet_lst_read(path, f, e);
	case IBU_FABRIC_IBND_CACHE:
		/* our own bounded reader: libibnetdisc's trusts the file */
		return ibu_ibnd_cache_read(path, f, e);
	case IBU_FABRIC_NETFILE:
		break;
	}
	return ibu_netfile_read(path, f, e);
}
