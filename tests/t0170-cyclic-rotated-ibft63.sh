#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Destination-rotated offsets, the default: shuffled IBFT(6,3) (m/2 = 3 is
# not a power of two; 9 paths need LMC 4, 16 LIDs per port) under opensm
# with default plugin options.  The switches hold the rotated rule (and not
# the paper's Eq. 2), `ibunion path --format pairs` gives one line per
# ordered pair of end ports, and those DLIDs give every source one climbing
# chain (`check --dlids`); a damaged pairs file is bad input (exit 3).
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 22

net=$SIM_DIR/ibft63.net
dump=$SIM_DIR/ibft63.lfts
pairs=$SIM_DIR/ibft63.pairs
# hexawk PROGRAM FILE: awk with hex("0x..") (mawk has no strtonum)
hexawk()
{
	awk '
	function hex(s,   i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	'"$1" "$2"
}
t_expect "ibunion gen fattree 6 3 --shuffle-ports --shuffle-records" \
	"$IBUNION" gen fattree 6 3 --shuffle-ports --shuffle-records --seed 11 -o "$net"
t_expect "ibsim runs the shuffled IBFT(6,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 4
sim_start_opensm
t_expect "opensm with the plugin (default options): SUBNET UP" sim_wait_subnet_up
t_grep "the plugin recognised IBFT(6,3), LMC 4" \
	"cyclic: IBFT\(6,3\): 45 switches, 54 end ports, LMC in use 4 \(paper needs 4\)" \
	"$SIM_DIR/osm.log"
t_grep "offsets=rotated is the default" \
	"routing engine 'cyclic' registered \(.*offsets=rotated.*\)" "$SIM_DIR/osm.log"
t_cyclic_holds "$net" ibft63
t_expect_code 1 "the switches do not hold the paper's Eq. 2 (check --offsets paper fails)" \
	"$IBUNION" check "$net" "$dump" --cyclic --offsets paper -q --max-errors 1
t_expect "ibunion path --format pairs" \
	"$IBUNION" path "$net" --lids-from "$dump" --format pairs -o "$pairs"
t_equal "one line per ordered pair of end ports (54 x 53)" \
	"$(wc -l <"$pairs")" 2862
t_equal "every line is '0xSLID 0xDLID'" \
	"$(grep -cvE '^0x[0-9a-f]{4} 0x[0-9a-f]{4}$' "$pairs")" 0
t_equal "each ordered pair once" \
	"$(hexawk '{ print $1, int(hex($2) / 16) }' "$pairs" | sort -u | wc -l)" 2862
t_expect "check --cyclic --dlids: those DLIDs give every source one climbing chain" \
	"$IBUNION" check "$net" "$dump" --cyclic --dlids "$pairs"
t_grep "  ... on the given DLIDs, 2 of 2 levels" \
	"share one ascending path on the given DLIDs \(54 sources, 2 of 2 (up )?levels" \
	"$SIM_DIR/cmd-$tap__count.out"
# every source on its destinations' base LIDs (what SA hands out) does not
# climb one chain: the check sees the difference
hexawk '{ printf "%s 0x%04x\n", $1, int(hex($2) / 16) * 16 }' "$pairs" >"$SIM_DIR/base.pairs"
t_expect_code 1 "base DLIDs instead: sources climb more than one chain" \
	"$IBUNION" check "$net" "$dump" --cyclic --dlids "$SIM_DIR/base.pairs" -q --max-errors 1
sed '7s/.*/0x0010 0xzz/' "$pairs" >"$SIM_DIR/bad.pairs"
t_expect_code 3 "a malformed pairs line is bad input (exit 3)" \
	"$IBUNION" check "$net" "$dump" --cyclic --dlids "$SIM_DIR/bad.pairs"
t_grep "  ... named by file:line" "bad.pairs:7: bad DLID" "$SIM_DIR/cmd-$tap__count.out"
t_expect "ibunion path --from/--to: the readable table" \
	"$IBUNION" path "$net" --lids-from "$dump" --from hca-0.0.0 --to hca-5.2.2
done_testing
