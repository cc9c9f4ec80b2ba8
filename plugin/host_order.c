/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * ibunion-host-order.dump in OpenSM's dump directory after each routing:
 * the end ports in the order the engine numbers them (cyclic: the
 * destination order of D-mod-K), one "0xPORTGUID 0xLID description" line
 * each, so that MPI can place ranks in it (ftree writes
 * opensm-ftree-ca-order.dump for the same reason). Written under a
 * temporary name and renamed; a failure is logged (WRN 5A54), never fatal.
 */
#undef HAVE_CONFIG_H
#include "plugin.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "atomicfile.h"

struct ep_rank {
	int index, node, port;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct ep_rank *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* End ports with an index, in index order; *n of them. */
static struct ep_rank *ranked(const struct ibu_plugin_engine *pe, int *n)
{
	const struct ibu_fabric *f = &pe->routing.fabric;
	const void *topo = pe->routing.res.topo;
	struct ep_rank *r;
	int i, p, k = 0, total = 0;
	/* the host order only: end ports above the leaves are no ranks */
	int num = pe->ops->report.num_ordered ? pe->ops->report.num_ordered(topo) : -1;

	for (i = 0; i < f->num_nodes; i++)
		if (!ibu_node_is_switch(&f->nodes[i]))
			total += f->nodes[i].num_ports;
	r = malloc((size_t)(total ? total : 1) * sizeof(*r));
	if (!r)
		return NULL;
	for (i = 0; i < f->num_nodes; i++)
		for (p = 1; !ibu_node_is_switch(&f->nodes[i]) &&
		     p <= f->nodes[i].num_ports; p++) {
			int x = pe->ops->report.endport_index(topo, i, p);

			if (x >= 0 && (num < 0 || x < num)) {
				r[k].index = x;
				r[k].node = i;
				r[k++].port = p;
			}
		}
	qsort(r, (size_t)k, sizeof(*r), cmp_rank);
	*n = k;
	return r;
}

void ibu_plugin_write_host_order(struct ibu_plugin_engine *pe)
{
	const struct ibu_fabric *f = &pe->routing.fabric;
	const char *dir = pe->plugin->osm->subn.opt.dump_files_dir;
	struct ibu_atomicfile af;
	struct ibu_err e = { 0 };
	struct ep_rank *r;
	char path[4096];
	int n = 0, i, rc;

	if (!pe->ops->report.endport_index || !dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/ibunion-host-order.dump", dir);
	r = ranked(pe, &n);
	if (!r) {
		rc = ibu_err_set(&e, IBU_ENOMEM, "out of memory");
	} else {
		/* the dump directory may be writable by others: no link followed */
		rc = ibu_atomicfile_open_flags(&af, path, IBU_PLUGIN_DUMP_FLAGS, &e);
		for (i = 0; !rc && i < n; i++) {
			const struct ibu_port *pt =
				&f->nodes[r[i].node].ports[r[i].port];

			if (fprintf(af.fp, "0x%016" PRIx64 " 0x%04x %s\n",
				    pt->guid, pt->lid,
				    f->nodes[r[i].node].name) < 0)
				rc = ibu_err_set(&e, IBU_EIO, "%s: write error",
						 path);
		}
		if (!rc)
			rc = ibu_atomicfile_commit(&af, &e);
		else if (i > 0)	/* opened, then a write failed */
			ibu_atomicfile_abort(&af);
	}
	free(r);
	if (rc)
		OSM_LOG(pe->plugin->log, OSM_LOG_ERROR,
			"WRN 5A54: %s: host order not written: %s\n",
			pe->ops->name, e.msg);
}
