#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# cyclic on real-life fat trees in ibsim with real opensm, at the LMC the
# scheme needs: PGFT_ARGS (default: 2 levels, 8 hosts per leaf, 6 leaves,
# 2 cables from every leaf to each of 4 spines, ports and records
# shuffled). OpenSM routes with cyclic itself (no fallback, no ERR 5Axx,
# no fault line), the switches' tables pass check --cyclic (the
# generalised rule) and equal what `ibunion route` computes from the
# fabric file and from ibnetdiscover's view; a group joined through SA is
# exact for every member as sender and, with unicast, free of credit loops;
# base-LID all-to-all loads no link above its bound PGFT_A2A (N-1 when not
# blocking) and shift permutations in the engine's host order (what
# `ibunion order` prints; load walks end ports in that order) no link
# above 1 (not blocking).
# t0711 runs the same on a 3-level tree with 3 of 8 pods.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 21

: "${PGFT_ARGS:=--m 8,6 --w 1,4 --p 1,2}"
: "${PGFT_NAME:=PGFT\(2; 8,6; 1,4; 1,2\): 10 switches, 48 end ports, LMC in use 3 \(needs 3\)}"
: "${PGFT_LMC:=3}"
: "${PGFT_A2A:=47}"
net=$SIM_DIR/pgft.net
# shellcheck disable=SC2086
t_expect "ibunion gen pgft $PGFT_ARGS, shuffled" "$IBUNION" gen pgft $PGFT_ARGS \
	--shuffle-ports --shuffle-records --seed 5 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc "$PGFT_LMC"
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_grep "the summary names the PGFT" "cyclic: $PGFT_NAME" "$SIM_DIR/osm.log"
t_no_grep "no fault line for the planned shape" "WRN 5A5|degraded" "$SIM_DIR/osm.log"
t_cyclic_holds "$net" pgft
t_expect "ibnetdiscover reads the fabric" sim_client ibnetdiscover "$SIM_DIR/pgft.ibnd"
t_expect "route on ibnetdiscover's view" "$IBUNION" route "$SIM_DIR/pgft.ibnd" \
	--lids-from "$SIM_DIR/pgft.lfts" -o "$SIM_DIR/ibnd.expected"
t_expect "ibnetdiscover's view predicts the switches exactly" \
	"$IBUNION" diff --fabric "$net" "$SIM_DIR/ibnd.expected" "$SIM_DIR/pgft.lfts"
mapfile -t hosts < <(mc_hcas "$net" | mc_pick 7 6)
t_expect "6 hosts join MGID 1" mc_join_all 1 "${hosts[@]}"
mc_dump_check pgft "$net"
t_expect "unicast + multicast: no credit loop" "$IBUNION" check -q --deadlock \
	--mcast "$SIM_DIR/pgft.mfts" --members "$MC_MEMBERS" "$net" "$SIM_DIR/pgft.lfts"
"$IBUNION" load -q "$net" "$SIM_DIR/pgft.lfts" --pattern all-to-all,shift \
	>"$SIM_DIR/load.out" 2>&1
t_equal "base-LID all-to-all: busiest link at the bound" \
	"$(awk '$1 == "all-to-all" { print $4 }' "$SIM_DIR/load.out")" "$PGFT_A2A"
t_equal "base-LID shift permutations in host order: busiest link 1" \
	"$(awk '$1 == "shift" { print $4 }' "$SIM_DIR/load.out")" 1
"$IBUNION" order "$net" >"$SIM_DIR/order.txt" 2>&1
t_equal "ibunion-host-order.dump in the dump directory: the order ibunion order prints" \
	"$(cut -d' ' -f3- "$SIM_DIR/ibunion-host-order.dump" 2>&1 | md5sum)" \
	"$(md5sum <"$SIM_DIR/order.txt")"
done_testing
