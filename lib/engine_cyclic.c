/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "cyclic" (paper 000): IBFT(m,n) recognition, the paper's LID
 * plan, cyclic unicast and union multicast trees, as one ops table. A PGFT
 * that is not exactly an IBFT goes through lib/cyclic_pgft.h (c->pgft).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "cyclic.h"
#include "mcast.h"
#include "cyclic_pgft.h"
#include "pgft_mcast.h"

struct cyclic_topo {
	struct ibu_ibft t;
	struct ibu_lidplan p;
	int planned;
	struct ibu_cyclic_stats *stats;	/* of the last route (own block:
					 * route() gets a const topo) */
	struct ibu_cyclic_pgft *pgft;	/* a PGFT, not an IBFT: t unused */
};

static void topo_free(void *topo)
{
	struct cyclic_topo *c = topo;

	if (!c)
		return;
	ibu_lidplan_free(&c->p);
	ibu_ibft_free(&c->t);
	ibu_cyclic_pgft_free(c->pgft);
	free(c->stats);
	free(c);
}

/*
 * An exact IBFT keeps the IBFT path (labels, paper mode); else an exact
 * PGFT (fewer pods, parallel cables, blocking, hosts on spines are its
 * planned shape, not faults); else a degraded IBFT within the limit.
 */
static int recognise_tree(const struct ibu_fabric *f, struct cyclic_topo *c,
			  int max_faults, struct ibu_err *e)
{
	struct ibu_err pe = { 0 };
	int rc;

	if (!ibu_ibft_recognize_limit(f, &c->t, 0, e))
		return IBU_OK;
	rc = ibu_cyclic_pgft_recognise(f, &c->pgft, &pe);
	if (!rc || rc == IBU_ENOMEM)
		return rc ? ibu_err_set(e, rc, "%s", pe.msg) : IBU_OK;
	if (max_faults == 0)
		return ibu_err_set(e, IBU_ETOPO, "%s; %s", e->msg, pe.msg);
	rc = ibu_ibft_recognize_limit(f, &c->t, max_faults, e);
	if (rc && rc != IBU_ENOMEM)
		ibu_err_set(e, rc, "%s; %s", e->msg, pe.msg);
	return rc;
}

static int recognise(const struct ibu_fabric *f,
		     const struct ibu_engine_opts *o, void **topo,
		     struct ibu_err *e)
{
	struct cyclic_topo *c = calloc(1, sizeof(*c));
	int rc;

	*topo = NULL;
	if (c)
		c->stats = calloc(1, sizeof(*c->stats));
	if (!c || !c->stats) {
		free(c);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	rc = recognise_tree(f, c, o ? o->max_faults : -1, e);
	if (rc) {
		free(c->stats);
		free(c);
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
	if (c->pgft) {
		rc = ibu_cyclic_pgft_plan(f, c->pgft, e);
		c->planned = !rc;
		return rc;
	}
	rc = ibu_lidplan_build(f, &c->t, &c->p, e);
	c->planned = !rc;
	return rc;
}

static int route(const struct ibu_fabric *f, const void *topo,
		 const struct ibu_lidmap *map, const struct ibu_engine_opts *o,
		 struct ibu_lft *lft, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;

	(void)map;
	if (!c->planned)
		return ibu_err_set(e, IBU_EINVAL, "no LID plan");
	if (c->pgft)
		return ibu_cyclic_pgft_route(f, c->pgft, map, lft, e);
	return ibu_cyclic_route_stats(f, &c->t, &c->p,
				      o && o->offsets == IBU_OFFSETS_PAPER ?
				      IBU_OFFSETS_PAPER : IBU_OFFSETS_ROTATED,
				      lft, c->stats, e);
}

static int assign_lids(struct ibu_fabric *f, const void *topo, int lmc,
		       int paper_exact, int *lmc_used, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;
	enum ibu_lid_numbering how = paper_exact ? IBU_LIDS_PAPER_EXACT :
						   IBU_LIDS_ALIGNED;
	int want, fit;

	if (c->pgft)
		return ibu_cyclic_pgft_assign_lids(f, c->pgft, lmc, lmc_used, e);
	want = lmc >= 0 ? lmc : ibu_lid_needed_lmc(c->t.m, c->t.n);
	fit = ibu_lidplan_fit_lmc(&c->t, want, how);
	if (fit < 0)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) has %d end ports and %d switches: more than the unicast LID space 0x0001-0xBFFF holds even at LMC 0",
				   c->t.m, c->t.n, c->t.num_endports,
				   c->t.num_switches);
	if (lmc >= 0 && fit < lmc)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) at LMC %d needs more LIDs than the unicast space 0x0001-0xBFFF holds; the largest LMC that fits is %d",
				   c->t.m, c->t.n, lmc, fit);
	*lmc_used = fit;
	return ibu_lidplan_assign_paper(f, &c->t, fit, how, e);
}

