/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ibunion route FABRIC [--lids-from DUMP | --lmc L [--paper-exact]] [-o FILE]:
 * the cyclic LFTs computed offline, exactly as the plugin computes them, in
 * dump_lfts format. */
#include <getopt.h>
#include <stdlib.h>
#include "commands.h"
#include "opts.h"
#include "cyclic.h"
#include "dump.h"
#include "netfile.h"

void ibu_cmd_route_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion route FABRIC [options]\n"
		"  computes the cyclic LFTs of the fat tree FABRIC (ibsim net file or\n"
		"  ibnetdiscover output) and prints them in dump_lfts format\n"
		"LIDs, in order of preference:\n"
		"  --lids-from DUMP    the LIDs a dump_lfts/ibroute dump shows (what\n"
		"                      OpenSM assigned on the live or simulated fabric)\n"
		"  --lmc L             the paper's LID sets at LMC L (as `ibunion lids`)\n"
		"  --paper-exact       with --lmc: the paper's unaligned numbering\n"
		"  (default: LIDs in FABRIC if it has them, else --lmc of the paper)\n"
		"options:\n"
		"  -o, --output FILE   write to FILE instead of stdout\n");
}

/* Puts LIDs into f from the chosen source. */
static int load_lids(struct ibu_fabric *f, const char *dump, long lmc,
		     enum ibu_lid_numbering how, struct ibu_err *e)
{
	struct ibu_ibft t;
	struct ibu_lft scratch;
	int rc;

	if (dump) {
		rc = ibu_dump_read_lfts(dump, f, &scratch, e);
		if (!rc)
			ibu_lft_free(&scratch);
		return rc;
	}
	if (lmc < 0 && ibu_fabric_max_lid(f) > 0)
		return IBU_OK;
	rc = ibu_ibft_recognize(f, &t, e);
	if (rc)
		return rc;
	if (lmc < 0)
		lmc = ibu_lidplan_fit_lmc(&t, ibu_lid_needed_lmc(t.m, t.n), how);
	rc = lmc < 0 ? ibu_err_set(e, IBU_ELID, "fabric does not fit the LID space")
		     : ibu_lidplan_assign_paper(f, &t, (int)lmc, how, e);
	ibu_ibft_free(&t);
	return rc;
}

int ibu_cmd_route(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "lids-from", required_argument, NULL, 'd' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "paper-exact", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 },
	};
	enum ibu_lid_numbering how = IBU_LIDS_ALIGNED;
	const char *outpath = NULL, *dump = NULL;
	struct ibu_fabric f;
	struct ibu_ibft t;
	struct ibu_lidplan p;
	struct ibu_lft lft;
	struct ibu_err e = { 0 };
	long lmc = -1;
	int c, rc;
	FILE *out;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'd': dump = optarg; break;
		case 'l':
			if (ibu_opt_int("route", "--lmc", optarg, 0, IBU_MAX_LMC, &lmc))
				return IBU_EXIT_USAGE;
			break;
		case 'x': how = IBU_LIDS_PAPER_EXACT; break;
		default:
			ibu_cmd_route_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || (dump && lmc >= 0)) {
		ibu_cmd_route_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_netfile_read(argv[optind], &f, &e)) {
		ibu_opt_report("route", &e);
		return IBU_EXIT_ERROR;
	}
	rc = load_lids(&f, dump, lmc, how, &e);
	if (!rc)
		rc = ibu_cyclic_tables(&f, &t, &p, &lft, &e);
	if (rc) {
		ibu_opt_report("route", &e);
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	out = ibu_opt_open_out("route", outpath);
	rc = out ? ibu_dump_write_lfts(out, &f, &lft, &e) : IBU_EIO;
	ibu_opt_close_out(out);
	if (rc && out)
		ibu_opt_report("route", &e);
	else if (!rc)
		fprintf(stderr, "-I- route: IBFT(%d,%d): %d switches, %d end ports, LMC %d (paper needs %d), max LID 0x%04x\n",
			t.m, t.n, t.num_switches, t.num_endports, p.lmc,
			p.lmc_needed, p.map.max_lid);
	ibu_lft_free(&lft);
	ibu_lidplan_free(&p);
	ibu_ibft_free(&t);
	ibu_fabric_free(&f);
	return rc ? IBU_EXIT_ERROR : IBU_EXIT_OK;
}
