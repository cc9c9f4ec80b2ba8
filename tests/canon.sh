# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# tests/canon.sh: the canonical-labels scenario shared by t0210/t0211
# (sourced after tests/sim.sh and tests/mcast.sh, bash).
#
#	canon_run M N LMC SEED
#
# IBFT(M,N) with shuffled ports and records runs in ibsim under opensm +
# cyclic; then the tool reads the fabric as `ibnetdiscover` printed it (other
# record order, other names, switch records first) and must predict exactly
# what the plugin programmed: route --lids-from == the switches' LFTs,
# check --cyclic passes, lids gives the same guid2lid records as from the
# net file, and mcast tree == the switches' MFTs for a joined group.
# 14 assertions.

# "GUID MLID: ports" of every switch entry of a dump_mfts file
canon_mft_entries()
{
	awk '
	/^Multicast mlids/ {
		guid = $0; sub(/.* guid /, "", guid); sub(/ .*/, "", guid)
		col = 0
	}
	/Ports:/ { col = index($0, "Ports:") + 7 }
	/^0x[cCdDeEfF][0-9a-fA-F]+ / && col {
		ports = ""
		for (i = col; i <= length($0); i += 2)
			if (substr($0, i, 1) == "x")
				ports = ports " " (i - col) / 2
		if (ports != "")
			print tolower(guid) " " tolower($1) ":" ports
	}' "$1" | sort
}

canon_run()
{
	local m=$1 n=$2 lmc=$3 seed=$4 net ibnd live mlid hosts

	net=$SIM_DIR/ft$m$n.net
	ibnd=$SIM_DIR/ft$m$n.ibnd
	live=$SIM_DIR/live.lfts
	t_expect "ibunion gen fattree $m $n --shuffle-ports --shuffle-records --seed $seed" \
		"$IBUNION" gen fattree "$m" "$n" --shuffle-ports --shuffle-records \
		--seed "$seed" -o "$net"
	t_expect "ibsim runs it" sim_start_ibsim "$net"
	# balanced: the offline tree of the whole group equals the live one,
	# built up join by join; compact remembers the switches every earlier
	# tree held, so its live tree depends on the order of the joins
	sim_write_conf routing_engine cyclic,minhop lmc "$lmc" \
		event_plugin_options mcast_apex=balanced
	sim_start_opensm
	t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
	t_grep "routed by cyclic" "cyclic tables configured on all switches" \
		"$SIM_DIR/osm.log"
	t_expect "dump_lfts reads every switch" sim_dump_lfts "$live"
	t_expect "ibnetdiscover saves the fabric" sim_client ibnetdiscover "$ibnd"

	t_expect "route on ibnetdiscover's view --lids-from the dump" \
		"$IBUNION" route "$ibnd" --lids-from "$live" -o "$SIM_DIR/ibnd.lfts"
	t_expect "the switches hold exactly what route computes from ibnetdiscover output" \
		"$IBUNION" diff --fabric "$ibnd" "$SIM_DIR/ibnd.lfts" "$live"
	t_expect "check --cyclic passes against ibnetdiscover's view" \
		"$IBUNION" check --cyclic "$ibnd" "$live"

	"$IBUNION" lids "$net" --lmc "$lmc" -o "$SIM_DIR/net.guid2lid" &&
		"$IBUNION" lids "$ibnd" --lmc "$lmc" -o "$SIM_DIR/ibnd.guid2lid"
	t_equal "lids: the same guid2lid records from the net file and from ibnetdiscover" \
		"$(sort "$SIM_DIR/ibnd.guid2lid" | md5sum)" \
		"$(sort "$SIM_DIR/net.guid2lid" | md5sum)"

	hosts=$(mc_hcas "$net" | mc_pick "$seed" $((m * 2)))
	# shellcheck disable=SC2086
	t_expect "$((m * 2)) hosts join one group" mc_join_all 9 $hosts
	mc_dump_check canon "$net"
	mlid=$(mc_mlid 9)
	"$IBUNION" mcast tree --policy balanced -o "$SIM_DIR/ibnd.mfts" \
		"$ibnd" "$MC_MEMBERS" >"$SIM_DIR/tree.out" 2>&1
	t_equal "mcast tree on ibnetdiscover's view == the switches' MFTs ($mlid)" \
		"$(canon_mft_entries "$SIM_DIR/ibnd.mfts" | grep " $mlid:")" \
		"$(canon_mft_entries "$SIM_DIR/canon.mfts" | grep " $mlid:")"
}
