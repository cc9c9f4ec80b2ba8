#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# OpenSM's guid_routing_order_file on a PGFT (host order), in ibsim
# with real opensm: the admin lists the compute hosts in another order
# than the engine's own, sub-trees kept together (pods and leaves
# permuted, hosts inside each leaf reversed).  cyclic numbers the hosts in
# that order: ibunion-host-order.dump lists exactly the file's hosts in
# its order, `ibunion route` with the same file on ibnetdiscover's view
# equals the switches, shift permutations in that order load no link above
# 1 (not blocking), and a file that interleaves leaves is reordered with a
# warning note, a bad file logged (WRN 5A55) and the engine's own order
# used.  The file is made from the graph (`ibunion order --guids`), never
# from names.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 26

net=$SIM_DIR/pgft.net
t_expect "ibunion gen pgft: 3 levels, 4 hosts a leaf, shuffled" "$IBUNION" gen pgft \
	--m 4,4,3 --w 1,4,4 --p 1,1,1 --shuffle-ports --shuffle-records --seed 9 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 4
sim_start_opensm
t_expect "first sweep, the engine's own order: SUBNET UP" sim_wait_subnet_up
t_expect "ibnetdiscover reads the fabric" sim_client ibnetdiscover "$SIM_DIR/view.ibnd"
"$IBUNION" order "$SIM_DIR/view.ibnd" --guids >"$SIM_DIR/own.guids"
# pods in the order 2 0 1, leaves inside a pod rotated, hosts reversed:
# 48 hosts = 3 pods x 4 leaves x 4 hosts in the engine's order
awk '{ a[NR - 1] = $0 } END {
	for (j = 0; j < NR; j++) {
		pod = int(j / 16); leaf = int((j % 16) / 4); h = j % 4
		print a[((pod + 2) % 3) * 16 + ((leaf + 1) % 4) * 4 + 3 - h]
	} }' "$SIM_DIR/own.guids" >"$SIM_DIR/order.guids"
t_equal "the order file lists all 48 hosts once" \
	"$(sort -u "$SIM_DIR/order.guids" | wc -l):$(cmp -s "$SIM_DIR/order.guids" "$SIM_DIR/own.guids"; echo $?)" "48:1"
sim_stop_opensm
mv "$SIM_DIR/osm.log" "$SIM_DIR/osm-own.log"
sim_write_conf routing_engine cyclic,minhop lmc 4 log_flags 0x0f \
	guid_routing_order_file "$SIM_DIR/order.guids"
sim_start_opensm
t_expect "with guid_routing_order_file: SUBNET UP" sim_wait_subnet_up
t_grep "the engine says it took the file's order" \
	"cyclic: host order: guid_routing_order_file, 48 compute hosts listed, 0 not listed .*, 0 listed hosts moved" \
	"$SIM_DIR/osm.log"
"$IBUNION" order "$SIM_DIR/view.ibnd" -O guid_routing_order_file="$SIM_DIR/order.guids" \
	--guids >"$SIM_DIR/used.guids"
t_expect "ibunion order with the file: exactly the file's order" \
	cmp "$SIM_DIR/used.guids" "$SIM_DIR/order.guids"
"$IBUNION" order "$SIM_DIR/view.ibnd" -O guid_routing_order_file="$SIM_DIR/order.guids" \
	>"$SIM_DIR/used.names"
t_equal "ibunion-host-order.dump: the hosts in the file's order" \
	"$(cut -d' ' -f3- "$SIM_DIR/ibunion-host-order.dump" 2>&1 | md5sum)" \
	"$(md5sum <"$SIM_DIR/used.names")"
t_expect "dump_lfts" sim_dump_lfts "$SIM_DIR/ord.lfts"
t_expect "route on ibnetdiscover's view with the same file" "$IBUNION" route \
	"$SIM_DIR/view.ibnd" --lids-from "$SIM_DIR/ord.lfts" \
	-O guid_routing_order_file="$SIM_DIR/order.guids" -o "$SIM_DIR/ord.expected"
t_expect "the switches hold exactly what route computes" \
	"$IBUNION" diff --fabric "$SIM_DIR/view.ibnd" "$SIM_DIR/ord.expected" "$SIM_DIR/ord.lfts"
"$IBUNION" load -q "$SIM_DIR/view.ibnd" "$SIM_DIR/ord.lfts" --pattern shift \
	-O guid_routing_order_file="$SIM_DIR/order.guids" >"$SIM_DIR/load.out" 2>&1
t_equal "base-LID shift permutations in the file's order: busiest link 1" \
	"$(awk '$1 == "shift" { print $4 }' "$SIM_DIR/load.out")" 1
