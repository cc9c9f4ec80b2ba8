#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Pairs one down-up turn cannot join, live: PGFT(3; 4,4,4; 1,2,2; 1,1,1)
# with 4 cut cables and a middle switch gone (the random league's seed 29
# r65; ports and records shuffled).  Two pods reach disjoint halves of the
# tops, and a leaf of one of them lost the parent toward its half: its
# hosts reach the other pod only with two turns.  Under ibsim + opensm
# (routing_engine cyclic,minhop) cyclic routes it itself, that leaf
# through a sibling leaf's turn (it used to leave 448 end-port pairs
# without a route); the switches' tables are read back: every end port
# reaches every other, the tables equal what `ibunion route` computes
# from ibnetdiscover's view, and unicast is free of credit loops on one
# VL.
. "$(dirname "$0")/sim.sh"
sim_require

net=${TMPDIR:-/tmp}/t0726.$$.net
"$IBUNION" gen pgft --m 4,4,4 --w 1,2,2 --p 1,1,1 --remove-links 4 \
	--remove-switches 1 --seed 69414 --shuffle-ports --shuffle-records \
	-o "$net" || exit 1
# the SM and the clients on an HCA with a cable
SIM_HOST=$(sim_cabled_hca "$net")
export SIM_HOST
sim_setup
mv "$net" "$SIM_DIR/pgft.net"
net=$SIM_DIR/pgft.net
ibnd=$SIM_DIR/pgft.ibnd
live=$SIM_DIR/pgft.lfts
plan 9

t_expect "ibsim runs the PGFT with 4 cut cables and a switch gone" \
	sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 0
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_no_grep "cyclic routes it: no ERR 5Axx, no fallback" \
	"ERR 5A|minhop tables configured" "$SIM_DIR/osm.log"
t_grep "the summary counts the leaves that turn twice" \
	"cyclic: PGFT\(3; 4,4,4; 1,2,2; 1,1,1\): .* turned once, at one switch per LID, [1-9][0-9]* of them twice" \
	"$SIM_DIR/osm.log"
t_expect "ibnetdiscover reads the fabric" sim_client ibnetdiscover "$ibnd"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$live"
"$IBUNION" load "$ibnd" "$live" --pattern all-to-all >"$SIM_DIR/load.txt" 2>&1
t_equal "every end port reaches every other (all-to-all: 0 unrouted; was 448)" \
	"$(awk '$1 == "all-to-all" && $2 == "base" { print $8 }' "$SIM_DIR/load.txt")" 0
t_expect "the switches hold exactly what route computes" \
	sh -c '"$1" route "$2" --lids-from "$3" -o "$4" && "$1" diff --fabric "$2" "$4" "$3"' \
	sh "$IBUNION" "$ibnd" "$live" "$SIM_DIR/pgft.expected"
"$IBUNION" check --updown --deadlock "$ibnd" "$live" >"$SIM_DIR/check.txt" 2>&1
t_equal "check --updown --deadlock: exit 0, no loop, minimal, one VL without a credit loop" \
	"$?:$(grep -c ' 0 unreachable, 0 loops, 0 non-minimal' "$SIM_DIR/check.txt"):$(grep -c 'free of credit loops' "$SIM_DIR/check.txt")" \
	"0:1:1"
diag_file "$SIM_DIR/check.txt" 3
done_testing
