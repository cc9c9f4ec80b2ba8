/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion check [--engine NAME|none] [-O KEY=VALUE]... [--dlids FILE]
 *               [--updown] [--max-errors N] [--climb-sources N] [-q]
 *               FABRIC LFTDUMP
 * (--NAME = --engine NAME for every engine of the registry, --offsets M =
 * -O offsets=M)
 * ibunion check --mcast MFTDUMP [--members FILE] FABRIC [LFTDUMP]
 * Validates the LFTs of a dump (dump_lfts, ibroute, opensm-lfts.dump)
 * against a fabric (ibsim net file or ibnetdiscover output).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "osm_state.h"
#include "opts.h"
#include "fabric_open.h"
#include "netfile.h"
#include "dump.h"
#include "verify.h"
#include "engine_pick.h"
#include "deadlock_report.h"
#include "mcast_report.h"
#include "progress_line.h"
#include "json_out.h"

/* --NAME = --engine NAME, for every engine of the registry (the option
 * values after every letter's). */
#define ENGINE_FLAG 0x100
#define MAX_ENGINE_FLAGS 16

/* "  --cyclic, --xy        = --engine cyclic, --engine xy" */
static void engine_flags_usage(FILE *out)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	int i, col;

	col = fprintf(out, "  ");
	for (i = 0; l[i] && i < MAX_ENGINE_FLAGS; i++)
		col += fprintf(out, "%s--%s", i ? ", " : "", l[i]->name);
	fprintf(out, "%*s=", col < 24 ? 24 - col : 1, "");
	for (i = 0; l[i] && i < MAX_ENGINE_FLAGS; i++)
		fprintf(out, "%s --engine %s", i ? "," : "", l[i]->name);
	fputc('\n', out);
}

/* fixed[0..n-1], then one no_argument option per engine, then the end. */
static void engine_flags(const struct option *fixed, int n,
			 struct option *lo)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	int i;

	memcpy(lo, fixed, n * sizeof(*lo));
	for (i = 0; l[i] && i < MAX_ENGINE_FLAGS; i++)
		lo[n + i] = (struct option){ l[i]->name, no_argument, NULL,
					     ENGINE_FLAG + i };
	memset(&lo[n + i], 0, sizeof(*lo));
}

