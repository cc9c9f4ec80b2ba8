/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the multicast members file reader (lib/io/mcmembers.c)
 * against a generated IBFT(4,3). Property: accepted members are written
 * back and read again to the same groups.
 */
#include "fuzz.h"
#include "mcmembers.h"

static struct ibu_fabric fab;	/* the harness's, read-only after init */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_ibft43(&fab);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_mcmembers mm, back;
	struct ibu_err e = { 0 };
	struct fuzz_mem mem;
	char *copy;
	FILE *in = fuzz_open(data, size, &copy), *out;
	int rc, i;

	if (!in)
		abort();
	rc = ibu_mcmembers_read_stream(in, "fuzz.members", &fab, &mm, &e);
	fuzz_close(in, copy);
	if (rc)
		return 0;
	out = fuzz_mem_writer(&mem);
	if (ibu_mcmembers_write(out, &fab, &mm, &e))
		fuzz_fail("writer refused what the reader accepted: %s", e.msg);
	fclose(out);
	in = fuzz_mem_reader(&mem);
	if (ibu_mcmembers_read_stream(in, "written.members", &fab, &back, &e))
		fuzz_fail("written members do not read back: %s", e.msg);
	fclose(in);
	if (back.num_groups != mm.num_groups)
		fuzz_fail("%d groups read back as %d", mm.num_groups, back.num_groups);
	for (i = 0; i < mm.num_groups; i++)
		if (back.g[i].mlid != mm.g[i].mlid || back.g[i].num != mm.g[i].num ||
		    memcmp(back.g[i].m, mm.g[i].m, (size_t)mm.g[i].num * sizeof(*mm.g[i].m)))
			fuzz_fail("MLID 0x%04x changed in the round trip", mm.g[i].mlid);
	ibu_mcmembers_free(&back);
	ibu_mcmembers_free(&mm);
	free(mem.buf);
	return 0;
}
