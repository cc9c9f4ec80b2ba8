/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One channel dependency graph for the passes after the turns on a
 * damaged PGFT (shedding, pgft_shed.c, then worst-shift lowering,
 * pgft_shift.c): each checks a changed LID's routes against every other
 * route before keeping it. The graph of every route is built once, by
 * the first pass that changes an entry, and grown as changes are kept, so
 * the next pass does not walk every route again. Dependencies of routes
 * changed since stay in it: a superset, so acyclic stays safe (a stricter
 * test than a graph built afresh after the shedding). With st.layered
 * the graph is VL 1's: the routes with a down-up turn, those of the
 * deferred LIDs (the others go up*|down*: VL 0, acyclic).
 */
#include "pgft_router.h"

int ibu__pgft_cdg_build(struct router *r, struct ibu_err *e)
{
	int rc, len;

	if (r->cdg_on)
		return r->cdg_cyclic;
	rc = ibu_cdg_ports_init(&r->cdg, r->f, e);
	if (rc)
		return rc;
	r->cdg_on = 1;
	r->st.cdg_builds++;
	if (r->st.layered)
		rc = ibu__pgft_cdg_add_deferred(r, &r->cdg, e);
	else
		rc = ibu_cdg_ports_add_unicast(&r->cdg, r->lft, r->map, e);
	if (!rc)
		rc = ibu_cdg_ports_find_cycle(&r->cdg, NULL, &len, e);
	if (rc > 0)
		r->cdg_cyclic = 1;
	return rc;
}

int ibu__pgft_cdg_cycle(struct router *r, uint32_t lid, struct ibu_err *e)
{
	int rc, len;

	ibu_cdg_ports_mark(&r->cdg);
	rc = ibu__pgft_cdg_add_lid(r, &r->cdg, lid, e);
	if (!rc)
		rc = ibu_cdg_ports_find_new_cycle(&r->cdg, NULL, &len, e);
	if (rc)
		ibu_cdg_ports_rollback(&r->cdg);
	else
		ibu_cdg_ports_commit(&r->cdg);
	return rc;
}

int ibu__pgft_cdg_add_lid(const struct router *r, struct ibu_cdg_ports *g,
			  uint32_t lid, struct ibu_err *e)
{
	if (r->st.layered)
		return ibu_cdg_ports_add_lid_layer(g, r->lft, lid, r->g->level,
						   1, e);
	return ibu_cdg_ports_add_lid(g, r->lft, lid, e);
}

int ibu__pgft_cdg_add_deferred(const struct router *r,
			       struct ibu_cdg_ports *g, struct ibu_err *e)
{
	int i, rc = IBU_OK;

	for (i = 0; i < r->ndefer && !rc; i++)
		rc = ibu__pgft_cdg_add_lid(r, g, r->defer[i].lid, e);
	return rc;
}

void ibu__pgft_count_layered(struct router *r)
{
	int i, s;

	r->st.layered_lids = 0;
	for (i = 0; i < r->ndefer && r->st.layered; i++)
		for (s = 0; s < r->f->num_nodes; s++)
			if (r->hosted[s] &&
			    ibu_lft_route_has_valley(r->f, r->lft, s,
						     r->defer[i].lid,
						     r->g->level)) {
				r->st.layered_lids++;
				break;
			}
	if (!r->st.layered_lids)
		r->st.layered = 0;
}

void ibu__pgft_cdg_free(struct router *r)
{
	if (r->cdg_on)
		ibu_cdg_ports_free(&r->cdg);
	r->cdg_on = 0;
}
