#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Multicast on IBFT(8,3) (128 end ports, ports shuffled) in ibsim with
# opensm + the plugin (routing_engine cyclic): groups of 10%, 40% and 100%
# of the end ports (two send-only members each in the first two), joined
# then partly left through SA MCMemberRecords sent by `ibunion mcast`; after
# each phase the MFTs read back with dump_mfts pass ibunion check --mcast.
# mcast_apex=balanced (not the default compact): each tree on its own top.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 23

net=$SIM_DIR/ibft83.net
t_expect "ibunion gen fattree 8 3 --shuffle-ports" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --seed 8 -o "$net"
t_expect "ibsim runs IBFT(8,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 0 log_flags 0x07 \
	event_plugin_options mcast_apex=balanced
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up

mapfile -t hcas < <(mc_hcas "$net")
n=${#hcas[@]}
t_equal "128 end ports" "$n" 128
mapfile -t g10 < <(printf '%s\n' "${hcas[@]}" | mc_pick 110 $(((n * 10 + 99) / 100)))
mapfile -t g40 < <(printf '%s\n' "${hcas[@]}" | mc_pick 140 $(((n * 40 + 99) / 100)))

# join: all but the last two as full members, the last two send-only
join_group()
{
	local mgid=$1
	shift
	local -a m=("$@")

	mc_join_all "$mgid" "${m[@]:0:${#m[@]}-2}" &&
		mc_join "$mgid" "${m[-2]}" --send-only &&
		mc_join "$mgid" "${m[-1]}" --send-only
}

t_expect "10%: ${#g10[@]} ports join MGID 0x10 (2 send-only)" join_group 0x10 "${g10[@]}"
t_expect "40%: ${#g40[@]} ports join MGID 0x40 (2 send-only)" join_group 0x40 "${g40[@]}"
t_expect "100%: all 128 ports join MGID 0x100" mc_join_all 0x100 "${hcas[@]}"
mc_dump_check joined "$net"
t_no_grep "no ERR 5Axx from the plugin" "ERR 5A" "$SIM_DIR/osm.log"
m10=$(mc_mlid 0x10) m40=$(mc_mlid 0x40) m100=$(mc_mlid 0x100)
t_grep "10% group: ${#g10[@]} members, $((${#g10[@]} - 2)) receive" \
	"cyclic: MLID $m10: ${#g10[@]} members \($((${#g10[@]} - 2)) receive\)" "$SIM_DIR/osm.log"
t_grep "100% group: a top switch is the apex" \
	"cyclic: MLID $m100: 128 members \(128 receive\), apex SW<[0-9]+,0> \(balanced, level 0, 16 candidates\), 41 switches" \
	"$SIM_DIR/osm.log"
t_expect "three trees, three different top switches" \
	eval "test \"\$('$IBUNION' mcast load '$net' '$SIM_DIR/joined.mfts' | sed -n 's/.*top-switches-used=\([0-9]*\)\/.*/\1/p')\" = 3"

t_expect "10%: the send-only members and two more leave" \
	eval 'mc_leave 0x10 "${g10[-1]}" --send-only && mc_leave 0x10 "${g10[-2]}" --send-only && mc_leave_all 0x10 "${g10[@]:0:2}"'
t_expect "40%: half leave" mc_leave_all 0x40 "${g40[@]:0:26}"
t_expect "100%: every port of pods 0-5 leaves (pods 6, 7 remain)" \
	eval 'mc_leave_all 0x100 $(printf "%s\n" "${hcas[@]}" | grep "^hca-[0-5]\.")'
mc_dump_check left "$net"
t_grep "100% group shrunk to 32 members" "cyclic: MLID $m100: 32 members \(32 receive\)" \
	"$SIM_DIR/osm.log"
# (OpenSM deletes a group when its last full member leaves: send-only first)
t_expect "every member of the 40% group leaves: its MLID is cleared" \
	eval "mc_leave 0x40 \"\${g40[-2]}\" --send-only && mc_leave 0x40 \"\${g40[-1]}\" --send-only && mc_leave_all 0x40 \"\${g40[@]:26:24}\" && sleep 1 && sim_dump_mfts '$SIM_DIR/empty40.mfts' && grep -qi '^$m40 ' '$SIM_DIR/joined.mfts' && ! grep -qi '^$m40 ' '$SIM_DIR/empty40.mfts'"
mc_dump_check final "$net"
t_no_grep "still no ERR 5Axx from the plugin" "ERR 5A" "$SIM_DIR/osm.log"
done_testing
