#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Multicast on IBFT(4,3) (ports shuffled) in ibsim with opensm + the plugin
# (routing_engine cyclic, lmc 2): groups of 10%, 40% and 100% of the end
# ports, one leaf, one pod, a single member, with send-only members, joined
# and left through SA MCMemberRecords sent by `ibunion mcast` as the
# simulated HCAs. After every phase the switches' MFTs (dump_mfts) give every
# receiving member exactly one copy from every sender (ibunion check --mcast).
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 38

net=$SIM_DIR/ibft43.net
t_expect "ibunion gen fattree 4 3 --shuffle-ports" \
	"$IBUNION" gen fattree 4 3 --shuffle-ports --seed 3 -o "$net"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 log_flags 0x07
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up

mapfile -t hcas < <(mc_hcas "$net")
n=${#hcas[@]}
t_equal "16 end ports" "$n" 16
mapfile -t g10 < <(printf '%s\n' "${hcas[@]}" | mc_pick 10 $(((n * 10 + 99) / 100)))
mapfile -t g40 < <(printf '%s\n' "${hcas[@]}" | mc_pick 40 $(((n * 40 + 99) / 100)))

# ---- phase 1: joins (names come from ibunion gen: hca-<p0>.<p1>.<p2>)
t_expect "10%: ${#g10[@]} ports join MGID 1" mc_join_all 1 "${g10[@]}"
t_expect "40%: ${#g40[@]} ports join MGID 2, the last one send-only" \
	eval 'mc_join_all 2 "${g40[@]:0:${#g40[@]}-1}" && mc_join 2 "${g40[-1]}" --send-only'
t_expect "100%: all ports join MGID 3" mc_join_all 3 "${hcas[@]}"
t_expect "one leaf: both ports of a leaf join MGID 4" mc_join_all 4 hca-1.0.0 hca-1.0.1
t_expect "one pod: three ports of pod 3 join MGID 5, one send-only" \
	eval 'mc_join_all 5 hca-3.0.0 hca-3.1.1 && mc_join 5 hca-3.0.1 --send-only'
t_expect "a single member joins MGID 6" mc_join 6 hca-0.1.0
mc_dump_check joined "$net"
t_no_grep "no ERR 5Axx from the plugin" "ERR 5A" "$SIM_DIR/osm.log"
for g in 1 2 3 4 5 6; do mlid[g]=$(mc_mlid $g); done
t_grep "the plugin built the 100% group's tree from a top switch" \
	"cyclic: MLID ${mlid[3]}: 16 members \(16 receive\), apex SW<[0-9]+,0>" "$SIM_DIR/osm.log"
t_grep "one leaf: the apex is the leaf (level 2)" \
	"cyclic: MLID ${mlid[4]}: 2 members \(2 receive\), apex SW<[0-9]+,2> \([a-z-]+, level 2" "$SIM_DIR/osm.log"
t_grep "one pod: apex at level 1, send-only member counted" \
	"cyclic: MLID ${mlid[5]}: 3 members \(2 receive\), apex SW<[0-9]+,1> \([a-z-]+, level 1" "$SIM_DIR/osm.log"
t_grep "the send-only member of the 40% group is seen as such" \
	"cyclic: MLID ${mlid[2]}: ${#g40[@]} members \($((${#g40[@]} - 1)) receive\)" "$SIM_DIR/osm.log"
t_expect "the 100% tree reaches every end port once (members inferred from the MFT)" \
	"$IBUNION" check --mcast "$SIM_DIR/joined.mfts" "$net"

# ---- phase 2: leaves
t_expect "MGID 1: one of two leaves" mc_leave 1 "${g10[0]}"
t_expect "MGID 2: the send-only member and two more leave" \
	eval 'mc_leave 2 "${g40[-1]}" --send-only && mc_leave_all 2 "${g40[@]:0:2}"'
t_expect "MGID 3: half of the fabric leaves" mc_leave_all 3 "${hcas[@]:0:8}"
t_expect "MGID 6: its only member leaves" mc_leave 6 hca-0.1.0
mc_dump_check left "$net"
t_expect "the deleted group's MLID ${mlid[6]} is cleared on every switch" \
	eval "grep -qi '^${mlid[6]} ' '$SIM_DIR/joined.mfts' && ! grep -qi '^${mlid[6]} ' '$SIM_DIR/left.mfts'"
t_expect "the old member list fails on the new tables (the check can fail)" \
	eval "! '$IBUNION' check --mcast '$SIM_DIR/left.mfts' --members <(grep -v '^#' '$SIM_DIR/members'; echo '${mlid[3]} ${hcas[0]}') '$net' >/dev/null"

# ---- phase 3: a group changes shape (one pod -> whole fabric) and back
t_expect "MGID 5 grows to pods 0 and 2" mc_join_all 5 hca-0.0.0 hca-2.1.1
mc_dump_check grown "$net"
t_expect "MGID 5 shrinks back into pod 3" mc_leave_all 5 hca-0.0.0 hca-2.1.1
mc_dump_check shrunk "$net"
t_expect "only the pod's 3 switches (apex + 2 leaves) hold MGID 5 again" \
	eval "'$IBUNION' mcast load '$net' '$SIM_DIR/shrunk.mfts' | grep -q '^-I- MLID ${mlid[5]}: 3 switches, top at level 1: SW<[0-9]*,1>\$'"

# ---- phase 4: a heavy sweep (SIGHUP) reroutes unicast: the plugin resets
# its load and OpenSM rebuilds every MLID
rerouted() { [ "$(grep -c 'cyclic: IBFT(4,3)' "$SIM_DIR/osm.log")" -ge 2 ]; }
kill -HUP "$OPENSM_PID"
t_expect "SIGHUP: opensm routes again" sim_wait_for "a second routing" 30 "$OPENSM_PID" rerouted
rebuilt()
{
	awk -v m="cyclic: MLID ${mlid[3]}: " '/cyclic: IBFT\(4,3\)/ { n++ }
		n >= 2 && index($0, m) { f = 1 } END { exit !f }' "$SIM_DIR/osm.log"
}
t_expect "... and the plugin rebuilds the trees after it" \
	sim_wait_for "trees after the second routing" 30 "$OPENSM_PID" rebuilt
mc_dump_check resweep "$net"
t_no_grep "still no ERR 5Axx from the plugin" "ERR 5A" "$SIM_DIR/osm.log"
done_testing
