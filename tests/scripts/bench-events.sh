#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Benchmark of a fabric's events, run by `tests/scripts/bench.sh
# --events`: a cable cut under a running opensm, re-swept by the cyclic
# engine and by OpenSM's ftree configuration (which declines a damaged
# tree and falls back to minhop), and a join/leave storm, cyclic (the
# plugin's union trees) against ftree (OpenSM's default multicast
# manager); configurations interleaved inside each repetition.  Not part
# of make check.
#
#	tests/scripts/bench.sh --events [-n REPS] [--large] [--small]
#	               [--storm | --faults] [--engines 'E1 E2'] [-o RESULTS.tsv]
#
#	--small    the cable cut also on IBFT(8,3) and IBFT(16,3): sizes where
#	           cyclic's shift and eBB passes run (they stop above
#	           IBFT(16,3)'s hosts x ports), so its degraded callback costs
#	           a multiple of the fault-free one there
#	--storm    the join storm only;  --faults  the cable cut only
#	--qos      every configuration with `qos TRUE` (cyclic's turned
#	           routes then ride VL 1 on the damaged tree)
#	--engines  the configurations (default 'cyclic,minhop ftree'): each a
#	           routing_engine value, ':OPTIONS' adds event_plugin_options
#	           (e.g. cyclic,minhop:mcast_apex=lowest-guid)
#	STORM_GROUPS, STORM_SIZE, STORM_PAR, STORM_BATCH, STORM_LEVELS in the
#	environment shrink the storm for a quick look (defaults 50, 20, 4,
#	20, "10 100 500")
#
# Cable cut: ibsim (console) + opensm (force_heavy_sweep; the plugin with
# reuse_model=no) on a shuffled IBFT(24,3) [, IBFT(32,3) with --large;
# IBFT(8,3) and IBFT(16,3) with --small],
# SUBNET UP, dump_lfts, a SIGHUP re-sweep with nothing changed (the warm
# fault-free callback), then one leaf-to-middle cable is cut through
# ibsim's console (the cable is found from the graph: the first switch
# port of a switch that has end ports), SIGHUP, wait for the next SUBNET
# UP, dump_lfts again, and `ibunion check --updown` on the fabric without
# that cable.
#
# What the numbers mean (all of the re-sweep unless said otherwise):
#   used        the engine whose tables were configured
#   route ms    OpenSM's routing phase ("building routing with" to "tables
#               configured"), a declining engine and its fallback included
#   cb ms       the plugin's own callback ("routed in X ms") of the first
#               sweep after the cut; first = the warm fault-free re-sweep's
#   cpu ms      the same callbacks' CPU time (the plugin's split line)
#   valid       the tables after the cut pass check --updown
#   hup s       from SIGHUP to the next SUBNET UP
#   blocks      64-LID LFT blocks whose content changed between the two
#               dumps: what OpenSM had to send again
#   ours MiB    the plugin's own memory (model + tables) as it logs it
#   RSS MiB     opensm's peak resident set (VmHWM) after the re-sweep
#
# Join storm: ibsim + opensm (log_flags 0x07, and DEBUG for
# osm_mcast_fwd_rcv.c only: one line per MFT block a switch acknowledged)
# on a shuffled IBFT(16,3) (1,024 hosts).  50 groups of 20 hosts (a
# seeded shuffle per group): 1,000 SA joins sent by `ibunion mcast join`
# as the simulated hosts, every host's groups in one process (repeated
# --mgid), 4 processes at a time; the MFTs are then checked (dump_mfts,
# ibunion check --mcast: every member one copy from every sender).
# Then 20 more joins one at a time (time per join at the end of the
# storm), and the leaves of the 1,000.  Then groups of 2 hosts are built
# up to 10, 100 and 500 groups, with 20 joins one at a time at each.
#   storm s     from OpenSM logging the first join ("joining MC group")
#               to the last MFT block acknowledged after the last join;
#               the clients' pace bounds it from below
#   drain s     from the last join logged to the last MFT block: how far
#               the SM lags behind the clients
#   trees       trees built (OpenSM coalesces the joins that arrive while
#               it builds); our tree us: the plugin's own time per tree
#               ("built in N us")
#   per join    one join at a time, after the SM fell quiet: from the join
#               logged to the end of its tree build (ours, or OpenSM's
#               "Configured MLID"), and to the last MFT block acknowledged
#               (OpenSM sends every MFT block in use to every switch after
#               every change, so this part grows with the MLIDs in use
#               whoever builds the trees)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
reps=1
large=
small=
results=
parts="faults storm"
qos=FALSE
engine_list="cyclic,minhop ftree"
cmdline="tests/scripts/bench.sh --events $*"

