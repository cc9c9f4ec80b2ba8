/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * `ibunion gen fattree M N` and `ibunion gen pgft --m .. --w .. --p ..`:
 * the arguments of the fat-tree generators (gen.h), read here so that the
 * tool only dispatches by shape name.
 */
#include <stdio.h>
#include "cyclic_gen.h"
#include "gen.h"
#include "pgft.h"

static int make_fattree(struct ibu_fabric *f, char *const *pos,
			const struct ibu_gen_arg *args, int nargs,
			const struct ibu_gen_opts *o, char *head, size_t len,
			struct ibu_err *e)
{
	int m, n, rc;

	(void)args;
	(void)nargs;
	if (ibu_gen_arg_int("M", pos[0], 4, 254, &m, e) ||
	    ibu_gen_arg_int("N", pos[1], 2, 16, &n, e))
		return IBU_EINVAL;
	rc = ibu_gen_fattree(f, m, n, o, e);
	if (!rc)
		snprintf(head, len, "IBFT(%d,%d)", m, n);
	return rc;
}

static int make_pgft(struct ibu_fabric *f, char *const *pos,
		     const struct ibu_gen_arg *args, int nargs,
		     const struct ibu_gen_opts *o, char *head, size_t len,
		     struct ibu_err *e)
{
	const char *pm = ibu_gen_arg_find(args, nargs, "m");
	const char *pw = ibu_gen_arg_find(args, nargs, "w");
	const char *pp = ibu_gen_arg_find(args, nargs, "p");
	const char *r = ibu_gen_arg_find(args, nargs, "radix");
	const char *k = ibu_gen_arg_find(args, nargs, "hosts-on-spines");
	struct ibu_pgft_params P;
	int radix = 0, spine_hosts = 0, rc;

	(void)pos;
	if (!pm || !pw || !pp)
		return ibu_err_set(e, IBU_EINVAL, "pgft takes --m, --w and --p");
	if ((r && ibu_gen_arg_int("--radix", r, 2, IBU_MAX_PORTS, &radix, e)) ||
	    (k && ibu_gen_arg_int("--hosts-on-spines", k, 0, 100000,
				  &spine_hosts, e)))
		return IBU_EINVAL;
	rc = ibu_pgft_params_parse(pm, pw, pp, &P, e);
	if (!rc)
		rc = ibu_gen_pgft(f, &P, radix, spine_hosts, o, e);
	if (!rc)
		ibu_pgft_params_text(&P, head, len);
	return rc;
}

/*
 * gen rail --units U --servers S --rails R [--levels 2|3] [--units-per-pod G]:
 * non-blocking. 2 levels: PGFT(2; S,U*R; 1,S; 1,1): every rail leaf has
 * its S servers' HCAs and one cable to each of S spines. 3 levels: pods
 * of G units, PGFT(3; S,G*R,U/G; 1,S,G*R; 1,1,1).
 */
static int make_rail(struct ibu_fabric *f, char *const *pos,
		     const struct ibu_gen_arg *args, int nargs,
		     const struct ibu_gen_opts *o, char *head, size_t len,
		     struct ibu_err *e)
{
	const char *pu = ibu_gen_arg_find(args, nargs, "units");
	const char *ps = ibu_gen_arg_find(args, nargs, "servers");
	const char *pr = ibu_gen_arg_find(args, nargs, "rails");
	const char *pl = ibu_gen_arg_find(args, nargs, "levels");
	const char *pg = ibu_gen_arg_find(args, nargs, "units-per-pod");
	int u, sv, r, lv = 2, gp = 2, rc;
	char m[64], w[64], p[16];
	struct ibu_pgft_params P;

