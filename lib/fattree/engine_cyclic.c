/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "cyclic" ([Zhou07]): a fat tree, IBFT(m,n) or PGFT, exact or
 * degraded, recognised once as the PGFT it is (lib/fattree/cyclic_pgft.h,
 * c->pgft), with an IBFT's paper labels on it; one plan, one route: the
 * generalised rule by default, the paper's Eq. 2 on an IBFT with
 * offsets=paper. Every fat tree's multicast trees come from
 * lib/fattree/pgft_mcast.h.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "cyclic_gen.h"
#include "cyclic.h"
#include "cyclic_pgft.h"
#include "pgft_mcast.h"
#include "pgft_verify.h"

struct cyclic_topo {
	struct ibu_cyclic_pgft *pgft;
	int planned;
	int ordered;			/* 1: hosts in the admin's order */
	int order_ignored;		/* 1: an order file on an IBFT */
	int paper_ignored;		/* 1: offsets=paper on a PGFT */
	struct ibu_pgft_order_stats order;
};

static int parse_offsets(const char *text, int *value)
{
	enum ibu_cyclic_offsets m;

	if (ibu_cyclic_offsets_parse(text, &m))
		return IBU_EINVAL;
	*value = (int)m;
	return IBU_OK;
}

static void format_offsets(int value, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
		 ibu_cyclic_offsets_name((enum ibu_cyclic_offsets)value));
}

static const struct ibu_engine_option options[] = {
	IBU_ENGINE_OPTION_MAX_FAULTS,
	{ .key = "offsets", .values = "rotated|paper",
	  .def = IBU_OFFSETS_ROTATED,
	  .help = "how LID offsets become up-ports: rotated (offset 0 "
		  "spreads base LIDs as D-mod-k) or paper (Eq. 2 exactly)",
	  .parse = parse_offsets, .format = format_offsets },
};

#define OPT_MAX_FAULTS (&options[0])
#define OPT_OFFSETS (&options[1])

static void topo_free(void *topo)
{
	struct cyclic_topo *c = topo;

	if (!c)
		return;
	ibu_cyclic_pgft_free(c->pgft);
	free(c);
}

static int paper_mode(const struct ibu_engine_opts *o)
{
	return ibu_engine_opt(o, OPT_OFFSETS) == IBU_OFFSETS_PAPER;
}

/*
 * Every fat tree is the PGFT it is: an exact IBFT with the paper's
 * labels (lib/fattree/pgft_ibft.h), so one cut cable re-routes what
 * crossed it rather than switching every table to another rule; an exact
 * PGFT (fewer pods, parallel cables, blocking, hosts on spines are its
 * planned shape, not faults); a degraded IBFT or PGFT within the limit (a
 * missing cable or switch its peers have is a fault, never the planned
 * size of the tree). With offsets=paper an IBFT, exact or degraded, takes
 * the paper's Eq. 2 in its paper port order.
 */
static int recognise_tree(const struct ibu_fabric *f, struct cyclic_topo *c,
			  const struct ibu_engine_opts *o, struct ibu_err *e)
{
	struct ibu_err pe = { 0 };
	int max_faults = ibu_engine_opt(o, OPT_MAX_FAULTS), rc;

	rc = ibu_cyclic_pgft_recognise(f, o ? o->roots : NULL,
				       o ? o->num_roots : 0, max_faults,
				       paper_mode(o) ? IBU_CYCLIC_PAPER :
				       IBU_CYCLIC_GENERALISED, &c->pgft, &pe);
	if (rc == IBU_ETOPO)	/* admins and tests read the first words */
		return ibu_err_set(e, rc, "not an IBFT(m,n): %s", pe.msg);
	if (rc)
		return ibu_err_set(e, rc, "%s", pe.msg);
	return IBU_OK;
}

/* The admin's host order; an IBFT with offsets=paper keeps its PIDs. */
static int apply_order(const struct ibu_fabric *f, struct cyclic_topo *c,
		       const struct ibu_engine_opts *o, struct ibu_err *e)
{
	int rc;

	if (c->pgft->paper) {
		c->order_ignored = 1;
		return IBU_OK;
	}
	rc = ibu_pgft_apply_order(f, &c->pgft->g, o->host_order,
				  o->num_host_order, &c->order, e);
	/* the admin's numbering, not the PIDs: the tree is the PGFT it is,
	 * as before the paper's labels came to the PGFT path */
	ibu_pgft_ibft_free(c->pgft->ibft);
	c->pgft->ibft = NULL;
	c->pgft->numbered = 0;
	c->ordered = !rc;
	return rc;
}

