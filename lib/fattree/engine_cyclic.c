/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The engine "cyclic" ([Zhou07]): a fat tree, IBFT(m,n) or PGFT, exact or
 * degraded, recognised once as the PGFT it is (lib/fattree/cyclic_pgft.h),
 * with an IBFT's paper labels on it; one plan, one route: the generalised
 * rule by default, the paper's Eq. 2 on an IBFT with offsets=paper. Every
 * fat tree's multicast trees come from lib/fattree/pgft_mcast.h.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "gen.h"
#include "cyclic.h"
#include "cyclic_pgft.h"
#include "pgft_mcast.h"
#include "cdg_ports.h"
#include "pgft_verify.h"

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

/* uneven= and turns= are word lists (values): no parse, format */
static const struct ibu_engine_option options[] = {
	IBU_ENGINE_OPTION_MAX_FAULTS,
	{ .key = "offsets", .values = "rotated|paper",
	  .def = IBU_OFFSETS_ROTATED,
	  .help = "how LID offsets become up-ports: rotated (offset 0 "
		  "spreads base LIDs as D-mod-k) or paper (Eq. 2 exactly)",
	  .parse = parse_offsets, .format = format_offsets },
	{ .key = "uneven", .values = "rotate|rule", .def = 0,
	  .help = "an intact 2-level fat tree whose leaves' hosts do not "
		  "divide over their up-cables (often one that lost a "
		  "spine): rotate spreads each leaf's last hosts over every "
		  "spine (all-to-all near the bound, worst shift one "
		  "higher), rule keeps D-mod-k for them" },
	{ .key = "turns", .values = "own-vl|shared", .def = 0,
	  .help = "on a damaged tree, the routes that must turn down-up: "
		  "own-vl puts them on SL 1 / VL 1 (with qos TRUE and two "
		  "data VLs; their turns then need not avoid the other "
		  "routes), shared keeps every route on VL 0",
	  .needs_qos = 1 },
};

#define OPT_MAX_FAULTS (&options[0])
#define OPT_OFFSETS (&options[1])
#define OPT_UNEVEN (&options[2])
#define OPT_TURNS (&options[3])

int ibu_cyclic_pgft_recognise(const struct ibu_fabric *f,
			      const uint64_t *roots, int num_roots,
			      int max_faults, enum ibu_cyclic_rule_kind rule,
			      struct ibu_cyclic_pgft **out, struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c = calloc(1, sizeof(*c));
	int rc;

	*out = NULL;
	if (!c)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = ibu_pgft_recognize_limit(f, &c->g, roots, num_roots, max_faults,
				      e);
	if (rc) {
		free(c);
		return rc;
	}
	c->f = f;
	c->lmc_needed = ibu_pgft_needed_lmc(&c->g);
	/* an exact IBFT's hosts in PID order (D = PID rank, as the IBFT
	 * path numbered them); a damaged tree keeps the PGFT's order and
	 * its tables those of the PGFT it is; every IBFT, exact or damaged,
	 * gets the paper's LIDs, so that a cut does not renumber the LIDs
	 * `ibunion route` assigns (one cut of a shuffled IBFT(8,3) at LMC 4:
	 * 1,844 entries change, not 59,071) */
	rc = ibu_pgft_ibft_build(f, &c->g, !c->g.num_faults, &c->ibft, e);
	if (!rc && c->ibft && rule != IBU_CYCLIC_GENERALISED) {
		/* the paper's rule on c's labels: up-ports by up-digit,
		 * PIDs by D */
		c->paper_rule = (struct ibu_pgft_paper){
			.half = c->ibft->half,
			.rotated = rule == IBU_CYCLIC_PAPER_ROTATED,
			.up = (const int *const *)c->ibft->up,
			.pid = c->ibft->pid };
		c->paper = &c->paper_rule;
	}
	if (rc) {
		ibu_cyclic_pgft_free(c);
		return rc;
	}
	*out = c;
	return IBU_OK;
}

static void drop_unicast(struct ibu_cyclic_pgft *c)
{
	ibu_cdg_ports_free(c->ucdg);
	free(c->ucdg);
	c->ucdg = NULL;
	ibu_lft_free(&c->ulft);		/* both zero what they free */
	ibu_lidmap_free(&c->umap);
}

void ibu_cyclic_pgft_free(struct ibu_cyclic_pgft *c)
{
	if (!c)
		return;
	ibu_pgft_ibft_free(c->ibft);
	drop_unicast(c);
	ibu_pgft_free(&c->g);
	free(c);
}

