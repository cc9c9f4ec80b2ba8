#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs the libFuzzer targets built in $top_builddir/tests/fuzz.
#
#	tests/fuzz/run.sh [-t SECONDS] [-j JOBS] [TARGET...]
#
# Each target starts from a corpus in $top_builddir/tests/fuzz/corpus/<target>
# seeded from fixtures/fuzz/<target>, runs SECONDS (default 300) and keeps
# what it learns there; a crash or a failed property leaves the input in
# $top_builddir/tests/fuzz/artifacts/<target>/ and makes the script exit 1.
# Without clang's fuzzer runtime (configure says "libFuzzer targets: no")
# it exits 77.  `make check` runs every target for a few seconds through
# tests/t0310-fuzz-smoke.sh; `make fuzz` runs this with FUZZ_SECONDS.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
secs=300
jobs=1
while getopts t:j: o; do
	case $o in
	t) secs=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-j JOBS] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(netfile ibnetdiscover lft_dump mft_dump members guid2lid plugin_options
	path subnet_lst sl2vl dlids ibnd_cache)
fz=$top_builddir/tests/fuzz
status=0
for t in "${targets[@]}"; do
	bin=$fz/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "# $bin not built (no clang fuzzer runtime?)"
		exit 77
	fi
	corpus=$fz/corpus/$t
	art=$fz/artifacts/$t
	mkdir -p "$corpus" "$art"
	seeds=$top_srcdir/fixtures/fuzz/$t
	log=$fz/fuzz_$t.log
	# -timeout: no single input may take a second; -rss_limit_mb: 1 GB
	par=()
	[ "$jobs" -gt 1 ] && par=(-fork="$jobs")
	"$bin" -max_total_time="$secs" -error_exitcode=1 -timeout=10 -rss_limit_mb=1024 \
		-max_len=65536 -print_final_stats=1 "${par[@]}" \
		-artifact_prefix="$art/" "$corpus" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')
	# -fork prints no final stats; its last "#N:" progress line has the total
	[ "$execs" -eq 0 ] &&
		execs=$(sed -n 's/^#\([0-9][0-9]*\):.*/\1/p' "$log" | tail -n 1) && execs=${execs:-0}
	if [ $rc -eq 0 ]; then
		echo "ok - fuzz_$t: $execs executions in ${secs}s, no finding"
	else
		echo "not ok - fuzz_$t: exit $rc after $execs executions; see $log and $art"
		grep -E 'ERROR|runtime error|fuzz property|SUMMARY' "$log" | head -n 5 | sed 's/^/# /'
		status=1
	fi
done
exit $status
