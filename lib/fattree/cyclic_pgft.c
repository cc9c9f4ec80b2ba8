/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cyclic_pgft.h"

/* Paper port of switch node's port p (c->ibft's labels). */
static int paper_port(const struct ibu_cyclic_pgft *c, int node, int p)
{
	return ibu_pgft_ibft_port(c->f, &c->g, c->ibft, node, p);
}

/* up[node]: switch node's up-ports by paper up-digit (0: no cable). */
static int paper_ups(const struct ibu_cyclic_pgft *c, int half, int **up,
		     int *slots)
{
	const struct ibu_fabric *f = c->f;
	int s, p, k, used = 0;

	for (s = 0; s < c->g.num_nodes; s++) {
		int l = c->g.level[s];
		int U = l >= 1 ? ibu_pgft_up_ports(&c->g.P, l) : 0;

		up[s] = slots + used;
		used += U;
		for (p = 1; U && p <= f->nodes[s].num_ports; p++) {
			int q = f->nodes[s].ports[p].peer_node;

			k = paper_port(c, s, p) - half - 1;
			if (q < 0 || c->g.level[q] != l + 1 || k < 0)
				continue;
			if (k >= U)
				return IBU_ETOPO;
			up[s][k] = p;
		}
	}
	return IBU_OK;
}

static long total_up_slots(const struct ibu_pgft *g)
{
	long n = 0;
	int s;

	for (s = 0; s < g->num_nodes; s++)
		if (g->level[s] >= 1)
			n += ibu_pgft_up_ports(&g->P, g->level[s]);
	return n;
}

/* The paper's rule on c's labels: up-ports by up-digit, PIDs by D. One
 * allocation: the struct, then up[], then the slots. */
static int paper_rule(struct ibu_cyclic_pgft *c, int rotated,
		      struct ibu_err *e)
{
	size_t nodes = (size_t)c->g.num_nodes + 1;
	size_t sz = sizeof(*c->paper) + nodes * sizeof(int *) +
		    ((size_t)total_up_slots(&c->g) + 1) * sizeof(int);
	struct ibu_pgft_paper *p = calloc(1, sz);
	int **up;

	if (!p)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	up = (int **)(void *)(p + 1);
	if (paper_ups(c, c->ibft->half, up, (int *)(void *)(up + nodes))) {
		free(p);
		return ibu_err_set(e, IBU_ETOPO,
				   "offsets=paper: the tree's paper labels do not match its PGFT levels");
	}
	p->half = c->ibft->half;
	p->rotated = rotated;
	p->up = (const int *const *)up;
	p->pid = c->ibft->pid;
	c->paper = p;
	return IBU_OK;
}

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
	c->numbered = c->ibft != NULL;
	if (!rc && c->ibft && rule != IBU_CYCLIC_GENERALISED)
		rc = paper_rule(c, rule == IBU_CYCLIC_PAPER_ROTATED, e);
	if (rc) {
		ibu_cyclic_pgft_free(c);
		return rc;
	}
	*out = c;
	return IBU_OK;
}

void ibu_cyclic_pgft_free(struct ibu_cyclic_pgft *c)
{
	if (!c)
		return;
	ibu_pgft_ibft_free(c->ibft);
	free(c->paper);
	ibu_pgft_free(&c->g);
	free(c);
}

int ibu_cyclic_pgft_plan(const struct ibu_fabric *f, struct ibu_cyclic_pgft *c,
			 struct ibu_err *e)
{
	int d, lmc = -1;

	for (d = 0; d < c->g.num_hosts; d++) {
		const struct ibu_port *p = &f->nodes[c->g.host[d].node]
					    .ports[c->g.host[d].port];

		if (!p->lid)
			return ibu_err_set(e, IBU_ELID, "end port '%s' port %d has no LID",
					   f->nodes[c->g.host[d].node].name,
					   c->g.host[d].port);
		if (lmc < 0 || p->lmc < lmc)
			lmc = p->lmc;
	}
	c->lmc = lmc < 0 ? 0 : lmc;
	c->offset_levels = ibu_pgft_offset_levels(&c->g, c->lmc);
	return IBU_OK;
}

