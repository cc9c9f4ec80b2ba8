#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Storage on spines, live (ibsim + opensm, routing_engine cyclic,minhop):
# PGFT(2; 8,6; 1,4; 1,1) with 2 hosts cabled to two different top switches.
# Up*/down* has no route between them; they get one with one down-up turn,
# at one switch chosen per LID.  Every pair of end ports reachable (check
# --updown: 0 unreachable, none unrouted, the turned pairs counted), the
# switches equal `ibunion route` on ibnetdiscover's view, ibtracert from
# one storage host to the other, and unicast (switch LIDs as destinations)
# + a group with both storage hosts, every member sending: no credit loop.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/turns.sh"
sim_require
sim_setup
plan 16

# --- 1. storage on two top switches -------------------------------------
net=$SIM_DIR/pgft.net
t_expect "ibunion gen pgft 2 levels, 2 hosts on top switches, shuffled" \
	"$IBUNION" gen pgft --m 8,6 --w 1,4 --p 1,1 --hosts-on-spines 2 \
	--shuffle-ports --seed 27 -o "$net"
tops=$(awk '/^(Hca|Ca)[ \t].*"spine-hca/ { getline; sub(/^[^"]*"/, ""); sub(/".*/, ""); print }' "$net" | sort -u | wc -l)
t_equal "the two storage hosts hang off two different top switches" "$tops" 2
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_no_grep "storage: no ERR 5Axx, no fallback" \
	"ERR 5A|minhop tables configured" "$SIM_DIR/osm.log"
t_grep "storage: the PGFT with its hosts above the leaves" \
	"cyclic: PGFT\(2; 8,6; 1,4; 1,1\): 10 switches, 50 end ports \(2 above the leaves\)" \
	"$SIM_DIR/osm.log"
hosts=$( (mc_hcas "$net" | grep -v spine | mc_pick 3 4; echo spine-hca-0; echo spine-hca-1) )
# shellcheck disable=SC2086
t_expect "storage: 4 compute hosts and both storage hosts join one group" \
	mc_join_all 1 $hosts
check_all storage
t_grep "storage: the storage hosts reach each other through one turn" \
	"pairs without an up\*/down\* path \([1-9][0-9]* of them turned\)" \
	"$SIM_DIR/storage.check"
s0=$(lid_of "$SIM_DIR/storage.ibnd" spine-hca-0)
s1=$(lid_of "$SIM_DIR/storage.ibnd" spine-hca-1)
diag "storage hosts: LIDs $s0 and $s1"
t_expect "storage: ibtracert from one storage host to the other" \
	as_host spine-hca-0 ibtracert "$s0" "$s1"
done_testing
