/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion trace [--live | -C CA -P PORT] [FABRIC LFTDUMP] SRC DST
 * The hop-by-hop route from SRC to DST through the LFTs, printed as
 * ibtracert prints it; from files or (through tools/live_args.c) from the
 * live fabric.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "fabric_open.h"
#include "dump.h"

void ibu_cmd_trace_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion trace [options] FABRIC LFTDUMP SRC DST\n"
		"       ibunion trace --live|-C CA|-P PORT [options] SRC DST\n"
		"  follows the unicast forwarding tables of LFTDUMP (dump_lfts /\n"
		"  ibroute / opensm-lfts.dump; or the switches themselves with --live)\n"
		"  from SRC to DST over FABRIC and prints every hop as ibtracert does.\n"
		"  SRC and DST: a node name, a port GUID, a node GUID (a CA's first\n"
		"  cabled port, a switch's port 0) or a LID (decimal or 0x hex; the\n"
		"  route is followed on that LID, else on DST's base LID)\n"
		"options:\n"
		"  --live              read the fabric and its tables from the local\n"
		"                      port (libibnetdisc + SMPs), no files\n"
		"  -C CA, -P PORT      the same, from this CA / port\n"
		"  --live-save DIR     keep what was read in DIR (fabric cache, dumps)\n"
		"  -q, --quiet         no hop lines, only the verdict\n"
		"exit status: 0 DST reached, 1 the route breaks (no entry, dead end,\n"
		"loop), 2 usage, 3 bad input\n");
}

struct endpoint {
	int node, port;		/* port 0 for a switch */
	uint16_t lid;		/* the LID to follow (DST) */
};

struct lid_find {
	uint32_t lid;
	int node, port;
};

static int lid_owner(void *ctx, int node, int port, const struct ibu_port *pt)
{
	struct lid_find *q = ctx;

	if (!pt->lid || q->lid < pt->lid ||
	    q->lid >= (uint32_t)pt->lid + (1u << pt->lmc))
		return 0;
	q->node = node;
	q->port = port;
	return 1;
}

/* A node's traced port: a switch's 0, a CA's first cabled one. */
static int first_port(const struct ibu_fabric *f, int node)
{
	const struct ibu_node *n = &f->nodes[node];
	int p;

	if (ibu_node_is_switch(n))
		return 0;
	for (p = 1; p <= n->num_ports; p++)
		if (n->ports[p].peer_node >= 0)
			return p;
	return 1;
}

/* Name, port GUID, node GUID or LID, in that order of trust: a number
 * that is a GUID in the fabric is taken as one, else as a LID. */
static int resolve(const struct ibu_fabric *f, const char *text,
		   struct endpoint *ep, struct ibu_err *e)
{
	char *end;
	unsigned long long v;
	struct lid_find q = { 0, -1, -1 };
	const struct ibu_port *lp;

	memset(ep, 0, sizeof(*ep));
	ep->node = ibu_fabric_find_name(f, text);
	if (ep->node >= 0) {
		ep->port = first_port(f, ep->node);
		goto found;
	}
	v = strtoull(text, &end, 0);
	if (*text && !*end) {
		ep->node = ibu_fabric_find_port_guid(f, v, &ep->port);
		if (ep->node >= 0)
			goto found;
		ep->node = ibu_fabric_find_guid(f, v);
		if (ep->node >= 0) {
			ep->port = first_port(f, ep->node);
			goto found;
		}
		if (v >= 1 && v <= IBU_MAX_UCAST_LID) {
			q.lid = (uint32_t)v;
			if (ibu_fabric_foreach_lid_port(f, lid_owner, &q)) {
				ep->node = q.node;
				ep->port = q.port;
				ep->lid = (uint16_t)v;
				return IBU_OK;
			}
		}
	}
	return ibu_err_set(e, IBU_EINVAL,
			   "'%s' is no node name, port GUID, node GUID or LID of %s",
			   text, f->source ? f->source : "the fabric");
found:
	if (ibu_node_is_switch(&f->nodes[ep->node]))
		ep->port = 0;
	lp = ibu_fabric_lid_port(f, ep->node, ep->port);
	ep->lid = lp ? lp->lid : 0;
	if (!ep->lid)
		return ibu_err_set(e, IBU_ELID, "'%s' has no LID in %s", text,
				   f->source ? f->source : "the fabric");
	return IBU_OK;
}

static const char *type_str(const struct ibu_node *n)
{
	return n->type == IBU_NODE_SWITCH ? "switch" :
	       n->type == IBU_NODE_ROUTER ? "router" : "ca";
}

/* "lid A-B" of a node's LID-holding port (a switch's port 0). */
static void lid_range(const struct ibu_fabric *f, int node, int port,
		      unsigned *a, unsigned *b)
{
	const struct ibu_port *lp = ibu_fabric_lid_port(f, node, port);

	*a = lp ? lp->lid : 0;
	*b = lp ? lp->lid + (1u << lp->lmc) - 1 : 0;
}

