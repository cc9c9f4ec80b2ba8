#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Every fabric input format, one entry point (tools/fabric_open.c): a
# shuffled IBFT(4,3) routed by cyclic (lmc 2) in ibsim, read back as
# ibnetdiscover text, as an `ibnetdiscover --cache` file (libibnetdisc) and
# as OpenSM's opensm-subnet.lst: route --lids-from the dump equals what
# the switches hold, check --cyclic passes and lids gives the same records
# from each. IBU_FIXTURES=DIR copies the captured files there.
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 18

net=$SIM_DIR/ft43.net
live=$SIM_DIR/live.lfts
t_expect "ibunion gen fattree 4 3 --shuffle-ports --shuffle-records --seed 17" \
	"$IBUNION" gen fattree 4 3 --shuffle-ports --shuffle-records --seed 17 -o "$net"
t_expect "ibsim runs it" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "opensm + cyclic: SUBNET UP" sim_wait_subnet_up
t_expect "dump_lfts reads every switch" sim_dump_lfts "$live"
t_expect "ibnetdiscover writes text" sim_client ibnetdiscover "$SIM_DIR/ft43.ibnd"
t_expect "ibnetdiscover --cache writes a cache file" \
	sim_client ibnetdiscover --cache "$SIM_DIR/ft43.ibnd-cache"
sim_wait_for "opensm-subnet.lst" "$SIM_TIMEOUT" "$OPENSM_PID" \
	test -s "$SIM_DIR/opensm-subnet.lst"
cp "$SIM_DIR/opensm-subnet.lst" "$SIM_DIR/ft43.subnet.lst"

"$IBUNION" lids "$net" --lmc 2 -o "$SIM_DIR/net.g2l" >/dev/null 2>&1
for f in ft43.ibnd ft43.ibnd-cache ft43.subnet.lst; do
	t_expect "$f: route --lids-from the dump" \
		"$IBUNION" route "$SIM_DIR/$f" --lids-from "$live" -o "$SIM_DIR/$f.lfts"
	t_expect "$f: the switches hold exactly that" \
		"$IBUNION" diff --fabric "$net" "$SIM_DIR/$f.lfts" "$live"
	t_expect "$f: check --cyclic passes" \
		"$IBUNION" check --cyclic "$SIM_DIR/$f" "$live"
	"$IBUNION" lids "$SIM_DIR/$f" --lmc 2 -o "$SIM_DIR/$f.g2l" >/dev/null 2>&1
	t_equal "$f: lids gives the net file's records" \
		"$(sort "$SIM_DIR/$f.g2l" | md5sum)" "$(sort "$SIM_DIR/net.g2l" | md5sum)"
done
if [ -n "$IBU_FIXTURES" ]; then
	cp "$net" "$live" "$SIM_DIR"/ft43.ibnd "$SIM_DIR"/ft43.ibnd-cache \
		"$SIM_DIR"/ft43.subnet.lst "$IBU_FIXTURES"/
fi
done_testing
