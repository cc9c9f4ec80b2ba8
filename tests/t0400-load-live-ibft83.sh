#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# `ibunion load` on what a live (simulated) IBFT(8,3) holds, ports shuffled:
# OpenSM's ftree (lmc 0) and the cyclic engine (lmc 4), tables read back
# with dump_lfts / dump_mfts.  Real outcomes: base-LID all-to-all under
# ftree sits at the HCA bound (127 messages on the busiest link) and the
# cyclic engine's (default, destination-rotated) tables do no worse with
# base LIDs, for all-to-all and every shift; cyclic DLIDs make every shift
# permutation contention-free (1 per link) and all-to-all HCA-bound; a
# live multicast group reaches every receiver and crosses fewer links than
# the same messages by unicast (which load a sender's link 11 times); bad
# input is refused with file:line and exit 3; the SVG draws every cable.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 33

net=$SIM_DIR/ibft83.net
t_expect "ibunion gen fattree 8 3 --shuffle-ports" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --shuffle-records --seed 11 -o "$net"

# col TABLE PATTERN DLIDS COLUMN: a cell of ibunion load's table
# (3 messages, 4 busiest, 5 busiest-sw, 6 traversals, 7 time-us, 8 unrouted)
col()
{
	awk -v p="$2" -v d="$3" -v c="$4" '$1 == p && $2 == d { print $c; exit }' "$1"
}

# bring ENGINE LMC TAG: fresh ibsim + opensm, LFTs into $SIM_DIR/TAG.lfts
bring()
{
	rm -f "$SIM_DIR/osm.log"
	t_expect "$3: ibsim runs IBFT(8,3)" sim_start_ibsim "$net"
	sim_write_conf routing_engine "$1" lmc "$2" log_flags 0x07
	sim_start_opensm
	t_expect "$3: SUBNET UP" sim_wait_subnet_up
	t_expect "$3: dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/$3.lfts"
}

# ---- OpenSM's ftree, lmc 0
bring ftree 0 ftree
t_grep "ftree routed it" "ftree tables configured on all switches" "$SIM_DIR/osm.log"
t_expect "ftree: load all-to-all and shifts, base LIDs" eval \
	"'$IBUNION' load '$net' '$SIM_DIR/ftree.lfts' --pattern all-to-all,shift --dlids base >'$SIM_DIR/ftree.load'"
diag "$(cat "$SIM_DIR/ftree.load" | grep -v '^-I- .*busiest')"
t_equal "ftree, base all-to-all: busiest link 127 (the HCA bound), 16256 messages all delivered" \
	"$(col "$SIM_DIR/ftree.load" all-to-all base 4):$(col "$SIM_DIR/ftree.load" all-to-all base 3):$(col "$SIM_DIR/ftree.load" all-to-all base 8)" \
	"127:16256:0"
sim_stop_processes

# ---- the cyclic engine, lmc 4 (the paper's LMC)
bring cyclic,minhop 4 cyclic
t_grep "the plugin routed it" "cyclic: IBFT\(8,3\): 80 switches, 128 end ports, LMC in use 4" \
	"$SIM_DIR/osm.log"
t_expect "cyclic: load all-to-all and every shift, base/pairs/cyclic DLIDs" eval \
	"'$IBUNION' load '$net' '$SIM_DIR/cyclic.lfts' --pattern all-to-all,shift --dlids base,pairs,cyclic --svg '$SIM_DIR/cyclic.svg' >'$SIM_DIR/cyclic.load'"
diag "$(grep -v '^-I- .*busiest' "$SIM_DIR/cyclic.load")"
t_equal "cyclic DLIDs: every one of the 127 shift permutations loads each link at most once" \
	"$(col "$SIM_DIR/cyclic.load" shift cyclic 4):$(col "$SIM_DIR/cyclic.load" shift cyclic 3):$(col "$SIM_DIR/cyclic.load" shift cyclic 8)" \
	"1:16256:0"
t_equal "cyclic DLIDs: all-to-all at the HCA bound (127)" \
	"$(col "$SIM_DIR/cyclic.load" all-to-all cyclic 4)" 127
t_expect "base LIDs (the SA's), all-to-all: busiest link <= ftree's in this run" \
	test "$(col "$SIM_DIR/cyclic.load" all-to-all base 4)" -le "$(col "$SIM_DIR/ftree.load" all-to-all base 4)"
t_expect "base LIDs, every shift: busiest link <= ftree's worst shift" \
	test "$(col "$SIM_DIR/cyclic.load" shift base 4)" -le "$(col "$SIM_DIR/ftree.load" shift base 4)"
t_expect "pairs (offset k to k): all-to-all at the HCA bound too" \
	test "$(col "$SIM_DIR/cyclic.load" all-to-all pairs 4)" = 127
t_expect "the SVG is complete: 384 cables drawn, the file closed with </svg>" eval \
	"test \"\$(grep -c '<line ' '$SIM_DIR/cyclic.svg'):\$(tail -n 1 '$SIM_DIR/cyclic.svg')\" = '384:</svg>'"
t_equal "the SVG names all 208 nodes and 4 rows, against the bound B = 127" \
	"$(grep -c '<text transform=' "$SIM_DIR/cyclic.svg"):$(grep -c '>\(level [0-9]\|end ports\)' "$SIM_DIR/cyclic.svg"):$(grep -c 'against B = 127,' "$SIM_DIR/cyclic.svg")" \
	"208:4:1"
