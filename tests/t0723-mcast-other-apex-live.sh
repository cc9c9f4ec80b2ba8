#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A group of every host on a tree whose cuts leave members the chosen top
# cannot reach going down, live: PGFT(3; 4,4,4; 1,2,2; 1,1,1) with 4 cut
# cables (ports and records shuffled).  Under the compact policy's top,
# the second cut-off leaf finds every junction closing a cycle with the
# first one's (the group was refused, ERR 5A33, its MLID unprogrammed:
# IPoIB's broadcast group is such a group); the next top needs one
# junction.  Under ibsim + opensm (cyclic,minhop) every host joins: no ERR
# 5A33, the tables read back route every LID, equal what `ibunion route`
# computes, every member gets exactly one copy from every sender, and
# unicast plus the tree are free of credit loops.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/turns.sh"
sim_require
sim_setup
plan 12

net=$SIM_DIR/pgft.net
t_expect "ibunion gen pgft 3 levels, 4 cut cables, shuffled" \
	"$IBUNION" gen pgft --m 4,4,4 --w 1,2,2 --p 1,1,1 --remove-links 4 \
	--seed 3 --shuffle-ports --shuffle-records -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 0
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_expect "every host joins one group" mc_join_all 3 $(mc_hcas "$net")
check_all live
t_no_grep "no ERR 5Axx (no group refused), no fallback, no WRN 5A52" \
	"ERR 5A|WRN 5A52|minhop tables configured" "$SIM_DIR/osm.log"
done_testing