static void topo_free(void *topo)
{
	ibu_cyclic_pgft_free(topo);
}

static int paper_mode(const struct ibu_engine_opts *o)
{
	return ibu_engine_opt(o, OPT_OFFSETS) == IBU_OFFSETS_PAPER;
}

/* The admin's host order; an IBFT with offsets=paper keeps its PIDs. */
static int apply_order(const struct ibu_fabric *f, struct ibu_cyclic_pgft *c,
		       const struct ibu_engine_opts *o, struct ibu_err *e)
{
	int rc;

	if (c->paper) {
		c->order_ignored = 1;
		return IBU_OK;
	}
	rc = ibu_pgft_apply_order(f, &c->g, o->host_order, o->num_host_order,
				  &c->order, e);
	/* the admin's numbering, not the PIDs: the tree is the PGFT it is,
	 * as before the paper's labels came to the PGFT path */
	ibu_pgft_ibft_free(c->ibft);
	c->ibft = NULL;
	c->ordered = !rc;
	return rc;
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
static int recognise(const struct ibu_fabric *f,
		     const struct ibu_engine_opts *o, void **topo,
		     enum ibu_engine_decline_kind *why, struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c;
	struct ibu_err pe = { 0 };
	int rc;

	*topo = NULL;
	rc = ibu_cyclic_pgft_recognise(f, o ? o->roots : NULL,
				       o ? o->num_roots : 0,
				       ibu_engine_opt(o, OPT_MAX_FAULTS),
				       paper_mode(o) ? IBU_CYCLIC_PAPER :
				       IBU_CYCLIC_GENERALISED, &c, &pe);
	if (rc == IBU_ETOPO)	/* admins and tests read the first words */
		ibu_err_set(e, rc, "not an IBFT(m,n): %s", pe.msg);
	else if (rc)
		ibu_err_set(e, rc, "%s", pe.msg);
	if (!rc) {
		c->g.uneven_rule = ibu_engine_opt(o, OPT_UNEVEN) == 1;
		/* SL 1 needs SL2VL tables (qos) and a second data VL */
		c->g.turn_layer = ibu_engine_opt(o, OPT_TURNS) == 0 && o &&
				  o->qos == 1 &&
				  (o->max_vls == 0 || o->max_vls >= 2);
	}
	if (!rc && o && o->host_order)
		rc = apply_order(f, c, o, e);
	/* no IBFT, PGFT or degraded IBFT within max_faults: all are the
	 * shape of the fabric, none a failure of ours */
	*why = rc == IBU_ENOMEM || !rc ? IBU_DECLINE_RESOURCES :
	       rc == IBU_ETOPO ? IBU_DECLINE_TOPOLOGY : IBU_DECLINE_ERROR;
	if (rc) {
		topo_free(c);	/* a PGFT whose order failed is allocated */
		return rc;
	}
	/* Eq. 2 is the IBFT's; a PGFT keeps the rotated rule (offset 0 =
	 * D-mod-K), and says so rather than ignore the option silently */
	c->paper_ignored = paper_mode(o) && !c->paper;
	*topo = c;
	return IBU_OK;
}

static int plan(const struct ibu_fabric *f, void *topo,
		const struct ibu_lidmap *map, struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c = topo;
	int d;

	(void)map;
	c->planned = 0;
	for (d = 0; d < c->g.num_hosts; d++) {
		const struct ibu_pgft_host *h = &c->g.host[d];

		if (!f->nodes[h->node].ports[h->port].lid)
			return ibu_err_set(e, IBU_ELID, "end port '%s' port %d has no LID",
					   f->nodes[h->node].name, h->port);
	}
	c->lmc = ibu_pgft_hosts_lmc(f, &c->g);
	c->offset_levels = ibu_pgft_offset_levels(&c->g, c->lmc);
	c->planned = 1;
	return IBU_OK;
}

static int ensure_planned(const struct ibu_fabric *f, void *topo,
			  struct ibu_err *e)
{
	const struct ibu_cyclic_pgft *c = topo;

	return c->planned ? IBU_OK : plan(f, topo, NULL, e);
}

/* With faults a multicast tree may need a down-up turn, chosen against
 * the dependencies of every unicast route (pgft_mcast.h): the tables
 * kept, as the multicast stage has none to read them from, the graph
 * built only when a tree needs it (few do; it costs as much as routing). */
static int keep_unicast(const struct ibu_fabric *f, struct ibu_cyclic_pgft *c,
			const struct ibu_lidmap *map,
			const struct ibu_lft *lft, struct ibu_err *e)
{
	size_t own = ((size_t)map->max_lid + 1) * sizeof(*map->owner);
	int rc;

	drop_unicast(c);
	if (c->g.num_faults <= 0)
		return IBU_OK;
	rc = ibu_lft_copy(&c->ulft, f, lft, e);
	if (rc)
		return rc;
	c->umap.owner = malloc(own);
	if (!c->umap.owner) {
		drop_unicast(c);
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	}
	memcpy(c->umap.owner, map->owner, own);
	c->umap.max_lid = map->max_lid;
	return IBU_OK;
}

/* The kept unicast's dependency graph, built at the first call. */
static int unicast_cdg(const struct ibu_fabric *f, struct ibu_cyclic_pgft *c,
		       struct ibu_err *e)
{
	int rc;

	if (c->ucdg || !c->umap.owner)
		return IBU_OK;
	c->ucdg = malloc(sizeof(*c->ucdg));
	if (!c->ucdg)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	rc = ibu_cdg_ports_init(c->ucdg, f, e);
	if (!rc && c->st.layered) {	/* multicast rides VL 0 */
		uint32_t lid;

		for (lid = 1; lid <= c->umap.max_lid && !rc; lid++)
			if (ibu_lidmap_get(&c->umap, lid))
				rc = ibu_cdg_ports_add_lid_layer(c->ucdg,
					&c->ulft, lid, c->g.level, 0, e);
	} else if (!rc) {
		rc = ibu_cdg_ports_add_unicast(c->ucdg, &c->ulft, &c->umap, e);
	}
	if (rc) {	/* a failed init leaves it freed and zeroed */
		ibu_cdg_ports_free(c->ucdg);
		free(c->ucdg);
		c->ucdg = NULL;
	}
	return rc;
}

static int route(const struct ibu_fabric *f, void *topo,
		 const struct ibu_lidmap *map, const struct ibu_engine_opts *o,
		 struct ibu_lft *lft, struct ibu_err *e)
{
	struct ibu_cyclic_pgft *c = topo;
	int rc;

	(void)o;
	if (!c->planned)
		return ibu_err_set(e, IBU_EINVAL, "no LID plan");
	c->routed = 1;
	/* the engine driver allocated lft (every entry IBU_NO_PATH) */
	rc = ibu_pgft_route_paper(f, &c->g, map, c->lmc, c->paper, lft,
				  &c->st, e);
	return rc ? rc : keep_unicast(f, c, map, lft, e);
}

int ibu_cyclic_pgft_assign_lids(struct ibu_fabric *f,
				const struct ibu_cyclic_pgft *c, int lmc,
				int paper_exact, int *lmc_used,
				struct ibu_err *e)
{
	int want = lmc >= 0 ? lmc : c->lmc_needed;
	int fit;

	if (c->ibft)	/* the paper's LIDs */
		return ibu_pgft_ibft_assign_lids(f, &c->g, c->ibft, lmc,
						 paper_exact, lmc_used, e);
	fit = ibu_pgft_fit_lmc(&c->g, want);
	if (fit < 0 || (lmc >= 0 && fit < lmc))
		return ibu_err_set(e, IBU_ELID,
				   "%d end ports and %d switches at LMC %d need more LIDs than the unicast space 0x0001-0xBFFF holds; the largest LMC that fits is %d",
				   c->g.num_hosts + c->g.num_spine_hosts,
				   c->g.num_switches, want, fit);
	*lmc_used = fit;
	return ibu_pgft_assign_lids(f, &c->g, fit, e);
}

static int assign_lids(struct ibu_fabric *f, const void *topo, int lmc,
		       int paper_exact, int *lmc_used, struct ibu_err *e)
{
	return ibu_cyclic_pgft_assign_lids(f, topo, lmc, paper_exact,
					   lmc_used, e);
}

/* On a PGFT with faults any LID at a switch (faults can leave a switch
 * without an up*|down* way); switch LIDs and hosts on tops: every switch
 * has a route (one down-up turn where up*|down* has none, pgft_turn.c) */
static int may_leave_unrouted(const void *topo, int node, uint32_t lid)
{
	const struct ibu_cyclic_pgft *c = topo;

	(void)lid;
	return c->g.num_faults && node >= 0 && node < c->g.num_nodes &&
	       c->g.level[node] >= 1;
}

/* "IBFT(8,3): 80 switches, 128 end ports" for a tree with the paper's
 * labels (once planned, an exact one), or planned and degraded with an
 * IBFT's parameters (as admins know it); else the PGFT's "PGFT(2; 8,12;
 * 1,4; 1,2): 16 switches, 96 end ports". */
static void describe_head(const struct ibu_cyclic_pgft *c, int planned,
			  char *buf, size_t len)
{
	int m = 0, n = 0;

	if (c->ibft && (!planned || !c->g.num_faults)) {
		m = c->ibft->m;
		n = c->ibft->n;
	} else if (planned && c->g.num_faults && !c->g.num_spine_hosts) {
		ibu_pgft_is_ibft(&c->g.P, &m, &n);	/* m stays 0 if none */
	}
	if (m)
		snprintf(buf, len, "IBFT(%d,%d): %d switches, %d end ports",
			 m, n, c->g.num_switches, c->g.num_hosts);
	else
		ibu_pgft_describe(&c->g, buf, len);
}

/* The head, then ", LMC in use 3 (needs 3)"; a degraded tree adds
 * "; degraded: N faults (limit L), ..." */
static void describe_planned(const struct ibu_cyclic_pgft *c, char *buf,
			     size_t len)
{
	char head[192];
	size_t o;

	describe_head(c, 1, head, sizeof(head));
	snprintf(buf, len, "%s, LMC in use %d (%sneeds %d%s)", head, c->lmc,
		 c->ibft && !c->g.num_faults ? "paper " : "", c->lmc_needed,
		 c->offset_levels < c->g.P.h - 1 ?
		 "; up-digits beyond the offset from the destination" : "");
	if (ibu_pgft_rotated(&c->g)) {
		int U = ibu_pgft_up_ports(&c->g.P, 1), m = c->g.P.m[1];

		o = strlen(buf);
		snprintf(buf + o, len > o ? len - o : 0,
			 "; uneven: %d hosts a leaf on %d up-cables, the last %d's up-slots rotated by the source leaf",
			 m, U, m % U);
	}
	if (!c->g.num_faults)
		return;
	o = strlen(buf);
	o += (size_t)snprintf(buf + o, len > o ? len - o : 0,
			      "; degraded: %d faults (limit %d)",
			      c->g.num_faults, c->g.max_faults);
	if (c->routed && o < len)	/* else recognised only (check) */
		snprintf(buf + o, len - o,
			 ", %ld entries re-routed (%ld LIDs whose rule crossed a fault, spread over the surviving ways; %ld for switch-own traffic only, %ld left unrouted at leaves: no up*/down* path; %ld turned once, at one switch per LID)",
			 c->st.rerouted + c->st.outside, c->st.balanced,
			 c->st.outside, c->st.unrouted, c->st.turned);
	o = strlen(buf);
	if (c->routed && c->st.twice && o > 0 && o < len)	/* in the ( ) */
		o += (size_t)snprintf(buf + o - 1, len - o + 1,
				      ", %ld of them twice: leaves no turn switch reaches, through a sibling's turn)",
				      c->st.twice) - 1;
	if (c->routed && c->st.gather_moved && o < len)
		snprintf(buf + o, len - o,
			 "; %ld entries gathered on their LID's main spine",
			 c->st.gather_moved);
	o = strlen(buf);
	if (c->routed && c->st.layered && o < len)
		snprintf(buf + o, len - o,
			 "; turned routes on SL 1 / VL 1 (%ld LIDs)",
			 c->st.layered_lids);
	o = strlen(buf);
	if (c->routed && c->st.shift_tries && o < len)
		snprintf(buf + o, len - o,
			 "; worst shift %ld -> %ld (%ld entries moved, %ld tried)",
			 c->st.shift_from, c->st.shift_to, c->st.shift_moved,
			 c->st.shift_tries);
	else if (c->routed && c->st.shift_floor && o < len)
		snprintf(buf + o, len - o,
			 "; worst shift %ld (at its floor: none lower)",
			 c->st.shift_to);
	o = strlen(buf);
	if (c->routed && c->st.extras && o < len)
		snprintf(buf + o, len - o,
			 "; uneven leaves' last hosts %s",
			 c->st.extras == 2 ?
			 "placed as damaged LIDs (all-to-all lower than by D-mod-K)" :
			 c->st.extras == 3 ?
			 "by D-mod-K (placing them as damaged LIDs did not complete)" :
			 "by D-mod-K (placed as damaged LIDs: not better)");
	o = strlen(buf);
	if (c->routed && c->st.ebb_tries && o < len)
		snprintf(buf + o, len - o,
			 "; eBB pass %ld entries moved (%ld pairs, %ld of turned LIDs), %ld tried",
			 c->st.ebb_moved, c->st.ebb_pairs, c->st.ebb_turned,
			 c->st.ebb_tries);
}

static void describe(const struct ibu_fabric *f, const void *topo, char *buf,
		     size_t len)
{
	const struct ibu_cyclic_pgft *c = topo;

	(void)f;
	if (c->planned)
		describe_planned(c, buf, len);
	else		/* recognised only (mcast tree): no LIDs yet */
		describe_head(c, 0, buf, len);
}

/* One note per fault record (a record may stand for several), their
 * count, the entries left unrouted, the host order, offsets=paper
 * ignored. */
static int num_notes(const void *topo)
{
	const struct ibu_cyclic_pgft *c = topo;
	int n = c->g.num_fault_recs;

	return n + (n > 0) + (c->st.unrouted > 0) +
	       (c->ordered || c->order_ignored) + c->paper_ignored;
}

/* The last note: what became of the admin's host order. */
static void order_note(const struct ibu_cyclic_pgft *c,
		       struct ibu_engine_note *out)
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
	const struct ibu_cyclic_pgft *c = topo;
	int n = c->g.num_fault_recs, o;

	if (c->paper_ignored && i == num_notes(topo) - 1) {
		out->kind = IBU_NOTE_INFO;
		out->severity = IBU_NOTE_SEV_WARNING;
		snprintf(out->text, sizeof(out->text),
			 "offsets=paper not applied: the paper's Eq. 2 is defined for IBFT(m,n); this PGFT is routed with the rotated rule (offset 0 = D-mod-K)");
		return;
	}
	if (i >= n + (n > 0) + (c->st.unrouted > 0)) {
		order_note(c, out);
		return;
	}
	out->severity = IBU_NOTE_SEV_WARNING;
	if (i < n) {
		out->kind = IBU_NOTE_FAULT;
		o = snprintf(out->text, sizeof(out->text), "fault %d of %d: ",
			     i + 1, n);
		if (o > 0 && (size_t)o < sizeof(out->text))
			ibu_pgft_fault_text(f, &c->g, i, out->text + o,
					    sizeof(out->text) - (size_t)o);
	} else if (i == n && n > 0) {
		out->kind = IBU_NOTE_FAULTS;
		snprintf(out->text, sizeof(out->text),
			 "%d faults (missing links and switches) routed around",
			 c->g.num_faults);
	} else {
		out->kind = IBU_NOTE_UNROUTED;
		snprintf(out->text, sizeof(out->text),
			 "%ld (leaf switch, LID) entries left unrouted: no up*/down* path from that leaf, only down-up turns (a credit-loop risk)",
			 c->st.unrouted);
	}
}