static int recognise(const struct ibu_fabric *f,
		     const struct ibu_engine_opts *o, void **topo,
		     enum ibu_engine_decline_kind *why, struct ibu_err *e)
{
	struct cyclic_topo *c = calloc(1, sizeof(*c));
	int rc;

	*topo = NULL;
	*why = IBU_DECLINE_RESOURCES;
	if (!c)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = recognise_tree(f, c, o, e);
	if (!rc && o && o->host_order)
		rc = apply_order(f, c, o, e);
	/* Eq. 2 is the IBFT's; a PGFT keeps the rotated rule (offset 0 =
	 * D-mod-K), and says so rather than ignore the option silently */
	c->paper_ignored = !rc && paper_mode(o) && !c->pgft->paper;
	if (rc) {
		/* no IBFT, PGFT or degraded IBFT within max_faults: all are
		 * the shape of the fabric, none a failure of ours */
		*why = rc == IBU_ENOMEM ? IBU_DECLINE_RESOURCES :
		       rc == IBU_ETOPO ? IBU_DECLINE_TOPOLOGY :
		       IBU_DECLINE_ERROR;
		topo_free(c);	/* a PGFT whose order failed is allocated */
		return rc;
	}
	*topo = c;
	return IBU_OK;
}

static int plan(const struct ibu_fabric *f, void *topo,
		const struct ibu_lidmap *map, struct ibu_err *e)
{
	struct cyclic_topo *c = topo;
	int rc;

	(void)map;
	rc = ibu_cyclic_pgft_plan(f, c->pgft, e);
	c->planned = !rc;
	return rc;
}

static int route(const struct ibu_fabric *f, void *topo,
		 const struct ibu_lidmap *map, const struct ibu_engine_opts *o,
		 struct ibu_lft *lft, struct ibu_err *e)
{
	struct cyclic_topo *c = topo;

	(void)o;
	if (!c->planned)
		return ibu_err_set(e, IBU_EINVAL, "no LID plan");
	return ibu_cyclic_pgft_route(f, c->pgft, map, lft, e);
}

static int assign_lids(struct ibu_fabric *f, const void *topo, int lmc,
		       int paper_exact, int *lmc_used, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;

	return ibu_cyclic_pgft_assign_lids(f, c->pgft, lmc, paper_exact,
					   lmc_used, e);
}

static int may_leave_unrouted(const void *topo, int node, uint32_t lid)
{
	const struct cyclic_topo *c = topo;

	return ibu_cyclic_pgft_may_leave_unrouted(c->pgft, node, lid);
}

static void describe(const struct ibu_fabric *f, const void *topo, char *buf,
		     size_t len)
{
	const struct cyclic_topo *c = topo;
	const struct ibu_pgft_ibft *x = c->pgft->ibft;

	(void)f;
	if (c->planned)
		ibu_cyclic_pgft_describe(c->pgft, buf, len);
	else if (x)	/* recognised only (mcast tree): no LIDs yet */
		snprintf(buf, len, "IBFT(%d,%d): %d switches, %d end ports",
			 x->m, x->n, c->pgft->g.num_switches,
			 c->pgft->g.num_hosts);
	else
		ibu_pgft_describe(&c->pgft->g, buf, len);
}

/* Fault notes: one per fault record (a record may stand for several). */
static int fault_notes(const struct cyclic_topo *c)
{
	return c->pgft->g.num_fault_recs;
}

static int num_faults(const struct cyclic_topo *c)
{
	return c->pgft->g.num_faults;
}

/* One note per fault, then their count, then the entries left unrouted. */
static int num_notes(const void *topo)
{
	const struct cyclic_topo *c = topo;

	return fault_notes(c) + (fault_notes(c) > 0) +
	       (c->pgft->st.unrouted > 0) + (c->ordered || c->order_ignored) +
	       c->paper_ignored;
}

/* The last note: what became of the admin's host order. */
static void order_note(const struct cyclic_topo *c, struct ibu_engine_note *out)
{
	const struct ibu_pgft_order_stats *s = &c->order;

	out->kind = IBU_NOTE_INFO;
	out->severity = IBU_NOTE_SEV_INFO;
	if (c->order_ignored) {
		snprintf(out->text, sizeof(out->text),
			 "host order: guid_routing_order_file not applied: with offsets=paper an IBFT(m,n) numbers its end ports by the paper's labels");
		return;
	}
	if (s->absent || s->unknown || s->reordered)
		out->severity = IBU_NOTE_SEV_WARNING;
	snprintf(out->text, sizeof(out->text),
		 "host order: guid_routing_order_file, %d compute hosts listed, %d not listed (numbered after them), %d GUIDs no compute host, %d listed hosts moved to keep sub-trees together%s",
		 s->listed, s->absent, s->unknown, s->reordered,
		 s->reordered ? " (the file interleaves sub-trees: shifts in its order are not all contention-free)" : "");
}

