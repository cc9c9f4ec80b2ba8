/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion gen SHAPE [POSITIONAL...] [--KEY VALUE]... [options]
 * The shapes and their own options come from the engines (ops->gen:
 * fattree and pgft from cyclic, mesh from xy); the options every shape
 * shares (shuffles, seed, removals, prefix) are read here.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "engine.h"
#include "netfile.h"

#define GEN_MAX_KEYS 32
#define GEN_KEY_VAL 1000	/* getopt val of shape key i: 1000 + i */

void ibu_cmd_gen_usage(FILE *out)
{
	const struct ibu_engine_ops *const *l;
	int i, first = 1;

	for (l = ibu_engine_list(); *l; l++)
		for (i = 0; i < (*l)->num_gen; i++, first = 0)
			fprintf(out, "%s ibunion gen %s %s\n",
				first ? "usage:" : "      ",
				(*l)->gen[i].shape, (*l)->gen[i].synopsis);
	fprintf(out, "  writes an ibsim net file of one of these shapes:\n");
	for (l = ibu_engine_list(); *l; l++)
		for (i = 0; i < (*l)->num_gen; i++)
			fputs((*l)->gen[i].help, out);
	fprintf(out,
		"options:\n"
		"  -o, --output FILE     write to FILE instead of stdout\n"
		"  --shuffle-ports       permute every switch's physical port numbers\n"
		"  --shuffle-records     permute the order of the node records\n"
		"  --seed S              seed of the permutations (default 1)\n"
		"  --remove-links K      remove K random switch-to-switch links\n"
		"  --remove-switches K   remove K random switches (their records)\n"
		"  --remove-hosts K      remove K random end nodes (their records)\n"
		"  --extra-ports E       give switches E uncabled ports beyond M\n"
		"  --prefix P            prefix every node name with P\n");
	for (l = ibu_engine_list(); *l; l++)
		for (i = 0; i < (*l)->num_gen; i++)
			fputs((*l)->gen[i].keys_help, out);
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

/* Every engine's shape keys, each once, into keys[]; their count. */
static int shape_keys(const char **keys)
{
	const struct ibu_engine_ops *const *l;
	int i, k, j, n = 0;

	for (l = ibu_engine_list(); *l; l++)
		for (i = 0; i < (*l)->num_gen; i++)
			for (k = 0; (*l)->gen[i].keys[k]; k++) {
				for (j = 0; j < n; j++)
					if (!strcmp(keys[j], (*l)->gen[i].keys[k]))
						break;
				if (j == n && n < GEN_MAX_KEYS)
					keys[n++] = (*l)->gen[i].keys[k];
			}
	return n;
}

static const struct ibu_engine_gen *find_shape(const char *name)
{
	const struct ibu_engine_ops *const *l;
	int i;

	for (l = ibu_engine_list(); *l; l++)
		for (i = 0; i < (*l)->num_gen; i++)
			if (!strcmp((*l)->gen[i].shape, name))
				return &(*l)->gen[i];
	return NULL;
}

struct gen_args {
	struct ibu_gen_opts o;
	const char *outpath;
	struct ibu_gen_arg args[GEN_MAX_KEYS];
	int nargs;
};

/* A shape key's value, the last one given winning. */
static void set_arg(struct gen_args *a, const char *key, const char *value)
{
	int i;

	for (i = 0; i < a->nargs; i++)
		if (!strcmp(a->args[i].key, key))
			break;
	if (i == a->nargs)
		a->nargs++;
	a->args[i] = (struct ibu_gen_arg){ key, value };
}

static int count_opt(const char *what, long hi, int *out)
{
	long v;

	if (ibu_opt_int("gen", what, optarg, 0, hi, &v))
		return -1;
	*out = (int)v;
	return 0;
}

static int shared_opt(int c, struct gen_args *a)
{
	switch (c) {
	case 'o': a->outpath = optarg; return 0;
	case 'p': a->o.shuffle_ports = 1; return 0;
	case 'r': a->o.shuffle_records = 1; return 0;
	case 's': return ibu_opt_u64("gen", "--seed", optarg, &a->o.seed) ? -1 : 0;
	case 'k': return count_opt("--remove-links", 1000000, &a->o.remove_links);
	case 'S': return count_opt("--remove-switches", 1000000, &a->o.remove_switches);
	case 'R': return count_opt("--remove-hosts", 1000000, &a->o.remove_hosts);
	case 'x': return count_opt("--extra-ports", 200, &a->o.extra_ports);
	case 'P': a->o.prefix = optarg; return 0;
	default: return -1;
	}
}

static int parse_args(int argc, char **argv, struct gen_args *a)
{
	static const struct option shared[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "shuffle-ports", no_argument, NULL, 'p' },
		{ "shuffle-records", no_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "remove-links", required_argument, NULL, 'k' },
		{ "remove-switches", required_argument, NULL, 'S' },
		{ "remove-hosts", required_argument, NULL, 'R' },
		{ "extra-ports", required_argument, NULL, 'x' },
		{ "prefix", required_argument, NULL, 'P' },
	};
	enum { NS = sizeof(shared) / sizeof(shared[0]) };
	struct option lo[NS + GEN_MAX_KEYS + 1];
	const char *keys[GEN_MAX_KEYS];
	int nk = shape_keys(keys), i, c;

	memset(a, 0, sizeof(*a));
	a->o.seed = 1;
	memcpy(lo, shared, sizeof(shared));
	for (i = 0; i < nk; i++)
		lo[NS + i] = (struct option){ keys[i], required_argument, NULL,
					     GEN_KEY_VAL + i };
	memset(&lo[NS + nk], 0, sizeof(lo[0]));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		if (c >= GEN_KEY_VAL && c < GEN_KEY_VAL + nk)
			set_arg(a, keys[c - GEN_KEY_VAL], optarg);
		else if (shared_opt(c, a))
			return -1;
	}
	return argc - optind >= 1 ? 0 : -1;
}

/* Every key given is one of the shape's own. */
static int keys_fit(const struct ibu_engine_gen *g, const struct gen_args *a)
{
	int i, k;

	for (i = 0; i < a->nargs; i++) {
		for (k = 0; g->keys[k] && strcmp(g->keys[k], a->args[i].key); k++)
			;
		if (!g->keys[k]) {
			fprintf(stderr, "-E- ibunion gen: --%s is not an option of %s\n",
				a->args[i].key, g->shape);
			return -1;
		}
	}
	return 0;
}

int ibu_cmd_gen(int argc, char **argv)
{
	const struct ibu_engine_gen *g;
	struct gen_args a;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char head[160];
	int rc;

	if (parse_args(argc, argv, &a) || !(g = find_shape(argv[optind])) ||
	    argc - optind - 1 != g->num_positional) {
		ibu_cmd_gen_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (keys_fit(g, &a))
		return IBU_EXIT_USAGE;
	rc = g->make(&f, argv + optind + 1, a.args, a.nargs, &a.o, head,
		     sizeof(head), &e);
	if (rc) {
		ibu_opt_report("gen", &e);
		return rc == IBU_EINVAL ? IBU_EXIT_USAGE : IBU_EXIT_ERROR;
	}
	return write_fabric(&f, head, &a.o, a.outpath);
}
