/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the LFT dump reader (lib/io/dump.c): parse without a
 * fabric, then apply to a generated IBFT(4,3) (fresh for every input, as
 * apply writes the dump's LIDs into it). Property: tables applied to the
 * fabric are written back by the dump writer and parse again.
 */
#include "fuzz.h"
#include "dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_fabric f;
	struct ibu_dump d, back;
	struct ibu_lft lft;
	struct ibu_err e = { 0 };
	struct fuzz_mem mem;
	char *copy;
	FILE *in = fuzz_open(data, size, &copy), *out;
	int rc;

	if (!in)
		abort();
	rc = ibu_dump_parse_stream(in, "fuzz.lfts", &d, &e);
	fuzz_close(in, copy);
	if (rc) {
		fuzz_no_control(e.msg, "the error message");
		return 0;
	}
	for (rc = 0; rc < d.num_switches; rc++)
		(void)ibu_dump_find_switch(&d, d.sw[rc].guid);
	fuzz_ibft43(&f);
	rc = ibu_dump_apply(&d, &f, &lft, NULL, &e);
	ibu_dump_free(&d);
	if (!rc) {
		out = fuzz_mem_writer(&mem);
		rc = ibu_dump_write_lfts(out, &f, &lft, &e);
		fclose(out);
		if (!rc) {
			in = fuzz_mem_reader(&mem);
			if (ibu_dump_parse_stream(in, "written.lfts", &back, &e) == 0)
				ibu_dump_free(&back);
			else if (e.code != IBU_EPARSE || !strstr(e.msg, "no LFT entry"))
				fuzz_fail("written dump does not parse: %s", e.msg);
			fclose(in);
		}
		free(mem.buf);
		ibu_lft_free(&lft);
	}
	ibu_fabric_free(&f);
	return 0;
}
