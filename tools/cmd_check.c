/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion check [--cyclic [--offsets rotated|paper] [--dlids FILE]] [--updown]
 *               [--max-errors N] [--climb-sources N] [-q] FABRIC LFTDUMP
 * ibunion check --mcast MFTDUMP [--members FILE] FABRIC [LFTDUMP]
 * Validates the LFTs of a dump (dump_lfts, ibroute, opensm-lfts.dump)
 * against a fabric (ibsim net file or ibnetdiscover output).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "fabric_open.h"
#include "netfile.h"
#include "dump.h"
#include "ibft.h"
#include "lidplan.h"
#include "verify.h"
#include "cyclic_verify.h"
#include "pgft_verify.h"
#include "xy_verify.h"
#include "deadlock_report.h"
#include "mcast_report.h"
#include "progress_line.h"

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
		"options:\n"
		"  --cyclic              also check every entry of the fat tree against\n"
		"                        the cyclic rule, and that each source's routes\n"
		"                        share one ascending path on its cyclic DLIDs;\n"
		"                        on a degraded tree, the entries the engine\n"
		"                        re-routes around the faults (implies --updown)\n"
		"  --offsets MODE        with --cyclic: rotated (default, what the plugin\n"
		"                        programs by default) or paper (Eq. 2 exactly,\n"
		"                        event_plugin_options offsets=paper)\n"
		"  --dlids FILE          with --cyclic: check the ascending paths on the\n"
		"                        DLIDs of FILE ('0xSLID 0xDLID' lines, as\n"
		"                        ibunion path --format pairs writes them)\n"
		"                        instead of the computed cyclic DLIDs\n"
		"  --updown              a fat tree (degraded or not): routes must be\n"
		"                        up*/down* by switch level (a route that goes\n"
		"                        down, then up again is an error: a credit-loop\n"
		"                        risk), shortest among those; a pair with no\n"
		"                        up*/down* path left unrouted is no error\n"
		"  --xy                  also check every entry of the 2-D mesh against XY\n"
		"                        routing (X first, then Y, then the HCA port)\n"
		"  --deadlock            build the channel dependency graph of every\n"
		"                        unicast route (and, with --mcast, of every MLID\n"
		"                        flooded from every member) and print one cycle\n"
		"                        (a possible credit loop) if there is any\n"
		"  --sl2vl FILE          with --deadlock: per VL, SL2VL tables from FILE\n"
		"                        (OpenSM's opensm-sl2vl.dump)\n"
		"  --vl-plan PLAN        with --deadlock on a mesh: SLs (and, without\n"
		"                        --sl2vl, VLs) of the paper 001 plan 1, 2-spread,\n"
		"                        2-direction, 4-spread or 4-direction\n"
		"  --climb-sources N     check the ascending paths of N sources only\n"
		"                        (default: all)\n"
		"  --max-errors N        print at most N errors of each kind (default 20)\n"
		"  -q, --quiet           no information lines, only problems and the summary\n"
		"  --mcast MFTDUMP       also (or, without LFTDUMP, only) flood every MLID\n"
		"                        of MFTDUMP (dump_mfts / ibroute -M) from every\n"
		"                        member: each member must get exactly one copy,\n"
		"                        non-members none, no switch a packet twice\n"
		"  --members FILE        the members of each MLID ('MLID port-GUID|node\n"
		"                        [port=N] [full|send-only]' lines, as ibunion mcast\n"
		"                        join prints them); default: every CA port the MFTs\n"
		"                        point at is a full member\n"
		"exit status: 0 all holds, 1 problems found, 2 usage, 3 bad input\n");
}

/* Switch levels of the fat tree as up*|down* ranks (0 = top). */
/*
 * A fabric that is no IBFT but a PGFT: ranks by level, and with --cyclic
 * the generalised rule (lib/pgft_verify.h). Returns 1 when it took over.
 */
static int pgft_checks(const struct ibu_fabric *f, int cyclic, int quiet,
		       const struct ibu_dlid_pairs *dlids,
		       struct ibu_pgft *g, struct ibu_pgft_rule *pr,
		       struct ibu_verify_rule *rule, struct ibu_verify_opts *vo,
		       int **rank)
{
	struct ibu_err pe = { 0 };
	char txt[192];

	if (ibu_pgft_recognize(f, g, &pe))
		return 0;
	if (ibu_pgft_ranks(f, g, rank, &pe)) {
		ibu_pgft_free(g);
		return 0;
	}
	vo->rank = *rank;
	if (cyclic) {
		pr->g = g;
		pr->lmc = ibu_pgft_hosts_lmc(f, g);
		pr->dlids = dlids;
		ibu_pgft_verify_rule(rule, pr);
		vo->rule = rule;
	}
	ibu_pgft_describe(g, txt, sizeof(txt));
	if (!quiet)
		printf("-I- %s: the routes must be up*/down* by level%s\n", txt,
		       cyclic ? " and follow the generalised cyclic rule" : "");
	return 1;
}