void ibu_cmd_check_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion check [options] FABRIC LFTDUMP\n"
		"       ibunion check --mcast MFTDUMP [--members FILE] [options] FABRIC [LFTDUMP]\n"
		"  validates the unicast forwarding tables in LFTDUMP (output of\n"
		"  dump_lfts / dump_fts / ibroute, or OpenSM's opensm-lfts.dump)\n"
		"  against FABRIC (ibsim net file or ibnetdiscover output): every\n"
		"  end port must reach every LID of every port, without loops, on a\n"
		"  shortest path. The dump's LIDs are taken as the truth.\n"
		"  By default the tables must also follow the rule of the engine that\n"
		"  recognises FABRIC (cyclic on a fat tree: every entry, and each\n"
		"  source's routes share one ascending path; xy on a 2-D mesh: X first,\n"
		"  then Y, then the HCA port).\n"
		"options:\n"
		"  --engine NAME         the rule of this engine (it must recognise\n"
		"                        FABRIC); none: topology-free checks only\n");
	engine_flags_usage(out);
	fprintf(out,
		"  -O KEY=VALUE          an engine option the tables were built with,\n"
		"                        as event_plugin_options (e.g. offsets=paper)\n"
		"  --offsets MODE        = -O offsets=MODE\n"
		"  --dlids FILE          check the rule's ascending paths on the DLIDs\n"
		"                        of FILE ('0xSLID 0xDLID' lines, as ibunion\n"
		"                        path --format pairs writes them)\n"
		"  --updown              routes must be up*/down* in the engine's ranks\n"
		"                        (a route that goes down, then up again is an\n"
		"                        error: a credit-loop risk), shortest among\n"
		"                        those; a pair with no up*/down* path left\n"
		"                        unrouted is no error (implied by the rule of an\n"
		"                        engine that has ranks, as cyclic)\n"
		"  --deadlock            build the channel dependency graph of every\n"
		"                        unicast route (and, with --mcast, of every MLID\n"
		"                        flooded from every member) and print one cycle\n"
		"                        (a possible credit loop) if there is any\n"
		"  --sl2vl FILE          with --deadlock: per VL, SL2VL tables from FILE\n"
		"                        (OpenSM's opensm-sl2vl.dump)\n"
		"  --vl-plan PLAN        with --deadlock: SLs (and, without --sl2vl,\n"
		"                        VLs) of the engine's VL plan PLAN (xy:\n"
		"                        [Zhou10]'s 1, 2-spread, 2-direction, 4-spread or\n"
		"                        4-direction; = -O vl_plan=PLAN)\n"
		"                        Without both, tables that follow xy's rule on\n"
		"                        a damaged mesh are judged on the SLs its\n"
		"                        PathRecords hand out (--engine none: SL 0)\n"
		"  --climb-sources N     check the ascending paths of N sources only\n"
		"                        (default: all)\n"
		"  --max-errors N        print at most N errors of each kind (default 20)\n"
		"  -q, --quiet           no information lines, only problems and the summary\n"
		"  --json                stdout: one JSON object with the verdicts and\n"
		"                        counts (schema in ibunion(1)); the report\n"
		"                        lines go to stderr\n"
		"  -o, --output FILE     write the report to FILE (renamed into place\n"
		"                        when complete) instead of stdout\n"
		"  --mcast MFTDUMP       also (or, without LFTDUMP, only) flood every MLID\n"
		"                        of MFTDUMP (dump_mfts / ibroute -M) from every\n"
		"                        member: each member must get exactly one copy,\n"
		"                        non-members none, no switch a packet twice\n"
		"  --members FILE        the members of each MLID ('MLID port-GUID|node\n"
		"                        [port=N] [full|send-only]' lines, as ibunion mcast\n"
		"                        join prints them); default: every CA port the MFTs\n"
		"                        point at is a full member\n"
		"exit status: 0 all holds, 1 problems found, 2 usage, 3 bad input\n");
	ibu_engine_opts_usage(out);
}

/* The engine's up*|down* ranks, per fabric node. */
static int updown_ranks(const struct ibu_fabric *f,
			const struct ibu_engine_ops *ops, const void *topo,
			int **rank, struct ibu_err *e)
{
	int i;

	*rank = malloc((f->num_nodes ? f->num_nodes : 1) * sizeof(int));
	if (!*rank)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++)
		(*rank)[i] = ops->report.rank(topo, i);
	return IBU_OK;
}

/* What --json lists besides the counts: every pair that does not arrive
 * or is left unrouted, every problem line. */
struct json_lists {
	int on;
	struct json_pair {
		enum ibu_verify_kind kind;
		int node, port;
		uint32_t lid;
	} *pairs;
	long num_pairs, cap_pairs;
	char **lines;
	long num_lines, cap_lines;
	int failed;		/* out of memory: the lists are incomplete */
};

static int grow(void **v, long *cap, long need, size_t size)
{
	long n = *cap ? *cap * 2 : 256;
	void *g;

	if (need < *cap)
		return 0;
	g = realloc(*v, (size_t)n * size);
	if (!g)
		return -1;
	*v = g;
	*cap = n;
	return 0;
}

static void json_pair(void *arg, enum ibu_verify_kind kind, int node,
		      int port, uint32_t lid)
{
	struct json_lists *l = arg;
	struct json_pair *p;

	if (grow((void **)&l->pairs, &l->cap_pairs, l->num_pairs,
		 sizeof(*l->pairs))) {
		l->failed = 1;
		return;
	}
	p = &l->pairs[l->num_pairs++];
	p->kind = kind;
	p->node = node;
	p->port = port;
	p->lid = lid;
}

