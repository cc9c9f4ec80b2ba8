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
#include "rails.h"

void ibu_cmd_order_usage(FILE *out)
{
	fprintf(out,
		"usage: ibunion order FABRIC [--engine NAME] [-O KEY=VALUE]... [--guids]\n"
		"                     [--rails [--hostfile FILE]] [-o FILE]\n"
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
		"  --rails             a rail-optimized cluster: the server of an HCA is\n"
		"                      its node description's host part ('node001\n"
		"                      mlx5_3'), its rail the device's rank on that\n"
		"                      server; prints the HCAs rail-major (rail 0 in\n"
		"                      the engine's order, then rail 1, ...): with\n"
		"                      --guids, the guid_routing_order_file that makes\n"
		"                      every rail's shift contention-free\n"
		"  --hostfile FILE     with --rails: an MPI hostfile, one 'host slots=R'\n"
		"                      line per server, in the engine's order\n"
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
			idx = ops->report.endport_index(topo, i, p);
			if (idx > max)
				max = idx;
		}
	*num = max + 1;
	/* the host order only: end ports above the leaves are no ranks */
	if (ops->report.num_ordered && ops->report.num_ordered(topo) < *num)
		*num = ops->report.num_ordered(topo);
	*node_at = malloc((*num ? (size_t)*num : 1) * sizeof(int));
	*port_at = malloc((*num ? (size_t)*num : 1) * sizeof(int));
	if (!*node_at || !*port_at)
		return IBU_ENOMEM;
	for (idx = 0; idx < *num; idx++)
		(*node_at)[idx] = -1;
	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; !ibu_node_is_switch(&f->nodes[i]) &&
		     p <= f->nodes[i].num_ports; p++) {
			idx = ops->report.endport_index(topo, i, p);
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

/* The order in place, rail-major; the hostfile to hostfile (NULL: none). */
static int rail_major(const struct ibu_fabric *f, int *node_at, int *port_at,
		      int num, const char *hostfile, struct ibu_err *e)
{
	const char **names = malloc((num ? (size_t)num : 1) * sizeof(char *));
	int *at = malloc((num ? (size_t)num : 1) * sizeof(int) * 3), i, n = 0;
	struct ibu_rails r;
	struct ibu_atomicfile af;
	int rc = names && at ? IBU_OK :
		 ibu_err_set(e, IBU_ENOMEM, "out of memory"), w = 0;

	for (i = 0; !rc && i < num; i++)
		if (node_at[i] >= 0) {
			names[n] = f->nodes[node_at[i]].name;
			at[num + n] = node_at[i];
			at[2 * num + n++] = port_at[i];
		}
	if (!rc)
		rc = ibu_rails_learn(names, n, &r, e);
	if (!rc) {
		ibu_rails_major(&r, n, at);
		for (i = 0; i < num; i++) {
			node_at[i] = i < n ? at[num + at[i]] : -1;
			port_at[i] = i < n ? at[2 * num + at[i]] : 0;
		}
		if (hostfile && !ibu_opt_out_open("order", hostfile, &af)) {
			for (i = 0; i < r.num_servers && w >= 0; i++)
				w = fprintf(af.fp, "%.*s slots=%d\n",
					    (int)strcspn(names[r.first[i]], " \t"),
					    names[r.first[i]], r.num_rails);
			if (w < 0 && !ferror(af.fp))
				ibu_err_set(e, IBU_EIO, "%s", ibu_strerror(IBU_EIO));
			if (ibu_opt_out_close("order", &af, w < 0 ? IBU_EIO : 0, e))
				rc = IBU_EIO;
		} else if (hostfile) {
			rc = IBU_EIO;
		}
		ibu_rails_free(&r);
	}
	free(names);
	free(at);
	return rc;
}

static int parse_args(int argc, char **argv, const char **engine,
		      struct ibu_engine_opts *eo, const char **output,
		      int *guids, int *rails, const char **hostfile)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "engine", required_argument, NULL, 'E' },
		{ "guids", no_argument, NULL, 'G' },
		{ "rails", no_argument, NULL, 'R' },
		{ "hostfile", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:O:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': *output = optarg; break;
		case 'E': *engine = optarg; break;
		case 'G': *guids = 1; break;
		case 'R': *rails = 1; break;
		case 'H': *hostfile = optarg; break;
		case 'O':
			if (ibu_engine_opt_arg("order", eo, optarg))
				return -1;
			break;
		default:
			return -1;
		}
	}
	return argc - optind == 1 && (*rails || !*hostfile) ? 0 : -1;
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
	int guids = 0, rails = 0;
	const char *hostfile = NULL;

	ibu_engine_opts_default(&eo);
	if (parse_args(argc, argv, &engine, &eo, &output, &guids, &rails,
		       &hostfile)) {
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
	if (!ops->report.endport_index) {
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
	if (rails && rail_major(&f, node_at, port_at, num, hostfile, &e)) {
		if (e.code != IBU_EIO)
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
