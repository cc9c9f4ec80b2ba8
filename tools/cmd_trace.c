/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion trace [--live | -C CA -P PORT] [FABRIC LFTDUMP] SRC DST
 * The hop-by-hop route from SRC to DST through the LFTs, printed as
 * ibtracert prints it; from files or (through tools/live_args.c) from the
 * live fabric.
 */
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "fabric_open.h"
#include "dump.h"
#include "num.h"
#include "json_out.h"

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
		"  --json              stdout: one JSON object with the ends, every hop\n"
		"                      and the verdict (schema in ibunion(1)); the\n"
		"                      text report goes to stderr\n"
		"exit status: 0 DST reached, 1 the route breaks (no entry, dead end,\n"
		"loop), 2 usage, 3 bad input\n");
}

struct endpoint {
	int node, port;		/* port 0 for a switch */
	uint16_t lid;		/* the LID to follow (DST) */
};

/* The hops walk() took, kept for --json. */
struct trace_log {
	int n, cap;
	struct trace_hop { int out, node, port; } *hop;
	char why[256];		/* where the route broke, "" when reached */
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
	uint64_t v;
	struct lid_find q = { 0, -1, -1 };
	const struct ibu_port *lp;

	memset(ep, 0, sizeof(*ep));
	ep->node = ibu_fabric_find_name(f, text);
	if (ep->node >= 0) {
		ep->port = first_port(f, ep->node);
		goto found;
	}
	/* ibu_num: "0x" hex or decimal, never octal or signed ("-1") */
	if (!ibu_num(text, IBU_NUM_AUTO, 1, UINT64_MAX, &v, NULL)) {
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

/* Prints where the route broke (the -E- line) and keeps it for --json. */
__attribute__((format(printf, 2, 3)))
static void broke(struct trace_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(log->why, sizeof(log->why), fmt, ap);
	va_end(ap);
	printf("-E- trace: %s\n", log->why);
}

/* Follows the LFTs; returns IBU_EXIT_OK when dst is reached, else prints
 * where the route broke and returns IBU_EXIT_FAIL. */
static int walk(const struct ibu_fabric *f, const struct ibu_lft *lft,
		const struct endpoint *src, const struct endpoint *dst,
		int quiet, struct trace_log *log)
{
	int node = src->node, port = src->port, hops = 0, out;
	const struct ibu_node *n = &f->nodes[node];

	if (!quiet)
		print_end(f, "From", node, port);
	while (!(node == dst->node && (port == dst->port ||
				       ibu_node_is_switch(&f->nodes[node])))) {
		n = &f->nodes[node];
		if (++hops > f->num_nodes + 1) {
			broke(log, "a loop: more than %d hops toward LID %u",
			      f->num_nodes + 1, dst->lid);
			return IBU_EXIT_FAIL;
		}
		if (!ibu_node_is_switch(n)) {
			if (hops > 1) {
				broke(log, "reached %s '%s', not the destination",
				      type_str(n), n->name);
				return IBU_EXIT_FAIL;
			}
			out = port;	/* the source CA sends on its port */
		} else {
			out = ibu_lft_get(lft, node, dst->lid);
			if (out == IBU_NO_PATH || out > n->num_ports) {
				broke(log, "switch '%s' (0x%016" PRIx64 ") has no entry for LID %u",
				      n->name, n->guid, dst->lid);
				return IBU_EXIT_FAIL;
			}
			if (out == 0) {
				broke(log, "switch '%s' (0x%016" PRIx64 ") sends LID %u to itself (port 0)",
				      n->name, n->guid, dst->lid);
				return IBU_EXIT_FAIL;
			}
		}
		if (n->ports[out].peer_node < 0) {
			broke(log, "'%s' port %d toward LID %u is not cabled",
			      n->name, out, dst->lid);
			return IBU_EXIT_FAIL;
		}
		port = n->ports[out].peer_port;
		node = n->ports[out].peer_node;
		if (log->n < log->cap)	/* cap: the loop bound above */
			log->hop[log->n++] = (struct trace_hop){ out, node, port };
		if (!quiet)
			print_hop(f, out, node, port);
	}
	if (!quiet)
		print_end(f, "To", node, dst->port);
	printf("-I- trace: LID %u reached in %d hops\n", dst->lid, hops);
	return IBU_EXIT_OK;
}

static void json_end(const struct ibu_fabric *f, const struct endpoint *ep)
{
	const struct ibu_node *n;

	if (!ep) {
		printf("null");
		return;
	}
	n = &f->nodes[ep->node];
	printf("{\"name\":");
	ibu_json_str(stdout, n->name);
	printf(",\"type\":\"%s\",\"guid\":\"0x%016" PRIx64 "\",\"port\":%d,\"lid\":%u}",
	       type_str(n), n->guid, ep->port, ep->lid);
}

static void json_hop(const struct ibu_fabric *f, const struct trace_hop *h)
{
	const struct ibu_node *n = &f->nodes[h->node];

	printf("{\"out_port\":%d,\"name\":", h->out);
	ibu_json_str(stdout, n->name);
	printf(",\"type\":\"%s\",\"guid\":\"0x%016" PRIx64 "\",\"port\":%d}",
	       type_str(n), n->guid, h->port);
}

struct trace_run {
	const char *fabric, *lfts, *src, *dst;
	int quiet, json;
};

/* --json: one object (schema: ibunion(1), JSON OUTPUT); the ends are null
 * when the run stopped before they were known. */
static void print_json(const struct trace_run *a, const struct ibu_fabric *f,
		       const struct endpoint *src, const struct endpoint *dst,
		       const struct trace_log *log, int ret)
{
	int i;

	printf("{\"command\":\"trace\",\"fabric\":");
	ibu_json_str(stdout, a->fabric);
	printf(",\"lfts\":");
	ibu_json_str(stdout, a->lfts);
	printf(",\"verdict\":\"%s\",\"exit\":%d,\"src\":",
	       ret == IBU_EXIT_OK ? "reached" :
	       ret == IBU_EXIT_FAIL ? "broken" : "error", ret);
	json_end(f, src);
	printf(",\"dst\":");
	json_end(f, dst);
	printf(",\"hops\":[");
	for (i = 0; i < log->n; i++) {
		if (i)
			putchar(',');
		json_hop(f, &log->hop[i]);
	}
	printf("],\"hop_count\":%d,\"broken_at\":", log->n);
	ibu_json_str(stdout, ret == IBU_EXIT_FAIL ? log->why : NULL);
	printf("}\n");
}

static int run(const struct trace_run *a)
{
	struct ibu_fabric f;
	struct ibu_lft lft;
	struct ibu_dump_scope left;
	struct endpoint src, dst;
	struct trace_log log = { 0 };
	struct ibu_err e = { 0 };
	int rc, ret = IBU_EXIT_ERROR, have = 0, saved = -1;

	memset(&lft, 0, sizeof(lft));
	if (a->json) {
		saved = ibu_json_stdout_begin("trace");
		if (saved < 0)
			return IBU_EXIT_ERROR;
	}
	rc = ibu_fabric_open(a->fabric, &f, NULL, &e);
	if (rc) {
		ibu_opt_report("trace", &e);
		if (a->json) {
			ibu_json_stdout_end(saved);
			printf("{\"command\":\"trace\",\"fabric\":");
			ibu_json_str(stdout, a->fabric);
			printf(",\"lfts\":");
			ibu_json_str(stdout, a->lfts);
			printf(",\"verdict\":\"error\",\"exit\":%d,\"src\":null,"
			       "\"dst\":null,\"hops\":[],\"hop_count\":0,"
			       "\"broken_at\":null}\n", IBU_EXIT_ERROR);
		}
		return IBU_EXIT_ERROR;
	}
	log.cap = f.num_nodes + 2;	/* walk() stops past num_nodes + 1 */
	log.hop = calloc((size_t)log.cap, sizeof(*log.hop));
	if (!log.hop)
		rc = ibu_err_set(&e, IBU_ENOMEM, "out of memory");
	if (!rc)
		rc = ibu_dump_read_lfts_scoped(a->lfts, &f, &lft, &left, &e);
	if (!rc)
		ibu_opt_scope_note(stderr, "trace", a->lfts, &left);
	if (!rc)
		rc = ibu_fabric_index(&f, &e);
	if (!rc)
		rc = resolve(&f, a->src, &src, &e);
	if (!rc)
		rc = resolve(&f, a->dst, &dst, &e);
	if (rc)
		ibu_opt_report("trace", &e);
	else {
		have = 1;
		ret = walk(&f, &lft, &src, &dst, a->quiet, &log);
	}
	if (a->json) {
		ibu_json_stdout_end(saved);
		print_json(a, &f, have ? &src : NULL, have ? &dst : NULL, &log,
			   ret);
	}
	free(log.hop);
	ibu_lft_free(&lft);
	ibu_fabric_free(&f);
	return ret;
}

int ibu_cmd_trace(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_run a = { 0 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		if (c == 'q')
			a.quiet = 1;
		else if (c == 'J')
			a.json = 1;
		else {
			ibu_cmd_trace_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 4) {
		ibu_cmd_trace_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	a.fabric = argv[optind];
	a.lfts = argv[optind + 1];
	a.src = argv[optind + 2];
	a.dst = argv[optind + 3];
	return run(&a);
}
