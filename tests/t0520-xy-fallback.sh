#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# `routing_engine xy,minhop` on fabrics that are no 2-D mesh: a fat tree and
# a 3x4 torus (fixtures/torus3x4.net). The xy engine logs why (ERR 5A01)
# and OpenSM routes with minhop; the subnet comes up and every route
# arrives. With `routing_engine cyclic,xy,minhop` on a mesh, cyclic
# declines and xy routes it.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 17

log=$SIM_DIR/osm.log

# a fat tree
net=$SIM_DIR/ibft43.net
t_expect "ibunion gen fattree 4 3" "$IBUNION" gen fattree 4 3 -o "$net"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine xy,minhop lmc 0
sim_start_opensm
t_expect "fat tree: SUBNET UP" sim_wait_subnet_up
t_grep "fat tree: xy says why it declines (ERR 5A01)" \
	"ERR 5A01: xy: fabric is not a 2-D mesh" "$log"
t_grep "fat tree: minhop routes it" "minhop tables configured" "$log"
t_expect "fat tree: dump_lfts" sim_dump_lfts "$SIM_DIR/ft.lfts"
t_expect "fat tree: every route arrives" "$IBUNION" check --engine none "$net" "$SIM_DIR/ft.lfts" -q
sim_stop_processes
mv "$log" "$SIM_DIR/osm-fattree.log"

# a torus
net=$FIXTURES/torus3x4.net
t_expect "ibsim runs the 3x4 torus" sim_start_ibsim "$net"
sim_write_conf routing_engine xy,minhop lmc 0
sim_start_opensm
t_expect "torus: SUBNET UP" sim_wait_subnet_up
t_grep "torus: xy says why it declines (ERR 5A01)" \
	"ERR 5A01: xy: fabric is not a 2-D mesh" "$log"
t_grep "torus: minhop routes it" "minhop tables configured" "$log"
# the tool prints the engine's whole reason, as the plugin logs it
why=$(sed -n 's/.*ERR 5A01: xy: fabric is \(.*\); falling back.*/\1/p' "$log" | head -n 1)
"$IBUNION" route "$net" >/dev/null 2>"$SIM_DIR/route.err"
t_expect "torus: route's reason ends whole ('(odd cycle))')" \
	grep -q 'odd cycle))$' "$SIM_DIR/route.err"
t_expect "torus: route prints xy's reason as OpenSM's log has it" \
	sh -c '[ -n "$1" ] && grep -qF "$1" "$2"' - "$why" "$SIM_DIR/route.err"
sim_stop_processes
mv "$log" "$SIM_DIR/osm-torus.log"

# a mesh behind cyclic in the engine list
net=$SIM_DIR/mesh.net
t_expect "ibunion gen mesh 3 4" "$IBUNION" gen mesh 3 4 --shuffle-ports --seed 34 -o "$net"
t_expect "ibsim runs the mesh" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,xy,minhop lmc 0
sim_start_opensm
t_expect "mesh: SUBNET UP" sim_wait_subnet_up
t_grep "mesh: cyclic declines, xy routes it" "xy tables configured on all switches" "$log"
done_testing
