#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Benchmark: OpenSM with the cyclic engine against its own
# ftree, minhop and updn on fat trees, xy against dor on meshes, and the
# offline tool on the largest fat trees that fit the LID space.  Every
# simulated run is a fresh ibsim + opensm; engines are interleaved inside
# each repetition so the ratios compare runs made back to back.  Not part
# of make check.
#
#	tests/scripts/bench.sh [-n REPS] [--large] [--mesh] [--pgft] [--no-sim]
#	               [--no-offline] [-o RESULTS.tsv]
#	tests/scripts/bench.sh --events [-n REPS] [--large] [--small] [--storm | --faults]
#	               [--engines 'E1 E2'] [-o RESULTS.tsv]
#
#	--events      a fabric's events instead (tests/scripts/bench-events.sh): a
#	              cable cut and its re-sweep, and a join/leave storm,
#	              cyclic against ftree (--storm, --faults: one of them)

#	-n REPS       repetitions (default 3)
#	--large       also IBFT(32,3) under OpenSM (8192 end ports; minutes)
#	--mesh        the meshes only (no fat trees, no offline runs)
#	--pgft        the PGFTs only: a 2-level and a 3-level PGFT of more
#	              than 8,000 hosts under OpenSM, cyclic, ftree and
#	              minhop (no IBFTs, no meshes, no offline runs; minutes)
#	--no-sim      skip the OpenSM runs
#	--no-offline  skip the offline runs
#	-o FILE       keep the raw results (one line per run) in FILE
#
# Simulated (lmc 0): IBFT(16,3), IBFT(24,3) [, IBFT(32,3)] x cyclic, ftree,
# minhop, updn; 8x8 and 16x16 meshes (1 HCA per switch, shuffled ports and
# records) x xy, dor, minhop when `ibunion gen mesh` and the xy engine
# exist.  --pgft (lmc 0, ports and records shuffled): PGFT(2; 84,126;
# 1,42; 1,1) on 126-port switches (10,584 hosts, 84 down / 42 up: 2:1
# blocking leaves) and PGFT(3; 32,16,20; 1,16,16; 1,2,2) on 64-port
# switches (10,240 hosts, 20 of 32 pods, 2 parallel cables on every
# leaf-middle and middle-top pair) x cyclic, ftree, minhop.  Offline:
# `ibunion route --lmc 0 -o /dev/null` and `ibunion check` (reading
# route's dump through a pipe) on IBFT(36,3) and IBFT(56,3).
#
# What the numbers mean:
#   route ms   OpenSM's routing phase, from its "building routing with
#              '<engine>'" line (log flag 0x04) to "<engine> tables
#              configured on all switches": LID matrices + LFTs + queueing
#              the LFT blocks (a failed first engine and its fallback
#              included)
#   cb ms      the plugin's own "routed in X ms" (cyclic, xy only)
#   up s       from just before opensm starts to its first SUBNET UP
#   RSS MiB    opensm's peak resident set (VmHWM) just after SUBNET UP
#   x ref      the median divided by the reference engine's median on the
#              same fabric (ftree on fat trees, dor on meshes)
#   offline    wall seconds and peak RSS (/usr/bin/time, else bash time);
#              check's seconds are its own CPU (user + sys) and its wall
#              time, which includes waiting for route in the pipe
# Each cell is the median over the repetitions.  A '*' after the engine
# means it fell back to another engine (the one named).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
reps=3
large=
sim=1
offline=1
results=
meshonly=
pgftonly=
cmdline="tests/scripts/bench.sh $*"

for arg in "$@"; do
	if [ "$arg" = --events ]; then
		rest=()
		for a in "$@"; do [ "$a" = --events ] || rest+=("$a"); done
		exec bash "$top/tests/scripts/bench-events.sh" "${rest[@]}"
	fi
done

while [ $# -gt 0 ]; do
	case $1 in
	-n) reps=${2-}; shift 2 || { echo "bench: -n needs a value" >&2; exit 2; } ;;
	--large) large=1; shift ;;
	--mesh) meshonly=1; offline=; shift ;;
	--pgft) pgftonly=1; offline=; shift ;;
	--no-sim) sim=; shift ;;
	--no-offline) offline=; shift ;;
	-o) results=${2-}; shift 2 || { echo "bench: -o needs a file" >&2; exit 2; } ;;
	-h | --help) sed -n '3,55p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
