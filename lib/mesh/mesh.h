/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * 2-D mesh recognition, IbaMesh(m,n) ([Zhou10], sect. 3.1), from the
 * switch graph alone.
 *
 * Switch N(x,y), x in 0..m-1, y in 0..n-1; a switch's neighbours are
 * N(x+-1,y) (east/west) and N(x,y+-1) (north/south). Each switch carries
 * zero or more end ports (CA or router ports cabled to it).
 *
 * Names, port numbers and record order are arbitrary; the orientation is
 * canonical, from the graph and the node GUIDs only:
 *   - the origin N(0,0) is the corner (switch with two switch neighbours)
 *     with the lowest node GUID;
 *   - the x axis runs from the origin toward its neighbour with the lower
 *     node GUID, so that neighbour is N(1,0) and the corner at the end of
 *     that border is N(m-1,0); the other border from the origin is the
 *     y axis (N(0,1) .. N(0,n-1)).
 * So m (the x extent) is the length of the border the origin's lower-GUID
 * neighbour lies on; m and n are derived, not given.
 *
 * Recognition is a chain of named steps; each rejects with IBU_ETOPO and
 * a reason ("not a 2-D mesh: <step>: <why>"):
 *   switches    one (the 1 x 1 mesh), a line of them (the m x 1 mesh,
 *               x from the end with the lower GUID) or at least 4
 *   links       no CA-to-CA cable, at most one link between two switches
 *   degrees     2, 3 or 4 switch neighbours each, exactly 4 corners
 *               (a ring has none or too many, a torus none)
 *   distances   every switch reachable; the far corner, the x and y
 *               corners found by hop distances from the origin
 *   coordinates x = (dA - dB + m - 1) / 2, y = (dA + dB - m + 1) / 2 from
 *               the distances dA to the origin and dB to N(m-1,0): integral,
 *               in range, one switch per coordinate, m * n switches
 *   grid        every switch-to-switch link joins two grid neighbours and
 *               every grid neighbour pair is linked
 */
#ifndef IBU_MESH_H
#define IBU_MESH_H

#include "fabric.h"

/* Directions, in the paper's port order (E=1, N=2, W=3, S=4 minus one). */
enum ibu_dir {
	IBU_DIR_E = 0,	/* x + 1 */
	IBU_DIR_N = 1,	/* y + 1 */
	IBU_DIR_W = 2,	/* x - 1 */
	IBU_DIR_S = 3,	/* y - 1 */
	IBU_DIRS = 4,
	IBU_DIR_LOCAL = 4,	/* not a mesh direction: own HCA or port 0 */
};

struct ibu_mesh_switch {
	int node;		/* fabric node index */
	int x, y;
	int port[IBU_DIRS];	/* physical port facing E/N/W/S, 0 = border */
	int first_ep;		/* first index into ep[] of its end ports */
	int num_eps;		/* end ports cabled to it */
};

struct ibu_mesh_endport {
	int node;		/* fabric node (CA or router) */
	int port;		/* its physical port */
	int sw;		/* switch index */
	int sw_port;		/* physical port of the switch it is cabled to */
};

struct ibu_mesh {
	int m, n;			/* x in 0..m-1, y in 0..n-1 */
	int num_switches;		/* m * n */
	struct ibu_mesh_switch *sw;	/* by switch index x * n + y */
	int num_endports;
	struct ibu_mesh_endport *ep;	/* by switch index, then port GUID */
	int num_fabric_nodes;
	int *sw_of_node;		/* fabric node -> switch index, -1 */
	int *dir_of_port;		/* node port slot -> enum ibu_dir; see
					 * ibu_mesh_port_dir() */
	int *ep_of_port;		/* node port slot -> ep index, -1 */
	int *port_base;			/* fabric node -> first slot */
	struct ibu_mesh_damage *dmg;	/* NULL: intact; else lib/mesh/mesh_faults.h */
};

/* Recognises f as an m x n mesh (m, n >= 2, or a single switch: 1 x 1). */
int ibu_mesh_recognize(const struct ibu_fabric *f, struct ibu_mesh *t,
		       struct ibu_err *e);
void ibu_mesh_free(struct ibu_mesh *t);
/* Last recognition step, shared with lib/mesh/mesh_faults.c: end ports and port
 * directions from t->sw[] and t->sw_of_node (t->port_base allocated with
 * num_nodes + 1 entries). */
int ibu_mesh_endports(const struct ibu_fabric *f, struct ibu_mesh *t,
		      struct ibu_err *e);

static inline int ibu_mesh_index(const struct ibu_mesh *t, int x, int y)
{
	return x * t->n + y;
}

/* Switch index of a fabric node, -1 if it is not a mesh switch. */
int ibu_mesh_sw(const struct ibu_mesh *t, int node);
/* Index into ep[] of the end port (node, port), -1 if none. */
int ibu_mesh_ep(const struct ibu_mesh *t, int node, int port);
/* Direction of physical port `port` of fabric node `node` (a mesh switch):
 * IBU_DIR_E..S for a mesh link, IBU_DIR_LOCAL for port 0 / an HCA port /
 * an uncabled port; -1 if node is not a mesh switch. */
int ibu_mesh_port_dir(const struct ibu_mesh *t, int node, int port);
/* Switch index of the neighbour of sw in direction d, -1 at the border
 * (inline: the damaged-mesh planner asks millions of times). */
static inline int ibu_mesh_neighbour(const struct ibu_mesh *t, int sw,
				     enum ibu_dir d)
{
	const struct ibu_mesh_switch *w = &t->sw[sw];

	switch (d) {
	case IBU_DIR_E: return w->x + 1 < t->m ? sw + t->n : -1;
	case IBU_DIR_W: return w->x > 0 ? sw - t->n : -1;
	case IBU_DIR_N: return w->y + 1 < t->n ? sw + 1 : -1;
	case IBU_DIR_S: return w->y > 0 ? sw - 1 : -1;
	default: return -1;
	}
}

/* "E", "N", "W", "S", "local" */
const char *ibu_dir_name(int d);
/* "N(x,y)" */
void ibu_mesh_sw_label(const struct ibu_mesh *t, int sw, char *buf,
		       size_t len);

#endif