static void note(const struct ibu_fabric *f, const void *topo, int i,
		 struct ibu_engine_note *out)
{
	const struct cyclic_topo *c = topo;
	int n = fault_notes(c), o;

	if (c->paper_ignored && i == num_notes(topo) - 1) {
		out->kind = IBU_NOTE_INFO;
		out->severity = IBU_NOTE_SEV_WARNING;
		snprintf(out->text, sizeof(out->text),
			 "offsets=paper not applied: the paper's Eq. 2 is defined for IBFT(m,n); this PGFT is routed with the rotated rule (offset 0 = D-mod-K)");
		return;
	}
	if (i >= n + (n > 0) + (c->pgft->st.unrouted > 0)) {
		order_note(c, out);
		return;
	}
	out->severity = IBU_NOTE_SEV_WARNING;
	if (i < n) {
		out->kind = IBU_NOTE_FAULT;
		o = snprintf(out->text, sizeof(out->text), "fault %d of %d: ",
			     i + 1, n);
		if (o > 0 && (size_t)o < sizeof(out->text))
			ibu_pgft_fault_text(f, &c->pgft->g, i, out->text + o,
					    sizeof(out->text) - (size_t)o);
	} else if (i == n && n > 0) {
		out->kind = IBU_NOTE_FAULTS;
		snprintf(out->text, sizeof(out->text),
			 "%d faults (missing links and switches) routed around",
			 num_faults(c));
	} else {
		out->kind = IBU_NOTE_UNROUTED;
		snprintf(out->text, sizeof(out->text),
			 "%ld (leaf switch, LID) entries left unrouted: no up*/down* path from that leaf, only down-up turns (a credit-loop risk)",
			 c->pgft->st.unrouted);
	}
}

static void node_label(const void *topo, int node, char *buf, size_t len)
{
	const struct cyclic_topo *c = topo;

	ibu_cyclic_pgft_node_label(c->pgft, node, buf, len);
}

/*
 * One builder for every fat tree's trees (lib/fattree/pgft_mcast.h: apex
 * at the members' lowest common level, so a group inside one leaf or pod
 * stays there). The paper's labels (source's up-digits, ties) on an IBFT,
 * exact or degraded with the paper's rule, as its trees were before;
 * else the PGFT's columns and D-mod-K climbs. Multicast never depends on
 * the unicast rule.
 */
static const struct ibu_pgft_ibft *mcast_labels(const struct cyclic_topo *c)
{
	const struct ibu_cyclic_pgft *g = c->pgft;

	return g->ibft && (!g->g.num_faults || g->paper) ? g->ibft : NULL;
}

static int mcast_state_new(const struct ibu_fabric *f, const void *topo,
			   void **state, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;

	*state = NULL;
	return ibu_pgft_mcast_load_new(f, &c->pgft->g,
				       (struct ibu_pgft_mcast_load **)state, e);
}

/* The tree as the engine-neutral one; info: "apex SW<00,0> (source, level
 * 0, 4 candidates)", levels as the label counts them (an IBFT's from the
 * top, a PGFT's from the leaves). */
static int export_tree(const struct cyclic_topo *c,
		       const struct ibu_pgft_mcast_tree *pt,
		       struct ibu_engine_tree *tree, struct ibu_err *e)
{
	const struct ibu_cyclic_pgft *g = c->pgft;
	char label[64];
	int i, rc;

	rc = ibu_engine_tree_alloc(tree, pt->num_switches, e);
	if (rc)
		return rc;
	tree->root = pt->apex;
	tree->num_members = pt->num_members;
	tree->num_receivers = pt->num_receivers;
	for (i = 0; i < pt->num_switches; i++) {
		tree->nodes[i] = pt->nodes[i];
		tree->ports[i] = pt->ports[i];
	}
	if (pt->apex >= 0)
		ibu_cyclic_pgft_node_label(g, pt->apex, label, sizeof(label));
	else
		snprintf(label, sizeof(label), "none");
	snprintf(tree->info, sizeof(tree->info),
		 "apex %s (%s, level %d, %d candidates%s)", label,
		 ibu_mcast_policy_name(pt->policy),
		 g->ibft ? g->g.P.h - pt->level : pt->level,
		 pt->num_candidates, pt->apex < 0 || pt->common ? "" :
		 g->g.num_faults ? ", among the tops that reach the most members down" :
		 ", a top a member sits on");
	return IBU_OK;
}

