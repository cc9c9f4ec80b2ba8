#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Multicast groups with members on several spines of a PGFT (
# item 5), offline: storage hosts on three of the top switches join groups
# with compute hosts, on a 2-level tree with parallel cables and on a
# 3-level one (its tops named in a root_guid_file).  A top switch reaches
# another only down through a leaf and up again, so those trees turn
# down-up somewhere; when each tree picked its own leaf, two groups
# crossing in opposite directions closed a credit loop with each other
# (found by check --deadlock).  Every tree now crosses at the same leaf,
# on the same way down from each top, so unicast plus every group, every
# member sending, is free of credit loops, and each group still reaches
# every member exactly once, under every apex policy.  Members are chosen
# by port GUID from the graph (compute hosts from `ibunion order --guids`,
# which lists no host above the leaves; storage hosts: the other channel
# adapters of route's dump).
. "$(dirname "$0")/sim.sh"
sim_setup
plan 19

# spine_groups TAG HOSTS OPTS...: 8 assertions on the fabric $SIM_DIR/TAG.net
# (HOSTS compute hosts), routed and its trees built with OPTS (-O ...)
spine_groups()
{
	local tag=$1 hosts=$2 d=$SIM_DIR/$1 policy
	shift 2

	t_expect "$tag: route at the scheme's LMC" "$IBUNION" route "$@" \
		"$d.net" -o "$d.lft"
	"$IBUNION" order "$@" "$d.net" --guids >"$d.compute"
	# the end ports: the dump names every channel adapter's port GUID
	sed -n 's/.*(Channel Adapter portguid \(0x[0-9a-fA-F]*\):.*/\1/p' \
		"$d.lft" | sort -u >"$d.ends"
	grep -vxFf "$d.compute" "$d.ends" >"$d.storage"
	t_equal "$tag: 3 storage hosts, $hosts compute hosts" \
		"$(wc -l <"$d.storage"):$(wc -l <"$d.compute")" "3:$hosts"
	# c000: every end port; c001: the storage hosts and 2 compute hosts;
	# c002: storage 3 -> 1 order, 2 compute hosts sending only
	{
		awk '{ print "0xc000", $1, "full" }' "$d.ends"
		awk '{ print "0xc001", $1, "full" }' "$d.storage"
		head -n 2 "$d.compute" | awk '{ print "0xc001", $1, "full" }'
		tac "$d.storage" | awk '{ print "0xc002", $1, "full" }'
		tail -n 2 "$d.compute" | awk '{ print "0xc002", $1, "send-only" }'
	} >"$d.members"
	for policy in balanced source lowest-guid; do
		t_expect "$tag: mcast tree --policy $policy" "$IBUNION" mcast tree \
			-q "$@" "$d.net" "$d.members" --policy "$policy" \
			-o "$d.$policy.mft"
		t_expect "$tag, $policy: every member once from every sender, unicast + groups free of credit loops" \
			"$IBUNION" check -q "$@" --deadlock --mcast "$d.$policy.mft" \
			--members "$d.members" "$d.net" "$d.lft"
	done
}

t_expect "ibunion gen pgft: 2 levels, parallel cables, 3 storage hosts on tops" \
	"$IBUNION" gen pgft --m 6,4 --w 1,3 --p 1,2 --hosts-on-spines 3 \
	--shuffle-ports --shuffle-records --seed 15 -o "$SIM_DIR/two.net"
spine_groups two 24

t_expect "ibunion gen pgft: 3 levels, 3 storage hosts on tops" \
	"$IBUNION" gen pgft --m 4,4,3 --w 1,2,2 --p 1,1,1 --hosts-on-spines 3 \
	--shuffle-ports --seed 3 -o "$SIM_DIR/three.net"
# the admin's root file: the top switches' node GUIDs, as ibsim numbers
# switches (0x200000 on, in record order; the generator names tops sw3-)
awk '/^Switch/ { if ($0 ~ /"sw3-/) printf "0x%016x\n", 2097152 + i; i++ }' \
	"$SIM_DIR/three.net" >"$SIM_DIR/three.roots"
t_equal "the root file names the 4 top switches" "$(wc -l <"$SIM_DIR/three.roots")" 4
spine_groups three 48 -O root_guid_file="$SIM_DIR/three.roots"
done_testing
