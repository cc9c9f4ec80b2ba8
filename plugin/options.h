/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The plugin's own options, read from opensm.conf's
 *   event_plugin_options <key=value> [<key=value> ...]
 * line (OpenSM passes the rest of the line verbatim; words may be
 * separated by blanks or commas):
 *
 *   mcast_apex=balanced|source|lowest-guid
 *	where the multicast engine puts a group's apex switch (used by the
 *	mcast engine; default balanced: spread trees over the top switches)
 *   offsets=rotated|paper
 *	how the cyclic engine turns LID offsets into up-ports (lib/cyclic.h):
 *	rotated (default): offset digit + the destination's digit, so base
 *	LIDs (what SA PathRecords carry) spread as D-mod-k; paper: the
 *	paper's Eq. 2 exactly. `ibunion path` gives the DLIDs of each mode.
 *   verbose=0|1
 *	1 logs every switch's recognised label at DEBUG (default 0)
 *   vl_plan=1|2-spread|2-direction|4-spread|4-direction
 *	the xy engine's virtual-lane plan (paper 001, sect. 3.2; default 1:
 *	one VL); programmed through update_sl2vl, so it needs `qos TRUE`
 *   lid_matrices=none|opensm
 *	none (default): an engine that accepts the fabric tells OpenSM not
 *	to build its all-pairs min-hop matrices (the engines never read
 *	them; opensm.fdbs then says HOPS UNKNOWN); opensm: build them anyway
 *
 * Plain C, no OpenSM header, so that it is unit-tested without OpenSM.
 * An unknown key, a word without '=' or a bad value is reported through
 * the callback and leaves the option at its previous (default) value.
 */
#ifndef IBU_PLUGIN_OPTIONS_H
#define IBU_PLUGIN_OPTIONS_H

#include <stddef.h>
#include "mcgroup.h"
#include "cyclic.h"

struct ibu_plugin_opts {
	enum ibu_mcast_policy mcast_apex;	/* lib/mcgroup.h */
	int verbose;
	enum ibu_cyclic_offsets offsets;	/* lib/cyclic.h */
	int vl_plan;		/* index into the vl_plan names, 0 = "1" */
	int lid_matrices;	/* 0 none, 1 opensm: build_lid_matrices' return */
	int max_faults;		/* cyclic: -1 = the engine's default */
};

enum ibu_plugin_opt_problem {
	IBU_PLUGIN_OPT_UNKNOWN_KEY,	/* key not known: ignored (warning) */
	IBU_PLUGIN_OPT_BAD_VALUE,	/* known key, bad value: default kept */
	IBU_PLUGIN_OPT_MALFORMED,	/* word is not key=value: ignored */
};

/* what: the problem; word: the offending word; expected: for BAD_VALUE the
 * accepted values, otherwise NULL. */
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
/* "1", "2-spread", "2-direction", "4-spread", "4-direction"; "?" else.
 * The index is the engine's enum ibu_vlplan_kind. */
const char *ibu_plugin_vl_plan_name(int plan);
/* "mcast_apex=balanced verbose=0 ... offsets=rotated" into buf (always NUL-terminated). */
void ibu_plugin_opts_format(const struct ibu_plugin_opts *o, char *buf,
			    size_t len);

#endif
