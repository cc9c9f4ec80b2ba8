#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The league: the same fabrics routed by every routing engine the installed
# OpenSM has and by ours, in ibsim with the real opensm, lmc 0, the tables
# read back from the switches with dump_lfts, one table per fabric.  Not
# part of make check (t0410 runs a tiny --quick case).
#
#	tests/scripts/bench-league.sh [--quick] [--fabrics 'NAME..']
#	        [--random N] [--random-mesh N] [--seed S]
#	        [--fabric 'NAME|KIND|WHAT|GEN ARGS']..
#	        [--engines 'ENGINE..'] [--samples K] [-o FILE.md]
#	        [--tsv FILE] [--keep DIR]
#
#	--quick        a few small fabrics (a smoke test, seconds a run)
#	--fabrics      only these fabrics (names from --list)
#	--random N     N damaged fat trees nobody has seen, drawn from the
#	               families in random_specs() (IBFTs, PGFTs of 2 and 3
#	               levels, parallel cables, blocking leaves; 1-4 cables
#	               cut, 0-2 switches missing, random gen seed and name
#	               prefix); the same N and --seed S (default 1) give the
#	               same fabrics.  Engines: cyclic ftree updn minhop
#	               dfsssp unless --engines.  Ends with a summary: how many
#	               met every target, the misses per criterion, and each
#	               miss's spec to re-run it with --fabric
#	--random-mesh N  N damaged 2-D meshes nobody has seen, drawn from the
#	               families in mesh_families (4x4 to 10x10, 1-3 HCAs a
#	               switch; 1-4 cables cut, 0-1 switch missing), after
#	               the --random trees (whose draws they leave as they
#	               were); engines xy updn minhop dfsssp unless --engines;
#	               the targets of a mesh: at most 2 VLs, all-to-all no
#	               higher than minhop's and within 1.25 x dfsssp's
#	--fabric SPEC  run this fabric (repeatable; as --random prints them:
#	               name, tree or mesh, what it is, `ibunion gen` args)
#	--engines      only these engines (default: every one below)
#	--list         print the fabrics and engines (with --random or
#	               --fabric: the specs, one --fabric argument a line),
#	               and exit
#	--samples K    random bisections for eBB (default 5000: the mean moves
#	               by about 0.2% from one seed to another; at 200 it
#	               moved by up to 2%, more than most differences
#	               between engines on a damaged tree)
#	--options O    event_plugin_options of ours (e.g. 'max_faults=50';
#	               default: none, the plugin's defaults)
#	-o FILE        also write the report (Markdown) to FILE
#	--tsv FILE     one line per fabric and engine, tab-separated (the
#	               columns below, in that order, for scripts)
#	--keep DIR     keep the net files, dumps, logs and loads in DIR
#
# Fabrics come from `ibunion gen` with shuffled ports and node records:
# IBFTs and PGFTs of 2 and 3 levels (parallel cables, blocking leaves,
# fewer pods), intact and damaged (cables removed, a switch removed), and
# meshes, intact and damaged.  Engines: ours (cyclic on fat trees, xy on
# meshes, both through the plugin with its default options) and OpenSM's
# ftree (fat trees only), updn, dnup, minhop, dfsssp, sssp, nue, lash, dor,
# each with OpenSM's defaults (qos TRUE for every one, so the SL-based
# engines program their VLs; torus-2QoS and file need input files of
# their own and are left out).  An engine OpenSM fell back from shows as
# "E*used".
#
# Columns (loads in messages, on base LIDs: what the SA hands out):
#   a2a        all-to-all: busiest directed link
#   shift      the worst of the N-1 shift permutations i -> i+k, hosts in
#              the order the header names (ours: what `ibunion order`
#              prints: on a fat tree cyclic's D-mod-K destination order,
#              position order on an intact tree; on a mesh xy's position
#              order; port GUID order where ours recognises nothing)
#   eBB        effective bisection bandwidth ([Hoefler08]'s ORCS model): the
#              mean over K random bisections and their flows of 1 / the
#              load of the busiest link on the flow's path
#   VLs        virtual lanes the engine uses: 1 for the engines that route
#              on SL 0; dfsssp's "Virtual Lanes needed", lash's layers,
#              nue's nue_max_num_vls (default 1), xy's SL layers,
#              cyclic's 2 where a damaged tree's turned routes ride VL 1
#   CDG        on 1 VL: whether the channel dependency graph of the tables
#              read back has a cycle (`ibunion check --deadlock`: "yes" =
#              a credit loop can deadlock the fabric; "sw LIDs": only
#              with the switches' own LIDs as destinations, the end
#              ports' routes alone have none); cyclic on 2 VLs: the same
#              on the SLs its PathRecords give; "-" on several VLs
#   unreach    end-port pairs whose walk through the tables does not arrive
#   route ms   OpenSM's routing phase, "building routing with" to "tables
#              configured on all switches" (log flag 0x04)
# The TSV adds the all-to-all bound, the host order and whether the tree
# is damaged: what `ibunion route` finds in its graph (a "degraded:"
# summary), never the fabric's name; it picks the targets below.  Then
# the engine's eBB less ours on the same bisections and that difference's
# 95% half-width (`ibunion load`'s bw-diff and diff-ci95; "-" for ours):
# an eBB below dfsssp's by less than the half-width is a miss the sample
# cannot tell from a tie, and is said so.
# Then one line per fabric: ours against the targets (see targets()).
# With --random or --fabric also `ibunion check` of ours (every end port
# reaches every LID, no loop, the engine's rule: minimal up*/down*), and
# the summary (see summary()).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
quick=
only_fabrics=
only_engines=
samples=5000
report=
tsv=
keep=
list=
random_n=
random_mesh=
random_seed=1
explicit=()
plugin_opts=
cmdline="tests/scripts/bench-league.sh$(printf ' %q' "$@")"

