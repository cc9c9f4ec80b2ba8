#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# ibunion route and check on their own (no OpenSM): the dump streams from
# route into check through stdin ("-"), the progress line shows only when
# asked for (IBUNION_PROGRESS=always; a terminal otherwise), and a fabric
# too large for the LID space at the LMC asked for says which LMC fits.
. "$(dirname "$0")/sim.sh"
[ -x "$IBUNION" ] || bail_out "$IBUNION not built (top_builddir=$top_builddir)"
sim_setup
plan 9

net=$SIM_DIR/ft83.net
t_expect "ibunion gen fattree 8 3 --shuffle-ports" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --shuffle-records --seed 3 -o "$net"
t_expect "route --lmc 2 writes the dump" \
	"$IBUNION" route --lmc 2 "$net" -o "$SIM_DIR/ft83.lfts"
"$IBUNION" check -q "$net" "$SIM_DIR/ft83.lfts" >"$SIM_DIR/file.out" 2>&1
"$IBUNION" route --lmc 2 "$net" 2>/dev/null |
	"$IBUNION" check -q "$net" - >"$SIM_DIR/pipe.out" 2>&1
t_grep "check on the piped dump passes" \
	"^-I- check: 128 sources x 592 LIDs: 0 unreachable, 0 loops, 0 non-minimal" \
	"$SIM_DIR/pipe.out"
t_equal "check of the file and of the pipe agree" \
	"$(grep '^-I- check:' "$SIM_DIR/file.out")" "$(grep '^-I- check:' "$SIM_DIR/pipe.out")"
IBUNION_PROGRESS=always "$IBUNION" route --lmc 2 "$net" -o /dev/null 2>"$SIM_DIR/prog.err"
t_grep "IBUNION_PROGRESS=always: route shows its progress" \
	"ibunion route: writing tables 80/80 \(100%\)" "$SIM_DIR/prog.err"
"$IBUNION" route --lmc 2 "$net" -o /dev/null 2>"$SIM_DIR/quiet.err"
t_no_grep "stderr not a terminal: no progress line" "writing tables" "$SIM_DIR/quiet.err"
IBUNION_PROGRESS=always "$IBUNION" check -q "$net" "$SIM_DIR/ft83.lfts" \
	>/dev/null 2>"$SIM_DIR/cprog.err"
t_grep "IBUNION_PROGRESS=always: check shows its progress" \
	"ibunion check: checking LIDs [0-9]+/[0-9]+ \(100%\)" "$SIM_DIR/cprog.err"
"$IBUNION" gen fattree 16 3 -o "$SIM_DIR/ft163.net"
t_expect_code 3 "route --lmc 7 on IBFT(16,3) does not fit" \
	"$IBUNION" route --lmc 7 "$SIM_DIR/ft163.net" -o /dev/null
"$IBUNION" route --lmc 7 "$SIM_DIR/ft163.net" -o /dev/null 2>"$SIM_DIR/big.err"
t_grep "... and says which LMC fits" "the largest LMC that fits is [0-5]" \
	"$SIM_DIR/big.err"
done_testing
