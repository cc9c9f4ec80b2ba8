/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the opensm-subnet.lst reader (lib/io/subnet_lst.c).
 * Properties: a fabric accepted holds fuzz_fabric_invariants(), and its
 * LIDs are not shared by two ports.
 */
#include "fuzz.h"
#include "fuzz_file.h"
#include "subnet_lst.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	char *copy;
	FILE *in = fuzz_open(data, size, &copy);
	int rc;

	if (!in)
		abort();
	rc = ibu_subnet_lst_read_stream(in, "fuzz.lst", &f, &e);
	fuzz_close(in, copy);
	if (rc)
		return 0;
	fuzz_fabric_invariants(&f);
	ibu_fabric_free(&f);
	return 0;
}
