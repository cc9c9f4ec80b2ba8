#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Credit loops on a 4x4 mesh (`ibunion gen mesh 4 4 --shuffle-ports
# --shuffle-records --seed 53`) with four groups joined through SA, each a
# send-only source in one corner and full members in two other corners:
#   1. xy with mcast_apex=source (the paper's trees, rooted at the senders'
#      switches, on different rows): the tables are exact (check --xy,
#      check --mcast) but `check --deadlock` finds the cycle the trees close
#      around the mesh's border, and prints it;
#   2. xy with the default policy (every root on the middle row): the same
#      groups, `check --deadlock` proves unicast + multicast free of credit
#      loops;
#   3. OpenSM's own dor with its default multicast manager on the same
#      groups: what check --deadlock says, unicast alone and with the
#      groups, is reported (diagnostics: dor follows port numbers, which
#      are shuffled here, so even its unicast is not XY).
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 17

net=$SIM_DIR/mesh.net
t_expect "ibunion gen mesh 4 4" "$IBUNION" gen mesh 4 4 --hcas 1 \
	--shuffle-ports --shuffle-records --seed 53 -o "$net"
t_expect "ibsim runs the mesh" sim_start_ibsim "$net"

# the groups: full members first (a send-only join needs the group)
join_groups()
{
	rm -f "$SIM_DIR/members" "$SIM_DIR/mgid2mlid"
	mc_join_all 0x41 hca-3.3.0 hca-3.0.0 &&
		mc_join 0x41 hca-0.0.0 --send-only &&
		mc_join_all 0x42 hca-0.0.0 hca-0.3.0 &&
		mc_join 0x42 hca-3.3.0 --send-only &&
		mc_join_all 0x43 hca-3.0.0 hca-3.3.0 &&
		mc_join 0x43 hca-0.3.0 --send-only &&
		mc_join_all 0x44 hca-0.3.0 hca-0.0.0 &&
		mc_join 0x44 hca-3.0.0 --send-only
}

# run_sm TAG ENGINE [plugin options]: fresh opensm, groups, dumps
run_sm()
{
	local tag=$1 engine=$2 opts=$3

	sim_stop_opensm
	rm -f "$SIM_DIR/osm.log"
	if [ -n "$opts" ]; then
		sim_write_conf routing_engine "$engine" lmc 0 log_flags 0x07 \
			event_plugin_options "$opts"
	else
		sim_write_conf routing_engine "$engine" lmc 0 log_flags 0x07
	fi
	sim_start_opensm
	t_expect "$tag: opensm ($engine${opts:+, $opts}): SUBNET UP" sim_wait_subnet_up
	t_expect "$tag: 4 groups joined through SA (every member may send)" join_groups
	t_expect "$tag: dump_lfts" sim_dump_lfts "$SIM_DIR/$tag.lfts"
	mc_dump_check "$tag" "$net"
}

run_sm src xy mcast_apex=source
t_expect "src: every route is XY" "$IBUNION" check "$net" "$SIM_DIR/src.lfts" --xy
t_expect_code 1 "src: check --deadlock finds a credit loop (trees on different rows)" \
	"$IBUNION" check "$net" "$SIM_DIR/src.lfts" --deadlock \
	--mcast "$SIM_DIR/src.mfts" --members "$MC_MEMBERS"
t_grep "src: the loop is printed channel by channel" \
	"credit loop through [0-9]+ channels" "$SIM_DIR/cmd-$tap__count.out"

run_sm bal xy
t_expect "bal: check --xy --deadlock: unicast + every group, every member sending: no credit loop" \
	"$IBUNION" check "$net" "$SIM_DIR/bal.lfts" --xy --deadlock \
	--mcast "$SIM_DIR/bal.mfts" --members "$MC_MEMBERS"

sim_stop_opensm
rm -f "$SIM_DIR/osm.log" "$SIM_DIR/members" "$SIM_DIR/mgid2mlid"
sim_write_conf routing_engine dor lmc 0 log_flags 0x07
sim_start_opensm
t_expect "dor: opensm's dor: SUBNET UP" sim_wait_subnet_up
if join_groups && sim_dump_lfts "$SIM_DIR/dor.lfts" &&
	sim_dump_mfts "$SIM_DIR/dor.mfts"; then
	"$IBUNION" check "$net" "$SIM_DIR/dor.lfts" --deadlock \
		>"$SIM_DIR/dor-ucast.deadlock" 2>&1
	diag "dor, unicast alone: check --deadlock exit $?: $(grep -E '^-(E|I)- deadlock: (no cycle|credit)' "$SIM_DIR/dor-ucast.deadlock")"
	"$IBUNION" check "$net" "$SIM_DIR/dor.lfts" --deadlock \
		--mcast "$SIM_DIR/dor.mfts" --members "$MC_MEMBERS" \
		>"$SIM_DIR/dor.deadlock" 2>&1
	diag "dor + OpenSM's multicast, same groups: check --deadlock exit $?: $(grep -E '^-(E|I)- deadlock: (no cycle|credit)' "$SIM_DIR/dor.deadlock")"
else
	diag "dor: could not join or dump"
fi
done_testing
