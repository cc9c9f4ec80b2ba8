#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Benchmark of a fabric's events (issue 19), run by `tools/bench.sh
# --events`: a cable cut under a running opensm, re-swept by the cyclic
# engine and by OpenSM's ftree configuration (which declines a damaged
# tree and falls back to minhop), interleaved inside each repetition.
# Not part of make check.
#
#	tools/bench.sh --events [-n REPS] [--large] [--engines 'E1 E2'] [-o RESULTS.tsv]
#
# One run: ibsim (console) + opensm (force_heavy_sweep) on a shuffled
# IBFT(24,3) [, IBFT(32,3) with --large], SUBNET UP, dump_lfts, then one
# leaf-to-middle cable is cut through ibsim's console (the cable is found
# from the graph: the first switch port of a switch that has end ports),
# SIGHUP, wait for the next SUBNET UP, dump_lfts again.
#
# What the numbers mean (all of the re-sweep unless said otherwise):
#   used        the engine whose tables were configured
#   route ms    OpenSM's routing phase ("building routing with" to "tables
#               configured"), a declining engine and its fallback included
#   cb ms       the plugin's own callback ("routed in X ms"); first = the
#               fault-free first sweep's
#   hup s       from SIGHUP to the next SUBNET UP
#   blocks      64-LID LFT blocks whose content changed between the two
#               dumps: what OpenSM had to send again
#   ours MiB    the plugin's own memory (model + tables) as it logs it
#   RSS MiB     opensm's peak resident set (VmHWM) after the re-sweep
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/_build}
reps=1
large=
results=
engine_list="cyclic,minhop ftree"
cmdline="tools/bench.sh --events $*"

while [ $# -gt 0 ]; do
	case $1 in
	-n) reps=${2-}; shift 2 || { echo "bench: -n needs a value" >&2; exit 2; } ;;
	--large) large=1; shift ;;
	--engines) engine_list=${2-}; shift 2 || { echo "bench: --engines needs a list" >&2; exit 2; } ;;
	-o) results=${2-}; shift 2 || { echo "bench: -o needs a file" >&2; exit 2; } ;;
	*) echo "bench --events: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case $reps in '' | *[!0-9]* | 0) echo "bench: -n needs a positive number" >&2; exit 2 ;; esac

BUILD_DIR=$build bash "$top/tools/build.sh" || exit 1

# shellcheck disable=SC2034 # read by tests/sim.sh
top_srcdir=$top
# shellcheck disable=SC2034
top_builddir=$build
# shellcheck source=../tests/sim.sh
. "$top/tests/sim.sh"
sim_script_mode

work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-bench-ev.XXXXXX") || exit 1
sim_at_exit 'rm -rf "$work"'
trap 'rm -rf "$work"' EXIT
[ -n "$results" ] || results=$work/results.tsv
: >"$results" || exit 1

fabrics=("ibft243|fattree 24 3|-N 8192 -S 1024 -P 65536")
[ -n "$large" ] && fabrics+=("ibft323|fattree 32 3|-N 16384 -S 2048 -P 65536")
read -r -a engines <<<"$engine_list"

for spec in "${fabrics[@]}"; do
	IFS='|' read -r name gen _ <<<"$spec"
	# shellcheck disable=SC2086
	"$IBUNION" gen $gen --shuffle-ports --shuffle-records --seed 19 \
		-o "$work/$name.net" || exit 1
done

# seconds since midnight of an OpenSM log line ("Nov 22 06:10:26 117259 [...")
secs_of_log_line()
{
	awk '{ split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6; exit }'
}

now_secs()
{
	date +%H:%M:%S.%N | awk -F: '{ printf "%.6f", $1 * 3600 + $2 * 60 + $3 }'
}

# leaf_cable NETFILE: "SWITCH PORT" of a cable from a leaf switch (one
# with an end port) to another switch, from the graph alone.
leaf_cable()
{
	awk '
	/^(Switch|Hca|Ca)[ \t]/ {
		kind = $1; name = $0
		sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
		isswitch[name] = (kind == "Switch"); n++; order[n] = name
		next
	}
	/^\[[0-9]+\][ \t]*"/ {
		peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
		port = $1; gsub(/[][]/, "", port)
		np[name]++; pp[name, np[name]] = port; pn[name, np[name]] = peer
	}
	END {
		for (i = 1; i <= n; i++) {
			s = order[i]; leaf = 0; sp = ""
			if (!isswitch[s]) continue
			for (j = 1; j <= np[s]; j++) {
				if (!isswitch[pn[s, j]]) leaf = 1
				else if (sp == "") sp = pp[s, j]
			}
			if (leaf && sp != "") { print s, sp; exit }
		}
	}' "$1"
}

