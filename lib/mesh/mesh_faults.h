/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Damaged 2-D meshes: the smallest m x n mesh the surviving switch graph
 * is part of, with the missing cables and switches as faults.
 *
 * Recognition first tries the intact mesh (lib/mesh/mesh.h). When that fails,
 * the switch graph is embedded into the integer grid by a bounded search
 * (every link must join grid neighbours, one switch per grid point), and
 * the embedding with the smallest box wins; it is oriented by GUIDs only
 * (the orientation of the 8 of the box whose (0,0), (1,0), (0,1) carry the
 * lowest node GUIDs, a missing switch counting as the highest).
 *
 * Faults: one per missing switch and one per missing cable between two
 * present grid neighbours. The limit counts missing grid links: a missing
 * switch takes its links with it, so a ring (a mesh with its interior
 * gone) and a torus (wrap links join no grid neighbours) stay declined.
 * Default limit: one sixth of the mesh's 2mn - m - n links, at least 8 on
 * meshes of 4 x 4 and up (a lost switch and 4 cuts). Damaged meshes
 * need at least 3 x 3 positions (smaller ones are rings/lines).
 *
 * A missing switch position has node -1 and no ports; a missing cable
 * leaves port[d] 0 on both ends. Code that walks t->sw must test
 * ibu_mesh_present().
 */
#ifndef IBU_MESH_FAULTS_H
#define IBU_MESH_FAULTS_H

#include "mesh.h"

enum ibu_mesh_fault_kind {
	IBU_MESH_MISSING_SWITCH = 1,
	IBU_MESH_MISSING_LINK,		/* from sw toward dir (E or N) */
};

struct ibu_mesh_fault {
	enum ibu_mesh_fault_kind kind;
	int sw;
	int dir;
};

struct ibu_mesh_damage {
	int num_faults;
	struct ibu_mesh_fault *faults;
	int missing_switches;
	int missing_links;		/* grid links absent, those of missing
					 * switches included */
	int max_faults;			/* the limit applied to missing_links */
	/* unicast plan (lib/mesh/xy_detour.h), by [src switch * S + dst switch] */
	signed char *dir;		/* next hop direction, IBU_DIR_LOCAL at
					 * the destination, -1 unreachable */
	unsigned char *xy;		/* 1 when the pair's route is its XY
					 * path (every hop XY) */
	unsigned char *layer;		/* SL layer of the pair */
	int num_layers;
	long detour_pairs;		/* pairs not on their XY path */
	/* multicast (lib/mesh/xy_detour.h): one spanning tree every group's tree
	 * is part of */
	int mroot;			/* its root switch */
	int mlayer;			/* the layer its flooding (SL 0) uses */
	signed char *mup;		/* [switch] direction toward mroot,
					 * IBU_DIR_LOCAL at it, -1 outside */
};

/* Default limit on missing grid links for an m x n mesh. */
int ibu_mesh_default_max_faults(int m, int n);

/*
 * Recognises f as an intact mesh (t->dmg NULL) or, failing that, as a
 * damaged one (t->dmg set) with at most max_faults missing grid links
 * (IBU_MAX_FAULTS_DEFAULT: the default). IBU_ETOPO with both reasons
 * otherwise.
 */
int ibu_mesh_recognize_damaged(const struct ibu_fabric *f, struct ibu_mesh *t,
			       int max_faults, struct ibu_err *e);

void ibu_mesh_damage_free(struct ibu_mesh_damage *d);

/* 1 when grid position sw holds a switch. */
static inline int ibu_mesh_present(const struct ibu_mesh *t, int sw)
{
	return sw >= 0 && sw < t->num_switches && t->sw[sw].node >= 0;
}

/* "missing switch N(2,3)" / "missing cable N(1,1) E - N(2,1) ('a' port 3
 * - 'b' port 7)" */
void ibu_mesh_fault_text(const struct ibu_fabric *f, const struct ibu_mesh *t,
			 int i, char *buf, size_t len);

#endif
