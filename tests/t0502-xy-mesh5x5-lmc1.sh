#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The xy engine on a 5x5 mesh of switches with 1 HCA(s) per switch
# (`ibunion gen mesh 5 5 --hcas 1 --shuffle-records --seed 55`), lmc 1, in ibsim with
# opensm + the plugin (routing_engine xy,minhop): the switches' LFTs are
# the XY routes and equal what the lib computes offline; two groups joined
# through SA get exact trees (every member as sender); unicast and
# multicast together have no credit loop on one VL.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/xy.sh"
sim_require
sim_setup
plan 16

net=$SIM_DIR/mesh.net
t_expect "ibunion gen mesh 5 5 --hcas 1" "$IBUNION" gen mesh 5 5 --hcas 1 \
	--shuffle-records --seed 55 -o "$net"
t_expect "ibsim runs the mesh" sim_start_ibsim "$net"
sim_write_conf routing_engine xy,minhop lmc 1 log_flags 0x07
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin recognised the 5x5 mesh" \
	"xy: .*5 ?x ?5|xy: .*5 ?x ?5" "$SIM_DIR/osm.log"
t_xy_holds "$net" mesh
t_xy_groups "$net" mesh 55
t_xy_deadlock "$net" mesh
done_testing
