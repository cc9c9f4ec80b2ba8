#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Spreading trees over the spines: on IBFT(8,3) (16 top switches), 16 groups
# of 10% of the end ports each (13 random ports, full members) are joined
# under `routing_engine cyclic` with mcast_apex=balanced, again with
# mcast_apex=compact, and, each on a fresh simulator, under `routing_engine
# ftree` (OpenSM's own multicast manager: no mcast_build_stree). Every set
# of MFTs is read back with dump_mfts and must pass the flood check; with
# balanced the 16 trees use 16 different top switches, with compact the 4
# tops of one plane (the tops sharing one set of middles). The maximum
# number of trees crossing one switch-to-switch link is reported for all
# (and kept in $SIM_DIR/spread.txt); neither policy may be worse than
# OpenSM's manager.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 27

net=$SIM_DIR/ibft83.net
t_expect "ibunion gen fattree 8 3 --shuffle-ports" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --seed 83 -o "$net"
mapfile -t hcas < <(mc_hcas "$net")
k=$(((${#hcas[@]} * 10 + 99) / 100))

join_groups()
{
	local g m

	for g in $(seq 1 16); do
		mapfile -t m < <(printf "%s\n" "${hcas[@]}" | mc_pick $((1000 + g)) "$k")
		mc_join_all "$g" "${m[@]}" || return 1
	done
}

# run ENGINE TAG [PLUGIN OPTIONS]: fresh ibsim + opensm, 16 groups joined,
# dump, check, load
run()
{
	local engine=$1 tag=$2 g opts=()

	# a fresh log: SUBNET UP of the previous run must not count
	rm -f "$SIM_DIR/members" "$SIM_DIR/mgid2mlid" "$SIM_DIR/osm.log"
	t_expect "$tag: ibsim runs IBFT(8,3)" sim_start_ibsim "$net"
	[ -n "${3-}" ] && opts=(event_plugin_options "$3")
	sim_write_conf routing_engine "$engine" lmc 0 log_flags 0x07 "${opts[@]}"
	sim_start_opensm
	t_expect "$tag: SUBNET UP" sim_wait_subnet_up
	t_expect "$tag: 16 groups of $k ports join" join_groups
	mc_dump_check "$tag" "$net"
	t_expect "$tag: ibunion mcast load" eval \
		"'$IBUNION' mcast load --members '$SIM_DIR/members' '$net' '$SIM_DIR/$tag.mfts' >'$SIM_DIR/$tag.load'"
	diag "$(grep -E 'summary|busiest|histogram|trees per' "$SIM_DIR/$tag.load")"
	sim_stop_processes
}

field()
{
	sed -n "s/.*summary:.* $2=\([0-9]*\).*/\1/p" "$SIM_DIR/$1.load"
}

tops()
{
	sed -n 's/.*top-switches-used=\([0-9]*\/[0-9]*\).*/\1/p' "$SIM_DIR/$1.load"
}

run cyclic,minhop cyclic mcast_apex=balanced
t_grep "cyclic: the plugin built the trees" "cyclic: MLID 0xc0[01][0-9a-f]: $k members.*\\(balanced," "$SIM_DIR/osm.log"
cp "$SIM_DIR/osm.log" "$SIM_DIR/osm-cyclic.log"
t_equal "cyclic: the 16 trees have 16 different top switches" "$(tops cyclic)" "16/16"

run cyclic,minhop compact mcast_apex=compact
t_grep "compact: the plugin built the trees" "cyclic: MLID 0xc0[01][0-9a-f]: $k members.*\\(compact," "$SIM_DIR/osm.log"
t_equal "compact: the 16 trees share the 4 top switches of one plane" "$(tops compact)" "4/16"

run ftree opensm
t_grep "opensm: ftree routed the fat tree" "ftree tables configured on all switches" \
	"$SIM_DIR/osm.log"
t_no_grep "opensm: no tree came from the plugin" "cyclic: MLID" "$SIM_DIR/osm.log"

c=$(field cyclic max-trees-per-link) o=$(field opensm max-trees-per-link)
p=$(field compact max-trees-per-link)
{
	echo "IBFT(8,3), 16 groups of $k end ports (10%), MFTs read back with dump_mfts"
	echo "max trees crossing one switch-to-switch link: cyclic balanced $c, compact $p, OpenSM default manager (ftree) $o"
	echo "top switches used as tree tops: cyclic balanced $(tops cyclic), compact $(tops compact), OpenSM default $(tops opensm)"
} >"$SIM_DIR/spread.txt"
diag "$(cat "$SIM_DIR/spread.txt")"
t_expect "balanced's busiest link carries no more trees than OpenSM's ($c <= $o)" test "$c" -le "$o"
t_expect "compact's busiest link carries no more trees than OpenSM's ($p <= $o)" test "$p" -le "$o"
done_testing
