/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * For the targets that go through ibu_fabric_open() (tools/fabric_open.c),
 * which takes a path as the toolkit's FABRIC argument does: the input is
 * written to one private temporary file per process, rewritten per run.
 */
#ifndef IBU_FUZZ_FILE_H
#define IBU_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "fabric.h"
#include "fuzz.h"

static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		snprintf(path, sizeof(path), "/tmp/ibu-fuzz-XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		unlink(path);
		/* gone with the process; the path stays valid through fd */
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	return path;
}

/* What every reader's fabric must hold, whatever the format: cables in
 * both directions between existing ports, LID blocks inside the unicast
 * space, every node found again by its GUID. */
static inline void fuzz_fabric_invariants(const struct ibu_fabric *f)
{
	int i, p;

	if (f->num_nodes < 1)
		fuzz_fail("accepted a fabric without nodes");
	for (i = 0; i < f->num_nodes; i++) {
		const struct ibu_node *n = &f->nodes[i];

		fuzz_no_control(n->name, "a node name");
		if (n->num_ports < 1 || n->num_ports > IBU_MAX_PORTS)
			fuzz_fail("node %d has %d ports", i, n->num_ports);
		if (f->nodes[ibu_fabric_find_guid(f, n->guid)].guid != n->guid)
			fuzz_fail("node %d not found by its GUID", i);
		for (p = 0; p <= n->num_ports; p++) {
			const struct ibu_port *q = &n->ports[p];

			if (q->lmc > 7 || q->lid > IBU_MAX_UCAST_LID ||
			    (q->lid && q->lid + (1u << q->lmc) - 1 > IBU_MAX_UCAST_LID))
				fuzz_fail("node %d port %d: LID 0x%x LMC %u", i,
					  p, q->lid, q->lmc);
			if (q->peer_node < 0)
				continue;
			if (!p || q->peer_node >= f->num_nodes ||
			    q->peer_port < 1 ||
			    q->peer_port > f->nodes[q->peer_node].num_ports)
				fuzz_fail("node %d port %d cabled out of range", i, p);
			if (f->nodes[q->peer_node].ports[q->peer_port].peer_node != i ||
			    f->nodes[q->peer_node].ports[q->peer_port].peer_port != p)
				fuzz_fail("node %d port %d: cable one way only", i, p);
		}
	}
}

#endif
