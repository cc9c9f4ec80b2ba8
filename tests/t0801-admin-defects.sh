#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Issue 16's small defects, each as an admin meets it:
#  - `ibunion lids` names the recognised fabric (IBFT(4,3), 3 x 5 mesh), not
#    the engine's family "IBFT(m,n)";
#  - `ibunion mcast check` errors say "ibunion mcast check:";
#  - `saquery -m --smkey 1` output, read live from opensm's SA after joins,
#    is a members file for check --mcast (and without --smkey, whose
#    records hide the members, a clear error);
#  - the admin guide's ibsim recipe keeps ibsim's console, and the fault
#    commands it lists are accepted by ibsim's console on its fabric.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 45

# ---- lids names the fabric
net=$SIM_DIR/ibft43.net
t_expect "ibunion gen fattree 4 3 (shuffled)" "$IBUNION" gen fattree 4 3 \
	--shuffle-ports --shuffle-records --seed 16 -o "$net"
"$IBUNION" lids "$net" --lmc 2 -o "$SIM_DIR/guid2lid" 2>"$SIM_DIR/lids.err"
diag_file "$SIM_DIR/lids.err" 3
t_expect "lids --lmc 2 names IBFT(4,3), not IBFT(m,n)" \
	eval "grep -q '^-I- lids: IBFT(4,3): 16 end ports and 20 switches at LMC 2' '$SIM_DIR/lids.err' &&
	      ! grep -q 'IBFT(m,n)' '$SIM_DIR/lids.err'"
"$IBUNION" gen mesh 3 5 --shuffle-ports --shuffle-records --seed 16 -o "$SIM_DIR/m35.net"
"$IBUNION" lids "$SIM_DIR/m35.net" -o /dev/null 2>"$SIM_DIR/lids-mesh.err"
diag_file "$SIM_DIR/lids-mesh.err" 3
t_grep "lids on a mesh names its size" "^-I- lids: 3 x 5 mesh: 15 end ports" \
	"$SIM_DIR/lids-mesh.err"

# ---- a live fabric: joins, the MFTs, saquery -m
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
t_expect "joins: 3 ports in MGID 1 (one send-only)" \
	eval 'mc_join_all 1 hca-0.0.0 hca-2.1.0 && mc_join 1 hca-3.1.1 --send-only'
mc_dump_check one "$net"	# 2 assertions (waits for the MFTs)

# ---- mcast check's errors are its own
printf '0xc001 no-such-node\n' >"$SIM_DIR/bad.members"
"$IBUNION" mcast check "$net" "$SIM_DIR/one.mfts" --members "$SIM_DIR/bad.members" \
	>/dev/null 2>"$SIM_DIR/mcast-check.err"
diag_file "$SIM_DIR/mcast-check.err" 3
t_grep "mcast check errors are prefixed 'ibunion mcast check:'" \
	"^-E- ibunion mcast check: .*bad.members:1: no port GUID or node named 'no-such-node'" \
	"$SIM_DIR/mcast-check.err"

# sa_members TAG MFTS: check --mcast with the members file TAG.members
# that saquery wrote passes, with the flood figures of the members file
# the joins wrote (who receives, who only sends).  2 assertions.
sa_members()
{
	"$IBUNION" check --mcast "$2" --members "$MC_MEMBERS" "$net" \
		>"$SIM_DIR/$1.joins.out" 2>&1
	t_expect "$1: check --mcast --members takes the saquery output" \
		"$IBUNION" check --mcast "$2" --members "$SIM_DIR/$1.members" "$net"
	"$IBUNION" check --mcast "$2" --members "$SIM_DIR/$1.members" "$net" \
		>"$SIM_DIR/$1.out" 2>&1
	t_expect "$1: same flood figures as with the members the joins wrote" \
		eval "grep -q '^-I- mcast check: [1-9]' '$SIM_DIR/$1.out' &&
		      diff <(grep '^-I- mcast check:' '$SIM_DIR/$1.out') \
			<(grep '^-I- mcast check:' '$SIM_DIR/$1.joins.out')"
}

SIM_HOST=hca-0.0.0 sim_client saquery -m --smkey 1 >"$SIM_DIR/saq-m.members" \
	2>"$SIM_DIR/saquery.err"
