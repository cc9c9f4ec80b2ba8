#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The league benchmark (tests/scripts/bench-league.sh) in its quick mode on
# one tiny fabric, IBFT(4,3) (16 end ports, ports and records shuffled),
# with two engines, cyclic and OpenSM's minhop, each in ibsim with the real
# opensm, tables read back: the report has the fabric's table with one row
# per engine and 8 columns, the TSV one line per engine with figures that
# make sense (cyclic's all-to-all at the bound N-1 = 15 and every shift
# contention-free, minhop's at or above it; eBB in (0, 1]; one VL, no
# credit loop, every pair reachable, a routing time), and the targets'
# line says cyclic met its target on this intact tree (at the bound).
# The sweep's options: --random draws the same specs from the same seed
# (other ones from another), a bad --fabric spec is refused, and one
# explicit --fabric (IBFT(4,3) with a cable cut) ends with the summary:
# ours routed it itself, valid tables, no credit loop.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 22

league=$top_srcdir/tests/scripts/bench-league.sh
md=$SIM_DIR/league.md
tsv=$SIM_DIR/league.tsv
t_expect "bench-league.sh --quick --fabrics ibft43 --engines 'cyclic minhop' runs" \
	env BUILD_DIR="$top_builddir" LEAGUE_NO_BUILD=1 TMPDIR="$SIM_DIR" \
	bash "$league" --quick --fabrics ibft43 --engines 'cyclic minhop' \
	--samples 10 -o "$md" --tsv "$tsv" --keep "$SIM_DIR/keep"
diag_file "$md" 40

# field ENGINE N: column N of the engine's TSV line (1 fabric, 2 engine,
# 3 used, 4 a2a, 5 shift, 6 eBB, 7 VLs, 8 CDG, 9 unreach, 10 route ms,
# 11 a2a bound, 12 host order, 13 damaged)
field()
{
	awk -F'\t' -v e="$1" -v n="$2" '$2 == e { print $n; exit }' "$tsv"
}

t_equal "TSV: one line per engine, 15 fields each, on ibft43, intact; the eBB difference from ours and its 95% half-width (- for ours)" \
	"$(awk -F'\t' '{ d = ($14 == "-" && $15 == "-") ? "ours" : "bad"
		if ($14 ~ /^[-+][0-9.]+$/ && $15 ~ /^[0-9.]+$/) d = "diff"
		print $1, $2, NF, $13, d }' "$tsv" | paste -sd' ')" \
	"ibft43 cyclic 15 no ours ibft43 minhop 15 no diff"
t_equal "both engines routed themselves (no fallback)" \
	"$(field cyclic 3) $(field minhop 3)" "cyclic minhop"
t_equal "the all-to-all bound is N-1 = 15; hosts in cyclic's order" \
	"$(field cyclic 11):$(field cyclic 12)" "15:cyclic"
t_equal "cyclic: all-to-all at the bound, every shift contention-free" \
	"$(field cyclic 4) $(field cyclic 5)" "15 1"
t_expect "minhop: all-to-all at or above the bound, worst shift >= 1" \
	awk -v a="$(field minhop 4)" -v s="$(field minhop 5)" \
	'BEGIN { exit !(a >= 15 && s >= 1) }'
t_expect "eBB of both in (0, 1], cyclic's no lower than minhop's" \
	awk -v c="$(field cyclic 6)" -v m="$(field minhop 6)" \
	'BEGIN { exit !(c > 0 && c <= 1 && m > 0 && m <= 1 && c >= m) }'
t_equal "one VL, no credit loop, every pair reachable (cyclic; minhop)" \
	"$(field cyclic 7) $(field cyclic 8) $(field cyclic 9); $(field minhop 7) $(field minhop 8) $(field minhop 9)" \
	"1 no 0; 1 no 0"
t_expect "routing times are numbers" \
	awk -v c="$(field cyclic 10)" -v m="$(field minhop 10)" \
	'BEGIN { exit !(c ~ /^[0-9.]+$/ && m ~ /^[0-9.]+$/) }'
t_equal "report: the command, the machine, one table of 2 rows x 8 columns" \
	"$(grep -c '^Command: `tests/scripts/bench-league.sh --quick' "$md"):$(grep -c '^Machine: ' "$md"):$(grep -c '^### IBFT(4,3), intact$' "$md"):$(grep -c '^| engine | a2a | shift | eBB | VLs | CDG cycle | unreach | route ms |$' "$md"):$(grep -E '^\| (cyclic|minhop) \|' "$md" | awk -F'|' '{ print NF - 2 }' | paste -sd,)" \
	"1:1:1:1:8,8"
t_grep "targets: cyclic on the intact IBFT(4,3) at the bound, met" \
	'^\| ibft43 \| cyclic \| 15 \(15\) \| the bound \| - \| - \| 1 \| yes \|$' "$md"
