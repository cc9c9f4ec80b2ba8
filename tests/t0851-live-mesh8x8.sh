#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# `ibunion check --live` on an 8x8 mesh (ports and records shuffled) routed
# by xy with [Zhou10]'s 2-direction VL plan (qos TRUE) and one joined
# multicast group: unicast + multicast + deadlock per VL, with the SL2VL
# tables read from the switches, in one command, give the same verdict and
# figures as the dump-file pipeline (ibnetdiscover + dump_lfts + dump_mfts +
# OpenSM's opensm-sl2vl.dump); the SL2VL tables read live equal OpenSM's
# dump; `trace --live` agrees with ibtracert.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 10

net=$SIM_DIR/mesh.net
t_expect "ibunion gen mesh 8 8 --shuffle-ports --shuffle-records" \
	"$IBUNION" gen mesh 8 8 --shuffle-ports --shuffle-records --seed 851 -o "$net.full"
# one host powered off (127 LIDs): with 128, LinearFDBTop is 0x80 and
# dump_lfts (infiniband-diags 39+) stops one LID short of a top that is a
# multiple of 64, so the files would lack what the switches hold
awk -v RS= -v ORS='\n\n' '!/^Hca[ \t]+[0-9]+[ \t]+"hca-7\.7\.0"/' "$net.full" |
	grep -v '"hca-7\.7\.0"' >"$net"
t_expect "ibsim runs the mesh" sim_start_ibsim "$net"
sim_write_conf routing_engine xy,minhop lmc 0 qos TRUE log_flags 0x47 \
	event_plugin_options "vl_plan=2-direction"
sim_start_opensm
t_expect "opensm with xy and the 2-direction plan: SUBNET UP" sim_wait_subnet_up

mapfile -t hcas < <(mc_hcas "$net")
mapfile -t g < <(printf '%s\n' "${hcas[@]}" | mc_pick 851 8)
t_expect "8 ports join MGID 0x61" mc_join_all 0x61 "${g[@]}"
for ((i = 0; i < 40; i++)); do
	mc__settled "$SIM_DIR/settle.mfts" "$net" && break
	sleep 0.25
done

# OpenSM may sweep twice before the mesh is settled: read until the
# tables pass (at most 10 s), then compare
for ((i = 0; i < 20; i++)); do
	sim_client ibnetdiscover "$SIM_DIR/fabric.ibnd" >/dev/null 2>&1 &&
		sim_dump_lfts "$SIM_DIR/lfts" && sim_dump_mfts "$SIM_DIR/mfts" &&
		"$IBUNION" check -q "$SIM_DIR/fabric.ibnd" "$SIM_DIR/lfts" >/dev/null 2>&1 &&
		break
	sleep 0.5
done
t_equal "ibnetdiscover + dump_lfts + dump_mfts read the fabric" "$i" "$((i < 20 ? i : -1))"

norm() { sed -E 's#[^ ]*/[^ :,]*#FILE#g' "$1"; }
"$IBUNION" check --xy --deadlock --vl-plan 2-direction \
	--mcast "$SIM_DIR/mfts" --members "$MC_MEMBERS" \
	--sl2vl "$SIM_DIR/opensm-sl2vl.dump" "$SIM_DIR/fabric.ibnd" "$SIM_DIR/lfts" \
	>"$SIM_DIR/files.out" 2>&1
files_verdict=$?
sim_client "$IBUNION" check --live --live-save "$SIM_DIR/snap" --xy --deadlock \
	--vl-plan 2-direction >"$SIM_DIR/live.out" 2>"$SIM_DIR/live.err"
live_verdict=$?
diag_file "$SIM_DIR/live.err" 3
t_equal "both checks pass (unicast, multicast, deadlock per VL)" \
	"$files_verdict:$live_verdict" "0:0"
t_equal "check --live prints the same figures as the files' check" \
	"$(diff <(norm "$SIM_DIR/files.out") <(norm "$SIM_DIR/live.out") | head -n 20)" ""
norm "$SIM_DIR/live.out" >"$SIM_DIR/live.norm"
t_grep "the deadlock check ran per VL on the SL2VL tables read live" \
	"^-I- deadlock: .*; 2 VLs, plan 2-direction, SL2VL from FILE" "$SIM_DIR/live.norm"

# the rows OpenSM programmed, as read live (OpenSM skips uncabled ports)
rows() { awk '/^Switch 0x/ { g = $2; next } /^(Channel|Router)/ { g = ""; next }
	g != "" && /^[0-9]+ +[0-9]+ +:/ { $1 = g " " $1; print }' "$1" | tr -s ' ' | sort; }
rows "$SIM_DIR/opensm-sl2vl.dump" >"$SIM_DIR/sl2vl.osm"
rows "$SIM_DIR/snap/sl2vl.dump" >"$SIM_DIR/sl2vl.live"
# (OpenSM's dump also lists rows from uncabled ports it never programs)
t_equal "every SL2VL row read live is the one OpenSM dumped" \
	"$(comm -13 "$SIM_DIR/sl2vl.osm" "$SIM_DIR/sl2vl.live" | wc -l):$(wc -l <"$SIM_DIR/sl2vl.live")" \
	"0:$(comm -12 "$SIM_DIR/sl2vl.osm" "$SIM_DIR/sl2vl.live" | wc -l)"

# ibtracert's lines (From, every hop with GUID, ports, LIDs and name, To)
hops() { grep -E '^(From|To) |^\[[0-9]+\] -> '; }
same=0
for pair in "${g[0]} ${g[1]}" "${g[2]} ${g[3]}" "${g[4]} ${g[5]}" "${g[6]} ${g[7]}" "${g[1]} ${g[6]}"; do
	set -- $pair
	s=$(awk -v n="$1" '$0 ~ "\x27" n "\x27" && /Channel Adapter/ { print $1; exit }' "$SIM_DIR/lfts")
	d=$(awk -v n="$2" '$0 ~ "\x27" n "\x27" && /Channel Adapter/ { print $1; exit }' "$SIM_DIR/lfts")
	a=$(sim_client ibtracert $((s)) $((d)) 2>/dev/null | hops)
	b=$("$IBUNION" trace "$SIM_DIR/snap/fabric.ibnd-cache" "$SIM_DIR/snap/lfts.dump" "$1" "$2" | hops)
	[ -n "$a" ] && [ "$a" = "$b" ] && same=$((same + 1))
done
t_equal "trace (by node name, on the saved snapshot) agrees with ibtracert on 5 pairs" "$same" 5
done_testing