case $reps in '' | *[!0-9]* | 0) echo "bench: -n needs a positive number" >&2; exit 2 ;; esac

BUILD_DIR=$build bash "$top/tests/scripts/build.sh" || exit 1

top_srcdir=$top
top_builddir=$build
# shellcheck source=../sim.sh
. "$top/tests/sim.sh"
sim_script_mode

work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-bench.XXXXXX") || exit 1
sim_at_exit 'rm -rf "$work"'
trap 'rm -rf "$work"' EXIT	# until the first sim_setup takes the trap over
[ -n "$results" ] || results=$work/results.tsv
: >"$results" || exit 1

TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=

# ------------------------------------------------------------ fabrics

# name, generator arguments, ibsim args
fabrics=()
mesh_engines=()
if [ -n "$pgftonly" ]; then
	[ -n "$meshonly" ] && { echo "bench: --mesh and --pgft exclude each other" >&2; exit 2; }
	[ -n "$sim" ] || { echo "bench: --pgft runs only under OpenSM (no --no-sim)" >&2; exit 2; }
	# 126 ports: ibsim + opensm + dump_lfts lose LFT entries for ports
	# 128 and above, so the 2-level tree stays below 128
	fabrics+=("pgft2|pgft --m 84,126 --w 1,42 --p 1,1 --radix 126 --shuffle-ports --shuffle-records|-N 16384 -S 2048 -P 65536")
	fabrics+=("pgft3|pgft --m 32,16,20 --w 1,16,16 --p 1,2,2 --radix 64 --shuffle-ports --shuffle-records|-N 16384 -S 2048 -P 131072")
elif [ -n "$sim" ] && "$IBUNION" gen mesh 2 2 -o "$work/probe.net" >/dev/null 2>&1 &&
	"$IBUNION" route --engine xy --lmc 0 "$work/probe.net" -o /dev/null 2>/dev/null; then
	fabrics+=("mesh8x8|mesh 8 8 --hcas 1 --shuffle-ports --shuffle-records|"
		  "mesh16x16|mesh 16 16 --hcas 1 --shuffle-ports --shuffle-records|")
	mesh_engines=("xy,minhop" dor minhop)
else
	[ -n "$sim" ] && echo "bench: no 'ibunion gen mesh' or no xy engine: meshes skipped"
fi
if [ -n "$sim" ] && [ -z "$meshonly" ] && [ -z "$pgftonly" ]; then
	fabrics+=("ibft163|fattree 16 3|-S 512")
	fabrics+=("ibft243|fattree 24 3|-N 8192 -S 1024 -P 65536")
	[ -n "$large" ] && fabrics+=("ibft323|fattree 32 3|-N 16384 -S 2048 -P 65536")
fi
ft_engines=("cyclic,minhop" ftree minhop updn)
[ -n "$pgftonly" ] && ft_engines=("cyclic,minhop" ftree minhop)
offline_fabrics=()
[ -n "$offline" ] && offline_fabrics=("ibft363|fattree 36 3" "ibft563|fattree 56 3")

for spec in "${fabrics[@]}" "${offline_fabrics[@]}"; do
	IFS='|' read -r name gen _ <<<"$spec"
	# shellcheck disable=SC2086
	"$IBUNION" gen $gen -o "$work/$name.net" || exit 1
done

# ------------------------------------------------------------ one run

# seconds since midnight of an OpenSM log line ("Nov 22 06:10:26 117259 [...")
secs_of_log_line()
{
	awk '{ split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6; exit }'
}

# results: kind fabric engine rep used route_ms cb_ms up_s rss_mib
record()
{
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"
}

