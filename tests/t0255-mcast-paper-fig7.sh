#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# [Zhou07] Fig. 7, on the simulated switches: IBFT(4,3) from `ibunion gen`
# (physical port = paper port, node names = labels), opensm + the plugin
# with event_plugin_options mcast_apex=source. P(200), P(201), P(210),
# P(211) join as full members, P(000) as a send-only member (the source).
# The MFTs read back with dump_mfts are the paper's, entry by entry:
# the ports a packet from P(000) leaves by - SW<00,2>={3}, SW<00,1>={3},
# SW<00,0>={3}, SW<20,1>={1,2}, SW<20,2>={1,2}, SW<21,2>={1,2} - plus the
# port it arrives by (the other end of each tree link); nothing elsewhere.
# They also equal what `ibunion mcast tree --policy source` computes
# offline, and pass the flood check.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 18

net=$SIM_DIR/ibft43.net
t_expect "ibunion gen fattree 4 3" "$IBUNION" gen fattree 4 3 -o "$net"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 log_flags 0x07 \
	event_plugin_options mcast_apex=source
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin runs with mcast_apex=source" "mcast_apex=source" "$SIM_DIR/osm.log"
t_expect "P(200), P(201), P(210), P(211) join" \
	mc_join_all 7 hca-2.0.0 hca-2.0.1 hca-2.1.0 hca-2.1.1
t_expect "P(000) joins send-only" mc_join 7 hca-0.0.0 --send-only
mc_dump_check fig7 "$net"
mlid=$(mc_mlid 7)
t_grep "the apex is on P(000)'s cyclic climb" \
	"cyclic: MLID $mlid: 5 members \(4 receive\), apex SW<00,0> \(source, level 0, 4 candidates\), 6 switches in tree" \
	"$SIM_DIR/osm.log"

# "switch name: ports" of every switch holding the MLID, from a dump
tables()
{
	awk -v mlid="$mlid" '
	/^Multicast mlids/ {
		name = $0; sub(/.*\(/, "", name); sub(/\):$/, "", name)
		col = 0
	}
	/Ports:/ { col = index($0, "Ports:") + 7 }
	tolower($1) == mlid {
		ports = ""
		for (i = col; i <= length($0); i += 2)
			if (substr($0, i, 1) == "x")
				ports = ports " " (i - col) / 2
		print name ":" ports
	}' "$1" | sort
}

want=$(printf '%s\n' "sw0-0.0: 1 3" "sw1-0.0: 1 3" "sw1-2.0: 1 2 3" \
	"sw2-0.0: 3" "sw2-2.0: 1 2 3" "sw2-2.1: 1 2 3" | sort)
got=$(tables "$SIM_DIR/fig7.mfts")
t_equal "the switches hold the paper's Fig. 7 tables (and nothing else)" "$got" "$want"
t_equal "SW<00,2> holds only its up port 3: the send-only source's own port is not in the tree" \
	"$(grep '^sw2-0.0:' <<<"$got")" "sw2-0.0: 3"

t_expect "ibunion mcast tree --policy source computes the tables offline" \
	"$IBUNION" mcast tree --policy source -o "$SIM_DIR/fig7.expected" "$net" "$SIM_DIR/members"
t_equal "the switches hold exactly what the lib computes offline" \
	"$(tables "$SIM_DIR/fig7.expected")" "$got"

# the source leaves: the tree is rebuilt from a balanced apex, P(000)'s
# climb leaves the tables
t_expect "P(000) leaves" mc_leave 7 hca-0.0.0 --send-only
mc_dump_check fig7-left "$net"
t_expect "P(000)'s leaf no longer holds the group" \
	eval "! tables '$SIM_DIR/fig7-left.mfts' | grep -q '^sw2-0.0:'"
t_no_grep "no ERR 5Axx from the plugin" "ERR 5A" "$SIM_DIR/osm.log"
done_testing
