/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The virtual-lane plans of [Zhou10] (sect. 3.2, Fig. 8) for a 2-D mesh:
 *
 *   1            every SL on VL 0
 *   2-spread     SL -> VL = SL mod 2; paths spread over SL 0 and 1
 *   2-direction  the VL follows the output port: N and E on VL 0,
 *                S and W on VL 1 (whatever the SL)
 *   4-spread     SL -> VL = SL mod 4; paths spread over SL 0..3
 *   4-direction  E on VL 0, N on VL 1, W on VL 2, S on VL 3
 *
 * Ports toward an HCA and port 0 use VL 0 in the direction plans. Spread
 * plans give the path from end port (or switch) number a to number b the SL
 * (a + b) mod VLs; multicast uses the group's SL (0). Direction plans use
 * SL 0 everywhere.
 *
 * Credit loops: under every plan a packet's VL is a function of the
 * channel it takes (direction plans) or constant along its route (spread
 * plans), so each VL's dependency graph is a sub-graph of the one-VL graph
 * of the same routes (direction plans: the same graph, relabelled).
 * Whatever is free of credit loops on one VL (XY unicast + trees with their
 * roots on one row, lib/mesh/xy_mcast.h) stays free under all five plans;
 * `ibunion check --deadlock --vl-plan P` verifies it per VL.
 */
#ifndef IBU_VLPLAN_H
#define IBU_VLPLAN_H

#include "mesh.h"
#include "lidmap.h"
#include "cdg.h"

enum ibu_vlplan_kind {
	IBU_VLPLAN_1 = 0,
	IBU_VLPLAN_2_SPREAD,
	IBU_VLPLAN_2_DIRECTION,
	IBU_VLPLAN_4_SPREAD,
	IBU_VLPLAN_4_DIRECTION,
	IBU_VLPLAN_KINDS,
};

/* "1", "2-spread", ...; IBU_EINVAL for anything else. */
int ibu_vlplan_parse(const char *s, enum ibu_vlplan_kind *k);
const char *ibu_vlplan_name(enum ibu_vlplan_kind k);
/* Data VLs the plan uses: 1, 2 or 4. */
int ibu_vlplan_num_vls(enum ibu_vlplan_kind k);

/* SL of the path from end point a to end point b (any numbering of end
 * ports / switches, e.g. mesh end-port ranks). */
int ibu_vlplan_path_sl(enum ibu_vlplan_kind k, unsigned a, unsigned b);

/* VL of sl leaving through a port facing out_dir (enum ibu_dir or
 * IBU_DIR_LOCAL). */
int ibu_vlplan_vl(enum ibu_vlplan_kind k, int out_dir, int sl);

/* SL2VL table of (node, in_port, out_port) on mesh t: vl_of_sl[sl] for the
 * 16 SLs (a CA's tables: out_dir local). IBU_EINVAL for a switch port
 * that does not exist or a node outside the fabric of t. */
int ibu_vlplan_sl2vl(enum ibu_vlplan_kind k, const struct ibu_mesh *t,
		     int node, int in_port, int out_port,
		     uint8_t vl_of_sl[16]);

/* The number a path SL is computed from: end-port rank, or after them
 * num_endports + switch index; -1 if (node, port) is neither. */
int ibu_vlplan_point(const struct ibu_mesh *t, int node, int port);

/* A plan as the channel dependency graph's VL description (lib/analysis/cdg.h):
 * SL from ibu_vlplan_path_sl (multicast DLIDs: SL 0), VL from the plan. */
struct ibu_vlplan_cdg {
	enum ibu_vlplan_kind kind;
	const struct ibu_mesh *t;
	const struct ibu_lidmap *map;
};

void ibu_vlplan_cdg_vl(struct ibu_cdg_vl *vl, struct ibu_vlplan_cdg *ctx);

#endif
