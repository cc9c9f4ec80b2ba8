/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the guid2lid reader (lib/io/guid2lid.c). Property: every
 * accepted record is a 2^k LID set inside the unicast range. */
#include "fuzz.h"
#include "fabric.h"
#include "guid2lid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_guid2lid g;
	struct ibu_err e = { 0 };
	char *copy;
	FILE *in = fuzz_open(data, size, &copy);
	int rc, i;

	if (!in)
		abort();
	rc = ibu_guid2lid_read_stream(in, "fuzz.guid2lid", &g, &e);
	fuzz_close(in, copy);
	if (rc)
		return 0;
	if (!g.num)
		fuzz_fail("accepted a file without records");
	for (i = 0; i < g.num; i++) {
		unsigned n = (unsigned)g.rec[i].max - g.rec[i].min + 1;

		if (!g.rec[i].min || g.rec[i].max > IBU_MAX_UCAST_LID ||
		    g.rec[i].max < g.rec[i].min || (n & (n - 1)))
			fuzz_fail("record of line %d accepted: 0x%x..0x%x",
				  g.rec[i].line, g.rec[i].min, g.rec[i].max);
	}
	ibu_guid2lid_free(&g);
	return 0;
}
