/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion order FABRIC [--engine NAME] [-O KEY=VALUE]... [-o FILE]
 * The order the engine that recognises FABRIC numbers its end ports in
 * (its endport_index op; cyclic: D-mod-K on a PGFT, the label order P(p)
 * on an IBFT), as a host list mpirun accepts: node descriptions, one a
 * line. Shift permutations of ranks placed in this order stay within the
 * blocking bound.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "osm_state.h"
#include "opts.h"
#include "fabric_open.h"
#include "engine_pick.h"

void ibu_cmd_order_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion order FABRIC [--engine NAME] [-O KEY=VALUE]... [--guids] [-o FILE]\n"
		"  prints the compute hosts of FABRIC in the order the engine that\n"
		"  recognises it numbers them (cyclic: the destination order of\n"
		"  D-mod-K), node descriptions one a line: a host list for mpirun, so\n"
		"  that shift permutations of ranks in this order stay within the\n"
		"  blocking bound. Hosts above the leaves (on spines) are not in it.\n"
		"options:\n"
		"  --engine NAME       this engine's order (it must recognise FABRIC)\n"
		"  -O KEY=VALUE        an engine option, as event_plugin_options;\n"
		"                      -O guid_routing_order_file=FILE numbers the\n"
		"                      hosts in OpenSM's order file, as the plugin does\n"
		"  --guids             port GUIDs instead of names, one a line: a\n"
		"                      guid_routing_order_file to edit and give OpenSM\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"exit status: 0 done, 2 usage, 3 bad input\n");
}

/* End-port node (and port, in port_at) of each place in the engine's
 * order, -1 for a gap. */
static int order_nodes(const struct ibu_fabric *f,
		       const struct ibu_engine_ops *ops, const void *topo,
		       int **node_at, int **port_at, int *num)
{
	int i, p, idx, max = -1;

	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; !ibu_node_is_switch(&f->nodes[i]) &&
		     p <= f->nodes[i].num_ports; p++) {
			idx = ops->endport_index(topo, i, p);
			if (idx > max)
				max = idx;
		}
	*num = max + 1;
	/* the host order only: end ports above the leaves are no ranks */
	if (ops->num_ordered && ops->num_ordered(topo) < *num)
		*num = ops->num_ordered(topo);
	*node_at = malloc((*num ? (size_t)*num : 1) * sizeof(int));
	*port_at = malloc((*num ? (size_t)*num : 1) * sizeof(int));
	if (!*node_at || !*port_at)
		return IBU_ENOMEM;
	for (idx = 0; idx < *num; idx++)
		(*node_at)[idx] = -1;
	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; !ibu_node_is_switch(&f->nodes[i]) &&
		     p <= f->nodes[i].num_ports; p++) {
			idx = ops->endport_index(topo, i, p);
			if (idx >= 0 && idx < *num) {
				(*node_at)[idx] = i;
				(*port_at)[idx] = p;
			}
		}
	return IBU_OK;
}

static int print_order(FILE *out, const struct ibu_fabric *f,
		       const int *node_at, const int *port_at, int num,
		       int guids)
{
	int idx, rc;

	for (idx = 0; idx < num; idx++) {
		const struct ibu_node *n = &f->nodes[node_at[idx] < 0 ? 0 :
						     node_at[idx]];

		if (node_at[idx] < 0)
			continue;
		rc = guids ? fprintf(out, "0x%016llx\n", (unsigned long long)
				     n->ports[port_at[idx]].guid) :
			     fprintf(out, "%s\n", n->name);
		if (rc < 0)
			return IBU_EIO;
	}
	return IBU_OK;
}

static int parse_args(int argc, char **argv, const char **engine,
		      struct ibu_engine_opts *eo, const char **output,
		      int *guids)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "engine", required_argument, NULL, 'E' },
		{ "guids", no_argument, NULL, 'G' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:O:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': *output = optarg; break;
		case 'E': *engine = optarg; break;
		case 'G': *guids = 1; break;
		case 'O':
			if (ibu_engine_opt_arg("order", eo, optarg))
				return -1;
			break;
		default:
			return -1;
		}
	}
	return argc - optind == 1 ? 0 : -1;
}

int ibu_cmd_order(int argc, char **argv)
{
	const char *output = NULL, *engine = NULL;
	const struct ibu_engine_ops *ops;
	struct ibu_engine_opts eo;
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	struct ibu_atomicfile af;
	void *topo = NULL;
	int *node_at = NULL, *port_at = NULL, num = 0, rc = IBU_EXIT_ERROR, w;
	int guids = 0;

	ibu_engine_opts_default(&eo);
	if (parse_args(argc, argv, &engine, &eo, &output, &guids)) {
		ibu_cmd_order_usage(stderr);
		return IBU_EXIT_USAGE;
	}
	if (ibu_fabric_open(argv[optind], &f, NULL, &e)) {
		ibu_opt_report("order", &e);
		return IBU_EXIT_ERROR;
	}
	ops = ibu_osm_state_apply("order", &f, &eo) ? NULL :
	      ibu_engine_pick("order", &f, engine, &eo, &topo);
	if (!ops)
		goto out;
	if (!ops->endport_index) {
		ibu_err_set(&e, IBU_ETOPO, "the %s engine numbers no hosts",
			    ops->name);
		ibu_opt_report("order", &e);
		goto out;
	}
	if (order_nodes(&f, ops, topo, &node_at, &port_at, &num)) {
		ibu_err_set(&e, IBU_ENOMEM, "out of memory");
		ibu_opt_report("order", &e);
		goto out;
	}
	if (!ibu_opt_out_open("order", output, &af)) {
		w = print_order(af.fp, &f, node_at, port_at, num, guids);
		if (w && !ferror(af.fp))
			ibu_err_set(&e, w, "%s", ibu_strerror(w));
		if (!ibu_opt_out_close("order", &af, w, &e))
			rc = IBU_EXIT_OK;
	}
out:
	free(node_at);
	free(port_at);
	if (topo)
		ops->topo_free(topo);
	ibu_fabric_free(&f);
	return rc;
}
