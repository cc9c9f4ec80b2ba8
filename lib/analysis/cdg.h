/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Channel dependency graph ([DallySeitz87], [Duato93]) of the forwarding tables
 * of any fabric, and a cycle search: a cycle is a possible credit loop
 * (deadlock) when every channel on it is full.
 *
 * A channel is the output of one physical port (node, port) on one VL.
 * Packets hold their input channel while they wait for the next one, so
 * for every hop `arrive on channel a, leave on channel b` there is a
 * dependency a -> b.
 *
 *   unicast    every source end port (CA/router port cabled to a switch)
 *              to every LID that has an owner, following the LFTs from the
 *              source's switch (a switch's LID ends at port 0)
 *   multicast  every MLID of an MFT flooded from every member (all members
 *              may send, send-only ones too): a switch forwards to every
 *              port of its entry but the one the packet came in on
 *
 * VLs: without a VL description everything runs on VL 0. With one, the SL
 * of each route comes from path_sl() (the DLID is the MLID for multicast)
 * and the VL of each hop from vl(node, in port, out port, SL) (SL2VL;
 * in port 0 at the node that injects the packet). Work is memoised per
 * (destination, channel, VL, SL), so it is O(LIDs x channels x SLs).
 * Topology-neutral: fat trees and meshes alike.
 */
#ifndef IBU_CDG_H
#define IBU_CDG_H

#include "fabric.h"
#include "lidmap.h"
#include "lft.h"
#include "mft.h"
#include "mcmembers.h"

#define IBU_CDG_MAX_VLS 15

struct ibu_cdg_vl {
	int num_vls;		/* data VLs in use, 1..15 */
	/* SL (0..15) of the packets src (node, port) sends to dlid */
	int (*path_sl)(void *ctx, int src_node, int src_port, uint32_t dlid);
	/* VL (0..num_vls-1) of SL sl leaving node through out_port after
	 * arriving on in_port (0: the node injects it); < 0 = an error */
	int (*vl)(void *ctx, int node, int in_port, int out_port, int sl);
	void *ctx;
};

struct ibu_cdg_channel {
	int node, port, vl;
};

struct ibu_cdg {
	const struct ibu_fabric *f;
	struct ibu_cdg_vl vl;		/* num_vls 1 and no callbacks if none */
	int num_sls;			/* 16 with callbacks, else 1 */
	int *base;			/* [node] first port slot */
	int num_slots;
	uint64_t *set;			/* dependency hash set (key + 1) */
	size_t cap, num_deps;
	uint32_t *seen;			/* [(slot * vls + vl) * sls + sl] */
	uint32_t stamp;
	int *qnode, *qport, *qch;	/* flood queue */
	uint64_t *log;			/* keys added since ibu_cdg_mark */
	size_t nlog, logcap;
	int logging;
	long routes;			/* unicast (source, LID) routes followed */
	long floods;			/* multicast (MLID, sender) floods */
	long groups;			/* MLIDs flooded */
};

/* vl may be NULL (one VL). */
int ibu_cdg_init(struct ibu_cdg *g, const struct ibu_fabric *f,
		 const struct ibu_cdg_vl *vl, struct ibu_err *e);
void ibu_cdg_free(struct ibu_cdg *g);

/* Dependencies of every unicast route (LIDs of map, tables of lft). */
int ibu_cdg_add_unicast(struct ibu_cdg *g, const struct ibu_lft *lft,
			const struct ibu_lidmap *map, struct ibu_err *e);
/* The same for one LID (every end port's route to it). */
int ibu_cdg_add_lid(struct ibu_cdg *g, const struct ibu_lft *lft,
		    uint32_t lid, struct ibu_err *e);
/*
 * Trial additions (a router trying a route): after ibu_cdg_mark every new
 * dependency is logged, ibu_cdg_rollback removes those added since,
 * ibu_cdg_commit keeps them (and stops logging).
 */
void ibu_cdg_mark(struct ibu_cdg *g);
void ibu_cdg_commit(struct ibu_cdg *g);
int ibu_cdg_rollback(struct ibu_cdg *g, struct ibu_err *e);
/*
 * Dependencies of every MLID of mft flooded from every member: members of
 * mm when it lists the MLID, else inferred from the tables (every CA port
 * an entry points at, every switch whose entry holds port 0).
 */
int ibu_cdg_add_mcast(struct ibu_cdg *g, const struct ibu_mft *mft,
		      const struct ibu_mcmembers *mm, struct ibu_err *e);
/* One dependency a -> b (tests, planted faults). */
int ibu_cdg_add_dep(struct ibu_cdg *g, const struct ibu_cdg_channel *a,
		    const struct ibu_cdg_channel *b, struct ibu_err *e);

/* Channels that take part in a dependency. */
long ibu_cdg_num_channels(const struct ibu_cdg *g);

/*
 * Looks for a cycle. Returns 1 and a malloc'ed list of its channels in
 * *cycle (each depends on the next, the last on the first), 0 when the
 * graph is acyclic, or a negative IBU_E* code.
 */
int ibu_cdg_find_cycle(const struct ibu_cdg *g, struct ibu_cdg_channel **cycle,
		       int *len, struct ibu_err *e);

#endif