diag_file "$SIM_DIR/saq-m.members" 7
t_equal "saquery -m --smkey 1 lists the 3 members" \
	"$(grep -c '^MCMemberRecord member dump:' "$SIM_DIR/saq-m.members")" 3
sa_members saq-m "$SIM_DIR/one.mfts"

# A second group.  An SA answer longer than one MAD (3 MCMemberRecords)
# needs RMPP, of which saquery gets only the first segment through ibsim:
# one `saquery MCMR --mlid` per group.
t_expect "joins: 2 ports in MGID 2" mc_join_all 2 hca-1.0.1 hca-1.1.0
mc_dump_check two "$net"
: >"$SIM_DIR/saq-mcmr.members"
for g in 1 2; do
	SIM_HOST=hca-0.0.0 sim_client saquery MCMR --smkey 1 --mlid "$(mc_mlid $g)" \
		>>"$SIM_DIR/saq-mcmr.members" 2>>"$SIM_DIR/saquery.err"
done
t_equal "saquery MCMR --smkey 1 --mlid, per group, lists the 5 members" \
	"$(grep -c '^MCMember Record dump:' "$SIM_DIR/saq-mcmr.members")" 5
sa_members saq-mcmr "$SIM_DIR/two.mfts"

SIM_HOST=hca-0.0.0 sim_client saquery -m >"$SIM_DIR/saquery-nokey.members" 2>/dev/null
t_expect_code 3 "saquery -m without --smkey (members hidden): exit 3" \
	"$IBUNION" mcast check "$net" "$SIM_DIR/two.mfts" \
	--members "$SIM_DIR/saquery-nokey.members"
"$IBUNION" mcast check "$net" "$SIM_DIR/two.mfts" \
	--members "$SIM_DIR/saquery-nokey.members" >/dev/null 2>"$SIM_DIR/nokey.err"
t_grep "...saying to use --smkey" "saquery-nokey.members:[0-9]+: .*--smkey" "$SIM_DIR/nokey.err"

# ---- diff compares MFT dumps (before and after the second group)
t_expect "diff of an MFT dump with itself: identical" \
	"$IBUNION" diff "$SIM_DIR/two.mfts" "$SIM_DIR/two.mfts"
t_expect_code 1 "diff of the MFTs before/after MGID 2: exit 1" \
	"$IBUNION" diff "$SIM_DIR/one.mfts" "$SIM_DIR/two.mfts"
"$IBUNION" diff --fabric "$net" "$SIM_DIR/one.mfts" "$SIM_DIR/two.mfts" >"$SIM_DIR/mft.diff"
diag_file "$SIM_DIR/mft.diff" 4
mlid2=$(mc_mlid 2)
t_expect "...only MGID 2's MLID $mlid2 differs, from no port to some" \
	eval "grep -q \"MLIDs differ: $mlid2 {-}->{[0-9,]*} (1)\$\" '$SIM_DIR/mft.diff' &&
	      ! grep -q '$(mc_mlid 1)' '$SIM_DIR/mft.diff' &&
	      grep -q '^-I- diff: [1-9][0-9]* of 20 switches differ in [1-9][0-9]* MLIDs' '$SIM_DIR/mft.diff'"

