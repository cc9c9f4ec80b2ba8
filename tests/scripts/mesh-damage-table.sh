#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Damaged meshes: xy against OpenSM's minhop, dor and updn (with
# a root_guid_file) on the same fabrics, in ibsim with real opensm, tables
# read back from the switches.  Not part of make check.
#
#	tests/scripts/mesh-damage-table.sh [-o TABLE.txt] [CASE...]
#
# CASE is "XxY:HCAS:CUTS:SWITCHES:SEED" (default: a set of 6x6, 8x8, 5x7
# and 7x4 meshes with 1 to 4 cut cables or a missing switch, shuffled
# ports and records).  For each case and engine:
#   VLs/SLs   xy: the SL layers its summary logs and the VLs
#             `ibunion check --deadlock --sl2vl` counts on opensm's SL2VL
#             dump (qos TRUE); the others route on SL 0, one VL
#   minimal   the share of (source, LID) routes as short as the surviving
#             graph allows (`ibunion check --engine none`)
#   unrouted  (source, LID) pairs without a route
#   loop      `ibunion check --deadlock`: a cycle in the channel dependency
#             graph of the tables read back (yes = the fabric can deadlock)
# updn's root is the switch that minimises the largest hop count to the
# others (the graph's centre), found from the net file's links.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
out=
cases=()
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=${2-}; shift 2 || { echo "mesh-damage-table: -o needs a file" >&2; exit 2; } ;;
	-*) echo "mesh-damage-table: unknown option '$1'" >&2; exit 2 ;;
	*) cases+=("$1"); shift ;;
	esac
done
[ ${#cases[@]} -gt 0 ] || cases=(6x6:1:1:0:3 6x6:1:2:0:5 6x6:1:3:0:7 6x6:1:4:0:4
	6x6:1:0:1:2 8x8:1:4:0:11 5x7:2:3:0:13 7x4:3:2:1:17)

BUILD_DIR=$build bash "$top/tests/scripts/build.sh" || exit 1
# shellcheck disable=SC2034 # read by tests/sim.sh
top_srcdir=$top
# shellcheck disable=SC2034
top_builddir=$build
# shellcheck source=../sim.sh
. "$top/tests/sim.sh"
sim_script_mode
work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-meshtab.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# centre NETFILE: the switch name with the smallest eccentricity
centre()
{
	awk '
	/^(Switch|Hca|Ca)/ { split($0, q, "\""); cur = q[2]; sw[cur] = ($1 == "Switch") }
	/^\[/ && cur { split($0, q, "\""); adj[cur] = adj[cur] " " q[2] }
	END {
		best = -1
		for (s in sw) {
			if (!sw[s]) continue
			delete dist; dist[s] = 0; head = 0; tail = 0; queue[tail++] = s; ecc = 0
			while (head < tail) {
				u = queue[head++]; n = split(adj[u], p, " ")
				for (i = 1; i <= n; i++) {
					v = p[i]
					if (!sw[v] || (v in dist)) continue
					dist[v] = dist[u] + 1; if (dist[v] > ecc) ecc = dist[v]
					queue[tail++] = v
				}
			}
			if (best < 0 || ecc < best || (ecc == best && s < bestname)) { best = ecc; bestname = s }
		}
		print bestname
	}' "$1"
}

# one_engine NET ENGINE -> "vls sls minimal% unrouted loop"
one_engine()
{
	local net=$1 eng=$2 conf=() lfts sum nonmin unr tot pct loop vls sls guid
	case $eng in
	xy) conf=(routing_engine xy lmc 0 qos TRUE event_plugin_options max_faults=40) ;;
	updn)
		guid=$(grep -E "^Switch.*\"$(centre "$net")\"" "$SIM_DIR/view.ibnd" |
			grep -Eo 'S-[0-9a-f]+' | head -n 1)
		echo "0x${guid#S-}" >"$SIM_DIR/root_guids"
		conf=(routing_engine updn lmc 0 root_guid_file "$SIM_DIR/root_guids") ;;
	*) conf=(routing_engine "$eng" lmc 0) ;;
	esac
	# 0x40: OpenSM writes its dumps (opensm-sl2vl.dump) after routing
	sim_write_conf "${conf[@]}" log_flags 0x47
	sim_start_opensm
	if ! sim_wait_subnet_up 120 >/dev/null || ! sim_dump_lfts "$SIM_DIR/$eng.lfts" >/dev/null; then
		sim_stop_opensm >/dev/null
		echo "- - - - no-tables"
		return
	fi
	lfts=$SIM_DIR/$eng.lfts
	sum=$("$IBUNION" check --engine none "$SIM_DIR/view.ibnd" "$lfts" 2>&1 | grep -E '^-(I|E)- check:' | tail -n 1)
	nonmin=$(sed -n 's/.* \([0-9]*\) non-minimal.*/\1/p' <<<"$sum")
	unr=$(sed -n 's/.*: \([0-9]*\) unreachable.*/\1/p' <<<"$sum")
	tot=$(sed -n 's/.*check: \([0-9]*\) sources x \([0-9]*\) LIDs.*/\1 \2/p' <<<"$sum")
	pct=$(awk -v t="$tot" -v n="${nonmin:-0}" -v u="${unr:-0}" 'BEGIN { split(t, a, " "); r = a[1] * a[2] - u; printf "%.1f", (r > 0 ? 100 * (r - n) / r : 0) }')
	if [ "$eng" = xy ]; then
		sls=$(grep -Eo '[0-9]+ SL layers' "$SIM_DIR/osm.log" | tail -n 1)
		"$IBUNION" check "$SIM_DIR/view.ibnd" "$lfts" --deadlock --vl-plan 1 \
			-O max_faults=40 --sl2vl "$SIM_DIR/opensm-sl2vl.dump" >"$SIM_DIR/dl.out" 2>&1
	else
		sls="SL 0"
		"$IBUNION" check --engine none "$SIM_DIR/view.ibnd" "$lfts" --deadlock >"$SIM_DIR/dl.out" 2>&1
	fi
	if grep -q 'no cycle' "$SIM_DIR/dl.out"; then
		loop=no
	elif grep -qE 'credit loop|cycle' "$SIM_DIR/dl.out"; then
		loop=yes
	else
		loop="? (check failed)"
	fi
	vls=$(grep -Eo '[0-9]+ VLs?' "$SIM_DIR/dl.out" | head -n 1)
	[ -n "$vls" ] || sed "s/^/# $eng: /" "$SIM_DIR/dl.out" | tail -n 3 >&2
	sim_stop_opensm >/dev/null
	mv "$SIM_DIR/osm.log" "$SIM_DIR/osm-$eng.log"
	echo "${vls:-1 VL}|${sls:-?}|$pct|${unr:-?}|$loop"
}

