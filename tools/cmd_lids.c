/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ibunion lids FABRIC [--lmc L] [--paper-exact] [-o FILE]: guid2lid file
 * with the paper's LID sets, for OpenSM to honour ($OSM_CACHE_DIR/guid2lid). */
#include <getopt.h>
#include <stdlib.h>
#include "commands.h"
#include "opts.h"
#include "lidplan.h"
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
		"  use the same LMC in opensm.conf (lmc L).\n");
}

int ibu_cmd_lids(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "paper-exact", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 },
	};
	enum ibu_lid_numbering how = IBU_LIDS_ALIGNED;
	const char *outpath = NULL;
	struct ibu_fabric f;
	struct ibu_ibft t;
	struct ibu_err e = { 0 };
	long lmc = -1;
	int c, rc, fit, needed;
	FILE *out;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'l':
			if (ibu_opt_int("lids", "--lmc", optarg, 0, IBU_MAX_LMC, &lmc))
				return IBU_EXIT_USAGE;
			break;
		case 'x': how = IBU_LIDS_PAPER_EXACT; break;
		default:
			ibu_cmd_lids_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		ibu_cmd_lids_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_netfile_read(argv[optind], &f, &e)) {
		ibu_opt_report("lids", &e);
		return IBU_EXIT_ERROR;
	}
	if (ibu_ibft_recognize(&f, &t, &e)) {
		ibu_opt_report("lids", &e);
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	needed = ibu_lid_needed_lmc(t.m, t.n);
	fit = ibu_lidplan_fit_lmc(&t, lmc >= 0 ? (int)lmc : needed, how);
	if (lmc < 0)
		lmc = fit;
	rc = lmc < 0 ? ibu_err_set(&e, IBU_ELID, "IBFT(%d,%d) does not fit the LID space even at LMC 0", t.m, t.n)
		     : ibu_lidplan_assign_paper(&f, &t, (int)lmc, how, &e);
	if (rc)
		goto fail;
	out = ibu_opt_open_out("lids", outpath);
	if (!out) {
		rc = IBU_EIO;
		goto done;
	}
	rc = ibu_lidplan_write_guid2lid(out, &f, &e);
	ibu_opt_close_out(out);
	if (rc)
		goto fail;
	fprintf(stderr, "-I- lids: IBFT(%d,%d): %d end ports at LMC %ld (paper needs %d%s), "
		"%d switches, LIDs up to 0x%04x%s\n", t.m, t.n, t.num_endports,
		lmc, needed, needed > lmc ? ": missing up-digits come from the destination" : "",
		t.num_switches, ibu_fabric_max_lid(&f),
		how == IBU_LIDS_PAPER_EXACT ? " (paper-exact numbering, not for OpenSM)" : "");
	goto done;
fail:
	ibu_opt_report("lids", &e);
done:
	ibu_ibft_free(&t);
	ibu_fabric_free(&f);
	return rc ? IBU_EXIT_ERROR : IBU_EXIT_OK;
}
