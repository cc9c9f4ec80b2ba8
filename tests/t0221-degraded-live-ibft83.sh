#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Live faults on IBFT(8,3): opensm + cyclic run while ibsim's console cuts
# a switch-to-switch cable, a member host's cable, a whole top switch and a
# whole middle switch, restoring each.  After every change and re-sweep
# (SIGHUP, force_heavy_sweep) the engine in use is still cyclic (no ERR
# 5Axx, no fallback), the summary says whether the tree is degraded, and
# what the switches hold passes, read against the fabric as ibnetdiscover
# sees it at that moment: `ibunion check` (every pair with a path reachable,
# no loop), `route --lids-from` == the LFTs, `check --mcast` (the joined
# group exact for every member as sender) and `check --deadlock` (unicast +
# multicast free of credit loops).  After each restore the full cyclic rule
# holds again (`check --cyclic` on the original net file).
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
sim_require
sim_setup
plan 160

net=$SIM_DIR/ft83.net
mgid=21

# ft_roles NETFILE: "ROLE NAME" for every switch, from the graph alone: a
# leaf has an end port, a middle switch a leaf neighbour, a top switch
# neither.
ft_roles()
{
	awk '
	/^(Switch|Hca|Ca)[ \t]/ {
		kind = $1; name = $0
		sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
		isswitch[name] = (kind == "Switch")
		next
	}
	/^\[[0-9]+\][ \t]*"/ {
		peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
		nb[name] = nb[name] " " peer
	}
	END {
		for (s in isswitch) {
			if (!isswitch[s]) continue
			n = split(nb[s], p, " ")
			for (i = 1; i <= n; i++)
				if (!isswitch[p[i]]) leaf[s] = 1
		}
		for (s in isswitch) {
			if (!isswitch[s] || (s in leaf)) continue
			role = "top"
			n = split(nb[s], p, " ")
			for (i = 1; i <= n; i++)
				if (p[i] in leaf) role = "middle"
			print role, s
		}
		for (s in leaf) print "leaf", s
	}' "$1" | sort
}