/* "L2#5": level 2, column 5; an IBFT's "SW<01,2>" */
static void node_label(const void *topo, int node, char *buf, size_t len)
{
	const struct ibu_cyclic_pgft *c = topo;

	if (node < 0 || node >= c->g.num_nodes || c->g.level[node] < 1)
		snprintf(buf, len, "-");
	else if (c->ibft)
		ibu_pgft_ibft_sw_label(&c->g, c->ibft, node, buf, len);
	else
		snprintf(buf, len, "L%d#%d", c->g.level[node], c->g.col[node]);
}

/*
 * One builder for every fat tree's trees (lib/fattree/pgft_mcast.h: apex
 * at the members' lowest common level, so a group inside one leaf or pod
 * stays there). The paper's labels (source's up-digits, ties) on an IBFT,
 * exact or degraded with the paper's rule, as its trees were before;
 * else the PGFT's columns and D-mod-K climbs. Multicast never depends on
 * the unicast rule.
 */
static int mcast_state_new(const struct ibu_fabric *f, const void *topo,
			   void **state, struct ibu_err *e)
{
	const struct ibu_cyclic_pgft *c = topo;

	*state = NULL;
	return ibu_pgft_mcast_load_new(f, &c->g,
				       (struct ibu_pgft_mcast_load **)state, e);
}

