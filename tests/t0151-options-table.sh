#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# One option table per engine: `ibunion options` lists every engine option
# from the engines' tables, the man page carries exactly that list, and
# the tools' -O accepts what the plugin accepts (and refuses the rest with
# the accepted values named).  Needs only the ibunion command.
. "$(dirname "$0")/sim.sh"

[ -x "$IBUNION" ] || skip_all "no $IBUNION (build first)"
sim_setup
plan 8
man=$top_srcdir/tools/ibunion.1
net=$FIXTURES/ft43.net

t_equal "the man page's option list is what the tables say" \
	"$(sed -n '/^\.\\" >>> ibunion options --man/,/^\.\\" <<< ibunion options --man/p' "$man" | sed '1d;$d')" \
	"$("$IBUNION" options --man)"
t_equal "libibunion(8) carries the same generated list" \
	"$(sed -n '/^\.\\" >>> ibunion options --man/,/^\.\\" <<< ibunion options --man/p' "$top_srcdir/plugin/libibunion.8" | sed '1d;$d')" \
	"$("$IBUNION" options --man)"
t_grep "a key two engines declare is listed once, under both" \
	"^  max_faults=.*(xy, cyclic; default default)" <("$IBUNION" options)
t_expect "every key of the plugin's registration line is an option" eval \
	"for k in mcast_apex vl_plan max_faults offsets; do '$IBUNION' options | grep -q \"^  \$k=\" || exit 1; done"
t_expect "route takes the plugin's words (-O max_faults=, -O offsets=)" \
	"$IBUNION" route "$net" --lmc 0 -O max_faults=3 -O offsets=paper \
	-o "$SIM_DIR/ft.lfts"
t_expect "check -O offsets=paper: the cyclic rule of those tables" \
	"$IBUNION" check -q -O offsets=paper "$net" "$SIM_DIR/ft.lfts"
"$IBUNION" route "$net" --lmc 0 -O offsets=eq2 -o "$SIM_DIR/bad.lfts" \
	>"$SIM_DIR/bad.out" 2>&1
t_equal "a bad value: usage error naming what the key accepts" \
	"$?:$(grep -c "offsets=eq2'.*expected rotated|paper" "$SIM_DIR/bad.out")" "2:1"
"$IBUNION" check -O colour=red "$net" "$SIM_DIR/ft.lfts" >"$SIM_DIR/unknown.out" 2>&1
t_equal "an unknown key: usage error listing the options" \
	"$?:$(grep -c "no such option (options: mcast_apex, .*offsets" "$SIM_DIR/unknown.out")" "2:1"
done_testing