static int may_leave_unrouted(const void *topo, int node, uint32_t lid)
{
	const struct cyclic_topo *c = topo;
	int s = node >= 0 && node < c->t.num_fabric_nodes ? c->t.sw_of_node[node] : -1;

	if (c->pgft)
		return ibu_cyclic_pgft_may_leave_unrouted(c->pgft, lid);
	return c->t.num_faults && s >= 0 && c->t.sw[s].level == c->t.n - 1;
}

static long num_unrouted(const void *topo)
{
	const struct cyclic_topo *c = topo;

	return c->stats->unrouted;
}

static void describe(const struct ibu_fabric *f, const void *topo, char *buf,
		     size_t len)
{
	const struct cyclic_topo *c = topo;
	int o;

	(void)f;
	if (c->pgft) {
		ibu_cyclic_pgft_describe(c->pgft, buf, len);
		return;
	}
	o = snprintf(buf, len,
		     "IBFT(%d,%d): %d switches, %d end ports, LMC in use %d (paper needs %d%s)",
		     c->t.m, c->t.n, c->t.num_switches, c->t.present_endports,
		     c->p.lmc, c->p.lmc_needed, c->p.lmc < c->p.lmc_needed ?
		     "; up-digits beyond the offset from the destination" : "");
	if (c->t.num_faults && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o,
			 "; degraded: %d faults (limit %d), %ld entries re-routed (%ld for switch-own traffic only, %ld left unrouted at leaves: no up*/down* path)",
			 c->t.num_faults, c->t.max_faults, c->stats->rerouted,
			 c->stats->outside, c->stats->unrouted);
}

static int num_notes(const void *topo)
{
	const struct cyclic_topo *c = topo;

	return c->t.num_faults;
}

static void note(const struct ibu_fabric *f, const void *topo, int i,
		 char *buf, size_t len)
{
	const struct cyclic_topo *c = topo;

	ibu_ibft_fault_text(f, &c->t, i, buf, len);
}

static void node_label(const void *topo, int node, char *buf, size_t len)
{
	const struct cyclic_topo *c = topo;
	int s;

	if (c->pgft) {
		ibu_cyclic_pgft_node_label(c->pgft, node, buf, len);
		return;
	}
	s = ibu_ibft_sw(&c->t, node);
	if (s >= 0)
		ibu_ibft_sw_label(&c->t, s, buf, len);
	else
		snprintf(buf, len, "-");
}

/* The multicast load of an IBFT or of a PGFT (free/release/prune get the
 * state alone). */
struct mcast_state {
	int pgft;
	struct ibu_mcast_load ibft;
	struct ibu_pgft_mcast_load pg;
};

static int mcast_state_new(const struct ibu_fabric *f, const void *topo,
			   void **state, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;
	struct mcast_state *l = calloc(1, sizeof(*l));
	int rc;

	(void)f;
	*state = NULL;
	if (!l)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	l->pgft = c->pgft != NULL;
	rc = l->pgft ? ibu_pgft_mcast_load_init(&l->pg, &c->pgft->g, e) :
		       ibu_mcast_load_init(&l->ibft, &c->t, e);
	if (rc) {
		free(l);
		return rc;
	}
	*state = l;
	return IBU_OK;
}

static void mcast_state_free(void *state)
{
	struct mcast_state *l = state;

	if (!l)
		return;
	if (l->pgft)
		ibu_pgft_mcast_load_free(&l->pg);
	else
		ibu_mcast_load_free(&l->ibft);
	free(l);
}

static void mcast_release(void *state, uint32_t key)
{
	struct mcast_state *l = state;

	if (l->pgft)
		ibu_pgft_mcast_load_release(&l->pg, key);
	else
		ibu_mcast_load_release(&l->ibft, key);
}

static void mcast_prune(void *state, int (*alive)(void *ctx, uint32_t key),
			void *ctx)
{
	struct mcast_state *l = state;

	if (l->pgft)
		ibu_pgft_mcast_load_prune(&l->pg, alive, ctx);
	else
		ibu_mcast_load_prune(&l->ibft, alive, ctx);
}

