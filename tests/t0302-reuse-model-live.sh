#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Issue 19, live: the callback keeps no copy of the tables and reuses its
# model on an unchanged subnet.  On a shuffled IBFT(4,3) at LMC 2 under
# ibsim + opensm (cyclic, force_heavy_sweep), a SIGHUP with nothing
# changed routes again with the last model (VERBOSE says so, the split
# line says "model reused"), and the switches hold the same tables; a cut
# cable is a changed subnet (no reuse, a degraded tree, tables equal to
# `ibunion route` on ibnetdiscover's view); the next SIGHUP reuses the
# degraded model; reuse_model=no never reuses.  Every sweep's split line
# says the tables were written in place.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 37

net=$SIM_DIR/ft43.net
reused="subnet unchanged since the last routing: its model is reused"

t_expect "ibunion gen fattree 4 3 (shuffled ports and records)" \
	"$IBUNION" gen fattree 4 3 --shuffle-ports --shuffle-records --seed 19 \
	-o "$net"
# a leaf's first switch-to-switch cable, from the graph alone
cable=$(awk '
/^(Switch|Hca|Ca)[ \t]/ {
	name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
	sw[name] = ($1 == "Switch"); n++; order[n] = name; next
}
/^\[[0-9]+\][ \t]*"/ {
	peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
	port = $1; gsub(/[][]/, "", port)
	k[name]++; pp[name, k[name]] = port; pn[name, k[name]] = peer
}
END {
	for (i = 1; i <= n; i++) {
		s = order[i]; leaf = 0; up = ""
		if (!sw[s]) continue
		for (j = 1; j <= k[s]; j++)
			if (!sw[pn[s, j]]) leaf = 1; else if (up == "") up = pp[s, j]
		if (leaf && up != "") { printf "\"%s\"[%s]\n", s, up; exit }
	}
}' "$net")
diag "cable to cut: $cable"
t_equal "a leaf's up-cable found from the graph" "$([ -n "$cable" ] && echo yes)" yes

t_expect "ibsim runs it, console open" sim_start_ibsim_console "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 force_heavy_sweep TRUE \
	log_flags 0x07
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_cyclic_holds "$net" first
t_grep "first sweep: tables written in place, model built" \
	"cyclic: callback split ms: .*\(written in place\); cpu" \
	"$SIM_DIR/osm.log"
t_no_grep "first sweep: nothing to reuse" "$reused" "$SIM_DIR/osm.log"

# sweep TAG: SIGHUP, wait, the sweep's log in $SIM_DIR/TAG.log, the
# switches' tables in TAG.lfts (2 assertions)
sweep()
{
	local mark

	mark=$(sim_log_mark)
	t_expect "$1: SIGHUP, SUBNET UP again" sim_resweep
	sim_log_since "$mark" >"$SIM_DIR/$1.log"
	t_expect "$1: dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/$1.lfts"
}

sweep same
t_grep "unchanged subnet: the model is reused" "$reused" "$SIM_DIR/same.log"
t_grep "unchanged subnet: the split says so" \
	"callback split ms: read .* recognise 0.000 plan 0.000 .*model reused" \
	"$SIM_DIR/same.log"
t_no_grep "unchanged subnet: no ERR 5Axx, no fallback" \
	"ERR 5A|minhop tables configured" "$SIM_DIR/same.log"
t_expect "unchanged subnet: the switches hold the same tables" \
	cmp "$SIM_DIR/first.lfts" "$SIM_DIR/same.lfts"

premark=$(sim_log_mark)
t_expect "ibsim: Unlink $cable" sim_ibsim_cmd "Unlink $cable"
sweep cut
# the cut's trap may sweep before the SIGHUP: the first sweep since the
# cut builds the model, later ones reuse it
sim_log_since "$premark" | grep -m 1 "callback split ms" >"$SIM_DIR/cut.split"
t_grep "cut cable: the first sweep after it builds the model again" \
	"\(written in place\); cpu" "$SIM_DIR/cut.split"
t_grep "cut cable: cyclic routed a degraded IBFT(4,3)" \
	"cyclic: IBFT\(4,3\): .*degraded: 1 faults" "$SIM_DIR/cut.log"
t_expect "cut cable: ibnetdiscover reads the fabric" \
	sim_client ibnetdiscover "$SIM_DIR/cut.ibnd"
t_expect "cut cable: ibunion route on ibnetdiscover's view" \
	"$IBUNION" route "$SIM_DIR/cut.ibnd" --lids-from "$SIM_DIR/cut.lfts" \
	-o "$SIM_DIR/cut.expected"
t_expect "cut cable: the switches hold exactly what ibunion route computes" \
	"$IBUNION" diff --fabric "$SIM_DIR/cut.ibnd" "$SIM_DIR/cut.expected" \
	"$SIM_DIR/cut.lfts"

sweep again
t_grep "cut, then unchanged: the degraded model is reused" "$reused" \
	"$SIM_DIR/again.log"
t_expect "cut, then unchanged: the same tables" \
	cmp "$SIM_DIR/cut.lfts" "$SIM_DIR/again.lfts"

sim_stop_opensm
mv "$SIM_DIR/osm.log" "$SIM_DIR/reuse.log"	# opensm starts a new log
sim_write_conf routing_engine cyclic,minhop lmc 2 force_heavy_sweep TRUE \
	log_flags 0x07 event_plugin_options reuse_model=no
sim_start_opensm
t_expect "reuse_model=no: SUBNET UP" sim_wait_subnet_up
sweep off
t_grep "reuse_model=no: the option is in force" "reuse_model=no" "$SIM_DIR/osm.log"
t_no_grep "reuse_model=no: never reused" "$reused" "$SIM_DIR/osm.log"
t_expect "reuse_model=no: the same tables as with reuse" \
	cmp "$SIM_DIR/again.lfts" "$SIM_DIR/off.lfts"

t_expect "opensm is still running" sim_opensm_alive
done_testing
