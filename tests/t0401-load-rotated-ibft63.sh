#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Issue 7's "done when" on IBFT(6,3) (m/2 = 3, not a power of two; 54 end
# ports; ports and records shuffled) at the paper's LMC (4), default plugin
# options, in one run: OpenSM's ftree (lmc 0) and the cyclic engine, tables
# read back with dump_lfts, measured with `ibunion load`.  With base LIDs
# (what the SA hands out) the cyclic tables load no link more than ftree
# does, for all-to-all and for every shift permutation; with the DLIDs
# `ibunion path` advises (--dlids cyclic) every shift is contention-free
# and all-to-all sits at the HCA bound (53).  With offsets=paper the
# base-LID all-to-all climbs one link per switch again (the measured
# base-DLID problem).
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 21

net=$SIM_DIR/ibft63.net
t_expect "ibunion gen fattree 6 3 --shuffle-ports --shuffle-records" \
	"$IBUNION" gen fattree 6 3 --shuffle-ports --shuffle-records --seed 63 -o "$net"

# col TABLE PATTERN DLIDS COLUMN (4 busiest, 5 busiest-sw, 8 unrouted)
col()
{
	awk -v p="$2" -v d="$3" -v c="$4" '$1 == p && $2 == d { print $c; exit }' "$1"
}

# bring ENGINE LMC TAG [OPTIONS]: fresh ibsim + opensm, $SIM_DIR/TAG.lfts
bring()
{
	rm -f "$SIM_DIR/osm.log"
	t_expect "$3: ibsim runs IBFT(6,3)" sim_start_ibsim "$net"
	sim_write_conf routing_engine "$1" lmc "$2" log_flags 0x07 \
		event_plugin_options "${4:--}"
	sim_start_opensm
	t_expect "$3: SUBNET UP" sim_wait_subnet_up
	t_expect "$3: dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/$3.lfts"
}

bring ftree 0 ftree
"$IBUNION" load -q "$net" "$SIM_DIR/ftree.lfts" --pattern all-to-all,shift \
	>"$SIM_DIR/ftree.load" 2>&1
t_equal "ftree: load runs, every message arrives" "$?" 0
diag "$(cat "$SIM_DIR/ftree.load")"
sim_stop_processes

bring cyclic,minhop 4 rotated
t_grep "the plugin routed it at LMC 4" "cyclic: IBFT\(6,3\): 45 switches, 54 end ports, LMC in use 4" \
	"$SIM_DIR/osm.log"
"$IBUNION" load -q "$net" "$SIM_DIR/rotated.lfts" --pattern all-to-all,shift \
	--dlids base,cyclic >"$SIM_DIR/rotated.load" 2>&1
t_equal "cyclic: load runs, every message arrives" "$?" 0
diag "$(cat "$SIM_DIR/rotated.load")"
f_a2a=$(col "$SIM_DIR/ftree.load" all-to-all base 4)
f_shift=$(col "$SIM_DIR/ftree.load" shift base 4)
t_expect "base LIDs, all-to-all: busiest link $(col "$SIM_DIR/rotated.load" all-to-all base 4) <= ftree's $f_a2a" \
	test "$(col "$SIM_DIR/rotated.load" all-to-all base 4)" -le "$f_a2a"
t_equal "base LIDs, all-to-all at the HCA bound" \
	"$(col "$SIM_DIR/rotated.load" all-to-all base 4)" 53
t_expect "base LIDs, worst shift: $(col "$SIM_DIR/rotated.load" shift base 4) <= ftree's $f_shift" \
	test "$(col "$SIM_DIR/rotated.load" shift base 4)" -le "$f_shift"
t_equal "base LIDs: every shift permutation at 1 per link" \
	"$(col "$SIM_DIR/rotated.load" shift base 4)" 1
t_equal "cyclic DLIDs: every shift at 1, all-to-all at 53" \
	"$(col "$SIM_DIR/rotated.load" shift cyclic 4):$(col "$SIM_DIR/rotated.load" all-to-all cyclic 4)" \
	"1:53"
sim_stop_processes

bring cyclic,minhop 4 paper offsets=paper
if "$IBUNION" check -q --cyclic --offsets paper "$net" "$SIM_DIR/paper.lfts" \
	>"$SIM_DIR/paper.check" 2>&1; then
	"$IBUNION" load -q "$net" "$SIM_DIR/paper.lfts" --offsets paper \
		--pattern all-to-all,shift --dlids base,cyclic >"$SIM_DIR/paper.load" 2>&1
	t_equal "offsets=paper: load runs, every message arrives" "$?" 0
	diag "$(cat "$SIM_DIR/paper.load")"
	t_expect "offsets=paper, base LIDs: all-to-all above the HCA bound (one up-link per switch)" \
		test "$(col "$SIM_DIR/paper.load" all-to-all base 4)" -gt 53
	t_equal "offsets=paper, cyclic DLIDs: every shift at 1" \
		"$(col "$SIM_DIR/paper.load" shift cyclic 4)" 1
else
	for what in "load runs" "base LIDs above the HCA bound" "cyclic DLIDs: shifts at 1"; do
		skip_test "offsets=paper: $what" \
			"the switches do not hold the paper's tables (plugin option offsets= not in effect)"
	done
fi
done_testing
