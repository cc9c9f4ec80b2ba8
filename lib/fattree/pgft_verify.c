/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgft_verify.h"
#include "lft.h"
#include "lidmap.h"

/* Compute host D's port. */
static const struct ibu_port *hport(const struct ibu_fabric *f,
				    const struct ibu_pgft *g, int D)
{
	return &f->nodes[g->host[D].node].ports[g->host[D].port];
}

int ibu_pgft_hosts_lmc(const struct ibu_fabric *f, const struct ibu_pgft *g)
{
	int d, lmc = -1;

	for (d = 0; d < g->num_hosts; d++)
		if (lmc < 0 || hport(f, g, d)->lmc < lmc)
			lmc = hport(f, g, d)->lmc;
	return lmc < 0 ? 0 : lmc;
}

int ibu_pgft_ranks(const struct ibu_fabric *f, const struct ibu_pgft *g,
		   int **rank, struct ibu_err *e)
{
	int i;

	*rank = malloc((size_t)(f->num_nodes ? f->num_nodes : 1) * sizeof(int));
	if (!*rank)
		return ibu_err_set(e, IBU_ENOMEM, "out of memory");
	for (i = 0; i < f->num_nodes; i++)
		(*rank)[i] = g->level[i] >= 1 ? g->P.h - g->level[i] : g->P.h;
	return IBU_OK;
}

static void mismatch(struct ibu_verify_report *rp, const struct ibu_fabric *f,
		     const struct ibu_pgft_rule *c, int s, uint32_t lid, int D,
		     int want, int got)
{
	char sw[96];

	if (!rp->fn || rp->max_errors < 0 ||
	    rp->printed[IBU_VK_RULE] >= rp->max_errors) {
		rp->total[IBU_VK_RULE]++;
		return;
	}
	if (c->labels)
		ibu_pgft_ibft_sw_label(c->g, c->labels, s, sw, sizeof(sw));
	else
		snprintf(sw, sizeof(sw), "level-%d switch", c->g->level[s]);
	ibu_verify_error(rp, IBU_VK_RULE,
			 "cyclic: %s '%s': LID 0x%04x of host %d '%s': expected port %d, found %d",
			 sw, f->nodes[s].name, lid, D,
			 f->nodes[c->g->host[D].node].name, want, got);
}

struct climb {
	const struct ibu_fabric *f;
	const struct ibu_pgft *g;
	const struct ibu_lft *lft;
	int *out;			/* [node] port, valid when stamp */
	long *stamp, now;
	int bad;			/* this source broke its chain */
	int degraded;			/* faults: a broken chain is told,
					 * not counted (see climbs()) */
	int levels;			/* up levels the LID decides: only
					 * their hops form the chain (above,
					 * the destination picks) */
};

/* One route of source S on dlid: every climbing hop against the chain. */
static void climb(struct climb *c, struct ibu_verify_report *rp, int S,
		  uint32_t dlid, const char *where)
{
	const struct ibu_fabric *f = c->f;
	int n = c->g->host[S].leaf, hops, p, q;

	for (hops = 0; hops < 64 && hops < c->levels; hops++) {
		p = ibu_lft_get(c->lft, n, dlid);
		if (p == IBU_NO_PATH || p < 1 || p > f->nodes[n].num_ports)
			return;
		q = f->nodes[n].ports[p].peer_node;
		if (q < 0 || c->g->level[q] <= c->g->level[n])
			return;		/* no longer climbing */
		if (c->stamp[n] == c->now && c->out[n] != p) {
			if (!c->bad++ && !c->degraded)
				ibu_verify_error(rp, IBU_VK_PATH,
						 "cyclic: host %d '%s' climbs through '%s' on port %d and, toward DLID 0x%04x%s, on port %d",
						 S, f->nodes[c->g->host[S].node].name,
						 f->nodes[n].name, c->out[n], dlid,
						 where, p);
			return;
		}
		c->stamp[n] = c->now;
		c->out[n] = p;
		n = q;
	}
}

/* The compute host owning dlid, -1 if none. */
static int dlid_host(const struct ibu_pgft *g, const struct ibu_lidmap *map,
		     uint32_t dlid)
{
	const struct ibu_lid_owner *o = ibu_lidmap_get(map, dlid);

	return o ? ibu_pgft_host(g, o->node, o->port) : -1;
}

/* Source S's lines of the DLID file: climbs, and in seen[] (stamp S + 1)
 * the destinations they cover; IBU_EPARSE for a DLID no host owns. */