while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--fabrics) only_fabrics=${2-}; shift 2 || { echo "league: --fabrics needs names" >&2; exit 2; } ;;
	--engines) only_engines=${2-}; shift 2 || { echo "league: --engines needs names" >&2; exit 2; } ;;
	--samples) samples=${2-}; shift 2 || { echo "league: --samples needs a number" >&2; exit 2; } ;;
	-o) report=${2-}; shift 2 || { echo "league: -o needs a file" >&2; exit 2; } ;;
	--tsv) tsv=${2-}; shift 2 || { echo "league: --tsv needs a file" >&2; exit 2; } ;;
	--keep) keep=${2-}; shift 2 || { echo "league: --keep needs a directory" >&2; exit 2; } ;;
	--list) list=1; shift ;;
	--random) random_n=${2-}; shift 2 || { echo "league: --random needs a number" >&2; exit 2; } ;;
	--random-mesh) random_mesh=${2-}; shift 2 || { echo "league: --random-mesh needs a number" >&2; exit 2; } ;;
	--seed) random_seed=${2-}; shift 2 || { echo "league: --seed needs a number" >&2; exit 2; } ;;
	--options) plugin_opts=${2-}; shift 2 || { echo "league: --options needs KEY=VALUE" >&2; exit 2; } ;;
	--fabric) explicit+=("${2-}"); shift 2 || { echo "league: --fabric needs a spec" >&2; exit 2; } ;;
	-h | --help) sed -n '3,73p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "league: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
case $samples in '' | *[!0-9]* | 0) echo "league: --samples needs a positive number" >&2; exit 2 ;; esac
case $random_n in *[!0-9]*) echo "league: --random needs a number" >&2; exit 2 ;; esac
case $random_mesh in *[!0-9]*) echo "league: --random-mesh needs a number" >&2; exit 2 ;; esac
case $random_seed in '' | *[!0-9]*) echo "league: --seed needs a number" >&2; exit 2 ;; esac

# ------------------------------------------------------------ the fabrics

# name | kind (tree, mesh) | what it is | ibunion gen arguments
fabrics_full=(
	"ibft83|tree|IBFT(8,3), intact|fattree 8 3"
	"ibft83-cut3|tree|IBFT(8,3), 3 cables cut|fattree 8 3 --remove-links 3 --seed 5"
	"ibft83-cut2-sw1|tree|IBFT(8,3), 2 cables cut, 1 switch missing|fattree 8 3 --remove-links 2 --remove-switches 1 --seed 7"
	"pgft2-par|tree|PGFT(2; 8,12; 1,4; 1,2): 2 parallel cables leaf-spine, intact|pgft --m 8,12 --w 1,4 --p 1,2"
	"pgft2-par-cut4|tree|PGFT(2; 8,12; 1,4; 1,2), 4 cables cut|pgft --m 8,12 --w 1,4 --p 1,2 --remove-links 4 --seed 3"
	"pgft2-blk|tree|PGFT(2; 18,8; 1,3; 1,1): 6:1 blocking leaves, intact|pgft --m 18,8 --w 1,3 --p 1,1"
	"pgft2-blk-cut2|tree|PGFT(2; 18,8; 1,3; 1,1), 2 cables cut|pgft --m 18,8 --w 1,3 --p 1,1 --remove-links 2 --seed 4"
	"pgft3|tree|PGFT(3; 4,4,3; 1,4,4; 1,1,1): 3 of 8 pods, intact|pgft --m 4,4,3 --w 1,4,4 --p 1,1,1"
	"pgft3-par|tree|PGFT(3; 4,4,4; 1,2,2; 1,2,2): parallel cables at both levels, intact|pgft --m 4,4,4 --w 1,2,2 --p 1,2,2"
	"pgft3-par-cut3-sw1|tree|PGFT(3; 4,4,4; 1,2,2; 1,2,2), 3 cables cut, 1 switch missing|pgft --m 4,4,4 --w 1,2,2 --p 1,2,2 --remove-links 3 --remove-switches 1 --seed 9"
	"pgft3-blk-cut2|tree|PGFT(3; 8,4,4; 1,4,4; 1,1,1): 2:1 blocking leaves, 2 cables cut|pgft --m 8,4,4 --w 1,4,4 --p 1,1,1 --remove-links 2 --seed 6"
	"pgft3-cut2-apart|tree|PGFT(3; 4,4,4; 1,2,2; 1,1,1): 2:1 blocking twice, 2 cables cut that leave two leaves no common top|pgft --m 4,4,4 --w 1,2,2 --p 1,1,1 --remove-links 2 --seed 1"
	"mesh6x6|mesh|6x6 mesh, 2 HCAs a switch, intact|mesh 6 6 --hcas 2"
	"mesh6x6-cut3|mesh|6x6 mesh, 2 HCAs a switch, 3 cables cut|mesh 6 6 --hcas 2 --remove-links 3 --seed 7"
	"mesh8x8-cut4-sw1|mesh|8x8 mesh, 1 HCA a switch, 4 cables cut, 1 switch missing|mesh 8 8 --hcas 1 --remove-links 4 --remove-switches 1 --seed 11"
)
fabrics_quick=(
	"ibft43|tree|IBFT(4,3), intact|fattree 4 3"
	"pgft2-cut1|tree|PGFT(2; 4,6; 1,2; 1,2), 1 cable cut|pgft --m 4,6 --w 1,2 --p 1,2 --remove-links 1 --seed 2"
	"mesh4x4-cut1|mesh|4x4 mesh, 1 HCA a switch, 1 cable cut|mesh 4 4 --hcas 1 --remove-links 1 --seed 3"
)
tree_engines="cyclic ftree updn dnup minhop dfsssp sssp nue lash dor"
mesh_engines="xy updn dnup minhop dfsssp sssp nue lash dor"

# the random sweep's families: key | what | ibunion gen arguments; sizes
# kept so that one fabric's engines finish in seconds
families=(
	"ibft43|IBFT(4,3)|fattree 4 3"
	"ibft82|IBFT(8,2)|fattree 8 2"
	"ibft83|IBFT(8,3)|fattree 8 3"
	"pgft2-par8|PGFT(2; 8,12; 1,4; 1,2)|pgft --m 8,12 --w 1,4 --p 1,2"
	"pgft2-par6|PGFT(2; 6,8; 1,3; 1,2)|pgft --m 6,8 --w 1,3 --p 1,2"
	"pgft2-par4|PGFT(2; 4,6; 1,2; 1,2)|pgft --m 4,6 --w 1,2 --p 1,2"
	"pgft2-blk18|PGFT(2; 18,8; 1,3; 1,1)|pgft --m 18,8 --w 1,3 --p 1,1"
	"pgft2-blk12|PGFT(2; 12,8; 1,4; 1,1)|pgft --m 12,8 --w 1,4 --p 1,1"
	"pgft2-blkpar8|PGFT(2; 8,8; 1,2; 1,2)|pgft --m 8,8 --w 1,2 --p 1,2"
	"pgft3-blk444|PGFT(3; 4,4,4; 1,2,2; 1,1,1)|pgft --m 4,4,4 --w 1,2,2 --p 1,1,1"
	"pgft3-par443|PGFT(3; 4,4,3; 1,2,2; 1,2,1)|pgft --m 4,4,3 --w 1,2,2 --p 1,2,1"
	"pgft3-blk844|PGFT(3; 8,4,4; 1,4,4; 1,1,1)|pgft --m 8,4,4 --w 1,4,4 --p 1,1,1"
	"pgft3-par444|PGFT(3; 4,4,4; 1,2,2; 1,2,2)|pgft --m 4,4,4 --w 1,2,2 --p 1,2,2"
)

