/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion path FABRIC [--lids-from LFTDUMP] [--offsets rotated|paper]
 *              [--from PORT] [--to PORT] [--format table|pairs] [-o FILE]
 * Which DLID each source should put into its address handle / QP path
 * toward each destination so that its routes climb one chain (its cyclic
 * path, lib/fattree/cyclic.h): a readable table, or "0xSLID 0xDLID" pairs.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "osm_state.h"
#include "opts.h"
#include "fabric_open.h"
#include "dump.h"
#include "dlids.h"
#include "num.h"
#include "engine_pick.h"
#include "json_out.h"

void ibu_cmd_path_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion path FABRIC [--lids-from LFTDUMP] [options]\n"
		"  prints the DLID each end port of FABRIC should use toward each\n"
		"  other end port, as the engine that routes FABRIC advises (cyclic,\n"
		"  on fat trees and PGFTs: all routes of a source then climb one\n"
		"  chain of switches, its routes form a tree).\n"
		"  DLID = the destination's base LID + the advised offset.\n"
		"options:\n"
		"  --lids-from DUMP    the LIDs a dump_lfts/ibroute dump shows (what\n"
		"                      OpenSM assigned); default: the LIDs in FABRIC\n"
		"  --offsets MODE      rotated (default, the plugin's default) or paper\n"
		"                      (the same as -O offsets=MODE)\n"
		"  --engine NAME       this engine's advice (it must recognise FABRIC);\n"
		"                      default: the first engine that advises DLIDs\n"
		"                      and recognises FABRIC\n"
		"  -O KEY=VALUE        an engine option, as event_plugin_options\n"
		"  --from PORT         only this source (node name, port GUID, node\n"
		"                      GUID or LID)\n"
		"  --to PORT           only this destination (the same forms)\n"
		"  --format FMT        table (default): names, GUIDs, LIDs, offset and\n"
		"                      the switch the path climbs to; pairs: one line\n"
		"                      '0xSLID 0xDLID' per ordered pair of end ports\n"
		"                      (SLID = the source's base LID)\n"
		"  --json              one JSON object: the fabric, then every pair\n"
		"                      (same as --format json; schema in ibunion(1))\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"exit status: 0 done, 2 usage, 3 bad input\n");
}

#define PATH_JSON 2	/* path_args.pairs: --json */

struct path_args {
	const char *fabric, *dump, *from, *to, *output, *engine;
	struct ibu_engine_opts eo;
	int pairs;
};

static int parse_format(const char *text, int *pairs)
{
	if (!strcmp(text, "json"))
		*pairs = PATH_JSON;
	else if (!strcmp(text, "pairs"))
		*pairs = 1;
	else if (!strcmp(text, "table"))
		*pairs = 0;
	else
		return -1;
	return 0;
}

