/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion order FABRIC [-o FILE]
 * The order the cyclic engine numbers the compute hosts in (D-mod-K on a
 * PGFT, the label order P(p) on an IBFT), as a host list mpirun accepts:
 * node descriptions, one a line. Shift permutations of ranks placed in
 * this order stay within the blocking bound.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "fabric_open.h"
#include "ibft.h"
#include "pgft.h"

void ibu_cmd_order_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion order FABRIC [-o FILE]\n"
		"  prints the compute hosts of the fat tree FABRIC in the order the\n"
		"  cyclic engine numbers them (the destination order of D-mod-K),\n"
		"  node descriptions one a line: a host list for mpirun, so that\n"
		"  shift permutations of ranks in this order stay within the blocking\n"
		"  bound. Hosts above the leaves (on spines) are not in it.\n"
		"options:\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"exit status: 0 done, 2 usage, 3 bad input\n");
}

static int print_ibft(FILE *out, const struct ibu_fabric *f,
		      const struct ibu_ibft *t)
{
	int pid;

	for (pid = 0; pid < t->num_endports; pid++)
		if (t->ep[pid].node >= 0 &&
		    fprintf(out, "%s\n", f->nodes[t->ep[pid].node].name) < 0)
			return IBU_EIO;
	return IBU_OK;
}

static int print_pgft(FILE *out, const struct ibu_fabric *f,
		      const struct ibu_pgft *g)
{
	int D;

	for (D = 0; D < g->num_hosts; D++)
		if (fprintf(out, "%s\n", f->nodes[g->host[D].node].name) < 0)
			return IBU_EIO;
	return IBU_OK;
}

int ibu_cmd_order(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	struct ibu_fabric f;
	struct ibu_ibft t;
	struct ibu_pgft g;
	struct ibu_err e = { 0 }, pe = { 0 };
	struct ibu_atomicfile af;
	int c, rc, pgft = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		if (c != 'o') {
			ibu_cmd_order_usage(stderr);
			return IBU_EXIT_USAGE;
		}
		output = optarg;
	}
	if (argc - optind != 1) {
		ibu_cmd_order_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_fabric_open(argv[optind], &f, NULL, &e)) {
		ibu_opt_report("order", &e);
		return IBU_EXIT_ERROR;
	}
	/* as the engine: an exact IBFT, else a PGFT, else a degraded IBFT */
	rc = ibu_ibft_recognize_limit(&f, &t, 0, &e);
	if (rc && !ibu_pgft_recognize(&f, &g, &pe))
		pgft = 1;
	else if (rc)
		rc = ibu_ibft_recognize(&f, &t, &e);
	if (rc && !pgft) {
		ibu_err_prefix(&e, "%s is no fat tree (PGFT: %s)", argv[optind],
			       pe.msg);
		ibu_opt_report("order", &e);
		ibu_fabric_free(&f);
		return IBU_EXIT_ERROR;
	}
	rc = IBU_EXIT_ERROR;
	if (!ibu_opt_out_open("order", output, &af)) {
		int w = pgft ? print_pgft(af.fp, &f, &g) : print_ibft(af.fp, &f, &t);

		if (w && !ferror(af.fp))
			ibu_err_set(&e, w, "%s", ibu_strerror(w));
		if (!ibu_opt_out_close("order", &af, w, &e))
			rc = IBU_EXIT_OK;
	}
	if (pgft)
		ibu_pgft_free(&g);
	else
		ibu_ibft_free(&t);
	ibu_fabric_free(&f);
	return rc;
}
