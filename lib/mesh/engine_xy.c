/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "xy" ([Zhou10]): 2-D mesh recognition, XY unicast, union
 * multicast trees rooted on one common row, and the paper's VL plans, as
 * one ops table.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "gen_mesh.h"
#include "mesh.h"
#include "xy.h"
#include "mesh_faults.h"
#include "xy_detour.h"
#include "xy_mcast.h"
#include "vlplan.h"
#include "xy_verify.h"

static int parse_vl_plan(const char *text, int *value)
{
	enum ibu_vlplan_kind k;

	if (ibu_vlplan_parse(text, &k))
		return IBU_EINVAL;
	*value = (int)k;
	return IBU_OK;
}

static void format_vl_plan(int value, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ibu_vlplan_name((enum ibu_vlplan_kind)value));
}

static const struct ibu_engine_option options[] = {
	{ .key = "vl_plan", .values = "1|2-spread|2-direction|4-spread|4-direction",
	  .def = 0,
	  .help = "the virtual-lane plan of [Zhou10], sect. 3.2 (default 1: "
		  "one VL); programmed through SL2VL tables",
	  .parse = parse_vl_plan, .format = format_vl_plan, .needs_qos = 1 },
	/* the key cyclic declares too: one value serves both */
	IBU_ENGINE_OPTION_MAX_FAULTS,
};

#define OPT_VL_PLAN (&options[0])

static void topo_free(void *topo)
{
	if (!topo)
		return;
	ibu_mesh_free(topo);
	free(topo);
}

#define OPT_MAX_FAULTS (&options[1])

/* max_faults=: the most missing grid links of a damaged mesh, < 0 the
 * default. */
static int max_faults(const struct ibu_engine_opts *o)
{
	return ibu_engine_opt(o, OPT_MAX_FAULTS);
}

/* A damaged mesh routes around its faults with SL layers (xy_detour.h):
 * they need SL2VL tables (qos) and VLs for layers x plan. */
static int damaged_plan(struct ibu_mesh *t, const struct ibu_engine_opts *o,
			struct ibu_err *e)
{
	enum ibu_vlplan_kind k =
		(enum ibu_vlplan_kind)ibu_engine_opt(o, OPT_VL_PLAN);
	int P = ibu_vlplan_num_vls(k), vls = o && o->max_vls > 0 ?
					     o->max_vls : 15, rc;

	if (o && o->qos == 0)
		return ibu_err_set(e, IBU_ETOPO,
				   "damaged %d x %d mesh (%d faults): its detours need SL layers, and OpenSM programs SL2VL tables only with `qos TRUE`",
				   t->m, t->n, t->dmg->num_faults);
	rc = ibu_xy_detour_plan(t, (vls < 16 ? vls : 16) / P, e);
	if (rc)
		ibu_err_prefix(e, "damaged %d x %d mesh, vl_plan=%s, %d data VLs: ",
			       t->m, t->n, ibu_vlplan_name(k), vls);
	return rc;
}

static int every_switch_has_endports(const struct ibu_mesh *t)
{
	int s;

	for (s = 0; s < t->num_switches; s++)
		if (!t->sw[s].num_eps)
			return 0;
	return 1;
}

static int recognise(const struct ibu_fabric *f,
		     const struct ibu_engine_opts *o, void **topo,
		     enum ibu_engine_decline_kind *why, struct ibu_err *e)
{
	struct ibu_mesh *t = calloc(1, sizeof(*t));
	int rc;

	*topo = NULL;
	*why = IBU_DECLINE_RESOURCES;
	if (!t)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = ibu_mesh_recognize_damaged(f, t, max_faults(o), e);
	*why = IBU_DECLINE_TOPOLOGY;
	if (!rc && t->dmg) {
		/* a damaged mesh it routes, if qos and the VLs allow */
		rc = damaged_plan(t, o, e);
		*why = IBU_DECLINE_CONFIG;
	}
	if (rc == IBU_ENOMEM)
		*why = IBU_DECLINE_RESOURCES;
	else if (rc && rc != IBU_ETOPO)
		*why = IBU_DECLINE_ERROR;
	if (rc) {
		ibu_mesh_free(t);
		free(t);
		return rc;
	}
	*topo = t;
	/* one switch, or a line with a switch that has no end ports (as a
	 * spine has): any engine routes it the same (one path between any
	 * two switches), so detection lets a fat-tree engine take it (the
	 * one-level tree of one switch's hosts, leaves under a spine) */
	*why = t->n == 1 && (t->m == 1 || !every_switch_has_endports(t)) ?
	       IBU_DECLINE_DEGENERATE : IBU_DECLINE_NONE;
	return IBU_OK;
}

