/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ibunion route FABRIC [--engine E] [--lids-from DUMP | --lmc L
 * [--paper-exact]] [-O KEY=VALUE]... [-o FILE]: the LFTs of the engine that recognises the
 * fabric (cyclic, xy), computed offline exactly as the plugin computes
 * them (same lib/ driver), in dump_lfts format. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "osm_state.h"
#include "opts.h"
#include "engine_pick.h"
#include "dump.h"
#include "fabric_open.h"
#include "netfile.h"
#include "progress_line.h"

void ibu_cmd_route_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion route FABRIC [options]\n"
		"  computes the LFTs the plugin programs for FABRIC (ibsim net file or\n"
		"  ibnetdiscover output): cyclic on a fat tree, xy on a 2-D mesh, and\n"
		"  prints them in dump_lfts format\n"
		"LIDs, in order of preference:\n"
		"  --lids-from DUMP    the LIDs a dump_lfts/ibroute dump shows (what\n"
		"                      OpenSM assigned on the live or simulated fabric)\n"
		"  --lmc L             the paper's LID sets at LMC L (as `ibunion lids`)\n"
		"  --paper-exact       with --lmc: the paper's unaligned numbering\n"
		"  (default: LIDs in FABRIC if it has them, else --lmc of the paper)\n"
		"options:\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"  --engine NAME       use this engine (default: the one that\n"
		"                      recognises the fabric)\n"
		"  -O KEY=VALUE        an engine option, exactly as the plugin's\n"
		"                      event_plugin_options takes it (repeatable)\n"
		"  --offsets MODE      = -O offsets=MODE\n");
	ibu_engine_opts_usage(out);
}

/* The LIDs of a dump, read before the engine recognises the fabric: the
 * dump also tells which part of it OpenSM saw (ibu_dump_scope()). */
static int dump_lids(struct ibu_fabric *f, const char *dump,
		     struct ibu_err *e)
{
	struct ibu_dump_scope left;
	struct ibu_lft scratch;
	int rc = ibu_dump_read_lfts_scoped(dump, f, &scratch, &left, e);

	if (!rc)
		ibu_lft_free(&scratch);
	ibu_opt_scope_note(stderr, "route", dump, &left);
	return rc;
}

/* Without a dump: the fabric's own LIDs, else the engine's numbering. */
static int load_lids(struct ibu_fabric *f, const struct ibu_engine_ops *ops,
		     const void *topo, long lmc, int paper_exact,
		     struct ibu_err *e)
{
	int used;

	if (lmc < 0 && ibu_fabric_max_lid(f) > 0)
		return IBU_OK;
	if (!ops->assign_lids)
		return ibu_err_set(e, IBU_EINVAL,
				   "engine %s has no LID numbering of its own: give --lids-from",
				   ops->name);
	return ops->assign_lids(f, topo, (int)lmc, paper_exact, &used, e);
}

/* What the engine says after routing, as the plugin logs it. */
static void print_notes(const struct ibu_engine_ops *ops,
			const struct ibu_fabric *f, const void *topo)
{
	struct ibu_engine_note note;
	int i, n = ops->num_notes ? ops->num_notes(topo) : 0;

	for (i = 0; i < n; i++) {
		memset(&note, 0, sizeof(note));
		ops->note(f, topo, i, &note);
		fprintf(stderr, "-%c- route: %s: %s\n",
			note.severity == IBU_NOTE_SEV_WARNING ? 'W' : 'I',
			ops->name, note.text);
	}
}

int ibu_cmd_route(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "lids-from", required_argument, NULL, 'd' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "paper-exact", no_argument, NULL, 'x' },
		{ "engine", required_argument, NULL, 'E' },
		{ "offsets", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = NULL, *dump = NULL, *engine = NULL;
	const struct ibu_engine_ops *ops;
	struct ibu_engine_opts eo;
	struct ibu_engine_result res;
	struct ibu_tool_progress pr;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char what[1024];	/* a degraded tree's summary is long */
	char options[256];
	void *topo;
	long lmc = -1;
	int c, rc, exact = 0;
	struct ibu_atomicfile af;

	ibu_engine_opts_default(&eo);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:O:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'd': dump = optarg; break;
		case 'l':
			if (ibu_opt_int("route", "--lmc", optarg, 0, IBU_MAX_LMC, &lmc))
				return IBU_EXIT_USAGE;
			break;
		case 'x': exact = 1; break;
		case 'E': engine = optarg; break;
		case 'O':
			if (ibu_engine_opt_arg("route", &eo, optarg))
				return IBU_EXIT_USAGE;
			break;
		case 'f':
			if (ibu_engine_opt_alias("route", &eo, "offsets", optarg))
				return IBU_EXIT_USAGE;
			break;
		default:
			ibu_cmd_route_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || (dump && lmc >= 0)) {
		ibu_cmd_route_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_fabric_open(argv[optind], &f, NULL, &e)) {
		ibu_opt_report("route", &e);
		return IBU_EXIT_ERROR;
	}
	if (dump && dump_lids(&f, dump, &e)) {
		ibu_opt_report("route", &e);
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	ops = ibu_osm_state_apply("route", &f, &eo) ? NULL :
	      ibu_engine_pick("route", &f, engine, &eo, &topo);
	if (!ops) {
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	rc = dump ? IBU_OK : load_lids(&f, ops, topo, lmc, exact, &e);
	if (rc)
		ops->topo_free(topo);
	else	/* recognised once: on a damaged mesh that plans the detours */
		rc = ibu_engine_run_recognised(ops, &f, &eo, topo, &res, &e);
	if (rc) {
		ibu_opt_report("route", &e);
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	if (ibu_opt_out_open("route", outpath, &af)) {
		rc = IBU_EIO;
	} else {
		ibu_tool_progress_init(&pr, "route");
		rc = ibu_dump_write_lfts_progress(af.fp, &f, &res.lft, &pr.cb, &e);
		ibu_tool_progress_done(&pr);
		if (ibu_opt_out_close("route", &af, rc, &e))
			rc = IBU_EIO;
	}
	if (!rc) {
		ops->describe(&f, res.topo, what, sizeof(what));
		ibu_engine_opts_line(ops, &eo, options, sizeof(options));
		fprintf(stderr, "-I- route: %s: %s, max LID 0x%04x%s%s\n",
			ops->name, what, res.map.max_lid,
			options[0] ? ", options " : "", options);
		print_notes(ops, &f, res.topo);
	}
	ibu_engine_result_free(&res);
	ibu_fabric_free(&f);
	return rc ? IBU_EXIT_ERROR : IBU_EXIT_OK;
}
