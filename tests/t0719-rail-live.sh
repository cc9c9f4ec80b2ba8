#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Rail-optimized clusters, the admin's recipe: generate, order, opensm.conf,
# check.  Offline on 2- and 3-level clusters with 4 and 8 rails and 2-4
# units (ports and records shuffled): `ibunion gen rail` names every HCA
# '<server> mlx5_<r>'; `ibunion order --rails` learns the servers and rails
# from those names, writes a rail-major guid_routing_order_file and an MPI
# hostfile ('host slots=R', one line per server); with that order `cyclic`
# routes them and every rail shifting at once (every shift distance) and
# one rail alone load no link with more than one flow, all-to-all at the
# host-link bound N-1.  Live (ibsim + opensm with that order file): the
# switches hold what `ibunion route` computes with the order, and the
# same loads hold on the dump.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 44

# offline TAG GEN-ARGS...: 8 assertions
offline()
{
	local tag=$1 b=$SIM_DIR/$1 n r s hosts
	shift
	t_expect "$tag: gen rail $*" "$IBUNION" gen rail "$@" --shuffle-ports \
		--shuffle-records --seed 7 -o "$b.net"
	n=$(grep -c '^Hca.*"node[0-9]* mlx5_[0-9]*"' "$b.net")
	t_expect "$tag: order --rails --guids, --hostfile" \
		"$IBUNION" order "$b.net" --rails --guids -o "$b.order" \
		--hostfile "$b.hosts"
	r=$(sed -n 's/.* slots=\([0-9]*\)$/\1/p' "$b.hosts" | sort -u)
	s=$(grep -c ' slots=' "$b.hosts")
	hosts=$(grep -o '"node[0-9]*' "$b.net" | sort -u | wc -l)
	t_equal "$tag: hostfile: one 'host slots=R' line per server, every HCA in the order" \
		"$s:$((s * r)):$(wc -l <"$b.order")" "$hosts:$n:$n"
	"$IBUNION" order "$b.net" --rails -O guid_routing_order_file="$b.order" >"$b.names"
	t_equal "$tag: the order is rail-major (mlx5_0 first, then mlx5_1, ...)" \
		"$(sed 's/.* //' "$b.names" | uniq | tr '\n' ' ')" \
		"$(for ((i = 0; i < r; i++)); do printf 'mlx5_%d ' "$i"; done)"
	t_expect "$tag: route with the order" "$IBUNION" route "$b.net" \
		-O guid_routing_order_file="$b.order" -o "$b.lft"
	t_expect "$tag: check --cyclic" "$IBUNION" check -q --cyclic "$b.net" \
		"$b.lft" -O guid_routing_order_file="$b.order"
	"$IBUNION" load "$b.net" "$b.lft" --pattern rail-shift,rail:1,all-to-all \
		-O guid_routing_order_file="$b.order" >"$b.load" 2>&1
	diag_file "$b.load" 20
	t_equal "$tag: every rail at once and rail 1 alone, every k: busiest link 1" \
		"$(awk '/^rail/ { printf "%s ", $4 }' "$b.load")" "1 1 "
	t_equal "$tag: all-to-all: busiest link at the host-link bound N-1" \
		"$(awk '/^all-to-all/ { print $4 }' "$b.load")" "$((n - 1))"
}

offline two-4 --units 4 --servers 8 --rails 4
offline two-8 --units 2 --servers 8 --rails 8
offline three-4 --levels 3 --units 4 --servers 4 --rails 4
offline three-8 --levels 3 --units 2 --servers 4 --rails 8 --units-per-pod 1
t_expect_code 3 "load --pattern rail:9 on 4 rails: bad input, no crash" \
	"$IBUNION" load "$SIM_DIR/two-4.net" "$SIM_DIR/two-4.lft" --pattern rail:9
t_grep "load --pattern rail:9: the message names the rails there are" \
	"rail 9: the end ports have 4 rails \(0..3\)" "$SIM_DIR/cmd-$tap__count.out"
t_expect_code 2 "a unit that would straddle pods: refused" \
	"$IBUNION" gen rail --levels 3 --units 3 --servers 4 --rails 4

# live: the order file given to opensm
net=$SIM_DIR/two-4.net
t_expect "ibsim runs the rail-optimized cluster" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 3 log_flags 0x0f \
	guid_routing_order_file "$SIM_DIR/two-4.order"
sim_start_opensm
t_expect "opensm + cyclic with the order: SUBNET UP" sim_wait_subnet_up
t_no_grep "no ERR 5Axx, no fallback" "ERR 5A|minhop tables configured" \
	"$SIM_DIR/osm.log"
t_grep "the plugin took the order: every compute host listed" \
	"cyclic: host order: guid_routing_order_file, 128 compute hosts listed, 0 not listed" \
	"$SIM_DIR/osm.log"
t_expect "ibnetdiscover reads the fabric" sim_client ibnetdiscover "$SIM_DIR/view.ibnd"
t_expect "dump_lfts reads every switch" sim_dump_lfts "$SIM_DIR/live.lfts"
t_expect "the switches hold what route computes with the order" \
	sh -c '"$1" route "$2" --lids-from "$3" -O guid_routing_order_file="$4" -o "$5" && "$1" diff --fabric "$2" "$5" "$3"' \
	sh "$IBUNION" "$SIM_DIR/view.ibnd" "$SIM_DIR/live.lfts" \
	"$SIM_DIR/two-4.order" "$SIM_DIR/live.expected"
"$IBUNION" load "$SIM_DIR/view.ibnd" "$SIM_DIR/live.lfts" \
	--pattern rail-shift,rail:0 -O guid_routing_order_file="$SIM_DIR/two-4.order" \
	>"$SIM_DIR/live.load" 2>&1
diag_file "$SIM_DIR/live.load" 12
t_equal "live: every rail at once and rail 0 alone, every k: busiest link 1" \
	"$(awk '/^rail/ { printf "%s ", $4 }' "$SIM_DIR/live.load")" "1 1 "
t_expect "live: order --rails on ibnetdiscover's view names the same servers" \
	sh -c '"$1" order "$2" --rails --hostfile "$3" -o "$3.names" && cmp -s "$3" "$4"' \
	sh "$IBUNION" "$SIM_DIR/view.ibnd" "$SIM_DIR/view.hosts" "$SIM_DIR/two-4.hosts"
done_testing
