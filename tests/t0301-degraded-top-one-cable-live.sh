#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Issue 18, live: a top switch left with a single cable stays a top switch.
# On IBFT(4,3) under ibsim + opensm (cyclic), ibsim's console unlinks a top
# switch, then one of its middle switches, then relinks the middle switch:
# ReLink restores every cable of the middle switch, the one to the still
# unlinked top included, so the top has one cable of its m.  After each
# re-sweep the engine in use is still cyclic (no ERR 5Axx, no fallback to
# minhop), the summary counts the faults, and the switches' tables pass
# `ibunion check --updown` and `check --cyclic` read against the fabric as
# ibnetdiscover sees it, and equal what `ibunion route` computes for it.
# Relinking the top restores the full cyclic rule.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 45

net=$SIM_DIR/ft43.net

t_expect "ibunion gen fattree 4 3 (shuffled ports and records)" \
	"$IBUNION" gen fattree 4 3 --shuffle-ports --shuffle-records --seed 18 \
	-o "$net"
# roles from the graph: a leaf has an end port, a middle switch a leaf
# neighbour, a top switch neither; the top and one of its middle switches
awk '
/^(Switch|Hca|Ca)[ \t]/ {
	name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
	sw[name] = ($1 == "Switch"); next
}
/^\[[0-9]+\]/ {
	peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
	nb[name] = nb[name] " " peer
}
END {
	for (s in sw) if (sw[s]) {
		n = split(nb[s], p, " ")
		for (i = 1; i <= n; i++) if (!sw[p[i]]) leaf[s] = 1
	}
	for (s in sw) if (sw[s] && !(s in leaf)) {
		top = 1; n = split(nb[s], p, " ")
		for (i = 1; i <= n; i++) if (p[i] in leaf) top = 0
		if (top) { split(nb[s], q, " "); print s, q[1] }
	}
}' "$net" | sort | head -n 1 >"$SIM_DIR/pick"
read -r top middle <"$SIM_DIR/pick"
diag "top switch $top, its middle switch $middle"
t_equal "a top switch and one of its middle switches found" \
	"$([ -n "$top" ] && [ -n "$middle" ] && echo yes)" yes

t_expect "ibsim runs it, console open" sim_start_ibsim_console "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 force_heavy_sweep TRUE
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_cyclic_holds "$net" intact

# t_step TAG DEGRADED CONSOLE-COMMAND: 8 assertions on the state after it.
t_step()
{
	if [ "$2" = 1 ]; then
		t_fault_step "$1" "cyclic: IBFT(" \
			"cyclic: IBFT\(4,3\): .*degraded: [1-9][0-9]* faults" \
			"cyclic routed a degraded IBFT(4,3)" "$3"
	else
		t_fault_step "$1" "cyclic: IBFT(" "cyclic: IBFT\(4,3\): " \
			"cyclic routed the intact IBFT(4,3)" "$3"
	fi
}

t_step top-cut 1 "Unlink \"$top\""
t_step middle-cut 1 "Unlink \"$middle\""
t_step middle-back 1 "ReLink \"$middle\""
# the top is back in the fabric with the one cable ReLink gave it: 3 of
# its 4 cables missing, and no missing switch
t_grep "middle-back: 20 switches, 3 faults (the top's 3 missing cables)" \
	"cyclic: IBFT\(4,3\): 20 switches, .*degraded: 3 faults" \
	"$SIM_DIR/middle-back.summary"
t_step top-back 0 "ReLink \"$top\""
t_expect "top-back: check --cyclic on the original net file" \
	"$IBUNION" check "$net" "$SIM_DIR/top-back.lfts" --cyclic
t_expect "opensm is still running" sim_opensm_alive
done_testing