# two dumps with other LIDs (lmc 0 and 4) side by side: each column as
# the dump alone gives it
t_expect "load of ftree.lfts and cyclic.lfts in one table" eval \
	"'$IBUNION' load -q '$net' '$SIM_DIR/ftree.lfts' '$SIM_DIR/cyclic.lfts' --pattern all-to-all,shift,ebb:20 >'$SIM_DIR/both.load'"
diag_file "$SIM_DIR/both.load" 20
t_equal "one column per dump, the figures of each dump alone; eBB in (0, 1]" \
	"$(awk '$1 == "pattern" { print $4, $5 } $3 == "busiest" && $1 != "ebb:20" { print $1, $4, $5 }
		$1 == "ebb:20" && $3 == "flow-bw" { print ($4 > 0 && $4 <= 1 && $5 > 0 && $5 <= 1) }' "$SIM_DIR/both.load" | paste -sd';')" \
	"ftree cyclic;all-to-all $(col "$SIM_DIR/ftree.load" all-to-all base 4) $(col "$SIM_DIR/cyclic.load" all-to-all base 4);shift $(col "$SIM_DIR/ftree.load" shift base 4) $(col "$SIM_DIR/cyclic.load" shift base 4);1"
t_equal "eBB is an estimate: each column's 95% half-width above 0, the second's bw-diff its flow-bw less the first's (to the rounding), diff-ci95 only for it" \
	"$(awk '$1 == "ebb:20" && $3 == "flow-bw" { a = $4; b = $5 }
		$1 == "ebb:20" && $3 == "bw-ci95" { c = $4 > 0 && $5 > 0 }
		$1 == "ebb:20" && $3 == "bw-diff" { d = $4 == "-" && ($5 - (b - a)) ^ 2 < 1.21e-8 }
		$1 == "ebb:20" && $3 == "diff-ci95" { h = $4 == "-" && $5 > 0 }
		END { print c d h }' "$SIM_DIR/both.load")" \
	111
# an optimal load is green: every cable's colour has more green than red
# (two lower-case hex digits compare as strings)
t_equal "all-to-all at the bound: no cable drawn yellow, orange or red" \
	"$(grep -o '<line [^>]*stroke="#[0-9a-f]*"' "$SIM_DIR/cyclic.svg" |
		sed 's/.*stroke="#\(..\)\(..\).*/\1 \2/' |
		awk '{ if (($1 "") >= ($2 "")) bad++ } END { print NR ":" bad + 0 }')" \
	"384:0"

# ---- a live multicast group: 13 ports (10%), the last two send-only
mapfile -t hcas < <(mc_hcas "$net")
mapfile -t g10 < <(printf '%s\n' "${hcas[@]}" | mc_pick 400 13)
t_expect "11 full members and 2 send-only members join MGID 0x10" eval \
	'mc_join_all 0x10 "${g10[@]:0:11}" && mc_join 0x10 "${g10[11]}" --send-only && mc_join 0x10 "${g10[12]}" --send-only'
mc_dump_check group "$net"
t_expect "load: the group's senders by multicast and by unicast" eval \
	"'$IBUNION' load '$net' '$SIM_DIR/cyclic.lfts' --mcast '$SIM_DIR/group.mfts' --members '$MC_MEMBERS' --pattern groups,groups-ucast >'$SIM_DIR/group.load'"
diag "$(grep -v '^-I- .*busiest' "$SIM_DIR/group.load")"
t_equal "multicast: 2 packets, each receiver got its copies" \
	"$(col "$SIM_DIR/group.load" groups - 3):$(col "$SIM_DIR/group.load" groups - 8)" "2:0"
t_expect "multicast crosses fewer links than the same messages by unicast" \
	test "$(col "$SIM_DIR/group.load" groups - 6)" -lt "$(col "$SIM_DIR/group.load" groups-ucast base 6)"
t_equal "unicast: 2 x 11 messages, a sender's link carries 11" \
	"$(col "$SIM_DIR/group.load" groups-ucast base 3):$(col "$SIM_DIR/group.load" groups-ucast base 4)" \
	"22:11"

# ---- bad input
sed '9a this is not a dump line' "$SIM_DIR/cyclic.lfts" >"$SIM_DIR/garbage.lfts"
"$IBUNION" load "$net" "$SIM_DIR/garbage.lfts" --pattern all-to-all >"$SIM_DIR/garbage.out" 2>&1
t_equal "a garbage dump line: exit 3, file:line named" \
	"$?:$(grep -c "garbage.lfts:10: " "$SIM_DIR/garbage.out")" "3:1"
printf '0xc001 no-such-node full\n' >"$SIM_DIR/bad.members"
"$IBUNION" load "$net" "$SIM_DIR/cyclic.lfts" --mcast "$SIM_DIR/group.mfts" \
	--members "$SIM_DIR/bad.members" --pattern groups >"$SIM_DIR/badm.out" 2>&1
t_equal "an unknown member: exit 3, file:line named" \
	"$?:$(grep -c "bad.members:1: " "$SIM_DIR/badm.out")" "3:1"
t_expect_code 2 "an unknown pattern is a usage error" \
	"$IBUNION" load "$net" "$SIM_DIR/cyclic.lfts" --pattern everything
done_testing
