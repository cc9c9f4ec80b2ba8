/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The mesh generator of `ibunion gen mesh`. */
#ifndef IBU_GEN_MESH_H
#define IBU_GEN_MESH_H

#include "fabric_gen.h"
#include "engine.h"

/*
 * Builds a 2-D mesh of X x Y switches, N(x,y) linked to N(x+1,y) and
 * N(x,y+1), each with `hcas` single-port CAs. Switches have 4 + hcas
 * ports (paper order E, N, W, S, then the HCAs, unless shuffled).
 * Names "sw-<x>.<y>", "hca-<x>.<y>.<k>" (no meaning for the engine).
 * GUIDs follow record order (as ibsim and the net-file reader give
 * them); unshuffled, switches come in column-major order so that the
 * canonical orientation of lib/mesh/mesh.h recognises the generator's x and y.
 * The first record is an HCA (when there are any). remove_links,
 * remove_switches and remove_hosts work as for fat trees; a removed
 * switch's HCAs go with it (but the first record, ibsim's SM port).
 */
int ibu_gen_mesh(struct ibu_fabric *f, int X, int Y, int hcas,
		 const struct ibu_gen_opts *o, struct ibu_err *e);

/* `ibunion gen mesh X Y [--hcas K]` for the xy engine. */
extern const struct ibu_engine_gen ibu_xy_gen;

#endif
