#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# xy on another damaged mesh, not square and with 3 HCAs per
# switch: a shuffled 7x5 mesh with 4 cut cables and a missing switch, in
# ibsim with real opensm and `qos TRUE`: xy routes it itself, the switches
# hold what `ibunion route` computes, check --xy passes (minimal, XY where
# the XY path survives), two groups joined through SA are exact, and the
# LFTs + MFTs + the SL2VL tables OpenSM programmed have no credit loop on
# any VL with every member sending. VLs used and detours are reported.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/xy.sh"
sim_require
sim_setup
plan 16

net=$SIM_DIR/mesh.net
log=$SIM_DIR/osm.log
t_expect "ibunion gen mesh 7 5 --hcas 3, 4 cut cables, 1 missing switch" \
	"$IBUNION" gen mesh 7 5 --hcas 3 --shuffle-ports --shuffle-records \
	--seed 41 --remove-links 4 --remove-switches 1 -o "$net.gen"
# the missing switch's HCAs stay as uncabled records: not in the fabric
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/^Hca/ || /\n\[/' "$net.gen" >"$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine xy,minhop lmc 0 qos TRUE log_flags 0x47
sim_start_opensm
t_expect "SUBNET UP" sim_wait_subnet_up
t_grep "xy counts the faults (WRN 5A51)" "WRN 5A51: xy: [0-9]+ faults" "$log"
t_grep "OpenSM configured the xy tables" "xy tables configured on all switches" "$log"
t_no_grep "no ERR 5Axx from the plugin, no fallback" \
	"ERR 5A|minhop tables configured" "$log"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/dmg.lfts"
t_expect "ibunion route computes the tables offline" \
	"$IBUNION" route "$net" --lids-from "$SIM_DIR/dmg.lfts" -o "$SIM_DIR/dmg.expected"
t_expect "the switches hold exactly what ibunion route computes" \
	"$IBUNION" diff --fabric "$net" "$SIM_DIR/dmg.expected" "$SIM_DIR/dmg.lfts"
t_expect "check --xy: every LID reachable, minimal, XY where the XY path survives" \
	"$IBUNION" check "$net" "$SIM_DIR/dmg.lfts" --xy
diag "xy: $(grep -E 'switch pairs have a fault on their XY path' "$SIM_DIR/cmd-$tap__count.out")"
t_xy_groups "$net" dmg 9
t_expect "check --deadlock --sl2vl: unicast + groups, every member sending: no credit loop on any VL" \
	"$IBUNION" check "$net" "$SIM_DIR/dmg.lfts" --deadlock --vl-plan 1 \
	--sl2vl "$SIM_DIR/opensm-sl2vl.dump" \
	--mcast "$SIM_DIR/dmg-mc.mfts" --members "$MC_MEMBERS"
diag "xy: $(grep -Eo '; [0-9]+ VLs?' "$SIM_DIR/cmd-$tap__count.out" | head -1)"
diag "xy: $(grep -Eo 'damaged: .*SL layers' "$log" | tail -1)"
done_testing
