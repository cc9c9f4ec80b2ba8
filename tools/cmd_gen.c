/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ibunion gen fattree M N [--shuffle-ports] [--shuffle-records] [--seed S]
 *                        [--remove-links K] [--remove-switches K]
 *                        [--remove-hosts K] [--extra-ports E] [-o FILE]
 * ibunion gen mesh X Y [--hcas K] [--shuffle-ports] [--shuffle-records] ...
 * ibunion gen pgft --m M1,.. --w W1,.. --p P1,.. [--radix R]
 *                  [--hosts-on-spines K] [...] */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "gen.h"
#include "netfile.h"
#include "pgft.h"

void ibu_cmd_gen_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion gen fattree M N [options]\n"
		"       ibunion gen mesh X Y [--hcas K] [options]\n"
		"       ibunion gen pgft --m M1,..,Mh --w W1,..,Wh --p P1,..,Ph [options]\n"
		"  writes an ibsim net file of the m-port n-tree IBFT(M,N), wired by\n"
		"  the paper's link rule (M even >= 4, N >= 2), of the 2-D mesh of\n"
		"  X x Y switches with K HCAs per switch (default 1; switches have\n"
		"  4 + K ports: E, N, W, S, then the HCAs unless shuffled), or of the\n"
		"  parallel-ports generalised fat tree PGFT(h; M; W; P): a level-l\n"
		"  switch has Ml children, a level-(l-1) node Wl parents and Pl\n"
		"  cables to each (level 1 = leaves; W1 = P1 = 1; a smaller Mh = fewer\n"
		"  pods, fewer up- than down-cables = a blocking level)\n"
		"options:\n"
		"  -o, --output FILE     write to FILE instead of stdout\n"
		"  --shuffle-ports       permute every switch's physical port numbers\n"
		"  --shuffle-records     permute the order of the node records\n"
		"  --seed S              seed of the permutations (default 1)\n"
		"  --remove-links K      remove K random switch-to-switch links\n"
		"  --remove-switches K   remove K random switches (their records)\n"
		"  --remove-hosts K      remove K random end nodes (their records)\n"
		"  --extra-ports E       give switches E uncabled ports beyond M\n"
		"  --hcas K              mesh: HCAs per switch (default 1, 0..250)\n"
		"  --prefix P            prefix every node name with P\n"
		"  --m, --w, --p LIST    pgft: the parameters, one per level\n"
		"  --radix R             pgft: every switch has R ports (the ports\n"
		"                        the tree does not use stay empty)\n"
		"  --hosts-on-spines K   pgft: K more hosts cabled to the top\n"
		"                        switches (storage, login nodes)\n");
}

/* Writes f to outpath (stdout) under the header line head. */
static int write_fabric(struct ibu_fabric *f, const char *head,
			const struct ibu_gen_opts *o, const char *outpath)
{
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	int rc;

	if (ibu_opt_out_open("gen", outpath, &af)) {
		ibu_fabric_free(f);
		return IBU_EXIT_ERROR;
	}
	fprintf(af.fp, "# %s: %d switches, %d end ports; ibunion gen%s%s seed %llu\n\n",
		head, ibu_fabric_count_switches(f), ibu_fabric_count_endports(f),
		o->shuffle_ports ? " --shuffle-ports" : "",
		o->shuffle_records ? " --shuffle-records" : "",
		(unsigned long long)o->seed);
	rc = ibu_netfile_write(af.fp, f, &e);
	ibu_fabric_free(f);
	if (ibu_opt_out_close("gen", &af, rc, &e))
		return IBU_EXIT_ERROR;
	return IBU_EXIT_OK;
}

static int gen_pgft(const char *pm, const char *pw, const char *pp, int radix,
		    int spine_hosts, const struct ibu_gen_opts *o,
		    const char *outpath)
{
	struct ibu_pgft_params P;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char head[160];
	int rc;

	rc = ibu_pgft_params_parse(pm, pw, pp, &P, &e);
	if (!rc)
		rc = ibu_gen_pgft(&f, &P, radix, spine_hosts, o, &e);
	if (rc) {
		ibu_opt_report("gen", &e);
		return rc == IBU_EINVAL ? IBU_EXIT_USAGE : IBU_EXIT_ERROR;
	}
	ibu_pgft_params_text(&P, head, sizeof(head));
	return write_fabric(&f, head, o, outpath);
}

