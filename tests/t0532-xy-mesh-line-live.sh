#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The xy engine on a line of 5 switches, 2 HCAs each (`ibunion gen mesh 1
# 5 --hcas 2`, ports and records shuffled): what OpenSM sees of a mesh
# whose faults left its subnet one row.  xy routes it as the 5 x 1 mesh
# instead of falling back (routing_engine xy,minhop): the switches' LFTs
# are the XY routes and equal `ibunion route`, two groups joined through
# SA get exact trees, and unicast plus multicast close no credit loop.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/xy.sh"
sim_require
sim_setup
plan 16

net=$SIM_DIR/line.net
t_expect "ibunion gen mesh 1 5 --hcas 2" "$IBUNION" gen mesh 1 5 --hcas 2 \
	--shuffle-ports --shuffle-records --seed 15 -o "$net"
t_expect "ibsim runs the line" sim_start_ibsim "$net"
sim_write_conf routing_engine xy,minhop lmc 0 log_flags 0x07
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin recognised the 5 x 1 mesh" \
	"xy: 5 x 1 mesh: 5 switches, 10 end ports" "$SIM_DIR/osm.log"
t_xy_holds "$net" line
t_xy_groups "$net" line 15
t_xy_deadlock "$net" line
done_testing
