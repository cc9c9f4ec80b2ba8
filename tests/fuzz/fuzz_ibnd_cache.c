/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: an `ibnetdiscover --cache` file through the toolkit's
 * fabric entry point (ibu_fabric_open: format sniffing, then our own cache
 * reader, lib/io/ibnd_cache.c). Properties: bounded (run.sh's -timeout and
 * -rss_limit_mb), and a fabric accepted holds fuzz_fabric_invariants().
 * Seeds: fixtures/fuzz/ibnd_cache (caches ibnetdiscover wrote under ibsim).
 */
#include "fuzz.h"
#include "fuzz_file.h"
#include "fabric_open.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	enum ibu_fabric_format fmt;

	if (ibu_fabric_open(fuzz_file(data, size), &f, &fmt, &e))
		return 0;
	fuzz_fabric_invariants(&f);
	ibu_fabric_free(&f);
	return 0;
}
