#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Link-load benchmark: IBFT(8,3), ports shuffled, brought up in
# ibsim under the cyclic engine (offsets=rotated and offsets=paper when the
# plugin has the option, else its only mode), OpenSM's ftree (lmc 0), updn
# and minhop (lmc 4); the tables the switches hold are read back with
# dump_lfts and `ibunion load` measures all-to-all, the worst shift
# permutation and a random permutation with base, pairs and cyclic DLIDs.
# Then [Zhou07]'s evaluation matrix (sources 1 / 40% / 70% / 100% x groups
# 10% / 40% / 70% / 100%) on offline tables: multicast through union trees
# (balanced apexes, and one apex for every tree like OpenSM's single-root
# trees) against the same messages by unicast (base and cyclic DLIDs).
# Not part of make check.
#
#	tests/scripts/bench-load.sh [--size BYTES] [--seed S] [-o DIR]
#
#	--size BYTES   message size for the completion estimate (default 4096)
#	--seed S       fabric shuffle, random permutation, multicast cases (1)
#	-o DIR         keep the dumps and `ibunion load` outputs in DIR
#
# Cells: busiest link / busiest switch-to-switch link, in messages (pairs:
# each message split over the 16 LIDs, so fractions appear), and the
# estimated completion time in microseconds with [Zhou07]'s model (20 ns
# per link, 100 ns per switch, 4 ns per byte, messages sharing a link
# serialised on it).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
size=4096
seed=1
keep=

while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	-o) keep=$2; shift 2 ;;
	-h | --help) sed -n '3,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-load: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done

BUILD_DIR=$build bash "$top/tests/scripts/build.sh" >/dev/null || exit 1

top_srcdir=$top
top_builddir=$build
# shellcheck source=../sim.sh
. "$top/tests/sim.sh"
sim_script_mode

work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-bench-load.XXXXXX") || exit 1
sim_at_exit 'rm -rf "$work"'
trap 'rm -rf "$work"' EXIT
out=${keep:-$work}
mkdir -p "$out" || exit 1
net=$out/ibft83.net
"$IBUNION" gen fattree 8 3 --shuffle-ports --shuffle-records --seed "$seed" -o "$net" || exit 1

# tag | routing_engine | lmc | event_plugin_options
configs=()
# (the help read whole: grep -q quitting early could fail the pipe under
# pipefail)
if [[ $("$IBUNION" route --help 2>&1) == *--offsets* ]]; then
	configs+=("cyclic-rotated|cyclic,minhop|4|offsets=rotated"
		  "cyclic-paper|cyclic,minhop|4|offsets=paper")
else
	configs+=("cyclic|cyclic,minhop|4|-")
fi
configs+=("ftree|ftree|0|-" "updn|updn|4|-" "minhop|minhop|4|-")

# follows TAG: for cyclic-MODE tables, whether they follow that offsets rule
follows()
{
	case $1 in cyclic-*) ;; *) return 0 ;; esac
	if "$IBUNION" check -q --cyclic --offsets "${1#cyclic-}" "$net" \
		"$out/$1.lfts" >/dev/null 2>&1; then
		echo "; the tables follow offsets=${1#cyclic-}"
	else
		echo "; the tables do NOT follow offsets=${1#cyclic-} (option not in effect?)"
	fi
}

# bring TAG ENGINE LMC OPTIONS: fresh ibsim + opensm, $out/TAG.lfts
bring()
{
	local tag=$1 engine=$2 lmc=$3 opts=$4 used plugin=ibunion

	sim_setup >/dev/null
	if ! sim_start_ibsim "$net" >/dev/null; then
		sim_mark_failed
		sim_teardown
		echo "bench-load: ibsim failed" >&2
		return 1
	fi
	case $engine in cyclic*) ;; *) plugin=- ;; esac
	sim_write_conf event_plugin_name "$plugin" routing_engine "$engine" \
		lmc "$lmc" log_flags 0x07 event_plugin_options "$opts"
	sim_start_opensm
	if ! sim_wait_subnet_up 600 >"$SIM_DIR/wait.out" ||
	   ! sim_dump_lfts "$out/$tag.lfts" >/dev/null; then
		sim_mark_failed
		echo "bench-load: $tag: no SUBNET UP or no dump, files in $SIM_DIR" >&2
		sim_teardown >/dev/null
		return 1
	fi
	used=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' \
		"$SIM_DIR/osm.log" | head -n 1)
	cp "$SIM_DIR/osm.log" "$out/$tag.osm.log"
	sim_teardown >/dev/null
	echo "$tag: routed by ${used:-?}$(follows "$tag")" >>"$out/engines"
	return 0
}