# the tools follow OpenSM's configuration and what the plugin published,
# with no -O: live, offline given the config, and path's DLIDs
osm_client() { OSM_TMP_DIR=$SIM_DIR sim_client "$@"; }
t_expect "the plugin published its routing (engine, host order file)" \
	grep -q "^guid_routing_order_file $SIM_DIR/order.guids" "$SIM_DIR/ibunion-routing.dump"
t_expect "check --live, no -O: passes (cyclic rule in the file's order)" \
	osm_client "$IBUNION" check --live -q
t_grep "check --live says it follows OpenSM's last routing" \
	"OpenSM's last routing .*ibunion-routing.dump.*: cyclic, PGFT" "$SIM_DIR/cmd-$tap__count.out"
t_expect "check --config, no -O: passes" "$IBUNION" check -q \
	--config "$SIM_DIR/opensm.conf" "$SIM_DIR/view.ibnd" "$SIM_DIR/ord.lfts"
"$IBUNION" check -q "$SIM_DIR/view.ibnd" "$SIM_DIR/ord.lfts" >"$SIM_DIR/noconf.out" 2>&1
t_equal "without them the same check fails (the engine's own order)" "$?" 1
t_expect "path --config: the DLIDs of that run" "$IBUNION" path --config \
	"$SIM_DIR/opensm.conf" "$SIM_DIR/view.ibnd" --lids-from "$SIM_DIR/ord.lfts" \
	--format pairs -o "$SIM_DIR/ord.pairs"
"$IBUNION" path "$SIM_DIR/view.ibnd" --lids-from "$SIM_DIR/ord.lfts" \
	--format pairs -o "$SIM_DIR/own.pairs" 2>/dev/null
t_expect "path without them advises other DLIDs (the engine's own order)" \
	eval '! cmp -s "$SIM_DIR/own.pairs" "$SIM_DIR/ord.pairs"'
t_expect "path's DLIDs climb one chain per source (check --dlids)" \
	"$IBUNION" check -q --config "$SIM_DIR/opensm.conf" "$SIM_DIR/view.ibnd" \
	"$SIM_DIR/ord.lfts" --dlids "$SIM_DIR/ord.pairs"
# a file that interleaves leaves: kept together, with a warning note
awk 'BEGIN { srand(3) } { printf "%.9f %s\n", rand(), $0 }' "$SIM_DIR/order.guids" |
	sort -n | cut -d' ' -f2 >"$SIM_DIR/mixed.guids"
"$IBUNION" route "$SIM_DIR/view.ibnd" --lids-from "$SIM_DIR/ord.lfts" \
	-O guid_routing_order_file="$SIM_DIR/mixed.guids" -o /dev/null >"$SIM_DIR/mixed.out" 2>&1
t_grep "an interleaved order: hosts moved to keep sub-trees together, said as a warning" \
	"^-W- route: cyclic: host order: .* [1-9][0-9]* listed hosts moved .*interleaves sub-trees" \
	"$SIM_DIR/mixed.out"
# a bad file: logged, the engine's own order
sed '5s/.*/not-a-guid/' "$SIM_DIR/order.guids" >"$SIM_DIR/bad.guids"
sim_stop_opensm
mv "$SIM_DIR/osm.log" "$SIM_DIR/osm-ord.log"
sim_write_conf routing_engine cyclic,minhop lmc 4 \
	guid_routing_order_file "$SIM_DIR/bad.guids"
sim_start_opensm
sim_wait_subnet_up >/dev/null
t_grep "a bad order file: WRN 5A55 names file:line, cyclic still routes" \
	"WRN 5A55: cyclic: guid_routing_order_file not used: .*bad.guids:5: expected a port GUID" \
	"$SIM_DIR/osm.log"
# the dry run does what the plugin does with it: warns, routes in its order
t_expect "a bad order file: dump_lfts" sim_dump_lfts "$SIM_DIR/bad.lfts"
"$IBUNION" route "$SIM_DIR/view.ibnd" --lids-from "$SIM_DIR/bad.lfts" \
	-O guid_routing_order_file="$SIM_DIR/bad.guids" -o "$SIM_DIR/bad.expected" \
	>"$SIM_DIR/bad.out" 2>&1
t_equal "a bad order file: route exits 0, warns as WRN 5A55 (file:line)" \
	"$?:$(grep -c "^-W- ibunion route: guid_routing_order_file not used: .*bad.guids:5: expected a port GUID" "$SIM_DIR/bad.out")" "0:1"
t_expect "a bad order file: route computes what the switches hold" \
	"$IBUNION" diff --fabric "$SIM_DIR/view.ibnd" "$SIM_DIR/bad.expected" "$SIM_DIR/bad.lfts"
done_testing