static int parse_args(int argc, char **argv, struct path_args *a)
{
	static const struct option lo[] = {
		{ "lids-from", required_argument, NULL, 'd' },
		{ "offsets", required_argument, NULL, 'M' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'J' },
		{ "engine", required_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	ibu_engine_opts_default(&a->eo);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:O:", lo, NULL)) != -1) {
		switch (c) {
		case 'd': a->dump = optarg; break;
		case 'f': a->from = optarg; break;
		case 't': a->to = optarg; break;
		case 'o': a->output = optarg; break;
		case 'E': a->engine = optarg; break;
		case 'J': a->pairs = PATH_JSON; break;
		case 'M':
			if (ibu_engine_opt_alias("path", &a->eo, "offsets", optarg))
				return -1;
			break;
		case 'O':
			if (ibu_engine_opt_arg("path", &a->eo, optarg))
				return -1;
			break;
		case 'F':
			if (parse_format(optarg, &a->pairs)) {
				fprintf(stderr, "-E- ibunion path: --format: '%s' is not table, pairs or json\n",
					optarg);
				return -1;
			}
			break;
		default:
			return -1;
		}
	}
	if (argc - optind != 1)
		return -1;
	a->fabric = argv[optind];
	return 0;
}

/* An end port of the engine's order. */
struct path_ep {
	int node, port, index;
};

struct path_ctx {
	const struct ibu_fabric *f;
	const struct ibu_engine_ops *ops;
	void *topo;
	const struct ibu_engine_opts *eo;
	struct ibu_engine_path_info pi;
	struct path_ep *ep;		/* in the engine's order */
	int num_ep;
	FILE *out;
	int pairs;
	long lines, skipped, unadvised;
};

static int by_index(const void *a, const void *b)
{
	const struct path_ep *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* The end ports the engine numbers, in its order. */
static int collect_endports(struct path_ctx *c)
{
	const struct ibu_fabric *f = c->f;
	int n, p, k = 0;

	for (n = 0; n < f->num_nodes; n++)
		k += ibu_node_is_switch(&f->nodes[n]) ? 0 : f->nodes[n].num_ports;
	c->ep = calloc((size_t)k + 1, sizeof(*c->ep));
	if (!c->ep)
		return IBU_ENOMEM;
	for (n = 0; n < f->num_nodes; n++)
		for (p = 1; !ibu_node_is_switch(&f->nodes[n]) &&
			    p <= f->nodes[n].num_ports; p++) {
			int i = c->ops->report.endport_index(c->topo, n, p);

			if (i >= 0)
				c->ep[c->num_ep++] = (struct path_ep){ n, p, i };
		}
	qsort(c->ep, (size_t)c->num_ep, sizeof(*c->ep), by_index);
	return IBU_OK;
}

/* Node and port whose LID set holds lid; -1 if none. */
static int find_lid(const struct ibu_fabric *f, uint64_t lid, int *port)
{
	int n, p;

	for (n = 0; n < f->num_nodes; n++)
		for (p = 0; p <= f->nodes[n].num_ports; p++) {
			const struct ibu_port *pt = &f->nodes[n].ports[p];

			if (pt->lid && lid >= pt->lid &&
			    lid < (uint64_t)pt->lid + (1u << pt->lmc)) {
				*port = p;
				return n;
			}
		}
	return -1;
}

/* Place in c->ep of (node, port), or of node's first end port (port 0). */
static int ep_of(const struct path_ctx *c, int node, int port)
{
	int i;

	for (i = 0; i < c->num_ep; i++)
		if (c->ep[i].node == node && (!port || c->ep[i].port == port))
			return i;
	return -1;
}

/*
 * PORT, as infiniband-diags tools take a port: a node name, a port GUID,
 * a node GUID (its first end port) or a LID (any of a port's LMC set),
 * tried in that order. Returns its place in c->ep or -1 with a message.
 */
static int resolve_port(const struct path_ctx *c, const char *what,
			const char *text)
{
	const struct ibu_fabric *f = c->f;
	int node, port = 0, i = -1, num, hex;
	uint64_t v = 0;
	char topo[64];

	hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	num = !ibu_num(text, IBU_NUM_AUTO, 0, UINT64_MAX, &v, NULL);
	node = ibu_fabric_find_name(f, text);
	if (node >= 0) {
		i = ep_of(c, node, 0);
	} else if (num && hex && (node = ibu_fabric_find_port_guid(f, v, &port)) >= 0 &&
		   port > 0) {	/* a CA port's GUID (port 0: a switch's) */
		i = ep_of(c, node, port);
	} else if (num && hex && (node = ibu_fabric_find_guid(f, v)) >= 0) {
		i = ep_of(c, node, 0);
	} else if (num && v >= 1 && v <= 0xBFFF &&
		   (node = find_lid(f, v, &port)) >= 0) {
		i = port ? ep_of(c, node, port) : -1;
	} else {
		node = -1;
	}
	ibu_engine_topology_name(c->ops, f, c->topo, topo, sizeof(topo));
	if (node < 0)
		fprintf(stderr, "-E- ibunion path: %s: '%s' is no node name, port GUID, node GUID or LID of the fabric\n",
			what, text);
	else if (i < 0)
		fprintf(stderr, "-E- ibunion path: %s: '%s' is '%s', not an end port of the %s\n",
			what, text, f->nodes[node].name, topo);
	return i;
}

/* LIDs from a dump, else the fabric's own. */
static int load_lids(struct ibu_fabric *f, const char *dump, struct ibu_err *e)
{
	struct ibu_dump_scope left;
	struct ibu_lft scratch;
	int rc;

	if (dump) {
		rc = ibu_dump_read_lfts_scoped(dump, f, &scratch, &left, e);
		if (!rc)
			ibu_lft_free(&scratch);
		ibu_opt_scope_note(stderr, "path", dump, &left);
		return rc;
	}
	if (!ibu_fabric_max_lid(f))
		return ibu_err_set(e, IBU_EINVAL,
				   "%s carries no LIDs: give --lids-from DUMP (dump_lfts of the fabric)",
				   f->source ? f->source : "the fabric");
	return IBU_OK;
}

static const struct ibu_port *ep_port(const struct path_ctx *c, int i)
{
	return &c->f->nodes[c->ep[i].node].ports[c->ep[i].port];
}

static const char *ep_name(const struct path_ctx *c, int i)
{
	return c->f->nodes[c->ep[i].node].name;
}

static int print_header(struct path_ctx *c)
{
	FILE *o = c->out;

	if (c->pairs == PATH_JSON) {
		int rc = fprintf(o, "{\"command\":\"path\",\"topology\":") < 0;

		rc |= ibu_json_str(o, c->pi.topology);
		rc |= fprintf(o, ",\"lmc\":%d,\"offsets\":", c->pi.lmc) < 0;
		rc |= ibu_json_str(o, c->pi.offsets);
		rc |= fprintf(o, ",\"pairs\":[") < 0;
		return rc ? IBU_EIO : IBU_OK;
	}
	if (c->pairs)
		return 0;
	return fprintf(o,
		       "# %s: DLID = destination base LID + offset; every route of a source climbs one chain\n"
		       "%-20s %-18s %-6s  %-20s %-18s %-6s %-6s %-3s %s\n",
		       c->pi.title, "source", "source GUID", "SLID",
		       "destination", "destination GUID", "base", "DLID", "off",
		       c->pi.turn_head ? c->pi.turn_head : "turns at") < 0 ?
		IBU_EIO : IBU_OK;
}

/* What a row says of a pair, beyond its LIDs. */
struct path_row {
	char sl[64], dl[64], tl[64];	/* source, destination, turn labels */
	int turn;			/* fabric node, -1 unknown */
	uint32_t dlid;
	long off;
};

/* One element of "pairs" (schema: ibunion(1), JSON OUTPUT). */
static int json_pair(struct path_ctx *c, int s, int d,
		     const struct path_row *r)
{
	const struct ibu_port *sp = ep_port(c, s), *dp = ep_port(c, d);
	FILE *o = c->out;
	int rc = fprintf(o, "%s{\"src\":", c->lines > 1 ? "," : "") < 0;

	rc |= ibu_json_str(o, ep_name(c, s));
	rc |= fprintf(o, ",\"src_label\":\"%s\",\"src_guid\":\"0x%016llx\",\"slid\":%u,\"dst\":",
		      r->sl, (unsigned long long)sp->guid, sp->lid) < 0;
	rc |= ibu_json_str(o, ep_name(c, d));
	rc |= fprintf(o, ",\"dst_label\":\"%s\",\"dst_guid\":\"0x%016llx\",\"base_lid\":%u,\"dlid\":%u,\"offset\":%ld,\"climbs_to\":",
		      r->dl, (unsigned long long)dp->guid, dp->lid, r->dlid,
		      r->off) < 0;
	rc |= ibu_json_str(o, r->turn >= 0 ? r->tl : NULL);
	rc |= fprintf(o, ",\"climbs_to_name\":") < 0;
	rc |= ibu_json_str(o, r->turn >= 0 ? c->f->nodes[r->turn].name : NULL);
	rc |= fputc('}', o) == EOF;
	return rc ? IBU_EIO : IBU_OK;
}

static void ep_label(const struct path_ctx *c, int i, char *buf, size_t len)
{
	buf[0] = 0;
	if (c->ops->report.endport_label)
		c->ops->report.endport_label(c->topo, c->ep[i].node, c->ep[i].port,
				      buf, len);
}

/* "name label", or the name alone when the engine labels no end port. */
static void ep_title(const struct path_ctx *c, int i, const char *label,
		     char *buf, size_t len)
{
	if (label[0])
		snprintf(buf, len, "%s %s", ep_name(c, i), label);
	else
		snprintf(buf, len, "%s", ep_name(c, i));
}

static int print_row(struct path_ctx *c, int s, int d, struct path_row *r)
{
	const struct ibu_port *sp = ep_port(c, s), *dp = ep_port(c, d);
	char sname[96], dname[96];

	r->turn = c->ops->advice.turn_node ?
		  c->ops->advice.turn_node(c->f, c->topo, c->eo, c->ep[s].node,
				    c->ep[s].port, c->ep[d].node,
				    c->ep[d].port, r->off) : -1;
	ep_label(c, s, r->sl, sizeof(r->sl));
	ep_label(c, d, r->dl, sizeof(r->dl));
	snprintf(r->tl, sizeof(r->tl), "?");
	if (r->turn >= 0 && c->ops->report.node_label)
		c->ops->report.node_label(c->topo, r->turn, r->tl, sizeof(r->tl));
	if (c->pairs == PATH_JSON)
		return json_pair(c, s, d, r);
	ep_title(c, s, r->sl, sname, sizeof(sname));
	ep_title(c, d, r->dl, dname, sizeof(dname));
	return fprintf(c->out,
		       "%-20s 0x%016llx 0x%04x  %-20s 0x%016llx 0x%04x 0x%04x %-3ld %s '%s'\n",
		       sname, (unsigned long long)sp->guid, sp->lid, dname,
		       (unsigned long long)dp->guid, dp->lid, r->dlid, r->off,
		       r->tl, r->turn >= 0 ? c->f->nodes[r->turn].name : "?") < 0 ?
		IBU_EIO : IBU_OK;
}

static int print_pair(struct path_ctx *c, int s, int d)
{
	const struct ibu_port *sp = ep_port(c, s), *dp = ep_port(c, d);
	struct path_row r;

	if (!sp->lid || !dp->lid) {
		c->skipped++;
		return IBU_OK;
	}
	r.off = c->ops->advice.offset(c->f, c->topo, c->eo, c->ep[s].node,
				       c->ep[s].port, c->ep[d].node,
				       c->ep[d].port);
	if (r.off < 0) {	/* e.g. a host on a spine: no chain to advise */
		c->unadvised++;
		return IBU_OK;
	}
	r.dlid = dp->lid + (uint32_t)r.off;
	c->lines++;
	if (c->pairs == 1)
		return ibu_dlid_pair_write(c->out, sp->lid, (uint16_t)r.dlid,
					   NULL);
	return print_row(c, s, d, &r);
}

/* Every ordered pair in the engine's order, or those --from / --to select. */
static int print_all(struct path_ctx *c, int from, int to)
{
	int s, d, rc = print_header(c);

	for (s = 0; s < c->num_ep && !rc; s++) {
		if (from >= 0 && s != from)
			continue;
		for (d = 0; d < c->num_ep && !rc; d++)
			if (d != s && (to < 0 || d == to))
				rc = print_pair(c, s, d);
	}
	if (!rc && c->pairs == PATH_JSON &&
	    fprintf(c->out, "],\"count\":%ld,\"skipped\":%ld}\n", c->lines,
		    c->skipped) < 0)
		rc = IBU_EIO;
	return rc ? IBU_EIO : IBU_OK;
}

/* "an m-port n-tree (IBFT) or a PGFT": what the advising engines take. */
static void advising_families(char *buf, size_t len)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	size_t o = 0;

	buf[0] = 0;
	for (; *l && o < len; l++)
		if ((*l)->advice.offset && (*l)->advice.info)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      o ? " or " : "",
					      (*l)->topology_long ?
					      (*l)->topology_long :
					      (*l)->topology);
}