/* The tree as the engine-neutral one; info: "apex SW<00,0> (source, level
 * 0, 4 candidates)", levels as the label counts them (an IBFT's from the
 * top, a PGFT's from the leaves). */
static int export_tree(const struct ibu_cyclic_pgft *c,
		       const struct ibu_pgft_mcast_tree *pt,
		       struct ibu_engine_tree *tree, struct ibu_err *e)
{
	char label[64];
	int i, o, rc = ibu_engine_tree_alloc(tree, pt->num_switches, e);

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
		node_label(c, pt->apex, label, sizeof(label));
	else
		snprintf(label, sizeof(label), "none");
	o = snprintf(tree->info, sizeof(tree->info),
		     "apex %s (%s, level %d, %d candidates%s)", label,
		     ibu_mcast_policy_name(pt->policy),
		     c->ibft ? c->g.P.h - pt->level : pt->level,
		     pt->num_candidates, pt->apex < 0 || pt->common ? "" :
		     c->g.num_faults ? ", among the tops that reach the most members down" :
		     ", a top a member sits on");
	if (pt->junctions && o > 0 && (size_t)o < sizeof(tree->info))
		snprintf(tree->info + o, sizeof(tree->info) - (size_t)o,
			 ", %d down-up junction%s", pt->junctions,
			 pt->junctions > 1 ? "s" : "");
	return IBU_OK;
}

