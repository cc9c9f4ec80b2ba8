/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the opensm-sl2vl.dump reader (lib/io/sl2vl.c) against
 * IBFT(4,3) as ibunion gen writes it. Properties: every VL of an accepted
 * file is a data VL (0..14) and max_vl is the largest one there.
 */
#include "fuzz.h"
#include "sl2vl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ibu_fabric f;
	static int ready;
	struct ibu_sl2vl s;
	struct ibu_err e = { 0 };
	char *copy;
	FILE *in;
	int i, inp, outp, sl, vl, top = 0, rc;

	if (!ready) {
		fuzz_ibft43(&f);
		ready = 1;
	}
	in = fuzz_open(data, size, &copy);
	if (!in)
		abort();
	rc = ibu_sl2vl_read_stream(in, "fuzz.sl2vl", &f, &s, &e);
	fuzz_close(in, copy);
	if (rc)
		return 0;
	for (i = 0; i < f.num_nodes; i++) {
		int np = f.nodes[i].num_ports, sw = ibu_node_is_switch(&f.nodes[i]);

		for (inp = 0; inp <= (sw ? np : 0); inp++)
			for (outp = sw ? 0 : 1; outp <= np; outp++)
				for (sl = 0; sl < 16; sl++) {
					vl = ibu_sl2vl_get(&s, &f, i, inp, outp, sl);
					if (vl < 0 || vl > 14)
						fuzz_fail("node %d %d->%d SL %d: VL %d",
							  i, inp, outp, sl, vl);
					if (vl > top)
						top = vl;
				}
	}
	if (top > s.max_vl)
		fuzz_fail("VL %d used, max_vl %d", top, s.max_vl);
	ibu_sl2vl_free(&s);
	return 0;
}
