#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# `ibunion --live` on IBFT(8,3) (ports and records shuffled) routed by the
# plugin (cyclic, LMC 2) with two joined multicast groups: `check --live`
# (unicast + multicast + deadlock, one command) gives the same verdict and
# the same figures as the dump-file pipeline (ibnetdiscover + dump_lfts +
# dump_mfts + the members the joins printed); `diff --live` against
# dump_lfts shows no difference; `trace --live` agrees with ibtracert on 20
# pairs; a planted LFT fault is seen live; the reading times of both ways
# are printed.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 19

net=$SIM_DIR/ibft83.net
t_expect "ibunion gen fattree 8 3 --shuffle-ports --shuffle-records" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --shuffle-records --seed 85 -o "$net"
t_expect "ibsim runs IBFT(8,3)" sim_start_ibsim "$net"
# qos TRUE: OpenSM programs the SL2VL tables and (log flag 0x40) dumps them
sim_write_conf routing_engine cyclic,minhop lmc 2 qos TRUE log_flags 0x43
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up

mapfile -t hcas < <(mc_hcas "$net")
mapfile -t g1 < <(printf '%s\n' "${hcas[@]}" | mc_pick 851 12)
mapfile -t g2 < <(printf '%s\n' "${hcas[@]}" | mc_pick 852 20)
t_expect "12 ports join MGID 0x51 (the last send-only), 20 join MGID 0x52" \
	eval 'mc_join_all 0x51 "${g1[@]:0:11}" && mc_join 0x51 "${g1[11]}" --send-only && mc_join_all 0x52 "${g2[@]}"'
for ((i = 0; i < 40; i++)); do	# OpenSM answers joins before it pushes MFTs
	mc__settled "$SIM_DIR/settle.mfts" "$net" && break
	sleep 0.25
done

# the dump-file pipeline
sim_client ibnetdiscover "$SIM_DIR/fabric.ibnd" >/dev/null 2>&1 &&
	sim_dump_lfts "$SIM_DIR/lfts" && sim_dump_mfts "$SIM_DIR/mfts"
files_rc=$?
t_equal "ibnetdiscover + dump_lfts + dump_mfts read the fabric" "$files_rc" 0

# normalise the file names away: the figures must be the same
norm() { sed -E 's#[^ ]*/[^ :,]*#FILE#g' "$1"; }

"$IBUNION" check --cyclic --deadlock --mcast "$SIM_DIR/mfts" \
	--members "$MC_MEMBERS" --sl2vl "$SIM_DIR/opensm-sl2vl.dump" \
	"$SIM_DIR/fabric.ibnd" "$SIM_DIR/lfts" \
	>"$SIM_DIR/files.out" 2>&1
files_verdict=$?
sim_client "$IBUNION" check --live --cyclic --deadlock >"$SIM_DIR/live.out" \
	2>"$SIM_DIR/live.err"
live_verdict=$?
t_equal "check on the files passes (unicast, multicast, deadlock)" "$files_verdict" 0
t_equal "check --live passes too, in one command" "$live_verdict" 0
t_equal "check --live prints the same figures as the files' check" \
	"$(diff <(norm "$SIM_DIR/files.out") <(norm "$SIM_DIR/live.out") | head -n 20)" ""
t_grep "check --live checked both groups" \
	"^-I- .*2 MLIDs" "$SIM_DIR/live.out"
t_grep "the live reader saw 2 MLIDs and 32 SA member records" \
	"^-I- live: 208 nodes \(80 switches, 128 end ports\).*, 2 MLIDs, 32 MCMemberRecords" \
	"$SIM_DIR/live.err"

# reading times, live vs the three tools, each the best of 3 interleaved
# runs (the machine is shared: the best run is the least disturbed one)
sim_client "$IBUNION" route --live -o "$SIM_DIR/route.lfts" 2>"$SIM_DIR/read.err"
live_read=$(sed -n 's/.*read in \([0-9.]*\) s$/\1/p' "$SIM_DIR/read.err")
best_files=99 best_live=99
for r in 1 2 3; do
	t0=$(date +%s.%N)
	sim_client ibnetdiscover "$SIM_DIR/t.ibnd" >/dev/null 2>&1
	sim_client dump_lfts >/dev/null 2>&1
	sim_client dump_mfts >/dev/null 2>&1
	t1=$(date +%s.%N)
	sim_client "$IBUNION" check --live -q >/dev/null 2>"$SIM_DIR/read2.err"
	t2=$(date +%s.%N)
	best_files=$(awk -v a="$t0" -v b="$t1" -v m="$best_files" 'BEGIN { d = b - a; printf "%.3f", d < m ? d : m }')
	best_live=$(awk -v a="$t1" -v b="$t2" -v m="$best_live" 'BEGIN { d = b - a; printf "%.3f", d < m ? d : m }')