# the damaged meshes of --random-mesh: key | what | ibunion gen arguments
mesh_families=(
	"mesh4x4h2|4x4 mesh, 2 HCAs a switch|mesh 4 4 --hcas 2"
	"mesh6x6h1|6x6 mesh, 1 HCA a switch|mesh 6 6 --hcas 1"
	"mesh6x6h2|6x6 mesh, 2 HCAs a switch|mesh 6 6 --hcas 2"
	"mesh5x7h2|5x7 mesh, 2 HCAs a switch|mesh 5 7 --hcas 2"
	"mesh7x4h3|7x4 mesh, 3 HCAs a switch|mesh 7 4 --hcas 3"
	"mesh8x8h1|8x8 mesh, 1 HCA a switch|mesh 8 8 --hcas 1"
	"mesh10x10h1|10x10 mesh, 1 HCA a switch|mesh 10 10 --hcas 1"
)

# draw N: a number in 0..N-1 into $r from the generator in $rng (an LCG
# in shell arithmetic, so a seed draws the same fabrics on every machine)
draw()
{
	rng=$(((rng * 1103515245 + 12345) % 2147483648))
	r=$(((rng >> 8) % $1))
}

# random_specs N M SEED: N damaged fat trees, then M damaged meshes, one
# spec a line
random_specs()
{
	local i rest=$2
	rng=$3
	for ((i = 1; i <= $1; i++)); do
		draw ${#families[@]}
		random_spec r "$i" tree "${families[$r]}" 3
	done
	for ((i = 1; i <= rest; i++)); do
		draw ${#mesh_families[@]}
		random_spec m "$i" mesh "${mesh_families[$r]}" 2
	done
}

# random_spec LETTER I KIND FAMILY SWITCHES: one spec, 1-4 cables cut and
# 0..SWITCHES-1 switches missing
random_spec()
{
	local key what gen cut sw gseed tag
	IFS='|' read -r key what gen <<<"$4"
	draw 4; cut=$((r + 1))
	draw "$5"; sw=$r
	draw 1000000; gseed=$((r + 1))
	draw 65536; tag=$(printf 'n%04x' "$r")
	printf '%s%02d-%s-cut%d%s|%s|%s, %d cable%s cut%s|%s --remove-links %d%s --seed %d --prefix %s-\n' \
		"$1" "$2" "$key" "$cut" "$([ "$sw" = 0 ] || echo "-sw$sw")" "$3" \
		"$what" "$cut" "$([ "$cut" = 1 ] || echo s)" \
		"$([ "$sw" = 0 ] || echo ", $sw switch$([ "$sw" = 1 ] || echo es) missing")" \
		"$gen" "$cut" "$([ "$sw" = 0 ] || echo " --remove-switches $sw")" "$gseed" "$tag"
}

if [ -n "$quick" ]; then
	fabrics=("${fabrics_quick[@]}")
else
	fabrics=("${fabrics_full[@]}")
fi
sweep=
if [ -n "$random_n$random_mesh" ] || [ ${#explicit[@]} -gt 0 ]; then
	sweep=1
	fabrics=()
	for spec in "${explicit[@]}"; do
		IFS='|' read -r name kind what gen <<<"$spec"
		if ! [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || ! [[ $kind =~ ^(tree|mesh)$ ]] ||
		   [ -z "$what" ] || [ -z "$gen" ]; then
			echo "league: --fabric '$spec': want 'NAME|tree or mesh|WHAT|GEN ARGS'" >&2
			exit 2
		fi
		fabrics+=("$spec")
	done
	if [ -n "$random_n$random_mesh" ]; then
		mapfile -t -O ${#fabrics[@]} fabrics < <(random_specs "${random_n:-0}" "${random_mesh:-0}" "$random_seed")
	fi
	[ -n "$only_engines" ] || only_engines="cyclic xy ftree updn minhop dfsssp"
	if [ -n "$list" ]; then
		printf -- "--fabric '%s'\n" "${fabrics[@]}"
		exit 0
	fi
fi
if [ -n "$list" ]; then
	for spec in "${fabrics_full[@]}" "${fabrics_quick[@]}"; do
		IFS='|' read -r name kind what _ <<<"$spec"
		printf '%-20s %-4s %s\n' "$name" "$kind" "$what"
	done
	echo "fat-tree engines: $tree_engines"
	echo "mesh engines:     $mesh_engines"
	exit 0
fi
if [ -n "$only_fabrics" ] && [ -z "$sweep" ]; then
	sel=()
	for want in $only_fabrics; do
		found=
		for spec in "${fabrics_full[@]}" "${fabrics_quick[@]}"; do
			[ "${spec%%|*}" = "$want" ] && { sel+=("$spec"); found=1; break; }
		done
		[ -n "$found" ] || { echo "league: no fabric '$want' (try --list)" >&2; exit 2; }
	done
	fabrics=("${sel[@]}")
fi

# LEAGUE_NO_BUILD=1 (t0410): BUILD_DIR is built already, leave it alone
if [ -z "${LEAGUE_NO_BUILD-}" ]; then
	BUILD_DIR=$build bash "$top/tests/scripts/build.sh" >/dev/null || exit 1
fi

# shellcheck disable=SC2034 # read by tests/sim.sh
top_srcdir=$top
# shellcheck disable=SC2034
top_builddir=$build
# shellcheck source=../sim.sh
. "$top/tests/sim.sh"
sim_script_mode

work=$(mktemp -d "${TMPDIR:-/tmp}/ibu-league.XXXXXX") || exit 1
sim_at_exit 'rm -rf "$work"'
trap 'rm -rf "$work"' EXIT	# until the first sim_setup takes the trap over
out=${keep:-$work}
mkdir -p "$out" || exit 1
rows=$out/league.tsv
: >"$rows" || exit 1
# what every opensm below is told that the checks must know too (a
# damaged tree's turned routes ride SL 1 only with qos TRUE)
osmconf=$out/opensm-qos.conf
echo "qos TRUE" >"$osmconf" || exit 1
: >"$out/specs" && : >"$out/checks" || exit 1

# ------------------------------------------------------------ one engine

# secs LINE: seconds since midnight of an OpenSM log line
secs()
{
	awk '{ split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6; exit }'
}

# vls_of ENGINE LOG: the virtual lanes the engine's routing uses
vls_of()
{
	local n=
	case $1 in
	dfsssp) n=$(sed -n 's/.*Virtual Lanes needed: \([0-9]*\).*/\1/p' "$2" | tail -n 1) ;;
	lash)	# the last "Lanes needed", else the layers it listed
		n=$(sed -n 's/.*lash_core: Lanes needed: \([0-9]*\).*/\1/p' "$2" | tail -n 1)
		[ -n "$n" ] || n=$(sed -n 's/.*lash_core: Lanes in layer \([0-9]*\):.*/\1/p' "$2" |
			sort -un | wc -l) ;;
	xy) n=$(grep -Eo '[0-9]+ SL layers' "$2" | tail -n 1 | cut -d' ' -f1) ;;
	cyclic) grep -q 'turned routes on SL 1 / VL 1' "$2" && n=2 ;;
	*) n=1 ;;
	esac
	[ -n "$n" ] && [ "$n" != 0 ] || n=1
	echo "$n"
}

# route_one TAG ENGINE: opensm with ENGINE on the running ibsim; the
# tables into $out/$F/TAG.lfts; prints "used route_ms vls"
route_one()
{
	local tag=$1 eng=$2 dir=$out/$F plug=- start end used ms opts=()
	case $eng in cyclic | xy) plug=ibunion ;; esac
	[ "$plug" = - ] || [ -z "$plugin_opts" ] || opts=(event_plugin_options "$plugin_opts")
	sim_write_conf event_plugin_name "$plug" routing_engine "$eng" lmc 0 \
		qos TRUE log_flags 0x07 "${opts[@]}"
	sim_start_opensm
	if ! sim_wait_subnet_up 900 >"$SIM_DIR/wait.out" ||
	   ! sim_dump_lfts_whole "$dir/$tag.lfts" >/dev/null; then
		sim_stop_opensm >/dev/null
		mv "$SIM_DIR/osm.log" "$dir/$tag.osm.log" 2>/dev/null
		rm -f "$dir/$tag.lfts"
		echo "league: $F $eng: no SUBNET UP or no dump (log: $dir/$tag.osm.log)" >&2
		return 1
	fi
	sim_stop_opensm >/dev/null
	# the next opensm must not find this run's SUBNET UP
	mv "$SIM_DIR/osm.log" "$dir/$tag.osm.log"
	start=$(grep -m1 "building routing with" "$dir/$tag.osm.log" | secs)
	end=$(grep -m1 "tables configured on all switches" "$dir/$tag.osm.log" | secs)
	used=$(sed -n 's/.*-> osm_ucast_mgr_process: \([^ ]*\) tables configured.*/\1/p' \
		"$dir/$tag.osm.log" | head -n 1)
	ms=$(awk -v a="$start" -v b="$end" 'BEGIN { if (a == "" || b == "") { print "-"; exit }
		d = b - a; if (d < 0) d += 86400; printf "%.1f", d * 1000 }')
	echo "${used:-?} $ms $(vls_of "${used:-$eng}" "$dir/$tag.osm.log")"
}

