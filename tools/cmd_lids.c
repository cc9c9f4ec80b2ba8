/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ibunion lids FABRIC [--lmc L] [--paper-exact] [-o FILE]: guid2lid file
 * with the paper's LID sets, for OpenSM to honour ($OSM_CACHE_DIR/guid2lid). */
#include <getopt.h>
#include <stdlib.h>
#include "commands.h"
#include "osm_state.h"
#include "opts.h"
#include "engine_pick.h"
#include "guid2lid.h"
#include "fabric_open.h"
#include "netfile.h"

void ibu_cmd_lids_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion lids FABRIC [options]\n"
		"  writes OpenSM guid2lid records giving every end port P(p) of the\n"
		"  fat tree FABRIC (ibsim net file or ibnetdiscover output) the LID set\n"
		"  2^LMC * (PID + 1) .. + 2^LMC - 1 (the paper's sets, each shifted by\n"
		"  one set so that every base LID is LMC-aligned as OpenSM requires),\n"
		"  and switches single LIDs after the last set\n"
		"options:\n"
		"  -o, --output FILE   write to FILE (e.g. $OSM_CACHE_DIR/guid2lid)\n"
		"  --lmc L             LMC of the end ports (default: what the paper\n"
		"                      needs, ceil(log2((m/2)^(n-1))), capped to fit)\n"
		"  --paper-exact       the paper's numbering 2^LMC * PID + 1; not\n"
		"                      aligned, so OpenSM ignores it: offline use only\n"
		"  --engine NAME       the engine's numbering (default: the engine that\n"
		"                      recognises the fabric; a mesh gets row-major LIDs)\n"
		"  -O KEY=VALUE        an engine option, as event_plugin_options (e.g.\n"
		"                      max_faults=N for a degraded tree)\n"
		"  use the same LMC in opensm.conf (lmc L).\n");
}

int ibu_cmd_lids(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "paper-exact", no_argument, NULL, 'x' },
		{ "engine", required_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = NULL, *engine = NULL;
	const struct ibu_engine_ops *ops;
	struct ibu_engine_opts eo;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	void *topo;
	long lmc = -1;
	int c, rc, exact = 0, used = 0;
	struct ibu_atomicfile af;
	char what[512];

	ibu_engine_opts_default(&eo);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:O:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'O':
			if (ibu_engine_opt_arg("lids", &eo, optarg))
				return IBU_EXIT_USAGE;
			break;
		case 'l':
			if (ibu_opt_int("lids", "--lmc", optarg, 0, IBU_MAX_LMC, &lmc))
				return IBU_EXIT_USAGE;
			break;
		case 'x': exact = 1; break;
		case 'E': engine = optarg; break;
		default:
			ibu_cmd_lids_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		ibu_cmd_lids_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_fabric_open(argv[optind], &f, NULL, &e)) {
		ibu_opt_report("lids", &e);
		return IBU_EXIT_ERROR;
	}
	ops = ibu_osm_state_apply("lids", &f, &eo) ? NULL :
	      ibu_engine_pick("lids", &f, engine, &eo, &topo);
	if (!ops) {
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	ibu_engine_topology_name(ops, &f, topo, what, sizeof(what));
	rc = ops->assign_lids ?
		ops->assign_lids(&f, topo, (int)lmc, exact, &used, &e) :
		ibu_err_set(&e, IBU_EINVAL, "engine %s has no LID numbering",
			    ops->name);
	ops->topo_free(topo);
	if (rc)
		goto fail;
	if (ibu_opt_out_open("lids", outpath, &af)) {
		rc = IBU_EIO;
		goto done;
	}
	rc = ibu_guid2lid_write(af.fp, &f, &e);
	if (ibu_opt_out_close("lids", &af, rc, &e)) {
		rc = IBU_EIO;
		goto done;
	}
	fprintf(stderr, "-I- lids: %s: %d end ports and %d switches at LMC %d, "
		"LIDs up to 0x%04x%s\n", what,
		ibu_fabric_count_endports(&f), ibu_fabric_count_switches(&f),
		used, ibu_fabric_max_lid(&f),
		exact ? " (paper-exact numbering, not for OpenSM)" : "");
	goto done;
fail:
	ibu_opt_report("lids", &e);
done:
	ibu_fabric_free(&f);
	return rc ? IBU_EXIT_ERROR : IBU_EXIT_OK;
}