done
live_read_mft=$(sed -n 's/.*read in \([0-9.]*\) s$/\1/p' "$SIM_DIR/read2.err")
diag "reading IBFT(8,3) LMC 2, best of 3: ibnetdiscover + dump_lfts + dump_mfts ${best_files} s;" \
	"ibunion check --live (read + checks, whole command) ${best_live} s;" \
	"of which reading topology + LFTs + MFTs + members ${live_read_mft} s; topology + LFTs alone ${live_read} s"
t_expect "check --live, reading and checking, is no slower than the three tools reading" \
	awk -v l="$best_live" -v f="$best_files" 'BEGIN { exit !(l <= f * 1.2 + 0.1) }'
t_expect "route --live: the dry run equals what the switches hold" \
	"$IBUNION" diff -q "$SIM_DIR/route.lfts" "$SIM_DIR/lfts"

"$IBUNION" load "$SIM_DIR/fabric.ibnd" "$SIM_DIR/lfts" --pattern shift,groups \
	--mcast "$SIM_DIR/mfts" --members "$MC_MEMBERS" >"$SIM_DIR/load.files" 2>&1
sim_client "$IBUNION" load --live --pattern shift,groups >"$SIM_DIR/load.live" 2>/dev/null
# (the table; the -I- lines name one of the links that tie for busiest,
# which depends on the order the fabric's records came in)
t_equal "load --live: the same link loads as load on the files (shift, the groups)" \
	"$(diff <(grep -v '^-I-' "$SIM_DIR/load.files") <(grep -v '^-I-' "$SIM_DIR/load.live") | head -n 10):$(grep -c '^shift\|^groups' "$SIM_DIR/load.live")" ":2"
"$IBUNION" path "$SIM_DIR/fabric.ibnd" --lids-from "$SIM_DIR/lfts" --format pairs >"$SIM_DIR/path.files" 2>/dev/null
sim_client "$IBUNION" path --live --format pairs >"$SIM_DIR/path.live" 2>/dev/null
t_equal "path --live: the same cyclic DLIDs as path on the files" \
	"$(cmp "$SIM_DIR/path.files" "$SIM_DIR/path.live" 2>&1)" ""

t_expect "diff --live against dump_lfts: no difference" \
	sim_client "$IBUNION" diff --live "$SIM_DIR/lfts"
t_expect "-C and -P select the port as in infiniband-diags" \
	sim_client "$IBUNION" diff -C ibsim0 -P 1 -q "$SIM_DIR/lfts"

# trace vs ibtracert, 20 pairs of end-port LIDs (base and non-base LIDs)
mapfile -t lids < <(awk '/Channel Adapter portguid/ { print $1 }' "$SIM_DIR/lfts" |
	while read -r x; do echo $((x)); done | sort -un |
	awk 'NR == 1 || $1 >= prev + 4 { print; prev = $1 }')	# base LIDs
pairs=0 same=0
: >"$SIM_DIR/trace.diff"
# ibtracert's lines (From, every hop with GUID, ports, LIDs and name, To)
hops() { grep -E '^(From|To) |^\[[0-9]+\] -> '; }
while read -r s d; do
	pairs=$((pairs + 1)) ls=$s ld=$d
	a=$(sim_client ibtracert "$s" "$d" 2>&1 | hops)
	b=$(sim_client "$IBUNION" trace --live --live-save "$SIM_DIR/snap" "$s" "$d" 2>"$SIM_DIR/trace.err" | hops)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		same=$((same + 1))
	else
		{ echo "== $s -> $d"; diff <(echo "$a") <(echo "$b"); } >>"$SIM_DIR/trace.diff"
	fi
done < <(awk -v n=${#lids[@]} 'BEGIN { srand(850); for (i = 0; i < 20; i++) print int(rand() * n), int(rand() * n) }' |
	while read -r i j; do echo "${lids[$i]} $((${lids[$j]} + j % 4))"; done)
diag_file "$SIM_DIR/trace.diff" 20
t_equal "trace --live agrees with ibtracert on 20 pairs" "$same/$pairs" "20/20"
t_expect "trace from the saved files agrees as well (last pair)" \
	test "$("$IBUNION" trace "$SIM_DIR/snap/fabric.ibnd-cache" "$SIM_DIR/snap/lfts.dump" "$ls" "$ld" | hops)" = "$b"

# diff --live sees a table that is not what the switches hold
awk '!done && /^0x[0-9a-f]+ 00[1-9] :/ { sub(/ 00[1-9] :/, " 000 :"); done = 1 } 1' \
	"$SIM_DIR/lfts" >"$SIM_DIR/fault.lfts"
t_expect_code 1 "diff --live against a changed dump: the entry differs (exit 1)" \
	sim_client "$IBUNION" diff --live -q "$SIM_DIR/fault.lfts"
done_testing