static void json_line(struct json_lists *l, char level, const char *text)
{
	char *copy;

	if (!l->on || level == 'I')
		return;
	copy = malloc(strlen(text) + 4);
	if (!copy || grow((void **)&l->lines, &l->cap_lines, l->num_lines,
			  sizeof(*l->lines))) {
		free(copy);
		l->failed = 1;
		return;
	}
	sprintf(copy, "-%c- %s", level, text);
	l->lines[l->num_lines++] = copy;
}

static void json_lists_free(struct json_lists *l)
{
	long i;

	for (i = 0; i < l->num_lines; i++)
		free(l->lines[i]);
	free(l->lines);
	free(l->pairs);
	memset(l, 0, sizeof(*l));
}

struct line_sink {
	struct ibu_tool_progress *pr;
	struct json_lists *json;
};

/* Report lines go to stdout; a progress line on the terminal is erased
 * first so that they do not share a line. */
static void report_line(void *arg, char level, const char *text)
{
	struct line_sink *k = arg;

	ibu_tool_progress_done(k->pr);
	ibu_report_file(stdout, level, text);
	json_line(k->json, level, text);
}

struct check_args {
	const char *engine;	/* NULL: the one that recognises FABRIC */
	struct ibu_engine_opts eo;
	int updown;
	int deadlock;
	const char *sl2vl;
	const char *vl_plan;
	int quiet;
	int json;
	long max_errors;
	long climb_sources;
	const char *fabric;
	const char *lfts;
	const char *mcast;	/* --mcast MFTDUMP */
	const char *members;	/* --members FILE */
	const char *dlids;	/* --dlids FILE */
};

static int parse_args(int argc, char **argv, struct check_args *a)
{
	static const struct option fixed[] = {
		{ "updown", no_argument, NULL, 'U' },
		{ "deadlock", no_argument, NULL, 'K' },
		{ "sl2vl", required_argument, NULL, 'V' },
		{ "vl-plan", required_argument, NULL, 'P' },
		{ "max-errors", required_argument, NULL, 'm' },
		{ "climb-sources", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'J' },
		{ "mcast", required_argument, NULL, 'M' },
		{ "members", required_argument, NULL, 'b' },
		{ "offsets", required_argument, NULL, 'f' },
		{ "engine", required_argument, NULL, 'E' },
		{ "dlids", required_argument, NULL, 'D' },
	};
	enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
	struct option lo[NFIXED + MAX_ENGINE_FLAGS + 1];
	int c;

	engine_flags(fixed, NFIXED, lo);
	memset(a, 0, sizeof(*a));
	ibu_engine_opts_default(&a->eo);
	a->max_errors = IBU_VERIFY_DEFAULT_MAX_ERRORS;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qO:", lo, NULL)) != -1) {
		switch (c) {
		case 'U': a->updown = 1; break;
		case 'E': a->engine = optarg; break;
		case 'K': a->deadlock = 1; break;
		case 'V': a->sl2vl = optarg; break;
		case 'P':
			a->vl_plan = optarg;
			if (ibu_engine_opt_alias("check", &a->eo, "vl_plan",
						 optarg))
				return -1;
			break;
		case 'q': a->quiet = 1; break;
		case 'J': a->json = 1; break;
		case 'M': a->mcast = optarg; break;
		case 'b': a->members = optarg; break;
		case 'D': a->dlids = optarg; break;
		case 'O':
			if (ibu_engine_opt_arg("check", &a->eo, optarg))
				return -1;
			break;
		case 'f':
			if (ibu_engine_opt_alias("check", &a->eo, "offsets",
						 optarg))
				return -1;
			break;
		case 'm':
			if (ibu_opt_int("check", "--max-errors", optarg, 0,
					1000000000, &a->max_errors))
				return -1;
			break;
		case 's':
			if (ibu_opt_int("check", "--climb-sources", optarg, 1,
					1000000000, &a->climb_sources))
				return -1;
			break;
		default:
			if (c < ENGINE_FLAG || c >= ENGINE_FLAG + MAX_ENGINE_FLAGS)
				return -1;
			a->engine = ibu_engine_list()[c - ENGINE_FLAG]->name;
			break;
		}
	}
	if (argc - optind != 2 && !(a->mcast && argc - optind == 1))
		return -1;
	if (a->members && !a->mcast)
		return -1;
	if ((a->dlids || a->updown) && a->engine &&
	    !strcmp(a->engine, "none"))
		return -1;
	if ((a->sl2vl || a->vl_plan) && !a->deadlock)
		return -1;
	a->fabric = argv[optind];
	a->lfts = argc - optind == 2 ? argv[optind + 1] : NULL;
	return 0;
}

