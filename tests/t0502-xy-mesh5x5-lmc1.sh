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

t_xy_live mesh 1 55 "xy: .*5 ?x ?5" 5 5 --hcas 1 --shuffle-records
done_testing
