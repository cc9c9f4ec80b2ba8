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
 *              when the fabric is not the engine's topology: the result's
 *              decline holds the kind and the engine's own words)
 *   plan       the LIDs the ports carry are usable by the engine
 *   alloc      forwarding tables for every switch, sized to the LIDs
 *   route      unicast: every switch, every LID (end ports, switch LIDs)
 *   check      every LID that has an owner is routed on every switch and
 *              every port exists: a caller never gets a partial table
 *
 * Everything else is a capability the engine fills in as it needs it:
 * labels and layout for reports, the rule ibunion check applies, DLID
 * advice, multicast, a VL plan, fabric generators.
 * Engines keep everything in the topology state they allocate: no global
 * mutable state.
 */
#ifndef IBU_ENGINE_H
#define IBU_ENGINE_H

#include <stddef.h>
#include "fabric.h"
#include "fabric_gen.h"
#include "lidmap.h"
#include "lft.h"
#include "mft.h"
#include "mcgroup.h"
#include "engine_options.h"
#include "verify.h"

enum ibu_engine_stage {
	IBU_STAGE_RECOGNISE = 0,
	IBU_STAGE_PLAN,
	IBU_STAGE_ALLOC,
	IBU_STAGE_ROUTE,
	IBU_STAGE_CHECK,
};

/* "recognising the topology", ... for log lines. */
const char *ibu_engine_stage_name(enum ibu_engine_stage s);

/* Why an engine did not take a fabric (ibu_engine_result.decline). */
enum ibu_engine_decline_kind {
	IBU_DECLINE_NONE = 0,		/* the engine took the fabric */
	IBU_DECLINE_TOPOLOGY,		/* not the engine's topology, or damaged
					 * beyond what it routes around */
	IBU_DECLINE_RESOURCES,		/* out of memory while recognising */
	IBU_DECLINE_ERROR,		/* recognition failed otherwise */
	IBU_DECLINE_CONFIG,		/* the engine's topology, but the
					 * configuration cannot serve it (qos
					 * off, too few VLs for its layers) */
	IBU_DECLINE_DEGENERATE,		/* with IBU_OK: taken, but a case of
					 * its topology any other engine
					 * routes the same (xy's one switch);
					 * detection prefers a later engine
					 * that takes it */
};

struct ibu_engine_decline {
	enum ibu_engine_decline_kind kind;
	/* the engine's words, a sentence that reads after "the fabric is":
	 * "not an IBFT(m,n): leaf switch 'x' has 3 up links, not 2" */
	char text[IBU_ERR_MSG_LEN];
};

/* What the engine has to say after routing, worded by the engine; the
 * plugin logs it with the code of its kind, the tool prints it. */
enum ibu_engine_note_kind {
	IBU_NOTE_INFO = 0,		/* plain information */
	IBU_NOTE_FAULT,			/* one fault of the fabric routed around */
	IBU_NOTE_FAULTS,		/* the count of those faults */
	IBU_NOTE_UNROUTED,		/* entries left without a route on purpose */
};

enum ibu_engine_note_severity {
	IBU_NOTE_SEV_INFO = 0,
	IBU_NOTE_SEV_WARNING,		/* an admin should look at the fabric */
};

struct ibu_engine_note {
	enum ibu_engine_note_severity severity;
	enum ibu_engine_note_kind kind;
	char text[256];
};

/* What `ibunion check` hands an engine's rule besides f and its tables. */
struct ibu_engine_check_in {
	const char *dlids;	/* NULL, or a file of (SLID, DLID) pairs the
				 * sources use: check the rule's paths on
				 * those (ibunion path --format pairs) */
	int climb_sources;	/* sources whose paths are checked, 0 = all */
};

/* What `ibunion path` prints around an engine's advised DLIDs. */
struct ibu_engine_path_info {
	char title[160];	/* "IBFT(8,3), LMC 4, offsets rotated" */
	char topology[64];	/* "IBFT(8,3)" (JSON) */
	int lmc;		/* the LMC the advice is for */
	const char *offsets;	/* the offset mode's name, or NULL */
	const char *turn_head;	/* column head of turn_node: "climbs to" */
	char warning[256];	/* "" or why the advice stops short ("LMC 2
				 * gives 1 of 2 up-digits: ...") */
};

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

