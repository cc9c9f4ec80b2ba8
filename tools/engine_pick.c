/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#include <stdio.h>
#include <string.h>
#include "engine_pick.h"
#include "opts.h"

const struct ibu_engine_ops *ibu_engine_pick(const char *cmd,
					     const struct ibu_fabric *f,
					     const char *name,
					     const struct ibu_engine_opts *o,
					     void **topo)
{
	const struct ibu_engine_ops *ops;
	struct ibu_err e = { 0 };
	char names[128];

	*topo = NULL;
	if (!name) {
		ops = ibu_engine_detect(f, o, topo, &e);
		if (!ops)
			ibu_opt_report(cmd, &e);
		return ops;
	}
	ops = ibu_engine_find(name);
	if (!ops) {
		ibu_engine_names(names, sizeof(names));
		fprintf(stderr, "ibunion %s: no engine '%s' (engines: %s)\n",
			cmd, name, names);
		return NULL;
	}
	if (ops->recognise(f, o, topo, &e)) {
		ibu_opt_report(cmd, &e);
		return NULL;
	}
	return ops;
}

void ibu_engine_names(char *buf, size_t len)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	int i, n = 0;

	buf[0] = '\0';
	for (i = 0; l[i] && n < (int)len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%s%s", i ? ", " : "",
			      l[i]->name);
}

void ibu_engine_topology_name(const struct ibu_engine_ops *ops,
			      const struct ibu_fabric *f, const void *topo,
			      char *buf, size_t len)
{
	char *colon;

	if (!len)
		return;
	ops->describe(f, topo, buf, len);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
}