static int route(const struct ibu_fabric *f, void *topo,
		 const struct ibu_lidmap *map, const struct ibu_engine_opts *o,
		 struct ibu_lft *lft, struct ibu_err *e)
{
	const struct ibu_mesh *t = topo;

	(void)o;
	return ibu_xy_route(f, t, map, lft, e);
}

/* XY needs one LID per end port: LMC 0 unless asked for more. */
static int assign_lids(struct ibu_fabric *f, const void *topo, int lmc,
		       int paper_exact, int *lmc_used, struct ibu_err *e)
{
	if (lmc < 0)
		lmc = 0;
	*lmc_used = lmc;
	return ibu_xy_assign_lids(f, topo, lmc, paper_exact, e);
}

static void describe(const struct ibu_fabric *f, const void *topo, char *buf,
		     size_t len)
{
	const struct ibu_mesh *t = topo;
	int s, lo = -1, hi = 0, lmc = -1, i, present = 0;

	for (s = 0; s < t->num_switches; s++) {
		if (t->sw[s].node < 0)
			continue;	/* a damaged mesh's missing switch */
		present++;
		if (lo < 0 || t->sw[s].num_eps < lo)
			lo = t->sw[s].num_eps;
		if (t->sw[s].num_eps > hi)
			hi = t->sw[s].num_eps;
	}
	for (i = 0; i < t->num_endports; i++) {
		int l = f->nodes[t->ep[i].node].ports[t->ep[i].port].lmc;

		if (lmc < 0 || l < lmc)
			lmc = l;
	}
	if (lo == hi)
		snprintf(buf, len,
			 "%d x %d mesh: %d switches, %d end ports (%d per switch), LMC %d",
			 t->m, t->n, present, t->num_endports, lo,
			 lmc < 0 ? 0 : lmc);
	else
		snprintf(buf, len,
			 "%d x %d mesh: %d switches, %d end ports (%d to %d per switch), LMC %d",
			 t->m, t->n, present, t->num_endports, lo, hi,
			 lmc < 0 ? 0 : lmc);
	if (t->dmg) {
		size_t o = strlen(buf);

		snprintf(buf + o, len > o ? len - o : 0,
			 "; damaged: %d faults (%d missing switches, %d missing links, limit %d), %ld of %ld switch pairs on detours, %d SL layers",
			 t->dmg->num_faults, t->dmg->missing_switches,
			 t->dmg->missing_links, t->dmg->max_faults,
			 t->dmg->detour_pairs,
			 (long)(t->num_switches - t->dmg->missing_switches) *
				 (t->num_switches - t->dmg->missing_switches - 1),
			 t->dmg->num_layers);
	}
}

/* One note per fault of a damaged mesh, then their count. */
static int num_notes(const void *topo)
{
	const struct ibu_mesh *t = topo;

	return t->dmg && t->dmg->num_faults ? t->dmg->num_faults + 1 : 0;
}

static void note(const struct ibu_fabric *f, const void *topo, int i,
		 struct ibu_engine_note *out)
{
	const struct ibu_mesh *t = topo;
	int n = t->dmg ? t->dmg->num_faults : 0, o;

	out->severity = IBU_NOTE_SEV_WARNING;
	if (i < n) {
		out->kind = IBU_NOTE_FAULT;
		o = snprintf(out->text, sizeof(out->text), "fault %d of %d: ",
			     i + 1, n);
		if (o > 0 && (size_t)o < sizeof(out->text))
			ibu_mesh_fault_text(f, t, i, out->text + o,
					    sizeof(out->text) - (size_t)o);
	} else {
		out->kind = IBU_NOTE_FAULTS;
		snprintf(out->text, sizeof(out->text),
			 "%d faults (missing links and switches) routed around: detours on %d SL layers",
			 n, t->dmg ? t->dmg->num_layers : 0);
	}
}

