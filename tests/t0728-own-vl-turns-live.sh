#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Turned routes on their own VL, live: IBFT(4,3) with 4 cut cables and a
# switch gone (the random league's seed 31 r69; ports and records
# shuffled), where 60 host pairs have no up*/down* path and turn down-up.
# Under ibsim + opensm with `qos TRUE` (routing_engine cyclic,minhop,
# turns=own-vl by default):
#   - the summary says the turned routes ride SL 1 / VL 1; the switches
#     hold what `ibunion route` computes told the same (--config);
#   - the plugin published the SLs its PathRecords give
#     (ibunion-path-sl.dump, the pairs on SL 1), and SA PathRecords carry
#     them: SL 1 for a listed pair, SL 0 for one not listed;
#   - the SL2VL tables OpenSM programmed (opensm-sl2vl.dump) map SL 0 to
#     VL 0 and SL 1 to VL 1 everywhere (the other SLs keep QoS's VLs); with
#     them the LFTs and the groups' MFTs have no credit loop, every member
#     sending; on one VL the same LFTs have one (what the second VL buys);
#   - `check --live --deadlock` with no option agrees;
#   - with turns=shared every route is on SL 0 and free of credit loops on
#     one VL (the turns avoid every other route).
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require

net=${TMPDIR:-/tmp}/t0728.$$.net
"$IBUNION" gen fattree 4 3 --remove-links 4 --remove-switches 1 \
	--seed 138028 --shuffle-ports --shuffle-records -o "$net" || exit 1