# deadlock NET LFTS [ENGINE [CHECK OPTION..]]: "no" (no cycle), "yes", or
# "?" (the check failed); ENGINE none (the default): every route on SL 0,
# else on the SLs of ENGINE's plan where the tables follow its rule
deadlock()
{
	local o net=$1 lfts=$2 eng=${3:-none}
	shift $(($# < 3 ? $# : 3))
	o=$("$IBUNION" check --engine "$eng" "$net" "$lfts" --deadlock "$@" 2>&1)
	if grep -q 'no cycle' <<<"$o"; then
		echo no
	elif grep -qE 'credit loop|cycle' <<<"$o"; then
		echo yes
	else
		echo "?"
	fi
}

# cdg NET LFTS: the CDG cycle column: "no", "yes", "sw LIDs" (a cycle only
# with the switches' own LIDs as destinations: nue and others route those
# apart), "?"
cdg()
{
	local all ca
	all=$(deadlock "$1" "$2")
	[ "$all" = yes ] || { echo "$all"; return; }
	# the same tables without the switch LIDs (the trailers recounted)
	awk '/: \(Switch portguid/ { next }
		/valid lids dumped/ { print n " valid lids dumped "; n = 0; next }
		/^0x/ { n++ } { print }' "$2" >"$2.ca"
	ca=$(deadlock "$1" "$2.ca")
	[ "$ca" = no ] && echo "sw LIDs" || echo "$ca"
}

# ------------------------------------------------------------ one fabric

# cell FILE PATTERN FIGURE TAG: one cell of `ibunion load`'s compare table
cell()
{
	awk -v p="$2" -v f="$3" -v t="$4" '
		NR == 1 { for (i = 4; i <= NF; i++) col[$i] = i; next }
		$1 == p && $3 == f && (t in col) { print $(col[t]); exit }' "$1"
}

# one_fabric SPEC: every engine on it, its table into $out/tables.md
one_fabric()
{
	local name kind what gen engines tags=() tag eng res used ms vls net order
	local bound a2a wshift ebb unr loop sw hosts ours horder damaged=- k ediff eci
	IFS='|' read -r name kind what gen <<<"$1"
	F=$name
	mkdir -p "$out/$F" || return 1
	net=$out/$F/$F.net
	# shellcheck disable=SC2086
	"$IBUNION" gen $gen --shuffle-ports --shuffle-records -o "$net" || return 1
	engines=$([ "$kind" = mesh ] && echo "$mesh_engines" || echo "$tree_engines")
	if [ -n "$only_engines" ]; then
		engines=$(for e in $engines; do
			case " $only_engines " in *" $e "*) echo "$e" ;; esac
		done)
	fi
	# opensm and dump_lfts act as the first HCA with a cable: gen keeps
	# the HCAs of a removed leaf as records without one, and an SM there
	# sees its port down forever
	SIM_HOST=$(awk '/^Hca/ { h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); next }
		h != "" && /^\[[0-9]+\][ \t]*"/ { print h; exit } /^$/ { h = "" }' "$net")
	export SIM_HOST
	sim_setup >/dev/null
	# ibsim's defaults hold 256 switches: room for the fabrics bench.sh
	# runs (a few MB of ibsim's memory whatever the fabric)
	if ! sim_start_ibsim "$net" -N 16384 -S 2048 -P 131072 >/dev/null; then
		sim_mark_failed
		sim_teardown >/dev/null
		echo "league: ibsim failed on $F" >&2
		return 1
	fi
	: >"$out/$F/engines"
	for eng in $engines; do
		echo "league: $F: $eng ..." >&2
		res=$(route_one "$eng" "$eng") || continue
		echo "$eng $res" >>"$out/$F/engines"
		tags+=("$out/$F/$eng.lfts")
	done
	sim_teardown >/dev/null
	[ ${#tags[@]} -gt 0 ] || { echo "league: $F: no engine gave tables" >&2; return 1; }
	# one dump alone gets load's single table: name it twice for the
	# compare table (the same column twice); ours first, so that every
	# other column's bw-diff is its eBB less ours on the same bisections
	[ ${#tags[@]} -gt 1 ] || tags+=("${tags[0]}")
	for k in "${!tags[@]}"; do
		case ${tags[$k]} in
		*/cyclic.lfts | */xy.lfts)
			tags=("${tags[$k]}" "${tags[@]:0:$k}" "${tags[@]:$((k + 1))}")
			break ;;
		esac
	done
	"$IBUNION" load "$net" "${tags[@]}" --pattern all-to-all,shift,"ebb:$samples" \
		>"$out/$F/load.txt" 2>"$out/$F/load.err"
	[ -s "$out/$F/load.txt" ] || { cat "$out/$F/load.err" >&2; return 1; }
	grep -v '^-I-' "$out/$F/load.txt" >"$out/$F/load.table"
	order=$(sed -n 's/^-I- [^:]*: [0-9]* switches, [0-9]* end ports (\(.*\) order);.*/\1/p' \
		"$out/$F/load.txt" | head -n 1)
	# what our engines recognise (load's engine detection, as the plugin's)
	ours=$(sed -n '1s/^-I- .*: LIDs up to 0x[0-9a-f]*, \(.*\)$/\1/p' "$out/$F/load.txt")
	sw=$(sed -n 's/^-I- [^:]*: \([0-9]*\) switches, \([0-9]*\) end ports.*/\1/p' "$out/$F/load.txt" | head -n 1)
	hosts=$(sed -n 's/^-I- [^:]*: \([0-9]*\) switches, \([0-9]*\) end ports.*/\2/p' "$out/$F/load.txt" | head -n 1)
	bound=$(awk '$1 == "all-to-all" && $3 == "bound" { print $4; exit }' "$out/$F/load.table")
	# intact or damaged: from the graph OpenSM routed (the first tables
	# read back say which part of the net file that was; the targets
	# differ; the whole output read: grep -q would quit at the match and
	# route's next line die of SIGPIPE, failing the pipe under pipefail)
	if [ "$kind" = tree ]; then
		case $("$IBUNION" route "$net" --lids-from "${tags[0]}" -o /dev/null 2>&1) in
		*'degraded: '*) damaged=yes ;;
		*) damaged=no ;;
		esac
	fi
	{
		echo
		echo "### $what"
		echo
		echo "\`$F\`: \`ibunion gen $gen --shuffle-ports --shuffle-records\`; $sw switches, $hosts end ports;"
		case $order in
		cyclic) horder="cyclic's host order (ibunion order)" ;;
		xy) horder="xy's position order (ibunion order)" ;;
		*) horder="${order:-?} order" ;;
		esac
		echo "all-to-all lower bound $bound (any tables); shifts in $horder;"
		echo "recognised by ${ours:-none of our engines}."
		echo
		echo "| engine | a2a | shift | eBB | VLs | CDG cycle | unreach | route ms |"
		echo "|---|---:|---:|---:|---:|---|---:|---:|"
	} >>"$out/tables.md"
	while read -r eng used ms vls; do
		a2a=$(cell "$out/$F/load.table" all-to-all busiest "$eng")
		wshift=$(cell "$out/$F/load.table" shift busiest "$eng")
		ebb=$(cell "$out/$F/load.table" "ebb:$samples" flow-bw "$eng")
		unr=$(cell "$out/$F/load.table" all-to-all unrouted "$eng")
		ediff=$(cell "$out/$F/load.table" "ebb:$samples" bw-diff "$eng")
		eci=$(cell "$out/$F/load.table" "ebb:$samples" diff-ci95 "$eng")
		if [ "$vls" = 1 ]; then
			loop=$(cdg "$net" "$out/$F/$eng.lfts")
		elif [ "$eng" = cyclic ]; then	# on the SLs its PathRecords give
			loop=$(deadlock "$net" "$out/$F/$eng.lfts" cyclic \
				--config "$osmconf")
		else
			loop=-
		fi
		tag=$eng
		[ "$used" = "$eng" ] || tag="$eng*$used"
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$tag" "${a2a:-?}" \
			"${wshift:-?}" "${ebb:-?}" "$vls" "$loop" "${unr:-?}" "$ms" >>"$out/tables.md"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$F" "$eng" "$used" \
			"${a2a:-?}" "${wshift:-?}" "${ebb:-?}" "$vls" "$loop" "${unr:-?}" "$ms" \
			"$bound" "${order:-?}" "$damaged" "${ediff:--}" "${eci:--}" >>"$rows"
	done <"$out/$F/engines"
	return 0
}

