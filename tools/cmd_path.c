/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion path FABRIC [--lids-from LFTDUMP] [--offsets rotated|paper]
 *              [--from PORT] [--to PORT] [--format table|pairs] [-o FILE]
 * Which DLID each source should put into its address handle / QP path
 * toward each destination so that its routes climb one chain (its cyclic
 * path, lib/cyclic.h): a readable table, or "0xSLID 0xDLID" pairs.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "opts.h"
#include "fabric_open.h"
#include "netfile.h"
#include "dump.h"
#include "ibft.h"
#include "lidplan.h"
#include "cyclic.h"
#include "dlids.h"
#include "pgft.h"
#include "pgft_verify.h"
#include "json_out.h"

void ibu_cmd_path_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion path FABRIC [--lids-from LFTDUMP] [options]\n"
		"  prints the DLID each end port of the fat tree FABRIC should use\n"
		"  toward each other end port to get its cyclic path: all routes of a\n"
		"  source then climb one chain of switches (its routes form a tree).\n"
		"  DLID = the destination's base LID + the cyclic offset.\n"
		"options:\n"
		"  --lids-from DUMP    the LIDs a dump_lfts/ibroute dump shows (what\n"
		"                      OpenSM assigned); default: the LIDs in FABRIC\n"
		"  --offsets MODE      rotated (default, the plugin's default) or paper\n"
		"                      (event_plugin_options offsets=paper)\n"
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
	const char *fabric, *dump, *from, *to, *output;
	enum ibu_cyclic_offsets offsets;
	int pairs;
};

