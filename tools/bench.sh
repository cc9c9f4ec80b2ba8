#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Routing-time benchmark: the cyclic engine against OpenSM's ftree (lmc 0),
# minhop and updn (lmc 0 and 4), each run on a fresh ibsim + opensm, engines
# interleaved inside every repetition so the ratios compare runs made back to
# back.  Not part of make check.
#
#	tools/bench.sh [-n REPS] [--large] [--mesh] [-o RESULTS.tsv]
#
#	-n REPS    repetitions (default 3)
#	--large    also IBFT(16,3) (1024 end ports, ibsim -S 512): minutes
#	--mesh     instead: the 16x16 mesh (1 HCA per switch, shuffled ports
#	           and records) under xy, OpenSM's dor and minhop (lmc 0)
#	-o FILE    keep the raw results (one line per run) in FILE
#
# What the numbers mean (as in research/perf-baseline.md):
#   route ms   from OpenSM's "building routing with '<engine>'" line (log
#              flag 0x04) to "<engine> tables configured on all switches":
#              the engine's LID matrices + LFT computation + queueing the
#              LFT blocks (a failed first engine and its fallback included)
#   up s       from just before opensm is started to its first SUBNET UP
# Each cell is the median over the repetitions; "x minhop" divides by the
# median of minhop on the same fabric at the same LMC.  A '*' after the
# engine means it fell back to another engine (the one named).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/_build}
reps=3
large=
mesh=
results=

while [ $# -gt 0 ]; do
	case $1 in
	-n) reps=$2; shift 2 ;;
	--large) large=1; shift ;;
	--mesh) mesh=1; shift ;;
	-o) results=$2; shift 2 ;;
	-h | --help) sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
case $reps in '' | *[!0-9]* | 0) echo "bench: -n needs a positive number" >&2; exit 2 ;; esac

BUILD_DIR=$build bash "$top/tools/build.sh" || exit 1

top_srcdir=$top
top_builddir=$build
# shellcheck source=../tests/sim.sh
. "$top/tests/sim.sh"
sim_script_mode

work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-bench.XXXXXX") || exit 1
sim_at_exit 'rm -rf "$work"'
trap 'rm -rf "$work"' EXIT	# until the first sim_setup takes the trap over
[ -n "$results" ] || results=$work/results.tsv
: >"$results" || exit 1

# fabric name, M, N, ibsim args
fabrics=("ibft83 8 3")
[ -n "$large" ] && fabrics+=("ibft163 16 3 -S 512")
# engine (routing_engine value), LMC
configs=("cyclic,minhop 0" "cyclic,minhop 4" "ftree 0" "minhop 0" "minhop 4" "updn 0" "updn 4")

if [ -n "$mesh" ]; then
	fabrics=("mesh16 16 16")
	configs=("xy,minhop 0" "dor 0" "minhop 0")
fi

for f in "${fabrics[@]}"; do
	set -- $f
	case $1 in
	mesh*) "$IBUNION" gen mesh "$2" "$3" --hcas 1 --shuffle-ports \
		--shuffle-records -o "$work/$1.net" || exit 1 ;;
	*) "$IBUNION" gen fattree "$2" "$3" -o "$work/$1.net" || exit 1 ;;
	esac
done

# seconds since midnight of an OpenSM log line ("Nov 22 06:10:26 117259 [...")
secs_of_log_line()
{
	awk '{ split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6; exit }'
}

# run_one FABRIC ENGINE LMC IBSIM-ARGS: one fresh simulation; appends
# "fabric engine lmc rep used route_ms up_s" to the results.
run_one()
{
	local fabric=$1 engine=$2 lmc=$3 args=$4 rep=$5 t0 up start end used route up_s

	sim_setup >/dev/null
	# shellcheck disable=SC2086
	if ! sim_start_ibsim "$work/$fabric.net" $args >/dev/null; then
		sim_mark_failed
		sim_teardown
		echo "bench: ibsim failed on $fabric" >&2
		return 1
	fi
	sim_write_conf routing_engine "$engine" lmc "$lmc" log_flags 0x07
	t0=$(date +%H:%M:%S.%N | awk -F: '{ printf "%.6f", $1 * 3600 + $2 * 60 + $3 }')
	sim_start_opensm
	if ! sim_wait_subnet_up 600 >"$SIM_DIR/wait.out"; then
		sim_mark_failed
		echo "bench: $fabric $engine lmc $lmc: no SUBNET UP, files in $SIM_DIR" >&2
		cat "$SIM_DIR/wait.out" >&2
		sim_teardown >/dev/null
		return 1
	fi
	start=$(grep -m1 "building routing with" "$SIM_DIR/osm.log" | secs_of_log_line)
	end=$(grep -m1 "tables configured on all switches" "$SIM_DIR/osm.log" | secs_of_log_line)
	up=$(grep -m1 "SUBNET UP" "$SIM_DIR/osm.log" | secs_of_log_line)
	used=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' \
		"$SIM_DIR/osm.log" | head -n 1)
	route=$(awk -v a="$start" -v b="$end" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.2f", d * 1000 }')
	up_s=$(awk -v a="$t0" -v b="$up" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.3f", d }')
	sim_teardown >/dev/null
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fabric" "$engine" "$lmc" "$rep" \
		"${used:-?}" "$route" "$up_s" >>"$results"
	printf '  %-8s %-14s lmc %s  rep %s: %-7s route %9s ms  up %7s s\n' \
		"$fabric" "$engine" "$lmc" "$rep" "${used:-?}" "$route" "$up_s"
}

echo "bench: $reps repetition(s) of ${#configs[@]} configurations on ${#fabrics[@]} fabric(s)"
failures=0
for ((rep = 1; rep <= reps; rep++)); do
	for f in "${fabrics[@]}"; do
		set -- $f
		name=$1
		shift 3
		for c in "${configs[@]}"; do
			run_one "$name" ${c% *} ${c#* } "$*" "$rep" || failures=$((failures + 1))
		done
	done
done

echo
awk -F'\t' '
function median(key,   n, i, j, v, t) {
	n = split(vals[key], v, " ")
	for (i = 2; i <= n; i++)	# insertion sort, n is small
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
	eng = $2; sub(/,.*/, "", eng)
	key = $1 SUBSEP eng SUBSEP $3
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	vals[key] = vals[key] " " $6; ups[key] = ups[key] " " $7; cnt[key]++
	if ($5 != eng) fell[key] = $5
}
END {
	printf "%-8s %-8s %3s %3s %11s %9s %9s %9s\n", "fabric", "engine", "lmc", "n",
		"route ms", "x minhop", "up s", "x minhop"
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, p, SUBSEP)
		r[key] = median(key); vals[key "u"] = ups[key]; u[key] = median(key "u")
	}
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, p, SUBSEP)
		mk = p[1] SUBSEP "minhop" SUBSEP p[3]
		rr = (mk in r && r[mk] > 0) ? sprintf("%.2f", r[key] / r[mk]) : "-"
		ur = (mk in u && u[mk] > 0) ? sprintf("%.2f", u[key] / u[mk]) : "-"
		name = p[2] ((key in fell) ? "*" fell[key] : "")
		printf "%-8s %-8s %3s %3d %11.2f %9s %9.3f %9s\n", p[1], name, p[3], cnt[key],
			r[key], rr, u[key], ur
	}
}' "$results"
echo
echo "raw results: $results$([ "$results" = "$work/results.tsv" ] && echo " (removed on exit; -o FILE keeps them)")"
[ "$failures" -eq 0 ] || { echo "bench: $failures run(s) failed" >&2; exit 1; }
