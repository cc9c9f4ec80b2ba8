#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A fat tree that lost every spine, live (ibsim + opensm, routing_engine
# cyclic,minhop): OpenSM sees one switch and its hosts, which cyclic
# routes as PGFT(1; m; 1; 1) rather than falling back.  The switch's
# tables pass check and equal route --lids-from; a group of three of its
# hosts gets exactly their ports.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 11

net=$SIM_DIR/one.net
t_expect "ibunion gen pgft --m 4 (one switch, 4 hosts, 8 ports), shuffled" \
	"$IBUNION" gen pgft --m 4 --w 1 --p 1 --radix 8 --shuffle-ports \
	--seed 2 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_no_grep "no ERR 5Axx, no fallback" "ERR 5A|minhop tables configured" \
	"$SIM_DIR/osm.log"
t_grep "cyclic routed the one-level PGFT" \
	"cyclic: PGFT\(1; 4; 1; 1\): 1 switches, 4 end ports" "$SIM_DIR/osm.log"
t_expect "dump_lfts reads the switch" sim_dump_lfts "$SIM_DIR/sw.lfts"
t_expect "check: every host reaches every LID, cyclic's rule holds" \
	"$IBUNION" check -q --cyclic "$net" "$SIM_DIR/sw.lfts"
"$IBUNION" route "$net" --lids-from "$SIM_DIR/sw.lfts" \
	-o "$SIM_DIR/route.lfts" 2>/dev/null
t_expect "route --lids-from equals the switch" \
	"$IBUNION" diff -q --fabric "$net" "$SIM_DIR/sw.lfts" "$SIM_DIR/route.lfts"
t_expect "three hosts join one group" mc_join_all 3 $(mc_hcas "$net" | head -n 3)
mc_dump_check live "$net"
done_testing
