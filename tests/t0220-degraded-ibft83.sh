#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A degraded IBFT(8,3) routed by cyclic (no fallback): 6 hosts unplugged,
# 3 switch-to-switch cables cut, 2 switches gone (ibunion gen --remove-*,
# shuffled). OpenSM logs one WRN 5A50 line per fault and the count; the
# switches' tables pass `ibunion check` (every pair reachable, no loop);
# the tool reading ibnetdiscover output predicts them exactly; a joined
# group is exact for every sender.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 16

net=$SIM_DIR/ft83-degraded.net
ibnd=$SIM_DIR/ft83-degraded.ibnd
live=$SIM_DIR/live.lfts
t_expect "ibunion gen fattree 8 3 --remove-hosts 6 --remove-links 3 --remove-switches 2" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --shuffle-records --seed 8 \
	--remove-hosts 6 --remove-links 3 --remove-switches 2 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 4
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_grep "routed by cyclic" "cyclic tables configured on all switches" \
	"$SIM_DIR/osm.log"
t_no_grep "no ERR 5Axx, no fallback" "ERR 5A|minhop tables configured" \
	"$SIM_DIR/osm.log"
faults=$(grep -c "WRN 5A50: cyclic: fault " "$SIM_DIR/osm.log")
diag "faults logged: $faults"
t_grep "the faults are counted" \
	"WRN 5A51: cyclic: $faults faults \(missing links and switches\) routed around" \
	"$SIM_DIR/osm.log"
t_grep "the summary line counts the re-routed entries" \
	"cyclic: IBFT\(8,3\): 78 switches, [0-9]+ end ports, .*degraded: $faults faults \(limit 25\), [0-9]+ entries re-routed" \
	"$SIM_DIR/osm.log"
grep "degraded:" "$SIM_DIR/osm.log" | tail -1 | sed 's/^/# /'
t_expect "dump_lfts reads every switch" sim_dump_lfts "$live"
t_expect "ibunion check --updown passes (every pair with an up*/down* path reachable on one, no loop)" \
	"$IBUNION" check --updown "$net" "$live"
t_expect "check --cyclic: every entry as the engine routes around the faults" \
	"$IBUNION" check --cyclic "$net" "$live"
t_expect "ibnetdiscover saves the fabric" sim_client ibnetdiscover "$ibnd"
t_expect "route on ibnetdiscover's view --lids-from the dump" \
	"$IBUNION" route "$ibnd" --lids-from "$live" -o "$SIM_DIR/ibnd.lfts"
t_expect "the switches hold exactly what route computes" \
	"$IBUNION" diff --fabric "$ibnd" "$SIM_DIR/ibnd.lfts" "$live"

hosts=$(mc_hcas "$net" | mc_pick 5 12)
# shellcheck disable=SC2086
t_expect "12 hosts join one group" mc_join_all 9 $hosts
mc_dump_check degraded "$net"
done_testing
