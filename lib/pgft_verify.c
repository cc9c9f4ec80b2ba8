/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "pgft_verify.h"
#include "lft.h"
#include "lidmap.h"

int ibu_pgft_hosts_lmc(const struct ibu_fabric *f, const struct ibu_pgft *g)
{
	int d, lmc = -1;

	for (d = 0; d < g->num_hosts; d++) {
		int l = f->nodes[g->host[d].node].ports[g->host[d].port].lmc;

		if (lmc < 0 || l < lmc)
			lmc = l;
	}
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
		     const struct ibu_pgft *g, int s, uint32_t lid, int D,
		     int want, int got)
{
	if (!rp->fn || rp->max_errors < 0 ||
	    rp->printed[IBU_VK_RULE] >= rp->max_errors) {
		rp->total[IBU_VK_RULE]++;
		return;
	}
	ibu_verify_error(rp, IBU_VK_RULE,
			 "cyclic: level-%d switch '%s': LID 0x%04x of host %d '%s': expected port %d, found %d",
			 g->level[s], f->nodes[s].name, lid, D,
			 f->nodes[g->host[D].node].name, want, got);
}

static int run(void *arg, const struct ibu_fabric *f, const struct ibu_lft *lft,
	       const struct ibu_lidmap *map, struct ibu_verify_report *rp,
	       struct ibu_verify_result *r, struct ibu_err *e)
{
	const struct ibu_pgft_rule *c = arg;
	struct ibu_lft exp;
	uint32_t lid;
	int s, rc;

	rc = ibu_pgft_route(f, c->g, map, c->lmc, &exp, e);
	if (rc)
		return rc;
	for (lid = 1; lid <= map->max_lid; lid++) {
		const struct ibu_lid_owner *o = ibu_lidmap_get(map, lid);
		int D = o ? ibu_pgft_host(c->g, o->node, o->port) : -2;

		if (D < 0)
			continue;
		for (s = 0; s < f->num_nodes; s++) {
			int want, got;

			if (c->g->level[s] < 1)
				continue;
			want = ibu_lft_get(&exp, s, lid);
			got = ibu_lft_get(lft, s, lid);
			r->rule_entries++;
			if (want != got) {
				r->rule_mismatches++;
				mismatch(rp, f, c->g, s, lid, D, want, got);
			}
		}
	}
	ibu_lft_free(&exp);
	ibu_verify_info(rp, "cyclic: %ld entries of %d switches compared with the generalised rule (PGFT, LMC %d, %d of %d up levels from the offset): %ld mismatches",
			r->rule_entries, c->g->num_switches, c->lmc,
			ibu_pgft_offset_levels(c->g, c->lmc), c->g->P.h - 1,
			r->rule_mismatches);
	return IBU_OK;
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
