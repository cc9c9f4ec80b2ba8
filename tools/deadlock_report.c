/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "opts.h"
#include "deadlock_report.h"
#include "cdg.h"
#include "lidmap.h"
#include "mcmembers.h"
#include "mft_dump.h"
#include "sl2vl.h"
#include "osm_state.h"

struct vlctx {
	const struct ibu_fabric *f;
	const struct ibu_sl2vl *tables;
	const struct ibu_lidmap *map;
	const struct ibu_deadlock_opts *o;	/* o->vl_engine: the plan */
};

static int file_vl(void *arg, int node, int in, int out, int sl)
{
	const struct vlctx *c = arg;

	return ibu_sl2vl_get(c->tables, c->f, node, in, out, sl);
}

/* The SL the engine's plan gives a route (0 for multicast, or none). */
static int plan_sl(void *arg, int node, int port, uint32_t dlid)
{
	const struct vlctx *c = arg;
	const struct ibu_deadlock_opts *o = c->o;
	int sl;

	if (dlid >= 0xC000)
		return 0;
	if (!o->vl_engine) {
		/* the SLs the plugin published: what PathRecords hand out */
		sl = ibu_osm_state_path_sl(
			(uint16_t)c->f->nodes[node].ports[port].lid,
			(uint16_t)dlid);
		return sl < 0 ? 0 : sl;
	}
	sl = o->vl_engine->vl.path_sl(c->f, o->topo, c->map, o->eo,
				   (uint16_t)c->f->nodes[node].ports[port].lid,
				   (uint16_t)dlid);
	return sl < 0 ? 0 : sl;
}

static int plan_vl(void *arg, int node, int in, int out, int sl)
{
	const struct vlctx *c = arg;
	const struct ibu_deadlock_opts *o = c->o;
	uint8_t v[16];

	if (o->vl_engine->vl.sl2vl(c->f, o->topo, o->eo, node, in, out, v) ||
	    v[sl & 15] == IBU_VL_KEEP)	/* QoS's VL: unknown here */
		return -1;
	return v[sl & 15];
}

/* VLs the plan uses: the highest its SL2VL tables name, plus one. */
static int plan_num_vls(const struct vlctx *c)
{
	const struct ibu_fabric *f = c->f;
	int n, in, out, sl, v, top = 0;

	for (n = 0; n < f->num_nodes; n++) {
		if (!ibu_node_is_switch(&f->nodes[n]))
			continue;
		for (in = 0; in <= f->nodes[n].num_ports; in++)
			for (out = 1; out <= f->nodes[n].num_ports; out++)
				for (sl = 0; sl < 16; sl++) {
					v = plan_vl((void *)c, n, in, out, sl);
					if (v > top && v < 15)
						top = v;
				}
	}
	return top + 1;
}

/* ", plan 2-direction": the engine's VL option, as the user gave it. */
static void plan_name(const struct ibu_deadlock_opts *o, char *buf,
		      size_t len)
{
	const struct ibu_engine_ops *ops = o->vl_engine;
	int i;

	buf[0] = '\0';
	for (i = 0; ops && i < ops->num_options; i++)
		if (ops->options[i].needs_qos) {
			int n = snprintf(buf, len, ", plan ");

			if (n > 0 && (size_t)n < len)
				ibu_engine_option_format(&ops->options[i],
					ibu_engine_opt(o->eo, &ops->options[i]),
					buf + n, len - (size_t)n);
			return;
		}
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
	struct ibu_cdg g = { 0 };
	struct ibu_cdg_vl vl, *vlp = NULL;
	struct ibu_cdg_channel *cyc = NULL;
	struct ibu_err e = { 0 };
	struct vlctx ctx;
	char plan[64];
	int rc, len = 0, i, ret = IBU_EXIT_ERROR, have_mm = 0;

	memset(&ctx, 0, sizeof(ctx));
	ctx.f = f;
	ibu_mcmembers_init(&mm);
	rc = ibu_fabric_index(f, &e);
	if (!rc)
		rc = ibu_lidmap_build(f, &map, &e);
	if (rc)
		goto fail;
	ctx.map = &map;
	ctx.o = o;
	if (o->vl_engine) {
		memset(&vl, 0, sizeof(vl));
		vl.num_vls = plan_num_vls(&ctx);
		vl.path_sl = plan_sl;
		vl.vl = plan_vl;
		vl.ctx = &ctx;
		vlp = &vl;
	}
	if (o->sl2vl) {
		rc = ibu_sl2vl_read(o->sl2vl, f, &tables, &e);
		if (rc)
			goto fail;
		ctx.tables = &tables;
		memset(&vl, 0, sizeof(vl));
		vl.num_vls = tables.max_vl + 1;
		if (o->vl_engine && plan_num_vls(&ctx) > vl.num_vls)
			vl.num_vls = plan_num_vls(&ctx);
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
		plan_name(o, plan, sizeof(plan));
		fprintf(out, "; %d VL%s%s%s%s%s\n", g.vl.num_vls,
			g.vl.num_vls > 1 ? "s" : "", plan,
			o->sl2vl ? ", SL2VL from " : "", o->sl2vl ? o->sl2vl : "",
			!vlp ? "" : o->vl_engine ? ", SLs of the plan" :
			ibu_osm_state_path_sl(0, 0) >= 0 ?
			", SLs the plugin published" : ", SL 0 for every path");
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
	ibu_lidmap_free(&map);
	return ret;
}
