#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# t0320 on a PGFT: opensm with the plugin under valgrind (memcheck) on a
# shuffled PGFT(2; 4,4; 1,2; 1,2) with two hosts on the spines (one of
# them a group member): the PGFT recognition, the generalised routing, the
# PGFT multicast trees, a leave, a SIGHUP re-sweep and a clean SIGTERM
# exit. Valgrind must report no error with a libibunion frame, and no
# definite leak at all (the plugin is unloaded before valgrind prints its
# stacks, so a plugin leak shows as '???' frames: t0320's frame filter
# cannot see it; a leak of the route stage's tables did exactly that).
# Skipped (77) without valgrind, opensm, ibsim or libumad2sim.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
: "${VALGRIND:=$(command -v valgrind)}"
[ -n "$VALGRIND" ] && [ -x "$VALGRIND" ] || skip_all "valgrind not installed"
SIM_TIMEOUT=${SIM_TIMEOUT_VALGRIND:-300}
sim_setup
plan 16

vglog=$SIM_DIR/valgrind.log
SIM_OPENSM_WRAP="$VALGRIND --trace-children=yes --log-file=$vglog
	--suppressions=$top_srcdir/tests/valgrind.supp --num-callers=40
	--leak-check=full --show-leak-kinds=definite,possible
	--errors-for-leak-kinds=definite,possible --track-fds=no"
export SIM_OPENSM_WRAP

net=$SIM_DIR/pgft.net
t_expect "gen pgft" "$IBUNION" gen pgft --m 4,4 --w 1,2 --p 1,2 --radix 12 --hosts-on-spines 2 --shuffle-ports --shuffle-records -o "$net"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 1 log_flags 0x07
sim_start_opensm
t_expect "opensm + plugin under valgrind: SUBNET UP" sim_wait_subnet_up
t_grep "the cyclic engine routed" 'cyclic: PGFT' "$SIM_DIR/osm.log"

t_expect "4 ports join MGID 1" mc_join_all 1 hca-0.0 hca-1.1 hca-2.2 spine-hca-0
t_expect "3 ports join MGID 2, one send-only" \
	eval 'mc_join_all 2 hca-0.1 hca-3.1 && mc_join 2 hca-2.3 --send-only'
t_expect "one port leaves MGID 1" mc_leave 1 hca-1.1
mc_dump_check joined "$net"

rerouted() { [ "$(grep -c 'cyclic: PGFT' "$SIM_DIR/osm.log")" -ge 2 ]; }
kill -HUP "$OPENSM_PID"
t_expect "SIGHUP: opensm routes again" sim_wait_for "a second routing" "$SIM_TIMEOUT" "$OPENSM_PID" rerouted
mc_dump_check resweep "$net"

# a clean exit, so valgrind checks for leaks
kill -TERM "$OPENSM_PID" 2>/dev/null
gone() { ! sim__alive "$OPENSM_PID"; }
t_expect "opensm exits on SIGTERM" sim_wait_for "opensm to exit" "$SIM_TIMEOUT" "" gone
wait "$OPENSM_PID" 2>/dev/null
t_grep "valgrind finished (ERROR SUMMARY written)" 'ERROR SUMMARY' "$vglog"

sim_valgrind_ours "$vglog"
t_no_grep "no definite leak (plugin frames are unnamed after dlclose)" \
	'definitely lost: [1-9]' "$vglog"
done_testing
