# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers of the live tests of routes with down-up turns (t0717, t0718):
# switch roles read from the graph, the ports toward a role, LIDs from
# ibnetdiscover, the read-back checks after each sweep.  Source after
# sim.sh and mcast.sh.

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
