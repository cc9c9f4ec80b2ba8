#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Link loads on PGFTs: cyclic against OpenSM's ftree and minhop
# on the same shuffled fabrics in ibsim, with and without OpenSM's
# guid_routing_order_file, tables read back from the switches, base LIDs
# (what SA hands applications).  Not part of make check.
#
#	tests/scripts/pgft-load-table.sh [-o TABLE.txt] [PGFT...]
#
# PGFT is "M1,..:W1,..:P1,.." (default: 2 levels with 2 cables from every
# leaf to every spine; 18 hosts and 3 uplinks a leaf, 6:1 blocking; 3
# levels with 3 of 8 pods).  The order file lists the hosts as a job
# scheduler might place ranks: pods and leaves in another order than the
# engine's, hosts reversed inside each leaf (made from the graph with
# `ibunion order --guids`).  Columns (busiest link, messages):
#   a2a          all-to-all on base LIDs
#   shift/file   the worst shift permutation with ranks in the file's order
#   shift/own    the same in cyclic's own order (what `ibunion order` prints
#                without the file)
# Bounds (docs/design.md): all-to-all max(N-1, per level M(N-M)/up-cables),
# shifts ceil(hosts of a sub-tree / its up-cables), 1 when not blocking.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
out=
trees=()
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=${2-}; shift 2 || { echo "pgft-load-table: -o needs a file" >&2; exit 2; } ;;
	-*) echo "pgft-load-table: unknown option '$1'" >&2; exit 2 ;;
	*) trees+=("$1"); shift ;;
	esac
done
[ ${#trees[@]} -gt 0 ] || trees=("8,12:1,4:1,2" "18,8:1,3:1,1" "4,4,3:1,4,4:1,1,1")

BUILD_DIR=$build bash "$top/tests/scripts/build.sh" || exit 1
# shellcheck disable=SC2034 # read by tests/sim.sh
top_srcdir=$top
# shellcheck disable=SC2034
top_builddir=$build
# shellcheck source=../sim.sh
. "$top/tests/sim.sh"
sim_script_mode

# permute OWN.guids M1 M2: pods rotated by one, leaves inside a pod
# rotated by one, hosts reversed inside a leaf (m1 hosts a leaf, m2
# leaves a pod; the last pod or leaf may be short: kept whole)
permute()
{
	awk -v m1="$2" -v m2="$3" '{ a[NR - 1] = $0 } END {
		pod = m1 * m2; np = int((NR + pod - 1) / pod)
		for (p = 0; p < np; p++) {
			sp = ((p + 1) % np) * pod
			for (l = 0; l < m2; l++) {
				sl = sp + ((l + 1) % m2) * m1
				for (h = m1 - 1; h >= 0; h--)
					if (sl + h < NR && sl + h < sp + pod)
						print a[sl + h]
			}
		} }' "$1"
}

# loads VIEW LFTS [ORDER]: "a2a shift"
loads()
{
	local o=()
	[ -n "${3-}" ] && o=(-O "guid_routing_order_file=$3")
	"$IBUNION" load -q "$1" "$2" --pattern all-to-all,shift "${o[@]}" 2>/dev/null |
		awk '$1 == "all-to-all" { a = $4 } $1 == "shift" { s = $4 } END { print a, s }'
}

{
printf '%-28s %-14s %-5s %5s %10s %9s\n' PGFT engine file a2a shift/file shift/own
for spec in "${trees[@]}"; do
	IFS=: read -r m w p <<<"$spec"
	work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-pgfttab.XXXXXX") || exit 1
	net=$work/pgft.net
	"$IBUNION" gen pgft --m "$m" --w "$w" --p "$p" --shuffle-ports \
		--shuffle-records --seed 11 -o "$net" || continue
	sim_setup >/dev/null
	if ! sim_start_ibsim "$net" >/dev/null; then
		sim_teardown >/dev/null
		continue
	fi
	name=
	for eng in cyclic cyclic ftree ftree minhop minhop; do
		with=$([ "${seen:-}" = "$eng" ] && echo yes || echo no)
		seen=$eng
		conf=(routing_engine "$eng" lmc 0)
		[ "$with" = yes ] && conf+=(guid_routing_order_file "$work/order.guids")
		sim_write_conf "${conf[@]}" log_flags 0x03
		sim_start_opensm
		if ! sim_wait_subnet_up 300 >/dev/null || ! sim_dump_lfts "$work/t.lfts" >/dev/null; then
			sim_stop_opensm >/dev/null
			printf '%-28s %-14s %-5s no tables\n' "${name:-$spec}" "$eng" "$with"
			continue
		fi
		if [ ! -f "$work/view.ibnd" ]; then
			sim_client ibnetdiscover "$work/view.ibnd" >/dev/null 2>&1
			"$IBUNION" order "$work/view.ibnd" --guids >"$work/own.guids"
			permute "$work/own.guids" "${m%%,*}" "$(cut -d, -f2 <<<"$m")" \
				>"$work/order.guids"
			name=$("$IBUNION" route "$work/view.ibnd" --lids-from "$work/t.lfts" \
				-o /dev/null 2>&1 | grep -o 'PGFT([^)]*)' | head -n 1)
		fi
		used=$(grep -o '[a-z]* tables configured' "$SIM_DIR/osm.log" | tail -n 1)
		used=${used%% *}
		read -r a2a sfile <<<"$(loads "$work/view.ibnd" "$work/t.lfts" "$work/order.guids")"
		read -r _ sown <<<"$(loads "$work/view.ibnd" "$work/t.lfts")"
		[ "$used" = "$eng" ] || eng="$eng*$used"
		printf '%-28s %-14s %-5s %5s %10s %9s\n' "${name:-$spec}" "$eng" "$with" \
			"$a2a" "$sfile" "$sown"
		sim_stop_opensm >/dev/null
		mv "$SIM_DIR/osm.log" "$SIM_DIR/osm-$eng-$with.log"
	done
	unset seen
	sim_teardown >/dev/null
	rm -rf "$work"
done
} | tee "${out:-/dev/null}"