static int mcast_tree(const struct ibu_fabric *f, const void *topo,
		      void *state, const struct ibu_mcast_member *m, int n,
		      const struct ibu_engine_opts *o, uint32_t key,
		      struct ibu_engine_tree *tree, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;
	struct ibu_pgft_mcast_load *l = state;
	struct ibu_pgft_mcast_tree pt;
	int rc;

	memset(tree, 0, sizeof(*tree));
	tree->root = -1;
	rc = ibu_pgft_mcast_tree_build(f, &c->pgft->g, mcast_labels(c), m, n,
				       o->mcast_policy, l, key, &pt, e);
	if (rc)
		return rc;
	rc = export_tree(c, &pt, tree, e);
	ibu_pgft_mcast_tree_free(&pt);
	if (rc) {
		if (l)
			ibu_mcload_release(&l->core, key);
		ibu_engine_tree_free(tree);
	}
	return rc;
}

static int port_number(const void *topo, int node, int port)
{
	const struct cyclic_topo *c = topo;

	return c->pgft->ibft ? ibu_pgft_ibft_port(c->pgft->f, &c->pgft->g,
						  c->pgft->ibft, node, port) :
	       -1;
}

/* Cyclic routes are up*|down*: switch level, end ports below the leaves. */
static int rank(const void *topo, int node)
{
	const struct cyclic_topo *c = topo;
	const struct ibu_pgft *g = &c->pgft->g;
	int l = node >= 0 && node < g->num_nodes ? g->level[node] : 0;

	return l >= 1 ? g->P.h - l : g->P.h;
}

static int endport_index(const void *topo, int node, int port)
{
	const struct cyclic_topo *c = topo;

	return ibu_cyclic_pgft_endport_index(c->pgft, node, port);
}

static int num_ordered(const void *topo)
{
	const struct cyclic_topo *c = topo;

	return c->pgft->g.num_hosts;
}

static void endport_label(const void *topo, int node, int port, char *buf,
			  size_t len)
{
	const struct cyclic_topo *c = topo;
	int D = ibu_cyclic_pgft_endport_index(c->pgft, node, port);

	if (D >= 0 && c->pgft->ibft)
		ibu_pgft_ibft_ep_label(c->pgft->ibft, D, buf, len);
	else if (D >= 0)
		snprintf(buf, len, "H%d", D);
	else
		snprintf(buf, len, "-");
}

static int ensure_planned(const struct ibu_fabric *f, void *topo,
			  struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;

	return c->planned ? IBU_OK : plan(f, topo, NULL, e);
}

/* The DLID offset of a pair, for the rule the tables follow. */
static long advised_offset(const struct ibu_fabric *f, void *topo,
			   const struct ibu_engine_opts *o, int sn, int sp,
			   int dn, int dp)
{
	struct cyclic_topo *c = topo;
	int s, d;

	(void)o;
	if (ensure_planned(f, topo, NULL))
		return -1;
	s = ibu_pgft_host(&c->pgft->g, sn, sp);
	d = ibu_pgft_host(&c->pgft->g, dn, dp);
	return s >= 0 && d >= 0 ? (long)ibu_cyclic_pgft_offset(c->pgft, s, d) :
	       -1;
}

/* ibunion path's frame: the tree, the LMC in use, what it leaves open. */
static int path_info(const struct ibu_fabric *f, void *topo,
		     const struct ibu_engine_opts *o,
		     struct ibu_engine_path_info *pi, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;
	const struct ibu_cyclic_pgft *g = c->pgft;
	int rc = ensure_planned(f, topo, e);

	(void)o;
	memset(pi, 0, sizeof(*pi));
	if (rc)
		return rc;
	ibu_pgft_params_text(&g->g.P, pi->topology, sizeof(pi->topology));
	snprintf(pi->title, sizeof(pi->title), "%s, LMC %d", pi->topology,
		 g->lmc);
	pi->lmc = g->lmc;
	pi->turn_head = "turns at";
	if (g->ibft) {		/* the rule the tables follow */
		pi->offsets = ibu_cyclic_offsets_name(g->paper ?
						      IBU_OFFSETS_PAPER :
						      IBU_OFFSETS_ROTATED);
		snprintf(pi->topology, sizeof(pi->topology), "IBFT(%d,%d)",
			 g->ibft->m, g->ibft->n);
		snprintf(pi->title, sizeof(pi->title), "%s, LMC %d, offsets %s",
			 pi->topology, g->lmc, pi->offsets);
		pi->turn_head = "climbs to";
	}
	if (g->offset_levels < g->g.P.h - 1)
		snprintf(pi->warning, sizeof(pi->warning),
			 "LMC %d decides %d of %d up levels: above them the destination decides (LMC %d needed for one chain all the way up)",
			 g->lmc, g->offset_levels, g->g.P.h - 1,
			 g->lmc_needed);
	return IBU_OK;
}

