#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# OpenSM's root_guid_file on a PGFT (spine choice), in ibsim with
# real opensm: a 3-level PGFT with storage hosts on two top switches.
# From the end ports alone those tops look like leaves (an odd number of
# levels puts leaves and tops on the same side of the switch graph), so
# cyclic declines and says to name the tops in root_guid_file; with the
# file it routes the PGFT itself, the hosts on the tops counted above the
# leaves, and the switches hold exactly what `ibunion route -O
# root_guid_file=` computes on ibnetdiscover's view, which `ibunion check`
# passes.  A file that cannot be read is logged (WRN 5A56) and not used.
# The root file is written the way an admin knows the tops: here by the
# generator's names, read from ibnetdiscover (the engine never reads names).
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 17

net=$SIM_DIR/pgft.net
t_expect "ibunion gen pgft: 3 levels, 2 storage hosts on tops, shuffled" \
	"$IBUNION" gen pgft --m 4,4,3 --w 1,2,2 --p 1,1,1 --hosts-on-spines 2 \
	--shuffle-ports --shuffle-records --seed 14 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
t_expect "ibnetdiscover reads the fabric (no SM yet)" \
	sim_client ibnetdiscover "$SIM_DIR/pre.ibnd"
sed -n 's/^Switch[ \t]*[0-9]*[ \t]*"S-\([0-9a-fA-F]*\)".*# "sw3-.*/0x\1/p' \
	"$SIM_DIR/pre.ibnd" >"$SIM_DIR/roots.guids"
t_equal "the admin's root file lists the 4 top switches" \
	"$(wc -l <"$SIM_DIR/roots.guids")" 4

sim_write_conf routing_engine cyclic,minhop lmc 2 \
	root_guid_file "$SIM_DIR/roots.guids"
sim_start_opensm
t_expect "with root_guid_file: SUBNET UP" sim_wait_subnet_up
t_grep "cyclic configured the tables" \
	"cyclic tables configured on all switches" "$SIM_DIR/osm.log"
t_no_grep "no ERR 5Axx, no fallback" "ERR 5A|minhop tables configured" \
	"$SIM_DIR/osm.log"
t_grep "the summary names the PGFT and its 2 hosts above the leaves" \
	"cyclic: PGFT\(3; 4,4,3; 1,2,2; 1,1,1\): 22 switches, 50 end ports \(2 above the leaves\)" \
	"$SIM_DIR/osm.log"
t_expect "ibnetdiscover reads the routed fabric" \
	sim_client ibnetdiscover "$SIM_DIR/view.ibnd"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/roots.lfts"
t_expect "route -O root_guid_file on ibnetdiscover's view" "$IBUNION" route \
	"$SIM_DIR/view.ibnd" --lids-from "$SIM_DIR/roots.lfts" \
	-O root_guid_file="$SIM_DIR/roots.guids" -o "$SIM_DIR/roots.expected"
t_expect "the switches hold exactly what route computes" "$IBUNION" diff \
	--fabric "$SIM_DIR/view.ibnd" "$SIM_DIR/roots.expected" "$SIM_DIR/roots.lfts"
t_expect "ibunion check (the engine's rule, every pair, no loop)" \
	"$IBUNION" check -O root_guid_file="$SIM_DIR/roots.guids" \
	"$SIM_DIR/view.ibnd" "$SIM_DIR/roots.lfts"

# opensm starts a new log: keep each run's
sim_stop_opensm
mv "$SIM_DIR/osm.log" "$SIM_DIR/roots.log"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "without the file: SUBNET UP (the next engine)" sim_wait_subnet_up
cp "$SIM_DIR/osm.log" "$SIM_DIR/none.log"
t_grep "without the file: cyclic declines and names root_guid_file" \
	"ERR 5A01: cyclic: .*name those in OpenSM's root_guid_file" "$SIM_DIR/none.log"

sim_stop_opensm
mv "$SIM_DIR/osm.log" "$SIM_DIR/none.log"
printf '0x1\nnot-a-guid\n' >"$SIM_DIR/bad.guids"
sim_write_conf routing_engine cyclic,minhop lmc 2 root_guid_file "$SIM_DIR/bad.guids"
sim_start_opensm
t_expect "a bad root file: SUBNET UP" sim_wait_subnet_up
cp "$SIM_DIR/osm.log" "$SIM_DIR/bad.log"
t_grep "a bad root file: WRN 5A56 names file:line" \
	"WRN 5A56: cyclic: root_guid_file not used: .*bad.guids:2" "$SIM_DIR/bad.log"
done_testing