static int build_tree(const struct ibu_fabric *f,
		      const struct ibu_cyclic_pgft *c,
		      const struct ibu_mcast_member *m, int n,
		      const struct ibu_engine_opts *o,
		      struct ibu_pgft_mcast_load *l, uint32_t key,
		      struct ibu_pgft_mcast_tree *pt, struct ibu_err *e)
{
	return ibu_pgft_mcast_tree_build_turns(f, &c->g, c->ibft &&
					       (!c->g.num_faults || c->paper) ?
					       c->ibft : NULL, c->ucdg, m, n,
					       o->mcast_policy, l, key, pt, e);
}

static int mcast_tree(const struct ibu_fabric *f, const void *topo,
		      void *state, const struct ibu_mcast_member *m, int n,
		      const struct ibu_engine_opts *o, uint32_t key,
		      struct ibu_engine_tree *tree, struct ibu_err *e)
{
	const struct ibu_cyclic_pgft *c = topo;
	struct ibu_pgft_mcast_load *l = state;
	struct ibu_pgft_mcast_tree pt;
	int rc;

	memset(tree, 0, sizeof(*tree));
	tree->root = -1;
	rc = build_tree(f, c, m, n, o, l, key, &pt, e);
	/* refused without unicast's graph: build it, try again with it */
	if (rc == IBU_ETOPO && !c->ucdg && c->umap.owner) {
		/* the graph is a cache of the routing the topology holds */
		struct ibu_cyclic_pgft *w = (struct ibu_cyclic_pgft *)c;

		ibu_err_clear(e);
		rc = unicast_cdg(f, w, e);
		if (!rc)
			rc = build_tree(f, c, m, n, o, l, key, &pt, e);
	}
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
	const struct ibu_cyclic_pgft *c = topo;

