#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The xy engine on a 3x6 mesh of switches with 2 HCA(s) per switch
# (`ibunion gen mesh 3 6 --hcas 2 --shuffle-ports --shuffle-records --seed 36`), lmc 0, in ibsim with
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

t_xy_live mesh 0 36 "xy: .*3 ?x ?6|xy: .*6 ?x ?3" 3 6 --hcas 2 \
	--shuffle-ports --shuffle-records
done_testing
