#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A new engine is its own file plus one registry line: the test engine
# "pair" (tests/engine_pair.c, two switches joined by parallel links)
# built with tests/engine_registry_pair.c into the unchanged plugin
# (tests/libibunion_pair.so) and tool (tests/ibunion-pair) sources.  It
# goes through recognition, routing, its option (pair_spread=), its notes,
# the rule `ibunion check` verifies by default, multicast trees, the
# offline route, `path` advice and a `gen` shape, with no edit to plugin/
# or tools/.  The fabric is
# shuffled: names, ports, record order.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 27

PAIR=$top_builddir/tests/ibunion-pair
PLUGIN_DIR=$top_builddir/tests/.libs	# libibunion_pair.so
net=$SIM_DIR/pair.net
log=$SIM_DIR/osm.log
cat >"$net" <<'EOF'
Hca	1 "node-q"
[1]	"leaf-east"[8]

Hca	1 "node-m"
[1]	"core-west"[5]

Switch	8 "core-west"
[2]	"node-a"[1]
[7]	"leaf-east"[2]
[5]	"node-m"[1]
[1]	"leaf-east"[4]
[8]	"node-z"[1]
[3]	"leaf-east"[6]

Hca	1 "node-z"
[1]	"core-west"[8]

Switch	8 "leaf-east"
[4]	"core-west"[1]
[8]	"node-q"[1]
[6]	"core-west"[3]
[1]	"node-b"[1]
[2]	"core-west"[7]

Hca	1 "node-b"
[1]	"leaf-east"[1]

Hca	1 "node-a"
[1]	"core-west"[2]
EOF

t_expect "ibsim runs the switch pair" sim_start_ibsim "$net"
sim_write_conf event_plugin_name ibunion_pair routing_engine pair,minhop \
	lmc 1 log_flags 0x07 event_plugin_options pair_spread=first
sim_start_opensm
t_expect "opensm with the test plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the registration line lists the new engine's option from its table" \
	"routing engine 'pair' registered \(.*pair_spread=first\)" "$log"
t_grep "the pair engine routed the fabric (its own describe line)" \
	"pair: switch pair: 3 parallel links, (2 \+ 3|3 \+ 2) end ports, routed in" "$log"
t_grep "OpenSM took its tables" "pair tables configured on all switches" "$log"
t_no_grep "no ERR 5Axx from the plugin" "ERR 5A" "$log"

t_expect "dump_lfts reads both switches" sim_dump_lfts "$SIM_DIR/lfts.dump"
t_expect "check: the engine that recognises the fabric (pair) checks its rule" \
	"$PAIR" check -O pair_spread=first "$net" "$SIM_DIR/lfts.dump"
t_grep "check ran the pair rule" "0 pair mismatches" \
	"$SIM_DIR/cmd-$tap__count.out"
t_expect_code 1 "check with the other spread finds the entries that differ" \
	"$PAIR" check -q "$net" "$SIM_DIR/lfts.dump"
t_expect "the real tool (no pair engine): topology-free checks pass" \
	"$IBUNION" check -q "$net" "$SIM_DIR/lfts.dump"
t_expect "route: the dry run takes the plugin's option" \
	"$PAIR" route "$net" --lids-from "$SIM_DIR/lfts.dump" \
	-O pair_spread=first -o "$SIM_DIR/expected.lfts"
t_expect "the switches hold exactly what route computes" \
	"$IBUNION" diff --fabric "$net" "$SIM_DIR/expected.lfts" "$SIM_DIR/lfts.dump"

t_expect "load: the report labels links with the engine's labels" eval \
	"'$PAIR' load '$net' '$SIM_DIR/lfts.dump' --pattern all-to-all >'$SIM_DIR/load.out'"
t_grep "load: a link named by the pair engine's labels" \
	"busiest switch-to-switch link PAIR-[AB] '(leaf-east|core-west)'" "$SIM_DIR/load.out"
"$PAIR" options >"$SIM_DIR/options.out"
t_grep "options: the new engine's table is listed, under its name" \
	"pair_spread=lid\|first  \(pair; default lid\)" "$SIM_DIR/options.out"
# path and gen reach the new engine too: its advice, its shape
"$PAIR" path "$net" --lids-from "$SIM_DIR/lfts.dump" >"$SIM_DIR/path.out"
t_equal "path: every ordered pair of the 5 hosts, crossing at the engine's labels" \
	"$(grep -c "^node-.* PAIR-[AB] '" "$SIM_DIR/path.out")" 20
t_grep "path: the engine's own title" "^# pair\\(3\\), base LIDs" "$SIM_DIR/path.out"
t_expect "gen pair 3 2: the new engine's shape" \
	"$PAIR" gen pair 3 2 -o "$SIM_DIR/gen.net"
t_equal "the pair engine recognises what it generated: 4 hosts in its order" \
	"$("$PAIR" order "$SIM_DIR/gen.net" | wc -l)" 4
t_expect_code 2 "the real tool has no pair shape (usage error)" \
	"$IBUNION" gen pair 3 2 -o "$SIM_DIR/none.net"
t_expect "node-q, node-a, node-z join; node-b joins send-only" eval \
	"mc_join_all 9 node-q node-a node-z && mc_join 9 node-b --send-only"
mc_dump_check pair "$net"
mlid=$(mc_mlid 9)
t_grep "the plugin built the tree through the pair engine" \
	"pair: MLID $mlid: 4 members \(3 receive\), root PAIR-" "$log"
t_expect "mcast tree: the tool builds the trees offline through the same engine" \
	"$PAIR" mcast tree -O pair_spread=first -o "$SIM_DIR/expected.mfts" \
	"$net" "$MC_MEMBERS"
t_expect "the offline trees deliver one copy to every member" \
	"$IBUNION" check --mcast "$SIM_DIR/expected.mfts" --members "$MC_MEMBERS" "$net"
done_testing