sim_setup
# the missing leaf's hosts stay as uncabled records: not in the fabric
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/^Hca/ || /\n\[/' "$net" >"$SIM_DIR/ibft.net"
rm -f "$net"
net=$SIM_DIR/ibft.net
log=$SIM_DIR/osm.log
conf=$SIM_DIR/qos.conf
echo "qos TRUE" >"$conf"
plan 27

t_expect "ibsim runs the damaged IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 0 qos TRUE log_flags 0x47
sim_start_opensm
t_expect "qos TRUE: SUBNET UP" sim_wait_subnet_up
t_grep "the summary says the turned routes ride SL 1 / VL 1" \
	"cyclic: .*turned routes on SL 1 / VL 1 \([0-9]+ LIDs\)" "$log"
t_grep "OpenSM configured the cyclic tables" \
	"cyclic tables configured on all switches" "$log"
t_no_grep "no ERR 5Axx from the plugin, no fallback" \
	"ERR 5A|minhop tables configured" "$log"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/vl.lfts"
t_expect "ibunion route --config (qos TRUE) computes the tables offline" \
	"$IBUNION" route "$net" --lids-from "$SIM_DIR/vl.lfts" --config "$conf" \
	-o "$SIM_DIR/vl.expected"
t_expect "the switches hold exactly what ibunion route computes" \
	"$IBUNION" diff --fabric "$net" "$SIM_DIR/vl.expected" "$SIM_DIR/vl.lfts"
t_expect "check --config: reachable, minimal, the rule, turns only where needed" \
	"$IBUNION" check "$net" "$SIM_DIR/vl.lfts" --config "$conf"

# the published SLs against the tables: a pair is on SL 1 exactly when
# its walk through the dump goes down and then up
sl1=$SIM_DIR/ibunion-path-sl.dump
t_expect "the plugin published the SLs of its PathRecords" test -s "$sl1"
n1=$(grep -c '^0x' "$sl1")
t_expect "$n1 pairs on SL 1, all of them SL 1" \
	awk '/^0x/ { n++; if ($3 != 1) bad++ } END { exit !(n > 0 && !bad) }' "$sl1"
# pr_sl SLID DLID: the SL of the SA's PathRecord (saquery's "sl....N")
pr_sl()
{
	sim_client saquery -p --src-to-dst "$(($1)):$(($2))" 2>/dev/null |
		sed -n 's/^[[:space:]]*sl\.*\(0x\)\{0,1\}\([0-9a-f]*\)$/\2/p' | head -n 1
}
pair=$(awk '/^0x/ && $1 != $2 { print $1, $2; exit }' "$sl1")
slid=${pair% *} dlid=${pair#* }
t_equal "SA: the PathRecord $slid -> $dlid carries SL 1" "$(pr_sl $slid $dlid)" 1
# a pair from the same source the dump does not list: SL 0
d0=
while read -r _ lo _; do
	[ -n "$lo" ] || continue
	d=$(printf '0x%04x' $((lo)))
	[ "$d" != "$slid" ] && ! grep -q "^$slid $d " "$sl1" && { d0=$d; break; }
done <"$SIM_DIR/guid2lid"
t_equal "SA: the PathRecord $slid -> $d0 (not listed) carries SL 0" \
	"$(pr_sl $slid ${d0:-0})" 0

# groups: multicast rides VL 0 beside the up*/down* routes
hcas=$(mc_hcas "$net" | mc_pick 5 6)
t_expect "group 0x41: six hosts join" mc_join_all 0x41 $hcas
mc_dump_check vl-mc "$net"
t_expect "check --deadlock --sl2vl: unicast + group, every member sending: no credit loop" \
	"$IBUNION" check "$net" "$SIM_DIR/vl.lfts" --config "$conf" --deadlock \
	--sl2vl "$SIM_DIR/opensm-sl2vl.dump" --mcast "$SIM_DIR/vl-mc.mfts" \
	--members "$MC_MEMBERS"
t_grep "... each route on the SL of the plan, the switches' SL2VL" \
	"deadlock: .*SL2VL from .*, SLs of the plan" "$SIM_DIR/cmd-$tap__count.out"
t_expect "the switches' SL2VL: SL 0 -> VL 0, SL 1 -> VL 1 at every port pair" \
	awk '/^[0-9]+ +[0-9]+ +:/ { n++; if ($4 != 0 || $5 != 1) bad++ }
		END { exit !(n > 0 && !bad) }' "$SIM_DIR/opensm-sl2vl.dump"
"$IBUNION" check --engine none "$net" "$SIM_DIR/vl.lfts" --deadlock \
	>"$SIM_DIR/one-vl.txt" 2>&1
t_grep "on one VL (every route SL 0) the same tables hold a credit loop" \
	"deadlock: credit loop through" "$SIM_DIR/one-vl.txt"
osm_client() { OSM_TMP_DIR=$SIM_DIR sim_client "$@"; }
t_expect "check --live --deadlock, no option: no credit loop" \
	osm_client "$IBUNION" check --live --deadlock
t_grep "... on the switches' SL2VL and the SLs the plugin published" \
	"deadlock: .*SL2VL from .*, SLs the plugin published" \
	"$SIM_DIR/cmd-$tap__count.out"

# turns=shared: one VL, the turns checked against every route
sim_stop_opensm >/dev/null
mv "$log" "$SIM_DIR/osm-own-vl.log"
sim_write_conf routing_engine cyclic,minhop lmc 0 qos TRUE log_flags 0x47 \
	event_plugin_options turns=shared
sim_start_opensm
t_expect "turns=shared: SUBNET UP" sim_wait_subnet_up
t_no_grep "turns=shared: no SL 1" "turned routes on SL 1" "$log"
t_expect "turns=shared: dump_lfts" sim_dump_lfts "$SIM_DIR/shared.lfts"
t_expect "turns=shared: check (the rule of turns=shared)" \
	"$IBUNION" check "$net" "$SIM_DIR/shared.lfts" --deadlock
t_grep "turns=shared: no credit loop on one VL" \
	"deadlock: no cycle" "$SIM_DIR/cmd-$tap__count.out"
"$IBUNION" load "$net" "$SIM_DIR/vl.lfts" "$SIM_DIR/shared.lfts" \
	--pattern all-to-all,shift,ebb:2000 >"$SIM_DIR/load.txt" 2>&1
diag_file "$SIM_DIR/load.txt" 20
done_testing
