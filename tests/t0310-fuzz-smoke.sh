#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A bounded run of every libFuzzer target (tests/fuzz/): FUZZ_SMOKE_SECONDS
# (default 3) each, from the seed corpora in fixtures/fuzz/.  Skipped (77)
# when configure found no clang fuzzer runtime.  The long run is
# `make fuzz FUZZ_SECONDS=600` (docs/design.md).
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
export top_srcdir top_builddir
if [ ! -x "$top_builddir/tests/fuzz/fuzz_netfile" ]; then
	echo "1..0 # SKIP libFuzzer targets not built (configure: libFuzzer targets: no)"
	exit 77
fi
targets=(netfile ibnetdiscover lft_dump mft_dump members guid2lid plugin_options
	path subnet_lst sl2vl dlids ibnd_cache)
echo "1..${#targets[@]}"
status=0
for t in "${targets[@]}"; do
	out=$(bash "$top_srcdir/tests/fuzz/run.sh" -t "${FUZZ_SMOKE_SECONDS:-3}" "$t")
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || status=1
done
exit $status
