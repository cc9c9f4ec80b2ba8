/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * `ibunion gen fattree M N` and `ibunion gen pgft --m .. --w .. --p ..`:
 * the arguments of the fat-tree generators (gen.h), read here so that the
 * tool only dispatches by shape name.
 */
#include <stdio.h>
#include "cyclic_gen.h"
#include "gen.h"
#include "ibft.h"
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
};