/* The top of the pair's climb on its advised offset. */
static int turn_node(const struct ibu_fabric *f, void *topo,
		     const struct ibu_engine_opts *o, int sn, int sp, int dn,
		     int dp, long off)
{
	const struct cyclic_topo *c = topo;
	int s, d;

	(void)o;
	if (off < 0 || ensure_planned(f, topo, NULL))
		return -1;
	s = ibu_pgft_host(&c->pgft->g, sn, sp);
	d = ibu_pgft_host(&c->pgft->g, dn, dp);
	return s >= 0 && d >= 0 ? ibu_cyclic_pgft_turn(f, c->pgft, s, d) : -1;
}

/* Rows are the levels, end ports below the leaves; an IBFT's switches
 * ordered by their labels, end ports by index. */
static int layout(const struct ibu_fabric *f, const void *topo, int node,
		  int *row, double *key)
{
	const struct cyclic_topo *c = topo;

	return ibu_cyclic_pgft_layout(f, c->pgft, node, row, key);
}

struct check_state {
	struct ibu_pgft_rule prule;
	struct ibu_dlid_pairs pairs;
};

static void check_free(void *state)
{
	struct check_state *st = state;

	if (!st)
		return;
	ibu_dlid_pairs_free(&st->pairs);
	free(st);
}

static int check_rule(const struct ibu_fabric *f, void *topo,
		      const struct ibu_engine_opts *o,
		      const struct ibu_engine_check_in *in,
		      struct ibu_verify_rule *rule, void **state, char *info,
		      size_t len, struct ibu_err *e)
{
	struct cyclic_topo *c = topo;
	struct check_state *st;
	int rc = c->planned ? IBU_OK : plan(f, topo, NULL, e);

	(void)o;
	*state = NULL;
	if (rc)
		return rc;
	st = calloc(1, sizeof(*st));
	if (!st)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	if (in && in->dlids) {
		rc = ibu_dlid_pairs_read(in->dlids, &st->pairs, e);
		if (rc) {
			check_free(st);
			return rc;
		}
		st->prule.dlids = &st->pairs;
	}
	st->prule.g = &c->pgft->g;
	st->prule.lmc = c->pgft->lmc;
	st->prule.paper = c->pgft->paper;
	st->prule.labels = c->pgft->ibft;
	st->prule.climb_sources = in ? in->climb_sources : 0;
	ibu_pgft_verify_rule(rule, &st->prule);
	ibu_cyclic_pgft_describe(c->pgft, info, len);
	*state = st;
	return IBU_OK;
}

const struct ibu_engine_ops ibu_engine_cyclic = {
	.name = "cyclic",
	.topology = "IBFT(m,n) or PGFT",
	.topology_long = "an m-port n-tree (IBFT) or a PGFT",
	.options = options,
	.num_options = (int)(sizeof(options) / sizeof(options[0])),
	.recognise = recognise,
	.topo_free = topo_free,
	.plan = plan,
	.route = route,
	.assign_lids = assign_lids,
	.may_leave_unrouted = may_leave_unrouted,
	.describe = describe,
	.num_notes = num_notes,
	.note = note,
	.report = {
		.node_label = node_label,
		.port_number = port_number,
		.port_numbering = "paper",
		.rank = rank,
		.endport_index = endport_index,
		.num_ordered = num_ordered,
		.endport_label = endport_label,
		.layout = layout,
	},
	.rule = {
		.check = check_rule,
		.state_free = check_free,
	},
	.advice = {
		.offset = advised_offset,
		.info = path_info,
		.turn_node = turn_node,
	},
	.mcast = {
		.state_new = mcast_state_new,
		/* the load state begins with its struct ibu_mcload */
		.state_free = ibu_mcload_state_free,
		.release = ibu_mcload_state_release,
		.prune = ibu_mcload_state_prune,
		.tree = mcast_tree,
	},
	.gen = ibu_cyclic_gen,
	.num_gen = IBU_CYCLIC_NUM_GEN,
};
