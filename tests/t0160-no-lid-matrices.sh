#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The engine tells OpenSM to skip its all-pairs min-hop matrices (default
# lid_matrices=none) and nothing that applications or admins use suffers:
# the tables are the cyclic ones, SA PathRecords between end ports carry
# the base SLID/DLID pair, multicast joins are programmed by the engine's
# trees, and with log flag 0x40 OpenSM still writes its dumps (an empty
# lid matrix).  lid_matrices=opensm builds the matrices again and the
# switches hold the same tables.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 27

net=$SIM_DIR/ibft43.net
t_expect "ibunion gen fattree 4 3, shuffled" "$IBUNION" gen fattree 4 3 \
	--shuffle-ports --shuffle-records --seed 16 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 log_flags 0x47
sim_start_opensm
t_expect "lid_matrices=none (default): SUBNET UP" sim_wait_subnet_up
t_grep "the default is logged" "lid_matrices=none" "$SIM_DIR/osm.log"
t_cyclic_holds "$net" none
t_equal "OpenSM's lid matrix dump has no hop rows" \
	"$(grep -c '^0x' "$SIM_DIR/opensm-lid-matrix.dump")" 0
t_expect "opensm-lfts.dump was written and passes check --cyclic" \
	"$IBUNION" check "$net" "$SIM_DIR/opensm-lfts.dump" --cyclic -q

# SA PathRecords: base SLID and base DLID between CA ports (from the
# guid2lid file OpenSM wrote: CA ranges hold 4 LIDs at lmc 2)
bases=()
while read -r guid lo hi; do
	[ -n "$hi" ] && [ $((hi - lo)) -eq 3 ] && bases+=($((lo)))
done <"$SIM_DIR/guid2lid"
bases=("${bases[@]:0:4}")
pr_ok=0 pr_bad=
for s in "${bases[@]}"; do
	for d in "${bases[@]}"; do
		[ "$s" = "$d" ] && continue
		out=$(sim_client saquery -p --src-to-dst "$s:$d" 2>/dev/null)
		if grep -Eq "^[[:space:]]*slid\.+$s\$" <<<"$out" &&
			grep -Eq "^[[:space:]]*dlid\.+$d\$" <<<"$out"; then
			pr_ok=$((pr_ok + 1))
		else
			pr_bad="$pr_bad $s:$d"
		fi
	done
done
[ -z "$pr_bad" ] || diag "PathRecords wrong or missing for:$pr_bad"
t_equal "SA answers 12 PathRecords with the base SLID/DLID" "$pr_ok" 12

mapfile -t hosts < <(mc_hcas "$net" | mc_pick 3 5)
t_expect "5 hosts join a group" mc_join_all 5 "${hosts[@]}"
mc_dump_check none-mc "$net"
mlid=$(mc_mlid 5)
t_grep "the engine built the tree" "cyclic: MLID $mlid: 5 members" "$SIM_DIR/osm.log"
sim_dump_mfts "$SIM_DIR/none-keep.mfts"
sim_stop_opensm
mv "$SIM_DIR/osm.log" "$SIM_DIR/osm-none.log"

sim_write_conf routing_engine cyclic,minhop lmc 2 log_flags 0x47 \
	event_plugin_options lid_matrices=opensm
sim_start_opensm
t_expect "lid_matrices=opensm: SUBNET UP" sim_wait_subnet_up
t_grep "the option is logged" "lid_matrices=opensm" "$SIM_DIR/osm.log"
t_cyclic_holds "$net" opensm
t_expect "OpenSM's lid matrix dump has hop rows" \
	grep -q '^0x' "$SIM_DIR/opensm-lid-matrix.dump"
t_expect "the switches hold the same tables as without matrices" \
	"$IBUNION" diff --fabric "$net" "$SIM_DIR/none.lfts" "$SIM_DIR/opensm.lfts"
done_testing
