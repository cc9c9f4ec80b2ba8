#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Every subcommand on damaged and partial fat trees, offline: IBFT(6,3)
# with hosts missing, with switches missing, with cut cables and hosts
# missing, with a whole pod missing (records, names and ports shuffled;
# the pod-less tree is the PGFT it is now, not a degraded IBFT), a PGFT
# with parallel cables and hosts missing, a 2-D mesh with a cut cable
# (xy's detours), PGFTs with cut cables and missing switches (2- and
# 3-level, parallel cables, hosts on spines), a 2-level tree that lost
# every spine (OpenSM sees one leaf with its hosts: PGFT(1; m; 1; 1)), and
# a PGFT with more faults than max_faults allows (no engine takes it).  A
# tree the engine accepts: route, lids, path (table, pairs, --from/--to;
# under valgrind when installed), order,
# check --cyclic/--updown/--dlids/--deadlock, load, mcast tree/check, diff
# all succeed with outputs that agree with each other.  A fabric no engine
# accepts: every subcommand exits 3 with a reason, never a crash.
. "$(dirname "$0")/sim.sh"
sim_setup
plan 161

: "${VALGRIND:=$(command -v valgrind)}"
VG=()
[ -n "$VALGRIND" ] && [ -x "$VALGRIND" ] &&
	VG=("$VALGRIND" -q --error-exitcode=99 --leak-check=full
	    --errors-for-leak-kinds=definite)

# drop_nodes ERE < NET: the net file without the records of the nodes whose
# name matches ERE, nor the cables to them (a pod that was never bought).
drop_nodes()
{
	awk -v re="$1" 'BEGIN { RS = ""; ORS = "\n\n" }
		$0 ~ "^[A-Za-z]+[ \t]+[0-9]+[ \t]+\"" re { next }
		{ n = split($0, L, "\n"); out = ""
		  for (i = 1; i <= n; i++)
			if (L[i] !~ "\"" re) out = out L[i] "\n"
		  printf "%s", out }'
}

