#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The whole thing, end to end, on a simulated fabric: installs what is
# missing, builds ibunion in _build/, generates the fat tree IBFT(8,3)
# (80 switches, 128 end ports), brings it up in ibsim, runs the real opensm
# with the ibunion plugin (routing_engine cyclic,minhop, lmc 4), reads back
# what the switches hold (dump_lfts), validates it (ibunion check --cyclic)
# and prints a summary.  Then the same for a 2-D mesh of switches (8x8, two
# HCAs per switch, ports shuffled) under the xy engine: XY tables, two
# multicast groups, and the credit-loop check of unicast + multicast.
# Exit 0 only if every step succeeded.
#
# Environment: BUILD_DIR (default _build), IBU_KEEP=1 keeps the run's files,
# DEMO_M / DEMO_N / DEMO_LMC pick another IBFT(M,N) and LMC, DEMO_MESH="X Y"
# another mesh, DEMO_MESH=none skips the mesh part.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
m=${DEMO_M:-8}
n=${DEMO_N:-3}
lmc=${DEMO_LMC:-4}

say() { printf '\n=== %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

say "dependencies and build (tests/scripts/build.sh)"
BUILD_DIR=$build bash "$top/tests/scripts/build.sh" || die "build failed"

top_srcdir=$top
top_builddir=$build
# shellcheck source=../sim.sh
. "$top/tests/sim.sh"
sim_script_mode
for t in "$OPENSM" "$IBSIM" "$UMAD2SIM"; do
	[ -n "$t" ] && [ -e "$t" ] || die "opensm, ibsim or libumad2sim missing after setup-deps"
done
sim_setup
fail()
{
	sim_mark_failed
	printf 'demo: FAILED: %s (files kept in %s)\n' "$*" "$SIM_DIR" >&2
	exit 1
}

net=$SIM_DIR/ibft$m$n.net
log=$SIM_DIR/osm.log
say "fabric: ibunion gen fattree $m $n"
"$IBUNION" gen fattree "$m" "$n" -o "$net" || fail "ibunion gen"
head -n 1 "$net"

say "ibsim"
sim_start_ibsim "$net" -S 512 || fail "ibsim did not start"

say "opensm + libibunion.so (routing_engine cyclic,minhop, lmc $lmc)"
sim_write_conf routing_engine cyclic,minhop lmc "$lmc" || fail "opensm.conf"
t0=$(date +%s.%N)
sim_start_opensm
sim_wait_subnet_up || fail "opensm did not bring the subnet up"
t1=$(date +%s.%N)
grep -E "ibunion .*registered|cyclic: |ERR 5A|tables configured|SUBNET UP" "$log" |
	sed 's/^.*-> /  /'

say "what the switches hold: dump_lfts"
sim_dump_lfts "$SIM_DIR/lfts.dump" || fail "dump_lfts"
echo "  $(grep -c '^Unicast lids' "$SIM_DIR/lfts.dump") switch tables, $(grep -c '^0x' "$SIM_DIR/lfts.dump") LFT entries"

say "ibunion check --cyclic"
"$IBUNION" check "$net" "$SIM_DIR/lfts.dump" --cyclic >"$SIM_DIR/check.out" 2>&1
check_rc=$?
tail -n 15 "$SIM_DIR/check.out"
# >>> demo: multicast (owner: mcast)
# Three groups joined through SA from simulated HCAs (ibunion mcast join):
# the paper's Fig. 7 shape (a send-only source in pod 0, four members in
# pod 2), 10% of the end ports, and one whole pod; their trees as the
# switches hold them (dump_mfts), and the flood check.
# shellcheck source=../mcast.sh
. "$top/tests/mcast.sh"
say "multicast: three groups joined with ibunion mcast join (SA MCMemberRecord)"
mc_join_all 1 hca-2.0.0 hca-2.0.1 hca-2.1.0 hca-2.1.1 &&
	mc_join 1 hca-0.0.0 --send-only || fail "joining MGID 1"
mapfile -t mc_ten < <(mc_hcas "$net" | mc_pick 7 $(( ($(mc_hcas "$net" | wc -l) + 9) / 10 )))
mc_join_all 2 "${mc_ten[@]}" || fail "joining MGID 2"
mapfile -t mc_pod < <(mc_hcas "$net" | grep '^hca-5\.')
mc_join_all 3 "${mc_pod[@]}" || fail "joining MGID 3"
for mc_i in $(seq 40); do
	mc__settled "$SIM_DIR/mfts.dump" "$net" && break
	sleep 0.25
done
sed 's/#.*//' "$SIM_DIR/members" | awk '{ n[$1]++ } END { for (m in n) printf "  MLID %s: %d members\n", m, n[m] }' | sort

say "multicast trees as the switches hold them: dump_mfts, ibunion mcast load --trees"
sim_dump_mfts "$SIM_DIR/mfts.dump" || fail "dump_mfts"
"$IBUNION" mcast load --trees --members "$SIM_DIR/members" "$net" "$SIM_DIR/mfts.dump" |
	grep -v "^-I- MLID 0xc000" | sed 's/^/  /'

say "ibunion check --mcast (every member gets exactly one copy from every sender)"
"$IBUNION" check --mcast "$SIM_DIR/mfts.dump" --members "$SIM_DIR/members" "$net" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || fail "ibunion check --mcast"
# <<< demo: multicast

engine=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' "$log" | tail -n 1)
summary=$(sed -n 's/.*-> [a-z_]*: \(cyclic: IBFT.*\)$/\1/p' "$log" | tail -n 1)
route_ms=$(sed -n 's/.*routed in \([0-9.]*\) ms.*/\1/p' <<<"$summary")
case $check_rc in
0) verdict=PASS ;;
1) verdict="FAIL (problems found)" ;;
*) verdict="ERROR (exit $check_rc)" ;;
esac