/*
 * A fabric shape an engine generates (ibunion gen SHAPE POSITIONAL...
 * [--KEY VALUE]...): make() reads its positional arguments and its own
 * options (each key once at most, only keys of its own table), builds f
 * with the shared options o and writes the net file's title into head
 * ("IBFT(4,3)"). IBU_EINVAL for a bad argument (a usage error).
 */
struct ibu_engine_gen {
	const char *shape;		/* "fattree" */
	const char *synopsis;		/* "M N [options]" */
	const char *help;		/* what it builds, lines of "  ...\n" */
	const char *const *keys;	/* its own options, NULL-terminated */
	const char *keys_help;		/* their usage lines */
	int num_positional;
	int (*make)(struct ibu_fabric *f, char *const *pos,
		    const struct ibu_gen_arg *args, int nargs,
		    const struct ibu_gen_opts *o, char *head, size_t len,
		    struct ibu_err *e);
};

/*
 * The capabilities an engine may have besides routing, each a group of
 * operations it fills in as it needs them. An empty group (left out of
 * the table) is a capability the engine lacks and its callers skip; the
 * operations of rule, mcast and vl come together or not at all, those of
 * report one by one (tests/test_engine_registry.c holds every engine to
 * that).
 */

/* Labels and layout for logs and reports (ibunion route/path/load/trace). */
struct ibu_engine_report {
	/* a node's label ("SW<01,1>", "N(2,3)") for logs */
	void (*node_label)(const void *topo, int node, char *buf, size_t len);
	/* the engine's own number of a switch's physical port (cyclic: the
	 * paper's k), -1 for none; port_numbering names it ("paper") in the
	 * tools' listings */
	int (*port_number)(const void *topo, int node, int port);
	const char *port_numbering;
	/* the node's up*|down* rank (0 = the top; end ports below every
	 * switch) when the engine's routes are up*|down* */
	int (*rank)(const void *topo, int node);
	/* an end port's place in the engine's order (cyclic: its PID, the
	 * paper's P(p_0..p_{n-1}) order), -1 outside it: traffic patterns
	 * (shift, ...) number the end ports this way */
	int (*endport_index)(const void *topo, int node, int port);
	/* how many of those places are the engine's host order (cyclic: the
	 * compute hosts of D-mod-K; end ports above the leaves are numbered
	 * after them but are no ranks for mpirun); absent: all */
	int (*num_ordered)(const void *topo);
	/* an end port's label ("P(010)") */
	void (*endport_label)(const void *topo, int node, int port, char *buf,
			      size_t len);
	/* where a node sits in a drawing of the topology: *row (0 = top)
	 * and *key (order inside the row); 0, or -1 to leave it to the
	 * generic layout */
	int (*layout)(const struct ibu_fabric *f, const void *topo, int node,
		      int *row, double *key);
};

/* The rule the engine's tables satisfy, for ibunion check. */
struct ibu_engine_rule {
	/*
	 * on the LIDs f carries: fills *rule (lib/analysis/verify.h) whose
	 * arg lives in *state (free with state_free) and a one-line info
	 * ("IBFT(4,3), LMC 2 in use ..."). IBU_ELID / IBU_EPARSE when the
	 * LIDs or in's files do not fit the rule.
	 */
	int (*check)(const struct ibu_fabric *f, void *topo,
		     const struct ibu_engine_opts *o,
		     const struct ibu_engine_check_in *in,
		     struct ibu_verify_rule *rule, void **state, char *info,
		     size_t len, struct ibu_err *e);
	void (*state_free)(void *state);
};

/* DLID advice: which of a destination's 2^LMC LIDs a source should use
 * (ibunion path, the load's advised DLIDs). */
