#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Multicast on damaged PGFTs whose cuts may leave leaves apart (no common
# top): per fabric, a group of every host plus R random groups; counts the
# groups each build refuses (ERR 5A33's text) and, for NEW, proves unicast
# (switch LIDs too) + every group it built free of credit loops and every
# group exact.
#   tests/scripts/mcast-apart-sweep.sh OLD_IBUNION NEW_IBUNION [SEEDS] [R]
set -u
old=$1 new=$2 seeds=${3:-4} R=${4:-3}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
shapes=${SHAPES:-"4,4,4/1,2,2/1,1,1 4,6,4/1,2,2/1,1,2 6,6,4/1,3,3/1,1,1"}
n=0 ob=0 nb=0 gr=0 cyc=0 inexact=0 apart=0
printf '%-22s %5s %4s %7s %7s %7s %s\n' shape cuts seed groups refused_old refused_new cdg
for sh in $shapes; do
	IFS=/ read -r m w p <<<"$sh"
	for cuts in 2 3 4; do
		for ((seed = 1; seed <= seeds; seed++)); do
			net=$dir/f.net
			"$new" gen pgft --m "$m" --w "$w" --p "$p" --remove-links "$cuts" \
				--seed "$seed" --shuffle-ports -o "$net" 2>/dev/null || continue
			"$new" route "$net" -o "$dir/f.lft" 2>"$dir/route.err" || continue
			grep -E '^(Hca|Ca)' "$net" | sed 's/.*"\(.*\)".*/\1/' >"$dir/hosts"
			: >"$dir/groups"
			awk '{ printf "0xc001 %s\n", $1 }' "$dir/hosts" >>"$dir/groups"
			for ((g = 2; g <= R + 1; g++)); do
				shuf -n $(( (RANDOM % 12) + 2 )) --random-source=<(yes "$seed$g$cuts$m") \
					"$dir/hosts" | awk -v g="$g" '{ printf "0x%04x %s\n", 49152 + g, $1 }' >>"$dir/groups"
			done
			: >"$dir/built"
			ro=0 rn=0
			for mlid in $(awk '{print $1}' "$dir/groups" | sort -u); do
				grep "^$mlid " "$dir/groups" >"$dir/one"
				"$old" mcast tree -q "$net" "$dir/one" >/dev/null 2>&1 || ro=$((ro + 1))
				if "$new" mcast tree -q ${POLICY:+--policy $POLICY} "$net" "$dir/one" >/dev/null 2>"$dir/err"; then
					cat "$dir/one" >>"$dir/built"
				else
					rn=$((rn + 1)); grep -o 'cut off.*' "$dir/err" | head -1 >&2
				fi
				gr=$((gr + 1))
			done
			res=-
			if [ -s "$dir/built" ]; then
				"$new" mcast tree -q ${POLICY:+--policy $POLICY} "$net" "$dir/built" -o "$dir/f.mft" >/dev/null 2>&1
				if "$new" check -q --updown --deadlock "$net" "$dir/f.lft" \
					--mcast "$dir/f.mft" --members "$dir/built" >"$dir/chk" 2>&1; then
					res=acyclic
				else
					grep -q 'exactly one copy' "$dir/chk" || inexact=$((inexact + 1))
					res=FAIL; cyc=$((cyc + 1))
					[ -n "${KEEP:-}" ] && cp -r "$dir" "$KEEP-${sh//\//_}-$cuts-$seed"
				fi
			fi
			n=$((n + 1)); ob=$((ob + ro)); nb=$((nb + rn))
			[ "$ro" -gt 0 ] && apart=$((apart + 1))
			printf '%-22s %5s %4s %7s %7s %7s %s\n' "$sh" "$cuts" "$seed" \
				"$(awk '{print $1}' "$dir/groups" | sort -u | wc -l)" "$ro" "$rn" "$res"
		done
	done
done
echo "fabrics $n (with a refused group before: $apart), groups $gr: refused before $ob, after $nb; unicast+multicast CDG cyclic or check failed on $cyc fabrics"