int ibu_cyclic_pgft_route(const struct ibu_fabric *f,
			  struct ibu_cyclic_pgft *c,
			  const struct ibu_lidmap *map, struct ibu_lft *lft,
			  struct ibu_err *e)
{
	/* the engine driver allocated lft (every entry IBU_NO_PATH) */
	if (c->paper)
		return ibu_pgft_route_paper(f, &c->g, map, c->lmc, c->paper,
					    lft, &c->st, e);
	return ibu_pgft_route_stats(f, &c->g, map, c->lmc, lft, &c->st, e);
}

unsigned ibu_cyclic_pgft_offset(const struct ibu_cyclic_pgft *c, int S,
				int D)
{
	return ibu_pgft_offset_rule(&c->g, c->lmc, c->paper, S, D);
}

int ibu_cyclic_pgft_turn(const struct ibu_fabric *f,
			 const struct ibu_cyclic_pgft *c, int S, int D)
{
	return ibu_pgft_turn_rule(f, &c->g, c->lmc, c->paper, S, D);
}

/* The paper's LIDs of an IBFT (the IBFT path's messages). */
static int assign_ibft_lids(struct ibu_fabric *f,
			    const struct ibu_cyclic_pgft *c, int lmc,
			    int paper_exact, int *lmc_used, struct ibu_err *e)
{
	const struct ibu_pgft_ibft *x = c->ibft;
	int fit = ibu_pgft_ibft_fit_lmc(x, lmc >= 0 ? lmc : c->lmc_needed,
					paper_exact);

	if (fit < 0)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) has %d end ports and %d switches: more than the unicast LID space 0x0001-0xBFFF holds even at LMC 0",
				   x->m, x->n, x->num_pids, x->full_switches);
	if (lmc >= 0 && fit < lmc)
		return ibu_err_set(e, IBU_ELID,
				   "IBFT(%d,%d) at LMC %d needs more LIDs than the unicast space 0x0001-0xBFFF holds; the largest LMC that fits is %d",
				   x->m, x->n, lmc, fit);
	*lmc_used = fit;
	return ibu_pgft_ibft_assign_lids(f, &c->g, x, fit, paper_exact, e);
}

int ibu_cyclic_pgft_assign_lids(struct ibu_fabric *f,
				const struct ibu_cyclic_pgft *c, int lmc,
				int paper_exact, int *lmc_used,
				struct ibu_err *e)
{
	int want = lmc >= 0 ? lmc : c->lmc_needed;
	int fit;

	if (c->numbered)
		return assign_ibft_lids(f, c, lmc, paper_exact, lmc_used, e);
	fit = ibu_pgft_fit_lmc(&c->g, want);

	if (fit < 0 || (lmc >= 0 && fit < lmc))
		return ibu_err_set(e, IBU_ELID,
				   "%d end ports and %d switches at LMC %d need more LIDs than the unicast space 0x0001-0xBFFF holds; the largest LMC that fits is %d",
				   c->g.num_hosts + c->g.num_spine_hosts,
				   c->g.num_switches, want, fit);
	*lmc_used = fit;
	return ibu_pgft_assign_lids(f, &c->g, fit, e);
}

int ibu_cyclic_pgft_may_leave_unrouted(const struct ibu_cyclic_pgft *c,
				       int node, uint32_t lid)
{
	(void)lid;
	/* switch LIDs and hosts on tops: every switch has a route (one
	 * down-up turn where up*|down* has none, pgft_turn.c) */
	return c->g.num_faults && node >= 0 && node < c->g.num_nodes &&
	       c->g.level[node] >= 1;
}