static int updown_ranks(const struct ibu_fabric *f, const struct ibu_ibft *t,
			int **rank, struct ibu_err *e)
{
	int i;

	*rank = malloc((f->num_nodes ? f->num_nodes : 1) * sizeof(int));
	if (!*rank)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++) {
		int s = i < t->num_fabric_nodes ? t->sw_of_node[i] : -1;

		(*rank)[i] = s >= 0 ? t->sw[s].level : t->n;
	}
	return IBU_OK;
}

/* Report lines go to stdout; a progress line on the terminal is erased
 * first so that they do not share a line. */
static void report_line(void *arg, char level, const char *text)
{
	ibu_tool_progress_done(arg);
	ibu_report_file(stdout, level, text);
}

struct check_args {
	int cyclic;
	int updown;
	int offsets_given;
	enum ibu_cyclic_offsets offsets;
	int xy;
	int deadlock;
	const char *sl2vl;
	const char *vl_plan;
	int quiet;
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
	static const struct option lo[] = {
		{ "cyclic", no_argument, NULL, 'c' },
		{ "updown", no_argument, NULL, 'U' },
		{ "xy", no_argument, NULL, 'X' },
		{ "deadlock", no_argument, NULL, 'K' },
		{ "sl2vl", required_argument, NULL, 'V' },
		{ "vl-plan", required_argument, NULL, 'P' },
		{ "max-errors", required_argument, NULL, 'm' },
		{ "climb-sources", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "mcast", required_argument, NULL, 'M' },
		{ "members", required_argument, NULL, 'b' },
		{ "offsets", required_argument, NULL, 'O' },
		{ "dlids", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->max_errors = IBU_VERIFY_DEFAULT_MAX_ERRORS;
	optind = 1;
	while ((c = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		switch (c) {
		case 'c': a->cyclic = 1; break;
		case 'U': a->updown = 1; break;
		case 'X': a->xy = 1; break;
		case 'K': a->deadlock = 1; break;
		case 'V': a->sl2vl = optarg; break;
		case 'P': a->vl_plan = optarg; break;
		case 'q': a->quiet = 1; break;
		case 'M': a->mcast = optarg; break;
		case 'b': a->members = optarg; break;
		case 'D': a->dlids = optarg; break;
		case 'O':
			if (ibu_cyclic_offsets_parse(optarg, &a->offsets)) {
				fprintf(stderr, "ibunion check: --offsets: '%s' is not rotated or paper\n",
					optarg);
				return -1;
			}
			a->offsets_given = 1;
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
			return -1;
		}
	}
	if (argc - optind != 2 && !(a->mcast && argc - optind == 1))
		return -1;
	if (a->members && !a->mcast)
		return -1;
	if ((a->offsets_given || a->dlids) && !a->cyclic)
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

int ibu_cmd_check(int argc, char **argv)
{
	struct check_args a;
	struct ibu_fabric f;
	struct ibu_dump d;
	struct ibu_lft lft;
	struct ibu_ibft t;
	struct ibu_lidplan plan;
	struct ibu_verify_opts vo;
	struct ibu_verify_rule rule;
	struct ibu_cyclic_rule crule;
	struct ibu_dlid_pairs pairs = { 0 };
	struct ibu_xy_rule xrule;
	struct ibu_mesh mesh;
	int have_mesh = 0;
	struct ibu_verify_result r;
	struct ibu_err e = { 0 };
	struct ibu_tool_progress pr;
	int *sw_node = NULL, *rank = NULL, rc, ret = IBU_EXIT_ERROR, have_t = 0,
	    have_plan = 0, have_pgft = 0;
	struct ibu_pgft pgft;
	struct ibu_pgft_rule prule;

	if (parse_args(argc, argv, &a)) {
		ibu_cmd_check_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	memset(&lft, 0, sizeof(lft));
	memset(&d, 0, sizeof(d));
	memset(&t, 0, sizeof(t));
	rc = ibu_fabric_open(a.fabric, &f, NULL, &e);
	if (rc) {
		ibu_opt_report("check", &e);
		return IBU_EXIT_ERROR;
	}
	if (!a.lfts) {
		ret = check_mcast(&a, &f);
		ibu_fabric_free(&f);
		return ret;
	}
	ibu_tool_progress_init(&pr, "check");
	rc = ibu_dump_parse_progress(a.lfts, &d, &pr.cb, &e);
	ibu_tool_progress_done(&pr);
	if (rc)
		goto fail;
	sw_node = malloc(d.num_switches * sizeof(*sw_node));
	if (!sw_node) {
		rc = ibu_err_set(&e, IBU_ENOMEM, "out of memory");
		goto fail;
	}
	rc = ibu_dump_apply(&d, &f, &lft, sw_node, &e);
	if (rc)
		goto fail;
	if (!a.quiet)
		printf("-I- %s: %d switches, %d end ports; %s: %d tables, LIDs up to 0x%04x\n",
		       a.fabric, ibu_fabric_count_switches(&f),
		       ibu_fabric_count_endports(&f), a.lfts, d.num_switches,
		       d.max_lid);
	warn_missing_tables(&f, &d, sw_node);
	memset(&vo, 0, sizeof(vo));
	vo.max_errors = a.max_errors ? (int)a.max_errors : -1;
	vo.quiet = a.quiet;
	vo.progress = &pr.cb;
	if (a.cyclic && a.dlids) {
		rc = ibu_dlid_pairs_read(a.dlids, &pairs, &e);
		if (rc)
			goto fail;
	}
	if ((a.cyclic || a.updown) &&
	    ibu_ibft_recognize_limit(&f, &t, 0, &e) != IBU_OK)
		have_pgft = pgft_checks(&f, a.cyclic, a.quiet,
					a.dlids ? &pairs : NULL, &pgft, &prule,
					&rule, &vo, &rank);
	if ((a.cyclic || a.updown) && !have_pgft) {
		ibu_ibft_free(&t);
		rc = ibu_ibft_recognize(&f, &t, &e);
		if (rc) {
			ibu_err_prefix(&e, "--%s: %s is not an m-port n-tree",
				       a.cyclic ? "cyclic" : "updown", a.fabric);
			goto fail;
		}
		have_t = 1;
	}
	if ((a.updown || a.cyclic) && !have_pgft) {	/* cyclic: up*|down* */
		rc = updown_ranks(&f, &t, &rank, &e);
		if (rc)
			goto fail;
		vo.rank = rank;
	}
	if (a.cyclic && !have_pgft) {
		rc = ibu_lidplan_build(&f, &t, &plan, &e);
		if (rc) {
			ibu_err_prefix(&e, "--cyclic: LIDs of %s", a.lfts);
			goto fail;
		}
		have_plan = 1;
		if (!a.quiet)
			printf("-I- cyclic: IBFT(%d,%d), LMC %d in use (%d needed), %d up-digits from the LID offset, offsets %s\n",
			       t.m, t.n, plan.lmc, plan.lmc_needed,
			       plan.offset_digits,
			       ibu_cyclic_offsets_name(a.offsets));
		memset(&crule, 0, sizeof(crule));
		crule.offsets = a.offsets;
		if (a.dlids)
			crule.dlids = &pairs;
		crule.t = &t;
		crule.p = &plan;
		crule.climb_sources = (int)a.climb_sources;
		ibu_cyclic_verify_rule(&rule, &crule);
		vo.rule = &rule;
	}
	if (a.xy && !a.cyclic) {
		rc = ibu_mesh_recognize(&f, &mesh, &e);
		if (rc) {
			ibu_err_prefix(&e, "--xy: %s", a.fabric);
			goto fail;
		}
		have_mesh = 1;
		xrule.t = &mesh;
		ibu_xy_verify_rule(&rule, &xrule);
		vo.rule = &rule;
	}
	rc = ibu_verify_lft(&f, &lft, &vo, report_line, &pr, &r, &e);
	ibu_tool_progress_done(&pr);
	if (rc)
		goto fail;
	ibu_verify_print_summary(stdout, "check", &r);
	ret = ibu_verify_problems(&r) ? IBU_EXIT_FAIL : IBU_EXIT_OK;
	if (a.mcast) {
		rc = check_mcast(&a, &f);
		if (rc > ret)
			ret = rc;
	}
	if (a.deadlock) {
		struct ibu_deadlock_opts dopt = {
			.mcast = a.mcast, .members = a.members, .sl2vl = a.sl2vl,
			.vl_plan = a.vl_plan, .quiet = a.quiet,
		};

		rc = ibu_deadlock_report(stdout, &f, &lft, &dopt);
		if (rc > ret)
			ret = rc;
	}
	goto out;
fail:
	fflush(stdout);
	ibu_opt_report("check", &e);
	ret = IBU_EXIT_ERROR;
out:
	ibu_dlid_pairs_free(&pairs);
	if (have_mesh)
		ibu_mesh_free(&mesh);
	if (have_plan)
		ibu_lidplan_free(&plan);
	if (have_t)
		ibu_ibft_free(&t);
	if (have_pgft)
		ibu_pgft_free(&pgft);
	free(sw_node);
	free(rank);
	ibu_lft_free(&lft);
	ibu_dump_free(&d);
	ibu_fabric_free(&f);
	return ret;
}
