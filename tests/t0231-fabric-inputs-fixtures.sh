#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The fabric input formats from files captured in ibsim (t0230 with
# IBU_FIXTURES): fixtures/ft43-shuf17.{net,ibnd,ibnd-cache,subnet.lst} and
# the switches' LFTs, ft43-shuf17.lfts (cyclic, lmc 2). Offline: every
# format predicts the LFTs exactly; broken inputs exit 3 with file:line.
. "$(dirname "$0")/sim.sh"
sim_setup
plan 11

fx=$FIXTURES/ft43-shuf17
for f in net ibnd ibnd-cache subnet.lst; do
	t_expect "$f: route --lids-from the dump" \
		"$IBUNION" route "$fx.$f" --lids-from "$fx.lfts" -o "$SIM_DIR/$f.lfts"
	t_expect "$f: equals what the switches held" \
		"$IBUNION" diff --fabric "$fx.net" "$SIM_DIR/$f.lfts" "$fx.lfts"
done
sed '3s/PN:/PX:/' "$fx.subnet.lst" >"$SIM_DIR/bad.subnet.lst"
"$IBUNION" check "$SIM_DIR/bad.subnet.lst" "$fx.lfts" >"$SIM_DIR/bad.out" 2>&1
t_equal "a broken opensm-subnet.lst line: exit 3, file:line" \
	"$?:$(grep -c "bad.subnet.lst:3:" "$SIM_DIR/bad.out")" "3:1"
head -c 3000 "$fx.ibnd-cache" >"$SIM_DIR/cut.ibnd-cache"
t_expect_code 3 "a truncated ibnetdiscover cache is refused" \
	"$IBUNION" check "$SIM_DIR/cut.ibnd-cache" "$fx.lfts"
t_expect "check --cyclic on the cache file" \
	"$IBUNION" check --cyclic "$fx.ibnd-cache" "$fx.lfts"
done_testing
