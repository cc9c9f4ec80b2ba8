/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "deadlock_report.h"
#include "cdg.h"
#include "lidmap.h"
#include "mcmembers.h"
#include "mesh.h"
#include "mft.h"
#include "sl2vl.h"
#include "vlplan.h"
#include "xy_detour.h"

struct vlctx {
	const struct ibu_fabric *f;
	const struct ibu_sl2vl *tables;
	struct ibu_vlplan_cdg plan;
	int have_plan;
};

static int file_vl(void *arg, int node, int in, int out, int sl)
{
	const struct vlctx *c = arg;

	return ibu_sl2vl_get(c->tables, c->f, node, in, out, sl);
}

static int plan_sl(void *arg, int node, int port, uint32_t dlid)
{
	struct vlctx *c = arg;
	struct ibu_cdg_vl v;

	if (!c->have_plan)
		return 0;
	if (c->plan.t->dmg)
		ibu_xy_detour_cdg_vl(&v, &c->plan);
	else
		ibu_vlplan_cdg_vl(&v, &c->plan);
	return v.path_sl(v.ctx, node, port, dlid);
}

static void print_channel(FILE *out, const struct ibu_fabric *f,
			  const struct ibu_cdg_channel *c)
{
	const struct ibu_node *n = &f->nodes[c->node];
	const struct ibu_port *p = &n->ports[c->port];

	fprintf(out, "-E-   '%s' port %d -> '%s' port %d, VL %d\n", n->name,
		c->port, p->peer_node >= 0 ? f->nodes[p->peer_node].name : "?",
		p->peer_port, c->vl);
}

int ibu_deadlock_report(FILE *out, struct ibu_fabric *f,
			const struct ibu_lft *lft,
			const struct ibu_deadlock_opts *o)
{
	struct ibu_lidmap map = { 0 };
	struct ibu_sl2vl tables = { 0 };
	struct ibu_mcmembers mm;
	struct ibu_mft mft = { 0 };
	struct ibu_mesh t = { 0 };
	struct ibu_cdg g = { 0 };
	struct ibu_cdg_vl vl, *vlp = NULL;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	struct vlctx ctx;
	int rc, len = 0, i, ret = IBU_EXIT_ERROR, have_mm = 0;

	memset(&ctx, 0, sizeof(ctx));
	ctx.f = f;
	ibu_mcmembers_init(&mm);
	rc = ibu_fabric_index(f, &e);
	if (!rc)
		rc = ibu_lidmap_build(f, &map, &e);
	if (rc)
		goto fail;
	if (o->vl_plan) {
		enum ibu_vlplan_kind k;

		if (ibu_vlplan_parse(o->vl_plan, &k)) {
			rc = ibu_err_set(&e, IBU_EINVAL,
					 "--vl-plan: '%s' is not 1, 2-spread, 2-direction, 4-spread or 4-direction",
					 o->vl_plan);
			goto fail;
		}
		/* a damaged mesh: the SLs of the xy engine's layers (the
		 * same greedy plan the plugin made, lib/xy_detour.h) */
		rc = ibu_mesh_recognize_damaged(f, &t, -1, &e);
		if (!rc && t.dmg)
			rc = ibu_xy_detour_plan(&t, 15 / ibu_vlplan_num_vls(k),
						&e);
		if (rc) {
			ibu_err_prefix(&e, "--vl-plan needs a 2-D mesh");
			goto fail;
		}
		ctx.plan.kind = k;
		ctx.plan.t = &t;
		ctx.plan.map = &map;
		ctx.have_plan = 1;
		if (t.dmg)
			ibu_xy_detour_cdg_vl(&vl, &ctx.plan);
		else
			ibu_vlplan_cdg_vl(&vl, &ctx.plan);
		vlp = &vl;
	}
	if (o->sl2vl) {
		rc = ibu_sl2vl_read(o->sl2vl, f, &tables, &e);
		if (rc)
			goto fail;
		ctx.tables = &tables;
		memset(&vl, 0, sizeof(vl));
		vl.num_vls = tables.max_vl + 1;
		if (ctx.have_plan && ibu_vlplan_num_vls(ctx.plan.kind) > vl.num_vls)
			vl.num_vls = ibu_vlplan_num_vls(ctx.plan.kind);
		if (ctx.have_plan && t.dmg &&
		    ibu_xy_detour_num_vls(&t, ctx.plan.kind) > vl.num_vls)
			vl.num_vls = ibu_xy_detour_num_vls(&t, ctx.plan.kind);
		vl.path_sl = plan_sl;
		vl.vl = file_vl;
		vl.ctx = &ctx;
		vlp = &vl;
	}
	rc = ibu_cdg_init(&g, f, vlp, &e);
	if (!rc)
		rc = ibu_cdg_add_unicast(&g, lft, &map, &e);
	if (rc)
		goto fail;
	if (o->mcast) {
		rc = ibu_mft_read(o->mcast, f, &mft, &e);
		if (!rc && o->members) {
			rc = ibu_mcmembers_read(o->members, f, &mm, &e);
			have_mm = !rc;
		}
		if (!rc)
			rc = ibu_cdg_add_mcast(&g, &mft, have_mm ? &mm : NULL, &e);
		if (rc)
			goto fail;
	}
	rc = ibu_cdg_find_cycle(&g, &cyc, &len, &e);
	if (rc < 0)
		goto fail;
	if (!o->quiet) {
		fprintf(out, "-I- deadlock: %ld unicast routes",
			g.routes);
		if (o->mcast)
			fprintf(out, ", %ld multicast groups flooded from every member (%ld floods)",
				g.groups, g.floods);
		fprintf(out, "; %d VL%s%s%s%s%s\n", g.vl.num_vls,
			g.vl.num_vls > 1 ? "s" : "",
			o->vl_plan ? ", plan " : "", o->vl_plan ? o->vl_plan : "",
			o->sl2vl ? ", SL2VL from " : "", o->sl2vl ? o->sl2vl : "");
		fprintf(out, "-I- deadlock: channel dependency graph: %ld channels, %zu dependencies\n",
			ibu_cdg_num_channels(&g), g.num_deps);
	}
	if (rc == 1) {
		fprintf(out, "-E- deadlock: credit loop through %d channels (each waits for the next):\n",
			len);
		for (i = 0; i < len; i++)
			print_channel(out, f, &cyc[i]);
		ret = IBU_EXIT_FAIL;
	} else {
		fprintf(out, "-I- deadlock: no cycle in the channel dependency graph: free of credit loops\n");
		ret = IBU_EXIT_OK;
	}
	goto out;
fail:
	fflush(out);
	ibu_opt_report("check", &e);
out:
	free(cyc);
	ibu_cdg_free(&g);
	ibu_mcmembers_free(&mm);
	ibu_mft_free(&mft);
	ibu_sl2vl_free(&tables);
	ibu_mesh_free(&t);
	ibu_lidmap_free(&map);
	return ret;
}
