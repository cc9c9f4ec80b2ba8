/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the MFT dump reader (lib/io/mft_dump.c) against a generated
 * IBFT(4,3) (GUIDs 0x200000.. for switches, as ibsim gives them).
 * Property: tables the reader accepts are written back and read again to
 * the same groups and port masks.
 */
#include "fuzz.h"
#include "mft_dump.h"

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
	struct ibu_mft t, back;
	struct ibu_err e = { 0 };
	struct fuzz_mem mem;
	char *copy;
	FILE *in = fuzz_open(data, size, &copy), *out;
	int rc, gi;

	if (!in)
		abort();
	rc = ibu_mft_read_stream(in, "fuzz.mfts", &fab, &t, &e);
	fuzz_close(in, copy);
	if (rc) {
		fuzz_no_control(e.msg, "the error message");
		return 0;
	}
	out = fuzz_mem_writer(&mem);
	if (ibu_mft_write(out, &fab, &t, &e))
		abort();
	fclose(out);
	in = fuzz_mem_reader(&mem);
	if (ibu_mft_read_stream(in, "written.mfts", &fab, &back, &e))
		fuzz_fail("written MFT dump does not read back: %s", e.msg);
	fclose(in);
	if (back.num_groups != t.num_groups)
		fuzz_fail("%d groups read back as %d", t.num_groups, back.num_groups);
	for (gi = 0; gi < t.num_groups; gi++)
		if (t.g[gi].mlid != back.g[gi].mlid ||
		    memcmp(t.g[gi].mask, back.g[gi].mask,
			   (size_t)fab.num_nodes * sizeof(*t.g[gi].mask)))
			fuzz_fail("MLID 0x%04x changed in the round trip", t.g[gi].mlid);
	ibu_mft_free(&back);
	ibu_mft_free(&t);
	free(mem.buf);
	return 0;
}
