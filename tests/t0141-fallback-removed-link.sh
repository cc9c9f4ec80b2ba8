#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# IBFT(4,3) with one switch-to-switch link removed is a degraded fat tree
# (routed by cyclic, see t0220); with event_plugin_options max_faults=0
# only exact trees are taken: the cyclic engine declines (ERR 5Axx), OpenSM
# falls back to minhop, the subnet comes up and the tables are sound.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 8

net=$SIM_DIR/ibft43-cut.net
t_expect "ibunion gen fattree 4 3 --remove-links 1" \
	"$IBUNION" gen fattree 4 3 --remove-links 1 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 \
	event_plugin_options max_faults=0
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin was loaded" "routing engine 'cyclic' registered" "$SIM_DIR/osm.log"
t_grep "the cyclic engine declines with an ERR 5Axx line" \
	"ERR 5A[0-9A-F]{2}: cyclic: " "$SIM_DIR/osm.log"
t_grep "OpenSM fell back to minhop" "minhop tables configured on all switches" \
	"$SIM_DIR/osm.log"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/lfts.dump"
t_expect "ibunion check passes on the fallback tables" \
	"$IBUNION" check --engine none "$net" "$SIM_DIR/lfts.dump"
done_testing
