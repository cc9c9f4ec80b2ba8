/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The plugin's own options, read from opensm.conf's
 *   event_plugin_options <key=value> [<key=value> ...]
 * line (OpenSM passes the rest of the line verbatim; words may be
 * separated by blanks or commas):
 *
 *   verbose=0|1
 *	1 logs every switch's recognised label at DEBUG (default 0)
 *   lid_matrices=none|opensm
 *	none (default): an engine that accepts the fabric tells OpenSM not
 *	to build its all-pairs min-hop matrices (the engines never read
 *	them; opensm.fdbs then says HOPS UNKNOWN); opensm: build them anyway
 *   reuse_model=yes|no
 *	yes (default): a sweep that finds the subnet, OpenSM's qos/VLs and
 *	the guid_routing_order_file unchanged routes again with the last
 *	model (recognition and LID plan skipped); no: every sweep starts over
 *
 * and every engine's options, from the engines' own tables
 * (lib/engine/engine_options.h; `ibunion options` lists them): mcast_apex=,
 * offsets=, max_faults= (cyclic), vl_plan= (xy), ...
 *
 * Plain C, no OpenSM header, so that it is unit-tested without OpenSM.
 * An unknown key, a word without '=' or a bad value is reported through
 * the callback and leaves the option at its previous (default) value.
 */
#ifndef IBU_PLUGIN_OPTIONS_H
#define IBU_PLUGIN_OPTIONS_H

#include <stddef.h>
#include "engine.h"

struct ibu_plugin_opts {
	int verbose;
	int lid_matrices;	/* 0 none, 1 opensm: build_lid_matrices' return */
	int reuse_model;	/* 1: an unchanged subnet reuses the model */
	struct ibu_engine_opts engine;	/* every engine's options */
};

enum ibu_plugin_opt_problem {
	IBU_PLUGIN_OPT_UNKNOWN_KEY,	/* key not known: ignored (warning) */
	IBU_PLUGIN_OPT_BAD_VALUE,	/* known key, bad value: default kept */
	IBU_PLUGIN_OPT_MALFORMED,	/* word is not key=value: ignored */
};

/* what: the problem; word: the offending word; expected: for BAD_VALUE the
 * accepted values, for UNKNOWN_KEY the nearest key (a misspelling) or
 * NULL, otherwise NULL. */
typedef void (*ibu_plugin_opt_report_fn)(void *arg,
					 enum ibu_plugin_opt_problem what,
					 const char *word,
					 const char *expected);

void ibu_plugin_opts_default(struct ibu_plugin_opts *o);
/*
 * Parses text (may be NULL or empty) into o, starting from o's current
 * values. Returns the number of problems reported (0 = all words used),
 * or IBU_ENOMEM (o untouched) when the text cannot be copied.
 */
int ibu_plugin_opts_parse(struct ibu_plugin_opts *o, const char *text,
			  ibu_plugin_opt_report_fn report, void *arg);
/* "mcast_apex=balanced verbose=0 ... offsets=rotated" into buf (always NUL-terminated). */
void ibu_plugin_opts_format(const struct ibu_plugin_opts *o, char *buf,
			    size_t len);

#endif