static void node_label(const void *topo, int node, char *buf, size_t len)
{
	const struct ibu_mesh *t = topo;

	ibu_mesh_sw_label(t, ibu_mesh_sw(t, node), buf, len);
}

/* Position order: switches x-major (x * n + y), then their end ports by
 * port GUID; what shift permutations number the hosts by. */
static int endport_index(const void *topo, int node, int port)
{
	const struct ibu_mesh *t = topo;

	if (node < 0 || node >= t->num_fabric_nodes || port < 1 ||
	    t->port_base[node] + port >= t->port_base[node + 1])
		return -1;
	return t->ep_of_port[t->port_base[node] + port];
}

/* Drawn as the grid: a row of switches per y (the largest on top), each
 * followed by a row of their end ports; switches by x, end ports by their
 * switch's x and their place among its end ports. */
static int layout(const struct ibu_fabric *f, const void *topo, int node,
		  int *row, double *key)
{
	const struct ibu_mesh *t = topo;
	int s = ibu_mesh_sw(t, node), i;

	(void)f;
	if (s >= 0) {
		*row = 2 * (t->n - 1 - t->sw[s].y);
		*key = t->sw[s].x;
		return 0;
	}
	for (i = 0; i < t->num_endports; i++)
		if (t->ep[i].node == node) {
			s = t->ep[i].sw;
			*row = 2 * (t->n - 1 - t->sw[s].y) + 1;
			*key = t->sw[s].x + (i - t->sw[s].first_ep + 1.0) /
					    (t->sw[s].num_eps + 1.0);
			return 0;
		}
	return -1;
}

/* the ibu_mcload_state_* ops rely on it */
_Static_assert(offsetof(struct ibu_xy_mcast_load, core) == 0,
	       "the multicast load state begins with its struct ibu_mcload");

static int mcast_state_new(const struct ibu_fabric *f, const void *topo,
			   void **state, struct ibu_err *e)
{
	struct ibu_xy_mcast_load *l = calloc(1, sizeof(*l));
	int rc;

	(void)f;
	*state = NULL;
	if (!l)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = ibu_xy_mcast_load_init(l, topo, e);
	if (rc) {
		free(l);
		return rc;
	}
	*state = l;
	return IBU_OK;
}

static int mcast_tree(const struct ibu_fabric *f, const void *topo,
		      void *state, const struct ibu_mcast_member *m, int n,
		      const struct ibu_engine_opts *o, uint32_t key,
		      struct ibu_engine_tree *tree, struct ibu_err *e)
{
	const struct ibu_mesh *t = topo;
	struct ibu_xy_mcast_tree xt;
	char lab[32];
	int i, rc;

	memset(tree, 0, sizeof(*tree));
	tree->root = -1;
	if (t->dmg) {
		/* one spanning tree for all groups (its flooding is what
		 * the layer proof covers): mcast_apex does not apply, but
		 * the trees count in the load like the intact mesh's */
		rc = ibu_xy_detour_mcast_tree(f, t, m, n, &xt, e);
		if (!rc && state) {
			rc = ibu_xy_mcast_load_record(state, key, &xt, e);
			if (rc)
				ibu_xy_mcast_tree_free(&xt);
		}
	} else
		rc = ibu_xy_mcast_tree_build(f, t, m, n, o->mcast_policy,
					     state, key, &xt, e);
	if (rc)
		return rc;
	rc = ibu_engine_tree_alloc(tree, xt.num_switches, e);
	if (rc) {
		ibu_xy_mcast_tree_free(&xt);
		if (state)
			ibu_xy_mcast_load_release(state, key);
		return rc;
	}
	tree->root = xt.root >= 0 ? t->sw[xt.root].node : -1;
	tree->num_members = xt.num_members;
	tree->num_receivers = xt.num_receivers;
	for (i = 0; i < xt.num_switches; i++) {
		tree->nodes[i] = t->sw[xt.switches[i]].node;
		tree->ports[i] = xt.ports[xt.switches[i]];
	}
	ibu_mesh_sw_label(t, xt.root, lab, sizeof(lab));
	if (t->dmg)
		snprintf(tree->info, sizeof(tree->info),
			 "root %s (damaged mesh: part of the one spanning tree, its flooding in SL layer %d; mcast_apex does not apply)",
			 lab, t->dmg->mlayer);
	else if (xt.policy == IBU_MCAST_SOURCE)
		snprintf(tree->info, sizeof(tree->info),
			 "root %s (source: the send-only member's switch)", lab);
	else
		snprintf(tree->info, sizeof(tree->info),
			 "root %s (%s, %d candidates on root row y=%d)", lab,
			 ibu_mcast_policy_name(xt.policy), xt.num_candidates,
			 ibu_xy_mcast_root_row(t));
	ibu_xy_mcast_tree_free(&xt);
	return IBU_OK;
}

