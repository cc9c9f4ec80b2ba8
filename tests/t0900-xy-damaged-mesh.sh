#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# xy on a damaged mesh: a shuffled 6x6 mesh with 3 cut cables
# and a missing switch, in ibsim with real opensm and `qos TRUE`:
#   - xy recognises it (a WRN 5A50 line per fault, WRN 5A51 with the
#     count), routes it itself (no fallback) and the switches hold what
#     `ibunion route` computes;
#   - two groups joined through SA are exact for every member as sender;
#   - the LFTs, the MFTs and the SL2VL tables OpenSM programmed
#     (opensm-sl2vl.dump) have no cycle in the channel dependency graph on
#     any VL, every member sending (check --deadlock --sl2vl);
#   - check --xy lists the detours and the fault each one avoids;
#   - with `qos FALSE` xy declines (the layers need SL2VL) and says why;
#   - live: one more cable cut through ibsim's console, re-sweep: xy
#     routes the new damage, tables read back against ibnetdiscover's
#     view are free of credit loops; the cable back: the same;
#     `check --live --deadlock` with no option agrees (the SLs from the
#     plugin's ibunion-path-sl.dump, the switches' SL2VL).
# minhop, dor and updn (root_guid_file) on the same fabric: what
# check --deadlock says is reported as diagnostics.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/xy.sh"
sim_require
sim_setup
plan 71

net=$SIM_DIR/mesh.net
log=$SIM_DIR/osm.log
t_expect "ibunion gen mesh 6 6, 3 cut cables, 1 missing switch" \
	"$IBUNION" gen mesh 6 6 --hcas 1 --shuffle-ports --shuffle-records \
	--seed 20 --remove-links 3 --remove-switches 1 -o "$net.gen"