	return c->ibft ? ibu_pgft_ibft_port(c->f, &c->g, c->ibft, node, port) :
	       -1;
}

/* Cyclic routes are up*|down*: switch level, end ports below the leaves. */
static int rank(const void *topo, int node)
{
	const struct ibu_pgft *g = &((const struct ibu_cyclic_pgft *)topo)->g;
	int l = node >= 0 && node < g->num_nodes ? g->level[node] : 0;

	return l >= 1 ? g->P.h - l : g->P.h;
}

/* D of a compute host, then the hosts above the leaves after them; -1 */
static int endport_index(const void *topo, int node, int port)
{
	const struct ibu_pgft *g = &((const struct ibu_cyclic_pgft *)topo)->g;
	int D = ibu_pgft_host(g, node, port), i;

	if (D != -1)
		return D >= 0 ? D : -1;
	for (i = 0; i < g->num_spine_hosts; i++)
		if (g->spine_host[i].node == node &&
		    g->spine_host[i].port == port)
			return g->num_hosts + i;
	return -1;
}

static int num_ordered(const void *topo)
{
	return ((const struct ibu_cyclic_pgft *)topo)->g.num_hosts;
}

static void endport_label(const void *topo, int node, int port, char *buf,
			  size_t len)
{
	const struct ibu_cyclic_pgft *c = topo;
	int D = endport_index(topo, node, port);

	if (D >= 0 && c->ibft)
		ibu_pgft_ibft_ep_label(c->ibft, D, buf, len);
	else if (D >= 0)
		snprintf(buf, len, "H%d", D);
	else
		snprintf(buf, len, "-");
}

/* Compute hosts S and D of a pair on planned LIDs; -1 if none. */
static int pair_hosts(const struct ibu_fabric *f, void *topo, int sn, int sp,
		      int dn, int dp, int *S, int *D)
{
	const struct ibu_cyclic_pgft *c = topo;

	if (ensure_planned(f, topo, NULL))
		return -1;
	*S = ibu_pgft_host(&c->g, sn, sp);
	*D = ibu_pgft_host(&c->g, dn, dp);
	return *S >= 0 && *D >= 0 ? 0 : -1;
}