static int parse_args(int argc, char **argv, struct path_args *a)
{
	static const struct option lo[] = {
		{ "lids-from", required_argument, NULL, 'd' },
		{ "offsets", required_argument, NULL, 'O' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		switch (c) {
		case 'd': a->dump = optarg; break;
		case 'f': a->from = optarg; break;
		case 't': a->to = optarg; break;
		case 'o': a->output = optarg; break;
		case 'J': a->pairs = PATH_JSON; break;
		case 'O':
			if (ibu_cyclic_offsets_parse(optarg, &a->offsets)) {
				fprintf(stderr, "-E- ibunion path: --offsets: '%s' is not rotated or paper\n",
					optarg);
				return -1;
			}
			break;
		case 'F':
			if (!strcmp(optarg, "json")) {
				a->pairs = PATH_JSON;
			} else if (!strcmp(optarg, "pairs")) {
				a->pairs = 1;
			} else if (!strcmp(optarg, "table")) {
				a->pairs = 0;
			} else {
				fprintf(stderr, "-E- ibunion path: --format: '%s' is not table or pairs\n",
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

/* Node and port whose LID set holds lid (after load_lids); -1 if none. */
static int find_lid(const struct ibu_fabric *f, unsigned long lid, int *port)
{
	int n, p;

	for (n = 0; n < f->num_nodes; n++)
		for (p = 0; p <= f->nodes[n].num_ports; p++) {
			const struct ibu_port *pt = &f->nodes[n].ports[p];

			if (pt->lid && lid >= pt->lid &&
			    lid < (unsigned long)pt->lid + (1ul << pt->lmc)) {
				*port = p;
				return n;
			}
		}
	return -1;
}

/* A node's first port that is an end port of the tree, or -1. */
static int first_ep(const struct ibu_fabric *f, const struct ibu_ibft *t,
		    int node)
{
	int p, pid = -1;

	for (p = 1; node >= 0 && p <= f->nodes[node].num_ports && pid < 0; p++)
		pid = ibu_ibft_ep(t, node, p);
	return pid;
}

/*
 * PORT, as infiniband-diags tools take a port: a node name, a port GUID,
 * a node GUID (its first end port) or a LID (any of a port's LMC set),
 * tried in that order. Returns the PID or -1 with a message.
 */
static int resolve_port(const struct ibu_fabric *f, const struct ibu_ibft *t,
			const char *what, const char *text)
{
	int node, port = 0, pid = -1, hex;
	unsigned long long v = 0;
	char *end = NULL;

	hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	errno = 0;
	if (isdigit((unsigned char)text[0]))
		v = strtoull(text, &end, hex ? 16 : 10);
	if (errno || !end || *end || (hex && end == text + 2))
		end = NULL;	/* not a number */
	node = ibu_fabric_find_name(f, text);
	if (node >= 0) {
		pid = first_ep(f, t, node);
	} else if (end && hex && ibu_fabric_find_port_guid(f, (uint64_t)v, &port) >= 0 &&
		   port > 0) {	/* a CA port's GUID (port 0: a switch's) */
		node = ibu_fabric_find_port_guid(f, (uint64_t)v, &port);
		pid = ibu_ibft_ep(t, node, port);
	} else if (end && hex &&
		   (node = ibu_fabric_find_guid(f, (uint64_t)v)) >= 0) {
		pid = first_ep(f, t, node);
	} else if (end && v >= 1 && v <= 0xBFFF &&
		   (node = find_lid(f, (unsigned long)v, &port)) >= 0) {
		pid = port ? ibu_ibft_ep(t, node, port) : -1;
	}
	if (node < 0)
		fprintf(stderr, "-E- ibunion path: %s: '%s' is no node name, port GUID, node GUID or LID of the fabric\n",
			what, text);
	else if (pid < 0)
		fprintf(stderr, "-E- ibunion path: %s: '%s' is '%s', not an end port of the fat tree\n",
			what, text, f->nodes[node].name);
	return pid;
}

/* LIDs from a dump, else the fabric's own. */
static int load_lids(struct ibu_fabric *f, const char *dump, struct ibu_err *e)
{
	struct ibu_lft scratch;
	int rc;

	if (dump) {
		rc = ibu_dump_read_lfts(dump, f, &scratch, e);
		if (!rc)
			ibu_lft_free(&scratch);
		return rc;
	}
	if (!ibu_fabric_max_lid(f))
		return ibu_err_set(e, IBU_EINVAL,
				   "%s carries no LIDs: give --lids-from DUMP (dump_lfts of the fabric)",
				   f->source ? f->source : "the fabric");
	return IBU_OK;
}

struct path_ctx {
	const struct ibu_fabric *f;
	const struct ibu_ibft *t;
	const struct ibu_lidplan *p;
	enum ibu_cyclic_offsets mode;
	FILE *out;
	int pairs;
	long lines, skipped;
};

static const struct ibu_port *ep_port(const struct path_ctx *c, int pid)
{
	const struct ibu_ibft_endport *ep = &c->t->ep[pid];

	return &c->f->nodes[ep->node].ports[ep->port];
}

static int print_header(struct path_ctx *c)
{
	if (c->pairs == PATH_JSON)
		return fprintf(c->out, "{\"command\":\"path\",\"topology\":\"IBFT(%d,%d)\",\"lmc\":%d,\"offsets\":\"%s\",\"pairs\":[",
			       c->t->m, c->t->n, c->p->lmc,
			       ibu_cyclic_offsets_name(c->mode)) < 0 ? IBU_EIO : IBU_OK;
	if (c->pairs)
		return 0;
	return fprintf(c->out,
		       "# IBFT(%d,%d), LMC %d, offsets %s: DLID = destination base LID + offset; every route of a source climbs one chain\n"
		       "%-20s %-18s %-6s  %-20s %-18s %-6s %-6s %-3s %s\n",
		       c->t->m, c->t->n, c->p->lmc,
		       ibu_cyclic_offsets_name(c->mode), "source", "source GUID",
		       "SLID", "destination", "destination GUID", "base",
		       "DLID", "off", "climbs to") < 0 ? IBU_EIO : IBU_OK;
}

/* One element of "pairs" (schema: ibunion(1), JSON OUTPUT). */
static int json_pair(struct path_ctx *c, int src, int dst, const char *sl,
		     const char *dl, int turn, const char *tl, uint32_t dlid,
		     unsigned off)
{
	const struct ibu_ibft *t = c->t;
	const struct ibu_port *sp = ep_port(c, src), *dp = ep_port(c, dst);
	FILE *o = c->out;
	int rc = fprintf(o, "%s{\"src\":", c->lines > 1 ? "," : "") < 0;

	rc |= ibu_json_str(o, c->f->nodes[t->ep[src].node].name);
	rc |= fprintf(o, ",\"src_label\":\"%s\",\"src_guid\":\"0x%016llx\",\"slid\":%u,\"dst\":",
		      sl, (unsigned long long)sp->guid, sp->lid) < 0;
	rc |= ibu_json_str(o, c->f->nodes[t->ep[dst].node].name);
	rc |= fprintf(o, ",\"dst_label\":\"%s\",\"dst_guid\":\"0x%016llx\",\"base_lid\":%u,\"dlid\":%u,\"offset\":%u,\"climbs_to\":",
		      dl, (unsigned long long)dp->guid, dp->lid, dlid, off) < 0;
	rc |= ibu_json_str(o, turn >= 0 ? tl : NULL);
	rc |= fprintf(o, ",\"climbs_to_name\":") < 0;
	rc |= ibu_json_str(o, turn >= 0 ? c->f->nodes[t->sw[turn].node].name : NULL);
	rc |= fputc('}', o) == EOF;
	return rc ? IBU_EIO : IBU_OK;
}

static int print_pair(struct path_ctx *c, int src, int dst)
{
	const struct ibu_ibft *t = c->t;
	const struct ibu_port *sp = ep_port(c, src), *dp = ep_port(c, dst);
	unsigned off;
	uint32_t dlid;
	char sl[64], dl[64], tl[64], sname[96], dname[96];
	int turn;

	if (!sp->lid || !dp->lid) {
		c->skipped++;
		return IBU_OK;
	}
	off = ibu_cyclic_offset(t, c->p->offset_digits, c->mode,
				(uint32_t)src, (uint32_t)dst);
	dlid = dp->lid + off;
	c->lines++;
	if (c->pairs == 1)
		return ibu_dlid_pair_write(c->out, sp->lid, (uint16_t)dlid,
					   NULL);
	turn = ibu_cyclic_turn_switch(t, c->p->offset_digits, c->mode,
				      (uint32_t)src, (uint32_t)dst, off);
	ibu_ibft_ep_label(t, src, sl, sizeof(sl));
	ibu_ibft_ep_label(t, dst, dl, sizeof(dl));
	if (turn >= 0)
		ibu_ibft_sw_label(t, turn, tl, sizeof(tl));
	else
		snprintf(tl, sizeof(tl), "?");
	if (c->pairs == PATH_JSON)
		return json_pair(c, src, dst, sl, dl, turn, tl, dlid, off);
	snprintf(sname, sizeof(sname), "%s %s",
		 c->f->nodes[t->ep[src].node].name, sl);
	snprintf(dname, sizeof(dname), "%s %s",
		 c->f->nodes[t->ep[dst].node].name, dl);
	return fprintf(c->out,
		       "%-20s 0x%016llx 0x%04x  %-20s 0x%016llx 0x%04x 0x%04x %-3u %s '%s'\n",
		       sname, (unsigned long long)sp->guid, sp->lid, dname,
		       (unsigned long long)dp->guid, dp->lid, dlid, off, tl,
		       turn >= 0 ? c->f->nodes[t->sw[turn].node].name : "?") < 0 ?
		IBU_EIO : IBU_OK;
}

/*
 * Every ordered pair (PID order), or those --from / --to select. A
 * degraded tree leaves PIDs without an end port (ep[pid].node == -1):
 * absent hosts are neither sources nor destinations.
 */
static int print_all(struct path_ctx *c, int from, int to)
{
	int N = c->t->num_endports, s, d, rc = print_header(c);

	for (s = 0; s < N && !rc; s++) {
		if ((from >= 0 && s != from) || c->t->ep[s].node < 0)
			continue;
		for (d = 0; d < N && !rc; d++) {
			if (d == s || (to >= 0 && d != to) ||
			    c->t->ep[d].node < 0)
				continue;
			rc = print_pair(c, s, d);
		}
	}
	if (!rc && c->pairs == PATH_JSON &&
	    fprintf(c->out, "],\"count\":%ld,\"skipped\":%ld}\n", c->lines,
		    c->skipped) < 0)
		rc = IBU_EIO;
	return rc ? IBU_EIO : IBU_OK;
}

/* PORT as a compute host of the PGFT (node name: its first one). */
static int pgft_port(const struct ibu_fabric *f, const struct ibu_pgft *g,
		     const char *what, const char *text)
{
	int node = -1, port = 0, D = -2, p;

	if (!text)
		return -1;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		node = ibu_fabric_find_port_guid(f, strtoull(text, NULL, 16), &port);
	if (node >= 0)
		D = ibu_pgft_host(g, node, port);
	if (node < 0) {
		node = ibu_fabric_find_name(f, text);
		for (p = 1; node >= 0 && p <= f->nodes[node].num_ports && D < 0; p++)
			D = ibu_pgft_host(g, node, p);
	}
	if (D < 0)
		fprintf(stderr, "ibunion path: %s: '%s' is not a compute host of the PGFT\n",
			what, text);
	return D < 0 ? -2 : D;
}

static int pgft_pair(FILE *out, const struct ibu_fabric *f,
		     const struct ibu_pgft *g, int lmc, int pairs, int S, int D,
		     long *skipped)
{
	const struct ibu_port *sp = &f->nodes[g->host[S].node].ports[g->host[S].port];
	const struct ibu_port *dp = &f->nodes[g->host[D].node].ports[g->host[D].port];
	unsigned off = ibu_pgft_offset(g, lmc, S, D);
	int turn;

	if (!sp->lid || !dp->lid) {
		(*skipped)++;
		return IBU_OK;
	}
	if (pairs)
		return ibu_dlid_pair_write(out, sp->lid,
					   (uint16_t)(dp->lid + off), NULL);
	turn = ibu_pgft_turn_switch(f, g, lmc, S, D);
	return fprintf(out, "%-20s 0x%016llx 0x%04x  %-20s 0x%016llx 0x%04x 0x%04x %-3u L%d '%s'\n",
		       f->nodes[g->host[S].node].name,
		       (unsigned long long)sp->guid, sp->lid,
		       f->nodes[g->host[D].node].name,
		       (unsigned long long)dp->guid, dp->lid, dp->lid + off, off,
		       turn >= 0 ? g->level[turn] : 0,
		       turn >= 0 ? f->nodes[turn].name : "?") < 0 ? IBU_EIO : IBU_OK;
}

/*
 * A PGFT that is not an IBFT: the generalised rule's advice
 * (ibu_pgft_offset) for every ordered pair of compute hosts in host
 * order, or those --from / --to select.
 */
static int path_pgft(const struct path_args *a, struct ibu_fabric *f,
		     const struct ibu_pgft *g)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	char txt[160];
	long skipped = 0;
	int lmc = ibu_pgft_hosts_lmc(f, g), S, D, rc = IBU_OK;
	int from = a->from ? pgft_port(f, g, "--from", a->from) : -1;
	int to = a->to ? pgft_port(f, g, "--to", a->to) : -1;

	if (from < -1 || to < -1)
		return IBU_EXIT_ERROR;
	if (ibu_opt_out_open("path", a->output, &af))
		return IBU_EXIT_ERROR;
	ibu_pgft_params_text(&g->P, txt, sizeof(txt));
	if (!a->pairs && fprintf(af.fp,
			"# %s, LMC %d: DLID = destination base LID + offset; every route of a source climbs one chain\n"
			"%-20s %-18s %-6s  %-20s %-18s %-6s %-6s %-3s %s\n",
			txt, lmc, "source", "source GUID", "SLID", "destination",
			"destination GUID", "base", "DLID", "off", "turns at") < 0)
		rc = IBU_EIO;
	for (S = 0; S < g->num_hosts && !rc; S++)
		for (D = 0; D < g->num_hosts && !rc; D++)
			if (S != D && (from < 0 || S == from) && (to < 0 || D == to))
				rc = pgft_pair(af.fp, f, g, lmc, a->pairs, S, D, &skipped);
	if (rc && !ferror(af.fp))
		ibu_err_set(&e, rc, "%s", ibu_strerror(rc));
	if (ibu_opt_out_close("path", &af, rc, &e))
		return IBU_EXIT_ERROR;
	if (skipped)
		fprintf(stderr, "-W- path: %ld pairs skipped: end ports without a LID\n",
			skipped);
	if (ibu_pgft_offset_levels(g, lmc) < g->P.h - 1)
		fprintf(stderr, "-W- path: LMC %d decides %d of %d up levels: above them the destination decides (LMC %d needed for one chain all the way up)\n",
			lmc, ibu_pgft_offset_levels(g, lmc), g->P.h - 1,
			ibu_pgft_needed_lmc(g));
	return IBU_EXIT_OK;
}

int ibu_cmd_path(int argc, char **argv)
{
	struct path_args a;
	struct ibu_fabric f;
	struct ibu_ibft t;
	struct ibu_lidplan plan;
	struct ibu_err e = { 0 };
	struct path_ctx c;
	struct ibu_atomicfile af;
	int rc, from = -1, to = -1, ret = IBU_EXIT_ERROR;

	if (parse_args(argc, argv, &a)) {
		ibu_cmd_path_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_fabric_open(a.fabric, &f, NULL, &e)) {
		ibu_opt_report("path", &e);
		return IBU_EXIT_ERROR;
	}
	rc = load_lids(&f, a.dump, &e);
	if (rc) {
		ibu_opt_report("path", &e);
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	if (ibu_ibft_recognize_limit(&f, &t, 0, &e)) {
		struct ibu_pgft g;

		if (!ibu_pgft_recognize(&f, &g, &e)) {
			ret = path_pgft(&a, &f, &g);
			ibu_pgft_free(&g);
			ibu_fabric_free(&f);
			return ret;
		}
		rc = ibu_ibft_recognize(&f, &t, &e);
	} else {
		rc = IBU_OK;
	}
	if (rc) {
		ibu_err_prefix(&e, "%s is not an m-port n-tree", a.fabric);
		ibu_opt_report("path", &e);
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	rc = ibu_lidplan_build(&f, &t, &plan, &e);
	if (rc) {
		ibu_err_prefix(&e, "LIDs of %s", a.dump ? a.dump : a.fabric);
		ibu_opt_report("path", &e);
		goto out_t;
	}
	if ((a.from && (from = resolve_port(&f, &t, "--from", a.from)) < 0) ||
	    (a.to && (to = resolve_port(&f, &t, "--to", a.to)) < 0))
		goto out;
	if (from >= 0 && from == to) {
		fprintf(stderr, "-E- ibunion path: --from and --to name the same end port\n");
		goto out;
	}
	if (ibu_opt_out_open("path", a.output, &af))
		goto out;
	memset(&c, 0, sizeof(c));
	c.f = &f;
	c.t = &t;
	c.p = &plan;
	c.mode = a.offsets;
	c.out = af.fp;
	c.pairs = a.pairs;
	rc = print_all(&c, from, to);
	if (rc && !ferror(af.fp))
		ibu_err_set(&e, rc, "%s", ibu_strerror(rc));
	if (ibu_opt_out_close("path", &af, rc, &e))
		goto out;
	if (c.skipped)
		fprintf(stderr, "-W- path: %ld pairs skipped: end ports without a LID\n",
			c.skipped);
	if (plan.offset_digits < t.n - 1)
		fprintf(stderr, "-W- path: LMC %d gives %d of %d up-digits: above level %d the destination decides (LMC %d needed for one chain all the way up)\n",
			plan.lmc, plan.offset_digits, t.n - 1,
			t.n - 1 - plan.offset_digits, plan.lmc_needed);
	ret = IBU_EXIT_OK;
out:
	ibu_lidplan_free(&plan);
out_t:
	ibu_ibft_free(&t);
	ibu_fabric_free(&f);
	return ret;
}