struct ibu_engine_advice {
	/* the DLID offset (0..2^LMC-1) the engine advises a source (sn, sp)
	 * toward a destination (dn, dp) on the LIDs f carries; < 0 when it
	 * has none for that pair or those LIDs */
	long (*offset)(const struct ibu_fabric *f, void *topo,
		       const struct ibu_engine_opts *o, int sn, int sp, int dn,
		       int dp);
	/* plans the LIDs f carries if needed and fills *pi; IBU_ELID when
	 * they do not fit */
	int (*info)(const struct ibu_fabric *f, void *topo,
		    const struct ibu_engine_opts *o,
		    struct ibu_engine_path_info *pi, struct ibu_err *e);
	/* optional within the group: the switch (fabric node) where the
	 * route of the pair on DLID offset off turns down (cyclic: the top
	 * of its climb), -1 if unknown */
	int (*turn_node)(const struct ibu_fabric *f, void *topo,
			 const struct ibu_engine_opts *o, int sn, int sp,
			 int dn, int dp, long off);
};

/* Multicast: per-fabric load state (non-NULL on success), then one tree
 * per key (MLID); a key routed again first releases its previous tree. */
struct ibu_engine_mcast {
	int (*state_new)(const struct ibu_fabric *f, const void *topo,
			 void **state, struct ibu_err *e);
	void (*state_free)(void *state);
	void (*release)(void *state, uint32_t key);
	void (*prune)(void *state, int (*alive)(void *ctx, uint32_t key),
		      void *ctx);
	int (*tree)(const struct ibu_fabric *f, const void *topo, void *state,
		    const struct ibu_mcast_member *m, int n,
		    const struct ibu_engine_opts *o, uint32_t key,
		    struct ibu_engine_tree *tree, struct ibu_err *e);
};

/* sl2vl's vl_of_sl[s] for an SL the plan hands out to no path: the VL
 * OpenSM's QoS configuration gives it stays (no SL2VL MAD for it). */
#define IBU_VL_KEEP 0xFF

/* A VL plan: SL of a path, VL of an SL through a port pair. */
struct ibu_engine_vl {
	int (*path_sl)(const struct ibu_fabric *f, const void *topo,
		       const struct ibu_lidmap *map,
		       const struct ibu_engine_opts *o, uint16_t slid,
		       uint16_t dlid);
	int (*sl2vl)(const struct ibu_fabric *f, const void *topo,
		     const struct ibu_engine_opts *o, int node, int in_port,
		     int out_port, uint8_t vl_of_sl[16]);
	/* optional: 0 when this routing has no plan (path_sl -1, sl2vl
	 * an error: the QoS SLs and SL2VL stay); NULL: always one */
	int (*in_use)(const void *topo);
};

struct ibu_engine_ops {
	const char *name;		/* routing_engine name */
	const char *topology;		/* "IBFT(m,n)", "2-D mesh" */
	/* optional: the family in a sentence, "an m-port n-tree or a PGFT",
	 * for "FABRIC is not ..." when no engine takes a fabric */
	const char *topology_long;
	/* its options (engine_options.h): the plugin, the tool's -O and the
	 * man page read them from here */
	const struct ibu_engine_option *options;
	int num_options;