/*
 * The engine named, else the first that advises DLIDs and recognises f;
 * NULL after a message naming every reason.
 */
static const struct ibu_engine_ops *pick_engine(const struct path_args *a,
						const struct ibu_fabric *f,
						void **topo)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	const struct ibu_engine_ops *ops = NULL;
	struct ibu_err e = { 0 }, why = { 0 };
	enum ibu_engine_decline_kind kind;
	char fam[256];
	size_t o = 0;

	if (a->engine) {
		ops = ibu_engine_pick("path", f, a->engine, &a->eo, topo);
		if (ops && (!ops->advice.offset || !ops->advice.info ||
			    !ops->report.endport_index)) {
			fprintf(stderr, "-E- ibunion path: the %s engine advises no DLIDs\n",
				ops->name);
			ops->topo_free(*topo);
			*topo = NULL;
			ops = NULL;
		}
		return ops;
	}
	for (; *l; l++) {
		if (!(*l)->advice.offset || !(*l)->advice.info ||
		    !(*l)->report.endport_index)
			continue;
		if (!(*l)->recognise(f, &a->eo, topo, &kind, &e))
			return *l;
		if (o < sizeof(why.msg))
			o += (size_t)snprintf(why.msg + o, sizeof(why.msg) - o,
					      "%s%s: %s", o ? "; " : "",
					      (*l)->name, e.msg);
	}
	*topo = NULL;
	advising_families(fam, sizeof(fam));
	fprintf(stderr, "-E- ibunion path: %s is not %s (the engines that advise DLIDs): %s\n",
		a->fabric, fam[0] ? fam : "a topology any engine advises DLIDs for",
		why.msg);
	return ops;
}