void ibu_cyclic_pgft_describe(const struct ibu_cyclic_pgft *c, char *buf,
			      size_t len)
{
	struct ibu_pgft exact = c->g;
	char head[192];
	int m, n;

	if (c->ibft && !c->g.num_faults) {	/* as the IBFT path said it */
		snprintf(buf, len, "IBFT(%d,%d): %d switches, %d end ports, LMC in use %d (paper needs %d%s)",
			 c->ibft->m, c->ibft->n, c->g.num_switches,
			 c->g.num_hosts, c->lmc, c->lmc_needed,
			 c->lmc < c->lmc_needed ?
			 "; up-digits beyond the offset from the destination" : "");
		return;
	}
	exact.num_faults = 0;	/* the faults go last */
	if (c->g.num_faults && !c->g.num_spine_hosts &&
	    ibu_pgft_is_ibft(&c->g.P, &m, &n))	/* as admins know it */
		snprintf(head, sizeof(head), "IBFT(%d,%d): %d switches, %d end ports",
			 m, n, c->g.num_switches, c->g.num_hosts);
	else
		ibu_pgft_describe(&exact, head, sizeof(head));
	snprintf(buf, len, "%s, LMC in use %d (needs %d%s)", head, c->lmc,
		 c->lmc_needed, c->offset_levels < c->g.P.h - 1 ?
		 "; up-digits beyond the offset from the destination" : "");
	if (c->g.num_faults) {
		size_t o = strlen(buf);

		snprintf(buf + o, len > o ? len - o : 0,
			 "; degraded: %d faults (limit %d), %ld entries re-routed (%ld LIDs whose rule crossed a fault, spread over the surviving ways; %ld for switch-own traffic only, %ld left unrouted at leaves: no up*/down* path; %ld turned once, at one switch per LID)",
			 c->g.num_faults, c->g.max_faults,
			 c->st.rerouted + c->st.outside, c->st.balanced,
			 c->st.outside, c->st.unrouted, c->st.turned);
	}
}

void ibu_cyclic_pgft_node_label(const struct ibu_cyclic_pgft *c, int node,
				char *buf, size_t len)
{
	if (node < 0 || node >= c->g.num_nodes || c->g.level[node] < 1)
		snprintf(buf, len, "-");
	else if (c->ibft)
		ibu_pgft_ibft_sw_label(&c->g, c->ibft, node, buf, len);
	else
		snprintf(buf, len, "L%d#%d", c->g.level[node], c->g.col[node]);
}

int ibu_cyclic_pgft_endport_index(const struct ibu_cyclic_pgft *c, int node,
				  int port)
{
	int D = ibu_pgft_host(&c->g, node, port), i;

	if (D != -1)
		return D >= 0 ? D : -1;
	for (i = 0; i < c->g.num_spine_hosts; i++)
		if (c->g.spine_host[i].node == node &&
		    c->g.spine_host[i].port == port)
			return c->g.num_hosts + i;
	return -1;
}

int ibu_cyclic_pgft_layout(const struct ibu_fabric *f,
			   const struct ibu_cyclic_pgft *c, int node, int *row,
			   double *key)
{
	const struct ibu_pgft *g = &c->g;
	double best = -1;
	int p, i;

	if (node < 0 || node >= g->num_nodes)
		return -1;
	if (g->level[node] >= 1) {
		*row = g->P.h - g->level[node];
		*key = c->ibft ? ibu_pgft_ibft_slot(g, c->ibft, node) :
		       g->col[node];	/* an IBFT's by its label */
		return 0;
	}
	if (ibu_node_is_switch(&f->nodes[node]))
		return -1;
	for (p = 1; p <= f->nodes[node].num_ports; p++) {
		i = ibu_cyclic_pgft_endport_index(c, node, p);
		if (i >= 0 && (best < 0 || i < best))
			best = i;
	}
	*row = g->P.h;
	*key = best >= 0 ? best : 1e12;
	return 0;
}