static void print_end(const struct ibu_fabric *f, const char *prompt,
		      int node, int port)
{
	const struct ibu_node *n = &f->nodes[node];
	unsigned a, b;

	lid_range(f, node, port, &a, &b);
	printf("%s %s {0x%016" PRIx64 "} portnum %d lid %u-%u \"%s\"\n", prompt,
	       type_str(n), n->guid, port, a, b, n->name);
}

static void print_hop(const struct ibu_fabric *f, int out, int node, int port)
{
	const struct ibu_node *n = &f->nodes[node];
	uint64_t g = n->ports[ibu_node_is_switch(n) ? 0 : port].guid;
	unsigned a, b;

	lid_range(f, node, ibu_node_is_switch(n) ? 0 : port, &a, &b);
	printf("[%d] -> %s port {0x%016" PRIx64 "}[%d] lid %u-%u \"%s\"\n", out,
	       type_str(n), g ? g : n->guid, port, a, b, n->name);
}

/* Follows the LFTs; returns IBU_EXIT_OK when dst is reached, else prints
 * where the route broke and returns IBU_EXIT_FAIL. */
static int walk(const struct ibu_fabric *f, const struct ibu_lft *lft,
		const struct endpoint *src, const struct endpoint *dst,
		int quiet)
{
	int node = src->node, port = src->port, hops = 0, out;
	const struct ibu_node *n = &f->nodes[node];

	if (!quiet)
		print_end(f, "From", node, port);
	while (!(node == dst->node && (port == dst->port ||
				       ibu_node_is_switch(&f->nodes[node])))) {
		n = &f->nodes[node];
		if (++hops > f->num_nodes + 1) {
			printf("-E- trace: a loop: more than %d hops toward LID %u\n",
			       f->num_nodes + 1, dst->lid);
			return IBU_EXIT_FAIL;
		}
		if (!ibu_node_is_switch(n)) {
			if (hops > 1) {
				printf("-E- trace: reached %s '%s', not the destination\n",
				       type_str(n), n->name);
				return IBU_EXIT_FAIL;
			}
			out = port;	/* the source CA sends on its port */
		} else {
			out = ibu_lft_get(lft, node, dst->lid);
			if (out == IBU_NO_PATH || out > n->num_ports) {
				printf("-E- trace: switch '%s' (0x%016" PRIx64 ") has no entry for LID %u\n",
				       n->name, n->guid, dst->lid);
				return IBU_EXIT_FAIL;
			}
			if (out == 0) {
				printf("-E- trace: switch '%s' (0x%016" PRIx64 ") sends LID %u to itself (port 0)\n",
				       n->name, n->guid, dst->lid);
				return IBU_EXIT_FAIL;
			}
		}
		if (n->ports[out].peer_node < 0) {
			printf("-E- trace: '%s' port %d toward LID %u is not cabled\n",
			       n->name, out, dst->lid);
			return IBU_EXIT_FAIL;
		}
		port = n->ports[out].peer_port;
		node = n->ports[out].peer_node;
		if (!quiet)
			print_hop(f, out, node, port);
	}
	if (!quiet)
		print_end(f, "To", node, dst->port);
	printf("-I- trace: LID %u reached in %d hops\n", dst->lid, hops);
	return IBU_EXIT_OK;
}

static int run(const char *fabric, const char *lfts, const char *s,
	       const char *d, int quiet)
{
	struct ibu_fabric f;
	struct ibu_lft lft;
	struct endpoint src, dst;
	struct ibu_err e = { 0 };
	int rc, ret = IBU_EXIT_ERROR;

	memset(&lft, 0, sizeof(lft));
	rc = ibu_fabric_open(fabric, &f, NULL, &e);
	if (rc) {
		ibu_opt_report("trace", &e);
		return IBU_EXIT_ERROR;
	}
	rc = ibu_dump_read_lfts(lfts, &f, &lft, &e);
	if (!rc)
		rc = ibu_fabric_index(&f, &e);
	if (!rc)
		rc = resolve(&f, s, &src, &e);
	if (!rc)
		rc = resolve(&f, d, &dst, &e);
	if (rc)
		ibu_opt_report("trace", &e);
	else
		ret = walk(&f, &lft, &src, &dst, quiet);
	ibu_lft_free(&lft);
	ibu_fabric_free(&f);
	return ret;
}

int ibu_cmd_trace(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	int c, quiet = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		if (c != 'q') {
			ibu_cmd_trace_usage(stderr);
			return IBU_EXIT_USAGE;
		}
		quiet = 1;
	}
	if (argc - optind != 4) {
		ibu_cmd_trace_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	return run(argv[optind], argv[optind + 1], argv[optind + 2],
		   argv[optind + 3], quiet);
}