/* --mcast: the multicast flood check (tools/mcast_report.c). */
static int check_mcast(const struct check_args *a, struct ibu_fabric *f)
{
	struct ibu_mcast_report_opts o = {
		.members = a->members, .quiet = a->quiet,
		.max_errors = a->max_errors ? a->max_errors : -1,
	};

	return ibu_mcast_report_check(stdout, f, a->mcast, &o);
}

/* Switches of the fabric that have no table in the dump. */
static void warn_missing_tables(const struct ibu_fabric *f,
				const struct ibu_dump *d, const int *sw_node)
{
	char *seen = calloc(f->num_nodes ? f->num_nodes : 1, 1);
	int i, missing = 0;

	if (!seen)
		return;
	for (i = 0; i < d->num_switches; i++)
		seen[sw_node[i]] = 1;
	for (i = 0; i < f->num_nodes; i++) {
		if (!ibu_node_is_switch(&f->nodes[i]) || seen[i])
			continue;
		if (missing++ < 10)
			printf("-W- switch '%s' (0x%016llx) has no table in %s\n",
			       f->nodes[i].name,
			       (unsigned long long)f->nodes[i].guid, d->source);
	}
	if (missing > 10)
		printf("-W- %d switches have no table in %s\n", missing,
		       d->source);
	free(seen);
}

static const char *verdict(int rc)
{
	return rc == IBU_EXIT_OK ? "pass" : rc == IBU_EXIT_FAIL ? "problems" :
	       "error";
}

/* One check: the inputs, the tables and the engine whose rule applies. */
struct check_run {
	struct check_args a;
	struct ibu_fabric f;
	struct ibu_dump d;
	struct ibu_lft lft;
	int *sw_node, *rank;
	const struct ibu_engine_ops *ops;	/* NULL: topology-free checks */
	void *topo, *rule_state;
	struct ibu_verify_rule rule;
	struct ibu_verify_opts vo;
	struct ibu_tool_progress pr;
	struct ibu_verify_result r;	/* valid when have_r */
	int have_r, mc, dl;		/* exit codes of --mcast, --deadlock
					 * (-1: not run) */
	char cause[4096];		/* whose tables, when not the rule's */
	struct json_lists json;
	struct line_sink sink;
};

/* The dump, applied to the fabric (whose LIDs it then carries). */
static int read_tables(struct check_run *c, struct ibu_err *e)
{
	struct ibu_dump_scope left;
	int rc;

	ibu_tool_progress_init(&c->pr, "check");
	rc = ibu_dump_parse_progress(c->a.lfts, &c->d, &c->pr.cb, e);
	ibu_tool_progress_done(&c->pr);
	if (rc)
		return rc;
	c->sw_node = malloc((c->d.num_switches ? c->d.num_switches : 1) *
			    sizeof(*c->sw_node));
	if (!c->sw_node)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = ibu_dump_scope(&c->d, &c->f, &left, e);
	if (rc)
		return rc;
	ibu_opt_scope_note(stdout, "check", c->a.lfts, &left);
	rc = ibu_dump_apply(&c->d, &c->f, &c->lft, c->sw_node, e);
	if (rc)
		return rc;
	if (!c->a.quiet)
		printf("-I- %s: %d switches, %d end ports; %s: %d tables, LIDs up to 0x%04x\n",
		       c->a.fabric, ibu_fabric_count_switches(&c->f),
		       ibu_fabric_count_endports(&c->f), c->a.lfts,
		       c->d.num_switches, c->d.max_lid);
	warn_missing_tables(&c->f, &c->d, c->sw_node);
	return IBU_OK;
}