while [ $# -gt 0 ]; do
	case $1 in
	-n) reps=${2-}; shift 2 || { echo "bench: -n needs a value" >&2; exit 2; } ;;
	--large) large=1; shift ;;
	--small) small=1; shift ;;
	--storm) parts=storm; shift ;;
	--faults) parts=faults; shift ;;
	--qos) qos=TRUE; shift ;;
	--engines) engine_list=${2-}; shift 2 || { echo "bench: --engines needs a list" >&2; exit 2; } ;;
	-o) results=${2-}; shift 2 || { echo "bench: -o needs a file" >&2; exit 2; } ;;
	*) echo "bench --events: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case $reps in '' | *[!0-9]* | 0) echo "bench: -n needs a positive number" >&2; exit 2 ;; esac

BUILD_DIR=$build bash "$top/tests/scripts/build.sh" || exit 1

# shellcheck disable=SC2034 # read by tests/sim.sh
top_srcdir=$top
# shellcheck disable=SC2034
top_builddir=$build
# shellcheck source=../sim.sh
. "$top/tests/sim.sh"
# shellcheck source=../mcast.sh
. "$top/tests/mcast.sh"
sim_script_mode

work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-bench-ev.XXXXXX") || exit 1
sim_at_exit 'rm -rf "$work"'
trap 'rm -rf "$work"' EXIT
[ -n "$results" ] || results=$work/results.tsv
: >"$results" || exit 1

fabrics=()
[ -n "$small" ] && fabrics+=("ibft83|fattree 8 3|-N 8192 -S 1024 -P 65536"
	"ibft163|fattree 16 3|-N 8192 -S 1024 -P 65536")
fabrics+=("ibft243|fattree 24 3|-N 8192 -S 1024 -P 65536")
[ -n "$large" ] && fabrics+=("ibft323|fattree 32 3|-N 16384 -S 2048 -P 65536")
read -r -a engines <<<"$engine_list"

# the join storm's fabric and shape (the environment may shrink it for a
# quick look; docs/benchmarks.md's figures use these defaults)
storm_spec="ibft163|fattree 16 3|-N 8192 -S 1024 -P 65536"
STORM_GROUPS=${STORM_GROUPS:-50}
STORM_SIZE=${STORM_SIZE:-20}
STORM_PAR=${STORM_PAR:-4}
STORM_BATCH=${STORM_BATCH:-20}
STORM_LEVELS=${STORM_LEVELS:-10 100 500}

for spec in "${fabrics[@]}" "$storm_spec"; do
	IFS='|' read -r name gen _ <<<"$spec"
	# shellcheck disable=SC2086
	"$IBUNION" gen $gen --shuffle-ports --shuffle-records --seed 19 \
		-o "$work/$name.net" || exit 1
done

# engine_conf ENGINE: the opensm.conf words of an --engines entry,
# "routing_engine[:event_plugin_options]", e.g.
# cyclic,minhop:mcast_apex=lowest-guid (options without spaces).
engine_conf()
{
	case $1 in
	*:*) echo "routing_engine ${1%%:*} event_plugin_options ${1#*:}" ;;
	*) echo "routing_engine $1" ;;
	esac
}

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

