/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion options [--man]: the engines and every option of their tables
 * (lib/engine/engine_options.h), as the plugin's event_plugin_options and the
 * tools' -O KEY=VALUE take them; --man prints the same list as man-page
 * (.TP) paragraphs, the text tools/ibunion.1 and plugin/libibunion.8 carry.
 */
#include <string.h>
#include "commands.h"
#include "engine_pick.h"

void ibu_cmd_options_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion options [--man]\n"
		"  lists the routing engines and their options (key, values,\n"
		"  default, engine, what it changes): the words opensm.conf's\n"
		"  event_plugin_options and every command's -O KEY=VALUE take\n"
		"  --man   the same list as man-page paragraphs\n");
}

/* One option as a man-page paragraph. */
static void man_option(const struct ibu_engine_option *opt)
{
	char def[64], owners[128];

	ibu_engine_option_format(opt, opt->def, def, sizeof(def));
	ibu_engine_option_owners(opt, owners, sizeof(owners));
	printf(".TP\n.BI %s= \"%s\"\n%s (%s; default %s)%s\n", opt->key,
	       opt->values, opt->help, owners, def,
	       opt->needs_qos ? "; needs qos TRUE" : "");
}

int ibu_cmd_options(int argc, char **argv)
{
	const struct ibu_engine_ops *const *l = ibu_engine_list();
	const struct ibu_engine_option *opt;
	int i, man = argc == 2 && !strcmp(argv[1], "--man");

	if (argc > 2 || (argc == 2 && !man)) {
		ibu_cmd_options_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (man) {
		const struct ibu_key_doc *d;

		for (i = 0; (opt = ibu_engine_option_at(i, NULL)); i++)
			man_option(opt);
		for (i = 0; (d = ibu_key_doc_at(i)); i++)
			printf(".TP\n.BI %s= \"%s\"\n%s (%s; default %s)\n",
			       d->key, d->values, d->help, d->where, d->def);
		return IBU_EXIT_OK;
	}
	printf("engines (routing_engine names, in the order they are tried):\n");
	for (i = 0; l[i]; i++)
		printf("  %-8s %s\n", l[i]->name, l[i]->topology);
	ibu_engine_opts_usage(stdout);
	return IBU_EXIT_OK;
}
