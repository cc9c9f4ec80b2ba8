/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What every fabric generator shares, whatever its topology: the options
 * of `ibunion gen` that permute and damage a fabric (ports, records,
 * links, switches, hosts, name prefix), the seeded PRNG behind them, and
 * the strict reading of a generator's own numeric arguments.
 */
#ifndef IBU_FABRIC_GEN_H
#define IBU_FABRIC_GEN_H

#include "fabric.h"

struct ibu_gen_opts {
	int shuffle_ports;	/* permute each switch's physical port numbers */
	int shuffle_records;	/* permute node order */
	int remove_links;	/* remove this many switch-switch links */
	int remove_switches;	/* remove this many switches (records) */
	int remove_hosts;	/* remove this many end nodes (records) */
	int extra_ports;	/* switches get m + extra_ports physical ports */
	uint64_t seed;
	const char *prefix;	/* name prefix, default "" */
};

/* Removes random switch and end-node records (seeded), as the
 * remove_switches / remove_hosts options do. */
int ibu_gen_remove_nodes(struct ibu_fabric *f, int switches, int hosts,
			 uint64_t seed, struct ibu_err *e);
/* Fisher-Yates with ibu_gen_rand. */
void ibu_gen_shuffle(int *a, int n, uint64_t *st);

/* Removes count random switch-to-switch links (seeded). */
int ibu_gen_remove_links(struct ibu_fabric *f, int count, uint64_t seed,
			 struct ibu_err *e);

/* Deterministic PRNG used by the generators (splitmix64). */
uint64_t ibu_gen_rand(uint64_t *state);

/* o's remove_links, then remove_switches/remove_hosts, on a built f. */
int ibu_gen_damage(struct ibu_fabric *f, const struct ibu_gen_opts *o,
		   struct ibu_err *e);

/* IBU_EINVAL unless o's name prefix can be written between quotes. */
int ibu_gen_check_prefix(const struct ibu_gen_opts *o, struct ibu_err *e);

/* One --KEY VALUE of a generated shape's own options. */
struct ibu_gen_arg {
	const char *key;		/* "hcas" */
	const char *value;
};

/* The value of key among args, or NULL. */
const char *ibu_gen_arg_find(const struct ibu_gen_arg *args, int n,
			     const char *key);

/*
 * A generator's numeric argument ("M", "--hcas"): decimal digits within
 * [lo, hi] into *v, else IBU_EINVAL "WHAT must be an integer in
 * LO..HI, not 'TEXT'".
 */
int ibu_gen_arg_int(const char *what, const char *text, long lo, long hi,
		    int *v, struct ibu_err *e);

#endif