{
printf '%-22s %-7s %-6s %-14s %-8s %-9s %s\n' case engine VLs SLs minimal unrouted "credit loop"
for c in "${cases[@]}"; do
	IFS=: read -r dims hcas cuts sws seed <<<"$c"
	net=$work/$c.net
	"$IBUNION" gen mesh "${dims%x*}" "${dims#*x}" --hcas "$hcas" --shuffle-ports \
		--shuffle-records --remove-links "$cuts" --remove-switches "$sws" \
		--seed "$seed" -o "$net" || continue
	sim_setup >/dev/null
	if ! sim_start_ibsim "$net" >/dev/null; then
		echo "$c: ibsim failed" >&2
		sim_teardown >/dev/null
		continue
	fi
	sim_write_conf routing_engine minhop lmc 0 log_flags 0x03
	sim_start_opensm
	sim_wait_subnet_up 120 >/dev/null && sim_client ibnetdiscover "$SIM_DIR/view.ibnd" >/dev/null 2>&1
	sim_stop_opensm >/dev/null
	rm -f "$SIM_DIR/osm.log"
	label="${dims} ${hcas}H ${cuts}c ${sws}s #$seed"
	for eng in xy minhop dor updn; do
		IFS='|' read -r vls sls pct unr loop <<<"$(one_engine "$net" "$eng")"
		printf '%-22s %-7s %-6s %-14s %-8s %-9s %s\n' "$label" "$eng" "$vls" "$sls" "$pct%" "$unr" "$loop"
	done
	sim_teardown >/dev/null
done
} | tee "${out:-/dev/null}"