hosts_of() { grep -Eo '^(Hca|Ca)[[:space:]].*"[^"]*"' "$1" | sed 's/.*"\(.*\)"/\1/'; }
# the hosts still cabled (a removed leaf leaves its hosts' records alone)
cabled_hosts_of()
{
	awk 'function out() { if (host != "" && cabled) print host }
	     /^[A-Za-z]+[ \t]+[0-9]+[ \t]+"/ { out(); cabled = 0; host = ""
		if ($1 == "Hca" || $1 == "Ca") {
			match($0, /"[^"]*"/); host = substr($0, RSTART + 1, RLENGTH - 2) } }
	     /^\[/ { cabled = 1 }
	     END { out() }' "$1"
}

# tree NAME NET: every subcommand on an accepted (possibly degraded) tree.
tree()
{
	local b=$SIM_DIR/$1 net=$2 n h1 h2 want rsum
	h1=$(cabled_hosts_of "$net" | sed -n 2p)
	h2=$(cabled_hosts_of "$net" | tail -n 1)
	t_expect "$1: route" "$IBUNION" route "$net" -o "$b.lft"
	# end ports of the tree (hosts behind a missing leaf are not in it)
	rsum=$(cat "$SIM_DIR/cmd-$tap__count.out")
	echo "$rsum" >"$b.route"
	n=$(sed -n 's/.*switches, \([0-9]*\) end ports.*/\1/p' <<<"$rsum")
	t_expect "$1: lids" "$IBUNION" lids "$net" -o "$b.g2l"
	t_expect "$1: path (table)" "${VG[@]}" "$IBUNION" path "$net" \
		--lids-from "$b.lft" -o "$b.path"
	want=$((n * (n - 1)))
	t_equal "$1: path: one line per ordered pair of the $n present hosts" \
		"$(grep -vc '^#\|^source' "$b.path")" "$want"
	t_expect "$1: path --format pairs" "${VG[@]}" "$IBUNION" path "$net" \
		--lids-from "$b.lft" --format pairs -o "$b.pairs"
	t_equal "$1: pairs: '0xSLID 0xDLID', one per ordered pair" \
		"$(grep -Ec '^0x[0-9a-f]{4} 0x[0-9a-f]{4}$' "$b.pairs")" "$want"
	"$IBUNION" path "$net" --lids-from "$b.lft" --from "$h1" --to "$h2" \
		>"$b.one" 2>&1
	t_equal "$1: path --from --to: one pair" \
		"$?:$(grep -c "^$h1 .* $h2 " "$b.one")" "0:1"
	t_expect_code 3 "$1: path --from an absent host: exit 3" \
		"$IBUNION" path "$net" --lids-from "$b.lft" --from no-such-host
	t_expect "$1: check --cyclic" "$IBUNION" check -q --cyclic "$net" "$b.lft"
	# a tree with faults re-routes around them: one climbing chain per
	# source only holds on a tree without faults (hosts missing are none)
	if grep -q degraded <<<"$rsum"; then
		"$IBUNION" check --cyclic --dlids "$b.pairs" "$net" "$b.lft" \
			>"$b.climb" 2>&1
		t_equal "$1: check --cyclic on path's DLIDs: exit 0 (sources off their chain told, not counted)" \
			"$?:$(grep -Ec ' 0 unreachable, 0 loops, 0 non-minimal, (0 down-up turns, .*)?0 cyclic mismatches, 0 climb violations' "$b.climb")" \
			"0:1"
		"$IBUNION" path "$net" --lids-from "$b.lft" --format pairs \
			-o /dev/null 2>"$b.pathwarn"
		t_grep "$1: path says re-routed LIDs leave the source's chain" \
			'^-W- path: .*degraded tree \([0-9]+ faults\): routes toward LIDs re-routed' \
			"$b.pathwarn"
		t_grep "$1: check --cyclic on path's DLIDs: how many sources keep one chain" \
			'degraded PGFT \([0-9]+ faults\): [0-9]+ of [0-9]+ sources keep one ascending path on the given DLIDs' \
			"$b.climb"
	else
		t_expect "$1: check --cyclic on path's DLIDs: one chain per source" \
			"$IBUNION" check -q --cyclic --dlids "$b.pairs" "$net" "$b.lft"
	fi
	cabled_hosts_of "$net" | head -n 7 | sed 's/^/0xc000 /' >"$b.members"
	cabled_hosts_of "$net" | tail -n 4 | sed 's/^/0xc001 /' >>"$b.members"
	cabled_hosts_of "$net" | awk 'NR % 3 == 0' | sed 's/^/0xc002 /' >>"$b.members"
	t_expect "$1: mcast tree" "$IBUNION" mcast tree -q "$net" "$b.members" \
		-o "$b.mft"
	t_expect "$1: check --updown --deadlock --mcast: exact, no credit loop" \
		"$IBUNION" check -q --updown --deadlock --mcast "$b.mft" \
		--members "$b.members" "$net" "$b.lft"
	t_expect "$1: load: every walk arrives" "$IBUNION" load -q "$net" \
		"$b.lft" --pattern all-to-all,shift --dlids "${DLIDS:-base,cyclic}"
	t_expect "$1: load groups" "$IBUNION" load -q "$net" "$b.lft" \
		--mcast "$b.mft" --members "$b.members" --pattern groups
	t_expect "$1: diff with itself" "$IBUNION" diff -q --fabric "$net" \
		"$b.lft" "$b.lft"
	"$IBUNION" order "$net" -o "$b.order"
	t_equal "$1: order: every end port once, a leaf's hosts together" \
		"$(sort -u "$b.order" | wc -l):$(sed 's/\.[0-9]*$//' "$b.order" | uniq | sort | uniq -d | wc -l)" \
		"$n:0"
}

# refused NAME NET: no engine accepts NET; every subcommand says so, exit 3.
refused()
{
	local b=$SIM_DIR/$1 net=$2 cmd
	"$IBUNION" route "$net" -o "$b.lft" >"$b.err" 2>&1
	t_equal "$1: route refuses, naming the file's problem" \
		"$?:$(grep -c 'no engine recognises' "$b.err")" "3:1"
	"$IBUNION" gen fattree 4 2 -o "$b.other.net"
	"$IBUNION" route "$b.other.net" -o "$b.other.lft" >/dev/null 2>&1
	for cmd in "lids $net" "path $net --lids-from $b.other.lft" \
		   "check --cyclic $net $b.other.lft"; do
		# shellcheck disable=SC2086
		t_expect_code 3 "$1: ${cmd%% *} exits 3" "$IBUNION" $cmd
	done
}

g=$SIM_DIR/gen
"$IBUNION" gen fattree 6 3 --shuffle-ports --shuffle-records --seed 11 \
	--remove-hosts 5 -o "$g-hosts.net"
"$IBUNION" gen fattree 6 3 --shuffle-ports --shuffle-records --seed 5 \
	--remove-switches 2 -o "$g-switches.net"
"$IBUNION" gen fattree 6 3 --shuffle-ports --shuffle-records --seed 9 \
	--remove-links 3 --remove-hosts 2 -o "$g-links.net"
"$IBUNION" gen fattree 6 3 --shuffle-ports --shuffle-records --seed 3 \
	-o "$g-full.net"
# pod 5: its middle and leaf switches (sw1-5.*, sw2-5.*) and hosts hca-5.*
drop_nodes '(sw[12]-5\.|hca-5\.)' <"$g-full.net" >"$g-pod.net"
# every spine gone: the SM's leaf (sw1-2) and its hosts are the subnet
"$IBUNION" gen fattree 6 2 --shuffle-ports --shuffle-records --seed 6 \
	-o "$g-ft62.net"
drop_nodes '(sw0-|sw1-[013-5]|hca-[013-5]\.)' <"$g-ft62.net" >"$g-one.net"
"$IBUNION" gen mesh 4 4 --remove-links 1 --seed 2 -o "$g-mesh.net"
"$IBUNION" gen pgft --m 6,4 --w 1,3 --p 1,2 --remove-hosts 3 --shuffle-ports \
	--shuffle-records --seed 4 -o "$g-pgft.net"
"$IBUNION" gen pgft --m 6,4 --w 1,3 --p 1,2 --radix 16 --hosts-on-spines 2 \
	--remove-hosts 3 --shuffle-ports --shuffle-records --seed 4 -o "$g-spine.net"
"$IBUNION" gen pgft --m 6,4 --w 1,3 --p 1,2 --remove-links 1 --shuffle-ports \
	--seed 4 -o "$g-pgft-cut.net"
"$IBUNION" gen pgft --m 4,4,3 --w 1,2,2 --p 1,2,1 --remove-links 3 \
	--remove-switches 1 --shuffle-ports --shuffle-records --seed 5 \
	-o "$g-pgft3-cut.net"
"$IBUNION" gen pgft --m 6,4 --w 1,3 --p 1,2 --radix 16 --hosts-on-spines 2 \
	--remove-links 2 --shuffle-ports --shuffle-records --seed 8 \
	-o "$g-spine-cut.net"
"$IBUNION" gen pgft --m 6,4 --w 1,3 --p 1,2 --remove-links 8 --shuffle-ports \
	--seed 4 -o "$g-pgft-many.net"

tree hosts "$g-hosts.net"
tree switches "$g-switches.net"
tree links "$g-links.net"
tree pod "$g-pod.net"
t_grep "pod: a PGFT, not a degraded IBFT" \
	'cyclic: PGFT\(3; 3,3,5; 1,3,3; 1,1,1\): 39 switches, 45 end ports' \
	"$SIM_DIR/pod.route"
tree one "$g-one.net"
t_grep "one: a single switch is the one-level PGFT of its hosts" \
	'cyclic: PGFT\(1; 3; 1; 1\): 1 switches, 3 end ports' "$SIM_DIR/one.route"
# (load --dlids cyclic knows IBFT only; path's DLIDs are checked above)
DLIDS=base,pairs tree pgft "$g-pgft.net"
# hosts on two spines: no up*/down* path between them (left unrouted)
"$IBUNION" route "$g-spine.net" -o "$SIM_DIR/spine.lft" 2>"$SIM_DIR/spine.route"
t_grep "spine: routed, the hosts above the leaves counted" \
	'cyclic: PGFT\(2; 6,4; 1,3; 1,2\): 7 switches, 23 end ports \(2 above the leaves\)' \
	"$SIM_DIR/spine.route"
t_expect "spine: check --cyclic --updown --deadlock" "$IBUNION" check -q --cyclic \
	--updown --deadlock "$g-spine.net" "$SIM_DIR/spine.lft"
t_expect "spine: path" "${VG[@]}" "$IBUNION" path "$g-spine.net" \
	--lids-from "$SIM_DIR/spine.lft" -o "$SIM_DIR/spine.path"
# a mesh with a cut cable: xy routes it around the cut; path is for fat
# trees and says so
m=$SIM_DIR/mesh
t_expect "mesh: route (xy, around the cut)" "$IBUNION" route "$g-mesh.net" -o "$m.lft"
t_expect "mesh: check --xy" "$IBUNION" check -q --xy "$g-mesh.net" "$m.lft"
hosts_of "$g-mesh.net" | head -n 5 | sed 's/^/0xc000 /' >"$m.members"
t_expect "mesh: mcast tree, exact for every sender" eval \
	"'$IBUNION' mcast tree -q '$g-mesh.net' '$m.members' -o '$m.mft' &&
	 '$IBUNION' check -q --mcast '$m.mft' --members '$m.members' '$g-mesh.net'"
# xy puts a damaged mesh's detours on a second SL layer: check judges
# tables that follow its rule on those SLs, --engine none on SL 0 alone
"$IBUNION" gen mesh 6 6 --hcas 2 --remove-links 2 --seed 1 -o "$m-6.net"
"$IBUNION" route "$m-6.net" -o "$m-6.lft" 2>/dev/null
t_expect "mesh 6x6, 2 cuts: check --deadlock judges xy's SL layers: no credit loop" \
	"$IBUNION" check "$m-6.net" "$m-6.lft" --deadlock
t_grep "check says the routes ride the SLs xy's PathRecords hand out" \
	"tables follow xy's rule: each route on the SL its PathRecords hand out" \
	"$SIM_DIR/cmd-$tap__count.out"
t_expect_code 1 "the same tables with --engine none (SL 0 for every path): a cycle" \
	"$IBUNION" check -q --engine none "$m-6.net" "$m-6.lft" --deadlock
"$IBUNION" path "$g-mesh.net" --lids-from "$m.lft" >"$m.path" 2>&1
t_equal "mesh: path exits 3 naming why (fat trees only)" \
	"$?:$(grep -c 'not an m-port n-tree' "$m.path")" "3:1"
# PGFTs with faults: routed around them by the rule's next surviving
# up-port, the faults named (a missing cable or switch that its peers
# have), never the planned shape
DLIDS=base,pairs tree pgft-cut "$g-pgft-cut.net"
t_grep "pgft-cut: one fault, named" \
	'fault 1 of 1: missing cable .* - parent .*: 1 of 2' "$SIM_DIR/pgft-cut.route"
DLIDS=base,pairs tree pgft3-cut "$g-pgft3-cut.net"
t_grep "pgft3-cut: the PGFT and its faults (3 cables, 1 switch)" \
	'PGFT\(3; 4,4,3; 1,2,2; 1,2,1\): 21 switches, .*degraded: 4 faults' \
	"$SIM_DIR/pgft3-cut.route"
# hosts on spines: the pairs between them have no up*/down* path
"$IBUNION" route "$g-spine-cut.net" -o "$SIM_DIR/spine-cut.lft" \
	2>"$SIM_DIR/spine-cut.route"
t_grep "spine-cut: hosts above the leaves and 2 faults" \
	'26 end ports \(2 above the leaves\).*degraded: 2 faults' \
	"$SIM_DIR/spine-cut.route"
t_expect "spine-cut: check --cyclic --updown --deadlock" "$IBUNION" check -q \
	--cyclic --updown --deadlock "$g-spine-cut.net" "$SIM_DIR/spine-cut.lft"
t_expect "spine-cut: path" "${VG[@]}" "$IBUNION" path "$g-spine-cut.net" \
	--lids-from "$SIM_DIR/spine-cut.lft" -o "$SIM_DIR/spine-cut.path"
cabled_hosts_of "$g-spine-cut.net" | awk 'NR % 2' | sed 's/^/0xc000 /' \
	>"$SIM_DIR/spine-cut.members"
t_expect "spine-cut: mcast tree, exact, no credit loop" eval \
	"'$IBUNION' mcast tree -q '$g-spine-cut.net' '$SIM_DIR/spine-cut.members' \
		-o '$SIM_DIR/spine-cut.mft' &&
	 '$IBUNION' check -q --updown --deadlock --mcast '$SIM_DIR/spine-cut.mft' \
		--members '$SIM_DIR/spine-cut.members' '$g-spine-cut.net' \
		'$SIM_DIR/spine-cut.lft'"
t_expect "spine-cut: order" "${VG[@]}" "$IBUNION" order "$g-spine-cut.net" \
	-o "$SIM_DIR/spine-cut.order"
refused pgft-many "$g-pgft-many.net"
t_grep "pgft-many: more faults than the limit" \
	'8 missing cables and switches, more than the limit of 7' \
	"$SIM_DIR/pgft-many.err"
# two cuts that leave two leaves no common top: load's offline trees are
# built beside the engine's unicast, as the plugin's, so a group of every
# host joins by a junction instead of being refused
a=$SIM_DIR/apart
"$IBUNION" gen pgft --m 4,4,4 --w 1,2,2 --p 1,1,1 --remove-links 2 --seed 1 \
	--shuffle-ports -o "$a.net"
"$IBUNION" route "$a.net" -o "$a.lft" 2>/dev/null
t_expect "apart: load --pattern mcast:1:100% (a tree over every host)" \
	"$IBUNION" load "$a.net" "$a.lft" --pattern mcast:1:100%
done_testing
