# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# tests/mcast.sh: multicast helpers for the integration tests (sourced after
# tests/sim.sh, bash).  Groups are joined and left with `ibunion mcast`
# acting as a simulated HCA; every join's member line goes to
# $SIM_DIR/members (the file `ibunion check --mcast --members` reads), every
# leave removes it again, so the file always says who should receive.
#
#	mc_hcas NETFILE			ids of the HCAs of a net file
#	mc_pick SEED K			K of the ids on stdin, a seeded shuffle
#	mc_join MGID HOST [ARGS...]	join (ARGS e.g. --send-only)
#	mc_leave MGID HOST [ARGS...]	leave
#	mc_join_all MGID HOST...	join each HOST, stop at the first failure
#	mc_leave_all MGID HOST...
#	mc_mlid MGID			the MLID OpenSM gave MGID (after a join)
#	mc_dump_check TAG NETFILE	dump_mfts -> $SIM_DIR/TAG.mfts, then
#					ibunion check --mcast against members

MC_MEMBERS=
MC_MAP=

mc__init()
{
	MC_MEMBERS=$SIM_DIR/members
	MC_MAP=$SIM_DIR/mgid2mlid
	[ -f "$MC_MEMBERS" ] || : >"$MC_MEMBERS"
	[ -f "$MC_MAP" ] || : >"$MC_MAP"
}

mc_hcas()
{
	sed -n 's/^\(Hca\|Ca\)[ \t]*[0-9]*[ \t]*"\([^"]*\)".*/\2/p' "$1"
}

mc_pick()
{
	awk -v seed="$1" 'BEGIN { srand(seed) } { printf "%.12f\t%s\n", rand(), $0 }' |
		sort -n | cut -f2 | head -n "$2"
}

mc_mlid()
{
	awk -v g="$1" '$1 == g { m = $2 } END { if (m) print m }' "$MC_MAP"
}

# mc_join MGID HOST [ARGS...]
mc_join()
{
	local mgid=$1 host=$2 line mlid
	shift 2

	mc__init
	line=$(SIM_HOST=$host sim_client "$IBUNION" mcast join --mgid "$mgid" \
		"$@" 2>>"$SIM_DIR/joins.err") || {
		diag "join $mgid from $host failed:"
		diag_file "$SIM_DIR/joins.err" 5
		return 1
	}
	mlid=${line%% *}
	case $mlid in 0x[cCdDeEfF]???) ;; *)
		diag "join $mgid from $host: no MLID in '$line'"
		return 1 ;;
	esac
	echo "$line" >>"$MC_MEMBERS"
	grep -q "^$mgid " "$MC_MAP" || echo "$mgid $mlid" >>"$MC_MAP"
	return 0
}

# mc_leave MGID HOST [ARGS...]
mc_leave()
{
	local mgid=$1 host=$2 line guid mlid
	shift 2

	mc__init
	line=$(SIM_HOST=$host sim_client "$IBUNION" mcast leave --mgid "$mgid" \
		"$@" 2>>"$SIM_DIR/joins.err") || {
		diag "leave $mgid from $host failed:"
		diag_file "$SIM_DIR/joins.err" 5
		return 1
	}
	set -- $line
	guid=$2
	mlid=$(mc_mlid "$mgid")
	[ -n "$mlid" ] || { diag "leave: MGID $mgid was never joined"; return 1; }
	grep -v "^$mlid $guid " "$MC_MEMBERS" >"$MC_MEMBERS.new"
	mv "$MC_MEMBERS.new" "$MC_MEMBERS"
	return 0
}

mc_join_all()
{
	local mgid=$1 h
	shift

	for h in "$@"; do
		mc_join "$mgid" "$h" || return 1
	done
}

mc_leave_all()
{
	local mgid=$1 h
	shift

	for h in "$@"; do
		mc_leave "$mgid" "$h" || return 1
	done
}

mc__settled()
{
	sim_dump_mfts "$1" >/dev/null 2>&1 &&
		"$IBUNION" check --mcast "$1" --members "$MC_MEMBERS" "$2" \
			>/dev/null 2>&1
}

# mc_dump_check TAG NETFILE: 2 assertions (dump, check --mcast).  OpenSM
# answers a join before it has pushed the MFT blocks, so the tables are
# read again (every 0.25 s, at most 10 s) until they pass; then once more
# for the assertions, which thus show the last state when they fail.
mc_dump_check()
{
	local tag=$1 net=$2 i

	mc__init
	for ((i = 0; i < 40; i++)); do
		mc__settled "$SIM_DIR/$tag.mfts" "$net" && break
		sleep 0.25
	done
	t_expect "$tag: dump_mfts reads every switch" sim_dump_mfts "$SIM_DIR/$tag.mfts"
	t_expect "$tag: ibunion check --mcast: every member gets exactly one copy from every sender" \
		"$IBUNION" check --mcast "$SIM_DIR/$tag.mfts" --members "$MC_MEMBERS" "$net"
}