/* The engine: the one asked for (it must recognise the fabric), none, or
 * the one that recognises the fabric (none if no engine does). */
static int pick_engine(struct check_run *c, struct ibu_err *e)
{
	const char *name = c->a.engine;
	int rc;

	if (ibu_osm_state_apply("check", &c->f, &c->a.eo))
		return ibu_err_set(e, IBU_EINVAL, "OpenSM's state cannot be read");
	if (name && !strcmp(name, "none"))
		return IBU_OK;
	if (name) {
		c->ops = ibu_engine_pick("check", &c->f, name, &c->a.eo,
					 &c->topo);
		return c->ops ? IBU_OK : IBU_ETOPO;	/* already printed */
	}
	c->ops = ibu_engine_detect(&c->f, &c->a.eo, &c->topo, e);
	rc = c->ops || e->code == IBU_ETOPO ? IBU_OK : e->code;
	ibu_err_clear(e);
	return rc;
}

/* The engine's rule and up*|down* ranks into c->vo. */
static int engine_rule(struct check_run *c, struct ibu_err *e)
{
	const struct ibu_engine_check_in in = {
		.dlids = c->a.dlids, .climb_sources = (int)c->a.climb_sources,
	};
	char info[256] = "";
	int rc;

	if (c->ops && c->ops->rule.check) {
		rc = c->ops->rule.check(&c->f, c->topo, &c->a.eo, &in,
					&c->rule, &c->rule_state, info,
					sizeof(info), e);
		if (rc) {
			ibu_err_prefix(e, "%s rule on the LIDs of %s",
				       c->ops->name, c->a.lfts);
			return rc;
		}
		c->vo.rule = &c->rule;
		if (!c->a.quiet && info[0])
			printf("-I- %s: %s\n", c->ops->name, info);
	}
	if (!c->a.updown && !c->vo.rule)
		return IBU_OK;
	if (!c->ops || !c->ops->report.rank) {
		if (!c->a.updown)
			return IBU_OK;	/* the rule has no ranks */
		return ibu_err_set(e, IBU_ETOPO,
				   "--updown: no engine with up*/down* ranks recognises %s",
				   c->a.fabric);
	}
	rc = updown_ranks(&c->f, c->ops, c->topo, &c->rank, e);
	c->vo.rank = c->rank;
	return rc;
}

/*
 * Without --vl-plan, tables that follow the rule of an engine with a VL
 * plan in use are judged on the SLs that engine's PathRecords hand out (a
 * damaged mesh's detours ride their own SL layer, a damaged fat tree's
 * turned routes SL 1): on SL 0 alone they would show a credit loop no SA
 * client meets. With --sl2vl the SLs the plugin published come first
 * (OSM_TMP_DIR). --engine none judges SL 0.
 */
static int rule_sls(const struct check_run *c)
{
	return (!c->a.sl2vl || ibu_osm_state_path_sl(0, 0) < 0) &&
	       c->ops && c->ops->vl.path_sl &&
	       c->ops->vl.sl2vl && c->have_r && c->r.rule &&
	       !c->r.rule_mismatches && !c->r.path_violations &&
	       (!c->ops->vl.in_use || c->ops->vl.in_use(c->topo));
}

