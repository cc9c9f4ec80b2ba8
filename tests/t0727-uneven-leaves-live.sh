#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A 2-level tree whose leaves' hosts do not divide over their up-cables,
# live: PGFT(2; 8,11; 1,3; 1,2), what PGFT(2; 8,12; 1,4; 1,2) is after
# losing a spine and a leaf (the random league's seed 29 r57; ports and
# records shuffled).  It is recognised intact, with 8 hosts a leaf on 6
# up-cables; D-mod-K alone sent two hosts' traffic down one cable (all-
# to-all 160, updn 120).  Under ibsim + opensm (routing_engine
# cyclic,minhop) the summary says the last 2 hosts of each leaf are
# rotated by the source leaf; the switches' tables are read back: the
# all-to-all's busiest link is at the bound of whole destinations, 8
# hosts x ceil(80 / 6 up-cables) = 112 (the cuts alone: 106.7), as
# `ibunion load` reports it, the worst shift in host
# order at most 3 (dfsssp's), and the tables are the engine's rule (check
# --cyclic: one climbing chain per source), minimal, without credit loop.
. "$(dirname "$0")/sim.sh"
sim_require

net=${TMPDIR:-/tmp}/t0727.$$.net
"$IBUNION" gen pgft --m 8,11 --w 1,3 --p 1,2 --seed 7 --shuffle-ports \
	--shuffle-records -o "$net" || exit 1
sim_setup
mv "$net" "$SIM_DIR/pgft.net"
net=$SIM_DIR/pgft.net
ibnd=$SIM_DIR/pgft.ibnd
plan 12

t_expect "ibsim runs PGFT(2; 8,11; 1,3; 1,2)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 0
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_grep "the summary names the uneven leaves and their rotation" \
	"cyclic: PGFT\(2; 8,11; 1,3; 1,2\): .*uneven: 8 hosts a leaf on 6 up-cables, the last 2's up-slots rotated by the source leaf" \
	"$SIM_DIR/osm.log"
t_expect "ibnetdiscover reads the fabric" sim_client ibnetdiscover "$ibnd"
t_cyclic_holds "$ibnd" uneven
"$IBUNION" load "$ibnd" "$SIM_DIR/uneven.lfts" --pattern all-to-all,shift \
	>"$SIM_DIR/load.txt" 2>&1
a2a=$(awk '$1 == "all-to-all" && $2 == "base" { print $4 }' "$SIM_DIR/load.txt")
shift=$(awk '$1 == "shift" && $2 == "base" { print $4 }' "$SIM_DIR/load.txt")
bound=$(sed -n 's/^-I- all-to-all base: lower bound of the busiest link for any tables: \([0-9.]*\) .*/\1/p' "$SIM_DIR/load.txt")
t_expect "all-to-all busiest link $a2a at the bound ${bound:-?} = 112 (D-mod-K alone: 160)" \
	test "${a2a:-999}:${bound:-?}" = 112:112
t_expect "worst shift $shift <= 3" test "${shift:-999}" -le 3
diag_file "$SIM_DIR/load.txt" 4
done_testing
