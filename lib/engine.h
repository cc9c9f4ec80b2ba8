/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One routing engine = one table of operations; one driver runs it.
 *
 * Every engine (cyclic for IBFT(m,n), xy for 2-D meshes) is a struct
 * ibu_engine_ops. The plugin registers every engine of ibu_engine_list()
 * with OpenSM and the tool picks the one whose recognition accepts a
 * fabric; both call ibu_engine_run(), which performs the stages in order
 * and names the failing one:
 *
 *   recognise  the topology from the link graph alone (IBU_ETOPO + reason
 *              when the fabric is not the engine's topology)
 *   plan       the LIDs the ports carry are usable by the engine
 *   alloc      forwarding tables for every switch, sized to the LIDs
 *   route      unicast: every switch, every LID (end ports, switch LIDs)
 *   check      every LID that has an owner is routed on every switch and
 *              every port exists: a caller never gets a partial table
 *
 * Multicast (mcast_*) and VL plans (path_sl, sl2vl) are optional.
 * Engines keep everything in the topology state they allocate: no global
 * mutable state.
 */
#ifndef IBU_ENGINE_H
#define IBU_ENGINE_H

#include <stddef.h>
#include "fabric.h"
#include "lidmap.h"
#include "lft.h"
#include "mft.h"
#include "mcgroup.h"

/* Options of every engine; ibu_engine_opts_default() gives the defaults. */
struct ibu_engine_opts {
	enum ibu_mcast_policy mcast_policy;
	int offsets;			/* cyclic: up-digit rule (lib/cyclic.h),
				 * 0 = the default */
	int max_faults;			/* cyclic: < 0 = engine default */
	int vl_plan;			/* xy: enum ibu_vlplan_kind, 0 = 1 VL */
	int qos;			/* xy, damaged mesh: 1 = SL2VL tables are
				 * programmed (opensm qos TRUE), 0 = they
				 * are not (decline), -1 = unknown (tools) */
	int max_vls;			/* xy, damaged mesh: data VLs every
				 * switch port holds, 0 = unknown (15) */
};

void ibu_engine_opts_default(struct ibu_engine_opts *o);

enum ibu_engine_stage {
	IBU_STAGE_RECOGNISE = 0,
	IBU_STAGE_PLAN,
	IBU_STAGE_ALLOC,
	IBU_STAGE_ROUTE,
	IBU_STAGE_CHECK,
};

/* "recognising the topology", ... for log lines. */
const char *ibu_engine_stage_name(enum ibu_engine_stage s);

/* A multicast tree as the engine computed it, by fabric node. */
struct ibu_engine_tree {
	int root;			/* fabric node of the apex/root, -1 empty */
	int num_members, num_receivers;
	int num_switches;
	int *nodes;			/* [i] fabric node of a tree switch */
	struct ibu_portmask *ports;	/* [i] its physical ports (0 = itself) */
	char info[160];			/* one line for logs: policy, level.. */
};

/* An empty tree (root -1) with room for num_switches switches. */
int ibu_engine_tree_alloc(struct ibu_engine_tree *t, int num_switches,
			  struct ibu_err *e);
void ibu_engine_tree_free(struct ibu_engine_tree *t);

struct ibu_engine_ops {
	const char *name;		/* routing_engine name */
	const char *topology;		/* "IBFT(m,n)", "2-D mesh" */

	int (*recognise)(const struct ibu_fabric *f,
			 const struct ibu_engine_opts *o, void **topo,
			 struct ibu_err *e);
	void (*topo_free)(void *topo);
	/* optional: check/keep what the engine needs from the LIDs */
	int (*plan)(const struct ibu_fabric *f, void *topo,
		    const struct ibu_lidmap *map, struct ibu_err *e);
	int (*route)(const struct ibu_fabric *f, const void *topo,
		     const struct ibu_lidmap *map,
		     const struct ibu_engine_opts *o, struct ibu_lft *lft,
		     struct ibu_err *e);
	/*
	 * optional: writes the paper's LID numbering into f (ibunion lids,
	 * ibunion route --lmc): lmc < 0 = the LMC the engine needs, capped to
	 * what fits the LID space; paper_exact = the paper's own (unaligned)
	 * numbering. *lmc_used receives the LMC. IBU_ELID with what to do
	 * when the fabric does not fit.
	 */
	int (*assign_lids)(struct ibu_fabric *f, const void *topo, int lmc,
			   int paper_exact, int *lmc_used, struct ibu_err *e);
	/* optional: 1 when the route stage may leave (switch node, lid)
	 * without an entry on purpose (cyclic: a leaf of a degraded tree
	 * with no up-then-down route left); the check stage refuses any
	 * other unrouted owned LID */
	int (*may_leave_unrouted)(const void *topo, int node, uint32_t lid);
	/* optional: how many such entries the last route left (logged) */
	long (*num_unrouted)(const void *topo);
	/* one line: "IBFT(8,3): 80 switches, 128 end ports, LMC 4 (needs 4)" */
	void (*describe)(const struct ibu_fabric *f, const void *topo,
			 char *buf, size_t len);
	/* optional: lines to log after recognition, one each (cyclic: the
	 * faults of a degraded tree, "missing link SW<00,0> port 3 - ..."):
	 * how many, then line i */
	int (*num_notes)(const void *topo);
	void (*note)(const struct ibu_fabric *f, const void *topo, int i,
		     char *buf, size_t len);
	/* optional: a node's label ("SW<01,1>", "N(2,3)") for logs */
	void (*node_label)(const void *topo, int node, char *buf, size_t len);

	/* optional multicast: per-fabric load state, then one tree per key
	 * (MLID); a key routed again first releases its previous tree */
	int (*mcast_state_new)(const struct ibu_fabric *f, const void *topo,
			       void **state, struct ibu_err *e);
	void (*mcast_state_free)(void *state);
	void (*mcast_release)(void *state, uint32_t key);
	void (*mcast_prune)(void *state, int (*alive)(void *ctx, uint32_t key),
			    void *ctx);
	int (*mcast_tree)(const struct ibu_fabric *f, const void *topo,
			  void *state, const struct ibu_mcast_member *m, int n,
			  const struct ibu_engine_opts *o, uint32_t key,
			  struct ibu_engine_tree *tree, struct ibu_err *e);

	/* optional VL plan: SL of a path, VL of an SL through a port pair */
	int (*path_sl)(const struct ibu_fabric *f, const void *topo,
		       const struct ibu_lidmap *map,
		       const struct ibu_engine_opts *o, uint16_t slid,
		       uint16_t dlid);
	int (*sl2vl)(const struct ibu_fabric *f, const void *topo,
		     const struct ibu_engine_opts *o, int node, int in_port,
		     int out_port, uint8_t vl_of_sl[16]);
};

/* What one run computed; valid until ibu_engine_result_free(). */
struct ibu_engine_result {
	const struct ibu_engine_ops *ops;
	enum ibu_engine_stage stage;	/* last stage entered (failing one) */
	void *topo;
	struct ibu_lidmap map;
	struct ibu_lft lft;
};

/*
 * Runs every stage of ops on f (whose ports carry their LIDs) with options
 * o (NULL: the defaults). On failure
 * r->stage names the failing stage, e's message is prefixed by the stage
 * name and nothing stays allocated.
 */
int ibu_engine_run(const struct ibu_engine_ops *ops,
		   const struct ibu_fabric *f,
		   const struct ibu_engine_opts *o,
		   struct ibu_engine_result *r, struct ibu_err *e);
void ibu_engine_result_free(struct ibu_engine_result *r);

/* Every engine, NULL-terminated; ibu_engine_find() by name or NULL. */
const struct ibu_engine_ops *const *ibu_engine_list(void);
const struct ibu_engine_ops *ibu_engine_find(const char *name);
/* The first engine whose recognition accepts f (topo then owned by the
 * caller, free with ops->topo_free), or NULL with every reason in e. */
const struct ibu_engine_ops *ibu_engine_detect(const struct ibu_fabric *f,
					       const struct ibu_engine_opts *o,
					       void **topo, struct ibu_err *e);

/* the engines */
extern const struct ibu_engine_ops ibu_engine_cyclic;
extern const struct ibu_engine_ops ibu_engine_xy;

#endif
