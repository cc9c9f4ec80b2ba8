#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Compares two builds of the toolkit output by output: the unicast tables
# of `ibunion route` (and what it prints) and the multicast trees of
# `ibunion mcast tree` on about 60 generated fat trees: IBFTs and PGFTs,
# intact, with cut cables and missing switches, shuffled ports and
# records, hosts on spines, at LMC 0, 2 and 4, offsets rotated and paper,
# four apex policies; and on 8 meshes, intact and damaged (4x4 to
# 12x12), at LMC 0 and 1 and with two VL plans.  For a change meant to
# keep every table (a speed-up, a refactoring): build the reference from
# the commit before it, then
#
#	tests/scripts/compare-builds.sh REF_IBUNION NEW_IBUNION [--quick]
#
# prints each run that differs and "N comparisons, N differ"; exits 1 when
# any differs, 2 on bad usage.  --quick leaves out LMC 2 and 4 on
# IBFT(24,3).  Not part of make check (it needs a second build).
set -uo pipefail

usage() { echo "usage: $0 REF_IBUNION NEW_IBUNION [--quick]" >&2; exit 2; }
[ $# -ge 2 ] || usage
ref=$1 new=$2 quick=${3-}
[ -x "$ref" ] && [ -x "$new" ] || { echo "$0: both binaries must be executable" >&2; exit 2; }
[ -z "$quick" ] || [ "$quick" = --quick ] || usage
w=$(mktemp -d "${TMPDIR:-/tmp}/ibu-compare.XXXXXX") || exit 2
trap 'rm -rf "$w"' EXIT
n=0 fails=0

fabs=()
for t in "8 3" "12 3" "16 2" "24 3"; do
	tag=${t// /_}
	fabs+=("ft$tag|fattree $t")
	fabs+=("ft${tag}s|fattree $t --shuffle-ports --shuffle-records --seed 5")
	for k in 1 2 3; do
		fabs+=("ft${tag}c$k|fattree $t --remove-links $k --seed $((k + 2)) --shuffle-ports --shuffle-records")
	done
	fabs+=("ft${tag}sw|fattree $t --remove-switches 1 --seed 4 --shuffle-ports")
done
fabs+=(
	"ft4_3|fattree 4 3"
	"ft4_4|fattree 4 4 --shuffle-ports"
	"ft6_3d|fattree 6 3 --remove-switches 2 --remove-links 3 --seed 21 --shuffle-ports --shuffle-records"
	"p2a|pgft --m 8,8 --w 1,4 --p 1,2"
	"p2b|pgft --m 12,6 --w 1,4 --p 1,1 --shuffle-ports --shuffle-records"
	"p2c|pgft --m 12,6 --w 1,4 --p 1,1 --remove-links 2 --seed 7"
	"p2d|pgft --m 6,8 --w 1,3 --p 1,2 --remove-links 4 --seed 102 --shuffle-ports"
	"p3a|pgft --m 4,4,4 --w 1,2,2 --p 1,2,2 --shuffle-ports --shuffle-records"
	"p3b|pgft --m 8,4,3 --w 1,4,4 --p 1,1,2"
	"p3c|pgft --m 4,4,4 --w 1,2,2 --p 1,2,2 --remove-links 2 --seed 9 --shuffle-ports"
	"p3e|pgft --m 6,6,4 --w 1,3,3 --p 1,1,1 --remove-switches 1 --seed 3"
	"p3g|pgft --m 4,4,3 --w 1,2,2 --p 1,2,1 --remove-switches 2 --remove-links 3 --seed 12 --shuffle-ports --shuffle-records"
	"s2a|pgft --m 6,4 --w 1,3 --p 1,2 --hosts-on-spines 3 --shuffle-ports --shuffle-records --seed 15"
	"s3a|pgft --m 4,4,3 --w 1,2,2 --p 1,1,1 --hosts-on-spines 3 --shuffle-ports --seed 3"
	"s3c|pgft --m 4,4,3 --w 1,2,2 --p 1,1,1 --hosts-on-spines 4 --remove-links 2 --seed 11"
	"s2d|pgft --m 6,4 --w 1,3 --p 1,2 --hosts-on-spines 3 --remove-switches 1 --seed 6"
	"m4_4|mesh 4 4 --hcas 2 --shuffle-ports"
	"m4_4d|mesh 4 4 --hcas 2 --remove-links 4 --remove-switches 1 --seed 11"
	"m5_7d|mesh 5 7 --hcas 2 --remove-links 3 --seed 17 --shuffle-ports --shuffle-records"
	"m7_4d|mesh 7 4 --hcas 3 --remove-links 2 --remove-switches 1 --seed 5"
	"m6_6d|mesh 6 6 --hcas 2 --remove-links 4 --remove-switches 1 --seed 3"
	"m8_8d|mesh 8 8 --hcas 1 --remove-links 6 --seed 21 --shuffle-ports --shuffle-records"
	"m10_10d|mesh 10 10 --hcas 2 --remove-links 4 --remove-switches 1 --seed 3"
	"m12_12d|mesh 12 12 --hcas 1 --remove-links 6 --seed 9"
)

# same LABEL CMD...: runs CMD with each binary (output files a.* / b.*)
same()
{
	local label=$1 ra rb
	shift
	n=$((n + 1))
	"$ref" "${@//@/a}" >"$w/a.out" 2>&1; ra=$?
	"$new" "${@//@/b}" >"$w/b.out" 2>&1; rb=$?
	if [ $ra != $rb ] || ! cmp -s "$w/a.out" "$w/b.out" ||
	   { [ -f "$w/a.res" ] && ! cmp -s "$w/a.res" "$w/b.res"; }; then
		echo "DIFF $label (exit $ra / $rb)"
		fails=$((fails + 1))
	fi
	rm -f "$w/a.res" "$w/b.res"
}

for spec in "${fabs[@]}"; do
	IFS='|' read -r name gen <<<"$spec"
	# shellcheck disable=SC2086
	if ! "$ref" gen $gen -o "$w/f.net" >/dev/null 2>&1; then
		echo "$0: cannot generate $name ($gen)" >&2
		exit 2
	fi
	opts=("--lmc 0" "--lmc 2" "--lmc 0 --offsets paper" "--lmc 2 --offsets paper")
	case $name in
	ft24_3*) [ -n "$quick" ] && opts=("--lmc 0" "--lmc 0 --offsets paper") ;;
	ft8_3c*|ft6_3d|p3g|p2d) opts+=("--lmc 4" "--lmc 4 --offsets paper") ;;
	s*) opts+=("--lmc 0 -O max_faults=8") ;;
	m*) opts=("--lmc 0" "--lmc 1" "--lmc 0 -O vl_plan=2-spread") ;;
	esac
	for opt in "${opts[@]}"; do
		# shellcheck disable=SC2086
		same "route $name ($gen) $opt" route "$w/f.net" $opt -o "$w/@.res"
	done
	case $name in ft24_3*) continue ;; esac
	# six groups of pseudo-random hosts, the last with a send-only member
	awk -v seed=${#name} 'BEGIN { srand(seed) }
		/^(Ca|Hca)/ { s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); h[n++] = s }
		END { for (g = 0; g < 6; g++) {
			k = 2 + int(rand() * n / 2)
			for (i = 0; i < k; i++) {
				x = h[int(rand() * n)]
				if (!u[g, x]++)
					printf "0x%x %s%s\n", 49152 + g, x,
					       (g == 5 && i == 0) ? " send-only" : ""
			} } }' "$w/f.net" >"$w/m.txt"
	mopts=("")
	pols=(compact balanced lowest-guid source)
	case $name in
	s*) mopts+=("-O max_faults=8") ;;
	m*) pols=(compact) ;;	# xy's trees have no apex to place
	esac
	for pol in "${pols[@]}"; do
		for mo in "${mopts[@]}"; do
			# shellcheck disable=SC2086
			same "mcast $name ($gen) $pol $mo" mcast tree "$w/f.net" \
				"$w/m.txt" --policy "$pol" $mo -o "$w/@.res"
		done
	done
done
echo "$n comparisons, $fails differ"
[ "$fails" = 0 ]