/* The lib tree (by switch index) as the engine-neutral tree (by node). */
static int export_tree(const struct cyclic_topo *c,
		       const struct ibu_mcast_tree *mt,
		       struct ibu_engine_tree *tree, struct ibu_err *e)
{
	char label[64];
	int i, rc;

	rc = ibu_engine_tree_alloc(tree, mt->num_switches, e);
	if (rc)
		return rc;
	tree->root = mt->apex >= 0 ? c->t.sw[mt->apex].node : -1;
	tree->num_members = mt->num_members;
	tree->num_receivers = mt->num_receivers;
	for (i = 0; i < mt->num_switches; i++) {
		int s = mt->switches[i];

		tree->nodes[i] = c->t.sw[s].node;
		tree->ports[i] = mt->ports[s];
	}
	if (mt->apex >= 0)
		ibu_ibft_sw_label(&c->t, mt->apex, label, sizeof(label));
	else
		snprintf(label, sizeof(label), "none");
	snprintf(tree->info, sizeof(tree->info),
		 "apex %s (%s, level %d, %d candidates)", label,
		 ibu_mcast_policy_name(mt->policy), mt->apex_level,
		 mt->num_candidates);
	return IBU_OK;
}

/* A PGFT's tree (lib/pgft_mcast.h) as the engine-neutral tree. */
static int pgft_tree(const struct ibu_fabric *f, const struct cyclic_topo *c,
		     struct mcast_state *l, const struct ibu_mcast_member *m,
		     int n, uint32_t key, struct ibu_engine_tree *tree,
		     struct ibu_err *e)
{
	struct ibu_pgft_mcast_tree pt;
	char label[64];
	int i, rc;

	rc = ibu_pgft_mcast_tree_build(f, &c->pgft->g, m, n,
				       l ? &l->pg : NULL, key, &pt, e);
	if (rc)
		return rc;
	rc = ibu_engine_tree_alloc(tree, pt.num_switches, e);
	if (!rc) {
		tree->root = pt.apex;
		tree->num_members = n;
		for (i = 0; i < n; i++)
			tree->num_receivers += !m[i].send_only;
		for (i = 0; i < pt.num_switches; i++) {
			tree->nodes[i] = pt.nodes[i];
			tree->ports[i] = pt.ports[i];
		}
		ibu_cyclic_pgft_node_label(c->pgft, pt.apex, label, sizeof(label));
		snprintf(tree->info, sizeof(tree->info),
			 "apex %s (PGFT top with the fewest trees)", label);
	} else if (l) {
		ibu_pgft_mcast_load_release(&l->pg, key);
	}
	ibu_pgft_mcast_tree_free(&pt);
	return rc;
}

static int mcast_tree(const struct ibu_fabric *f, const void *topo,
		      void *state, const struct ibu_mcast_member *m, int n,
		      const struct ibu_engine_opts *o, uint32_t key,
		      struct ibu_engine_tree *tree, struct ibu_err *e)
{
	const struct cyclic_topo *c = topo;
	struct mcast_state *l = state;
	struct ibu_mcast_tree mt;
	int rc;

	memset(tree, 0, sizeof(*tree));
	tree->root = -1;
	if (c->pgft)
		return pgft_tree(f, c, l, m, n, key, tree, e);
	rc = ibu_mcast_tree_build(f, &c->t, m, n, o->mcast_policy,
				  l ? &l->ibft : NULL, key, &mt, e);
	if (rc)
		return rc;
	rc = export_tree(c, &mt, tree, e);
	ibu_mcast_tree_free(&mt);
	if (rc) {
		if (l)
			ibu_mcast_load_release(&l->ibft, key);
		ibu_engine_tree_free(tree);
	}
	return rc;
}

const struct ibu_engine_ops ibu_engine_cyclic = {
	.name = "cyclic",
	.topology = "IBFT(m,n) or PGFT",
	.recognise = recognise,
	.topo_free = topo_free,
	.plan = plan,
	.route = route,
	.assign_lids = assign_lids,
	.may_leave_unrouted = may_leave_unrouted,
	.num_unrouted = num_unrouted,
	.describe = describe,
	.num_notes = num_notes,
	.note = note,
	.node_label = node_label,
	.mcast_state_new = mcast_state_new,
	.mcast_state_free = mcast_state_free,
	.mcast_release = mcast_release,
	.mcast_prune = mcast_prune,
	.mcast_tree = mcast_tree,
};
