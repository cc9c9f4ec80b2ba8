#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# IBFT(4,3) with permuted ports and shuffled records, lmc 2.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 10

net=$SIM_DIR/ibft43-shuffled.net
t_expect "ibunion gen fattree 4 3 --shuffle-ports --shuffle-records --seed 3" \
	"$IBUNION" gen fattree 4 3 --shuffle-ports --shuffle-records --seed 3 -o "$net"
t_expect "ibsim runs the shuffled IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin recognised IBFT(4,3), LMC 2" \
	"cyclic: IBFT\(4,3\): 20 switches, 16 end ports, LMC in use 2" \
	"$SIM_DIR/osm.log"
t_cyclic_holds "$net" ibft43-shuffled
done_testing
