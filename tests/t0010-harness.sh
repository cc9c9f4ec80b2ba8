#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The harness itself, on OpenSM's built-in minhop engine (no plugin needed):
# it notices a dead ibsim and a dead opensm at once, brings up a fabric,
# reads the LFTs back, acts as a chosen HCA, and ends every process it
# started, also when the test is killed.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 14

net=$FIXTURES/2sw2path4hca.net

# --- failures are seen, not waited out
printf 'Switch 4 "a"\n[1] "nowhere"[1]\n' >"$SIM_DIR/bad.net"
start=$SECONDS
t_expect_code 1 "sim_start_ibsim fails on a broken net file" \
	sim_start_ibsim "$SIM_DIR/bad.net"
t_expect "... and says so within 10 s" test $((SECONDS - start)) -lt 10

t_expect "ibsim starts on $(basename "$net")" sim_start_ibsim "$net"
sim_write_conf event_plugin_name - routing_engine minhop lmc 2
sim_start_opensm --no-such-option
start=$SECONDS
t_expect_code 1 "sim_wait_subnet_up fails when opensm exits" sim_wait_subnet_up
t_expect "... within 10 s" test $((SECONDS - start)) -lt 10

# --- a real run
sim_start_opensm
t_expect "minhop, lmc 2: SUBNET UP" sim_wait_subnet_up
t_grep "log names the engine used" "minhop tables configured" "$SIM_DIR/osm.log"
t_expect "dump_lfts through umad2sim" sim_dump_lfts "$SIM_DIR/lfts.dump"
# 2 switches x (2 switch LIDs + 4 HCAs x 4 LIDs)
t_equal "every switch routes all 18 LIDs" \
	"$(grep -c ' valid lids dumped' "$SIM_DIR/lfts.dump"):$(grep -c '^18 valid lids dumped' "$SIM_DIR/lfts.dump")" "2:2"
t_equal "lmc 2: each HCA port owns 4 LIDs, routed on both switches" \
	"$(grep -c 'path #4 out of 4' "$SIM_DIR/lfts.dump")" 8

# ibsim's GUIDs: CA node guid from 0x100000 step nports+1, port guid +1
SIM_HOST=Hca3 sim_client smpquery -D nodeinfo 0 >"$SIM_DIR/ni.txt" 2>&1
t_grep "SIM_HOST=Hca3 acts as Hca3" "PortGuid:\.*0x0*100007$" "$SIM_DIR/ni.txt"

# --- teardown
pids="$IBSIM_PID $OPENSM_PID"
sim_stop_processes
alive=
for p in $pids; do sim__alive "$p" && alive="$alive $p"; done
t_equal "sim_stop_processes ends ibsim and opensm" "$alive" ""

# a test killed while its fabric is up still ends everything it started
cat >"$SIM_DIR/victim.sh" <<VICTIM
. "$top_srcdir/tests/sim.sh"
sim_setup
sim_start_ibsim "$net" || exit 1
sim_write_conf event_plugin_name - routing_engine minhop
sim_start_opensm
sim_wait_subnet_up || exit 1
echo "\$IBSIM_PID \$OPENSM_PID \$SIM_DIR" >"$SIM_DIR/victim.pids"
while :; do sleep 0.2; done
VICTIM
TMPDIR=$SIM_DIR bash "$SIM_DIR/victim.sh" >"$SIM_DIR/victim.out" 2>&1 &
victim=$!
SIM_PIDS+=("$victim")
sim_wait_for "victim up" 60 "$victim" test -s "$SIM_DIR/victim.pids"
read -r vib vosm vdir <"$SIM_DIR/victim.pids"
kill -TERM "$victim"
sim_wait_for "victim gone" 15 "" eval '! sim__alive '"$victim"
wait "$victim"
rc=$?
alive=
for p in $vib $vosm; do sim__alive "$p" && alive="$alive $p"; done
t_equal "SIGTERM to a test: exits 143, its ibsim and opensm are gone" \
	"$rc:$alive" "143:"
t_no_grep "... and leaves no umad2sim sys-* dir" . \
	<(ls -d "$vdir"/sys-* "$vdir"/clients/*/sys-* 2>/dev/null)
done_testing
