/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion load FABRIC LFTDUMP.. [--mcast MFTDUMP --members FILE]
 *              --pattern P[,P..] [--dlids base|pairs|cyclic[,..]]
 *              [-O KEY=VALUE].. [--size BYTES] [--seed S] [--svg FILE]
 *              [-q]   (--offsets M = -O offsets=M, --policy P =
 *              -O mcast_apex=P)
 * The link load of traffic patterns on a fabric's tables (lib/analysis/traffic.h,
 * lib/analysis/linkload.h): busiest link, busiest switch-to-switch link, link
 * traversals, [Zhou07]'s estimated completion time and the mean flow
 * bandwidth, per pattern and DLID choice; with several LFT dumps of one
 * fabric, one table with a column per dump.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "osm_state.h"
#include "opts.h"
#include "dump.h"
#include "engine_pick.h"
#include "linkload.h"
#include "mcmembers.h"
#include "mft_dump.h"
#include "fabric_open.h"
#include "netfile.h"
#include "traffic.h"
#include "load_svg.h"
#include "cuts.h"
#include "json_out.h"

#define MAX_PATTERNS 64
#define MAX_DUMPS 32
#define CASE_MLID_BASE 0xc001

void ibu_cmd_load_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion load FABRIC LFTDUMP.. --pattern P[,P..] [options]\n"
		"  the link load of traffic patterns on the unicast tables of LFTDUMP\n"
		"  (dump_lfts / ibroute / opensm-lfts.dump) and the multicast tables of\n"
		"  MFTDUMP, over FABRIC (ibsim net file or ibnetdiscover output). Per\n"
		"  pattern and DLID choice: messages, busiest link, busiest switch-to-\n"
		"  switch link (in messages), link traversals, estimated completion time\n"
		"  ([Zhou07]: 20 ns per link, 100 ns per switch, 4 ns per byte; messages\n"
		"  sharing a link are serialised on it), walks that did not arrive,\n"
		"  flow-bw: the mean over messages of 1 / the load of the busiest link\n"
		"  on the message's path ([Hoefler08]'s ORCS model, in link bandwidths).\n"
		"  Several LFTDUMPs (tables of one fabric from several engines or\n"
		"  runs): one table, a row per pattern, DLID choice and figure, a\n"
		"  column per dump (named after its file). random:K and ebb:K are\n"
		"  estimates: their flow-bw's 95%% half-width (bw-ci95) and, on the\n"
		"  same samples, each dump's flow-bw less the first dump's (bw-diff)\n"
		"  with its 95%% half-width (diff-ci95).\n"
		"patterns (end ports in the recognising engine's order, as ibunion order\n"
		"prints it: cyclic's host order, xy's position order; else port GUID order):\n"
		"  all-to-all          every end port to every other one\n"
		"  shift               i -> i+k for every k = 1..N-1 (worst one shown)\n"
		"  shift:K             one k\n"
		"  rail-shift          a rail-optimized cluster (servers and rails\n"
		"                      from the node descriptions, '<host> mlx5_<r>'):\n"
		"                      every rail at once, HCA r of server j to HCA r\n"
		"                      of server j+k, every k (worst one shown)\n"
		"  rail-shift:K        one k\n"
		"  rail:R, rail:R:K    rail R alone (every k, or one)\n"
		"  random              a random permutation (--seed)\n"
		"  random:K            K random permutations (worst one shown)\n"
		"  ebb, ebb:K          K random bisections (default %d; worst one\n"
		"                      shown): halves paired, both ways; flow-bw is\n"
		"                      the effective bisection bandwidth\n"
		"  mcast:S:G%%          [Zhou07]'s case: S sources (1, or N%%) to a group of\n"
		"                      G%% of the end ports (--seed), one MLID per source,\n"
		"                      trees computed offline (fat tree; --policy)\n"
		"  ucast:S:G%%          the same case by unicast\n"
		"  groups              the groups of --members through --mcast's tables:\n"
		"                      send-only members send (else every member)\n"
		"  groups-ucast        the same senders and receivers by unicast\n"
		"options:\n"
		"  --dlids M[,M..]     base (the SA's PathRecord, default), pairs (each\n"
		"                      message split over the 2^LMC LIDs, offset k to k),\n"
		"                      cyclic (the DLID the cyclic scheme advises, as ibunion\n"
		"                      path prints it; fat tree)\n"
		"  -O KEY=VALUE        an engine option the tables were built with, as\n"
		"                      event_plugin_options (offsets=paper for --dlids\n"
		"                      cyclic on paper tables; mcast_apex= for mcast:S:G)\n"
		"  --offsets rotated|paper  = -O offsets=...\n"
		"  --mcast MFTDUMP     multicast tables (dump_mfts / ibroute -M)\n"
		"  --members FILE      members of each MLID (as ibunion mcast join prints)\n"
		"  --policy P          = -O mcast_apex=P: apex policy of the offline\n"
		"                      trees of mcast:S:G (balanced, source, lowest-guid,\n"
		"                      compact)\n"
		"  --size BYTES        message size (default 4096)\n"
		"  --seed S            seed of random and mcast/ucast cases (default 1)\n"
		"  --svg FILE          draw the fabric by level, every link's load of the\n"
		"                      first pattern and DLID choice as colour and width\n"
		"  -q, --quiet         only the table\n"
		"  --json              stdout: one JSON object, a row per pattern and\n"
		"                      DLID choice (schema in ibunion(1)); the text\n"
		"                      goes to stderr\n"
		"  -o, --output FILE   write the report to FILE instead of stdout\n"
		"exit status: 0 every walk arrived, 1 some did not, 2 usage, 3 bad input\n",
		IBU_EBB_SAMPLES);
}