static void report_tail(const struct path_ctx *c)
{
	if (c->skipped)
		fprintf(stderr, "-W- path: %ld pairs skipped: end ports without a LID\n",
			c->skipped);
	if (c->unadvised)
		fprintf(stderr, "-W- path: %ld pairs skipped: the %s engine advises no DLID for them (end ports outside its numbering)\n",
			c->unadvised, c->ops->name);
	if (c->pi.warning[0])
		fprintf(stderr, "-W- path: %s\n", c->pi.warning);
}

/* Resolves --from/--to and prints; IBU_EXIT_*. */
static int run(const struct path_args *a, struct path_ctx *c)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	int from = -1, to = -1, rc;

	if ((a->from && (from = resolve_port(c, "--from", a->from)) < 0) ||
	    (a->to && (to = resolve_port(c, "--to", a->to)) < 0))
		return IBU_EXIT_ERROR;
	if (from >= 0 && from == to) {
		fprintf(stderr, "-E- ibunion path: --from and --to name the same end port\n");
		return IBU_EXIT_ERROR;
	}
	if (ibu_opt_out_open("path", a->output, &af))
		return IBU_EXIT_ERROR;
	c->out = af.fp;
	c->pairs = a->pairs;
	rc = print_all(c, from, to);
	if (rc && !ferror(af.fp))
		ibu_err_set(&e, rc, "%s", ibu_strerror(rc));
	if (ibu_opt_out_close("path", &af, rc, &e))
		return IBU_EXIT_ERROR;
	report_tail(c);
	return IBU_EXIT_OK;
}

