/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Fabric generators: IBFT(m,n) wired by the paper's link rule, optionally
 * with physical port numbers permuted per switch, records shuffled and
 * links removed (to produce "almost fat trees" for negative tests).
 */
#ifndef IBU_GEN_H
#define IBU_GEN_H

#include "fabric.h"

struct ibu_gen_opts {
	int shuffle_ports;	/* permute each switch's physical port numbers */
	int shuffle_records;	/* permute node order */
	int remove_links;	/* remove this many switch-switch links */
	int extra_ports;	/* switches get m + extra_ports physical ports */
	uint64_t seed;
	const char *prefix;	/* name prefix, default "" */
};

/*
 * Builds IBFT(m,n). Names: switches "sw<l>-<w digits>" , end nodes
 * "hca-<p digits>" (names carry no meaning for the engine). The first record
 * is an HCA so that ibsim's SM port is an end port.
 */
int ibu_gen_fattree(struct ibu_fabric *f, int m, int n,
		    const struct ibu_gen_opts *o, struct ibu_err *e);

/* Deterministic PRNG used by the generators (splitmix64). */
uint64_t ibu_gen_rand(uint64_t *state);

#endif
