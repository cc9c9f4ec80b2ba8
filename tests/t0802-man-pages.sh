#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The man pages are complete against the binaries themselves (no list of
# options is written here, so a new option without documentation fails):
#  - ibunion(1): every command `ibunion --help` lists, and in that
#    command's SYNOPSIS/COMMANDS text every option its `--help` prints;
#    an ENVIRONMENT section naming every variable the tool reads (the
#    IBUNION_* strings of the binary, and SIM_HOST);
#  - libibunion(8): every ERR/WRN 5Axx code in libibunion.so, and, from
#    the plugin's own log under opensm + ibsim, every engine it registers,
#    every event_plugin_options key and every value each key accepts (an
#    out-of-range value for every key makes the plugin log what it
#    expects); an ENVIRONMENT section.
. "$(dirname "$0")/sim.sh"
[ -x "$IBUNION" ] || bail_out "$IBUNION not built"
plan 11

man1=$top_srcdir/tools/ibunion.1
man8=$top_srcdir/plugin/libibunion.8
so=$top_builddir/plugin/.libs/libibunion.so

# roff source to plain words: fonts dropped, \- and \(en to -, \e to \.
man_text()
{
	sed -e 's/\\f[BIRP]//g; s/\\f(..//g; s/\\-/-/g; s/\\(en/-/g; s/\\e/\\/g; s/\\&//g' "$1"
}

# cmd_block CMD: the lines of ibunion.1 about CMD: from each line
# ".B [ibunion ]COMMAND ..." (SYNOPSIS, and the .TP entries of COMMANDS)
# to the next such line of any command of the list, or the next section.
cmd_block()
{
	man_text "$man1" | awk -v cmd="$1" -v list="$commands" '
		BEGIN { n = split(list, l, " "); for (i = 1; i <= n; i++) is[l[i]] = 1 }
		/^\.SH/ { cur = "" }
		/^\.B[IR]* +(ibunion +)?[a-z]+/ {
			w = $0; sub(/^\.B[IR]* +(ibunion +)?/, "", w); sub(/[^a-z].*/, "", w)
			if (w in is && (prev == ".TP" || $0 ~ /ibunion/)) cur = w
			else if ($0 ~ /ibunion/) cur = ""	# ".B ibunion" of no one command
		}
		cur == cmd { print }
		{ prev = $0 }'
}

# help_options CMD: the options `ibunion CMD --help` defines: the words
# -x / --xyz of its usage lines, and those that start a line or follow
# ", ", ";  ", "[" or "|" (not those its prose mentions in passing, such
# as "(dump_mfts / ibroute -M)" or "as ibunion path --format pairs").
help_options()
{
	local help

	help=$("$IBUNION" "$1" --help)
	{
		grep -E '^(usage:|       ibunion )' <<<"$help" |
			grep -oE ' --?[a-zA-Z][a-zA-Z0-9-]*'
		sed 's/([^)]*)//g' <<<"$help" |
			grep -oE '(^ *|, |;  |\[|\|)--?[a-zA-Z][a-zA-Z0-9-]*'
	} | sed -E 's/^(.*[ ,;[|])?(-)/\2/' | sort -u
}