/* The DLID offset of a pair, for the rule the tables follow. */
static long advised_offset(const struct ibu_fabric *f, void *topo,
			   const struct ibu_engine_opts *o, int sn, int sp,
			   int dn, int dp)
{
	const struct ibu_cyclic_pgft *c = topo;
	int S, D;

	(void)o;
	if (pair_hosts(f, topo, sn, sp, dn, dp, &S, &D))
		return -1;
	return (long)ibu_pgft_offset_rule(&c->g, c->lmc, c->paper, S, D);
}

/* The top of the pair's climb on its advised offset. */
static int turn_node(const struct ibu_fabric *f, void *topo,
		     const struct ibu_engine_opts *o, int sn, int sp, int dn,
		     int dp, long off)
{
	const struct ibu_cyclic_pgft *c = topo;
	int S, D;

	(void)o;
	if (off < 0 || pair_hosts(f, topo, sn, sp, dn, dp, &S, &D))
		return -1;
	return ibu_pgft_turn_rule(f, &c->g, c->lmc, c->paper, S, D);
}

/* ibunion path's frame: the tree, the LMC in use, what it leaves open. */
static int path_info(const struct ibu_fabric *f, void *topo,
		     const struct ibu_engine_opts *o,
		     struct ibu_engine_path_info *pi, struct ibu_err *e)
{
	const struct ibu_cyclic_pgft *c = topo;
	int rc = ensure_planned(f, topo, e);

	(void)o;
	memset(pi, 0, sizeof(*pi));
	if (rc)
		return rc;
	ibu_pgft_params_text(&c->g.P, pi->topology, sizeof(pi->topology));
	pi->lmc = c->lmc;
	pi->turn_head = "turns at";
	if (c->ibft) {		/* the rule the tables follow */
		pi->offsets = ibu_cyclic_offsets_name(c->paper ?
						      IBU_OFFSETS_PAPER :
						      IBU_OFFSETS_ROTATED);
		snprintf(pi->topology, sizeof(pi->topology), "IBFT(%d,%d)",
			 c->ibft->m, c->ibft->n);
		pi->turn_head = "climbs to";
	}
	snprintf(pi->title, sizeof(pi->title), "%s, LMC %d%s%s", pi->topology,
		 c->lmc, pi->offsets ? ", offsets " : "",
		 pi->offsets ? pi->offsets : "");
	if (c->offset_levels < c->g.P.h - 1)
		snprintf(pi->warning, sizeof(pi->warning),
			 "LMC %d decides %d of %d up levels: above them the destination decides (LMC %d needed for one chain all the way up)",
			 c->lmc, c->offset_levels, c->g.P.h - 1,
			 c->lmc_needed);
	if (c->g.num_faults) {	/* the balance moves LIDs off the rule */
		size_t n = strlen(pi->warning);

		snprintf(pi->warning + n, sizeof(pi->warning) - n,
			 "%sdegraded tree (%d faults): routes toward LIDs re-routed around them leave the source's chain",
			 n ? "; " : "", c->g.num_faults);
	}
	return IBU_OK;
}

/* Rows: 0 = the tops .. h-1 = the leaves, h = end ports; keys: an IBFT's
 * switches by label slot, a PGFT's by column, end ports by index. */
