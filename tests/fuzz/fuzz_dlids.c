/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the DLID pair reader (lib/io/dlids.c). Properties: every
 * pair accepted holds unicast LIDs, and the pairs written back (as
 * `ibunion path --format pairs` does) read again the same.
 */
#include "fuzz.h"
#include "fabric.h"
#include "dlids.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_dlid_pairs p, q;
	struct ibu_err e = { 0 };
	struct fuzz_mem mem;
	char *copy;
	FILE *in = fuzz_open(data, size, &copy), *out;
	long i;
	int rc;

	if (!in)
		abort();
	rc = ibu_dlid_pairs_read_stream(in, "fuzz.dlids", &p, &e);
	fuzz_close(in, copy);
	if (rc)
		return 0;
	out = fuzz_mem_writer(&mem);
	for (i = 0; i < p.num; i++) {
		if (!p.pair[i].slid || p.pair[i].slid > IBU_MAX_UCAST_LID ||
		    !p.pair[i].dlid || p.pair[i].dlid > IBU_MAX_UCAST_LID)
			fuzz_fail("line %d: pair 0x%x 0x%x accepted",
				  p.pair[i].line, p.pair[i].slid, p.pair[i].dlid);
		if (ibu_dlid_pair_write(out, p.pair[i].slid, p.pair[i].dlid, &e))
			fuzz_fail("write: %s", e.msg);
	}
	fclose(out);
	in = fuzz_mem_reader(&mem);
	if (ibu_dlid_pairs_read_stream(in, "written.dlids", &q, &e))
		fuzz_fail("written pairs do not read back: %s", e.msg);
	fclose(in);
	if (q.num != p.num)
		fuzz_fail("%ld pairs read back as %ld", p.num, q.num);
	for (i = 0; i < p.num; i++)
		if (q.pair[i].slid != p.pair[i].slid ||
		    q.pair[i].dlid != p.pair[i].dlid)
			fuzz_fail("pair %ld read back differently", i);
	ibu_dlid_pairs_free(&q);
	ibu_dlid_pairs_free(&p);
	free(mem.buf);
	return 0;
}
