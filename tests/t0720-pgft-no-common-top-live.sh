#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Hosts that up*/down* alone leaves apart, live (ibsim + opensm,
# routing_engine cyclic,minhop, LMC 2).  PGFT(3; 4,4,4; 1,2,2; 1,1,1):
# every leaf has 2 middle switches, whose top switches are disjoint (2 of
# the 4 each).  Two leaves in different pods each lose one cable, chosen
# from the graph so that the middle switches they keep share no top: their
# hosts have no up*/down* path to each other.  After the re-sweep: no ERR
# 5Axx, no fallback, no WRN 5A52; those pairs exist (check counts them)
# and every one is routed by one down-up turn; every end port reaches
# every LID; the switches equal `ibunion route`; ibtracert runs between a
# host of each leaf; unicast + multicast free of credit loops.  Then every
# host of both leaves joins the group (as IPoIB's broadcast group has every
# port), and one host of each a second group: no group is refused (ERR
# 5A33), each tree turns once at a junction, every member gets one copy,
# unicast + multicast stay free of credit loops, and `ibunion mcast tree`
# computes the same tables offline.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/turns.sh"
sim_require
sim_setup
plan 28

net=$SIM_DIR/pgft.net
t_expect "ibunion gen pgft 3 levels, 2 middle switches per leaf, shuffled" \
	"$IBUNION" gen pgft --m 4,4,4 --w 1,2,2 --p 1,1,1 --shuffle-ports \
	--shuffle-records --seed 23 -o "$net"
roles "$net" >"$SIM_DIR/roles"

# pick NET ROLES: "LEAF_A PORT_A LEAF_B PORT_B HOST_A HOST_B": A's first
# cable to a middle switch; B, a leaf sharing no middle switch with A,
# loses its cable to the middle switch that shares tops with the one A
# keeps, so the ones they keep share none
pick()
{
	awk -v roles="$2" '
	BEGIN { while ((getline l < roles) > 0) { split(l, f, " "); r[f[2]] = f[1] } }
	/^(Switch|Hca|Ca)[ \t]/ {
		name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
		order[++n] = name; next
	}
	/^\[[0-9]+\][ \t]*"/ {
		peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
		port = $1; gsub(/[][]/, "", port)
		nb[name] = nb[name] " " peer; pt[name, peer] = port
		if (r[name] == "" && r[peer] == "leaf" && !(peer in host))
			host[peer] = name
	}
	function mids(s, out,   k, p, i, c) {
		k = split(nb[s], p, " "); c = 0
		for (i = 1; i <= k; i++) if (r[p[i]] == "middle") out[++c] = p[i]
		return c
	}
	function share(x, y,   k, p, i) {	# do middles x and y share a top?
		k = split(nb[x], p, " ")
		for (i = 1; i <= k; i++) if (r[p[i]] == "top" && index(" " nb[y] " ", " " p[i] " ")) return 1
		return 0
	}
	END {
		for (i = 1; i <= n; i++) {
			a = order[i]
			if (r[a] != "leaf" || mids(a, ma) != 2) continue
			for (j = 1; j <= n; j++) {
				b = order[j]
				if (r[b] != "leaf" || mids(b, mb) != 2) continue
				if (mb[1] == ma[1] || mb[1] == ma[2] || mb[2] == ma[1] || mb[2] == ma[2]) continue
				# A keeps ma[2]; B loses the middle sharing its tops
				lose = share(mb[1], ma[2]) ? mb[1] : mb[2]
				keep = lose == mb[1] ? mb[2] : mb[1]
				if (share(keep, ma[2])) continue
				print a, pt[a, ma[1]], b, pt[b, lose], host[a], host[b]
				exit
			}
		}
	}' "$1"
}
read -r leaf_a port_a leaf_b port_b host_a host_b < <(pick "$net" "$SIM_DIR/roles")
diag "cut $leaf_a[$port_a] and $leaf_b[$port_b]; hosts $host_a, $host_b"
t_equal "two leaves, the cables whose loss leaves their middle switches no common top, a host on each" \
	"$([ -n "$leaf_a" ] && [ -n "$port_a" ] && [ -n "$leaf_b" ] && [ -n "$port_b" ] && [ -n "$host_a" ] && [ -n "$host_b" ] && echo yes)" yes

