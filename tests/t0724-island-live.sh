#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A fabric file that holds more than OpenSM saw, live (ibsim + opensm,
# routing_engine cyclic,minhop).  IBFT(4,2), one leaf (chosen from the
# graph, away from the SM's node) with every cable to a spine cut: an
# island of one switch and its hosts that the SM never discovers, which
# the net file still holds.  The tools read beside the dump judge what
# OpenSM routed: check leaves the island out with one -W- line and passes
# (no host reported unreachable, the engine's rule holds), route
# --lids-from recognises the tree OpenSM gave the engine and equals the
# switches, load counts no unrouted pair.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/turns.sh"
sim_require
sim_setup
plan 12

full=$SIM_DIR/full.net
net=$SIM_DIR/island.net
t_expect "ibunion gen fattree 4 2, shuffled ports" \
	"$IBUNION" gen fattree 4 2 --shuffle-ports -o "$full"
roles "$full" >"$SIM_DIR/roles"

# cut NET ROLES: NET without the cables between one leaf and the spines;
# the leaf is neither the file's first record (ibsim's SM node) nor the
# switch of that record's host.  Prints the leaf on stderr.
cut()
{
	awk -v roles="$2" '
	BEGIN {
		while ((getline l < roles) > 0) { split(l, f, " "); r[f[2]] = f[1] }
		RS = ""; FS = "\n"
	}
	/^#/ { next }
	{
		rec[NR] = $0; name = $1; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
		nm[NR] = name
		if (first == "") first = name
		for (i = 2; i <= NF; i++) {
			peer = $i; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
			if (r[name] == "leaf" && peer == first) sm_leaf = name
		}
	}
	END {
		for (k = 1; k <= NR && leaf == ""; k++)
			if ((k in nm) && r[nm[k]] == "leaf" && nm[k] != first && nm[k] != sm_leaf)
				leaf = nm[k]
		print leaf > "/dev/stderr"
		for (k = 1; k <= NR; k++) {
			if (!(k in rec)) continue
			n = split(rec[k], line, "\n"); out = line[1]
			for (i = 2; i <= n; i++) {
				peer = line[i]; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
				if ((nm[k] == leaf && r[peer] != "" && r[peer] != "leaf") ||
				    (peer == leaf && r[nm[k]] != "" && r[nm[k]] != "leaf"))
					continue
				out = out "\n" line[i]
			}
			print out "\n"
		}
	}' "$1"
}
leaf=$(cut "$full" "$SIM_DIR/roles" 2>&1 >"$net")
diag "island: leaf $leaf"
t_equal "a leaf away from the SM node, all its spine cables gone from the file" \
	"$([ -n "$leaf" ] && grep -c '"' "$full" | awk -v c="$(grep -c '"' "$net")" '{ print ($1 - c) }')" 4

t_expect "ibsim runs the fabric with the island" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_no_grep "no ERR 5Axx, no fallback" "ERR 5A|minhop tables configured" \
	"$SIM_DIR/osm.log"
t_expect "dump_lfts reads every switch OpenSM configured" \
	sim_dump_lfts "$SIM_DIR/sw.lfts"

out=$("$IBUNION" check "$net" "$SIM_DIR/sw.lfts" 2>&1)
rc=$?
printf '%s\n' "$out" >"$SIM_DIR/check.txt"
t_equal "check of the net file beside the dump passes" "$rc" 0
t_grep "check: the island left out, one -W- line" \
	"^-W- ibunion check: 1 switch and 2 end nodes not connected to any switch .* has a table for" \
	"$SIM_DIR/check.txt"
t_grep "check: cyclic's rule judged, no host unreachable" \
	"^-I- check: 6 sources x .* 0 unreachable, 0 loops, 0 non-minimal.* 0 cyclic mismatches" \
	"$SIM_DIR/check.txt"
t_expect "route --lids-from the dump: the tree OpenSM gave cyclic" \
	"$IBUNION" route "$net" --lids-from "$SIM_DIR/sw.lfts" -o "$SIM_DIR/route.lfts"
t_expect "route's tables equal the switches" \
	"$IBUNION" diff -q --fabric "$net" "$SIM_DIR/sw.lfts" "$SIM_DIR/route.lfts"
"$IBUNION" load "$net" "$SIM_DIR/sw.lfts" --pattern all-to-all \
	>"$SIM_DIR/load.txt" 2>&1
t_equal "load: 30 messages (6 hosts), none unrouted" \
	"$(awk '$1 == "all-to-all" && $2 == "base" { print $3, $8 }' "$SIM_DIR/load.txt")" "30 0"
done_testing
