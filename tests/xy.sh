# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# tests/xy.sh: helpers for the xy (2-D mesh) integration tests (sourced
# after tests/sim.sh and tests/mcast.sh, bash).
#
#	t_xy_holds NETFILE TAG		6 assertions: OpenSM used xy (no
#					fallback), dump_lfts -> TAG.lfts passes
#					`ibunion check --xy` and equals
#					`ibunion route` (TAG.expected)
#	t_xy_groups NETFILE TAG SEED	joins two groups through SA (half of
#					the HCAs, 2 of them send-only; all the
#					HCAs) and checks the MFTs: 5 assertions
#	t_xy_deadlock NETFILE TAG	`ibunion check --deadlock` on TAG.lfts
#					+ TAG-mc.mfts + members: 1 assertion
#	t_xy_live TAG LMC SEED PATTERN GEN-ARGS...
#					16 assertions: `ibunion gen mesh
#					GEN-ARGS --seed SEED` in ibsim under
#					opensm (routing_engine xy,minhop, lmc
#					LMC), SUBNET UP, a log line matching
#					PATTERN, then the three above

t_xy_holds()
{
	local net=$1 tag=$2 dump=$SIM_DIR/$2.lfts

	t_grep "$tag: OpenSM configured the xy tables" \
		"xy tables configured on all switches" "$SIM_DIR/osm.log"
	t_no_grep "$tag: no ERR 5Axx from the plugin, no fallback" \
		"ERR 5A|minhop tables configured" "$SIM_DIR/osm.log"
	t_expect "$tag: dump_lfts reads every switch" sim_dump_lfts "$dump"
	t_expect "$tag: ibunion check --xy passes on the dump (every route is the XY route)" \
		"$IBUNION" check "$net" "$dump" --xy
	t_expect "$tag: ibunion route computes the tables offline" \
		"$IBUNION" route "$net" --lids-from "$dump" -o "$SIM_DIR/$tag.expected"
	t_expect "$tag: the switches hold exactly what ibunion route computes" \
		"$IBUNION" diff --fabric "$net" "$SIM_DIR/$tag.expected" "$dump"
}

t_xy_groups()
{
	local net=$1 tag=$2 seed=$3 n
	local -a hcas half

	mapfile -t hcas < <(mc_hcas "$net")
	n=${#hcas[@]}
	mapfile -t half < <(printf '%s\n' "${hcas[@]}" | mc_pick "$seed" $(((n + 1) / 2)))
	t_expect "$tag: ${#half[@]} HCAs join group 0x31 (2 send-only)" \
		xy__join 0x31 "${half[@]}"
	t_expect "$tag: all $n HCAs join group 0x32" mc_join_all 0x32 "${hcas[@]}"
	mc_dump_check "$tag-mc" "$net"
	t_grep "$tag: the engine built the trees" \
		"xy: MLID $(mc_mlid 0x32): $n members" "$SIM_DIR/osm.log"
}

# xy__join MGID HOST...: all but the last two full members, those send-only
xy__join()
{
	local mgid=$1
	shift
	local -a m=("$@")

	mc_join_all "$mgid" "${m[@]:0:${#m[@]}-2}" &&
		mc_join "$mgid" "${m[-2]}" --send-only &&
		mc_join "$mgid" "${m[-1]}" --send-only
}

t_xy_deadlock()
{
	local net=$1 tag=$2

	t_expect "$tag: unicast + every group with every member sending: no credit loop (check --deadlock)" \
		"$IBUNION" check "$net" "$SIM_DIR/$tag.lfts" --deadlock \
		--mcast "$SIM_DIR/$tag-mc.mfts" --members "$MC_MEMBERS"
}

t_xy_live()
{
	local tag=$1 lmc=$2 seed=$3 pattern=$4 net=$SIM_DIR/$1.net
	shift 4

	t_expect "ibunion gen mesh $*" "$IBUNION" gen mesh "$@" --seed "$seed" \
		-o "$net"
	t_expect "ibsim runs the mesh" sim_start_ibsim "$net"
	sim_write_conf routing_engine xy,minhop lmc "$lmc" log_flags 0x07
	sim_start_opensm
	t_expect "opensm with the plugin: SUBNET UP" sim_wait_subnet_up
	t_grep "the plugin recognised the mesh ($pattern)" "$pattern" \
		"$SIM_DIR/osm.log"
	t_xy_holds "$net" "$tag"
	t_xy_groups "$net" "$tag" "$seed"
	t_xy_deadlock "$net" "$tag"
}