commands=$("$IBUNION" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
commands=$(echo $commands)
diag "commands: $(echo $commands)"
# options every command takes are documented once, in these sections
# (-O KEY=VALUE of every engine command: ENGINE OPTIONS)
global=$(man_text "$man1" | awk '/^\.SH/ { on = ($0 ~ /LIVE FABRIC|OPTIONS COMMON|ENGINE OPTIONS/) } on')
missing=
for c in $commands; do
	block=$(cmd_block "$c")
	[ -n "$block" ] || { missing+=" $c(no section)"; continue; }
	for o in $(help_options "$c"); do
		grep -qF -- "$o" <<<"$block" || grep -qF -- "$o" <<<"$global" ||
			missing+=" $c:$o"
	done
done
[ -z "$missing" ] || diag "ibunion.1 lacks:$missing"
t_expect "ibunion.1: every command and every option of its --help" test -z "$missing"
t_expect "ibunion.1: -V/--version documented" \
	eval "man_text '$man1' | grep -q -- '-V' && man_text '$man1' | grep -q -- '--version'"

vars=$( (strings "$IBUNION" | grep -oE '^IBUNION_[A-Z_]+$'; echo SIM_HOST) | sort -u)
diag "environment of the tool: $(echo $vars)"
env1=$(man_text "$man1" | awk '/^\.SH/ { on = ($0 ~ /ENVIRONMENT/) } on')
missing=
for v in $vars; do
	grep -q -- "$v" <<<"$env1" || missing+=" $v"
done
[ -z "$missing" ] || diag "ENVIRONMENT of ibunion.1 lacks:$missing"
t_expect "ibunion.1: ENVIRONMENT names every variable the tool reads" \
	eval "[ -n \"\$env1\" ] && [ -z \"\$missing\" ]"

# ---- the plugin
[ -f "$so" ] || bail_out "$so not built"
codes=$(strings "$so" | grep -oE '(ERR|WRN) 5A[0-9A-F]{2}' | sort -u)
diag "plugin codes: $(echo $codes)"
missing=
for c in $codes; do
	man_text "$man8" | grep -q -- "$c" || missing+=" $c"
done
[ -z "$missing" ] || diag "libibunion.8 lacks:$missing"
t_expect "libibunion.8: every ERR/WRN 5Axx of libibunion.so ($(wc -w <<<"$codes") codes)" \
	eval "[ -n \"\$codes\" ] && [ -z \"\$missing\" ]"
t_expect "libibunion.8: an ENVIRONMENT section" \
	eval "man_text '$man8' | grep -q '^\.SH ENVIRONMENT'"

# what the plugin says about itself, under a real opensm
have_sim=1
[ -n "$OPENSM" ] && [ -x "$OPENSM" ] && [ -n "$IBSIM" ] && [ -x "$IBSIM" ] &&
	[ -f "$UMAD2SIM" ] || have_sim=
if [ -z "$have_sim" ]; then
	for d in "opensm loads the plugin" "engines" "summary lines" "options" \
		"values" "SYNOPSIS"; do
		skip_test "libibunion.8 vs the plugin's log: $d" "no opensm/ibsim/umad2sim"
	done
	done_testing
fi
sim_setup
net=$SIM_DIR/ibft42.net
"$IBUNION" gen fattree 4 2 -o "$net" || bail_out "ibunion gen failed"
sim_start_ibsim "$net" || bail_out "ibsim did not start"
# first pass: the defaults, listed when each engine registers
sim_write_conf routing_engine cyclic,minhop
sim_start_opensm
t_expect "opensm loads the plugin: SUBNET UP" sim_wait_subnet_up
reg=$(grep -E "ibunion .*: routing engine '[a-z0-9_-]+' registered \(" "$SIM_DIR/osm.log")
engines=$(sed -nE "s/.*routing engine '([a-z0-9_-]+)' registered.*/\1/p" <<<"$reg" | sort -u)
keys=$(sed -nE 's/.*registered \((.*)\)$/\1/p' <<<"$reg" | head -n1 | tr ' ' '\n' |
	sed -n 's/=.*//p' | sort -u)
sim_stop_opensm
# second pass: every key set to a value no key takes: ERR 5A21 says what it expects
sim_write_conf routing_engine cyclic,minhop \
	event_plugin_options "$(for k in $keys; do printf '%s=@@ ' "$k"; done)"
rm -f "$SIM_DIR/osm.log"	# or the first run's SUBNET UP would count
sim_start_opensm
sim_wait_subnet_up >/dev/null
diag "engines: $(echo $engines); keys: $(echo $keys)"
m8=$(man_text "$man8")
missing=
for e in $engines; do
	grep -qE -- "(^|[^a-z])$e([^a-z]|$)" <<<"$m8" || missing+=" $e"
done
t_expect "libibunion.8: every engine the plugin registers ($(echo $engines))" \
	eval "[ -n \"\$engines\" ] && [ -z \"\$missing\" ]"
[ -z "$missing" ] || diag "libibunion.8 lacks engines:$missing"
# each engine's summary line, as the log shows it ("cyclic: IBFT(8,3): ...")
missing=
for e in $engines; do
	grep -qE -- "^$e: " <<<"$m8" || missing+=" $e"
done
[ -z "$missing" ] || diag "libibunion.8 shows no summary line of:$missing"
t_expect "libibunion.8: the summary line of every engine" test -z "$missing"
missing=
values_missing=
for k in $keys; do
	opt=$(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 } on' <<<"$m8")
	grep -q -- "$k=" <<<"$opt" || missing+=" $k"
	exp=$(sed -nE "s/.*ERR 5A21: .*'$k=@@' \(expected ([^)]*)\).*/\1/p" "$SIM_DIR/osm.log" | head -n1)
	[ -n "$exp" ] || { values_missing+=" $k(no ERR 5A21)"; continue; }
	for v in $(tr '|' ' ' <<<"$exp"); do
		case $v in *..*) continue ;; esac	# a range (0..N): a number
		grep -qE -- "(^|[^a-z0-9-])$v([^a-z0-9-]|$)" <<<"$opt" ||
			values_missing+=" $k=$v"
	done
done
[ -z "$missing" ] || diag "OPTIONS of libibunion.8 lacks:$missing"
[ -z "$values_missing" ] || diag "OPTIONS of libibunion.8 lacks values:$values_missing"
t_expect "libibunion.8 OPTIONS: every event_plugin_options key ($(wc -w <<<"$keys"))" \
	eval "[ -n \"\$keys\" ] && [ -z \"\$missing\" ]"
t_expect "libibunion.8 OPTIONS: every value each key accepts" test -z "$values_missing"
synopsis_keys()
{
	local syn k

	syn=$(awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH/ { on = 0 } on' <<<"$m8")
	for k in $keys; do
		grep -q -- "$k=" <<<"$syn" || { diag "SYNOPSIS lacks $k="; return 1; }
	done
}
t_expect "libibunion.8: the SYNOPSIS shows every key" synopsis_keys
done_testing
