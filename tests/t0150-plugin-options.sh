#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# event_plugin_options: good options are taken and logged; bad ones are
# logged (ERR 5A21 bad value, ERR 5A22 not key=value, WRN 5A20 unknown key),
# the defaults are kept, and opensm still comes up on the cyclic engine.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 13

net=$SIM_DIR/ibft43.net
log=$SIM_DIR/osm.log
t_expect "ibunion gen fattree 4 3" "$IBUNION" gen fattree 4 3 -o "$net"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"

# good options
sim_write_conf routing_engine cyclic,minhop lmc 2 \
	event_plugin_options "mcast_apex=source verbose=1"
sim_start_opensm
t_expect "good options: SUBNET UP" sim_wait_subnet_up
t_grep "good options: taken, as the registration line shows" \
	"routing engine 'cyclic' registered \(mcast_apex=source verbose=1 lid_matrices=none reuse_model=yes vl_plan=1 max_faults=default offsets=rotated uneven=rotate turns=own-vl\)" "$log"
t_no_grep "good options: no option complaint" "5A2[0-9]" "$log"
t_grep "good options: cyclic tables configured" \
	"cyclic tables configured on all switches" "$log"
sim_stop_opensm
mv "$log" "$SIM_DIR/osm-good.log"

# bad options: a bad value, an unknown key, a word that is not key=value
sim_write_conf routing_engine cyclic,minhop lmc 2 \
	event_plugin_options "mcast_apex=nowhere bogus=1 junk,verbose=2 ofsets=paper"
sim_start_opensm
t_expect "bad options: opensm survives, SUBNET UP" sim_wait_subnet_up
t_grep "bad value logged (ERR 5A21)" "ERR 5A21: .*'mcast_apex=nowhere'" "$log"
t_grep "unknown key logged (WRN 5A20)" "WRN 5A20: .*'bogus=1'" "$log"
t_grep "misspelt key: did you mean the nearest key" \
	"WRN 5A20: .*'ofsets=paper' ignored; did you mean 'offsets'" "$log"
t_grep "word without '=' logged (ERR 5A22)" "ERR 5A22: .*'junk'" "$log"
t_grep "defaults kept" \
	"routing engine 'cyclic' registered \(mcast_apex=compact verbose=0 lid_matrices=none reuse_model=yes vl_plan=1 max_faults=default offsets=rotated uneven=rotate turns=own-vl\)" "$log"
t_grep "bad options: cyclic tables configured all the same" \
	"cyclic tables configured on all switches" "$log"
done_testing
