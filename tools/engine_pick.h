/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Which engine a subcommand uses for a fabric: the one named by --engine,
 * or the first whose recognition accepts the fabric. */
#ifndef IBU_ENGINE_PICK_H
#define IBU_ENGINE_PICK_H

#include <stdio.h>
#include "engine.h"

/*
 * Returns the engine and its recognised topology in *topo (free with
 * ops->topo_free), or NULL after printing "ibunion CMD: ..." with every
 * engine's reason. name may be NULL (detect).
 */
const struct ibu_engine_ops *ibu_engine_pick(const char *cmd,
					     const struct ibu_fabric *f,
					     const char *name,
					     const struct ibu_engine_opts *o,
					     void **topo);
/* The recognised topology by name, "IBFT(4,3)" or "4 x 4 mesh": the head
 * of the engine's one-line description (ops->topology is only the
 * family, "IBFT(m,n)"). */
void ibu_engine_topology_name(const struct ibu_engine_ops *ops,
			      const struct ibu_fabric *f, const void *topo,
			      char *buf, size_t len);
/* "cyclic, xy" for usage texts. */
void ibu_engine_names(char *buf, size_t len);

/*
 * -O key=value, the same words as the plugin's event_plugin_options (any
 * engine's option table): sets it in o, or prints "ibunion CMD: -O ...:
 * why" and returns -1 (a usage error).
 */
int ibu_engine_opt_arg(const char *cmd, struct ibu_engine_opts *o,
		       const char *word);
/* An old spelling (--offsets paper = -O offsets=paper): as above. */
int ibu_engine_opt_alias(const char *cmd, struct ibu_engine_opts *o,
			 const char *key, const char *value);
/* "max_faults=default offsets=rotated": the options of ops as o sets
 * them, for the tools' one-line summaries ("" when it has none). */
void ibu_engine_opts_line(const struct ibu_engine_ops *ops,
			  const struct ibu_engine_opts *o, char *buf,
			  size_t len);
/* The usage lines of -O: every option, its values and default. */
void ibu_engine_opts_usage(FILE *out);

#endif
