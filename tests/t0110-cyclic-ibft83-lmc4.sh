#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# IBFT(8,3) (80 switches, 128 end ports) at lmc 4, the LMC the paper needs:
# cyclic tables in the switches, checked and equal to the offline route.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 10

net=$SIM_DIR/ibft83.net
t_expect "ibunion gen fattree 8 3" "$IBUNION" gen fattree 8 3 -o "$net"
t_expect "ibsim runs IBFT(8,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 4
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin recognised IBFT(8,3), LMC 4" \
	"cyclic: IBFT\(8,3\): 80 switches, 128 end ports, LMC in use 4 \(paper needs 4\)" \
	"$SIM_DIR/osm.log"
t_cyclic_holds "$net" ibft83
done_testing
