/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: `ibnetdiscover` text output through the toolkit's
 * fabric entry point (ibu_fabric_open: format sniffing between net file,
 * ibnetdiscover text, opensm-subnet.lst and cache, then the reader).
 * Properties: a fabric accepted holds fuzz_fabric_invariants(), and port
 * GUIDs are unique (ibnetdiscover names every port by its GUID).
 */
#include "fuzz.h"
#include "fuzz_file.h"
#include "fabric_open.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_fabric f;
	struct ibu_err e = { 0 };
	enum ibu_fabric_format fmt;

	if (ibu_fabric_open(fuzz_file(data, size), &f, &fmt, &e)) {
		fuzz_no_control(e.msg, "the error message");
		return 0;
	}
	fuzz_fabric_invariants(&f);
	if (ibu_fabric_check_guids(&f, &e))
		fuzz_fail("%s accepted with duplicate GUIDs: %s",
			  ibu_fabric_format_name(fmt), e.msg);
	ibu_fabric_free(&f);
	return 0;
}