static int file_climbs(const struct ibu_pgft_rule *r, struct climb *c,
		       const struct ibu_lidmap *map,
		       struct ibu_verify_report *rp, int S, int *seen,
		       long *missing, struct ibu_err *e)
{
	const struct ibu_dlid_pairs *dp = r->dlids;
	const char *src = dp->source ? dp->source : "DLIDs";
	uint32_t slid = hport(c->f, c->g, S)->lid;
	char where[300];
	long i, want = 0;
	int D;

	for (i = 0; i < dp->num; i++) {
		if (dp->pair[i].slid != slid)
			continue;
		D = dlid_host(c->g, map, dp->pair[i].dlid);
		if (D < 0)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s:%d: DLID 0x%04x is no compute host's LID",
					   src, dp->pair[i].line,
					   dp->pair[i].dlid);
		snprintf(where, sizeof(where), " (%s:%d)", src,
			 dp->pair[i].line);
		climb(c, rp, S, dp->pair[i].dlid, where);
		if (D != S && seen[D] != S + 1) {
			seen[D] = S + 1;
			want--;
		}
	}
	for (D = 0; D < c->g->num_hosts; D++)
		want += D != S && hport(c->f, c->g, D)->lid;
	*missing += want;
	return IBU_OK;
}

/* Every SLID of the file is a compute host's base LID. */
static int file_slids(const struct ibu_pgft_rule *r, const struct climb *c,
		      struct ibu_err *e)
{
	const struct ibu_dlid_pairs *dp = r->dlids;
	long i;
	int S, found;

	for (i = 0; i < dp->num; i++) {
		for (found = 0, S = 0; S < c->g->num_hosts && !found; S++)
			found = hport(c->f, c->g, S)->lid == dp->pair[i].slid;
		if (!found)
			return ibu_err_set(e, IBU_EPARSE,
					   "%s:%d: SLID 0x%04x is no compute host's base LID",
					   dp->source ? dp->source : "DLIDs",
					   dp->pair[i].line, dp->pair[i].slid);
	}
	return IBU_OK;
}

/* After a DLID file: how many pairs it had, and the ordered pairs it
 * lacks (when every source was checked). */
static void file_report(const struct ibu_pgft_rule *r, long missing,
			int every_source, struct ibu_verify_report *rp,
			struct ibu_verify_result *res)
{
	char text[300];

	ibu_verify_info(rp, "cyclic: %ld DLID pairs from %s", r->dlids->num,
			r->dlids->source ? r->dlids->source : "DLIDs");
	if (!missing || !every_source)
		return;
	snprintf(text, sizeof(text),
		 "cyclic: %ld ordered pairs of end ports have no line in %s",
		 missing, r->dlids->source ? r->dlids->source : "DLIDs");
	res->warnings++;
	if (rp->fn)
		rp->fn(rp->arg, 'W', text);
}

static int climbs(const struct ibu_pgft_rule *r, struct climb *c,
		  const struct ibu_lidmap *map, int *seen,
		  struct ibu_verify_report *rp, struct ibu_verify_result *res,
		  struct ibu_err *e)
{
	int N = c->g->num_hosts, want = r->climb_sources, S, D, rc = IBU_OK;
	int step = want > 0 && want < N ? N / want : 1;
	long missing = 0;

	for (S = 0; S < N && !rc; S += step) {
		c->now++;
		c->bad = 0;
		for (D = 0; !r->dlids && D < N; D++) {
			uint32_t lid = hport(c->f, c->g, D)->lid;

			if (D != S && lid)
				climb(c, rp, S, lid +
				      ibu_pgft_offset_rule(c->g, r->lmc,
							   r->paper, S, D), "");
		}
		if (r->dlids)
			rc = file_climbs(r, c, map, rp, S, seen, &missing, e);
		res->path_sources++;
		res->path_violations += c->bad > 0;
	}
	/* on a damaged tree the balance moves the LIDs whose rule crosses a
	 * fault off the rule, and with them many sources' routes off their
	 * chain: the tables are the engine's (the comparison says so), so
	 * those sources are told, not counted as violations */
	if (c->degraded) {
		ibu_verify_info(rp, "cyclic: degraded PGFT (%d faults): %ld of %ld sources keep one ascending path on %s; the others' routes leave it toward LIDs re-routed around the faults (expected on a damaged tree, not counted)",
				r->g->num_faults,
				res->path_sources - res->path_violations,
				res->path_sources,
				r->dlids ? "the given DLIDs" : "the advised DLIDs");
		res->path_violations = 0;
	}
	if (!rc && r->dlids)
		rc = file_slids(r, c, e);
	if (!rc && r->dlids)
		file_report(r, missing, step == 1, rp, res);
	res->path_levels = ibu_pgft_offset_levels(c->g, r->lmc);
	return rc;
}

