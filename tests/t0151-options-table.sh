#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# One option table per engine: `ibunion options` lists every engine option
# from the engines' tables, the man page carries exactly that list, and
# the tools' -O accepts what the plugin accepts (and refuses the rest with
# the accepted values named).  Needs only the ibunion command.
. "$(dirname "$0")/sim.sh"

[ -x "$IBUNION" ] || skip_all "no $IBUNION (build first)"
sim_setup
plan 12
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
	"for k in mcast_apex vl_plan max_faults offsets verbose lid_matrices reuse_model; do '$IBUNION' options | grep -q \"^  \$k=\" || exit 1; done"
t_expect "OpenSM's GUID files the engines read are listed too" eval \
	"for k in guid_routing_order_file root_guid_file; do '$IBUNION' options | grep -q \"^  \$k=FILE\" || exit 1; done"
t_expect "every command and subcommand exits 0 on --help (and -h)" eval \
	'for c in gen "gen mesh" "gen fattree" "gen pgft" lids route check diff path order "mcast join" "mcast leave" "mcast tree" "mcast check" "mcast load" load trace options; do
		"$IBUNION" $c --help >/dev/null 2>&1 || { echo "$c --help"; exit 1; }
		"$IBUNION" $c -h >/dev/null 2>&1 || { echo "$c -h"; exit 1; }
	done'
"$IBUNION" check -O ofsets=paper "$net" "$SIM_DIR/none.lfts" >"$SIM_DIR/typo.out" 2>&1
t_equal "a misspelt key: usage error with 'did you mean'" \
	"$?:$(grep -c "ofsets=paper': no such option; did you mean 'offsets'?" "$SIM_DIR/typo.out")" "2:1"
t_expect "the plugin's own keys are taken by -O (an event_plugin_options line works as it is)" \
	"$IBUNION" route "$net" --lmc 0 -O verbose=1 -O reuse_model=no -O lid_matrices=opensm -o /dev/null
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