# the missing switch's HCA stays as an uncabled record: not part of the
# fabric, so not a group member either
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/^Hca/ || /\n\[/' "$net.gen" >"$net"
t_expect "ibsim runs it, console open" sim_start_ibsim_console "$net"

# max_faults: room for the live switch cut below (its links count)
sim_write_conf routing_engine xy,minhop lmc 0 qos TRUE log_flags 0x47 \
	event_plugin_options max_faults=20
sim_start_opensm
t_expect "qos TRUE: SUBNET UP" sim_wait_subnet_up
t_grep "xy lists each fault (WRN 5A50)" "WRN 5A50: xy: fault 1 of" "$log"
t_grep "xy counts the faults (WRN 5A51)" "WRN 5A51: xy: [0-9]+ faults" "$log"
t_grep "xy describes the damage and its SL layers" \
	"damaged: [0-9]+ faults .* SL layers" "$log"
t_grep "OpenSM configured the xy tables" "xy tables configured on all switches" "$log"
t_no_grep "no ERR 5Axx from the plugin, no fallback" \
	"ERR 5A|minhop tables configured" "$log"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/dmg.lfts"
t_expect "ibunion route computes the tables offline" \
	"$IBUNION" route "$net" --lids-from "$SIM_DIR/dmg.lfts" -o "$SIM_DIR/dmg.expected"
t_expect "the switches hold exactly what ibunion route computes" \
	"$IBUNION" diff --fabric "$net" "$SIM_DIR/dmg.expected" "$SIM_DIR/dmg.lfts"
t_expect "check --xy: every LID reachable, minimal, XY where the XY path survives, else the plan's detour" \
	"$IBUNION" check "$net" "$SIM_DIR/dmg.lfts" --xy
t_grep "check --xy says which pairs take a detour and which fault is why" \
	"xy: detour: the XY path N\([0-9],[0-9]\) -> N\([0-9],[0-9]\) meets missing (switch|cable)" \
	"$SIM_DIR/cmd-$tap__count.out"
t_xy_groups "$net" dmg 5
t_expect "check --deadlock --sl2vl: unicast + groups, every member sending: no credit loop on any VL" \
	"$IBUNION" check "$net" "$SIM_DIR/dmg.lfts" --deadlock --vl-plan 1 \
	--sl2vl "$SIM_DIR/opensm-sl2vl.dump" \
	--mcast "$SIM_DIR/dmg-mc.mfts" --members "$MC_MEMBERS"
diag "xy: $(grep -Eo '; [0-9]+ VLs?' "$SIM_DIR/cmd-$tap__count.out" | head -1)"
diag "xy: $(grep -Eo 'damaged: .*SL layers' "$log" | tail -1)"
"$IBUNION" check "$net" "$SIM_DIR/dmg.lfts" >"$SIM_DIR/xy.check" 2>&1
diag "xy: $(grep -E '^-I- check:' "$SIM_DIR/xy.check")"

# live: one more cable through the console
sw=$(awk '/^Switch/ { gsub(/"/, "", $3); s = $3 } /^\[[0-9]+\]\t"sw-/ && s { p = $1; gsub(/[][]/, "", p); print s, p; exit }' "$net")
cut_sw=${sw% *} cut_port=${sw#* }
diag "live cut: $cut_sw port $cut_port"
live_check()
{
	local tag=$1
	t_expect "$tag: re-sweep, xy routes it" sim_resweep
	t_expect "$tag: dump_lfts" sim_dump_lfts "$SIM_DIR/$tag.lfts"
	t_expect "$tag: ibnetdiscover reads the fabric" sim_client ibnetdiscover "$SIM_DIR/$tag.ibnd"
	t_expect "$tag: route on ibnetdiscover's view --lids-from the dump" \
		"$IBUNION" route "$SIM_DIR/$tag.ibnd" --lids-from "$SIM_DIR/$tag.lfts" \
		-O max_faults=20 -o "$SIM_DIR/$tag.expected"
	t_expect "$tag: the switches hold exactly what route computes" \
		"$IBUNION" diff --fabric "$SIM_DIR/$tag.ibnd" "$SIM_DIR/$tag.expected" \
		"$SIM_DIR/$tag.lfts"
	mc_dump_check "$tag-mc" "$SIM_DIR/$tag.ibnd"
	t_expect "$tag: check --deadlock --sl2vl on ibnetdiscover's view, every member sending: no credit loop on any VL" \
		"$IBUNION" check "$SIM_DIR/$tag.ibnd" "$SIM_DIR/$tag.lfts" --deadlock \
		--vl-plan 1 --sl2vl "$SIM_DIR/opensm-sl2vl.dump" \
		--mcast "$SIM_DIR/$tag-mc.mfts" --members "$MC_MEMBERS"
	# no option: OpenSM's dump dir tells the SLs paths really get
	t_expect "$tag: check --live --deadlock, no option: no credit loop" \
		osm_client "$IBUNION" check --live --deadlock
	t_grep "$tag: ... on the switches' SL2VL and the SLs the plugin published" \
		"deadlock: .*SL2VL from .*, SLs the plugin published" \
		"$SIM_DIR/cmd-$tap__count.out"
}
osm_client() { OSM_TMP_DIR=$SIM_DIR sim_client "$@"; }
t_expect "live cut through ibsim's console" sim_ibsim_cmd "Unlink \"$cut_sw\"[$cut_port]"
live_check cut
t_equal "cut: xy configured the tables again, no fallback" \
	"$(grep -c 'minhop tables configured' "$log")" 0
t_expect "cable back through ibsim's console" sim_ibsim_cmd "ReLink \"$cut_sw\"[$cut_port]"
live_check back

# live: a whole switch through the console.  Picked from the graph: a
# switch with 4 switch neighbours that is not the SM's (the first
# record's) and whose HCAs are in group 0x32 only; they leave it first
# (OpenSM would drop them) and join again once it is back.
victim= victim_hcas=
mlid31=$(mc_mlid 0x31)
while read -r sw hs; do
	for h in $hs; do
		grep -q "^$mlid31 .*# joined $h " "$MC_MEMBERS" && continue 2
	done
	victim=$sw victim_hcas=$hs
	break
done < <(awk '
	/^(Switch|Hca)/ { split($0, q, "\""); cur = q[2]; type[cur] = $1; if (!first) first = cur }
	/^\[/ && cur { split($0, q, "\""); peer[cur] = peer[cur] " " q[2]; if (cur == first) smsw = q[2] }
	END {
		for (s in type) {
			if (type[s] != "Switch" || s == smsw) continue
			n = split(peer[s], p, " "); k = 0; h = ""
			for (i = 1; i <= n; i++)
				if (type[p[i]] == "Switch") k++; else h = h " " p[i]
			if (k == 4) print s h
		}
	}' "$net")
diag "live switch cut: '$victim' (HCAs:$victim_hcas)"
t_expect "switch cut: its HCAs leave group 0x32 first" \
	eval '[ -n "$victim" ] && mc_leave_all 0x32 $victim_hcas'
t_expect "switch cut through ibsim's console" sim_ibsim_cmd "Unlink \"$victim\""
live_check swcut
t_grep "swcut: xy counts the missing switch among its faults" \
	"damaged: [0-9]+ faults \([2-9] missing switches" "$log"
t_expect "switch back through ibsim's console" sim_ibsim_cmd "ReLink \"$victim\""
t_expect "swback: re-sweep" sim_resweep
t_expect "swback: its HCAs join group 0x32 again" mc_join_all 0x32 $victim_hcas
live_check swback2

# qos FALSE: declined with the reason, minhop takes over
sim_stop_opensm
mv "$log" "$SIM_DIR/osm-qos.log"
sim_write_conf routing_engine xy,minhop lmc 0 qos FALSE log_flags 0x07
sim_start_opensm
t_expect "qos FALSE: SUBNET UP" sim_wait_subnet_up
t_grep "qos FALSE: xy declines, saying the layers need qos TRUE (ERR 5A01)" \
	"ERR 5A01: xy: .*qos TRUE" "$log"
t_expect "qos FALSE: minhop tables" sim_dump_lfts "$SIM_DIR/minhop.lfts"
"$IBUNION" check "$net" "$SIM_DIR/minhop.lfts" --deadlock >"$SIM_DIR/minhop.deadlock" 2>&1
diag "minhop, same fabric: check --deadlock exit $?: $(grep -E '^-(E|I)- deadlock: (no cycle|credit)' "$SIM_DIR/minhop.deadlock")"
diag "minhop: $(grep -E '^-I- check:' "$SIM_DIR/minhop.deadlock")"
sim_stop_opensm
mv "$log" "$SIM_DIR/osm-minhop.log"
for eng in dor updn; do
	if [ $eng = updn ]; then
		# root: a middle switch (diagnostics only: names are the
		# generator's)
		guid=$(grep -E '^Switch.*"sw-(2\.2|3\.3|2\.3)"' "$SIM_DIR/back.ibnd" |
			grep -Eo 'S-[0-9a-f]+' | head -1)
		echo "0x${guid#S-}" >"$SIM_DIR/root_guids"
		sim_write_conf routing_engine updn lmc 0 log_flags 0x07 \
			root_guid_file "$SIM_DIR/root_guids"
	else
		sim_write_conf routing_engine dor lmc 0 log_flags 0x07
	fi
	sim_start_opensm
	if sim_wait_subnet_up && sim_dump_lfts "$SIM_DIR/$eng.lfts"; then
		"$IBUNION" check "$net" "$SIM_DIR/$eng.lfts" --deadlock >"$SIM_DIR/$eng.deadlock" 2>&1
		diag "$eng, same fabric: check --deadlock exit $?: $(grep -E '^-(E|I)- deadlock: (no cycle|credit)' "$SIM_DIR/$eng.deadlock")"
		diag "$eng: $(grep -E '^-(I|E|W)- check:' "$SIM_DIR/$eng.deadlock")"
	else
		diag "$eng: no tables"
	fi
	sim_stop_opensm
	mv "$log" "$SIM_DIR/osm-$eng.log"
done
done_testing