specs()
{
	bash "$league" --random 3 --seed "$1" --list
}
t_expect "--random 3 --list: 3 specs, the same from the same seed, others from another" \
	awk -v a="$(specs 7)" -v b="$(specs 7)" -v c="$(specs 8)" \
	'BEGIN { exit !(a == b && a != c && split(a, l, "\n") == 3 && l[1] ~ /^--fabric .r01-.*-cut[1-4].*\|tree\|/) }'
t_expect_code 2 "--fabric with a bad spec is refused" bash "$league" --fabric 'no spec' --list
sum=$SIM_DIR/fabric.md
# a name that says nothing of the cut: the graph tells the league
t_expect "bench-league.sh --fabric 'plain43|tree|..|fattree 4 3 --remove-links 1' runs" \
	env BUILD_DIR="$top_builddir" LEAGUE_NO_BUILD=1 TMPDIR="$SIM_DIR" \
	bash "$league" --fabric 'plain43|tree|IBFT(4,3), 1 cable cut|fattree 4 3 --remove-links 1 --seed 2' \
	--engines 'cyclic minhop' --samples 10 -o "$sum" --tsv "$SIM_DIR/fabric.tsv"
t_equal "a damaged tree named plainly: TSV says damaged" \
	"$(awk -F'\t' '{ print $2, $13 }' "$SIM_DIR/fabric.tsv" | paste -sd' ')" \
	"cyclic yes minhop yes"
t_grep "targets: judged as damaged (against the best other), not the bound" \
	'^\| plain43 \| cyclic \| [0-9]+ \([0-9.]+\) \| best [0-9]+ \(minhop\) \|' "$sum"
diag_file "$sum" 60
t_equal "summary: 1 fabric; ours no fallback, no unreached pair, no CDG cycle, check clean" \
	"$(grep -c '^1 fabrics, [01] met every target' "$sum"):$(grep -E '^\| (fallback|unreached|CDG|`ibunion check`)' "$sum" | awk -F'|' '{ print $3 + 0 }' | paste -sd,)" \
	"1:0,0,0,0"
# the faults take a leaf with its hosts and leave a whole PGFT(2; 4,4;
# 1,2; 1,2): judged as intact (all-to-all at the bound), listed as such
whole=$SIM_DIR/whole.md
t_expect "bench-league.sh --fabric on a tree the faults leave whole runs" \
	env BUILD_DIR="$top_builddir" LEAGUE_NO_BUILD=1 TMPDIR="$SIM_DIR" \
	bash "$league" --fabric 'w-cut1-sw2|tree|PGFT(2; 4,6; 1,2; 1,2), 1 cable cut, 2 switches missing|pgft --m 4,6 --w 1,2 --p 1,2 --remove-links 1 --remove-switches 2 --seed 835881' \
	--engines 'cyclic minhop' --samples 10 -o "$whole" --tsv "$SIM_DIR/whole.tsv"
diag_file "$whole" 40
t_equal "whole after the faults: TSV says not damaged; summary judges it intact, met" \
	"$(awk -F'\t' '$2 == "cyclic" { print $13 }' "$SIM_DIR/whole.tsv"):$(grep -c '^1 fabrics, 1 met every target' "$whole"):$(grep -c '^1 of them are whole trees after the faults' "$whole"):$(grep -c '^| w-cut1-sw2 | (intact after the faults: a2a [0-9]* at the bound [0-9]*' "$whole")" \
	"no:1:1:1"
t_expect "--random 1 --random-mesh 2 --list: the same tree as --random 1, then 2 meshes" \
	awk -v a="$(bash "$league" --random 1 --random-mesh 2 --seed 7 --list)" -v t="$(bash "$league" --random 1 --seed 7 --list)" \
	'BEGIN { n = split(a, l, "\n"); exit !(n == 3 && l[1] == t && l[2] ~ /^--fabric .m01-mesh.*-cut[1-4].*\|mesh\|.*\|mesh [0-9]+ [0-9]+ --hcas/ && l[3] ~ /^--fabric .m02-/) }'
msum=$SIM_DIR/mesh.md
t_expect "bench-league.sh --fabric 'mesh44-cut2|mesh|..' runs" \
	env BUILD_DIR="$top_builddir" LEAGUE_NO_BUILD=1 TMPDIR="$SIM_DIR" \
	bash "$league" --fabric 'mesh44-cut2|mesh|4x4 mesh, 2 cables cut|mesh 4 4 --hcas 1 --remove-links 2 --seed 5' \
	--engines 'xy minhop' --samples 10 -o "$msum"
diag_file "$msum" 60
# xy on its 2 SL layers: no CDG on one VL ("-"), not a miss; the mesh's
# targets judged (VLs, a2a against minhop), not the trees'
t_equal "mesh summary: xy routed it, at most 2 VLs, no CDG miss, check clean" \
	"$(grep -c '^1 fabrics, [01] met every target' "$msum"):$(grep -E '^\| (fallback|unreached|mesh: more than 2 VLs|CDG|`ibunion check`)' "$msum" | awk -F'|' '{ print $3 + 0 }' | paste -sd,)" \
	"1:0,0,0,0,0"
done_testing