: >"$out/engines"
failures=0
for c in "${configs[@]}"; do
	IFS='|' read -r tag engine lmc opts <<<"$c"
	echo "bench-load: $tag ($engine, lmc $lmc${opts:+, $opts}) ..." >&2
	bring "$tag" "$engine" "$lmc" "$opts" || { failures=$((failures + 1)); continue; }
	if [ "$tag" = cyclic-paper ] && grep -q "^cyclic-paper: .*do NOT follow" "$out/engines"; then
		# the plugin did not apply offsets=paper: what it would program,
		# computed offline for the same LIDs (ibunion route equals the
		# switches' tables, tests t0100-t0130)
		"$IBUNION" route "$net" --lids-from "$out/$tag.lfts" --offsets paper \
			-o "$out/$tag.lfts" 2>/dev/null || { failures=$((failures + 1)); continue; }
		echo "$tag: tables computed offline (ibunion route --offsets paper, the live LIDs)$(follows "$tag")" \
			>>"$out/engines"
	fi
	offs=()
	case $tag in cyclic-*) offs=(--offsets "${tag#cyclic-}") ;; esac
	"$IBUNION" load "$net" "$out/$tag.lfts" -q --size "$size" --seed "$seed" \
		--pattern all-to-all,shift,random --dlids base,pairs,cyclic "${offs[@]}" \
		>"$out/$tag.load" || failures=$((failures + 1))
done

echo
echo "IBFT(8,3), 128 end ports, ports shuffled (seed $seed); tables read back from ibsim;"
echo "message $size bytes; busiest link / busiest switch-to-switch link in messages, time in us"
echo
printf '| %-22s | %-6s | %-22s | %-22s | %-22s |\n' tables DLIDs \
	"all-to-all" "worst shift" "random perm."
printf '|%s|%s|%s|%s|%s|\n' ------------------------  -------- ------------------------ \
	------------------------ ------------------------
for c in "${configs[@]}"; do
	IFS='|' read -r tag engine lmc opts <<<"$c"
	[ -f "$out/$tag.load" ] || continue
	for d in base pairs cyclic; do
		awk -v t="$tag (lmc $lmc)" -v d="$d" '
			$2 == d { cell[$1] = sprintf("%s / %s, %.0f us", $4, $5, $7) }
			END {
				printf "| %-22s | %-6s | %-22s | %-22s | %-22s |\n", t, d,
					cell["all-to-all"], cell["shift"], cell["random"]
			}' "$out/$tag.load"
	done
done
echo
sed 's/^/  /' "$out/engines"

# ---- [Zhou07], sect. 4: multicast vs unicast on offline tables
echo
echo "[Zhou07]'s cases on offline cyclic tables (ibunion route --lmc 4, the default rule), seed $seed:"
echo "busiest link / busiest switch-to-switch link in messages, time in us;"
echo "one MLID per source (its own tree); one apex = every tree through the"
echo "lowest-GUID candidate, as OpenSM's single-root trees"
"$IBUNION" route "$net" --lmc 4 -o "$out/offline.lfts" || exit 1
printf '\n| %-7s | %-5s | %-20s | %-20s | %-20s | %-20s |\n' sources group \
	"mcast balanced" "mcast one apex" "unicast base" "unicast cyclic"
printf '|%s|%s|%s|%s|%s|%s|\n' --------- ------- ---------------------- \
	---------------------- ---------------------- ----------------------
for s in 1 40% 70% 100%; do
	for g in 10% 40% 70% 100%; do
		"$IBUNION" load "$net" "$out/offline.lfts" -q --size "$size" --seed "$seed" \
			--pattern "mcast:$s:$g,ucast:$s:$g" --dlids base,cyclic --policy balanced \
			>"$out/case-$s-$g.load" || failures=$((failures + 1))
		"$IBUNION" load "$net" "$out/offline.lfts" -q --size "$size" --seed "$seed" \
			--pattern "mcast:$s:$g" --policy lowest-guid \
			>"$out/case-$s-$g.one.load" || failures=$((failures + 1))
		awk -v s="$s" -v g="$g" -v one="$out/case-$s-$g.one.load" '
			function cell(p, d) { return sprintf("%s / %s, %.0f us", b[p, d], w[p, d], t[p, d]) }
			FNR == 1 { f++ }
			$1 ~ /cast:/ {
				k = f == 1 ? $1 : "one"
				b[k, $2] = $4; w[k, $2] = $5; t[k, $2] = $7
			}
			END {
				printf "| %-7s | %-5s | %-20s | %-20s | %-20s | %-20s |\n", s, g,
					cell("mcast:" s ":" g, "-"), cell("one", "-"),
					cell("ucast:" s ":" g, "base"), cell("ucast:" s ":" g, "cyclic")
			}' "$out/case-$s-$g.load" "$out/case-$s-$g.one.load"
	done
done
echo
[ -n "$keep" ] && echo "outputs kept in $keep"
[ "$failures" -eq 0 ] || { echo "bench-load: $failures step(s) failed" >&2; exit 1; }
