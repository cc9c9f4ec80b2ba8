/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fat-tree generator (gen_pgft.c): PGFT(P), and IBFT(m,n) and
 * rail-optimized clusters as the PGFTs they are, optionally with physical
 * port numbers permuted per switch, records shuffled and links removed (to
 * produce "almost fat trees" for negative tests).
 */
#ifndef IBU_GEN_H
#define IBU_GEN_H

#include "fabric_gen.h"
#include "engine.h"

/*
 * Builds IBFT(m,n) as the PGFT(n; m/2,..,m/2, m; 1, m/2,..,m/2; 1,..,1) it
 * is: ibu_gen_pgft's cables and port numbers, named as [Zhou07] labels
 * them: switches "sw<l>-<w digits>" (level 0 at the top), end nodes
 * "hca-<p digits>" (names carry no meaning for the engine). Records: host
 * 0 first (ibsim's SM port), the switches top level first, the other hosts.
 */
int ibu_gen_fattree(struct ibu_fabric *f, int m, int n,
		    const struct ibu_gen_opts *o, struct ibu_err *e);

/*
 * Builds PGFT(P) (lib/fattree/pgft.h): compute hosts "hca-<a_h..a_1>", level-l
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

/*
 * A rail-optimized cluster as that PGFT: R leaves per scalable unit (leaf
 * k: unit k / R, rail k % R), host p of leaf k is HCA mlx5_<rail> of server
 * node<unit * m_1 + p + 1>, named "node001 mlx5_0" as real HCAs describe
 * themselves. R must divide m_2 (a unit never straddles level-2 switches).
 */
int ibu_gen_pgft_rails(struct ibu_fabric *f, const struct ibu_pgft_params *P,
		       int radix, int hosts_on_spines, int rails,
		       const struct ibu_gen_opts *o, struct ibu_err *e);

/* `ibunion gen fattree|pgft|rail` for the cyclic engine. */
#define IBU_CYCLIC_NUM_GEN 3
extern const struct ibu_engine_gen ibu_cyclic_gen[IBU_CYCLIC_NUM_GEN];

#endif