int ibu_cmd_path(int argc, char **argv)
{
	struct path_args a;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	struct path_ctx c;
	int ret = IBU_EXIT_ERROR;

	if (parse_args(argc, argv, &a)) {
		ibu_cmd_path_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_fabric_open(a.fabric, &f, NULL, &e)) {
		ibu_opt_report("path", &e);
		return IBU_EXIT_ERROR;
	}
	memset(&c, 0, sizeof(c));
	c.f = &f;
	c.eo = &a.eo;
	if (load_lids(&f, a.dump, &e)) {
		ibu_opt_report("path", &e);
		goto out;
	}
	if (ibu_osm_state_apply("path", &f, &a.eo))
		goto out;
	c.ops = pick_engine(&a, &f, &c.topo);
	if (!c.ops)
		goto out;
	if (c.ops->advice.info(&f, c.topo, &a.eo, &c.pi, &e)) {
		ibu_err_prefix(&e, "LIDs of %s", a.dump ? a.dump : a.fabric);
		ibu_opt_report("path", &e);
		goto out;
	}
	if (collect_endports(&c)) {
		ibu_err_set(&e, IBU_ENOMEM, "out of memory");
		ibu_opt_report("path", &e);
		goto out;
	}
	ret = run(&a, &c);
out:
	free(c.ep);
	if (c.topo)
		c.ops->topo_free(c.topo);
	ibu_fabric_free(&f);
	return ret;
}