# ---- --from/--to take a name, a port GUID, a node GUID or a LID
t_expect "ibnetdiscover of the live fabric" sim_client ibnetdiscover "$SIM_DIR/live.ibnd"
t_expect "dump_lfts of the live fabric" sim_dump_lfts "$SIM_DIR/live.lfts"
# hca-3.1.1's node GUID ("Ca ... H-<guid>" line) and port GUID ("[1](<guid>)")
ng=$(sed -nE 's/^Ca[ \t]+[0-9]+[ \t]+"H-([0-9a-f]+)".*# "hca-3\.1\.1".*/0x\1/p' "$SIM_DIR/live.ibnd")
pg=$(awk -v ng="${ng#0x}" '/^Ca/ { on = index($0, "H-" ng) > 0 }
	on && /^\[1\]\(/ { sub(/^\[1\]\(/, ""); sub(/\).*/, ""); print "0x" $0; exit }' \
	"$SIM_DIR/live.ibnd")
[ -n "$pg" ] && pg=$(printf '0x%016x' "$pg")
# its base LID as the dump shows it ("0xLID PORT : (Channel Adapter portguid 0x..: 'hca-3.1.1')")
lid=$(grep -m1 -i "portguid $pg" "$SIM_DIR/live.lfts" | awk '{ print $1 }')
diag "hca-3.1.1: node GUID $ng, port GUID $pg, base LID $lid"
path_to()
{
	"$IBUNION" path "$SIM_DIR/live.ibnd" --lids-from "$SIM_DIR/live.lfts" \
		--format pairs --from hca-0.0.1 --to "$1"
}
path_to hca-3.1.1 >"$SIM_DIR/to-name.pairs"
same_pair()
{
	path_to "$1" >"$SIM_DIR/to.pairs" && [ -s "$SIM_DIR/to.pairs" ] &&
		cmp -s "$SIM_DIR/to.pairs" "$SIM_DIR/to-name.pairs"
}
t_expect "path --to: the port GUID $pg names hca-3.1.1" same_pair "$pg"
t_expect "path --to: the node GUID $ng names it too" \
	eval '[ "$ng" != "$pg" ] && same_pair "$ng"'
t_expect "path --to: its base LID $lid, in hex and decimal, and base + 3" \
	eval 'same_pair "$lid" && same_pair "$((lid))" && same_pair "$((lid + 3))"'
printf '# ibnetdiscover format\n%s "rack3 host11"\n' "$ng" >"$SIM_DIR/names.map"
t_expect "--node-name-map: hca-3.1.1 renamed 'rack3 host11' by its node GUID" \
	eval '"$IBUNION" path "$SIM_DIR/live.ibnd" --lids-from "$SIM_DIR/live.lfts" \
		--node-name-map "$SIM_DIR/names.map" --format pairs --from hca-0.0.1 \
		--to "rack3 host11" | cmp -s - "$SIM_DIR/to-name.pairs" &&
	      "$IBUNION" path "$SIM_DIR/live.ibnd" --lids-from "$SIM_DIR/live.lfts" \
		--node-name-map "$SIM_DIR/names.map" --from hca-0.0.1 --to "$pg" |
		grep -q "rack3 host11"'
sw=$(sed -n 's/^Switch.* lid \([0-9][0-9]*\) lmc .*/\1/p' "$SIM_DIR/live.ibnd" | head -n1)
t_expect_code 3 "path --to a switch's LID ($sw): exit 3, not an end port" \
	eval '[ -n "$sw" ] && path_to "$sw"'

# ---- -o FILE for check, diff and load: what stdout would show, in FILE
same_as_stdout()	# CMD ARGS...: "ibunion CMD ARGS -o FILE" == stdout
{
	local rc1 rc2

	"$IBUNION" "$@" >"$SIM_DIR/o.stdout" 2>/dev/null
	rc1=$?
	rm -f "$SIM_DIR/o.file"
	"$IBUNION" "$@" -o "$SIM_DIR/o.file" >"$SIM_DIR/o.rest" 2>/dev/null
	rc2=$?
	[ "$rc1" = "$rc2" ] && [ -s "$SIM_DIR/o.file" ] && [ ! -s "$SIM_DIR/o.rest" ] &&
		cmp -s "$SIM_DIR/o.stdout" "$SIM_DIR/o.file"
}
t_expect "check -o FILE: the report in FILE, nothing on stdout" \
	same_as_stdout check "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" --cyclic
t_expect "diff -o FILE (MFTs that differ: exit 1, report kept)" \
	same_as_stdout diff "$SIM_DIR/one.mfts" "$SIM_DIR/two.mfts"
t_expect "load -o FILE" \
	same_as_stdout load "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" --pattern shift
# ---- --json: one object per run, its figures those of the text report
"$IBUNION" check "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" --cyclic --json \
	>"$SIM_DIR/check.json" 2>"$SIM_DIR/check.json.err"
"$IBUNION" check "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" --cyclic >"$SIM_DIR/check.txt"
diag_file "$SIM_DIR/check.json" 2
sum=$(grep '^-I- check: ' "$SIM_DIR/check.txt")
t_expect "check --json: one line, one object, the text summary's figures" \
	eval '[ "$(wc -l <"$SIM_DIR/check.json")" = 1 ] &&
	      grep -q "^{\"command\":\"check\",.*\"verdict\":\"pass\",\"exit\":0,\"unicast\":{\"verdict\":\"pass\",\"sources\":16,\"lids\":[0-9]*,.*\"rule\":\"cyclic\",\"rule_mismatches\":0,.*}\$" "$SIM_DIR/check.json" &&
	      grep -q "16 sources x $(sed -n "s/.*\"lids\":\([0-9]*\).*/\1/p" "$SIM_DIR/check.json") LIDs" <<<"$sum" &&
	      grep -q "^-I- check: " "$SIM_DIR/check.json.err"'
"$IBUNION" path "$SIM_DIR/live.ibnd" --lids-from "$SIM_DIR/live.lfts" --json >"$SIM_DIR/path.json"
"$IBUNION" path "$SIM_DIR/live.ibnd" --lids-from "$SIM_DIR/live.lfts" --format pairs >"$SIM_DIR/path.pairs"
t_expect "path --json: as many pairs as --format pairs lines ($(wc -l <"$SIM_DIR/path.pairs"))" \
	eval 'grep -q "\"count\":$(wc -l <"$SIM_DIR/path.pairs"),\"skipped\":0}\$" "$SIM_DIR/path.json" &&
	      [ "$(grep -o "\"dlid\":" "$SIM_DIR/path.json" | wc -l)" = "$(wc -l <"$SIM_DIR/path.pairs")" ]'
"$IBUNION" diff --json "$SIM_DIR/one.mfts" "$SIM_DIR/two.mfts" >"$SIM_DIR/diff.json"
diag_file "$SIM_DIR/diff.json" 1
t_grep "diff --json of the MFTs: not identical, the counts of the text report" \
	"^\{\"command\":\"diff\",\"kind\":\"mft\",.*\"identical\":false,\"switches\":20,\"switches_differ\":$(sed -n 's/^-I- diff: \([0-9]*\) of.*/\1/p' "$SIM_DIR/mft.diff")," \
	"$SIM_DIR/diff.json"
"$IBUNION" load "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" --pattern shift,all-to-all \
	--json >"$SIM_DIR/load.json" 2>/dev/null
"$IBUNION" load "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" --pattern shift,all-to-all \
	-q >"$SIM_DIR/load.txt"
row=$(awk '$1 == "all-to-all" { printf "\"messages\":%s,\"busiest\":%s,", $3, $4 }' "$SIM_DIR/load.txt")
t_expect "load --json: a row per pattern, the table's figures ($row)" \
	eval '[ "$(grep -o "\"pattern\":" "$SIM_DIR/load.json" | wc -l)" = 2 ] &&
	      grep -q "\"pattern\":\"all-to-all\",\"dlids\":\"base\",$row" "$SIM_DIR/load.json"'
# trace --json: the hops of the text report, one by one (out port, name)
tl=$(awk '/Channel Adapter/ { print $1 }' "$SIM_DIR/live.lfts" | tail -n1)
"$IBUNION" trace "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" "$lid" "$tl" >"$SIM_DIR/trace.txt"
"$IBUNION" trace "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" "$lid" "$tl" --json \
	>"$SIM_DIR/trace.json" 2>"$SIM_DIR/trace.json.err"
diag_file "$SIM_DIR/trace.json" 1
thops=$(sed -nE 's/^\[([0-9]+)\] -> .* "(.*)"$/\1 \2/p' "$SIM_DIR/trace.txt")
t_expect "trace --json $lid -> $tl: reached, the text report's $(wc -l <<<"$thops") hops" \
	eval '[ "$(wc -l <"$SIM_DIR/trace.json")" = 1 ] &&
	      grep -q "^{\"command\":\"trace\",.*\"verdict\":\"reached\",\"exit\":0,.*\"hop_count\":$(wc -l <<<"$thops"),\"broken_at\":null}\$" "$SIM_DIR/trace.json" &&
	      [ "$(grep -oE "\"out_port\":[0-9]+,\"name\":\"[^\"]*\"" "$SIM_DIR/trace.json" |
		   sed -E "s/\"out_port\":([0-9]+),\"name\":\"(.*)\"/\1 \2/")" = "$thops" ] &&
	      grep -q "^-I- trace: LID $((tl)) reached" "$SIM_DIR/trace.json.err"'
# trace's LIDs: decimal or 0x hex, never octal ("0NN" is decimal) or signed
"$IBUNION" trace -q "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" "$lid" "0$((tl))" \
	>"$SIM_DIR/trace-dec.txt" 2>&1
t_grep "trace: DST 0$((tl)) is decimal LID $((tl)), not octal" \
	"^-I- trace: LID $((tl)) reached" "$SIM_DIR/trace-dec.txt"
"$IBUNION" trace -q "$SIM_DIR/live.ibnd" "$SIM_DIR/live.lfts" -- "$lid" -1 \
	>"$SIM_DIR/trace-neg.txt" 2>&1
t_grep "trace: DST -1 is refused, not read as a huge number" \
	"^-E- ibunion trace: '-1' is no node name" "$SIM_DIR/trace-neg.txt"
# ---- -v: every problem listed (check cuts each kind at 20 by default)
awk '/^Unicast lids/ { n = 0 } /^0x[0-9a-f]+ [0-9]+ : \(Channel Adapter/ && n++ < 3 { $2 = "000" } 1' \
	"$SIM_DIR/live.lfts" >"$SIM_DIR/broken.lfts"
"$IBUNION" check "$SIM_DIR/live.ibnd" "$SIM_DIR/broken.lfts" >"$SIM_DIR/broken.txt"
"$IBUNION" check -v "$SIM_DIR/live.ibnd" "$SIM_DIR/broken.lfts" >"$SIM_DIR/broken-v.txt"
n=$(sed -n 's/^-E- check: .* \([0-9]*\) unreachable,.*/\1/p' "$SIM_DIR/broken-v.txt")
diag "broken dump: $n unreachable routes"
t_expect "check -v lists all $n unreachable routes (the default shows 20)" \
	eval '[ "${n:-0}" -gt 20 ] &&
	      [ "$(grep -c "^-E- unreachable:" "$SIM_DIR/broken-v.txt")" = "$n" ] &&
	      [ "$(grep -c "^-E- unreachable:" "$SIM_DIR/broken.txt")" = 20 ]'
echo old >"$SIM_DIR/kept"
"$IBUNION" check "$SIM_DIR/live.ibnd" "$SIM_DIR/no-such.lfts" -o "$SIM_DIR/kept" 2>/dev/null
t_expect "check that cannot run (exit 3) leaves FILE as it was" \
	eval "[ \"\$(cat '$SIM_DIR/kept')\" = old ]"
sim_stop_opensm

# ---- the admin guide's ibsim recipe: console kept, its commands accepted
readme=$top_srcdir/docs/admin-guide.md
recipe=$(grep -E '^ +IBSIM_SOCKNAME=[a-z]+ ibsim ' "$readme")
diag "admin guide: $recipe"
t_expect "admin guide starts ibsim with its console (no -n)" \
	eval "[ -n \"\$recipe\" ] && ! grep -Eq -- ' -n | --no-console' <<<\"\$recipe\""
gen=$(grep -E '^ +ibunion gen fattree [0-9]+ [0-9]+ -o [a-z0-9]+\.net$' "$readme" | head -n1)
read -r _ _ _ m n _ readme_net <<<"$gen"
cmds=$(sed -n 's/^ *sim> //p' "$readme")
"$IBUNION" gen fattree "$m" "$n" -o "$SIM_DIR/$readme_net"
export IBSIM_SOCKNAME=$IBSIM_SOCKNAME-readme
t_expect "admin guide's fabric ($readme_net) in ibsim with its console" \
	sim_start_ibsim_console "$SIM_DIR/$readme_net"
console_cmds()
{
	local c

	[ -n "$cmds" ] || { diag "no 'sim> ' line in the admin guide"; return 1; }
	while IFS= read -r c; do
		sim_ibsim_cmd "$c" || return 1
	done <<<"$cmds"
}
t_expect "ibsim's console accepts the admin guide's fault commands ($(wc -l <<<"$cmds"))" \
	console_cmds
done_testing
