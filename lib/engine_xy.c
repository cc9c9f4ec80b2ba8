/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "xy" (paper 001): 2-D mesh recognition, XY unicast, union
 * multicast trees rooted on one common row, and the paper's VL plans, as
 * one ops table.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "mesh.h"
#include "xy.h"
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
	  .help = "the virtual-lane plan of paper 001, sect. 3.2 (default 1: "
		  "one VL); programmed through SL2VL tables",
	  .parse = parse_vl_plan, .format = format_vl_plan, .needs_qos = 1 },
};

#define OPT_VL_PLAN (&options[0])

static void topo_free(void *topo)
{
	if (!topo)
		return;
	ibu_mesh_free(topo);
	free(topo);
}

static int recognise(const struct ibu_fabric *f,
		     const struct ibu_engine_opts *o, void **topo,
		     struct ibu_err *e)
{
	struct ibu_mesh *t = calloc(1, sizeof(*t));
	int rc;

	(void)o;
	*topo = NULL;
	if (!t)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = ibu_mesh_recognize(f, t, e);
	if (rc) {
		free(t);
		return rc;
	}
	*topo = t;
	return IBU_OK;
}

static int route(const struct ibu_fabric *f, void *topo,
		 const struct ibu_lidmap *map, const struct ibu_engine_opts *o,
		 struct ibu_lft *lft, struct ibu_err *e)
{
	(void)o;
	return ibu_xy_route(f, topo, map, lft, e);
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
	int s, lo = -1, hi = 0, lmc = -1, i;

	for (s = 0; s < t->num_switches; s++) {
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
			 t->m, t->n, t->num_switches, t->num_endports, lo,
			 lmc < 0 ? 0 : lmc);
	else
		snprintf(buf, len,
			 "%d x %d mesh: %d switches, %d end ports (%d to %d per switch), LMC %d",
			 t->m, t->n, t->num_switches, t->num_endports, lo, hi,
			 lmc < 0 ? 0 : lmc);
}

static void node_label(const void *topo, int node, char *buf, size_t len)
{
	const struct ibu_mesh *t = topo;

	ibu_mesh_sw_label(t, ibu_mesh_sw(t, node), buf, len);
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
	rc = ibu_xy_mcast_tree_build(f, t, m, n, o->mcast_policy, state, key,
				     &xt, e);
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
	if (xt.policy == IBU_MCAST_SOURCE)
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
	int a = point_of(topo, map, slid), b = point_of(topo, map, dlid);

	(void)f;
	if (a < 0 || b < 0)
		return 0;
	return ibu_vlplan_path_sl(ibu_engine_opt(o, OPT_VL_PLAN), (unsigned)a,
				  (unsigned)b);
}

static int sl2vl(const struct ibu_fabric *f, const void *topo,
		 const struct ibu_engine_opts *o, int node, int in_port,
		 int out_port, uint8_t vl_of_sl[16])
{
	(void)f;
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
	.check_rule = check_rule,
	.check_free = check_free,
	.options = options,
	.num_options = (int)(sizeof(options) / sizeof(options[0])),
	.recognise = recognise,
	.topo_free = topo_free,
	.route = route,
	.assign_lids = assign_lids,
	.describe = describe,
	.node_label = node_label,
	.mcast_state_new = mcast_state_new,
	/* the load state begins with its struct ibu_mcload */
	.mcast_state_free = ibu_mcload_state_free,
	.mcast_release = ibu_mcload_state_release,
	.mcast_prune = ibu_mcload_state_prune,
	.mcast_tree = mcast_tree,
	.path_sl = path_sl,
	.sl2vl = sl2vl,
};
