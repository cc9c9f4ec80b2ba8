#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The live reader reads every LFT entry up to LinearFDBTop, also when the
# top is a multiple of 64 (an 8x8 mesh with one host per switch: LIDs
# 1..128, top 0x80, the first LID of a new block): `check --live` passes
# and every switch's live table holds LID 0x80 (how many of them dump_lfts
# printed is shown, not judged: infiniband-diags' dump_lfts stops one LID
# short of such a top). Then the live options' errors: a CA that does not
# exist, a bad port number, a missing value (exit 3, 2, 2, the reason
# named). Before any SM runs, reading goes by directed routes.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 12

net=$SIM_DIR/mesh.net
t_expect "ibunion gen mesh 8 8 --shuffle-ports" \
	"$IBUNION" gen mesh 8 8 --shuffle-ports --seed 852 -o "$net"
t_expect "ibsim runs the mesh" sim_start_ibsim "$net"

# before any SM: discovery and SMPs go by directed route
sim_client "$IBUNION" check --live -q >"$SIM_DIR/nosm" 2>&1
t_equal "no SM yet: check --live says no switch holds an LFT entry (exit 3)" \
	"$?:$(grep -c "live: no switch holds an LFT entry (no subnet manager has routed this fabric yet?)" "$SIM_DIR/nosm")" "3:1"
t_expect "no SM yet: route --live computes the tables from the discovered graph" \
	eval "sim_client '$IBUNION' route --live --lmc 0 -o '$SIM_DIR/nosm.lfts' 2>/dev/null && grep -q '^128 valid lids dumped' '$SIM_DIR/nosm.lfts'"

sim_write_conf routing_engine xy,minhop lmc 0 log_flags 0x03
sim_start_opensm
t_expect "opensm with xy: SUBNET UP" sim_wait_subnet_up

t_expect "check --live --xy passes" \
	sim_client "$IBUNION" check --live --live-save "$SIM_DIR/snap" --xy -q
t_equal "the live tables end at LID 0x80 = LinearFDBTop" \
	"$(sed -n 's/^Unicast lids \[0x0-\(0x[0-9a-f]*\)\].*/\1/p' "$SIM_DIR/snap/lfts.dump" | sort -u)" "0x80"
t_equal "every one of the 64 switches holds an entry for LID 0x80" \
	"$(grep -c '^0x0080 ' "$SIM_DIR/snap/lfts.dump")" 64
sim_dump_lfts "$SIM_DIR/lfts" &&
	diag "dump_lfts printed LID 0x80 for $(grep -c '^0x0080 ' "$SIM_DIR/lfts") of 64 switches"

mkdir "$SIM_DIR/tmp"
TMPDIR=$SIM_DIR/tmp sim_client "$IBUNION" check --live -q >/dev/null 2>&1
TMPDIR=$SIM_DIR/tmp sim_client "$IBUNION" check --live -C no-such-ca -q >"$SIM_DIR/e1" 2>&1
t_equal "-C no-such-ca: exit 3, the CA named" \
	"$?:$(grep -c "ibunion check: live: discovery from no-such-ca port 0 failed" "$SIM_DIR/e1")" "3:1"
sim_client "$IBUNION" diff -P 1x "$SIM_DIR/lfts" >"$SIM_DIR/e2" 2>&1
t_equal "-P 1x: exit 2, the value named" \
	"$?:$(grep -c "ibunion diff: -P must be an integer in 0..254, not '1x'" "$SIM_DIR/e2")" "2:1"
"$IBUNION" trace hca-0.0.0 hca-1.1.0 --live-save >"$SIM_DIR/e3" 2>&1
t_equal "--live-save without DIR: exit 2" \
	"$?:$(grep -c "ibunion trace: --live-save needs a value" "$SIM_DIR/e3")" "2:1"
t_equal "no temporary snapshot is left behind (after a run and a failure)" \
	"$(ls -A "$SIM_DIR/tmp")" ""
done_testing
