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

t_xy_live line 0 15 "xy: 5 x 1 mesh: 5 switches, 10 end ports" 1 5 \
	--hcas 2 --shuffle-ports --shuffle-records
done_testing
