#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# `ibunion check` and `ibunion diff` on what a live (simulated) fabric holds:
# IBFT(4,3) with shuffled ports, OpenSM's minhop at LMC 1 (no plugin).
# The switches' tables (dump_lfts) pass check against the net file and
# against ibnetdiscover's view, equal OpenSM's own opensm-lfts.dump, are not
# the paper's cyclic tables, and a planted fault or a damaged dump is caught.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 13

net=$SIM_DIR/ft43.net
live=$SIM_DIR/live.lfts
t_expect "ibunion gen fattree 4 3 --shuffle-ports" \
	"$IBUNION" gen fattree 4 3 --shuffle-ports --shuffle-records --seed 5 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf event_plugin_name - routing_engine minhop lmc 1 log_flags 0x43
sim_start_opensm
t_expect "opensm minhop: SUBNET UP" sim_wait_subnet_up
t_expect "dump_lfts reads every switch" sim_dump_lfts "$live"

t_expect "check passes on the live tables" \
	"$IBUNION" check --engine none "$net" "$live"
"$IBUNION" check --engine none -q "$net" "$live" >"$SIM_DIR/summary" 2>&1
t_grep "summary: 16 sources x 52 LIDs, nothing wrong" \
	"^-I- check: 16 sources x 52 LIDs: 0 unreachable, 0 loops, 0 non-minimal \(hops:" \
	"$SIM_DIR/summary"

t_expect "ibnetdiscover saves the fabric" \
	sim_client ibnetdiscover "$SIM_DIR/live.ibnd"
t_expect "check passes against ibnetdiscover's view" \
	"$IBUNION" check --engine none "$SIM_DIR/live.ibnd" "$live"

sim_wait_for "opensm-lfts.dump" "$SIM_TIMEOUT" "$OPENSM_PID" \
	grep -q "lids dumped" "$SIM_DIR/opensm-lfts.dump"
t_expect "the switches hold what OpenSM says it programmed" \
	"$IBUNION" diff "$live" "$SIM_DIR/opensm-lfts.dump"

t_expect_code 1 "minhop is not the paper's cyclic routing (check --cyclic)" \
	"$IBUNION" check --cyclic --max-errors 2 "$net" "$live"

# a switch keeps a LID it does not own: the first routed entry -> port 0
awk '!done && /^0x[0-9a-f]+ 00[1-9] :/ { sub(/ 00[1-9] :/, " 000 :"); done = 1 } 1' \
	"$live" >"$SIM_DIR/fault.lfts"
t_expect_code 1 "a planted port-0 entry is an unreachable route" \
	"$IBUNION" check --engine none "$net" "$SIM_DIR/fault.lfts"

sed '7a this is not a dump line' "$live" >"$SIM_DIR/garbage.lfts"
"$IBUNION" check "$net" "$SIM_DIR/garbage.lfts" >"$SIM_DIR/garbage.out" 2>&1
t_equal "a garbage line: exit 3, file:line named" \
	"$?:$(grep -c "garbage.lfts:8: not an LFT dump line" "$SIM_DIR/garbage.out")" "3:1"

head -n 40 "$live" >"$SIM_DIR/cut.lfts"
t_expect_code 3 "a truncated dump is refused" \
	"$IBUNION" check "$net" "$SIM_DIR/cut.lfts"
done_testing
