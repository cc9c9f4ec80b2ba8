#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The whole thing, end to end, on a simulated fabric: installs what is
# missing, builds ibunion in _build/, generates the fat tree IBFT(8,3)
# (80 switches, 128 end ports), brings it up in ibsim, runs the real opensm
# with the ibunion plugin (routing_engine cyclic,minhop, lmc 4), reads back
# what the switches hold (dump_lfts), validates it (ibunion check --cyclic)
# and prints a summary.  Exit 0 only if every step succeeded.
#
# Environment: BUILD_DIR (default _build), IBU_KEEP=1 keeps the run's files,
# DEMO_M / DEMO_N / DEMO_LMC pick another IBFT(M,N) and LMC.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/_build}
m=${DEMO_M:-8}
n=${DEMO_N:-3}
lmc=${DEMO_LMC:-4}

say() { printf '\n=== %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

say "dependencies and build (tools/build.sh)"
BUILD_DIR=$build bash "$top/tools/build.sh" || die "build failed"

top_srcdir=$top
top_builddir=$build
# shellcheck source=../tests/sim.sh
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
# shellcheck source=../tests/mcast.sh
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
echo
echo "demo: OK"
exit 0
