#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Multicast groups with members on several spines of a 2-level PGFT
# (issue 14, item 5), offline: storage hosts on three of the top switches
# join groups with compute hosts.  A top switch reaches another only down
# through a leaf and up again, so those trees turn down-up somewhere; when
# each tree picked its own leaf, two groups crossing in opposite
# directions closed a credit loop with each other (found by check
# --deadlock).  Every tree now crosses at the same leaf, so unicast plus
# every group, every member sending, is free of credit loops, and each
# group still reaches every member exactly once, under every apex policy.
# Members are chosen by port GUID from the graph (compute hosts from
# `ibunion order --guids`, which lists no host above the leaves; storage
# hosts: the other channel adapters of route's dump).
. "$(dirname "$0")/sim.sh"
sim_setup
plan 9

net=$SIM_DIR/spines.net
t_expect "ibunion gen pgft: 2 levels, parallel cables, 3 storage hosts on tops" \
	"$IBUNION" gen pgft --m 6,4 --w 1,3 --p 1,2 --hosts-on-spines 3 \
	--shuffle-ports --shuffle-records --seed 15 -o "$net"
t_expect "route at the scheme's LMC" "$IBUNION" route "$net" -o "$SIM_DIR/uc.lft"
"$IBUNION" order "$net" --guids >"$SIM_DIR/compute.guids"
# the end ports: the dump names every channel adapter's port GUID
sed -n 's/.*(Channel Adapter portguid \(0x[0-9a-fA-F]*\):.*/\1/p' \
	"$SIM_DIR/uc.lft" | sort -u >"$SIM_DIR/ends.guids"
grep -vxFf "$SIM_DIR/compute.guids" "$SIM_DIR/ends.guids" >"$SIM_DIR/storage.guids"
t_equal "3 storage hosts, 24 compute hosts" \
	"$(wc -l <"$SIM_DIR/storage.guids"):$(wc -l <"$SIM_DIR/compute.guids")" "3:24"
# group c000: every end port; c001: the storage hosts and 2 compute
# hosts; c002: storage 3 -> 1 order, 2 compute hosts sending only
{
	awk '{ print "0xc000", $1, "full" }' "$SIM_DIR/ends.guids"
	awk '{ print "0xc001", $1, "full" }' "$SIM_DIR/storage.guids"
	head -n 2 "$SIM_DIR/compute.guids" | awk '{ print "0xc001", $1, "full" }'
	tac "$SIM_DIR/storage.guids" | awk '{ print "0xc002", $1, "full" }'
	tail -n 2 "$SIM_DIR/compute.guids" | awk '{ print "0xc002", $1, "send-only" }'
} >"$SIM_DIR/members"
for policy in balanced source lowest-guid; do
	t_expect "mcast tree --policy $policy" "$IBUNION" mcast tree -q "$net" \
		"$SIM_DIR/members" --policy "$policy" -o "$SIM_DIR/$policy.mft"
	t_expect "$policy: every member once from every sender, unicast + groups free of credit loops" \
		"$IBUNION" check -q --deadlock --mcast "$SIM_DIR/$policy.mft" \
		--members "$SIM_DIR/members" "$net" "$SIM_DIR/uc.lft"
done
done_testing
