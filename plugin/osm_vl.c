/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * SL/VL plans of an engine (ops->vl.path_sl, ops->vl.sl2vl) as OpenSM's
 * path_sl and update_sl2vl callbacks. OpenSM calls update_sl2vl only with
 * `qos TRUE` (for every switch port pair, CA port and switch port 0), so
 * ibu_vl_setup() warns when a plan is configured and QoS is off; path_sl
 * serves SA PathRecords and every port's SMSL.
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <inttypes.h>

/* update_sl2vl: t arrives filled with the QoS SL2VL; the plan replaces it. */
static void engine_update_sl2vl(void *context, osm_physp_t *port,
				uint8_t in_port, uint8_t out_port,
				ib_slvl_table_t *t)
{
	struct ibu_plugin_engine *pe = context;
	const struct ibu_plugin_routing *r = &pe->routing;
	uint8_t vl[16];
	int node, sl;

	if (!r->valid || !port || !port->p_node || !t)
		return;
	node = ibu_osm_node_index(&r->fabric, port->p_node);
	if (node < 0)
		return;
	if (pe->ops->vl.sl2vl(&r->fabric, r->res.topo, &pe->plugin->opts.engine, node,
			   in_port, out_port, vl))
		return;		/* not ours to decide: QoS config stays */
	for (sl = 0; sl < 16; sl++)
		if (vl[sl] != IBU_VL_KEEP)
			ib_slvl_table_set(t, (uint8_t)sl, vl[sl]);
}

static uint8_t engine_path_sl(void *context, uint8_t hint, ib_net16_t slid,
			      ib_net16_t dlid)
{
	struct ibu_plugin_engine *pe = context;
	const struct ibu_plugin_routing *r = &pe->routing;
	int sl;

	if (!r->valid)
		return hint;
	sl = pe->ops->vl.path_sl(&r->fabric, r->res.topo, &r->res.map,
			      &pe->plugin->opts.engine, cl_ntoh16(slid),
			      cl_ntoh16(dlid));
	return sl < 0 ? hint : (uint8_t)sl;
}

/* An option of the engine that only takes effect with `qos TRUE`, set
 * away from its default while qos is FALSE: say so (WRN 5A40). */
static void warn_qos_options(struct ibu_plugin_engine *pe, osm_log_t *log)
{
	const struct ibu_engine_opts *o = &pe->plugin->opts.engine;
	char word[96];
	int i;

	for (i = 0; i < pe->ops->num_options; i++) {
		const struct ibu_engine_option *opt = &pe->ops->options[i];

		if (!opt->needs_qos || ibu_engine_opt(o, opt) == opt->def)
			continue;
		ibu_engine_opt_format(o, opt, word, sizeof(word));
		OSM_LOG(log, OSM_LOG_INFO,
			"WRN 5A40: %s: %s is configured but qos is "
			"FALSE: OpenSM only programs SL2VL tables with "
			"`qos TRUE` in opensm.conf; the switches keep their "
			"SL2VL tables\n", pe->ops->name, word);
	}
}

void ibu_vl_setup(struct osm_routing_engine *re, struct ibu_plugin_engine *pe,
		  osm_opensm_t *osm)
{
	re->update_sl2vl = pe->ops->vl.sl2vl ? engine_update_sl2vl : NULL;
	re->path_sl = pe->ops->vl.path_sl ? engine_path_sl : NULL;
	if (pe->ops->vl.sl2vl && !osm->subn.opt.qos)
		warn_qos_options(pe, &osm->log);
}

/* VLCap / OperationalVLs code -> data VLs (IBA 14.2.5.6) */
static int vls_of_code(int code)
{
	static const int vls[] = { 0, 1, 2, 4, 8, 15 };

	return code >= 1 && code <= 5 ? vls[code] : 0;
}

int ibu_osm_max_data_vls(osm_subn_t *subn)
{
	int best = vls_of_code(subn->opt.max_op_vls), p;
	cl_map_item_t *it;

	if (best <= 0)
		best = 15;
	for (it = cl_qmap_head(&subn->sw_guid_tbl);
	     it != cl_qmap_end(&subn->sw_guid_tbl); it = cl_qmap_next(it)) {
		osm_switch_t *sw = (osm_switch_t *)it;

		for (p = 1; p < sw->num_ports; p++) {
			osm_physp_t *ph = osm_node_get_physp_ptr(sw->p_node,
								 (uint32_t)p);
			osm_physp_t *rem;
			int v;

			if (!ph || !(rem = osm_physp_get_remote(ph)))
				continue;
			/* a link runs the VLs both ends hold: an HCA's
			 * port carries its packets' SL -> VL as well */
			v = vls_of_code(ib_port_info_get_vl_cap(&ph->port_info));
			if (v > 0 && v < best)
				best = v;
			v = vls_of_code(ib_port_info_get_vl_cap(&rem->port_info));
			if (v > 0 && v < best)
				best = v;
		}
	}
	return best;
}