static int layout(const struct ibu_fabric *f, const void *topo, int node,
		  int *row, double *key)
{
	const struct ibu_cyclic_pgft *c = topo;
	const struct ibu_pgft *g = &c->g;
	double best = -1;
	int p, i;

	if (node < 0 || node >= g->num_nodes)
		return -1;
	if (g->level[node] >= 1) {
		*row = g->P.h - g->level[node];
		*key = c->ibft ? ibu_pgft_ibft_slot(g, c->ibft, node) :
		       g->col[node];
		return 0;
	}
	if (ibu_node_is_switch(&f->nodes[node]))
		return -1;
	for (p = 1; p <= f->nodes[node].num_ports; p++) {
		i = endport_index(topo, node, p);
		if (i >= 0 && (best < 0 || i < best))
			best = i;
	}
	*row = g->P.h;
	*key = best >= 0 ? best : 1e12;
	return 0;
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

/* What a check needs of the routing beside the rule: where the routes
 * with a down-up turn ride SL 1 (path_sl, sl2vl), the engine's own
 * routing of f's LIDs, which tables that follow the rule repeat. */
static int route_for_sls(const struct ibu_fabric *f,
			 struct ibu_cyclic_pgft *c,
			 const struct ibu_engine_opts *o, struct ibu_err *e)
{
	struct ibu_lidmap map = { 0 };
	struct ibu_lft lft = { 0 };
	int rc;

	if (c->routed || !c->g.turn_layer || !c->g.num_faults)
		return IBU_OK;
	rc = ibu_lidmap_build(f, &map, e);
	if (!rc)
		rc = ibu_lft_init(&lft, f, map.max_lid, e);
	if (!rc)
		rc = route(f, c, &map, o, &lft, e);
	ibu_lft_free(&lft);
	ibu_lidmap_free(&map);
	return rc;
}

static int check_rule(const struct ibu_fabric *f, void *topo,
		      const struct ibu_engine_opts *o,
		      const struct ibu_engine_check_in *in,
		      struct ibu_verify_rule *rule, void **state, char *info,
		      size_t len, struct ibu_err *e)
{
	const struct ibu_cyclic_pgft *c = topo;
	struct check_state *st;
	int rc = ensure_planned(f, topo, e);

	*state = NULL;
	if (!rc)
		rc = route_for_sls(f, topo, o, e);
	if (rc)
		return rc;
	st = calloc(1, sizeof(*st));
	if (!st)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	st->prule = (struct ibu_pgft_rule){ .g = &c->g, .lmc = c->lmc,
		.paper = c->paper, .labels = c->ibft,
		.climb_sources = in ? in->climb_sources : 0,
		/* route_for_sls routed f's LIDs: the same tables */
		.expected = c->routed && c->ulft.row ? &c->ulft : NULL };
	if (in && in->dlids) {
		rc = ibu_dlid_pairs_read(in->dlids, &st->pairs, e);
		if (rc) {
			check_free(st);
			return rc;
		}
		st->prule.dlids = &st->pairs;
	}
	ibu_pgft_verify_rule(rule, &st->prule);
	describe_planned(c, info, len);
	*state = st;
	return IBU_OK;
}

/*
 * turns=own-vl on a damaged tree routed so (st.layered): a route with a
 * down-up turn (a valley: entered from above, left upward) rides SL 1,
 * every other SL 0, multicast too; SL s -> VL s. VL 0 then holds only
 * up*|down* routes and the multicast trees checked against them, VL 1
 * the turned routes, checked among themselves (pgft_turn.c); the other
 * SLs keep QoS's VLs (no path gets them). Otherwise (-1, IBU_EINVAL)
 * OpenSM's QoS SLs and SL2VL stay.
 */
static int vl_in_use(const void *topo)
{
	const struct ibu_cyclic_pgft *c = topo;

	return c && c->routed && c->st.layered;
}

static int path_sl(const struct ibu_fabric *f, const void *topo,
		   const struct ibu_lidmap *map,
		   const struct ibu_engine_opts *o, uint16_t slid,
		   uint16_t dlid)
{
	const struct ibu_cyclic_pgft *c = topo;
	const struct ibu_lid_owner *so;
	int s;

	(void)o;
	if (!vl_in_use(c) || !c->umap.owner)
		return -1;
	so = ibu_lidmap_get(map, slid);
	if (dlid >= 0xC000 || !so || !ibu_lidmap_get(map, dlid))
		return 0;
	s = ibu_node_is_switch(&f->nodes[so->node]) ? so->node :
	    f->nodes[so->node].ports[so->port].peer_node;
	if (s < 0 || !ibu_node_is_switch(&f->nodes[s]))
		return 0;
	return ibu_lft_route_has_valley(f, &c->ulft, s, dlid, c->g.level);
}

static int sl2vl(const struct ibu_fabric *f, const void *topo,
		 const struct ibu_engine_opts *o, int node, int in_port,
		 int out_port, uint8_t vl_of_sl[16])
{
	(void)f;
	(void)o;
	(void)node;
	(void)in_port;
	(void)out_port;
	if (!vl_in_use(topo))
		return IBU_EINVAL;
	/* SLs 0 and 1 only: QoS's default SL2VL maps them so already,
	 * and the first fault then resends no table */
	memset(vl_of_sl, IBU_VL_KEEP, 16);
	vl_of_sl[0] = 0;
	vl_of_sl[1] = 1;
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
	.vl = {
		.path_sl = path_sl,
		.sl2vl = sl2vl,
		.in_use = vl_in_use,
	},
	.gen = ibu_cyclic_gen,
	.num_gen = IBU_CYCLIC_NUM_GEN,
};