int ibu_cmd_gen(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "shuffle-ports", no_argument, NULL, 'p' },
		{ "shuffle-records", no_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "remove-links", required_argument, NULL, 'k' },
		{ "remove-switches", required_argument, NULL, 'S' },
		{ "remove-hosts", required_argument, NULL, 'R' },
		{ "extra-ports", required_argument, NULL, 'x' },
		{ "prefix", required_argument, NULL, 'P' },
		{ "hcas", required_argument, NULL, 'H' },
		{ "m", required_argument, NULL, 'M' },
		{ "w", required_argument, NULL, 'W' },
		{ "p", required_argument, NULL, 'Q' },
		{ "radix", required_argument, NULL, 'X' },
		{ "hosts-on-spines", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct ibu_gen_opts o = { .seed = 1 };
	const char *outpath = NULL;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	long m, n, v, hcas = 1, radix = 0, spine_hosts = 0;
	const char *pm = NULL, *pw = NULL, *pp = NULL;
	int c, rc, mesh, pgft;
	char head[96];

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'p': o.shuffle_ports = 1; break;
		case 'r': o.shuffle_records = 1; break;
		case 's':
			if (ibu_opt_u64("gen", "--seed", optarg, &o.seed))
				return IBU_EXIT_USAGE;
			break;
		case 'k':
			if (ibu_opt_int("gen", "--remove-links", optarg, 0, 1000000, &v))
				return IBU_EXIT_USAGE;
			o.remove_links = (int)v;
			break;
		case 'S':
			if (ibu_opt_int("gen", "--remove-switches", optarg, 0, 1000000, &v))
				return IBU_EXIT_USAGE;
			o.remove_switches = (int)v;
			break;
		case 'R':
			if (ibu_opt_int("gen", "--remove-hosts", optarg, 0, 1000000, &v))
				return IBU_EXIT_USAGE;
			o.remove_hosts = (int)v;
			break;
		case 'x':
			if (ibu_opt_int("gen", "--extra-ports", optarg, 0, 200, &v))
				return IBU_EXIT_USAGE;
			o.extra_ports = (int)v;
			break;
		case 'P': o.prefix = optarg; break;
		case 'H':
			if (ibu_opt_int("gen", "--hcas", optarg, 0, 250, &hcas))
				return IBU_EXIT_USAGE;
			break;
		case 'M': pm = optarg; break;
		case 'W': pw = optarg; break;
		case 'Q': pp = optarg; break;
		case 'X':
			if (ibu_opt_int("gen", "--radix", optarg, 2, IBU_MAX_PORTS, &radix))
				return IBU_EXIT_USAGE;
			break;
		case 'T':
			if (ibu_opt_int("gen", "--hosts-on-spines", optarg, 0, 100000,
					&spine_hosts))
				return IBU_EXIT_USAGE;
			break;
		default:
			ibu_cmd_gen_usage(stderr);
			return IBU_EXIT_USAGE;
		}
	}
	pgft = argc - optind == 1 && !strcmp(argv[optind], "pgft");
	if (!pgft && (argc - optind != 3 || (strcmp(argv[optind], "fattree") &&
					     strcmp(argv[optind], "mesh")))) {
		ibu_cmd_gen_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (pgft != (pm || pw || pp || radix || spine_hosts) ||
	    (pgft && !(pm && pw && pp))) {
		fprintf(stderr, "ibunion gen: pgft takes --m, --w and --p; --m, --w, --p, --radix and --hosts-on-spines are for pgft only\n");
		return IBU_EXIT_USAGE;
	}
	if (pgft)
		return gen_pgft(pm, pw, pp, (int)radix, (int)spine_hosts,
				&o, outpath);
	mesh = !strcmp(argv[optind], "mesh");
	if (mesh) {
		if (ibu_opt_int("gen", "X", argv[optind + 1], 1, 16384, &m) ||
		    ibu_opt_int("gen", "Y", argv[optind + 2], 1, 16384, &n))
			return IBU_EXIT_USAGE;
		if (o.extra_ports) {
			fprintf(stderr, "-E- ibunion gen: --extra-ports is for fat trees\n");
			return IBU_EXIT_USAGE;
		}
		rc = ibu_gen_mesh(&f, (int)m, (int)n, (int)hcas, &o, &e);
	} else {
		if (ibu_opt_int("gen", "M", argv[optind + 1], 4, 254, &m) ||
		    ibu_opt_int("gen", "N", argv[optind + 2], 2, 16, &n))
			return IBU_EXIT_USAGE;
		rc = ibu_gen_fattree(&f, (int)m, (int)n, &o, &e);
	}
	if (rc) {
		ibu_opt_report("gen", &e);
		return rc == IBU_EINVAL ? IBU_EXIT_USAGE : IBU_EXIT_ERROR;
	}
	if (mesh)
		snprintf(head, sizeof(head), "%ld x %ld mesh, %ld HCAs per switch",
			 m, n, hcas);
	else
		snprintf(head, sizeof(head), "IBFT(%ld,%ld)", m, n);
	return write_fabric(&f, head, &o, outpath);
}
