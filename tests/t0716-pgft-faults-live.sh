#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Issue 14, live: a PGFT that is no IBFT loses a cable, then a switch.
# PGFT(3; 4,4,3; 1,2,2; 1,2,1) (2 cables from every leaf to each of its 2
# middle switches, 3 pods; ports and records shuffled) under ibsim + opensm
# (routing_engine cyclic,minhop at the LMC the scheme needs).  ibsim's
# console cuts one leaf-to-middle cable, then a whole middle switch, then
# restores both; the leaf and the middle switch are found from the graph.
# After each re-sweep cyclic still routes (no ERR 5Axx, no fallback to
# minhop), the summary names the PGFT and counts its faults (none once
# restored), and the switches' tables pass check --updown and check
# --cyclic against ibnetdiscover's view and equal what `ibunion route`
# computes from it.  Hosts join a group on the damaged tree: exact for
# every member as sender, and with unicast free of credit loops.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 38

net=$SIM_DIR/pgft.net
t_expect "ibunion gen pgft 3 levels, parallel cables, shuffled" \
	"$IBUNION" gen pgft --m 4,4,3 --w 1,2,2 --p 1,2,1 --shuffle-ports \
	--shuffle-records --seed 16 -o "$net"
# from the graph: a leaf (a switch with an end port), the port of its
# first cable to a switch (a middle switch), and that middle switch
awk '
/^(Switch|Hca|Ca)[ \t]/ {
	name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
	sw[name] = ($1 == "Switch"); order[++n] = name; next
}
/^\[[0-9]+\]/ {
	port = $0; sub(/^\[/, "", port); sub(/\].*/, "", port)
	peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
	nbp[name] = nbp[name] " " port; nbn[name] = nbn[name] " " peer
}
END {
	for (i = 1; i <= n; i++) {
		s = order[i]
		if (!sw[s]) continue
		k = split(nbn[s], p, " "); split(nbp[s], q, " ")
		host = 0; mid = ""
		for (j = 1; j <= k; j++)
			if (!sw[p[j]]) host = 1
			else if (mid == "") { mid = p[j]; mport = q[j] }
		if (host && mid != "") { print s, mport, mid; exit }
	}
}' "$net" >"$SIM_DIR/pick"
read -r leaf lport middle <"$SIM_DIR/pick"
diag "leaf $leaf port $lport to middle switch $middle"
t_equal "a leaf, its cable to a middle switch, that switch: found" \
	"$([ -n "$leaf" ] && [ -n "$lport" ] && [ -n "$middle" ] && echo yes)" yes

t_expect "ibsim runs it, console open" sim_start_ibsim_console "$net"
sim_write_conf routing_engine cyclic,minhop lmc 3 force_heavy_sweep TRUE
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_grep "intact: the PGFT, no fault" \
	"cyclic: PGFT\(3; 4,4,3; 1,2,2; 1,2,1\): 22 switches, 48 end ports, LMC in use 3 \(needs 3\), routed" \
	"$SIM_DIR/osm.log"

# t_step TAG FAULTS CONSOLE-COMMAND: 8 assertions on the state after it.
t_step()
{
	if [ "$2" = 0 ]; then
		t_fault_step "$1" "cyclic: PGFT(" \
			"cyclic: PGFT\(3; 4,4,3; 1,2,2; 1,2,1\): 22 switches, 48 end ports, LMC in use 3 \(needs 3\), routed" \
			"cyclic routed the intact PGFT" "$3"
	else
		t_fault_step "$1" "cyclic: PGFT(" \
			"cyclic: PGFT\(3; 4,4,3; 1,2,2; 1,2,1\): .*degraded: $2 faults" \
			"cyclic routed the PGFT with its $2 faults" "$3"
	fi
}

t_step cable-cut 1 "Unlink \"$leaf\"[$lport]"
t_grep "cable-cut: the fault names the leaf and the middle switch" \
	"fault 1 of 1: missing cable '$leaf' \(level 1\) - parent '$middle': 1 of 2" \
	"$SIM_DIR/cable-cut.log"
# the group spans pods: its tree crosses the level of the cut
mapfile -t hosts < <(mc_hcas "$net" | mc_pick 16 8)
t_expect "cable-cut: 8 hosts join MGID 1" mc_join_all 1 "${hosts[@]}"
mc_dump_check cable-cut "$net"
t_expect "cable-cut: unicast + multicast: no credit loop" "$IBUNION" check -q \
	--deadlock --mcast "$SIM_DIR/cable-cut.mfts" --members "$MC_MEMBERS" \
	"$SIM_DIR/cable-cut.ibnd" "$SIM_DIR/cable-cut.lfts"
t_step switch-cut 1 "Unlink \"$middle\""
# the group's tree is built again without the middle switch
mc_dump_check switch-cut "$SIM_DIR/switch-cut.ibnd"
t_expect "switch-cut: unicast + multicast: no credit loop" "$IBUNION" check -q \
	--deadlock --mcast "$SIM_DIR/switch-cut.mfts" --members "$MC_MEMBERS" \
	"$SIM_DIR/switch-cut.ibnd" "$SIM_DIR/switch-cut.lfts"
t_step restored 0 "ReLink \"$middle\""
t_expect "opensm is still running" sim_opensm_alive
done_testing