# run_sim FABRIC ENGINE IBSIM-ARGS REP
run_sim()
{
	local fabric=$1 engine=$2 args=$3 rep=$4 t0 start end up used route up_s
	local cb rss

	sim_setup >/dev/null
	# shellcheck disable=SC2086
	if ! sim_start_ibsim "$work/$fabric.net" $args >/dev/null; then
		sim_mark_failed
		sim_teardown >/dev/null
		echo "bench: ibsim failed on $fabric" >&2
		return 1
	fi
	sim_write_conf routing_engine "$engine" lmc 0 log_flags 0x07
	t0=$(date +%H:%M:%S.%N | awk -F: '{ printf "%.6f", $1 * 3600 + $2 * 60 + $3 }')
	sim_start_opensm
	if ! sim_wait_subnet_up 900 >"$SIM_DIR/wait.out"; then
		sim_mark_failed
		echo "bench: $fabric $engine: no SUBNET UP, files in $SIM_DIR" >&2
		cat "$SIM_DIR/wait.out" >&2
		sim_teardown >/dev/null
		return 1
	fi
	rss=$(awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$OPENSM_PID/status" 2>/dev/null)
	start=$(grep -m1 "building routing with" "$SIM_DIR/osm.log" | secs_of_log_line)
	end=$(grep -m1 "tables configured on all switches" "$SIM_DIR/osm.log" | secs_of_log_line)
	up=$(grep -m1 "SUBNET UP" "$SIM_DIR/osm.log" | secs_of_log_line)
	used=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' \
		"$SIM_DIR/osm.log" | head -n 1)
	cb=$(sed -n 's/.*, routed in \([0-9.]*\) ms.*/\1/p' "$SIM_DIR/osm.log" | head -n 1)
	route=$(awk -v a="$start" -v b="$end" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.2f", d * 1000 }')
	up_s=$(awk -v a="$t0" -v b="$up" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.3f", d }')
	sim_teardown >/dev/null
	record sim "$fabric" "$engine" "$rep" "${used:-?}" "$route" "${cb:--}" "$up_s" "${rss:--}"
	printf '  %-9s %-14s rep %s: %-7s route %9s ms  cb %8s ms  up %7s s  RSS %7s MiB\n' \
		"$fabric" "$engine" "$rep" "${used:-?}" "$route" "${cb:--}" "$up_s" "${rss:--}"
}

# timed OUT CMD...: runs CMD, writes "wall_s user_s sys_s maxrss_mib" to OUT
timed()
{
	local out=$1
	shift
	if [ -n "$TIME" ]; then
		"$TIME" -o "$out" -f '%e %U %S %M' "$@" || return 1
		awk '{ printf "%s %s %s %.1f\n", $1, $2, $3, $4 / 1024 }' "$out" >"$out.x" &&
			mv "$out.x" "$out"
	else
		local s e
		s=$(date +%s.%N)
		"$@" || return 1
		e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f - - -\n", e - s }' >"$out"
	fi
}

# run_offline FABRIC REP: route to /dev/null, then route | check -
run_offline()
{
	local fabric=$1 rep=$2 net=$work/$1.net r c w0 w1 ok=0 rmib cw cu cs cm

	if ! timed "$work/route.t" "$IBUNION" route --lmc 0 "$net" -o /dev/null 2>"$work/route.err"; then
		echo "bench: ibunion route failed on $fabric:" >&2
		cat "$work/route.err" >&2
		return 1
	fi
	read -r r _ _ rmib <"$work/route.t"
	w0=$(date +%s.%N)
	"$IBUNION" route --lmc 0 "$net" 2>/dev/null |
		timed "$work/check.t" "$IBUNION" check -q "$net" - >"$work/check.out" 2>&1 || ok=$?
	w1=$(date +%s.%N)
	if [ "$ok" != 0 ]; then
		echo "bench: ibunion check on $fabric failed (exit $ok):" >&2
		tail -n 5 "$work/check.out" >&2
		return 1
	fi
	read -r cw cu cs cm <"$work/check.t"
	c=$(awk -v u="$cu" -v s="$cs" 'BEGIN { if (u == "-") print "-"; else printf "%.2f", u + s }')
	cw=$(awk -v a="$w0" -v b="$w1" 'BEGIN { printf "%.2f", b - a }')
	record offline "$fabric" route "$rep" - "$r" - - "$rmib"
	record offline "$fabric" check "$rep" - "$c" - "$cw" "$cm"
	printf '  %-9s offline rep %s: route %6s s %7s MiB   check %6s s CPU (%s s wall, piped) %7s MiB\n' \
		"$fabric" "$rep" "$r" "$rmib" "$c" "$cw" "$cm"
}

# ------------------------------------------------------------ runs

echo "bench: $cmdline"
echo "bench: $reps repetition(s); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
failures=0
for ((rep = 1; rep <= reps; rep++)); do
	for spec in "${offline_fabrics[@]}"; do
		IFS='|' read -r name _ <<<"$spec"
		run_offline "$name" "$rep" || failures=$((failures + 1))
	done
	for spec in "${fabrics[@]}"; do
		IFS='|' read -r name _ args <<<"$spec"
		case $name in
		mesh*) engines=("${mesh_engines[@]}") ;;
		*) engines=("${ft_engines[@]}") ;;
		esac
		for eng in "${engines[@]}"; do
			run_sim "$name" "$eng" "$args" "$rep" || failures=$((failures + 1))
		done
	done
done

# ------------------------------------------------------------ tables

echo
awk -F'\t' -v cmd="$cmdline" '
function median(list,   n, i, j, v, t) {
	n = split(list, v, " ")
	if (!n)
		return "-"
	for (i = 2; i <= n; i++)	# insertion sort, n is small
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function add(key, col, val) {
	if (val != "-" && val != "" && val != "?")
		vals[key, col] = vals[key, col] " " val
}
function ratio(a, b) {
	return (a == "-" || b == "-" || b + 0 <= 0) ? "-" : sprintf("%.2f", a / b)
}
function fmt(v, f) { return v == "-" ? "-" : sprintf(f, v) }
{
	eng = $3; sub(/,.*/, "", eng)
	key = $1 SUBSEP $2 SUBSEP eng
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	cnt[key]++
	add(key, "route", $6); add(key, "cb", $7); add(key, "up", $8); add(key, "rss", $9)
	if ($1 == "sim" && $5 != eng) fell[key] = $5
}
END {
	for (k = 1; k <= nk; k++) {
		key = order[k]
		for (c = 1; c <= 4; c++) {
			col = c == 1 ? "route" : c == 2 ? "cb" : c == 3 ? "up" : "rss"
			med[key, col] = median(vals[key, col])
		}
	}
	print "Simulated (OpenSM 3.3.23 + ibsim, lmc 0; medians; x = ratio to ftree on fat trees, to dor on meshes):"
	print ""
	print "| fabric | engine | n | routing phase ms | x | plugin callback ms | SUBNET UP s | x | opensm peak RSS MiB | x |"
	print "|---|---|---|---|---|---|---|---|---|---|"
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, p, SUBSEP)
		if (p[1] != "sim")
			continue
		ref = p[2] ~ /^mesh/ ? "dor" : "ftree"
		rk = "sim" SUBSEP p[2] SUBSEP ref
		name = p[3] ((key in fell) ? "*" fell[key] : "")
		printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", p[2], name, cnt[key],
			fmt(med[key, "route"], "%.1f"), ratio(med[key, "route"], med[rk, "route"]),
			fmt(med[key, "cb"], "%.1f"),
			fmt(med[key, "up"], "%.2f"), ratio(med[key, "up"], med[rk, "up"]),
			fmt(med[key, "rss"], "%.0f"), ratio(med[key, "rss"], med[rk, "rss"])
	}
	for (k = 1; k <= nk; k++)
		if (index(order[k], "offline" SUBSEP) == 1)
			anyoff = 1
	if (anyoff) {	# none with --mesh or --pgft
		print ""
		print "Offline (ibunion route --lmc 0 -o /dev/null; ibunion route --lmc 0 | ibunion check -q FABRIC -; medians):"
		print ""
		print "| fabric | n | route s | route peak RSS MiB | check CPU s | check wall s (piped) | check peak RSS MiB |"
		print "|---|---|---|---|---|---|---|"
	}
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, p, SUBSEP)
		if (p[1] != "offline" || p[3] != "route")
			continue
		ck = "offline" SUBSEP p[2] SUBSEP "check"
		printf "| %s | %d | %s | %s | %s | %s | %s |\n", p[2], cnt[key],
			fmt(med[key, "route"], "%.2f"), fmt(med[key, "rss"], "%.0f"),
			fmt(med[ck, "route"], "%.2f"), fmt(med[ck, "up"], "%.2f"),
			fmt(med[ck, "rss"], "%.0f")
	}
	print ""
	print "Command: " cmd
}' "$results"
echo
echo "raw results: $results$([ "$results" = "$work/results.tsv" ] && echo " (removed on exit; -o FILE keeps them)")"
[ "$failures" -eq 0 ] || { echo "bench: $failures run(s) failed" >&2; exit 1; }