/* The table checks, then --mcast and --deadlock: the worst exit code. */
static int run_checks(struct check_run *c, struct ibu_err *e)
{
	struct ibu_verify_result r;
	int rc, ret;

	c->vo.max_errors = c->a.max_errors ? (int)c->a.max_errors : -1;
	c->vo.quiet = c->a.quiet;
	c->vo.progress = &c->pr.cb;
	if (c->json.on) {
		c->vo.pair = json_pair;
		c->vo.pair_arg = &c->json;
	}
	c->sink.pr = &c->pr;
	c->sink.json = &c->json;
	rc = ibu_verify_lft(&c->f, &c->lft, &c->vo, report_line, &c->sink,
			    &r, e);
	ibu_tool_progress_done(&c->pr);
	if (rc)
		return -1;
	ibu_verify_print_summary(stdout, "check", &r);
	c->r = r;
	c->have_r = 1;
	ret = ibu_verify_problems(&r) ? IBU_EXIT_FAIL : IBU_EXIT_OK;
	if (c->a.mcast) {
		rc = c->mc = check_mcast(&c->a, &c->f);
		if (rc > ret)
			ret = rc;
	}
	if (c->a.deadlock) {
		struct ibu_deadlock_opts dopt = {
			.mcast = c->a.mcast, .members = c->a.members,
			.sl2vl = c->a.sl2vl, .topo = c->topo, .eo = &c->a.eo,
			.quiet = c->a.quiet,
		};

		if (c->a.vl_plan && (!c->ops || !c->ops->vl.sl2vl ||
				     !c->ops->vl.path_sl)) {
			ibu_err_set(e, IBU_ETOPO,
				    "--vl-plan: no engine with a VL plan recognises %s",
				    c->a.fabric);
			return -1;
		}
		dopt.vl_engine = c->a.vl_plan || rule_sls(c) ? c->ops : NULL;
		if (!c->a.vl_plan && dopt.vl_engine && !c->a.quiet)
			printf("-I- deadlock: the tables follow %s's rule: each route on the SL its PathRecords hand out (--engine none: SL 0 for every path)\n",
			       c->ops->name);
		rc = c->dl = ibu_deadlock_report(stdout, &c->f, &c->lft, &dopt);
		if (rc > ret)
			ret = rc;
	}
	return ret;
}

/*
 * Whose tables these are, when the rule's engine did not write them:
 * OpenSM's last routing as the plugin published it (another engine routed
 * after ours declined: a problem, unless --engine none accepts any), else
 * a rule most entries break. Returns the exit code, raised to 1 by a
 * fallback; *cause receives the one-line cause (or "").
 */
static int fallback_hint(const struct check_run *c, int ret, char *cause,
			 size_t len)
{
	const struct ibu_osm_published *p = ibu_osm_state_published();
	const struct ibu_verify_result *r = &c->r;
	const char *rule = c->ops ? c->ops->name : NULL;
	int none = c->a.engine && !strcmp(c->a.engine, "none");

	cause[0] = '\0';
	if (p->have && p->declined[0] && !p->ours && !none) {
		if (snprintf(cause, len, "OpenSM's last routing (%s) was by %s: %s",
			     p->path, p->engine, p->declined) < 0)
			cause[0] = '\0';
		printf("-E- check: %s%s%s; --engine none checks those tables without a rule\n",
		       cause, rule ? "; these tables were checked against the rule of " : "",
		       rule ? rule : "");
		return ret > IBU_EXIT_FAIL ? ret : IBU_EXIT_FAIL;
	}
	if (!c->have_r || !r->rule || !rule ||
	    (!r->rule_mismatches && !r->path_violations))
		return ret;
	/* the engine's own tables break its rule only when built with
	 * other options, or when they are not its tables */
	snprintf(cause, len, "%ld of %ld entries break the %s rule: tables of another engine (OpenSM falls back to the next engine of routing_engine when %s declines: ERR 5A01..5A0B in its log), or built with other options (guid_routing_order_file, root_guid_file, event_plugin_options)",
		 r->rule_mismatches, r->rule_entries, rule, rule);
	printf("-W- check: %s; %s--engine none checks them without a rule\n",
	       cause, p->have ? "" : "--config FILE (OpenSM's opensm.conf) or "
	       "OSM_TMP_DIR tell what OpenSM did; ");
	return ret;
}

