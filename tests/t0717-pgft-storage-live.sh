#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Storage on spines, live (ibsim + opensm, routing_engine cyclic,minhop):
# PGFT(2; 8,6; 1,4; 1,1) with 2 hosts cabled to two different top switches.
# Up*/down* has no route between them; they get one with one down-up turn,
# at one switch chosen per LID.  Every pair of end ports reachable (check
# --updown: 0 unreachable, none unrouted, the turned pairs counted), the
# switches equal `ibunion route` on ibnetdiscover's view, ibtracert from
# one storage host to the other, and unicast (switch LIDs as destinations)
# + a group with both storage hosts, every member sending: no credit loop.
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 16

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

# --- 1. storage on two top switches -------------------------------------
net=$SIM_DIR/pgft.net
t_expect "ibunion gen pgft 2 levels, 2 hosts on top switches, shuffled" \
	"$IBUNION" gen pgft --m 8,6 --w 1,4 --p 1,1 --hosts-on-spines 2 \
	--shuffle-ports --seed 27 -o "$net"
tops=$(awk '/^(Hca|Ca)[ \t].*"spine-hca/ { getline; sub(/^[^"]*"/, ""); sub(/".*/, ""); print }' "$net" | sort -u | wc -l)
t_equal "the two storage hosts hang off two different top switches" "$tops" 2
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_no_grep "storage: no ERR 5Axx, no fallback" \
	"ERR 5A|minhop tables configured" "$SIM_DIR/osm.log"
t_grep "storage: the PGFT with its hosts above the leaves" \
	"cyclic: PGFT\(2; 8,6; 1,4; 1,1\): 10 switches, 50 end ports \(2 above the leaves\)" \
	"$SIM_DIR/osm.log"
hosts=$( (mc_hcas "$net" | grep -v spine | mc_pick 3 4; echo spine-hca-0; echo spine-hca-1) )
# shellcheck disable=SC2086
t_expect "storage: 4 compute hosts and both storage hosts join one group" \
	mc_join_all 1 $hosts
check_all storage
t_grep "storage: the storage hosts reach each other through one turn" \
	"pairs without an up\*/down\* path \([1-9][0-9]* of them turned\)" \
	"$SIM_DIR/storage.check"
s0=$(lid_of "$SIM_DIR/storage.ibnd" spine-hca-0)
s1=$(lid_of "$SIM_DIR/storage.ibnd" spine-hca-1)
diag "storage hosts: LIDs $s0 and $s1"
t_expect "storage: ibtracert from one storage host to the other" \
	as_host spine-hca-0 ibtracert "$s0" "$s1"
done_testing