static int point_of(const struct ibu_mesh *t, const struct ibu_lidmap *map,
		    uint16_t lid)
{
	const struct ibu_lid_owner *ow = ibu_lidmap_get(map, lid);

	return ow ? ibu_vlplan_point(t, ow->node, ow->port) : -1;
}

static int path_sl(const struct ibu_fabric *f, const void *topo,
		   const struct ibu_lidmap *map,
		   const struct ibu_engine_opts *o, uint16_t slid,
		   uint16_t dlid)
{
	const struct ibu_mesh *t = topo;
	const struct ibu_lid_owner *so = ibu_lidmap_get(map, slid);
	int a = point_of(topo, map, slid), b = point_of(topo, map, dlid);

	(void)f;
	if (t->dmg)
		return so ? ibu_xy_detour_path_sl(t, ibu_engine_opt(o, OPT_VL_PLAN),
						  map, so->node,
						  so->port, dlid) : 0;
	if (a < 0 || b < 0)
		return 0;
	return ibu_vlplan_path_sl(ibu_engine_opt(o, OPT_VL_PLAN), (unsigned)a,
				  (unsigned)b);
}

static int sl2vl(const struct ibu_fabric *f, const void *topo,
		 const struct ibu_engine_opts *o, int node, int in_port,
		 int out_port, uint8_t vl_of_sl[16])
{
	const struct ibu_mesh *t = topo;

	(void)f;
	if (t->dmg)
		return ibu_xy_detour_sl2vl(ibu_engine_opt(o, OPT_VL_PLAN), t,
					   node, in_port, out_port, vl_of_sl);
	return ibu_vlplan_sl2vl(ibu_engine_opt(o, OPT_VL_PLAN), topo, node,
				in_port, out_port, vl_of_sl);
}

static void check_free(void *state)
{
	free(state);
}

/* XY: every entry X first, then Y, then the end port. */
static int check_rule(const struct ibu_fabric *f, void *topo,
		      const struct ibu_engine_opts *o,
		      const struct ibu_engine_check_in *in,
		      struct ibu_verify_rule *rule, void **state, char *info,
		      size_t len, struct ibu_err *e)
{
	struct ibu_xy_rule *x = calloc(1, sizeof(*x));

	(void)f;
	(void)o;
	(void)in;
	*state = x;
	if (!x)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	x->t = topo;
	ibu_xy_verify_rule(rule, x);
	if (len)
		info[0] = '\0';	/* the rule's summary says it all */
	return IBU_OK;
}

const struct ibu_engine_ops ibu_engine_xy = {
	.name = "xy",
	.topology = "2-D mesh",
	.options = options,
	.num_options = (int)(sizeof(options) / sizeof(options[0])),
	.recognise = recognise,
	.topo_free = topo_free,
	.route = route,
	.assign_lids = assign_lids,
	.describe = describe,
	.num_notes = num_notes,
	.note = note,
	.report = {
		.node_label = node_label,
		.endport_index = endport_index,
		.layout = layout,
	},
	.rule = {
		.check = check_rule,
		.state_free = check_free,
	},
	.mcast = {
		.state_new = mcast_state_new,
		/* the load state begins with its struct ibu_mcload */
		.state_free = ibu_mcload_state_free,
		.release = ibu_mcload_state_release,
		.prune = ibu_mcload_state_prune,
		.tree = mcast_tree,
	},
	.vl = {
		.path_sl = path_sl,
		.sl2vl = sl2vl,
	},
	.gen = &ibu_xy_gen,
	.num_gen = 1,
};