	/* ---- routing, what every engine has ---- */
	/* on failure the engine says why in *why (a kind above) and in e's
	 * text; the driver never guesses the kind from the return code */
	int (*recognise)(const struct ibu_fabric *f,
			 const struct ibu_engine_opts *o, void **topo,
			 enum ibu_engine_decline_kind *why, struct ibu_err *e);
	void (*topo_free)(void *topo);
	/* optional: check/keep what the engine needs from the LIDs */
	int (*plan)(const struct ibu_fabric *f, void *topo,
		    const struct ibu_lidmap *map, struct ibu_err *e);
	/* topo is the engine's own: route keeps its statistics there */
	int (*route)(const struct ibu_fabric *f, void *topo,
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
	/* one line: "IBFT(8,3): 80 switches, 128 end ports, LMC 4 (needs 4)" */
	void (*describe)(const struct ibu_fabric *f, const void *topo,
			 char *buf, size_t len);
	/* optional: what to say after a successful route, one note each
	 * (cyclic: "fault 1 of 3: missing link SW<00,0> port 3 - ...", their
	 * count, the entries left unrouted): how many, then note i */
	int (*num_notes)(const void *topo);
	void (*note)(const struct ibu_fabric *f, const void *topo, int i,
		     struct ibu_engine_note *out);

	/* ---- capabilities, each optional (see above) ---- */
	struct ibu_engine_report report;
	struct ibu_engine_rule rule;
	struct ibu_engine_advice advice;
	struct ibu_engine_mcast mcast;
	struct ibu_engine_vl vl;
	/* the shapes `ibunion gen` builds for this engine */
	const struct ibu_engine_gen *gen;
	int num_gen;
};

/* What one run computed; valid until ibu_engine_result_free(). */
struct ibu_engine_result {
	const struct ibu_engine_ops *ops;
	enum ibu_engine_stage stage;	/* last stage entered (failing one) */
	struct ibu_engine_decline decline;	/* why recognise said no */
	void *topo;
	int topo_lent;		/* topo the caller's: never freed here */
	struct ibu_lidmap map;
	struct ibu_lft lft;
	double stage_ms[IBU_STAGE_CHECK + 1];	/* wall time of each stage */
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
/*
 * The same, the tables written straight into rows the caller owns (rows
 * and cap as ibu_lft_init_rows(): OpenSM's new_lft, so the plugin keeps
 * no copy). On failure the rows hold a partial table: the caller clears
 * them.
 */
int ibu_engine_run_into(const struct ibu_engine_ops *ops,
			const struct ibu_fabric *f,
			const struct ibu_engine_opts *o, uint8_t *const *rows,
			const uint32_t *cap, struct ibu_engine_result *r,
			struct ibu_err *e);
/*
 * ibu_engine_run() with topo, what ops->recognise() returned for f and o
 * (ibu_engine_pick() in the tools): the stage is not run again (on a
 * damaged mesh it plans the detours). r owns topo from here on, also on
 * failure.
 */
int ibu_engine_run_recognised(const struct ibu_engine_ops *ops,
			      const struct ibu_fabric *f,
			      const struct ibu_engine_opts *o, void *topo,
			      struct ibu_engine_result *r, struct ibu_err *e);
/*
 * The same, topo only lent: r uses it and never frees it (the caller frees
 * it after ibu_engine_result_free(r)), for tools that keep the model past
 * the run (load, mcast). Plan and route write into topo as in any run (the
 * LID plan, the unicast kept for multicast turns); after a failure it may
 * hold part of one.
 */
int ibu_engine_run_lent(const struct ibu_engine_ops *ops,
			const struct ibu_fabric *f,
			const struct ibu_engine_opts *o, void *topo,
			struct ibu_engine_result *r, struct ibu_err *e);
/*
 * Routes again with the model of an earlier successful run r (topology
 * and LID plan kept: recognition and planning skipped) on a fabric that
 * ibu_fabric_same() finds equal to that run's and the same options: an
 * unchanged subnet re-swept. Fails as ibu_engine_run_into().
 */
int ibu_engine_rerun_into(const struct ibu_fabric *f,
			  const struct ibu_engine_opts *o,
			  uint8_t *const *rows, const uint32_t *cap,
			  struct ibu_engine_result *r, struct ibu_err *e);
void ibu_engine_result_free(struct ibu_engine_result *r);
/* d from recognise's kind and message e (NONE: d cleared; an engine that
 * failed without a kind declines as IBU_DECLINE_ERROR). */
void ibu_engine_decline_set(struct ibu_engine_decline *d, int rc,
			    enum ibu_engine_decline_kind kind,
			    const struct ibu_err *e);

/* Every engine, NULL-terminated; ibu_engine_find() by name or NULL. */
const struct ibu_engine_ops *const *ibu_engine_list(void);
const struct ibu_engine_ops *ibu_engine_find(const char *name);
/* The first engine whose recognition accepts f (topo then owned by the
 * caller, free with ops->topo_free), or NULL with every reason in e. */
const struct ibu_engine_ops *ibu_engine_detect(const struct ibu_fabric *f,
					       const struct ibu_engine_opts *o,
					       void **topo, struct ibu_err *e);

#endif