# ft_port_to NETFILE SWITCH ROLE ROLES: the first port of SWITCH cabled to
# a switch of ROLE.
ft_port_to()
{
	awk -v sw="$2" -v role="$3" -v roles="$4" '
	BEGIN {
		while ((getline l < roles) > 0) {
			split(l, f, " "); r[f[2]] = f[1]
		}
	}
	/^(Switch|Hca|Ca)[ \t]/ {
		name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
		next
	}
	name == sw && /^\[[0-9]+\][ \t]*"/ {
		peer = $0; sub(/^[^"]*"/, "", peer); sub(/".*/, "", peer)
		port = $1; gsub(/[][]/, "", port)
		if (r[peer] == role) { print port; exit }
	}' "$1"
}

t_expect "ibunion gen fattree 8 3 (shuffled ports and records)" \
	"$IBUNION" gen fattree 8 3 --shuffle-ports --shuffle-records --seed 21 \
	-o "$net"
ft_roles "$net" >"$SIM_DIR/roles"
top=$(awk '$1 == "top" { print $2; exit }' "$SIM_DIR/roles")
middle=$(awk '$1 == "middle" { print $2 }' "$SIM_DIR/roles" | mc_pick 4 1)
leaf=$(awk '$1 == "leaf" { print $2 }' "$SIM_DIR/roles" | mc_pick 5 1)
leafport=$(ft_port_to "$net" "$leaf" middle "$SIM_DIR/roles")
diag "top switch $top, middle switch $middle, cable $leaf[$leafport]"
t_equal "the graph has 16 top, 32 middle and 32 leaf switches" \
	"$(cut -d' ' -f1 "$SIM_DIR/roles" | sort | uniq -c | tr -s ' ' | xargs)" \
	"32 leaf 32 middle 16 top"

t_expect "ibsim runs it, console open" sim_start_ibsim_console "$net"
sim_write_conf routing_engine cyclic,minhop lmc 4 force_heavy_sweep TRUE
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_cyclic_holds "$net" intact

hosts=$(mc_hcas "$net" | mc_pick 7 12)
# shellcheck disable=SC2086
t_expect "12 hosts join one group" mc_join_all "$mgid" $hosts
mc_dump_check intact "$net"
# the first member (its cable gets cut below) and its port GUID
victim=$(head -n 1 <<<"$hosts")
victim_guid=$(awk 'NR == 1 { print $2 }' "$MC_MEMBERS")

# t_live TAG DEGRADED: 12 assertions on the state after the last change
# (log since $mark, tables read back against ibnetdiscover's view).
t_live()
{
	local tag=$1 degraded=$2 ibnd=$SIM_DIR/$1.ibnd live=$SIM_DIR/$1.lfts

	sim_log_since "$mark" >"$SIM_DIR/$tag.log"
	t_grep "$tag: re-swept with cyclic" \
		"cyclic tables configured on all switches" "$SIM_DIR/$tag.log"
	t_no_grep "$tag: no ERR 5Axx, no fallback" \
		"ERR 5A|minhop tables configured" "$SIM_DIR/$tag.log"
	# the last sweep's summary (a trap may have swept a half-done change)
	grep "cyclic: IBFT(" "$SIM_DIR/$tag.log" | tail -n 1 >"$SIM_DIR/$tag.summary"
	if [ "$degraded" = 1 ]; then
		t_grep "$tag: the summary counts the faults and re-routes" \
			"cyclic: IBFT\(8,3\): .*degraded: [1-9][0-9]* faults \(limit [0-9]+\), [0-9]+ entries re-routed" \
			"$SIM_DIR/$tag.summary"
	else
		t_no_grep "$tag: the summary says the tree is intact" \
			"degraded:" "$SIM_DIR/$tag.summary"
	fi
	grep -E "cyclic: IBFT|WRN 5A5" "$SIM_DIR/$tag.log" | sed 's/.*-> //' |
		tail -n 6 | while IFS= read -r l; do diag "$l"; done
	t_expect "$tag: ibnetdiscover reads the fabric" sim_client ibnetdiscover "$ibnd"
	t_expect "$tag: dump_lfts reads every switch" sim_dump_lfts "$live"
	t_expect "$tag: ibunion check --updown: every pair with an up*/down* path reachable on one, no loop, no down-up turn" \
		"$IBUNION" check --updown "$ibnd" "$live"
	t_expect "$tag: check --cyclic: every entry as the engine routes around the faults" \
		"$IBUNION" check --cyclic -q "$ibnd" "$live"
	t_expect "$tag: route on ibnetdiscover's view --lids-from the dump" \
		"$IBUNION" route "$ibnd" --lids-from "$live" -o "$SIM_DIR/$tag.expected"
	t_expect "$tag: the switches hold exactly what route computes" \
		"$IBUNION" diff --fabric "$ibnd" "$SIM_DIR/$tag.expected" "$live"
	mc_dump_check "$tag" "$ibnd"
	t_expect "$tag: unicast + multicast (every member sending): no credit loop" \
		"$IBUNION" check --updown "$ibnd" "$live" --deadlock \
		--mcast "$SIM_DIR/$tag.mfts" --members "$MC_MEMBERS"
}

# ibsim_then_resweep CONSOLE-COMMAND...: every command, then one re-sweep.
ibsim_then_resweep()
{
	local c

	for c in "$@"; do
		sim_ibsim_cmd "$c" || return 1
	done
	sim_resweep
}

# t_change TAG DEGRADED CONSOLE-COMMAND...: 1 + 12 assertions.
t_change()
{
	local tag=$1 degraded=$2 i
	shift 2

	mark=$(sim_log_mark)
	if t_expect "$tag: ibsim: $*; opensm re-swept" ibsim_then_resweep "$@"; then
		t_live "$tag" "$degraded"
	else
		for ((i = 0; i < 12; i++)); do
			not_ok "$tag: (no re-sweep)"
		done
	fi
}

# t_restored TAG: after a restore, the full cyclic rule holds again.
t_restored()
{
	t_expect "$1: check --cyclic on the original net file" \
		"$IBUNION" check "$net" "$SIM_DIR/$1.lfts" --cyclic
}

t_change cable-cut 1 "Unlink \"$leaf\"[$leafport]"
t_change cable-back 0 "ReLink \"$leaf\"[$leafport]"
t_restored cable-back

# the group loses the unplugged member (OpenSM drops its port) and the
# tree must still be exact for the rest; it joins again once back
grep -v " $victim_guid " "$MC_MEMBERS" >"$MC_MEMBERS.new" &&
	mv "$MC_MEMBERS.new" "$MC_MEMBERS"
t_change host-cut 0 "Unlink \"$victim\""
t_grep "host-cut: 127 end ports routed" "cyclic: IBFT\(8,3\): 80 switches, 127 end ports" \
	"$SIM_DIR/host-cut.summary"
t_change host-back 0 "ReLink \"$victim\""
t_expect "host-back: the host joins the group again" mc_join "$mgid" "$victim"
mc_dump_check host-rejoined "$net"
t_restored host-back

t_change top-cut 1 "Unlink \"$top\""
t_change top-back 0 "ReLink \"$top\""
t_restored top-back
t_change middle-cut 1 "Unlink \"$middle\""
t_change middle-back 0 "ReLink \"$middle\""
t_restored middle-back

# all at once: a cable, a host that is no member, the top and the middle
# switch, in one sweep; then all back
other=$(mc_hcas "$net" | grep -vxF -f <(echo "$hosts") | mc_pick 9 1)
cut=("Unlink \"$leaf\"[$leafport]" "Unlink \"$other\"" "Unlink \"$top\""
	"Unlink \"$middle\"")
t_change all-cut 1 "${cut[@]}"
t_grep "all-cut: 3 faults, 127 end ports" \
	"cyclic: IBFT\(8,3\): 78 switches, 127 end ports, .*degraded: 3 faults" \
	"$SIM_DIR/all-cut.summary"
# every (leaf, LID) entry routed: switch LIDs the cut leaf and the
# orphaned switches lost their up*/down* way to take one confined turn
t_no_grep "all-cut: no WRN 5A52: no (leaf switch, LID) entry left unrouted" \
	"WRN 5A52" "$SIM_DIR/all-cut.log"
t_no_grep "all-cut: no WRN 5A5D: nothing to list" "WRN 5A5D" "$SIM_DIR/all-cut.log"
t_equal "all-cut: ibunion-unrouted.dump lists none" \
	"$(cat "$SIM_DIR/ibunion-unrouted.dump" 2>/dev/null | grep -vc '^#')" "0"
"$IBUNION" check -v "$SIM_DIR/all-cut.ibnd" "$SIM_DIR/all-cut.lfts" >"$SIM_DIR/all-cut.v" 2>&1
t_equal "all-cut: check -v: no pair unrouted, none unreachable" \
	"$(grep -c '^-W- unrouted: .* -> LID 0x' "$SIM_DIR/all-cut.v"):$(grep -c ': 0 unreachable, 0 loops' "$SIM_DIR/all-cut.v")" "0:1"
"$IBUNION" check --json "$SIM_DIR/all-cut.ibnd" "$SIM_DIR/all-cut.lfts" \
	>"$SIM_DIR/all-cut.json" 2>/dev/null
t_equal "all-cut: check --json lists no unrouted pair" \
	"$(grep -o '"kind":"unrouted"' "$SIM_DIR/all-cut.json" | wc -l)" "0"
t_grep "all-cut: check --json names engine, topology and LMC" \
	'"engine":"cyclic","topology":"IBFT\(8,3\)","lmc":[0-9]' "$SIM_DIR/all-cut.json"
t_change all-back 0 "${cut[@]/#Unlink/ReLink}"
t_restored all-back
t_expect "opensm is still running" sim_opensm_alive
done_testing
