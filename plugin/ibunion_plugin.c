/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libibunion.so: the OpenSM event plugin whose only job is to register the
 * routing engines of lib/ ("cyclic" for fat trees, "xy" for meshes, see
 * ibu_engine_list()). opensm.conf:
 *
 *   event_plugin_name ibunion
 *   routing_engine cyclic,minhop
 *   event_plugin_options mcast_apex=balanced verbose=0
 *
 * Options (event_plugin_options, words key=value, blanks or commas):
 * the plugin's own (plugin/options.h) and every engine's option table
 * (lib/engine/engine_options.h), all listed with their defaults on the
 * registration line.
 * An unknown key is a warning (WRN 5A20); a bad value (ERR 5A21) or a word
 * that is not key=value (ERR 5A22) is an error; the default is kept.
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef IBU_PLUGIN_VERSION
#define IBU_PLUGIN_VERSION "unknown"
#endif

/*
 * opensm's osm_opensm_t must have the layout we were compiled against
 * (research: ENABLE_OSM_PERF_MGR moves `log` and the engine list). subn
 * and sm precede every #ifdef'd member, so when they check out, sm.p_log
 * is OpenSM's real log even if ours is misplaced.
 */
static int layout_ok(osm_opensm_t *osm, osm_log_t **real_log)
{
	*real_log = NULL;
	if (osm->subn.p_osm != osm || osm->sm.p_subn != &osm->subn)
		return 0;
	*real_log = osm->sm.p_log;
	return osm->sm.p_log == &osm->log && osm->sa.p_log == &osm->log &&
	       osm->osm_version && !strcmp(osm->osm_version, OSM_VERSION);
}

static void report_option(void *arg, enum ibu_plugin_opt_problem what,
			  const char *word, const char *expected)
{
	osm_log_t *log = arg;

	switch (what) {
	case IBU_PLUGIN_OPT_UNKNOWN_KEY:
		OSM_LOG(log, OSM_LOG_INFO,
			"WRN 5A20: ibunion: unknown event_plugin_options "
			"word '%s' ignored%s%s%s (`ibunion options` lists the "
			"keys)\n", word, expected ? "; did you mean '" : "",
			expected ? expected : "", expected ? "'?" : "");
		break;
	case IBU_PLUGIN_OPT_BAD_VALUE:
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A21: ibunion: bad value in event_plugin_options "
			"'%s' (expected %s); default kept\n", word, expected);
		break;
	case IBU_PLUGIN_OPT_MALFORMED:
		OSM_LOG(log, OSM_LOG_ERROR,
			"ERR 5A22: ibunion: event_plugin_options word '%s' is "
			"not key=value; ignored\n", word);
		break;
	}
}

static void free_ctx(struct ibu_plugin *ctx)
{
	int i;

	for (i = 0; i < ctx->num_engines; i++) {
		ibu_mcast_state_clear(&ctx->engines[i]);
		ibu_plugin_routing_clear(&ctx->engines[i]);
	}
	free(ctx->engines);
	free(ctx);
}

/*
 * Registers every engine. Once one is registered OpenSM keeps a pointer to
 * our code, so create() must not fail (and get us dlclose()d) after that:
 * an engine that cannot be registered is only logged.
 */
static int register_engines(struct ibu_plugin *ctx)
{
	const struct ibu_engine_ops *const *list = ibu_engine_list();
	char opts[512];	/* every engine's options */
	int i, ok = 0;

	ibu_plugin_opts_format(&ctx->opts, opts, sizeof(opts));
	for (i = 0; i < ctx->num_engines; i++) {
		external_routing_engine_module_t module = {
			.name = list[i]->name,
			.setup = ibu_engine_setup,
			.context = &ctx->engines[i],
		};
		cl_status_t st;

		ctx->engines[i].plugin = ctx;
		ctx->engines[i].ops = list[i];
		st = osm_register_external_routing_engine(ctx->osm, &module,
							  &ctx->engines[i]);
		if (st != CL_SUCCESS) {
			OSM_LOG(ctx->log, OSM_LOG_ERROR,
				"ERR 5A12: ibunion: cannot register routing "
				"engine '%s' (status %d)\n", list[i]->name,
				(int)st);
			continue;
		}
		ok++;
		OSM_LOG(ctx->log, OSM_LOG_INFO,
			"ibunion %s: routing engine '%s' registered (%s)\n",
			IBU_PLUGIN_VERSION, list[i]->name, opts);
	}
	return ok;
}

static void *ibunion_create(osm_opensm_t *osm)
{
	const struct ibu_engine_ops *const *list = ibu_engine_list();
	struct ibu_plugin *ctx;
	osm_log_t *real_log;

	if (!osm)
		return NULL;
	if (!layout_ok(osm, &real_log)) {
		fprintf(stderr, "ibunion: ERR 5A10: built for OpenSM %s, but "
			"the running opensm's structures differ; plugin not "
			"loaded\n", OSM_VERSION);
		if (real_log)
			OSM_LOG(real_log, OSM_LOG_ERROR,
				"ERR 5A10: ibunion: built for OpenSM %s, but "
				"the running opensm's structures differ; "
				"plugin not loaded\n", OSM_VERSION);
		return NULL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (ctx) {
		while (list[ctx->num_engines])
			ctx->num_engines++;
		ctx->engines = calloc((size_t)ctx->num_engines,
				      sizeof(*ctx->engines));
	}
	if (!ctx || !ctx->engines) {
		free(ctx);
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR 5A11: ibunion: out of memory; plugin not loaded\n");
		return NULL;
	}
	ctx->osm = osm;
	ctx->log = &osm->log;
	ibu_plugin_opts_default(&ctx->opts);
	if (ibu_plugin_opts_parse(&ctx->opts, osm->subn.opt.event_plugin_options,
				  report_option, ctx->log) == IBU_ENOMEM)
		OSM_LOG(ctx->log, OSM_LOG_ERROR,
			"ERR 5A23: ibunion: out of memory reading "
			"event_plugin_options; defaults used\n");
	if (!register_engines(ctx)) {
		OSM_LOG(ctx->log, OSM_LOG_ERROR,
			"ERR 5A12: ibunion: no routing engine registered; "
			"plugin not loaded\n");
		free_ctx(ctx);
		return NULL;
	}
	return ctx;
}

static void ibunion_delete(void *plugin_data)
{
	struct ibu_plugin *ctx = plugin_data;

	if (ctx)
		free_ctx(ctx);
}

static void ibunion_report(void *plugin_data, osm_epi_event_id_t event_id,
			   void *event_data)
{
	struct ibu_plugin *ctx = plugin_data;

	(void)event_data;
	/* routing happens through the engine callbacks; this event tells
	 * which engine OpenSM used in the end (ours, or a fallback) */
	if (ctx && event_id == OSM_EVENT_ID_UCAST_ROUTING_DONE)
		ibu_plugin_publish_routing(ctx);
}

/* The one symbol OpenSM looks up (dlsym "osm_event_plugin"). */
__attribute__((visibility("default")))
osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = ibunion_create,
	.delete = ibunion_delete,
	.report = ibunion_report,
};
