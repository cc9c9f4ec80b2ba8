#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Management after faults, live (ibsim + opensm, routing_engine
# cyclic,minhop): IBFT(8,3), shuffled.  A leaf loses its cable to a middle
# switch; then another middle switch loses every parent; then the first
# middle switch is gone.  After each re-sweep: no ERR 5Axx, no fallback,
# no WRN 5A52 (no (leaf, LID) entry left unrouted), every end port reaches
# every LID, switch LIDs included (check --updown), the switches equal
# `ibunion route`, ibtracert from a host on the damaged leaf to a switch
# it lost its up*/down* way to, `ibunion check --live` run from that host,
# and unicast (switch LIDs as destinations) + multicast: no credit loop.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 42

# roles NET: "top|middle|leaf NAME" lines (from the graph, not the names)
roles()
{
	awk '
	/^(Switch|Hca|Ca)[ \t]/ {
		name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
		sw[name] = ($1 == "Switch"); next
	}
	/^\[[0-9]+\][ \t]*"/ {
		peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
		nb[name] = nb[name] " " peer
	}
	END {
		for (s in sw) {
			if (!sw[s]) continue
			n = split(nb[s], p, " ")
			for (i = 1; i <= n; i++) if (!sw[p[i]]) leaf[s] = 1
		}
		for (s in sw) {
			if (!sw[s] || (s in leaf)) continue
			role = "top"; n = split(nb[s], p, " ")
			for (i = 1; i <= n; i++) if (p[i] in leaf) role = "middle"
			print role, s
		}
		for (s in leaf) print "leaf", s
	}' "$1" | sort
}

# ports_to NET SWITCH ROLE ROLES: SWITCH's ports to switches of ROLE
ports_to()
{
	awk -v sw="$2" -v role="$3" -v roles="$4" '
	BEGIN { while ((getline l < roles) > 0) { split(l, f, " "); r[f[2]] = f[1] } }
	/^(Switch|Hca|Ca)[ \t]/ {
		name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name); next
	}
	name == sw && /^\[[0-9]+\][ \t]*"/ {
		peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
		port = $1; gsub(/[][]/, "", port)
		if (r[peer] == role) print port
	}' "$1"
}

