#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The paper's evaluation size: a 16x16 mesh (256 switches, 1 HCA each,
# shuffled ports and records) under xy in ibsim with opensm + the plugin:
# every route is XY and equals `ibunion route`, and unicast is free of
# credit loops (check --deadlock). Multicast through SA is left to the
# smaller meshes: in ibsim, SA joins from HCAs far from the SM's HCA go
# unanswered (near ones are answered: seemingly a limit of ibsim on long
# LID routes; the diagnostics below say which were tried).
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/xy.sh"
sim_require
sim_setup
plan 11

net=$SIM_DIR/mesh.net
t_expect "ibunion gen mesh 16 16" "$IBUNION" gen mesh 16 16 --hcas 1 \
	--shuffle-ports --shuffle-records --seed 1616 -o "$net"
t_expect "ibsim runs the mesh" sim_start_ibsim "$net"
sim_write_conf routing_engine xy,minhop lmc 0 log_flags 0x07
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the plugin recognised the 16x16 mesh" "xy: .*16 ?x ?16" "$SIM_DIR/osm.log"
t_xy_holds "$net" mesh
t_expect "mesh: unicast has no credit loop (check --deadlock)" \
	"$IBUNION" check "$net" "$SIM_DIR/mesh.lfts" --deadlock
for h in hca-0.0.0 hca-1.0.0 hca-0.1.0 hca-3.3.0 hca-15.15.0; do
	if line=$(SIM_HOST=$h sim_client "$IBUNION" mcast join --mgid 0x77 \
		--timeout 5000 2>&1); then
		diag "SA join from $h: $line"
	else
		diag "SA join from $h failed: $(echo "$line" | tail -n 1)"
	fi
done
done_testing