	(void)pos;
	if (!pu || !ps || !pr)
		return ibu_err_set(e, IBU_EINVAL, "rail takes --units, --servers and --rails");
	if (ibu_gen_arg_int("--units", pu, 1, 1024, &u, e) ||
	    ibu_gen_arg_int("--servers", ps, 1, 127, &sv, e) ||
	    ibu_gen_arg_int("--rails", pr, 1, 16, &r, e) ||
	    (pl && ibu_gen_arg_int("--levels", pl, 2, 3, &lv, e)) ||
	    (pg && ibu_gen_arg_int("--units-per-pod", pg, 1, 1024, &gp, e)))
		return IBU_EINVAL;
	if (lv == 3 && u % gp)
		return ibu_err_set(e, IBU_EINVAL,
				   "rail: %d units are no whole number of pods of %d",
				   u, gp);
	if (lv == 2) {
		snprintf(m, sizeof(m), "%d,%d", sv, u * r);
		snprintf(w, sizeof(w), "1,%d", sv);
		snprintf(p, sizeof(p), "1,1");
	} else {
		snprintf(m, sizeof(m), "%d,%d,%d", sv, gp * r, u / gp);
		snprintf(w, sizeof(w), "1,%d,%d", sv, gp * r);
		snprintf(p, sizeof(p), "1,1,1");
	}
	rc = ibu_pgft_params_parse(m, w, p, &P, e);
	if (!rc)
		rc = ibu_gen_pgft_rails(f, &P, 0, 0, r, o, e);
	if (!rc) {
		int n = snprintf(head, len, "rail-optimized: %d units x %d servers x %d rails, ",
				 u, sv, r);

		if (n > 0 && (size_t)n < len)
			ibu_pgft_params_text(&P, head + n, len - (size_t)n);
	}
	return rc;
}

static const char *const rail_keys[] = {
	"units", "servers", "rails", "levels", "units-per-pod", NULL
};

static const char *const pgft_keys[] = {
	"m", "w", "p", "radix", "hosts-on-spines", NULL
};
static const char *const no_keys[] = { NULL };

const struct ibu_engine_gen ibu_cyclic_gen[IBU_CYCLIC_NUM_GEN] = {
	{ .shape = "fattree", .synopsis = "M N [options]",
	  .help = "  fattree: the m-port n-tree IBFT(M,N), wired by the paper's link\n"
		  "  rule (M even >= 4, N >= 2)\n",
	  .keys = no_keys, .keys_help = "", .num_positional = 2,
	  .make = make_fattree },
	{ .shape = "pgft",
	  .synopsis = "--m M1,..,Mh --w W1,..,Wh --p P1,..,Ph [options]",
	  .help = "  pgft: the parallel-ports generalised fat tree PGFT(h; M; W; P):\n"
		  "  a level-l switch has Ml children, a level-(l-1) node Wl parents\n"
		  "  and Pl cables to each (level 1 = leaves; W1 = P1 = 1; a smaller\n"
		  "  Mh = fewer pods, fewer up- than down-cables = a blocking level)\n",
	  .keys = pgft_keys,
	  .keys_help = "  --m, --w, --p LIST    pgft: the parameters, one per level\n"
		       "  --radix R             pgft: every switch has R ports (the ports\n"
		       "                        the tree does not use stay empty)\n"
		       "  --hosts-on-spines K   pgft: K more hosts cabled to the top\n"
		       "                        switches (storage, login nodes)\n",
	  .num_positional = 0, .make = make_pgft },
	{ .shape = "rail",
	  .synopsis = "--units U --servers S --rails R [--levels 2|3] [options]",
	  .help = "  rail: a rail-optimized cluster (non-blocking PGFT): U scalable\n"
		  "  units of S servers with R HCAs each; HCA r of every server of a\n"
		  "  unit goes to the unit's rail-r leaf; HCAs are named\n"
		  "  '<server> mlx5_<r>' as real ones describe themselves\n",
	  .keys = rail_keys,
	  .keys_help = "  --units, --servers, --rails N   rail: the cluster's shape\n"
		       "  --levels 2|3          rail: spines above the rail leaves (2), or\n"
		       "                        pods of units under a core (3)\n"
		       "  --units-per-pod G     rail, 3 levels: units per pod (default 2)\n",
	  .num_positional = 0, .make = make_rail },
};
