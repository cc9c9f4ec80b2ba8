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
. "$(dirname "$0")/turns.sh"
sim_require
sim_setup
plan 42

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