# lid_of IBND NAME: the LID ibnetdiscover shows for a node (a switch's own,
# a CA's port 1)
lid_of()
{
	awk -v n="\"$2\"" '
	/^Switch/ && index($0, "# " n " ") { sub(/.* lid /, ""); print $1; exit }
	/^(Ca|Hca)/ { ca = index($0, "# " n) > 0; next }
	ca && /^\[1\]/ { sub(/.*# lid /, ""); print $1; exit }' "$1"
}

# check_all TAG: reads the fabric back; 6 assertions
check_all()
{
	local tag=$1 ibnd=$SIM_DIR/$1.ibnd live=$SIM_DIR/$1.lfts

	t_expect "$tag: ibnetdiscover reads the fabric" sim_client ibnetdiscover "$ibnd"
	t_expect "$tag: dump_lfts reads every switch" sim_dump_lfts "$live"
	"$IBUNION" check --updown "$ibnd" "$live" >"$SIM_DIR/$tag.check" 2>&1
	t_equal "$tag: check --updown: every end port reaches every LID, switch LIDs too (exit 0, 0 unreachable, none unrouted)" \
		"$?:$(grep -c ' 0 unreachable, 0 loops, 0 non-minimal' "$SIM_DIR/$tag.check"):$(grep -c 'left unrouted' "$SIM_DIR/$tag.check")" \
		"0:1:0"
	diag_file "$SIM_DIR/$tag.check" 2
	t_expect "$tag: the switches hold exactly what route computes" \
		sh -c '"$1" route "$2" --lids-from "$3" -o "$4" && "$1" diff --fabric "$2" "$4" "$3"' \
		sh "$IBUNION" "$ibnd" "$live" "$SIM_DIR/$tag.expected"
	mc_dump_check "$tag" "$ibnd"
	t_expect "$tag: unicast (switch LIDs as destinations) + multicast, every member sending: no credit loop" \
		"$IBUNION" check -q --updown --deadlock "$ibnd" "$live" \
		--mcast "$SIM_DIR/$tag.mfts" --members "$MC_MEMBERS"
}

# as_host HOST CMD...: CMD as that simulated HCA
as_host()
{
	local SIM_HOST=$1

	shift
	sim_client "$@"
}

# --- 2. management after faults on IBFT(8,3) ----------------------------
net=$SIM_DIR/ft83.net
t_expect "ibunion gen fattree 8 3 (shuffled ports and records)" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --shuffle-records --seed 27 \
	-o "$net"
roles "$net" >"$SIM_DIR/roles"
leaf=$(awk '$1 == "leaf" { print $2 }' "$SIM_DIR/roles" | mc_pick 2 1)
lport=$(ports_to "$net" "$leaf" middle "$SIM_DIR/roles" | head -n 1)
lost=$(awk -v s="$leaf" -v p="$lport" '
	/^(Switch|Hca|Ca)[ \t]/ { name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name); next }
	name == s && $1 == "[" p "]" { sub(/^[^"]*"/, ""); sub(/".*/, ""); print; exit }' "$net")
orphan=$(awk '$1 == "middle" { print $2 }' "$SIM_DIR/roles" | grep -vxF "$lost" | mc_pick 4 1)
host=$(awk -v s="$leaf" '
	/^(Hca|Ca)[ \t]/ { name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name); next }
	/^(Switch)/ { name = ""; next }
	name != "" && index($0, "\"" s "\"") { print name; exit }' "$net")
diag "cable $leaf[$lport] to $lost; host $host; $orphan loses its parents"
t_equal "a leaf, its middle switch, a host on it, another middle switch" \
	"$([ -n "$leaf" ] && [ -n "$lport" ] && [ -n "$lost" ] && [ -n "$host" ] && [ -n "$orphan" ] && echo yes)" yes
t_expect "ibsim runs it, console open" sim_start_ibsim_console "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 force_heavy_sweep TRUE
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
# shellcheck disable=SC2046
t_expect "8 hosts join one group" mc_join_all 2 $(mc_hcas "$net" | mc_pick 9 8)

# fault TAG TARGET CONSOLE-COMMAND...: 2 + 6 + 3 assertions (TARGET: a
# switch the host's leaf has no up*/down* way to)
fault()
{
	local tag=$1 target=$2 mark c ok=0 t h
	shift 2
	mark=$(sim_log_mark)
	for c in "$@"; do
		sim_ibsim_cmd "$c" || ok=1
	done
	[ "$ok" = 0 ] && sim_resweep || ok=1
	t_equal "$tag: ibsim: $1 ...; opensm re-swept" "$ok" 0
	sim_log_since "$mark" >"$SIM_DIR/$tag.log"
	t_no_grep "$tag: no ERR 5Axx, no fallback, no WRN 5A52 (no entry left unrouted)" \
		"ERR 5A|WRN 5A52|minhop tables configured" "$SIM_DIR/$tag.log"
	check_all "$tag"
	t=$(lid_of "$SIM_DIR/$tag.ibnd" "$target")
	h=$(lid_of "$SIM_DIR/$tag.ibnd" "$host")
	diag "$tag: $host LID $h, $target LID $t"
	t_expect "$tag: ibtracert from $host to '$target'" \
		as_host "$host" ibtracert "$h" "$t"
	t_expect "$tag: check --live --updown from $host (LID-routed SMPs to every switch)" \
		as_host "$host" "$IBUNION" check --live -q --updown
	t_grep "$tag: the summary counts the turned entries, none unrouted" \
		"degraded: .* 0 left unrouted at leaves: no up\*/down\* path; [0-9]+ turned once" \
		"$SIM_DIR/$tag.log"
}

fault cable-cut "$lost" "Unlink \"$leaf\"[$lport]"
cmds=()
for p in $(ports_to "$net" "$orphan" top "$SIM_DIR/roles"); do
	cmds+=("Unlink \"$orphan\"[$p]")
done
diag "$orphan: ${#cmds[@]} cables to its parents"
fault orphan "$lost" "${cmds[@]}"
fault switch-gone "$orphan" "Unlink \"$lost\""
t_expect "opensm is still running" sim_opensm_alive
done_testing
