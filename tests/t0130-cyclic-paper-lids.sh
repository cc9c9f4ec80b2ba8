#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The paper's LID sets: `ibunion lids` writes guid2lid into OSM_CACHE_DIR
# before opensm starts, and OpenSM honours it.  The paper numbers P(p)'s set
# 2^LMC * PID + 1 .. + 2^LMC - 1 (P(300): 49..52), but OpenSM accepts only
# base LIDs aligned to 2^LMC, so `ibunion lids` shifts every set by one:
# 2^LMC * (PID + 1) .. (P(300): 52..55, in the same order).  The cyclic
# tables hold on those LIDs.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 13

net=$SIM_DIR/ibft43.net
t_expect "ibunion gen fattree 4 3" "$IBUNION" gen fattree 4 3 -o "$net"
t_expect "ibunion lids --lmc 2 writes guid2lid into OSM_CACHE_DIR" \
	"$IBUNION" lids "$net" --lmc 2 -o "$SIM_DIR/guid2lid"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_cyclic_holds "$net" paper

# On every switch the line of a CA's base LID names the port,
# "0xLLLL ppp : (Channel Adapter portguid G: 'hca-a.b.c')", the other LIDs of
# its set say "(path #k out of 4: portguid G)".  `ibunion gen` names end port
# P(p0 p1 p2) hca-p0.p1.p2, so in IBFT(4,3) its PID is 4 p0 + 2 p1 + p2.
# lid_table: "LID(decimal) portguid name" for each LID of the first switch.
lid_table()
{
	awk '
	function hex(s,   i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^Unicast lids/ { n++ }
	n == 1 && /^0x[0-9a-fA-F]+ / {
		g = $0; sub(/.*portguid /, "", g); sub(/[:)].*/, "", g)
		name = "-"
		if ($0 ~ /'"'"'/) { name = $0; sub(/^[^'"'"']*'"'"'/, "", name); sub(/'"'"'.*/, "", name) }
		print hex($1), g, name
	}' "$SIM_DIR/paper.lfts"
}
lid_table >"$SIM_DIR/paper.lids"
t_equal "P(300) (hca-3.0.0) has BaseLID 52 (paper's 49..52, one set up)" \
	"$(awk '$3 == "hca-3.0.0" { print $1 }' "$SIM_DIR/paper.lids")" 52
t_equal "LIDs 52..55 all lead to that one CA port" \
	"$(awk '$1 >= 52 && $1 <= 55 { print $2 }' "$SIM_DIR/paper.lids" | sort | uniq -c | awk '{ print $1 }')" 4
t_equal "all 16 end ports P(p) have BaseLID 4*(PID+1)" "$(awk '
	$3 ~ /^hca-/ {
		split(substr($3, 5), d, ".")
		want = 4 * (4 * d[1] + 2 * d[2] + d[3] + 1)
		if ($1 != want) { printf "%s has %d, not %d; ", $3, $1, want; bad = 1 }
		cas++
	}
	END { if (cas != 16) printf "%d CA ports, not 16", cas; else if (!bad) print "ok" }' \
	"$SIM_DIR/paper.lids")" ok
done_testing
