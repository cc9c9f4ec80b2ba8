#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# IBFT(4,3) with one switch-to-switch link removed is a degraded fat tree
# (routed by cyclic, see t0220); with event_plugin_options max_faults=0
# only exact trees are taken: the cyclic engine declines (ERR 5Axx), OpenSM
# falls back to minhop, the subnet comes up and the tables are sound.
# `ibunion check` on those tables fails and names the likely cause: from
# what the plugin published (OpenSM's last routing was minhop's, cyclic
# declined and why), or without it from the rule most entries break.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 13

net=$SIM_DIR/ibft43-cut.net
t_expect "ibunion gen fattree 4 3 --remove-links 1" \
	"$IBUNION" gen fattree 4 3 --remove-links 1 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 \
	event_plugin_options max_faults=0
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin was loaded" "routing engine 'cyclic' registered" "$SIM_DIR/osm.log"
t_grep "the cyclic engine declines with an ERR 5Axx line" \
	"ERR 5A[0-9A-F]{2}: cyclic: " "$SIM_DIR/osm.log"
t_grep "OpenSM fell back to minhop" "minhop tables configured on all switches" \
	"$SIM_DIR/osm.log"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/lfts.dump"
t_expect "ibunion check passes on the fallback tables" \
	"$IBUNION" check --engine none "$net" "$SIM_DIR/lfts.dump"
t_grep "the plugin published that minhop routed and why cyclic declined" \
	"^declined cyclic: fabric is " "$SIM_DIR/ibunion-routing.dump"
"$IBUNION" check "$net" "$SIM_DIR/lfts.dump" >"$SIM_DIR/plain.out" 2>&1
t_equal "check (no OpenSM state): fails, hints at another engine's tables" \
	"$?:$(grep -c "^-W- check: .* entries break the cyclic rule: tables of another engine" "$SIM_DIR/plain.out")" "1:1"
OSM_TMP_DIR=$SIM_DIR "$IBUNION" check "$net" "$SIM_DIR/lfts.dump" >"$SIM_DIR/osm.out" 2>&1
t_equal "check with OpenSM's dump dir: fails, names the engine and the reason" \
	"$?:$(grep -c "^-E- check: OpenSM's last routing .* was by minhop: declined cyclic: fabric is .*max_faults" "$SIM_DIR/osm.out")" "1:1"
OSM_TMP_DIR=$SIM_DIR "$IBUNION" check --json "$net" "$SIM_DIR/lfts.dump" >"$SIM_DIR/osm.json" 2>/dev/null
t_grep "check --json: the likely cause" '"likely_cause":"OpenSM.s last routing' "$SIM_DIR/osm.json"
OSM_TMP_DIR=$SIM_DIR "$IBUNION" check --engine none -q "$net" "$SIM_DIR/lfts.dump" >"$SIM_DIR/none.out" 2>&1
t_equal "check --engine none accepts any engine's sound tables" "$?" 0
done_testing
