#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A small tree keeps its engine through a few faults, live: IBFT(4,3) with
# 4 cut cables and a switch gone (ports and records shuffled) has 5 faults,
# more than a tenth of its 32 cables, but within the floor every tree has
# (7).  Under ibsim + opensm (routing_engine cyclic,minhop) cyclic routes
# it itself (it used to decline: "more than the limit of 3 faults"): no
# ERR 5Axx, no fallback to minhop, no entry unrouted (WRN 5A52; with the
# paper's LIDs one switch LID needs the second pass of the deferred turns,
# test_pgft_route has that).  The switches' tables are read back: every end
# port reaches every LID (switch LIDs too), they equal what `ibunion
# route` computes from ibnetdiscover's view, a group is exact, and unicast
# plus multicast are free of credit loops.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/turns.sh"
sim_require

net=${TMPDIR:-/tmp}/t0722.$$.net
"$IBUNION" gen fattree 4 3 --remove-links 4 --remove-switches 1 --seed 25 \
	--shuffle-ports --shuffle-records -o "$net" || exit 1
# the SM and the clients on an HCA with a cable (a removed leaf's HCAs
# stay in the file without one)
SIM_HOST=$(sim_cabled_hca "$net")
export SIM_HOST
sim_setup
mv "$net" "$SIM_DIR/ibft43.net"
net=$SIM_DIR/ibft43.net
plan 12

t_expect "ibsim runs IBFT(4,3) with 4 cut cables and a switch gone" \
	sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 0
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_no_grep "cyclic routes it: no ERR 5Axx, no fallback, no WRN 5A52" \
	"ERR 5A|WRN 5A52|minhop tables configured" "$SIM_DIR/osm.log"
t_grep "the summary: 5 faults within the limit of 7, none unrouted" \
	"cyclic: IBFT\(4,3\): .*degraded: 5 faults \(limit 7\), .* 0 left unrouted at leaves" \
	"$SIM_DIR/osm.log"
t_expect "4 hosts join one group" mc_join_all 3 $(mc_hcas "$net" | grep -v "^$SIM_HOST\$" |
	while read -r h; do grep -A1 "\"$h\"" "$net" | grep -q '^\[' && echo "$h"; done | mc_pick 7 4)
check_all live
done_testing