t_expect "ibsim runs it, console open" sim_start_ibsim_console "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2 force_heavy_sweep TRUE
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
# shellcheck disable=SC2046
t_expect "8 hosts join one group" mc_join_all 3 $(mc_hcas "$net" | mc_pick 5 8)

mark=$(sim_log_mark)
ok=0
sim_ibsim_cmd "Unlink \"$leaf_a\"[$port_a]" || ok=1
sim_ibsim_cmd "Unlink \"$leaf_b\"[$port_b]" || ok=1
[ "$ok" = 0 ] && sim_resweep || ok=1
t_equal "cuts: ibsim unlinks both cables; opensm re-swept" "$ok" 0
sim_log_since "$mark" >"$SIM_DIR/cuts.log"
t_no_grep "cuts: no ERR 5Axx, no fallback, no WRN 5A52 (no entry left unrouted)" \
	"ERR 5A|WRN 5A52|minhop tables configured" "$SIM_DIR/cuts.log"
t_grep "cuts: the summary counts the turned entries, none unrouted" \
	"degraded: 2 faults .* 0 left unrouted at leaves: no up\*/down\* path; [1-9][0-9]* turned once" \
	"$SIM_DIR/cuts.log"
check_all cuts
t_grep "cuts: the cuts leave pairs without an up*/down* path, every one turned" \
	" ([1-9][0-9]*) pairs without an up\*/down\* path \(\1 of them turned\)" \
	"$SIM_DIR/cuts.check"
la=$(lid_of "$SIM_DIR/cuts.ibnd" "$host_a")
lb=$(lid_of "$SIM_DIR/cuts.ibnd" "$host_b")
diag "$host_a LID $la, $host_b LID $lb"
t_expect "cuts: ibtracert from $host_a to $host_b" as_host "$host_a" ibtracert "$la" "$lb"
t_expect "cuts: ibtracert from $host_b to $host_a" as_host "$host_b" ibtracert "$lb" "$la"
# leaf_hosts NET LEAF...: the hosts cabled to those leaves
leaf_hosts()
{
	local net=$1
	shift
	awk -v leaves=" $* " '
	/^(Switch|Hca|Ca)[ \t]/ {
		name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name); next
	}
	/^\[[0-9]+\][ \t]*"/ && index(leaves, " " name " ") {
		peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
		print peer
	}' "$net" | grep -Fxf <(mc_hcas "$net")
}
mapfile -t apart < <(leaf_hosts "$net" "$leaf_a" "$leaf_b")
diag "hosts of the two leaves: ${apart[*]}"
mark=$(sim_log_mark)
t_expect "apart: the ${#apart[@]} hosts of both leaves join the group too" \
	mc_join_all 3 "${apart[@]}"
t_expect "apart: $host_a and $host_b join a group of their own" \
	mc_join_all 4 "$host_a" "$host_b"
# a sweep rebuilds every tree in MLID order from a fresh load, as the tool
t_expect "apart: opensm re-swept" sim_resweep
sim_log_since "$mark" >"$SIM_DIR/apart.log"
t_no_grep "apart: no ERR 5Axx (no group refused, no ERR 5A33)" "ERR 5A" \
	"$SIM_DIR/apart.log"
mc_dump_check apart "$SIM_DIR/cuts.ibnd"
t_expect "apart: dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/apart.lfts"
t_expect "apart: unicast (switch LIDs as destinations) + multicast, every member sending: no credit loop" \
	"$IBUNION" check -q --updown --deadlock "$SIM_DIR/cuts.ibnd" \
	"$SIM_DIR/apart.lfts" --mcast "$SIM_DIR/apart.mfts" --members "$MC_MEMBERS"
t_expect "apart: ibunion mcast tree computes the same MFTs offline" \
	sh -c '"$1" mcast tree -q --lids-from "$3" -o "$5" "$2" "$4" && "$1" diff --fabric "$2" "$5" "$6"' \
	sh "$IBUNION" "$SIM_DIR/cuts.ibnd" "$SIM_DIR/apart.lfts" "$MC_MEMBERS" \
	"$SIM_DIR/apart.expected" "$SIM_DIR/apart.mfts"
t_expect "opensm is still running" sim_opensm_alive
done_testing