static const char *pair_kind(enum ibu_verify_kind k)
{
	return k == IBU_VK_LOOP ? "loop" : k == IBU_VK_UNROUTED ? "unrouted" :
	       "unreachable";
}

/* "pairs": every pair that does not arrive or is left unrouted. */
static void json_pairs(const struct check_run *c)
{
	long i;

	printf(",\"pairs\":[");
	for (i = 0; i < c->json.num_pairs; i++) {
		const struct json_pair *p = &c->json.pairs[i];
		const struct ibu_node *n = &c->f.nodes[p->node];

		printf("%s{\"kind\":\"%s\",\"source\":", i ? "," : "",
		       pair_kind(p->kind));
		ibu_json_str(stdout, n->name);
		printf(",\"source_guid\":\"0x%016llx\",\"source_port\":%d,\"slid\":%u,\"dlid\":%u}",
		       (unsigned long long)n->ports[p->port].guid, p->port,
		       (unsigned)n->ports[p->port].lid, (unsigned)p->lid);
	}
	printf("],\"problems\":[");
	for (i = 0; i < c->json.num_lines; i++) {
		printf("%s", i ? "," : "");
		ibu_json_str(stdout, c->json.lines[i]);
	}
	printf("],\"lists_complete\":%s", c->json.failed ? "false" : "true");
}

/* The LMC the dump's LIDs show: the largest of any end port. */
static int fabric_lmc(const struct ibu_fabric *f)
{
	int i, p, lmc = 0;

	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; p <= f->nodes[i].num_ports; p++)
			if (!ibu_node_is_switch(&f->nodes[i]) &&
			    f->nodes[i].ports[p].lmc > lmc)
				lmc = f->nodes[i].ports[p].lmc;
	return lmc;
}

/* "engine", "topology", "lmc", "opensm", "likely_cause". */
static void json_context(const struct check_run *c)
{
	const struct ibu_osm_published *p = ibu_osm_state_published();
	char topo[512];

	printf(",\"engine\":");
	ibu_json_str(stdout, c->ops ? c->ops->name : NULL);
	printf(",\"topology\":");
	if (c->ops && c->topo) {
		ibu_engine_topology_name(c->ops, &c->f, c->topo, topo,
					 sizeof(topo));
		ibu_json_str(stdout, topo);
	} else {
		printf("null");
	}
	printf(",\"lmc\":%d,\"opensm\":", fabric_lmc(&c->f));
	if (!p->have) {
		printf("null");
	} else {
		printf("{\"published\":");
		ibu_json_str(stdout, p->path);
		printf(",\"engine\":");
		ibu_json_str(stdout, p->engine);
		printf(",\"declined\":");
		ibu_json_str(stdout, p->declined[0] ? p->declined : NULL);
		printf(",\"describes_this_fabric\":%s}",
		       p->matches ? "true" : "false");
	}
	printf(",\"likely_cause\":");
	ibu_json_str(stdout, c->cause[0] ? c->cause : NULL);
}

/* --json: one object (schema: ibunion(1), JSON OUTPUT); r NULL when the
 * unicast check did not run, mc/dl < 0 when those parts did not; rule:
 * the engine whose rule was checked. */