struct load_args {
	const char *fabric, *lfts, *mcast, *members, *svg;
	const char *dumps[MAX_DUMPS];	/* lfts is the one being read */
	int num_dumps;
	struct ibu_pattern pat[MAX_PATTERNS];
	int num_pat;
	enum ibu_dlid_mode dlids[3];
	int num_dlids;
	struct ibu_engine_opts eo;	/* -O, --offsets, --policy */
	long size;
	uint64_t seed;
	int quiet;
	int json;
};

static int parse_list(char *s, struct load_args *a, int patterns)
{
	char *tok, *save = NULL;
	struct ibu_err e = { 0 };

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (patterns) {
			if (a->num_pat == MAX_PATTERNS) {
				fprintf(stderr, "-E- ibunion load: at most %d patterns\n",
					MAX_PATTERNS);
				return -1;
			}
			if (ibu_pattern_parse(tok, &a->pat[a->num_pat], &e)) {
				ibu_opt_report("load", &e);
				return -1;
			}
			a->num_pat++;
		} else {
			if (a->num_dlids == 3 ||
			    ibu_dlid_mode_parse(tok, &a->dlids[a->num_dlids])) {
				fprintf(stderr, "-E- ibunion load: --dlids takes base, pairs, cyclic\n");
				return -1;
			}
			a->num_dlids++;
		}
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct load_args *a)
{
	static const struct option lo[] = {
		{ "pattern", required_argument, NULL, 'p' },
		{ "dlids", required_argument, NULL, 'd' },
		{ "mcast", required_argument, NULL, 'M' },
		{ "members", required_argument, NULL, 'b' },
		{ "policy", required_argument, NULL, 'P' },
		{ "offsets", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "svg", required_argument, NULL, 'g' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;
	long v;

	memset(a, 0, sizeof(*a));
	ibu_engine_opts_default(&a->eo);
	a->size = 4096;
	a->seed = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qO:", lo, NULL)) != -1) {
		switch (c) {
		case 'p':
		case 'd':
			if (parse_list(optarg, a, c == 'p'))
				return -1;
			break;
		case 'M': a->mcast = optarg; break;
		case 'b': a->members = optarg; break;
		case 'g': a->svg = optarg; break;
		case 'q': a->quiet = 1; break;
		case 'J': a->json = 1; break;
		case 'P':
			if (ibu_engine_opt_alias("load", &a->eo, "mcast_apex",
						 optarg))
				return -1;
			break;
		case 'f':
			if (ibu_engine_opt_alias("load", &a->eo, "offsets",
						 optarg))
				return -1;
			break;
		case 'O':
			if (ibu_engine_opt_arg("load", &a->eo, optarg))
				return -1;
			break;
		case 's':
			if (ibu_opt_int("load", "--size", optarg, 1,
					1L << 40, &a->size))
				return -1;
			break;
		case 'S':
			if (ibu_opt_int("load", "--seed", optarg, 0,
					0x7fffffffL, &v))
				return -1;
			a->seed = (uint64_t)v;
			break;
		default:
			return -1;
		}
	}
	if (argc - optind < 2 || argc - optind > MAX_DUMPS + 1 ||
	    !a->num_pat) {
		if (!a->num_pat)
			fprintf(stderr, "-E- ibunion load: --pattern is required\n");
		else if (argc - optind > MAX_DUMPS + 1)
			fprintf(stderr, "-E- ibunion load: at most %d LFT dumps\n",
				MAX_DUMPS);
		return -1;
	}
	if (!a->num_dlids)
		a->dlids[a->num_dlids++] = IBU_DLIDS_BASE;
	for (i = 0; i < a->num_pat; i++) {
		enum ibu_pattern_kind k = a->pat[i].kind;

		if ((k == IBU_PAT_GROUPS || k == IBU_PAT_GROUPS_UCAST) &&
		    !a->members) {
			fprintf(stderr, "-E- ibunion load: pattern %s needs --members%s\n",
				a->pat[i].name, k == IBU_PAT_GROUPS ? " and --mcast" : "");
			return -1;
		}
		if (k == IBU_PAT_GROUPS && !a->mcast) {
			fprintf(stderr, "-E- ibunion load: pattern groups needs --mcast\n");
			return -1;
		}
	}
	if (a->members && !a->mcast) {
		for (i = 0; i < a->num_pat; i++)
			if (a->pat[i].kind == IBU_PAT_GROUPS_UCAST)
				break;
		if (i == a->num_pat) {
			fprintf(stderr, "-E- ibunion load: --members goes with --mcast or groups-ucast\n");
			return -1;
		}
	}
	a->fabric = argv[optind];
	for (i = optind + 1; i < argc; i++)
		a->dumps[a->num_dumps++] = argv[i];
	a->lfts = a->dumps[0];
	return 0;
}

/* ------------------------------------------------------------ inputs */

struct load_ctx {
	struct load_args a;
	struct ibu_fabric f;
	struct ibu_lft lft;
	const struct ibu_engine_ops *ops;	/* recognises f, or NULL */
	void *topo;
	struct ibu_endports ep;
	struct ibu_mft mft;		/* --mcast */
	struct ibu_mcmembers mm;	/* --members */
	struct ibu_mflows senders;	/* of the groups of mm */
	struct ibu_cuts cuts;		/* for the bounds */
	int have_f, have_lft, have_ep, have_mft, have_mm, have_cuts;
};

/* --dlids cyclic: the DLID offset the engine advises (cyclic: what
 * ibunion path prints) for the rule the tables follow. */
static long advised_offset(void *arg, int sn, int sp, int dn, int dp)
{
	struct load_ctx *c = arg;

	return c->ops->advice.offset(&c->f, c->topo, &c->a.eo, sn, sp, dn,
				      dp);
}

static int endport_index(const void *arg, int node, int port)
{
	const struct load_ctx *c = arg;

	return c->ops->report.endport_index(c->topo, node, port);
}

static void ctx_free(struct load_ctx *c)
{
	if (c->have_mm)
		ibu_mcmembers_free(&c->mm);
	if (c->have_mft)
		ibu_mft_free(&c->mft);
	ibu_mflows_free(&c->senders);
	if (c->have_cuts)
		ibu_cuts_free(&c->cuts);
	if (c->have_ep)
		ibu_endports_free(&c->ep);
	if (c->topo)
		c->ops->topo_free(c->topo);
	if (c->have_lft)
		ibu_lft_free(&c->lft);
	if (c->have_f)
		ibu_fabric_free(&c->f);
}

static int ctx_read(struct load_ctx *c, struct ibu_err *e)
{
	struct ibu_dump_scope left;
	int rc;

	rc = ibu_fabric_open(c->a.fabric, &c->f, NULL, e);
	if (rc)
		return rc;
	c->have_f = 1;
	rc = ibu_fabric_index(&c->f, e);
	if (rc)
		return rc;
	rc = ibu_dump_read_lfts_scoped(c->a.lfts, &c->f, &c->lft, &left, e);
	if (rc)
		return rc;
	ibu_opt_scope_note(stderr, "load", c->a.lfts, &left);
	c->have_lft = 1;
	if (ibu_osm_state_apply("load", &c->f, &c->a.eo))
		return ibu_err_set(e, IBU_EINVAL, "OpenSM's state cannot be read");
	c->ops = ibu_engine_detect(&c->f, &c->a.eo, &c->topo, e);
	ibu_err_clear(e);	/* no engine: GUID order, base LIDs */
	rc = ibu_endports_build(&c->f, c->ops && c->ops->report.endport_index ?
				endport_index : NULL, c, &c->ep, e);
	if (rc)
		return rc;
	c->have_ep = 1;
	rc = ibu_cuts_build(&c->f, &c->ep, &c->cuts, e);
	if (rc)
		return rc;
	c->have_cuts = 1;
	if (c->a.mcast) {
		rc = ibu_mft_read(c->a.mcast, &c->f, &c->mft, e);
		if (rc)
			return rc;
		c->have_mft = 1;
	}
	if (c->a.members) {
		rc = ibu_mcmembers_read(c->a.members, &c->f, &c->mm, e);
		if (rc)
			return rc;
		c->have_mm = 1;
		rc = ibu_traffic_group_senders(&c->mm, &c->senders, e);
		if (rc)
			return rc;
	}
	return IBU_OK;
}

/* A run that failed may have left part of it in c->topo: the trees are
 * then built on the model as recognised, without unicast. */
static int recognise_again(struct load_ctx *c, struct ibu_err *e)
{
	enum ibu_engine_decline_kind why;

	c->ops->topo_free(c->topo);
	c->topo = NULL;
	return c->ops->recognise(&c->f, &c->a.eo, &c->topo, &why, e);
}

/* The engine's trees of every group of mm into mft, the load carried
 * from group to group, beside the engine's own unicast (as the plugin
 * builds them: a damaged fat tree's trees may turn where it leaves room;
 * without it they are built as before routing). */
static int offline_trees(struct load_ctx *c, const struct ibu_mcmembers *mm,
			 struct ibu_mft *mft, struct ibu_err *e)
{
	const struct ibu_engine_ops *ops = c->ops;
	struct ibu_engine_result res;
	struct ibu_err ue = { 0 };
	const void *topo;
	void *state = NULL;
	int rc, gi, i, p, routed = 0;

	memset(&res, 0, sizeof(res));
	if (ops->route)	/* on the model recognised once, in ctx_read */
		routed = !ibu_engine_run_lent(ops, &c->f, &c->a.eo, c->topo,
					      &res, &ue);
	rc = ops->route && !routed ? recognise_again(c, e) : IBU_OK;
	topo = c->topo;
	if (!rc)
		rc = ops->mcast.state_new(&c->f, topo, &state, e);
	for (gi = 0; gi < mm->num_groups && !rc; gi++) {
		const struct ibu_mcgroup *g = &mm->g[gi];
		struct ibu_engine_tree tree;

		memset(&tree, 0, sizeof(tree));
		rc = ops->mcast.tree(&c->f, topo, state, g->m, g->num,
				     &c->a.eo, g->mlid, &tree, e);
		for (i = 0; !rc && i < tree.num_switches; i++)
			for (p = 0; !rc && p < 256; p++)
				if (ibu_pm_test(&tree.ports[i], p))
					rc = ibu_mft_set(mft, g->mlid,
							 tree.nodes[i], p, e);
		ibu_engine_tree_free(&tree);
	}
	if (state)
		ops->mcast.state_free(state);
	if (routed)
		ibu_engine_result_free(&res);
	return rc;
}

/* The paper's case of p: members, senders and (mcast) offline trees. */
static int make_case(struct load_ctx *c, const struct ibu_pattern *p,
		     struct ibu_mcmembers *mm, struct ibu_mflows *snd,
		     struct ibu_mft *mft, int *have_mft, struct ibu_err *e)
{
	int rc;

	rc = ibu_traffic_mcast_case(&c->ep, p, c->a.seed, CASE_MLID_BASE, mm,
				    snd, e);
	if (rc || p->kind != IBU_PAT_MCAST)
		return rc;
	if (!c->ops || !c->ops->mcast.tree)
		return ibu_err_set(e, IBU_ETOPO,
				   "%s: offline multicast trees need an engine with multicast that recognises %s",
				   p->name, c->a.fabric);
	rc = ibu_mft_init(mft, c->f.num_nodes, e);
	if (rc)
		return rc;
	*have_mft = 1;
	return offline_trees(c, mm, mft, e);
}

/* ------------------------------------------------------------ printing */

static void fmt_load(char *buf, size_t len, uint64_t v, uint64_t unit)
{
	if (v % unit == 0)
		snprintf(buf, len, "%" PRIu64, v / unit);
	else
		snprintf(buf, len, "%.2f", (double)v / (double)unit);
}

/* The engine's label of a switch or an end port, "" if it has none. */
static void label(const struct load_ctx *c, int node, int port, char *buf,
		  size_t len)
{
	const struct ibu_engine_ops *ops = c->ops;

	buf[0] = '\0';
	if (!ops)
		return;
	if (ibu_node_is_switch(&c->f.nodes[node]) && ops->report.node_label)
		ops->report.node_label(c->topo, node, buf, len);
	else if (ops->report.endport_index && ops->report.endport_label &&
		 ops->report.endport_index(c->topo, node, port) >= 0)
		ops->report.endport_label(c->topo, node, port, buf, len);
	if (!strcmp(buf, "-"))
		buf[0] = '\0';
}

static void link_name(const struct load_ctx *c, int node, int port, char *buf,
		      size_t len)
{
	const struct ibu_node *nd = &c->f.nodes[node];
	const struct ibu_port *p = &nd->ports[port];
	char a[80], b[80];

	label(c, node, port, a, sizeof(a));
	label(c, p->peer_node, p->peer_port, b, sizeof(b));
	snprintf(buf, len, "%s%s'%s' port %d -> %s%s'%s' port %d", a,
		 a[0] ? " " : "", nd->name, port, b, b[0] ? " " : "",
		 c->f.nodes[p->peer_node].name, p->peer_port);
}

static void print_header(void)
{
	printf("%-16s %-6s %9s %9s %10s %12s %12s %8s %8s\n", "pattern", "dlids",
	       "messages", "busiest", "busiest-sw", "traversals", "time-us",
	       "unrouted", "flow-bw");
}

static void print_row(const struct ibu_pattern *p, enum ibu_dlid_mode m,
		      const struct ibu_traffic_result *r)
{
	char busy[32], sw[32], tot[32];
	const char *dl = ibu_pattern_is_mcast(p) ? "-" : ibu_dlid_mode_name(m);

	fmt_load(busy, sizeof(busy), r->st.max_any, r->unit);
	fmt_load(sw, sizeof(sw), r->st.max_sw, r->unit);
	fmt_load(tot, sizeof(tot), r->st.total, r->unit);
	printf("%-16s %-6s %9ld %9s %10s %12s %12.3f %8ld %8.4f\n", p->name, dl,
	       r->messages, busy, sw, tot, r->time_ns / 1000.0, r->unrouted,
	       r->flow_bw);
}

/* A sampled pattern's flow-bw as the estimate it is: the half-width of
 * its 95% interval and, for a dump after the first, its paired difference
 * from the first dump's on the same samples (ibu_traffic_ci95). n = 0:
 * not sampled. */
struct bw_spread {
	int n, paired;
	double ci95, diff, diff_ci95;
};

static void print_samples(const struct ibu_pattern *p, const char *dl,
			  const struct ibu_traffic_result *r,
			  const struct bw_spread *sp)
{
	if ((p->kind == IBU_PAT_SHIFT || p->kind == IBU_PAT_RAIL_SHIFT) &&
	    !p->k)
		printf("-I- %s %s: worst of %d permutations is k=%d\n", p->name,
		       dl, r->permutations, r->worst_k);
	else if ((p->kind == IBU_PAT_RANDOM || p->kind == IBU_PAT_BISECT) &&
		 r->permutations > 1)
		printf("-I- %s %s: worst of %d samples is #%d; flow-bw over all of them%s: %.4f +/- %.4f (95%% interval)\n",
		       p->name, dl, r->permutations, r->worst_k,
		       p->kind == IBU_PAT_BISECT ?
		       " (effective bisection bandwidth)" : "", r->flow_bw,
		       sp->ci95);
}

static void print_detail(const struct load_ctx *c, const struct ibu_pattern *p,
			 enum ibu_dlid_mode m,
			 const struct ibu_traffic_result *r,
			 const struct bw_spread *sp)
{
	char name[400], v[32];
	const char *dl = ibu_pattern_is_mcast(p) ? "mcast" : ibu_dlid_mode_name(m);

	if (r->st.max_any_node >= 0) {
		link_name(c, r->st.max_any_node, r->st.max_any_port, name,
			  sizeof(name));
		fmt_load(v, sizeof(v), r->st.max_any, r->unit);
		printf("-I- %s %s: busiest link %s: %s\n", p->name, dl, name, v);
	}
	if (r->st.max_sw_node >= 0) {
		link_name(c, r->st.max_sw_node, r->st.max_sw_port, name,
			  sizeof(name));
		fmt_load(v, sizeof(v), r->st.max_sw, r->unit);
		printf("-I- %s %s: busiest switch-to-switch link %s: %s (%ld of %ld cables used)\n",
		       p->name, dl, name, v, r->st.sw_cables_used,
		       r->st.sw_cables);
	}
	printf("-I- %s %s: lower bound of the busiest link for any tables: %.6g (%s)\n",
	       p->name, dl, r->bound, ibu_pattern_is_mcast(p) ||
	       p->kind == IBU_PAT_MCAST_UCAST || p->kind == IBU_PAT_GROUPS_UCAST ?
	       "the busiest end-port cable" : "end-port cables and cuts of the graph");
	print_samples(p, dl, r, sp);
	if (r->unrouted)
		printf("-E- %s %s: %ld walks did not arrive, first: %s\n",
		       p->name, dl, r->unrouted, r->first_unrouted);
}

/* --json: one element of "rows" (schema: ibunion(1), JSON OUTPUT). */
static void json_row(FILE *out, int first, const char *dump,
		     const struct ibu_pattern *p, enum ibu_dlid_mode m,
		     const struct ibu_traffic_result *r,
		     const struct bw_spread *sp)
{
	double u = r->unit ? (double)r->unit : 1.0;

	fprintf(out, "%s{", first ? "" : ",");
	if (dump) {
		fprintf(out, "\"lfts\":");
		ibu_json_str(out, dump);
		fputc(',', out);
	}
	fprintf(out, "\"pattern\":");
	ibu_json_str(out, p->name);
	fprintf(out, ",\"dlids\":");
	ibu_json_str(out, ibu_pattern_is_mcast(p) ? NULL : ibu_dlid_mode_name(m));
	fprintf(out, ",\"messages\":%ld,\"busiest\":%.6g,\"busiest_sw\":%.6g,\"traversals\":%.6g,\"time_us\":%.3f,\"unrouted\":%ld,\"flow_bw\":%.6g,\"bound\":%.6g",
		r->messages, (double)r->st.max_any / u, (double)r->st.max_sw / u,
		(double)r->st.total / u, r->time_ns / 1000.0, r->unrouted,
		r->flow_bw, r->bound);
	if (sp->n)
		fprintf(out, ",\"flow_bw_ci95\":%.6g", sp->ci95);
	if (sp->paired)
		fprintf(out, ",\"flow_bw_diff\":%.6g,\"flow_bw_diff_ci95\":%.6g",
			sp->diff, sp->diff_ci95);
	fputc('}', out);
}

/* ------------------------------------------------------------ compare */

/* A dump's column name: its file name without the directory and a
 * .lfts/.dump/.txt ending. */
static void dump_name(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/'), *dot;
	size_t n;

	b = b && b[1] ? b + 1 : path;
	n = strlen(b);
	dot = strrchr(b, '.');
	if (dot && dot != b && (!strcmp(dot, ".lfts") || !strcmp(dot, ".dump") ||
				!strcmp(dot, ".txt")))
		n = (size_t)(dot - b);
	snprintf(buf, len, "%.*s", (int)n, b);
}

enum { FIG_BUSIEST, FIG_BUSIEST_SW, FIG_FLOW_BW, FIG_BOUND, FIG_UNROUTED,
       FIG_TIME, NUM_FIGS };

static const char *const fig_names[NUM_FIGS] = {
	"busiest", "busiest-sw", "flow-bw", "bound", "unrouted", "time-us",
};

static void fig_cell(char *buf, size_t len, int fig,
		     const struct ibu_traffic_result *r)
{
	switch (fig) {
	case FIG_BUSIEST:
		fmt_load(buf, len, r->st.max_any, r->unit);
		break;
	case FIG_BUSIEST_SW:
		fmt_load(buf, len, r->st.max_sw, r->unit);
		break;
	case FIG_FLOW_BW:
		snprintf(buf, len, "%.4f", r->flow_bw);
		break;
	case FIG_BOUND:
		snprintf(buf, len, "%.6g", r->bound);
		break;
	case FIG_UNROUTED:
		snprintf(buf, len, "%ld", r->unrouted);
		break;
	default:
		snprintf(buf, len, "%.3f", r->time_ns / 1000.0);
	}
}

/* ------------------------------------------------------------ main */

static int run_one(struct load_ctx *c, const struct ibu_pattern *p,
		   enum ibu_dlid_mode m, struct ibu_linkload *ll,
		   struct ibu_traffic_result *r, double *sbw, int cap,
		   struct ibu_err *e)
{
	struct ibu_traffic_in in = {
		.f = &c->f, .lft = &c->lft, .ep = &c->ep, .dlids = m,
		.seed = c->a.seed, .size = c->a.size, .cuts = &c->cuts,
		.sample_bw = sbw, .sample_cap = cap,
	};
	struct ibu_mcmembers cmm;
	struct ibu_mflows csnd = { 0 };
	struct ibu_mft cmft;
	int have_cmft = 0, rc;

	if (m == IBU_DLIDS_ADVISED) {
		in.advised = advised_offset;
		in.advised_ctx = c;
	}
	ibu_mcmembers_init(&cmm);
	if (p->kind == IBU_PAT_MCAST || p->kind == IBU_PAT_MCAST_UCAST) {
		rc = make_case(c, p, &cmm, &csnd, &cmft, &have_cmft, e);
		if (rc)
			goto out;
		in.mm = &cmm;
		in.senders = &csnd;
		in.mft = have_cmft ? &cmft : NULL;
	} else if (p->kind == IBU_PAT_GROUPS || p->kind == IBU_PAT_GROUPS_UCAST) {
		in.mm = &c->mm;
		in.senders = &c->senders;
		in.mft = c->have_mft ? &c->mft : NULL;
	}
	rc = ibu_traffic_run(&in, p, ll, r, e);
out:
	if (have_cmft)
		ibu_mft_free(&cmft);
	ibu_mcmembers_free(&cmm);
	ibu_mflows_free(&csnd);
	return rc;
}

/* ", cyclic: IBFT(8,3): ...; advised DLIDs with offsets=rotated" */
static void print_engine(const struct load_ctx *c)
{
	char what[1024], opts[256];
	int j;

	if (!c->ops)
		return;
	c->ops->describe(&c->f, c->topo, what, sizeof(what));
	printf(", %s: %s", c->ops->name, what);
	for (j = 0; j < c->a.num_dlids; j++)
		if (c->a.dlids[j] == IBU_DLIDS_ADVISED) {
			ibu_engine_opts_line(c->ops, &c->a.eo, opts,
					     sizeof(opts));
			printf("; %s DLIDs for %s", c->ops->name, opts);
			break;
		}
}

static void print_intro(const struct load_ctx *c)
{
	int d;

	printf("-I- %s: %d switches, %d end ports (%s order); %s: LIDs up to 0x%04x",
	       c->a.fabric, ibu_fabric_count_switches(&c->f), c->ep.num,
	       c->ep.by_engine ? c->ops->name : "port GUID", c->a.lfts,
	       c->lft.max_lid);
	print_engine(c);
	printf("\n-I- message %ld bytes; [Zhou07]'s model: 20 ns per link, 100 ns per switch, 4 ns per byte; loads in messages\n",
	       c->a.size);
	if (c->a.num_dumps > 1) {
		printf("-I- %d LFT dumps, one column each:", c->a.num_dumps);
		for (d = 0; d < c->a.num_dumps; d++)
			printf(" %s", c->a.dumps[d]);
		printf("\n");
	}
}

/* What the dumps' runs leave: JSON rows, the compare table's cells. */
struct load_out {
	FILE *jrows;
	int jcount;
	int rows;			/* pattern and DLID choices */
	struct ibu_traffic_result *res;	/* [dump * rows + row] */
	int *pat, *dl;			/* [row] */
	double *samp;			/* [(dump * rows + row) * kmax]: each
					 * sample's flow-bw (random:K, ebb:K) */
	int kmax;
	int unrouted, drew;
};

/* Dump d's samples of row row, NULL where none are kept. */
static double *samples_of(const struct load_out *o, int d, int row)
{
	return o->samp ? o->samp + ((size_t)d * (size_t)o->rows +
				    (size_t)row) * (size_t)o->kmax : NULL;
}

/* Dump d's spread on row row (r: its result). */
static void spread_of(const struct load_out *o, int d, int row,
		      const struct ibu_pattern *p,
		      const struct ibu_traffic_result *r,
		      struct bw_spread *sp)
{
	double mean;

	memset(sp, 0, sizeof(*sp));
	if (!o->samp || r->permutations < 2 || r->permutations > o->kmax ||
	    (p->kind != IBU_PAT_RANDOM && p->kind != IBU_PAT_BISECT))
		return;
	sp->n = r->permutations;
	ibu_traffic_ci95(samples_of(o, d, row), NULL, sp->n, &mean,
			 &sp->ci95);
	if (d > 0) {
		sp->paired = 1;
		ibu_traffic_ci95(samples_of(o, d, row), samples_of(o, 0, row),
				 sp->n, &sp->diff, &sp->diff_ci95);
	}
}

/* The spread lines of a sampled row: the 95% half-width of each dump's
 * flow-bw (bw-ci95), each later dump's flow-bw minus the first's on the
 * same samples (bw-diff) and that difference's half-width (diff-ci95);
 * "-" where it does not apply. */
static void print_spread(const struct load_args *a, const struct load_out *o,
			 int row, const int *width)
{
	static const char *const names[3] = { "bw-ci95", "bw-diff",
					       "diff-ci95" };
	const struct ibu_pattern *p = &a->pat[o->pat[row]];
	struct bw_spread sp;
	char cell[48];
	int d, k;

	spread_of(o, 0, row, p, &o->res[row], &sp);
	if (!sp.n)
		return;
	for (k = 0; k < 3; k++) {
		printf("%-16s %-6s %-10s", p->name,
		       ibu_dlid_mode_name(a->dlids[o->dl[row]]), names[k]);
		for (d = 0; d < a->num_dumps; d++) {
			spread_of(o, d, row, p, &o->res[d * o->rows + row],
				  &sp);
			if (k == 0)
				snprintf(cell, sizeof(cell), "%.5f", sp.ci95);
			else if (!sp.paired)
				snprintf(cell, sizeof(cell), "-");
			else if (k == 1)
				snprintf(cell, sizeof(cell), "%+.5f", sp.diff);
			else
				snprintf(cell, sizeof(cell), "%.5f",
					 sp.diff_ci95);
			printf(" %*s", width[d], cell);
		}
		printf("\n");
	}
}

/* res[d * rows + row]: one row per pattern and DLID choice, in the order
 * they were run; one line per figure, one column per dump. */
static void print_compare(const struct load_args *a, const struct load_out *o)
{
	char names[MAX_DUMPS][64], cell[48];
	int width[MAX_DUMPS], d, row, fig;

	printf("%-16s %-6s %-10s", "pattern", "dlids", "figure");
	for (d = 0; d < a->num_dumps; d++) {
		dump_name(a->dumps[d], names[d], sizeof(names[d]));
		width[d] = (int)strlen(names[d]) < 9 ? 9 : (int)strlen(names[d]);
		printf(" %*s", width[d], names[d]);
	}
	printf("\n");
	for (row = 0; row < o->rows; row++) {
		const struct ibu_pattern *p = &a->pat[o->pat[row]];

		for (fig = 0; fig < NUM_FIGS; fig++) {
			printf("%-16s %-6s %-10s", p->name,
			       ibu_pattern_is_mcast(p) ? "-" :
			       ibu_dlid_mode_name(a->dlids[o->dl[row]]),
			       fig_names[fig]);
			for (d = 0; d < a->num_dumps; d++) {
				fig_cell(cell, sizeof(cell), fig,
					 &o->res[d * o->rows + row]);
				printf(" %*s", width[d], cell);
			}
			printf("\n");
		}
		print_spread(a, o, row, width);
	}
}

static int count_rows(const struct load_args *a)
{
	int i, rows = 0;

	for (i = 0; i < a->num_pat; i++)
		rows += ibu_pattern_is_mcast(&a->pat[i]) ? 1 : a->num_dlids;
	return rows;
}

static int draw_svg(struct load_ctx *c, const struct ibu_pattern *p,
		    enum ibu_dlid_mode m, const struct ibu_linkload *ll,
		    const struct ibu_traffic_result *r, struct ibu_err *e)
{
	char title[200];

	snprintf(title, sizeof(title), "%s on %s, %s DLIDs", p->name,
		 c->a.lfts, ibu_pattern_is_mcast(p) ? "multicast" :
		 ibu_dlid_mode_name(m));
	return ibu_load_svg_write(c->a.svg, &c->f, c->ops, c->topo, ll,
				  r->unit, r->bound, title, e);
}

/* Every pattern and DLID choice on the tables of dump d (c->a.lfts). */
static int run_dump(struct load_ctx *c, int d, struct ibu_linkload *ll,
		    struct load_out *o, struct ibu_err *e)
{
	int i, j, row = 0, compare = c->a.num_dumps > 1;

	for (i = 0; i < c->a.num_pat; i++) {
		const struct ibu_pattern *p = &c->a.pat[i];

		for (j = 0; j < c->a.num_dlids; j++) {
			struct ibu_traffic_result r;
			struct bw_spread sp;

			if (ibu_pattern_is_mcast(p) && j > 0)
				break;	/* DLIDs do not apply */
			if (run_one(c, p, c->a.dlids[j], ll, &r,
				    samples_of(o, d, row), o->kmax, e)) {
				ibu_err_prefix(e, "pattern %s", p->name);
				return e->code ? e->code : IBU_EINVAL;
			}
			spread_of(o, d, row, p, &r, &sp);
			if (compare) {
				o->res[d * o->rows + row] = r;
				o->pat[row] = i;
				o->dl[row] = j;
			} else {
				print_row(p, c->a.dlids[j], &r);
				if (!c->a.quiet)
					print_detail(c, p, c->a.dlids[j], &r,
						     &sp);
			}
			row++;
			if (o->jrows)
				json_row(o->jrows, !o->jcount++,
					 compare ? c->a.lfts : NULL, p,
					 c->a.dlids[j], &r, &sp);
			o->unrouted |= r.unrouted > 0;
			if (c->a.svg && !o->drew) {
				if (draw_svg(c, p, c->a.dlids[j], ll, &r, e))
					return e->code ? e->code : IBU_EIO;
				o->drew = 1;
			}
		}
	}
	return IBU_OK;
}

/* Reads dump d into c (a fresh context: every dump may carry other
 * LIDs) and runs it. */
static int one_dump(struct load_ctx *c, int d, struct load_out *o,
		    struct ibu_err *e)
{
	struct ibu_linkload ll;
	struct load_args a = c->a;
	int j, rc;

	ctx_free(c);
	memset(c, 0, sizeof(*c));
	c->a = a;
	c->a.lfts = a.dumps[d];
	rc = ctx_read(c, e);
	if (rc)
		return rc;
	for (j = 0; j < c->a.num_dlids; j++)
		if (c->a.dlids[j] == IBU_DLIDS_ADVISED &&
		    (!c->ops || !c->ops->advice.offset))
			return ibu_err_set(e, IBU_ETOPO,
					   "--dlids cyclic: no engine that advises DLIDs recognises %s",
					   c->a.fabric);
	rc = ibu_linkload_init(&ll, &c->f, e);
	if (rc)
		return rc;
	if (!c->a.quiet && d == 0)
		print_intro(c);
	if (d == 0 && a.num_dumps == 1)
		print_header();
	rc = run_dump(c, d, &ll, o, e);
	ibu_linkload_free(&ll);
	return rc;
}

/* The largest K of the patterns that draw K samples (random:K, ebb:K). */
static int max_samples(const struct load_args *a)
{
	int i, k = 0;

	for (i = 0; i < a->num_pat; i++)
		if ((a->pat[i].kind == IBU_PAT_RANDOM ||
		     a->pat[i].kind == IBU_PAT_BISECT) && a->pat[i].k > k)
			k = a->pat[i].k;
	return k;
}

static int out_init(struct load_out *o, const struct load_args *a)
{
	memset(o, 0, sizeof(*o));
	o->rows = count_rows(a);
	o->kmax = max_samples(a);
	if (o->kmax > 1) {
		o->samp = calloc((size_t)o->rows * (size_t)a->num_dumps *
				 (size_t)o->kmax + 1, sizeof(*o->samp));
		if (!o->samp)
			return IBU_ENOMEM;
	}
	if (a->num_dumps < 2)
		return IBU_OK;
	o->res = calloc((size_t)o->rows * a->num_dumps + 1, sizeof(*o->res));
	o->pat = calloc(o->rows + 1, sizeof(*o->pat));
	o->dl = calloc(o->rows + 1, sizeof(*o->dl));
	return o->res && o->pat && o->dl ? IBU_OK : IBU_ENOMEM;
}

static void out_free(struct load_out *o)
{
	free(o->samp);
	free(o->res);
	free(o->pat);
	free(o->dl);
}

/* Every dump; the compare table when there are several. */
static int run_all(struct load_ctx *c, struct load_out *o, FILE *jrows,
		   struct ibu_err *e)
{
	int d, rc;

	if (out_init(o, &c->a))
		return ibu_err_set(e, IBU_ENOMEM, "out of memory (results)");
	o->jrows = jrows;
	for (d = 0; d < c->a.num_dumps; d++) {
		rc = one_dump(c, d, o, e);
		if (rc)
			return rc;
	}
	if (c->a.num_dumps > 1)
		print_compare(&c->a, o);
	if (o->drew && !c->a.quiet)
		printf("-I- wrote %s\n", c->a.svg);
	return IBU_OK;
}

/* Closes jrows (which fills *jbuf) and prints the JSON object. */
static void json_finish(const struct load_ctx *c, FILE *jrows, char **jbuf,
			int saved, int *ret)
{
	int bad = fclose(jrows) != 0, d;

	ibu_json_stdout_end(saved);
	printf("{\"command\":\"load\",\"fabric\":");
	ibu_json_str(stdout, c->a.fabric);
	printf(",\"lfts\":");
	ibu_json_str(stdout, c->a.dumps[0]);
	if (c->a.num_dumps > 1) {
		printf(",\"dumps\":[");
		for (d = 0; d < c->a.num_dumps; d++) {
			if (d)
				putchar(',');
			ibu_json_str(stdout, c->a.dumps[d]);
		}
		putchar(']');
	}
	printf(",\"size\":%ld,\"exit\":%d,\"rows\":[%s]}\n", c->a.size,
	       bad ? IBU_EXIT_ERROR : *ret, bad || !*jbuf ? "" : *jbuf);
	if (bad)
		*ret = IBU_EXIT_ERROR;
}

int ibu_cmd_load(int argc, char **argv)
{
	struct load_ctx *c;
	struct load_out o;
	struct ibu_err e = { 0 };
	int ret, saved = -1;
	char *jbuf = NULL;
	size_t jlen = 0;
	FILE *jrows = NULL;

	c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "-E- ibunion load: out of memory\n");
		return IBU_EXIT_ERROR;
	}
	if (parse_args(argc, argv, &c->a)) {
		ibu_cmd_load_usage(stderr);
		free(c);
		return IBU_EXIT_USAGE;
	}
	if (c->a.json) {
		jrows = open_memstream(&jbuf, &jlen);
		saved = jrows ? ibu_json_stdout_begin("load") : -1;
		if (saved < 0) {
			if (jrows)
				fclose(jrows);
			else
				fprintf(stderr, "-E- ibunion load: out of memory\n");
			free(jbuf);
			free(c);
			return IBU_EXIT_ERROR;
		}
	}
	if (run_all(c, &o, jrows, &e) == IBU_OK) {
		ret = o.unrouted ? IBU_EXIT_FAIL : IBU_EXIT_OK;
	} else {
		fflush(stdout);
		ibu_opt_report("load", &e);
		ret = IBU_EXIT_ERROR;
	}
	if (jrows) {
		json_finish(c, jrows, &jbuf, saved, &ret);
		free(jbuf);
	}
	out_free(&o);
	ctx_free(c);
	free(c);
	return ret;
}