static int check_climbs(const struct ibu_pgft_rule *r,
			const struct ibu_fabric *f, const struct ibu_lft *lft,
			const struct ibu_lidmap *map,
			struct ibu_verify_report *rp,
			struct ibu_verify_result *res, struct ibu_err *e)
{
	struct climb c = { .f = f, .g = r->g, .lft = lft,
			   .levels = ibu_pgft_offset_levels(r->g, r->lmc),
			   .degraded = r->g->num_faults > 0 };
	size_t n = (size_t)(f->num_nodes ? f->num_nodes : 1);
	int *seen = calloc((size_t)r->g->num_hosts + 1, sizeof(int));
	int rc;

	c.out = malloc(n * sizeof(int));
	c.stamp = calloc(n, sizeof(long));
	if (!c.out || !c.stamp || !seen)
		rc = ibu_err_set(e, IBU_ENOMEM, "out of memory");
	else
		rc = climbs(r, &c, map, seen, rp, res, e);
	free(c.out);
	free(c.stamp);
	free(seen);
	if (!rc && !res->path_violations && !c.degraded)
		ibu_verify_info(rp, "cyclic: every source's routes share one ascending path on %s (%ld sources, %d of %d up levels decided by the LID)",
				r->dlids ? "the given DLIDs" : "its advised DLIDs",
				res->path_sources, res->path_levels,
				r->g->P.h - 1);
	return rc;
}

static int run(void *arg, const struct ibu_fabric *f, const struct ibu_lft *lft,
	       const struct ibu_lidmap *map, struct ibu_verify_report *rp,
	       struct ibu_verify_result *r, struct ibu_err *e)
{
	const struct ibu_pgft_rule *c = arg;
	struct ibu_lft own = { 0 };
	const struct ibu_lft *exp = c->expected;
	uint32_t lid;
	int s, rc;

	if (!exp) {
		rc = ibu_lft_init(&own, f, map->max_lid, e);
		if (!rc)
			rc = ibu_pgft_route_paper(f, c->g, map, c->lmc,
						  c->paper, &own, NULL, e);
		if (rc) {
			ibu_lft_free(&own);
			return rc;
		}
		exp = &own;
	}
	for (lid = 1; lid <= map->max_lid; lid++) {
		int D = dlid_host(c->g, map, lid);

		if (D < 0)
			continue;
		for (s = 0; s < f->num_nodes; s++) {
			int want, got;

			if (c->g->level[s] < 1)
				continue;
			want = ibu_lft_get(exp, s, lid);
			got = ibu_lft_get(lft, s, lid);
			r->rule_entries++;
			if (want != got) {
				r->rule_mismatches++;
				mismatch(rp, f, c, s, lid, D, want, got);
			}
		}
	}
	ibu_lft_free(&own);
	ibu_verify_info(rp, "cyclic: %ld entries of %d switches compared with the %s rule%s (%s, LMC %d, %d of %d up levels from the offset): %ld mismatches",
			r->rule_entries, c->g->num_switches,
			c->paper ? "paper's" : "generalised",
			c->g->num_faults ? " and its re-routes around the faults" : "",
			c->paper ? "IBFT, Eq. 2" : "PGFT", c->lmc, ibu_pgft_offset_levels(c->g, c->lmc),
			c->g->P.h - 1, r->rule_mismatches);
	if (c->g->num_faults && !c->dlids) {
		/* a re-routed entry leaves the one-chain property where it
		 * turns away from a fault */
		ibu_verify_info(rp, "cyclic: degraded PGFT (%d faults): ascending paths not checked",
				c->g->num_faults);
		return IBU_OK;
	}
	return check_climbs(c, f, lft, map, rp, r, e);
}

void ibu_pgft_verify_rule(struct ibu_verify_rule *rule,
			  struct ibu_pgft_rule *arg)
{
	memset(rule, 0, sizeof(*rule));
	rule->name = "cyclic";
	rule->mismatch_name = "cyclic mismatches";
	rule->path_name = "sources without one ascending path";
	rule->path_short = "climb violations";
	rule->arg = arg;
	rule->run = run;
}