static void print_json(const struct check_run *c, int ret)
{
	const struct check_args *a = &c->a;
	const char *rule = c->ops ? c->ops->name : NULL;
	const struct ibu_verify_result *r = c->have_r ? &c->r : NULL;
	int h, first = 1, mc = c->mc, dl = c->dl;

	printf("{\"command\":\"check\",\"fabric\":");
	ibu_json_str(stdout, a->fabric);
	printf(",\"lfts\":");
	ibu_json_str(stdout, a->lfts);
	printf(",\"verdict\":\"%s\",\"exit\":%d,\"unicast\":", verdict(ret), ret);
	if (!r) {
		printf("null");
	} else {
		printf("{\"verdict\":\"%s\",\"sources\":%ld,\"lids\":%ld,\"pairs\":%ld,\"unreachable\":%ld,\"loops\":%ld,\"non_minimal\":%ld,\"down_up_turns\":%ld,\"no_updown_path\":%ld,\"rule\":",
		       ibu_verify_problems(r) ? "problems" : "pass", r->sources,
		       r->lids, r->pairs, r->unreachable, r->loops,
		       r->nonminimal, r->turns, r->no_updown);
		ibu_json_str(stdout, !r->rule ? NULL : rule);
		printf(",\"rule_mismatches\":%ld,\"path_violations\":%ld,\"needed_turns\":%ld,\"hops\":{",
		       r->rule_mismatches, r->path_violations,
		       r->needed_turns);
		for (h = 0; h <= IBU_VERIFY_MAX_HOPS; h++)
			if (r->hops[h]) {
				printf("%s\"%d%s\":%ld", first ? "" : ",", h,
				       h == IBU_VERIFY_MAX_HOPS ? "+" : "", r->hops[h]);
				first = 0;
			}
		printf("}}");
	}
	printf(",\"mcast\":");
	if (mc < 0) {
		printf("null");
	} else {
		printf("{\"mfts\":");
		ibu_json_str(stdout, a->mcast);
		printf(",\"verdict\":\"%s\"}", verdict(mc));
	}
	if (dl < 0)
		printf(",\"deadlock\":null");
	else
		printf(",\"deadlock\":{\"verdict\":\"%s\"}", verdict(dl));
	json_context(c);
	json_pairs(c);
	printf("}\n");
}

static void check_run_free(struct check_run *c)
{
	if (c->rule_state)
		c->ops->rule.state_free(c->rule_state);
	if (c->topo)
		c->ops->topo_free(c->topo);
	free(c->sw_node);
	free(c->rank);
	json_lists_free(&c->json);
	ibu_lft_free(&c->lft);
	ibu_dump_free(&c->d);
	ibu_fabric_free(&c->f);
}

/* The check itself, its verdict as an exit code. */
static int check(struct check_run *c)
{
	struct ibu_err e = { 0 };
	int ret = IBU_EXIT_ERROR;

	if (ibu_fabric_open(c->a.fabric, &c->f, NULL, &e)) {
		ibu_opt_report("check", &e);
		return IBU_EXIT_ERROR;
	}
	if (!c->a.lfts)
		return c->mc = check_mcast(&c->a, &c->f);
	if (!read_tables(c, &e) && !pick_engine(c, &e) && !engine_rule(c, &e))
		ret = run_checks(c, &e);
	if (ret >= 0 && ret != IBU_EXIT_ERROR)
		ret = fallback_hint(c, ret, c->cause, sizeof(c->cause));
	if (ret < 0 || (ret == IBU_EXIT_ERROR && e.code)) {
		fflush(stdout);
		ibu_opt_report("check", &e);
		ret = IBU_EXIT_ERROR;
	}
	return ret;
}

int ibu_cmd_check(int argc, char **argv)
{
	struct check_run c;
	int ret, json_saved = -1;

	memset(&c, 0, sizeof(c));
	c.mc = c.dl = -1;
	if (parse_args(argc, argv, &c.a)) {
		ibu_cmd_check_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	c.json.on = c.a.json;
	if (c.a.json) {
		json_saved = ibu_json_stdout_begin("check");
		if (json_saved < 0)
			return IBU_EXIT_ERROR;
	}
	ret = check(&c);
	if (c.a.json) {
		ibu_json_stdout_end(json_saved);
		print_json(&c, ret);
	}
	check_run_free(&c);
	return ret;
}