# targets TSV: ours against the others, one line per fabric (Markdown).
# Intact fat trees (the TSV's 13th column; older TSVs without it: no
# "-cut" or "-sw" in the name): all-to-all at the bound.  Damaged fat trees: all-to-all no higher than the best of ftree
# (its configuration, fallback included), updn, minhop and dfsssp; the
# worst shift no higher than dfsssp's; eBB at least dfsssp's.  Meshes: at
# most 2 VLs, all-to-all no higher than minhop's and within 1.25 x
# dfsssp's.  Ours must route it itself.
targets()
{
	awk -F'\t' '
	function ok(c) { return c ? "yes" : "**no**" }
	{
		f = $1; if (!(f in seen)) { seen[f] = 1; order[++n] = f }
		e = $2; a2a[f, e] = $4; sh[f, e] = $5; ebb[f, e] = $6; vls[f, e] = $7
		used[f, e] = $3; bound[f] = $11
		dmg[f] = NF >= 13 && $13 != "-" ? ($13 == "yes") : (f ~ /-(cut|sw)/)
		ed[f, e] = NF >= 15 ? $14 : "-"; eci[f, e] = NF >= 15 ? $15 : "-"
		if (e == "cyclic" || e == "xy") ours[f] = e
	}
	# eBB below dfsssp'"'"'s by less than the paired 95% half-width
	function in_noise(f) {
		return ed[f, "dfsssp"] != "-" && eci[f, "dfsssp"] != "-" &&
		       ed[f, "dfsssp"] + 0 <= eci[f, "dfsssp"] + 0
	}
	END {
		print ""
		print "### Ours against the targets"
		print ""
		print "Ours must route the fabric itself.  Intact fat trees: all-to-all at the"
		print "bound.  Damaged fat trees: all-to-all no higher than the best of ftree,"
		print "updn, minhop and dfsssp, the worst shift no higher than dfsssp'"'"'s, eBB at"
		print "least dfsssp'"'"'s.  Meshes: at most 2 VLs, all-to-all no higher than"
		print "minhop'"'"'s and within 1.25 x dfsssp'"'"'s.  (A missing engine leaves its"
		print "comparison out.)  An eBB below dfsssp'"'"'s shows the difference on the"
		print "same bisections and its 95% half-width; where the half-width is larger,"
		print "the sample cannot tell the miss from a tie, and the row says so."
		print ""
		print "| fabric | ours | a2a (bound) | vs | shift vs dfsssp | eBB vs dfsssp | VLs | met |"
		print "|---|---|---:|---|---|---|---:|---|"
		for (i = 1; i <= n; i++) {
			f = order[i]; o = ours[f]
			if (o == "") continue
			met = 1; vs = ""; shv = "-"; ebv = "-"; noise = 0
			if (used[f, o] != o) met = 0
			if (o == "cyclic" && !dmg[f]) {
				vs = "the bound"
				met = met && a2a[f, o] + 0 <= bound[f] + 1e-9
				if ((f, "dfsssp") in sh) {
					shv = sh[f, o] " vs " sh[f, "dfsssp"]
					ebv = ebb[f, o] " vs " ebb[f, "dfsssp"]
				}
			} else if (o == "cyclic") {
				best = ""; who = ""
				split("ftree updn minhop dfsssp", list, " ")
				for (k = 1; k <= 4; k++)
					if ((f, list[k]) in a2a && a2a[f, list[k]] != "?" &&
					    (best == "" || a2a[f, list[k]] + 0 < best + 0)) {
						best = a2a[f, list[k]]; who = list[k]
					}
				if (best != "") { vs = "best " best " (" who ")"; met = met && a2a[f, o] + 0 <= best + 0 }
				if ((f, "dfsssp") in sh) {
					shv = sh[f, o] " vs " sh[f, "dfsssp"]
					ebv = ebb[f, o] " vs " ebb[f, "dfsssp"]
					met = met && sh[f, o] + 0 <= sh[f, "dfsssp"] + 0
					if (ebb[f, o] + 0 < ebb[f, "dfsssp"] + 0) {
						noise = met && in_noise(f)
						met = 0
						if (ed[f, "dfsssp"] != "-")
							ebv = ebv " (" sprintf("%+.5f", -ed[f, "dfsssp"]) \
							      " +/- " eci[f, "dfsssp"] ")"
					}
				}
			} else {
				met = met && vls[f, o] + 0 <= 2
				if ((f, "minhop") in a2a) {
					vs = "minhop " a2a[f, "minhop"]
					met = met && a2a[f, o] + 0 <= a2a[f, "minhop"] + 0
				}
				if ((f, "dfsssp") in a2a) {
					vs = vs (vs == "" ? "" : ", ") "1.25 x dfsssp " 1.25 * a2a[f, "dfsssp"]
					met = met && a2a[f, o] + 0 <= 1.25 * a2a[f, "dfsssp"] + 1e-9
				}
			}
			printf "| %s | %s%s | %s (%s) | %s | %s | %s | %s | %s%s |\n", f, o,
				used[f, o] != o ? "*" used[f, o] : "", a2a[f, o], bound[f],
				vs == "" ? "-" : vs, shv, ebv, vls[f, o], ok(met),
				!met && noise ? " (eBB within the sample'"'"'s error)" : ""
		}
	}' "$1"
}

