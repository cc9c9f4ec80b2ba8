/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the net-file reader (lib/io/netfile.c), fed ibsim net
 * files (ibnetdiscover output has its own harness, fuzz_ibnetdiscover.c,
 * through the fabric entry point). Property: a fabric the reader accepts
 * and the writer writes reads back with the same nodes and cables.
 */
#include "fuzz.h"
#include "netfile.h"

static void same_cabling(const struct ibu_fabric *a, const struct ibu_fabric *b)
{
	int i, p;

	if (a->num_nodes != b->num_nodes)
		fuzz_fail("%d nodes read back as %d", a->num_nodes, b->num_nodes);
	for (i = 0; i < a->num_nodes; i++) {
		const struct ibu_node *x = &a->nodes[i], *y = &b->nodes[i];

		if (x->type != y->type || x->num_ports != y->num_ports ||
		    strcmp(x->name, y->name))
			fuzz_fail("node %d '%s' read back as '%s'", i, x->name,
				  y->name);
		for (p = 1; p <= x->num_ports; p++)
			if (x->ports[p].peer_node != y->ports[p].peer_node ||
			    (x->ports[p].peer_node >= 0 &&
			     x->ports[p].peer_port != y->ports[p].peer_port))
				fuzz_fail("'%s' port %d cabled differently",
					  x->name, p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_fabric f, g;
	struct ibu_err e = { 0 };
	struct fuzz_mem mem;
	char *copy;
	FILE *in = fuzz_open(data, size, &copy), *out;
	int rc;

	if (!in)
		abort();
	rc = ibu_netfile_read_stream(in, "fuzz.net", &f, &e);
	fuzz_close(in, copy);
	if (rc) {
		fuzz_no_control(e.msg, "the error message");
		return 0;
	}
	(void)ibu_fabric_count_endports(&f);
	(void)ibu_fabric_max_lid(&f);
	out = fuzz_mem_writer(&mem);
	rc = ibu_netfile_write(out, &f, &e);
	fclose(out);
	if (!rc) {
		in = fuzz_mem_reader(&mem);
		if (ibu_netfile_read_stream(in, "written.net", &g, &e))
			fuzz_fail("written net file does not read back: %s", e.msg);
		fclose(in);
		same_cabling(&f, &g);
		ibu_fabric_free(&g);
	}
	free(mem.buf);
	ibu_fabric_free(&f);
	return 0;
}