# lft_blocks BEFORE AFTER: 64-LID blocks (switch, block) that differ.
lft_blocks()
{
	awk '
	function hex(x,   i, n, c) {
		n = 0; x = tolower(substr(x, 3))
		for (i = 1; i <= length(x); i++) {
			c = index("0123456789abcdef", substr(x, i, 1)) - 1
			n = n * 16 + c
		}
		return n
	}
	/^Unicast lids/ { sw = $0; sub(/.*guid /, "", sw); sub(/ .*/, "", sw); next }
	/^0x[0-9a-fA-F]+ +[0-9]+/ {
		lid = hex($1); blk = sw SUBSEP int(lid / 64)
		v = lid ":" $2
		if (FNR == NR) a[blk] = a[blk] " " v; else b[blk] = b[blk] " " v
		seen[blk] = 1
	}
	END { for (k in seen) if (a[k] != b[k]) d++; print d + 0 }' "$1" "$2"
}

# results: fabric engine rep used route_ms cb_first cb_ms hup_s blocks ours_mib rss_mib
record()
{
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"
}

# run_fault FABRIC ENGINE IBSIM-ARGS REP
run_fault()
{
	local fabric=$1 engine=$2 args=$3 rep=$4 net=$work/$1.net sw port
	local mark t_hup start end up used route cb0 cb hup blocks ours rss log

	read -r sw port <<<"$(leaf_cable "$net")"
	[ -n "$port" ] || { echo "bench: no leaf cable in $fabric" >&2; return 1; }
	sim_setup >/dev/null
	# shellcheck disable=SC2086
	if ! sim_start_ibsim_console "$net" $args >/dev/null; then
		sim_mark_failed
		sim_teardown >/dev/null
		echo "bench: ibsim failed on $fabric" >&2
		return 1
	fi
	sim_write_conf routing_engine "$engine" lmc 0 log_flags 0x07 \
		force_heavy_sweep TRUE
	sim_start_opensm
	if ! sim_wait_subnet_up 900 >"$SIM_DIR/wait.out" ||
		! sim_resweep_quiet || ! sim_dump_lfts "$SIM_DIR/before.lfts"; then
		sim_mark_failed
		echo "bench: $fabric $engine: no SUBNET UP, files in $SIM_DIR" >&2
		sim_teardown >/dev/null
		return 1
	fi
	cb0=$(sed -n 's/.*, routed in \([0-9.]*\) ms.*/\1/p' "$SIM_DIR/osm.log" | head -n 1)
	mark=$(sim_log_mark)
	sim_ibsim_cmd "Unlink \"$sw\"[$port]" >/dev/null || { sim_teardown >/dev/null; return 1; }
	t_hup=$(now_secs)
	if ! sim_resweep >/dev/null || ! sim_dump_lfts "$SIM_DIR/after.lfts"; then
		sim_mark_failed
		echo "bench: $fabric $engine: no re-sweep, files in $SIM_DIR" >&2
		sim_teardown >/dev/null
		return 1
	fi
	rss=$(awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$OPENSM_PID/status" 2>/dev/null)
	log=$SIM_DIR/resweep.log
	sim_log_since "$mark" >"$log"
	start=$(grep -m1 "building routing with" "$log" | secs_of_log_line)
	end=$(grep -m1 "tables configured on all switches" "$log" | secs_of_log_line)
	up=$(grep -m1 "SUBNET UP" "$log" | secs_of_log_line)
	used=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' "$log" | head -n 1)
	cb=$(sed -n 's/.*, routed in \([0-9.]*\) ms.*/\1/p' "$log" | head -n 1)
	ours=$(sed -n 's/.*own memory \([0-9.]*\) MiB.*/\1/p' "$log" | head -n 1)
	route=$(awk -v a="$start" -v b="$end" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.2f", d * 1000 }')
	hup=$(awk -v a="$t_hup" -v b="$up" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.3f", d }')
	blocks=$(lft_blocks "$SIM_DIR/before.lfts" "$SIM_DIR/after.lfts")
	grep -h "cyclic: .*split" "$SIM_DIR/osm.log" | sed 's/.*-> /    /'
	sim_teardown >/dev/null
	record "$fabric" "$engine" "$rep" "${used:-?}" "$route" "${cb0:--}" "${cb:--}" \
		"$hup" "$blocks" "${ours:--}" "${rss:--}"
	printf '  %-8s %-14s rep %s: cut %s[%s]: %-7s route %9s ms  cb %7s ms (first %7s)  hup %7s s  blocks %6s  ours %5s MiB  RSS %7s MiB\n' \
		"$fabric" "$engine" "$rep" "$sw" "$port" "${used:-?}" "$route" "${cb:--}" \
		"${cb0:--}" "$hup" "$blocks" "${ours:--}" "${rss:--}"
}

# sim_resweep_quiet: the first sweep's traps settle (no change yet).
sim_resweep_quiet()
{
	local i

	# shellcheck disable=SC2034 # sim.sh's sim__log_quiet keeps it
	sim__log_size=
	for ((i = 0; i < 60; i++)); do
		sim__log_quiet && return 0
		sleep 1
	done
	return 1
}

echo "bench: $cmdline"
echo "bench: $reps repetition(s); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
failures=0
for ((rep = 1; rep <= reps; rep++)); do
	for spec in "${fabrics[@]}"; do
		IFS='|' read -r name _ args <<<"$spec"
		for eng in "${engines[@]}"; do
			run_fault "$name" "$eng" "$args" "$rep" || failures=$((failures + 1))
		done
	done
done

echo
awk -F'\t' -v cmd="$cmdline" '
function median(list,   n, i, j, v, t) {
	n = split(list, v, " ")
	if (!n)
		return "-"
	for (i = 2; i <= n; i++)
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
	eng = $2; sub(/,.*/, "", eng)
	key = $1 SUBSEP eng
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	cnt[key]++; used[key] = $4
	add(key, "route", $5); add(key, "cb0", $6); add(key, "cb", $7); add(key, "hup", $8)
	add(key, "blocks", $9); add(key, "ours", $10); add(key, "rss", $11)
}
END {
	print "Fault re-sweep (one leaf cable cut through ibsim, SIGHUP; OpenSM 3.3.23 + ibsim, lmc 0; medians; x = ratio to the ftree configuration):"
	print ""
	print "| fabric | engine (used) | n | routing phase ms | x | callback ms degraded / fault-free | x | SIGHUP to SUBNET UP s | LFT blocks sent | our memory MiB | opensm peak RSS MiB | ours/RSS |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, p, SUBSEP)
		rk = p[1] SUBSEP "ftree"
		for (c = 1; c <= 7; c++) {
			col = c == 1 ? "route" : c == 2 ? "cb0" : c == 3 ? "cb" : c == 4 ? "hup" : c == 5 ? "blocks" : c == 6 ? "ours" : "rss"
			m[col] = median(vals[key, col]); r[col] = median(vals[rk, col])
		}
		printf "| %s | %s (%s) | %d | %s | %s | %s / %s | %s | %s | %s | %s | %s | %s |\n",
			p[1], p[2], used[key], cnt[key], fmt(m["route"], "%.1f"), ratio(m["route"], r["route"]),
			fmt(m["cb"], "%.1f"), fmt(m["cb0"], "%.1f"), ratio(m["cb"], m["cb0"]),
			fmt(m["hup"], "%.2f"), m["blocks"], fmt(m["ours"], "%.1f"), fmt(m["rss"], "%.0f"),
			m["ours"] == "-" ? "-" : sprintf("%.1f%%", 100 * m["ours"] / m["rss"])
	}
	print ""
	print "Command: " cmd
}' "$results"
echo
echo "raw results: $results$([ "$results" = "$work/results.tsv" ] && echo " (removed on exit; -o FILE keeps them)")"
[ "$failures" -eq 0 ] || { echo "bench: $failures run(s) failed" >&2; exit 1; }