# check_ours SPEC: `ibunion check` of ours on the fabric (reachability,
# loops, the engine's rule: minimal up*/down*), a line into $out/checks
check_ours()
{
	local name kind lfts o rc=- kv copts=()
	IFS='|' read -r name kind _ <<<"$1"
	lfts=$out/$name/$([ "$kind" = mesh ] && echo xy || echo cyclic).lfts
	for kv in ${plugin_opts//,/ }; do copts+=(-O "$kv"); done
	if [ -s "$lfts" ]; then
		o=$("$IBUNION" check -q --config "$osmconf" "${copts[@]}" \
			"$out/$name/$name.net" "$lfts" 2>&1)
		rc=$?
		printf '%s\n' "$o" >"$out/$name/check.txt"
	fi
	# why ours declined, if it did (its ERR line in OpenSM's log)
	printf '%s\t%s\t%s\t%s\n' "$name" "$rc" \
		"$({ grep -m1 '^-[IE]- check: ' "$out/$name/check.txt" || grep -m1 '^-E- ' "$out/$name/check.txt"; } 2>/dev/null | sed 's/^-[IE]- //')" \
		"$(grep -m1 -o 'ERR 5A[0-9A-F]*: .*' "${lfts%.lfts}.osm.log" 2>/dev/null)" \
		>>"$out/checks"
}

# summary SPECS TSV CHECKS: the sweep's verdict (Markdown): how many
# fabrics met every target of targets() and were valid (check_ours, no
# unreached pair, no CDG cycle), the misses per criterion and per family,
# and each miss with by how much and its spec.  A fabric ours declined
# counts under "fallback" only (the tables are another engine's).
summary()
{
	awk -F'\t' '
	FILENAME == ARGV[1] { name[++n] = $1; spec[$1] = $2; next }
	FILENAME == ARGV[2] {
		f = $1; e = $2; has[f, e] = 1; used[f, e] = $3; a2a[f, e] = $4
		sh[f, e] = $5; ebb[f, e] = $6; vls[f, e] = $7; cdg[f, e] = $8; unr[f, e] = $9
		bound[f] = $11; dmg[f] = NF >= 13 && $13 != "-" ? ($13 == "yes") : 1
		ed[f, e] = NF >= 15 ? $14 : "-"; eci[f, e] = NF >= 15 ? $15 : "-"
		if (e == "cyclic" || e == "xy") ours[f] = e
		next
	}
	{ chk[$1] = $2; chkmsg[$1] = $3; why[$1] = $4 }
	function pct(a, b) { return b + 0 == 0 ? "" : sprintf(" (%+.1f%%)", 100 * (a - b) / b) }
	function miss(f, c, why) { nm[f]++; cnt[c]++; what[f] = what[f] (what[f] == "" ? "" : "; ") why }
	function tree_targets(f, o,    best, who, list, k) {
		best = ""; who = ""
		split("ftree updn minhop dfsssp", list, " ")
		for (k = 1; k <= 4; k++)
			if (has[f, list[k]] && a2a[f, list[k]] != "?" &&
			    (best == "" || a2a[f, list[k]] + 0 < best + 0)) {
				best = a2a[f, list[k]]; who = list[k]
			}
		if (best != "" && a2a[f, o] + 0 > best + 0)
			miss(f, "a2a", "a2a " a2a[f, o] " vs " best " (" who ")" pct(a2a[f, o], best))
		if (has[f, "dfsssp"] && sh[f, o] + 0 > sh[f, "dfsssp"] + 0)
			miss(f, "shift", "shift " sh[f, o] " vs " sh[f, "dfsssp"] pct(sh[f, o], sh[f, "dfsssp"]))
		if (has[f, "dfsssp"] && ebb[f, o] + 0 < ebb[f, "dfsssp"] + 0) {
			tie = ed[f, "dfsssp"] != "-" && ed[f, "dfsssp"] + 0 <= eci[f, "dfsssp"] + 0
			ntie += tie
			miss(f, "eBB", "eBB " ebb[f, o] " vs " ebb[f, "dfsssp"] pct(ebb[f, o], ebb[f, "dfsssp"]) \
			     (ed[f, "dfsssp"] == "-" ? "" : ", " sprintf("%+.5f", -ed[f, "dfsssp"]) " +/- " \
			      eci[f, "dfsssp"] " on the same bisections" (tie ? ": within the sample'"'"'s error" : "")))
		}
	}
	# the faults left a whole tree (a leaf gone with its hosts): the
	# intact target, all-to-all at the bound
	function intact_targets(f, o) {
		if (a2a[f, o] + 0 > bound[f] + 1e-9)
			miss(f, "a2a", "a2a " a2a[f, o] " vs the bound " bound[f] " (intact after the faults)")
		note[f] = note[f] (note[f] == "" ? "" : "; ") "intact after the faults: a2a " a2a[f, o] \
			" at the bound " bound[f] (has[f, "dfsssp"] ? ", shift " sh[f, o] " vs " sh[f, "dfsssp"] \
			", eBB " ebb[f, o] " vs " ebb[f, "dfsssp"] " (dfsssp)" : "")
		nintact++
	}
	function mesh_targets(f, o) {
		if (vls[f, o] + 0 > 2)
			miss(f, "VLs", vls[f, o] " VLs")
		if (has[f, "minhop"] && a2a[f, o] + 0 > a2a[f, "minhop"] + 0)
			miss(f, "mesh", "a2a " a2a[f, o] " vs minhop " a2a[f, "minhop"] pct(a2a[f, o], a2a[f, "minhop"]))
		if (has[f, "dfsssp"] && a2a[f, o] + 0 > 1.25 * a2a[f, "dfsssp"] + 1e-9)
			miss(f, "mesh", "a2a " a2a[f, o] " vs 1.25 x dfsssp " 1.25 * a2a[f, "dfsssp"] pct(a2a[f, o], 1.25 * a2a[f, "dfsssp"]))
	}
	END {
		split("fallback unreached a2a shift eBB VLs mesh CDG check", crit, " ")
		for (i = 1; i <= n; i++) {
			f = name[i]; o = ours[f]; fam = f
			sub(/^[rm][0-9]+-/, "", fam); sub(/-(cut|sw)[0-9].*$/, "", fam)
			if (!(fam in famn)) famorder[++nf] = fam
			famn[fam]++
			if (o == "" || used[f, o] != o) {
				miss(f, "fallback", (o == "" ? "ours gave no tables" : "ours fell back to " used[f, o]) \
				     (why[f] == "" ? "" : ": " why[f]))
			} else {
				# the fewest any other engine left: > 0 = cut apart
				minu = ""
				for (k in has) {
					split(k, fe, SUBSEP)
					if (fe[1] == f && fe[2] != o && (minu == "" || unr[k] + 0 < minu + 0))
						minu = unr[k]
				}
				# every engine leaves the same pairs: the fabric is cut
				# apart (an island without the SM gets no LIDs), no miss
				apart = unr[f, o] + 0 > 0 && minu != "" && unr[f, o] + 0 <= minu + 0
				if (apart) { napart++; note[f] = unr[f, o] " pairs unreachable for every engine: cut apart" }
				else if (unr[f, o] + 0 > 0)
					miss(f, "unreached", unr[f, o] " pairs unreached (others: " (minu == "" ? "-" : minu) ")")
				if (o == "xy")
					mesh_targets(f, o)
				else if (!dmg[f])
					intact_targets(f, o)
				else
					tree_targets(f, o)
				# "-": on several VLs (the SL layers of xy), not one graph
				if (cdg[f, o] != "no" && !(o == "xy" && cdg[f, o] == "-"))
					miss(f, "CDG", "CDG cycle: " cdg[f, o])
				if (apart && chk[f] == "3" && chkmsg[f] ~ /has no LID/)
					note[f] = note[f] "; check not run (" chkmsg[f] ")"
				else if (apart && chkmsg[f] ~ /[^0-9]0 loops, 0 non-minimal/ &&
					 chkmsg[f] !~ /[1-9][0-9]* (cyclic mismatches|climb violations|down-up turns)/)
					note[f] = note[f] "; check: only the cut-apart pairs unreachable"
				else if (chk[f] != "0") miss(f, "check", "check exit " chk[f] ": " chkmsg[f])
			}
			if (nm[f] == 0) { met++; famok[fam]++ }
		}
		print ""
		print "### Summary"
		print ""
		printf "%d fabrics, %d met every target (%.0f%%).  Misses per criterion (a fabric\n", n, met, n ? 100 * met / n : 0
		print "can miss several; a declined fabric counts under fallback only):"
		if (napart)
			printf "\n%d of them are cut apart: some end ports unreachable for every engine\n(judged on the other criteria; listed below).\n", napart
		if (nintact)
			printf "\n%d of them are whole trees after the faults (`ibunion route` finds no\nfault: a leaf went with its hosts): judged as intact, all-to-all at the\nbound (listed below).\n", nintact
		print ""
		print "| criterion | missed |"
		print "|---|---:|"
		label["fallback"] = "fallback: ours declined, or no tables"
		label["unreached"] = "unreached: end-port pairs whose route does not arrive"
		label["a2a"] = "tree: a2a above the best of ftree, updn, minhop, dfsssp"
		label["shift"] = "tree: worst shift above dfsssp'"'"'s"
		label["eBB"] = "tree: eBB below dfsssp'"'"'s"
		label["VLs"] = "mesh: more than 2 VLs"
		label["mesh"] = "mesh: a2a above minhop'"'"'s or 1.25 x dfsssp'"'"'s"
		label["CDG"] = "CDG cycle (credit loop)"
		label["check"] = "`ibunion check`: loops, non-minimal, off the rule"
		for (k = 1; k <= 9; k++) printf "| %s | %d |\n", label[crit[k]], cnt[crit[k]]
		if (ntie)
			printf "\n%d of the eBB misses are below dfsssp'"'"'s by less than the 95%%\nhalf-width of the difference on the same bisections: the sample cannot\ntell them from a tie.\n", ntie
		print ""
		print "| family | fabrics | met |"
		print "|---|---:|---:|"
		for (k = 1; k <= nf; k++) printf "| %s | %d | %d |\n", famorder[k], famn[famorder[k]], famok[famorder[k]]
		if (met == n && !napart && !nintact) exit
		print ""
		print "Misses (and fabrics cut apart):"
		print ""
		print "| fabric | missed |"
		print "|---|---|"
		for (i = 1; i <= n; i++)
			if (nm[name[i]] || note[name[i]] != "")
				printf "| %s | %s%s%s |\n", name[i], what[name[i]],
					what[name[i]] != "" && note[name[i]] != "" ? "; " : "",
					note[name[i]] == "" ? "" : "(" note[name[i]] ")"
		print ""
		print "Re-run one with `tests/scripts/bench-league.sh --fabric SPEC`:"
		print ""
		print "```"
		for (i = 1; i <= n; i++)
			if (nm[name[i]] || note[name[i]] != "") printf "--fabric '"'"'%s'"'"'\n", spec[name[i]]
		print "```"
	}' "$1" "$2" "$3"
}

# ------------------------------------------------------------ the run

started=$(date -u '+%Y-%m-%d %H:%M UTC')
: >"$out/tables.md"
failures=0
for spec in "${fabrics[@]}"; do
	one_fabric "$spec" || failures=$((failures + 1))
	[ -z "$sweep" ] && continue
	check_ours "$spec"
	printf '%s\t%s\n' "${spec%%|*}" "$spec" >>"$out/specs"
done

{
	echo "# The league: every routing engine on the same fabrics"
	echo
	echo "Command: \`$cmdline\`"
	echo
	echo "Machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores (shared), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);"
	echo "OpenSM $(opensm --version 2>/dev/null | sed -n 's/^OpenSM //p' | head -n 1), ibsim $(dpkg-query -W -f '${Version}' ibsim-utils 2>/dev/null || echo '?');"
	echo "ibunion $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?'); started $started, finished $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo
	echo "Every fabric runs in ibsim with the real opensm, lmc 0, qos TRUE, each engine"
	echo "with its defaults (ours through the plugin, \`routing_engine cyclic\` or \`xy\`);"
	echo "the tables are read back with dump_lfts and measured by one \`ibunion load"
	echo "FABRIC E1.lfts E2.lfts .. --pattern all-to-all,shift,ebb:$samples\` (base LIDs)."
	echo "\`E*used\`: OpenSM fell back from E to used."
	echo
	echo "- a2a: all-to-all, busiest directed link (messages); the bound is the"
	echo "  largest over the end-port cables and cuts of the graph (sub-trees,"
	echo "  a mesh's bisections) of flows / cables, and of whole destinations"
	echo "  (a switch's h end ports send to each outside destination out of one"
	echo "  port: h x ceil((N - h) / cables to switches)), valid for any tables"
	echo "- shift: the worst of the N-1 shift permutations in the stated host order"
	echo "  (ours, as \`ibunion order\` prints it: cyclic's D-mod-K destination order,"
	echo "  position order on an intact tree; xy's position order on a mesh)"
	echo "- eBB: effective bisection bandwidth, [Hoefler08]'s ORCS model, $samples random"
	echo "  bisections, the same for every engine (1.0 = every flow at full link speed)"
	echo "- VLs: virtual lanes the routing uses (dfsssp's \"Virtual Lanes needed\","
	echo "  lash's layers, xy's SL layers, nue_max_num_vls, cyclic's 2 where a damaged"
	echo "  tree's turned routes ride VL 1; 1 for SL-0 engines)"
	echo "- CDG cycle: on one VL, a cycle in the channel dependency graph of the"
	echo "  tables (\`ibunion check --deadlock\`): yes = a credit loop can deadlock;"
	echo "  sw LIDs = only with the switches' own LIDs as destinations (routed apart"
	echo "  by nue and others), none among the end ports' routes; cyclic on 2 VLs:"
	echo "  the same on the SLs its PathRecords give"
	echo "- unreach: end-port pairs whose route does not arrive"
	echo "- route ms: OpenSM's routing phase (\"building routing with\" to \"tables"
	echo "  configured on all switches\") on a shared machine: compare within a table"
	cat "$out/tables.md"
	targets "$rows"
	[ -z "$sweep" ] || summary "$out/specs" "$rows" "$out/checks"
} >"$out/report.md"
cat "$out/report.md"
[ -z "$report" ] || cp "$out/report.md" "$report" || failures=$((failures + 1))
[ -z "$tsv" ] || cp "$rows" "$tsv" || failures=$((failures + 1))
[ -n "$keep" ] && echo "league: files kept in $keep" >&2
[ "$failures" -eq 0 ] || { echo "league: $failures fabric(s) failed" >&2; exit 1; }
