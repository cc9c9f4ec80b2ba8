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
	int remove_switches;	/* remove this many switches (records) */
	int remove_hosts;	/* remove this many end nodes (records) */
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

/*
 * Builds a 2-D mesh of X x Y switches, N(x,y) linked to N(x+1,y) and
 * N(x,y+1), each with `hcas` single-port CAs. Switches have 4 + hcas
 * ports (paper order E, N, W, S, then the HCAs, unless shuffled).
 * Names "sw-<x>.<y>", "hca-<x>.<y>.<k>" (no meaning for the engine).
 * GUIDs follow record order (as ibsim and the net-file reader give
 * them); unshuffled, switches come in column-major order so that the
 * canonical orientation of lib/mesh.h recognises the generator's x and y.
 * The first record is an HCA (when there are any). remove_links,
 * remove_switches and remove_hosts work as for fat trees (a removed
 * switch's HCAs stay, uncabled).
 */
int ibu_gen_mesh(struct ibu_fabric *f, int X, int Y, int hcas,
		 const struct ibu_gen_opts *o, struct ibu_err *e);

/*
 * Builds PGFT(P) (lib/pgft.h): compute hosts "hca-<a_h..a_1>", level-l
 * switches "sw<l>-<digits>" (level 1 = leaves), every cable of the rule
 * (p_l parallel cables between a node and each of its w_l parents; w_1 =
 * p_1 = 1: one cable per host). radix > 0: every switch has that many
 * ports (the uncabled ones stay empty), else each switch has the ports
 * its level needs. hosts_on_spines extra single-port CAs "spine-hca-<k>"
 * are cabled to the top switches, round robin, on free ports. The first
 * record is compute host 0 (ibsim's SM port). o: shuffles, removed
 * hosts/links/switches and the seed as for ibu_gen_fattree.
 */
struct ibu_pgft_params;
int ibu_gen_pgft(struct ibu_fabric *f, const struct ibu_pgft_params *P,
		 int radix, int hosts_on_spines, const struct ibu_gen_opts *o,
		 struct ibu_err *e);

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

#endif
