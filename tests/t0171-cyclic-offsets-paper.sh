#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# event_plugin_options offsets=paper: the paper's Eq. 2 exactly, as before
# destination-rotated offsets became the default.  IBFT(4,3), lmc 2, the
# paper's LID sets (one set up, LMC-aligned) through guid2lid: P(200) owns
# 36..39 (the paper's 33..36) and P(000) reaches it through path Q of
# Fig. 6 on its first LID: up-ports 3, 3, 3 then down 3, 1.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 15

net=$SIM_DIR/ibft43.net
dump=$SIM_DIR/paper.lfts
t_expect "ibunion gen fattree 4 3" "$IBUNION" gen fattree 4 3 -o "$net"
t_expect "ibunion lids --lmc 2 writes guid2lid into OSM_CACHE_DIR" \
	"$IBUNION" lids "$net" --lmc 2 -o "$SIM_DIR/guid2lid"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 event_plugin_options offsets=paper
sim_start_opensm
t_expect "opensm with offsets=paper: SUBNET UP" sim_wait_subnet_up
t_grep "the option is taken" \
	"routing engine 'cyclic' registered \(.*offsets=paper.*\)" "$SIM_DIR/osm.log"
t_grep "OpenSM configured the cyclic tables" \
	"cyclic tables configured on all switches" "$SIM_DIR/osm.log"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$dump"
t_expect "check --cyclic --offsets paper passes" \
	"$IBUNION" check "$net" "$dump" --cyclic --offsets paper
t_expect_code 1 "the default (rotated) rule does not describe these tables" \
	"$IBUNION" check "$net" "$dump" --cyclic -q --max-errors 1
t_expect "ibunion route --offsets paper" \
	"$IBUNION" route "$net" --lids-from "$dump" --offsets paper -o "$SIM_DIR/paper.expected"
t_expect "the switches hold exactly the paper's tables" \
	"$IBUNION" diff --fabric "$net" "$SIM_DIR/paper.expected" "$dump"

# port of LID $2 on the switch named $1 (unshuffled: physical = paper port)
lft_port()
{
	awk -v sw="($1):" -v lid="$2" '
	function hex(s,   i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^Unicast lids/ { on = index($0, sw) > 0; next }
	on && $1 ~ /^0x/ && hex($1) == lid { print $2 + 0; exit }' "$dump"
}
# Eq. 2: at a leaf (level 2) offset digit 0 picks up-port 3 + digit, at
# level 1 digit 1; the base LID always takes port 3
t_equal "leaf SW<00,2> sends LIDs 36..39 of P(200) up ports 3 4 3 4" \
	"$(for l in 36 37 38 39; do lft_port sw2-0.0 $l; done | xargs)" "3 4 3 4"
t_equal "SW<00,1> sends them up ports 3 3 4 4" \
	"$(for l in 36 37 38 39; do lft_port sw1-0.0 $l; done | xargs)" "3 3 4 4"
t_equal "path Q: top SW<00,0> down port 3, SW<20,1> port 1, SW<20,2> port 1" \
	"$(lft_port sw0-0.0 36) $(lft_port sw1-2.0 36) $(lft_port sw2-2.0 36)" "3 1 1"
t_expect "ibunion path --offsets paper: P(000) -> P(200) on DLID 36, its base LID (the paper's 33)" \
	grep -qx "0x0004 0x0024" <("$IBUNION" path "$net" --lids-from "$dump" \
		--offsets paper --format pairs)
done_testing