say "summary"
printf '  %-14s %s\n' \
	"fabric:" "IBFT($m,$n) in ibsim, $(grep -c '^Switch' "$net") switches, $(grep -c '^Hca' "$net") end ports" \
	"LMC:" "$lmc" \
	"engine used:" "${engine:-unknown}" \
	"plugin said:" "${summary:-no summary line}" \
	"routing time:" "${route_ms:-?} ms (cyclic engine), SUBNET UP $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s after opensm start" \
	"check:" "$verdict"
[ "$engine" = cyclic ] || fail "OpenSM did not use the cyclic engine"
[ "$check_rc" = 0 ] || fail "ibunion check --cyclic"

# >>> demo: mesh
mesh=${DEMO_MESH:-8 8}
if [ "$mesh" != none ]; then
	read -r mx my <<<"$mesh"
	sim_stop_processes
	mv "$log" "$SIM_DIR/osm-fattree.log"
	rm -f "$SIM_DIR/guid2lid"	# OpenSM's LID cache belongs to the fat tree
	: >"$SIM_DIR/members"
	: >"$SIM_DIR/mgid2mlid"
	mnet=$SIM_DIR/mesh$mx$my.net
	say "fabric: ibunion gen mesh $mx $my --hcas 2 --shuffle-ports --shuffle-records"
	"$IBUNION" gen mesh "$mx" "$my" --hcas 2 --shuffle-ports --shuffle-records \
		--seed 1 -o "$mnet" || fail "ibunion gen mesh"
	sim_start_ibsim "$mnet" || fail "ibsim did not start (mesh)"

	say "opensm + libibunion.so (routing_engine xy,updn, qos TRUE, vl_plan=2-direction)"
	sim_write_conf routing_engine xy,updn lmc 0 qos TRUE log_flags 0x43 \
		event_plugin_options vl_plan=2-direction || fail "opensm.conf"
	sim_start_opensm
	sim_wait_subnet_up || fail "opensm did not bring the mesh up"
	grep -E "xy: |ERR 5A|WRN 5A|tables configured" "$log" | sed 's/^.*-> /  /'

	say "what the mesh switches hold: dump_lfts, ibunion check --xy"
	sim_dump_lfts "$SIM_DIR/mesh.lfts" || fail "dump_lfts (mesh)"
	"$IBUNION" check "$mnet" "$SIM_DIR/mesh.lfts" --xy >"$SIM_DIR/check-xy.out" 2>&1
	xy_rc=$?
	tail -n 6 "$SIM_DIR/check-xy.out" | sed 's/^/  /'

	say "multicast on the mesh: two groups through SA, dump_mfts, check --mcast"
	mapfile -t mh < <(mc_hcas "$mnet")
	mapfile -t mq < <(printf '%s\n' "${mh[@]}" | mc_pick 9 $(( (${#mh[@]} + 3) / 4 )))
	mc_join_all 0x41 "${mq[@]}" || fail "joining MGID 0x41"
	mc_join_all 0x42 "${mh[@]}" || fail "joining MGID 0x42"
	for mc_i in $(seq 40); do
		mc__settled "$SIM_DIR/mesh.mfts" "$mnet" && break
		sleep 0.25
	done
	sim_dump_mfts "$SIM_DIR/mesh.mfts" || fail "dump_mfts (mesh)"
	"$IBUNION" check --mcast "$SIM_DIR/mesh.mfts" --members "$SIM_DIR/members" "$mnet" | sed 's/^/  /'
	[ "${PIPESTATUS[0]}" = 0 ] || fail "ibunion check --mcast (mesh)"

	say "credit loops: ibunion check --deadlock (unicast + both groups, every member sending, per VL of the SL2VL tables)"
	"$IBUNION" check "$mnet" "$SIM_DIR/mesh.lfts" --deadlock \
		--mcast "$SIM_DIR/mesh.mfts" --members "$SIM_DIR/members" \
		--sl2vl "$SIM_DIR/opensm-sl2vl.dump" --vl-plan 2-direction 2>&1 |
		tail -n 4 | sed 's/^/  /'
	dl_rc=${PIPESTATUS[0]}

	mengine=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' "$log" | tail -n 1)
	msummary=$(sed -n 's/.*-> [a-z_]*: \(xy: .*\)$/\1/p' "$log" | grep -v MLID | tail -n 1)
	say "summary (mesh)"
	printf '  %-14s %s\n' \
		"fabric:" "${mx}x${my} mesh in ibsim, $(grep -c '^Switch' "$mnet") switches, $(grep -c '^Hca' "$mnet") end ports" \
		"engine used:" "${mengine:-unknown}" \
		"plugin said:" "${msummary:-no summary line}" \
		"check --xy:" "$([ "$xy_rc" = 0 ] && echo PASS || echo "FAIL (exit $xy_rc)")" \
		"deadlock:" "$([ "$dl_rc" = 0 ] && echo "none (acyclic)" || echo "FAIL (exit $dl_rc)")"
	[ "$mengine" = xy ] || fail "OpenSM did not use the xy engine"
	[ "$xy_rc" = 0 ] || fail "ibunion check --xy"
	[ "$dl_rc" = 0 ] || fail "ibunion check --deadlock"
fi
# <<< demo: mesh
echo
echo "demo: OK"
exit 0