# cut_net NETFILE SWITCH PORT: the net file without that cable (both ends'
# port lines), for checking the tables switches hold after the cut.
cut_net()
{
	awk -v sw="$2" -v port="$3" '
	function name_of(line,   n) { n = line; sub(/^[^"]*"/, "", n); sub(/".*/, "", n); return n }
	FNR == NR {
		if ($0 ~ /^(Switch|Hca|Ca)[ \t]/) { cur = name_of($0); next }
		if (cur == sw && $0 ~ "^\\[" port "\\]") {
			peer = name_of($0); pp = $0; sub(/^[^"]*"[^"]*"\[/, "", pp); sub(/\].*/, "", pp)
		}
		next
	}
	/^(Switch|Hca|Ca)[ \t]/ { cur = name_of($0); print; next }
	cur == sw && $0 ~ "^\\[" port "\\]" { next }
	cur == peer && $0 ~ "^\\[" pp "\\]" { next }
	{ print }' "$1" "$1"
}

# cpu_of LOG N: the callback CPU ms of the Nth split line of LOG
cpu_of()
{
	sed -n 's/.*callback split ms: .*; cpu \([0-9.]*\) ms;.*/\1/p' "$1" | sed -n "${2}p"
}

# results: fabric engine rep used route_ms cb_first cb_ms hup_s blocks
# ours_mib rss_mib cpu_first cpu valid
record()
{
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"
}

# fault_conf ENGINE: engine_conf, and for the plugin's engines
# reuse_model=no, so that the fault-free re-sweep measured before the cut
# runs every stage as the degraded one does (a reused model skips two)
fault_conf()
{
	case $1 in
	*cyclic* | *xy*)
		case $1 in
		*:*) engine_conf "$1 reuse_model=no" ;;
		*) engine_conf "$1:reuse_model=no" ;;
		esac ;;
	*) engine_conf "$1" ;;
	esac
}

# run_fault FABRIC ENGINE IBSIM-ARGS REP
run_fault()
{
	local fabric=$1 engine=$2 args=$3 rep=$4 net=$work/$1.net sw port
	local mark t_hup start end up used route cb0 cb hup blocks ours rss log
	local cpu0 cpu valid=- keep

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
	# shellcheck disable=SC2046 # fault_conf prints key-value words
	sim_write_conf $(fault_conf "$engine") lmc 0 log_flags 0x07 \
		force_heavy_sweep TRUE qos "$qos"
	sim_start_opensm
	if ! sim_wait_subnet_up 900 >"$SIM_DIR/wait.out" ||
		! sim_resweep_quiet || ! sim_dump_lfts_whole "$SIM_DIR/before.lfts"; then
		sim_mark_failed
		echo "bench: $fabric $engine: no SUBNET UP, files in $SIM_DIR" >&2
		sim_teardown >/dev/null
		return 1
	fi
	# the fault-free figure: a warm re-sweep with nothing changed (the
	# first sweep pays first touches; reuse_model=no, see fault_conf)
	mark=$(sim_log_mark)
	if ! sim_resweep >/dev/null; then
		sim_mark_failed
		echo "bench: $fabric $engine: no fault-free re-sweep, files in $SIM_DIR" >&2
		sim_teardown >/dev/null
		return 1
	fi
	sim_log_since "$mark" >"$SIM_DIR/warm.log"
	cb0=$(sed -n 's/.*, routed in \([0-9.]*\) ms.*/\1/p' "$SIM_DIR/warm.log" | head -n 1)
	cpu0=$(cpu_of "$SIM_DIR/warm.log" 1)
	mark=$(sim_log_mark)
	sim_ibsim_cmd "Unlink \"$sw\"[$port]" >/dev/null || { sim_teardown >/dev/null; return 1; }
	t_hup=$(now_secs)
	if ! sim_resweep >/dev/null || ! sim_dump_lfts_whole "$SIM_DIR/after.lfts"; then
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
	# the re-sweep's SUBNET UP (the warm one's line may land after the
	# mark, and then before the cut)
	up=$(awk '/building routing with/ { b = 1 } b && /SUBNET UP/ { print; exit }' "$log" |
		secs_of_log_line)
	used=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' "$log" | head -n 1)
	cb=$(sed -n 's/.*, routed in \([0-9.]*\) ms.*/\1/p' "$log" | head -n 1)
	ours=$(sed -n 's/.*own memory \([0-9.]*\) MiB.*/\1/p' "$log" | head -n 1)
	cpu=$(cpu_of "$log" 1)	# the first sweep since the cut builds the model
	if [ "$used" = cyclic ]; then
		# the tables after the cut, on the fabric without the cable:
		# every pair with an up*/down* path reachable, no loop
		cut_net "$net" "$sw" "$port" >"$SIM_DIR/cut.net"
		if "$IBUNION" check -q --updown "$SIM_DIR/cut.net" "$SIM_DIR/after.lfts" \
			>"$SIM_DIR/check.out" 2>&1; then valid=yes; else valid=no; fi
		if [ "$valid" = no ]; then	# what the check found, kept
			keep=${results%.tsv}.invalid-$fabric-$rep
			mkdir -p "$keep" && cp "$SIM_DIR/check.out" "$SIM_DIR/cut.net" \
				"$SIM_DIR/after.lfts" "$SIM_DIR/osm.log" "$keep/" 2>/dev/null
			echo "bench: $fabric $engine rep $rep: check --updown failed" \
				"(files in $keep): $(grep -m1 -E '^-[EW]- ' "$SIM_DIR/check.out")" >&2
		fi
	fi
	route=$(awk -v a="$start" -v b="$end" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.2f", d * 1000 }')
	hup=$(awk -v a="$t_hup" -v b="$up" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.3f", d }')
	blocks=$(lft_blocks "$SIM_DIR/before.lfts" "$SIM_DIR/after.lfts")
	grep -h "cyclic: .*split" "$SIM_DIR/osm.log" | sed 's/.*-> /    /'
	sim_teardown >/dev/null
	record "$fabric" "$engine" "$rep" "${used:-?}" "$route" "${cb0:--}" "${cb:--}" \
		"$hup" "$blocks" "${ours:--}" "${rss:--}" "${cpu0:--}" "${cpu:--}" "$valid"
	printf '  %-8s %-14s rep %s: cut %s[%s]: %-7s route %9s ms  cb %7s ms (first %7s)  cpu %7s ms (first %7s)  valid %s  hup %7s s  blocks %6s  ours %5s MiB  RSS %7s MiB\n' \
		"$fabric" "$engine" "$rep" "$sw" "$port" "${used:-?}" "$route" "${cb:--}" \
		"${cb0:--}" "${cpu:--}" "${cpu0:--}" "$valid" "$hup" "$blocks" "${ours:--}" "${rss:--}"
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

# ------------------------------------------------------------ join storm

# storm_plan NETFILE: "host mgid" lines, STORM_GROUPS groups (MGID 1..) of
# STORM_SIZE hosts each, every group's hosts a seeded shuffle of its own.
storm_plan()
{
	local g

	for ((g = 1; g <= STORM_GROUPS; g++)); do
		mc_hcas "$1" | mc_pick $((19000 + g)) "$STORM_SIZE" | sed "s/\$/ $g/"
	done
}

# by_host PLAN: one line per host, "host --mgid A --mgid B ...", hosts in
# their order of first appearance.
by_host()
{
	awk '!($1 in m) { order[++n] = $1 } { m[$1] = m[$1] " --mgid " $2 }
	     END { for (i = 1; i <= n; i++) print order[i] m[order[i]] }' "$1"
}

# storm_phase ACTION OUT LOG EVENT COUNT_RE: the storm plan's ACTION
# (join, leave) for every host (run_clients into OUT) until OpenSM falls
# quiet; its log into LOG.  Sets ph_count (OUT's lines matching COUNT_RE),
# ph_span (first EVENT to the last MFT block, s), ph_drain (last EVENT to
# the last MFT block, s) and ph_cpu (opensm's CPU over it, s).
storm_phase()
{
	local mark cpu0

	mark=$(sim_log_mark)
	cpu0=$(cpu_secs "$OPENSM_PID")
	run_clients "$SIM_DIR/storm.hosts" "$1" "$2"
	log_quiet 1000
	ph_cpu=$(awk -v a="$cpu0" -v b="$(cpu_secs "$OPENSM_PID")" 'BEGIN { printf "%.2f", b - a }')
	sim_log_since "$mark" >"$3"
	ph_count=$(grep -c "$5" "$2")
	ph_span=$(span "$3" "$4" "$MFT_DONE")
	ph_drain=$(last_to_last "$3" "$4")
}

# run_clients PLAN ACTION OUT: `ibunion mcast ACTION` for every host of
# PLAN (by_host lines), STORM_PAR processes at a time, each acting as its
# host; the member lines go to OUT, errors to OUT.err.
run_clients()
{
	local plan=$1 action=$2 out=$3 i=0 host mgids done_pid
	local -A running=()

	rm -f "$out".[0-9]*
	: >"$out.err"
	while read -r host mgids; do
		i=$((i + 1))
		(
			# its own client directory (sim_client numbers them)
			# shellcheck disable=SC2034 # read by sim_client
			sim__clients=$((1000000 + i))
			# shellcheck disable=SC2086 # one word per option
			SIM_HOST=$host sim_client "$IBUNION" mcast "$action" $mgids \
				>"$out.$i" 2>>"$out.err"
		) &
		running[$!]=1
		# ibsim and opensm are children too: wait for the clients only
		while [ "${#running[@]}" -ge "$STORM_PAR" ]; do
			wait -n -p done_pid "${!running[@]}"
			unset "running[$done_pid]"
		done
	done <"$plan"
	[ "${#running[@]}" -eq 0 ] || wait "${!running[@]}"
	for ((; i > 0; i--)); do
		cat "$out.$i"
		rm -f "$out.$i"
	done >"$out"
}

# log_quiet MS: osm.log did not grow for MS milliseconds (at most 10 min).
log_quiet()
{
	local last=-1 size same=0 i

	for ((i = 0; i < 6000; i++)); do
		size=$(stat -c %s "$SIM_DIR/osm.log" 2>/dev/null) || return 1
		if [ "$size" = "$last" ]; then
			same=$((same + 1))
			[ $((same * 50)) -ge "$1" ] && return 0
		else
			same=0
			last=$size
		fi
		sleep 0.05
	done
	return 1
}

# span LOG FIRST-ERE LAST-ERE: seconds from the first line matching
# FIRST-ERE to the last line matching LAST-ERE, "-" when either is missing.
span()
{
	local a b

	a=$(grep -E -m1 -- "$2" "$1" | secs_of_log_line)
	b=$(grep -E -- "$3" "$1" | tail -n 1 | secs_of_log_line)
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo -
		return
	fi
	awk -v a="$a" -v b="$b" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.6f\n", d }'
}

# last_to_last LOG ERE: seconds from the last line matching ERE to the
# last MFT block acknowledged: how far the SM lags behind the clients.
last_to_last()
{
	local a b

	a=$(grep -E -- "$2" "$1" | tail -n 1 | secs_of_log_line)
	b=$(grep -- "$MFT_DONE" "$1" | tail -n 1 | secs_of_log_line)
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo -
		return
	fi
	awk -v a="$a" -v b="$b" 'BEGIN { d = b - a; if (d < 0) d += 86400; printf "%.6f\n", d }'
}

MFT_DONE="Setting MFT block"
JOINED="joining MC group"
LEFT_G="leaving MC group"
# the end of a tree build, ours (VERBOSE) and OpenSM's default manager's
TREE_DONE="built in [0-9]+ us|Configured MLID 0x"

# median_of: the median of the numbers on stdin, "-" for none.
median_of()
{
	sort -g | awk '{ v[++n] = $1 } END { if (!n) print "-"; else if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# one_by_one PAIRS ACTION TAG: every "host mgid" of PAIRS in turn, one
# process each, waiting for the SM to fall quiet after each; prints
# "tree-ms mft-ms max-mft-ms mfts", medians over the joins (leaves) of:
# from OpenSM logging the join to the end of the group's tree build (ours
# or OpenSM's), to the last MFT block a switch acknowledged for it (the
# largest of these too), and the MFT blocks set per join.
one_by_one()
{
	local pairs=$1 action=$2 tag=$3 host mgid mark lat=$SIM_DIR/$3.lat
	local re=$JOINED log=$SIM_DIR/$3.log

	[ "$action" = leave ] && re=$LEFT_G
	: >"$lat"
	while read -r host mgid; do
		mark=$(sim_log_mark)
		SIM_HOST=$host sim_client "$IBUNION" mcast "$action" --mgid "$mgid" \
			>>"$SIM_DIR/$tag.out" 2>>"$SIM_DIR/$tag.err"
		log_quiet 300 || return 1
		sim_log_since "$mark" >"$log"
		printf '%s %s %s\n' "$(span "$log" "$re" "$TREE_DONE")" \
			"$(span "$log" "$re" "$MFT_DONE")" \
			"$(grep -c "$MFT_DONE" "$log")" >>"$lat"
	done <"$pairs"
	printf '%s %s %s %s\n' \
		"$(awk '$1 != "-" { printf "%.2f\n", $1 * 1000 }' "$lat" | median_of)" \
		"$(awk '$2 != "-" { printf "%.1f\n", $2 * 1000 }' "$lat" | median_of)" \
		"$(awk '$2 != "-" { printf "%.1f\n", $2 * 1000 }' "$lat" | sort -g | tail -n 1)" \
		"$(awk '{ print $3 }' "$lat" | median_of)"
}

# extra_pairs PLAN NETFILE N SEED: N "host mgid" pairs, each a host not yet
# in that group of PLAN, groups taken in turn.
extra_pairs()
{
	mc_hcas "$2" | mc_pick "$4" 100000 |
		awk -v n="$3" 'NR == FNR { in_g[$2 " " $1] = 1; if (!($2 in seen)) { seen[$2] = 1; g[++ng] = $2 }; next }
		{ h[++nh] = $1 }
		END {
			for (j = 0; j < n; j++) {
				grp = g[j % ng + 1]
				for (k = 1; k <= nh; k++) {
					c = h[(j * 37 + k) % nh + 1]
					if (!((grp " " c) in in_g) && !((grp " " c) in used)) break
				}
				used[grp " " c] = 1; print c, grp
			}
		}' "$1" -
}

# mfts_exact TAG NETFILE MEMBERS: the switches' MFTs give every member of
# MEMBERS exactly one copy from every sender (dump_mfts, check --mcast).
mfts_exact()
{
	sim_dump_mfts "$SIM_DIR/$1.mfts" >/dev/null 2>&1 &&
		"$IBUNION" check --mcast "$SIM_DIR/$1.mfts" --members "$3" "$2" \
			>"$SIM_DIR/$1.check" 2>&1
}

# cpu_secs PID: user + system CPU seconds of a process so far.
cpu_secs()
{
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' \
		"/proc/$1/stat" 2>/dev/null || echo 0
}

# results: storm FABRIC ENGINE REP USED JOINS JOIN_S DRAIN_S LEAVES LEAVE_S
#                DRAIN_S TREES TREE_US EXACT LOAD JOIN_CPU LEAVE_CPU
#          perjoin FABRIC ENGINE REP USED GROUPS TREE_MS MFT_MS MAX_MS MFTS LOAD
run_storm()
{
	local fabric=$1 engine=$2 args=$3 rep=$4 net=$work/$1.net
	local plan used joins join_s jdrain leaves leave_s ldrain trees tree
	local exact load lvl have g pairs r jcpu lcpu
	local -a cells

	sim_setup >/dev/null
	# shellcheck disable=SC2086
	if ! sim_start_ibsim "$net" $args >/dev/null; then
		sim_mark_failed
		sim_teardown >/dev/null
		echo "bench: ibsim failed on $fabric" >&2
		return 1
	fi
	# shellcheck disable=SC2046 # engine_conf prints key-value words
	sim_write_conf $(engine_conf "$engine") lmc 0 log_flags 0x07
	# one DEBUG line per MFT block the switches acknowledged: the signal
	# that the last table of a join is programmed
	echo "osm_mcast_fwd_rcv.c 0x08" >"$SIM_DIR/per-module-logging.conf"
	sim_start_opensm
	if ! sim_wait_subnet_up 900 >"$SIM_DIR/wait.out" || ! sim_resweep_quiet; then
		sim_mark_failed
		echo "bench: $fabric $engine: no SUBNET UP, files in $SIM_DIR" >&2
		sim_teardown >/dev/null
		return 1
	fi
	used=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' "$SIM_DIR/osm.log" | head -n 1)
	load=$(cut -d' ' -f1 /proc/loadavg)
	plan=$SIM_DIR/storm.plan
	storm_plan "$net" >"$plan"
	by_host "$plan" >"$SIM_DIR/storm.hosts"

	# the storm: every host's joins in one process, STORM_PAR at a time
	storm_phase join "$SIM_DIR/storm.members" "$SIM_DIR/storm-join.log" \
		"$JOINED" "^0x"
	joins=$ph_count join_s=$ph_span jdrain=$ph_drain jcpu=$ph_cpu
	trees=$(grep -cE "$TREE_DONE" "$SIM_DIR/storm-join.log")
	tree=$(sed -n 's/.*built in \([0-9]*\) us.*/\1/p' "$SIM_DIR/storm-join.log" | median_of)
	exact=no
	mfts_exact storm "$net" "$SIM_DIR/storm.members" && exact=yes

	# time per join at the end of the storm: more members, one by one
	pairs=$SIM_DIR/storm.extra
	extra_pairs "$plan" "$net" "$STORM_BATCH" 23 >"$pairs"
	r=$(one_by_one "$pairs" join storm-extra) || r="- - - -"
	read -r -a cells <<<"$r"
	record_ev perjoin "$fabric" "$engine" "$rep" "${used:-?}" "$STORM_GROUPS" \
		"${cells[@]}" "$load"
	one_by_one "$pairs" leave storm-extra-leave >/dev/null

	# the leaves of the same joins
	storm_phase leave "$SIM_DIR/storm.left" "$SIM_DIR/storm-leave.log" \
		"$LEFT_G" "^left "
	leaves=$ph_count leave_s=$ph_span ldrain=$ph_drain lcpu=$ph_cpu
	record_ev storm "$fabric" "$engine" "$rep" "${used:-?}" "$joins" "$join_s" \
		"$jdrain" "$leaves" "$leave_s" "$ldrain" "$trees" "${tree:--}" \
		"$exact" "$load" "$jcpu" "$lcpu"
	printf '  %-8s %-14s rep %s: %s joins in %s s (drain %s s, opensm CPU %s s), %s leaves in %s s (drain %s s, CPU %s s), %s trees of %s us, exact %s, load %s\n' \
		"$fabric" "$engine" "$rep" "$joins" "$join_s" "$jdrain" "$jcpu" "$leaves" \
		"$leave_s" "$ldrain" "$lcpu" "$trees" "${tree:--}" "$exact" "$load"

	# growth: groups of 2 built up to each level, then 20 joins one by one
	: >"$SIM_DIR/growth.plan"
	have=0
	for lvl in $STORM_LEVELS; do
		for ((g = have + 1; g <= lvl; g++)); do
			mc_hcas "$net" | mc_pick $((29000 + g)) 2 | sed "s/\$/ $((1000 + g))/"
		done >"$SIM_DIR/growth.add"
		cat "$SIM_DIR/growth.add" >>"$SIM_DIR/growth.plan"
		by_host "$SIM_DIR/growth.add" >"$SIM_DIR/growth.hosts"
		run_clients "$SIM_DIR/growth.hosts" join "$SIM_DIR/growth.$lvl.members"
		log_quiet 1000
		have=$lvl
		awk -v lvl="$lvl" '$2 > 1000 + lvl - 20' "$SIM_DIR/growth.plan" >"$SIM_DIR/growth.recent"
		pairs=$SIM_DIR/growth.$lvl.extra
		extra_pairs "$SIM_DIR/growth.recent" "$net" "$STORM_BATCH" "$lvl" >"$pairs"
		load=$(cut -d' ' -f1 /proc/loadavg)
		r=$(one_by_one "$pairs" join "growth-$lvl") || r="- - - -"
		read -r -a cells <<<"$r"
		record_ev perjoin "$fabric" "$engine" "$rep" "${used:-?}" "$lvl" \
			"${cells[@]}" "$load"
		printf '  %-8s %-14s rep %s: %4s groups: per join %s\n' "$fabric" "$engine" "$rep" "$lvl" "$r"
		one_by_one "$pairs" leave "growth-$lvl-leave" >/dev/null
	done
	sim_teardown >/dev/null
}

record_ev()
{
	local IFS=$'\t'

	echo "$*" >>"$results"
}

# awk functions both result tables use: median of a blank-separated list,
# add(key, col, val) collects a cell's values (none for "-", "", "?")
awk_lib='
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

'

# storm_table: the join storm's rows of the results as markdown tables.
storm_table()
{
	awk -F'\t' -v groups="$STORM_GROUPS" -v size="$STORM_SIZE" -v par="$STORM_PAR" -v batch="$STORM_BATCH" "$awk_lib"'
function fmt(v, f) { return v == "-" ? "-" : sprintf(f, v) }
function ratio(a, b) {
	return (a == "-" || b == "-" || b + 0 <= 0) ? "-" : sprintf("%.2f", a / b)
}
function eng(e,   o) {
	o = ""
	if (match(e, /:.*/)) { o = " " substr(e, RSTART + 1); e = substr(e, 1, RSTART - 1) }
	sub(/,.*/, "", e)
	return e o
}
$1 == "storm" {
	key = $2 SUBSEP eng($3)
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	cnt[key]++; used[key] = $5
	add(key, "joins", $6); add(key, "js", $7); add(key, "jd", $8); add(key, "leaves", $9)
	add(key, "ls", $10); add(key, "ld", $11); add(key, "trees", $12); add(key, "tus", $13)
	add(key, "load", $15); exact[key] += $14 == "yes"; add(key, "jcpu", $16); add(key, "lcpu", $17)
}
$1 == "perjoin" {
	key = $2 SUBSEP eng($3) SUBSEP $6
	if (!(key in pseen)) {
		pseen[key] = 1; np++
		for (i = np; i > 1 && porder_g[i - 1] + 0 > $6 + 0; i--) { porder[i] = porder[i - 1]; porder_g[i] = porder_g[i - 1] }
		porder[i] = key; porder_g[i] = $6
	}
	pcnt[key]++; pused[key] = $5
	add(key, "tree", $7); add(key, "mft", $8); add(key, "max", $9); add(key, "mfts", $10); add(key, "load", $11)
}
END {
	if (nk) {
		printf "Join storm (%d groups x %d hosts = %d SA joins, hosts a seeded shuffle per group, every host'"'"'s joins in one process, %d processes at a time; then the leaves of the same; medians; x = ratio to the ftree configuration, whose trees OpenSM'"'"'s default multicast manager builds):\n\n", groups, size, groups * size, par
		print "| fabric | configuration (used) | n | joins | first join to last MFT s | x | last join to last MFT s | opensm CPU s | x | leaves: first to last MFT s | x | last leave to last MFT s | opensm CPU s | trees built | our tree us | MFTs exact | load |"
		print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		for (k = 1; k <= nk; k++) {
			key = order[k]; split(key, p, SUBSEP); rk = p[1] SUBSEP "ftree"
			printf "| %s | %s (%s) | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d/%d | %s |\n",
				p[1], p[2], used[key], cnt[key], median(vals[key, "joins"]),
				fmt(median(vals[key, "js"]), "%.2f"), ratio(median(vals[key, "js"]), median(vals[rk, "js"])),
				fmt(median(vals[key, "jd"]), "%.3f"),
				fmt(median(vals[key, "jcpu"]), "%.2f"), ratio(median(vals[key, "jcpu"]), median(vals[rk, "jcpu"])),
				fmt(median(vals[key, "ls"]), "%.2f"), ratio(median(vals[key, "ls"]), median(vals[rk, "ls"])),
				fmt(median(vals[key, "ld"]), "%.3f"),
				fmt(median(vals[key, "lcpu"]), "%.2f"), median(vals[key, "trees"]),
				median(vals[key, "tus"]), exact[key], cnt[key], median(vals[key, "load"])
		}
		print ""
	}
	if (np) {
		printf "Time per join with G groups already joined (%d joins one at a time, each waiting for the SM to fall quiet: from OpenSM logging the join to the end of the tree build, ours or OpenSM'"'"'s, and to the last MFT block a switch acknowledged; G = %d: the storm'"'"'s groups of %d; else groups of 2 built up; medians):\n\n", batch, groups, size
		print "| fabric | configuration (used) | groups | n | join to tree built ms | x | join to last MFT ms | x | worst ms | MFT blocks per join | load |"
		print "|---|---|---|---|---|---|---|---|---|---|---|"
		for (k = 1; k <= np; k++) {
			key = porder[k]; split(key, p, SUBSEP); rk = p[1] SUBSEP "ftree" SUBSEP p[3]
			printf "| %s | %s (%s) | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n",
				p[1], p[2], pused[key], p[3], pcnt[key],
				fmt(median(vals[key, "tree"]), "%.2f"), ratio(median(vals[key, "tree"]), median(vals[rk, "tree"])),
				fmt(median(vals[key, "mft"]), "%.1f"), ratio(median(vals[key, "mft"]), median(vals[rk, "mft"])),
				fmt(median(vals[key, "max"]), "%.1f"), median(vals[key, "mfts"]), median(vals[key, "load"])
		}
		print ""
	}
}' "$results"
}

echo "bench: $cmdline"
echo "bench: $reps repetition(s); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
failures=0
for ((rep = 1; rep <= reps; rep++)); do
	case " $parts " in *" faults "*)
		for spec in "${fabrics[@]}"; do
			IFS='|' read -r name _ args <<<"$spec"
			for eng in "${engines[@]}"; do
				run_fault "$name" "$eng" "$args" "$rep" || failures=$((failures + 1))
			done
		done ;;
	esac
	case " $parts " in *" storm "*)
		IFS='|' read -r name _ args <<<"$storm_spec"
		for eng in "${engines[@]}"; do
			run_storm "$name" "$eng" "$args" "$rep" || failures=$((failures + 1))
		done ;;
	esac
done

echo
awk -F'\t' -v cmd="$cmdline" "$awk_lib"'
function ratio(a, b) {
	return (a == "-" || b == "-" || b + 0 <= 0) ? "-" : sprintf("%.2f", a / b)
}
function fmt(v, f) { return v == "-" ? "-" : sprintf(f, v) }
$1 == "storm" || $1 == "perjoin" { next }
{
	eng = $2; o = ""
	if (match(eng, /:.*/)) { o = " " substr(eng, RSTART + 1); eng = substr(eng, 1, RSTART - 1) }
	sub(/,.*/, "", eng); eng = eng o
	key = $1 SUBSEP eng
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	cnt[key]++; used[key] = $4
	add(key, "route", $5); add(key, "cb0", $6); add(key, "cb", $7); add(key, "hup", $8)
	add(key, "blocks", $9); add(key, "ours", $10); add(key, "rss", $11)
	add(key, "cpu0", $12); add(key, "cpu", $13)
	if ($14 == "yes" || $14 == "no") { checked[key]++; valid[key] += $14 == "yes" }
}
END {
	if (!nk)
		exit
	print "Fault re-sweep (one leaf cable cut through ibsim, SIGHUP; OpenSM 3.3.23 + ibsim, lmc 0; medians; x = ratio to the ftree configuration):"
	print ""
	print "| fabric | engine (used) | n | routing phase ms | x | callback ms degraded / fault-free | x | callback CPU ms degraded / fault-free | x | tables valid | SIGHUP to SUBNET UP s | LFT blocks sent | our memory MiB | opensm peak RSS MiB | ours/RSS |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, p, SUBSEP)
		rk = p[1] SUBSEP "ftree"
		for (c = 1; c <= 9; c++) {
			col = c == 1 ? "route" : c == 2 ? "cb0" : c == 3 ? "cb" : c == 4 ? "hup" : c == 5 ? "blocks" : c == 6 ? "ours" : c == 7 ? "rss" : c == 8 ? "cpu0" : "cpu"
			m[col] = median(vals[key, col]); r[col] = median(vals[rk, col])
		}
		printf "| %s | %s (%s) | %d | %s | %s | %s / %s | %s | %s / %s | %s | %s | %s | %s | %s | %s | %s |\n",
			p[1], p[2], used[key], cnt[key], fmt(m["route"], "%.1f"), ratio(m["route"], r["route"]),
			fmt(m["cb"], "%.1f"), fmt(m["cb0"], "%.1f"), ratio(m["cb"], m["cb0"]),
			fmt(m["cpu"], "%.1f"), fmt(m["cpu0"], "%.1f"), ratio(m["cpu"], m["cpu0"]),
			checked[key] ? valid[key] "/" checked[key] : "-",
			fmt(m["hup"], "%.2f"), m["blocks"], fmt(m["ours"], "%.1f"), fmt(m["rss"], "%.0f"),
			m["ours"] == "-" ? "-" : sprintf("%.1f%%", 100 * m["ours"] / m["rss"])
	}
	print ""
}' "$results"
storm_table
echo "Command: $cmdline"
echo
echo "raw results: $results$([ "$results" = "$work/results.tsv" ] && echo " (removed on exit; -o FILE keeps them)")"
[ "$failures" -eq 0 ] || { echo "bench: $failures run(s) failed" >&2; exit 1; }
