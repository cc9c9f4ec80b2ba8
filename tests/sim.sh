# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# tests/sim.sh: shell library for the integration tests (sourced, bash).
#
# Every test runs a real opensm, with the ibunion plugin, against a fabric
# simulated by ibsim, through libumad2sim, and reads back what the simulated
# switches hold:
#
#	. "$(dirname "$0")/sim.sh"
#	sim_require			# skip (exit 77) without opensm/ibsim/umad2sim
#	sim_setup			# trash dir, socket name, teardown trap
#	plan 3
#	sim_start_ibsim "$net"
#	sim_write_conf routing_engine cyclic,minhop lmc 2
#	sim_start_opensm
#	t_expect "subnet comes up" sim_wait_subnet_up
#	...
#	done_testing
#
# Output is TAP ("ok N - desc", "not ok N - desc", "# diagnostics"); the exit
# status is what automake's default test driver reads: 0 pass, 1 a test
# failed, 77 skipped, 99 hard error (bail out, or the script ended before
# done_testing).  Every process a test starts is recorded by PID and ended by
# sim_teardown, which the EXIT/INT/TERM traps run.  The trash directory is
# removed on success and kept (its path printed) on failure or with IBU_KEEP=1.
#
# Environment (set by `make check`, defaults for running a test by hand):
#	top_srcdir, top_builddir	source and build trees
#	OPENSM, IBSIM, UMAD2SIM		the programs under test
#	SIM_TIMEOUT			seconds to wait for ibsim/opensm (120)
#	IBU_KEEP=1			keep the trash directory
#	IBU_VERBOSE=1			also copy test diagnostics to stderr

PATH=$PATH:/usr/sbin:/sbin
export PATH LC_ALL=C

: "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${OPENSM:=$(command -v opensm)}"
: "${IBSIM:=$(command -v ibsim)}"
: "${UMAD2SIM:=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}"
if [ ! -f "$UMAD2SIM" ]; then	# another architecture's multiarch dir
	for f in /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so; do
		[ -f "$f" ] && { UMAD2SIM=$f; break; }
	done
fi
: "${SIM_TIMEOUT:=120}"
IBUNION=$top_builddir/tools/ibunion
PLUGIN_DIR=$top_builddir/plugin/.libs
FIXTURES=$top_srcdir/fixtures

test_name=$(basename "$0" .sh)

# ------------------------------------------------------------------ TAP

tap__count=0
tap__failed=0
tap__plan=
tap__done=
sim__hard_error=

diag()
{
	local line

	while IFS= read -r line; do
		printf '# %s\n' "$line"
		[ -n "${IBU_VERBOSE-}" ] && printf '# %s\n' "$line" >&2
	done <<<"$*"
	return 0
}

# diag_file FILE [LINES]: the last LINES (40) lines of FILE as diagnostics.
diag_file()
{
	[ -f "$1" ] || { diag "($1: no such file)"; return 0; }
	diag "--- last ${2:-40} lines of $1:"
	diag "$(tail -n "${2:-40}" "$1")"
}

plan()
{
	tap__plan=$1
	echo "1..$1"
}

ok()
{
	tap__count=$((tap__count + 1))
	echo "ok $tap__count - $*"
}

not_ok()
{
	tap__count=$((tap__count + 1))
	tap__failed=$((tap__failed + 1))
	echo "not ok $tap__count - $*"
}

# skip_test DESC REASON: an assertion that cannot be made here.
skip_test()
{
	tap__count=$((tap__count + 1))
	echo "ok $tap__count - $1 # SKIP $2"
}

skip_all()
{
	echo "1..0 # SKIP $*"
	tap__done=1
	exit 77
}

bail_out()
{
	echo "Bail out! $*"
	sim__hard_error=1
	exit 99
}

# t_expect DESC CMD [ARGS...]: ok when CMD exits 0.  CMD's output goes to a
# file in the trash dir and is shown when it fails.
t_expect()
{
	t_expect_code 0 "$@"
}

# t_expect_code CODE DESC CMD [ARGS...]: ok when CMD exits with CODE.  A
# program (not a shell function) is bounded by SIM_TIMEOUT seconds.
t_expect_code()
{
	local want=$1 desc=$2 out rc
	shift 2

	out=${SIM_DIR:-${TMPDIR:-/tmp}}/cmd-$((tap__count + 1)).out
	if [ "$(type -t "$1")" = file ]; then
		timeout -k 5 "$SIM_TIMEOUT" "$@" >"$out" 2>&1
	else
		"$@" >"$out" 2>&1
	fi
	rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc"
	diag "command: $*"
	diag "exit status $rc, expected $want"
	[ "$rc" = 124 ] && [ "$(type -t "$1")" = file ] &&
		diag "(timed out after $SIM_TIMEOUT s)"
	diag_file "$out"
	return 1
}

# t_grep DESC ERE FILE: ok when FILE has a line matching ERE.
t_grep()
{
	if grep -Eq -- "$2" "$3" 2>/dev/null; then
		ok "$1"
		return 0
	fi
	not_ok "$1"
	diag "no line matches /$2/ in $3"
	diag_file "$3" 20
	return 1
}

# t_no_grep DESC ERE FILE: ok when no line of FILE matches ERE.
t_no_grep()
{
	local hits

	hits=$(grep -E -- "$2" "$3" 2>/dev/null)
	if [ -z "$hits" ]; then
		ok "$1"
		return 0
	fi
	not_ok "$1"
	diag "lines matching /$2/ in $3:"
	diag "$(head -n 20 <<<"$hits")"
	return 1
}

# t_equal DESC GOT WANT
t_equal()
{
	if [ "$2" = "$3" ]; then
		ok "$1"
		return 0
	fi
	not_ok "$1"
	diag "got:  '$2'"
	diag "want: '$3'"
	return 1
}

# done_testing: print the plan if none was given, check the count, exit.
done_testing()
{
	if [ -z "$tap__plan" ]; then
		plan "$tap__count"
	elif [ "$tap__plan" != "$tap__count" ]; then
		diag "planned $tap__plan tests but ran $tap__count"
		tap__failed=$((tap__failed + 1))
	fi
	tap__done=1
	[ "$tap__failed" -gt 0 ] && diag "$tap__failed of $tap__count failed"
	[ "$tap__failed" -eq 0 ]
	exit $?
}

# sim_script_mode: for scripts that are not TAP tests (tests/scripts/demo.sh,
# tests/scripts/bench.sh): no plan, no "ended before done_testing".  sim_mark_failed
# then keeps the trash directory.
sim_script_mode()
{
	tap__done=1
}

sim_mark_failed()
{
	sim__hard_error=1
}

# ------------------------------------------------------------ processes

SIM_DIR=
SIM_PIDS=()
IBSIM_PID=
OPENSM_PID=
sim__clients=0

# sim__alive PID: the process exists and is not a zombie.
sim__alive()
{
	local stat

	[ -n "$1" ] || return 1
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
}

# sim__stop PID NAME: SIGTERM, wait up to 5 s, then SIGKILL; reap.
sim__stop()
{
	local pid=$1 name=$2 i

	sim__alive "$pid" || { wait "$pid" 2>/dev/null; return 0; }
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		sim__alive "$pid" || break
		sleep 0.1
	done
	if sim__alive "$pid"; then
		diag "$name (pid $pid) ignored SIGTERM for 5 s: SIGKILL"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	return 0
}

# sim_require: skip the whole test unless the simulation tools are present.
sim_require()
{
	[ -n "$OPENSM" ] && [ -x "$OPENSM" ] ||
		skip_all "opensm not found (apt-get install opensm)"
	[ -n "$IBSIM" ] && [ -x "$IBSIM" ] ||
		skip_all "ibsim not found (apt-get install ibsim-utils)"
	[ -f "$UMAD2SIM" ] ||
		skip_all "$UMAD2SIM not found (apt-get install ibsim-utils)"
	command -v dump_lfts >/dev/null ||
		skip_all "dump_lfts not found (apt-get install infiniband-diags)"
	[ -r /proc/net/unix ] || skip_all "/proc/net/unix is not readable"
	[ -x "$IBUNION" ] || bail_out "$IBUNION not built (top_builddir=$top_builddir)"
}

# sim_cabled_hca NET: the first HCA of an ibsim net file with a cable (a
# removed switch's HCAs stay in the file without one): where the SM and
# the clients can run (SIM_HOST)
sim_cabled_hca()
{
	awk '/^(Hca|Ca)/ { h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); next }
	h != "" && /^\[[0-9]+\][ \t]*"/ { print h; exit } /^$/ { h = "" }' "$1"
}

# sim_setup: trash dir, unique simulator socket, teardown on exit.
sim_setup()
{
	SIM_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ibu-$test_name.XXXXXX") ||
		bail_out "cannot create a trash directory"
	mkdir "$SIM_DIR/clients" || bail_out "cannot populate $SIM_DIR"
	IBSIM_SOCKNAME=ibu-$$-$RANDOM
	export IBSIM_SOCKNAME
	sim__hard_error=
	trap 'sim__on_exit' EXIT
	trap 'sim__on_signal 130' INT
	trap 'sim__on_signal 143' TERM
	diag "trash dir $SIM_DIR, IBSIM_SOCKNAME=$IBSIM_SOCKNAME"
}

sim__on_signal()
{
	diag "interrupted"
	sim__hard_error=1
	exit "$1"
}

sim__on_exit()
{
	local rc=$?

	trap - EXIT INT TERM
	if [ -z "$tap__done" ]; then
		diag "test script ended (status $rc) before done_testing"
		sim__hard_error=1
		[ "$rc" = 0 ] && rc=99
	fi
	sim_teardown
	[ -z "$sim__at_exit" ] || eval "$sim__at_exit"
	exit "$rc"
}

# sim_at_exit SHELL-CODE: also run this when the script exits (after the
# teardown); for scripts that own more than the trash directory.
sim__at_exit=
sim_at_exit()
{
	sim__at_exit="${sim__at_exit:+$sim__at_exit; }$1"
}

# sim_stop_processes: end every process this test started, newest first
# (so opensm goes before ibsim).
sim_stop_processes()
{
	local i

	for ((i = ${#SIM_PIDS[@]} - 1; i >= 0; i--)); do
		[ -n "${SIM_PIDS[i]}" ] || continue
		sim__stop "${SIM_PIDS[i]}" "$(sim__pid_name "${SIM_PIDS[i]}")"
	done
	SIM_PIDS=()
}

# sim_teardown: end every process this test started, clean up.
sim_teardown()
{
	local keep=

	sim_stop_processes
	[ -n "$SIM_DIR" ] && [ -d "$SIM_DIR" ] || return 0
	rm -rf "$SIM_DIR"/sys-* "$SIM_DIR"/clients/*/sys-* 2>/dev/null
	[ "$tap__failed" -gt 0 ] || [ -n "$sim__hard_error" ] && keep=1
	[ -n "${IBU_KEEP-}" ] && [ "$IBU_KEEP" != 0 ] && keep=1
	if [ -n "$keep" ]; then
		echo "# trash dir kept: $SIM_DIR"
	else
		rm -rf "$SIM_DIR"
	fi
	SIM_DIR=
}

sim__pid_name()
{
	case $1 in
	"$OPENSM_PID") echo opensm ;;
	"$IBSIM_PID") echo ibsim ;;
	*) echo "process" ;;
	esac
}

# sim_wait_for DESC TIMEOUT PID CMD...: poll CMD every 0.1 s until it
# succeeds (0), PID dies (1) or TIMEOUT seconds pass (2).
sim_wait_for()
{
	local desc=$1 timeout=$2 pid=$3 start
	shift 3

	start=$SECONDS
	while :; do
		"$@" && return 0
		if [ -n "$pid" ] && ! sim__alive "$pid"; then
			"$@" && return 0
			diag "waiting for $desc: process $pid died"
			return 1
		fi
		if ((SECONDS - start >= timeout)); then
			diag "waiting for $desc: no result after $timeout s"
			return 2
		fi
		sleep 0.1
	done
}

sim__ibsim_ready()
{
	grep -q "@$IBSIM_SOCKNAME:ctl" /proc/net/unix &&
		grep -q "simulator ready" "$SIM_DIR/ibsim.out"
}

# sim_start_ibsim NETFILE [IBSIM ARGS...]: start the simulator, wait until
# it listens.  Returns non-zero (with diagnostics) when it dies or hangs.
sim_start_ibsim()
{
	local net=$1
	shift

	[ -f "$net" ] || { diag "no net file $net"; return 1; }
	case $net in /*) ;; *) net=$PWD/$net ;; esac
	(cd "$SIM_DIR" && exec "$IBSIM" -s -n "$@" "$net" \
		>ibsim.out 2>&1 </dev/null) &
	IBSIM_PID=$!
	SIM_PIDS+=("$IBSIM_PID")
	if ! sim_wait_for "ibsim" "$SIM_TIMEOUT" "$IBSIM_PID" sim__ibsim_ready; then
		diag_file "$SIM_DIR/ibsim.out" 20
		return 1
	fi
	return 0
}

# sim_start_ibsim_console NETFILE [IBSIM ARGS...]: like sim_start_ibsim, but
# with ibsim's console open on a fifo, so sim_ibsim_cmd can cut and restore
# cables and switches while opensm runs (fd 7 holds the fifo's write end).
sim_start_ibsim_console()
{
	local net=$1
	shift

	[ -f "$net" ] || { diag "no net file $net"; return 1; }
	case $net in /*) ;; *) net=$PWD/$net ;; esac
	mkfifo "$SIM_DIR/ibsim.in" || return 1
	(cd "$SIM_DIR" && exec "$IBSIM" -s "$@" "$net" \
		<ibsim.in >ibsim.out 2>&1) &
	IBSIM_PID=$!
	SIM_PIDS+=("$IBSIM_PID")
	exec 7>"$SIM_DIR/ibsim.in"
	if ! sim_wait_for "ibsim" "$SIM_TIMEOUT" "$IBSIM_PID" sim__ibsim_ready; then
		diag_file "$SIM_DIR/ibsim.out" 20
		return 1
	fi
	return 0
}

sim__ibsim_prompts()
{
	grep -o "sim> " "$SIM_DIR/ibsim.out" 2>/dev/null | wc -l
}

sim__ibsim_prompted()
{
	[ "$(sim__ibsim_prompts)" -gt "$1" ]
}

# sim_ibsim_cmd LINE: one console command (e.g. 'Unlink "sw1"[3]'); waits
# for ibsim's next prompt and fails when ibsim answered with an error.
sim_ibsim_cmd()
{
	local before size

	before=$(sim__ibsim_prompts)
	size=$(stat -c %s "$SIM_DIR/ibsim.out")
	printf '%s\n' "$1" >&7 || return 1
	sim_wait_for "ibsim: $1" 10 "$IBSIM_PID" sim__ibsim_prompted "$before" ||
		return 1
	# the console's own complaints; traps and routing warnings that
	# ibsim prints meanwhile ("ibwarn: ...") are not answers
	if tail -c +"$((size + 1))" "$SIM_DIR/ibsim.out" | grep -v "ibwarn:" |
		grep -Eq "not found|unknown - skipped|# can't|bad parameter|# no previous"; then
		diag "ibsim: $1:"
		diag "$(tail -c +"$((size + 1))" "$SIM_DIR/ibsim.out")"
		return 1
	fi
	return 0
}

sim__log_count()
{
	grep -c -- "$1" "$SIM_DIR/osm.log" 2>/dev/null
}

sim__log_quiet()
{
	local now

	now=$(stat -c %s "$SIM_DIR/osm.log")
	[ "$now" = "$sim__log_size" ] && return 0
	sim__log_size=$now
	return 1
}

# sim_resweep: SIGHUP makes opensm sweep (heavy with force_heavy_sweep
# TRUE); wait for the next SUBNET UP, then until the log has been quiet for
# a second (a trap from the change may have started another sweep).
sim_resweep()
{
	local before i

	before=$(sim__log_count "SUBNET UP")
	kill -HUP "$OPENSM_PID" || return 1
	sim_wait_for "SUBNET UP number $((before + 1))" "$SIM_TIMEOUT" \
		"$OPENSM_PID" sim__log_count_above "SUBNET UP" "$before" || return 1
	sim__log_size=
	for ((i = 0; i < SIM_TIMEOUT; i++)); do
		sim__log_quiet && return 0
		sleep 1
	done
	diag "opensm kept logging for $SIM_TIMEOUT s after the sweep"
	return 1
}

sim__log_count_above()
{
	[ "$(sim__log_count "$1")" -gt "$2" ]
}

# sim_log_since MARK: osm.log from line MARK+1 on (MARK from
# `sim_log_mark`), e.g. to read what the last sweep said.
sim_log_mark()
{
	wc -l <"$SIM_DIR/osm.log"
}

sim_log_since()
{
	tail -n +"$(($1 + 1))" "$SIM_DIR/osm.log"
}

# sim_write_conf [KEY VALUE]...: write $SIM_DIR/opensm.conf, our defaults
# overridden by the pairs given.  A VALUE of "-" drops the key.
sim_write_conf()
{
	local -A conf
	local key keys

	conf=(
		[event_plugin_name]=ibunion
		[routing_engine]=cyclic,minhop
		[lmc]=0
		[force_log_flush]=TRUE
		[accum_log_file]=FALSE
		[log_flags]=0x03
		[sweep_interval]=0
		[dump_files_dir]=$SIM_DIR
		[partition_config_file]=$SIM_DIR/partitions.conf
		[qos_policy_file]=$SIM_DIR/qos-policy.conf
		[prefix_routes_file]=$SIM_DIR/prefix-routes.conf
		[per_module_logging_file]=$SIM_DIR/per-module-logging.conf
		[torus_config]=$SIM_DIR/torus-2QoS.conf
		[node_name_map_name]=
		[console]=off
		[daemon]=FALSE
	)
	while [ $# -ge 2 ]; do
		conf[$1]=$2
		shift 2
	done
	[ $# -eq 0 ] || { diag "sim_write_conf: odd argument '$1'"; return 1; }
	keys=$(printf '%s\n' "${!conf[@]}" | sort)
	{
		echo "# written by tests/sim.sh for $test_name"
		for key in $keys; do
			[ "${conf[$key]}" = - ] || [ -z "${conf[$key]}" ] && continue
			printf '%s %s\n' "$key" "${conf[$key]}"
		done
	} >"$SIM_DIR/opensm.conf"
}

# sim_start_opensm [OPENSM ARGS...]: start opensm on $SIM_DIR/opensm.conf
# (sim_write_conf first), log in $SIM_DIR/osm.log.  Pass -s 0 for no sweeps
# (already the default in sim_write_conf), -D 0x07 for a verbose log.
sim_start_opensm()
{
	[ -f "$SIM_DIR/opensm.conf" ] || sim_write_conf
	# SIM_OPENSM_WRAP (words, e.g. "valgrind --trace-children=yes ...")
	# runs opensm under a tool; umad2sim is preloaded into opensm only.
	# An empty PLUGIN_DIR leaves LD_LIBRARY_PATH alone: opensm then finds
	# the plugin installed in the system library path (t0800).
	# shellcheck disable=SC2086
	(cd "$SIM_DIR" && export OSM_TMP_DIR=$SIM_DIR OSM_CACHE_DIR=$SIM_DIR &&
		if [ -n "$PLUGIN_DIR" ]; then
			export LD_LIBRARY_PATH=$PLUGIN_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		fi &&
		exec ${SIM_OPENSM_WRAP-} env LD_PRELOAD="$UMAD2SIM" "$OPENSM" \
		-F "$SIM_DIR/opensm.conf" -f "$SIM_DIR/osm.log" \
		-d2 "$@" >opensm.out 2>&1 </dev/null) &
	OPENSM_PID=$!
	SIM_PIDS+=("$OPENSM_PID")
}

sim__subnet_up()
{
	grep -q "SUBNET UP" "$SIM_DIR/osm.log" 2>/dev/null
}

# sim_wait_subnet_up [TIMEOUT]: wait for SUBNET UP in the log; fail fast
# when opensm dies, showing the log tail.
sim_wait_subnet_up()
{
	local rc

	sim_wait_for "SUBNET UP" "${1:-$SIM_TIMEOUT}" "$OPENSM_PID" sim__subnet_up
	rc=$?
	if [ $rc -ne 0 ]; then
		sim__alive "$OPENSM_PID" || diag "opensm is not running"
		diag_file "$SIM_DIR/opensm.out" 10
		diag_file "$SIM_DIR/osm.log" 30
	fi
	return $rc
}

# sim_log_wait ERE [TIMEOUT]: wait for a line matching ERE in osm.log.
sim_log_wait()
{
	sim_wait_for "/$1/ in osm.log" "${2:-$SIM_TIMEOUT}" "$OPENSM_PID" \
		grep -Eq -- "$1" "$SIM_DIR/osm.log"
}

# sim_stop_opensm: end opensm only (ibsim keeps the fabric and its tables),
# e.g. to start it again with another opensm.conf.
sim_stop_opensm()
{
	sim__stop "$OPENSM_PID" opensm
}

# sim_opensm_alive: opensm is still running.
sim_opensm_alive()
{
	sim__alive "$OPENSM_PID"
}

# sim_client CMD [ARGS...]: run a umad client under umad2sim, from a
# throwaway cwd (use absolute paths), bounded by SIM_TIMEOUT.  Set SIM_HOST
# (a node id of the net file) to act as that node.
sim_client()
{
	local dir rc

	sim__clients=$((sim__clients + 1))
	dir=$SIM_DIR/clients/$sim__clients
	mkdir -p "$dir" || return 1
	(cd "$dir" && exec env LD_PRELOAD="$UMAD2SIM" \
		${SIM_HOST:+SIM_HOST="$SIM_HOST"} \
		timeout -k 5 "$SIM_TIMEOUT" "$@")
	rc=$?
	rm -rf "$dir"
	return $rc
}

# sim_dump_lfts FILE / sim_dump_mfts FILE: what the switches hold, as
# dump_lfts / dump_mfts print it.  Client chatter goes to FILE.err.
sim_dump_lfts()
{
	sim__dump dump_lfts "$1"
}

# sim_dump_lfts_whole FILE: sim_dump_lfts; where dump_lfts stopped one LID
# short of a LinearFDBTop that is a multiple of 64 (docs/benchmarks.md:
# that LID and every route to it left out), the tables as ibunion's live
# reader reads them from the switches instead (every entry up to the
# top, the same format). 1 when no tables could be read.
sim_dump_lfts_whole()
{
	local top

	sim_dump_lfts "$1" || return 1
	top=$(sed -n '1s/.*\[0x0-0x\([0-9a-fA-F]*\)\].*/0x\1/p' "$1")
	[ -n "$top" ] && [ $((top)) -ge 64 ] && [ $((top % 64)) = 0 ] || return 0
	rm -rf "$1.live"
	sim_client "$IBUNION" check --live --engine none -q --live-save "$1.live" \
		>/dev/null 2>&1
	[ -s "$1.live/lfts.dump" ] || { diag "live read of the tables failed"; return 1; }
	mv "$1.live/lfts.dump" "$1" && rm -rf "$1.live"
}

sim_dump_mfts()
{
	sim__dump dump_mfts "$1"
}

sim__dump()
{
	if ! sim_client "$1" >"$2" 2>"$2.err"; then
		diag "$1 failed"
		diag_file "$2.err" 10
		return 1
	fi
	if ! grep -q "valid [lm]*ids dumped\|lids dumped" "$2"; then
		diag "$1 printed no table"
		diag_file "$2" 10
		diag_file "$2.err" 10
		return 1
	fi
	return 0
}

# t_fault_step TAG SUMMARY WANT WHAT COMMAND: ibsim's console runs COMMAND
# (a fault or a repair), opensm re-sweeps; 8 assertions: no ERR 5Axx and no
# fallback, the sweep's last log line with SUMMARY (fixed text) matches the
# ERE WANT (assertion WHAT), ibnetdiscover and dump_lfts read the fabric,
# check --updown and check --cyclic pass on ibnetdiscover's view, and
# `ibunion route` on that view equals the switches.  Files: $SIM_DIR/TAG.log
# (the sweep's log), TAG.summary, TAG.ibnd, TAG.lfts, TAG.expected.
t_fault_step()
{
	local tag=$1 ibnd=$SIM_DIR/$1.ibnd live=$SIM_DIR/$1.lfts mark

	mark=$(sim_log_mark)
	t_expect "$tag: ibsim: $5; opensm re-swept" sim_ibsim_cmd "$5"
	sim_resweep
	sim_log_since "$mark" >"$SIM_DIR/$tag.log"
	t_no_grep "$tag: no ERR 5Axx, no fallback" \
		"ERR 5A|minhop tables configured" "$SIM_DIR/$tag.log"
	grep -F "$2" "$SIM_DIR/$tag.log" | tail -n 1 >"$SIM_DIR/$tag.summary"
	diag_file "$SIM_DIR/$tag.summary" 1
	t_grep "$tag: $4" "$3" "$SIM_DIR/$tag.summary"
	t_expect "$tag: ibnetdiscover reads the fabric" sim_client ibnetdiscover "$ibnd"
	t_expect "$tag: dump_lfts reads every switch" sim_dump_lfts "$live"
	t_expect "$tag: check --updown: every pair with an up*/down* path reachable, no loop" \
		"$IBUNION" check --updown "$ibnd" "$live"
	t_expect "$tag: check --cyclic: every entry as the engine routes around the faults" \
		"$IBUNION" check --cyclic -q "$ibnd" "$live"
	t_expect "$tag: the switches hold exactly what route computes" \
		sh -c '"$1" route "$2" --lids-from "$3" -o "$4" && "$1" diff --fabric "$2" "$4" "$3"' \
		sh "$IBUNION" "$ibnd" "$live" "$SIM_DIR/$tag.expected"
}

# t_cyclic_holds NETFILE TAG: after SUBNET UP with routing_engine cyclic,...:
# 6 assertions: OpenSM used the cyclic engine (no fallback, no ERR 5Axx),
# the switches' LFTs (dump_lfts) pass `ibunion check --cyclic`, and equal
# what `ibunion route` computes offline for the same LIDs.  Files:
# $SIM_DIR/TAG.lfts (dump), TAG.expected (route).
t_cyclic_holds()
{
	local net=$1 tag=$2 dump=$SIM_DIR/$2.lfts

	t_grep "$tag: OpenSM configured the cyclic tables" \
		"cyclic tables configured on all switches" "$SIM_DIR/osm.log"
	t_no_grep "$tag: no ERR 5Axx from the plugin, no fallback" \
		"ERR 5A|minhop tables configured" "$SIM_DIR/osm.log"
	t_expect "$tag: dump_lfts reads every switch" sim_dump_lfts "$dump"
	t_expect "$tag: ibunion check --cyclic passes on the dump" \
		"$IBUNION" check "$net" "$dump" --cyclic
	t_expect "$tag: ibunion route computes the tables offline" \
		"$IBUNION" route "$net" --lids-from "$dump" -o "$SIM_DIR/$tag.expected"
	t_expect "$tag: the switches hold exactly what ibunion route computes" \
		"$IBUNION" diff --fabric "$net" "$SIM_DIR/$tag.expected" "$dump"
}

# sim_valgrind_ours LOG: the assertion "no valgrind error in a libibunion
# frame" on valgrind's LOG, with the blocks at fault as diagnostics.  Error
# blocks are separated by "==PID== " lines; a block is ours when a frame is
# in libibunion.so, in an ibu_ function, or in one of our source files (with
# debug info valgrind names file:line, not the .so).
sim_valgrind_ours()
{
	local srcs ours_re ours

	srcs=$(cd "$top_srcdir" && find lib plugin -name '*.c' | sed 's|.*/||; s|\.c$||' |
		grep -vx err | paste -sd '|')
	ours_re="libibunion|[ (]ibu_[a-z0-9_]+ |\\(($srcs)\\.c:[0-9]+\\)"
	sim__vg_blocks() { OURS_RE=$ours_re awk -v print_them="$1" '
		BEGIN { re = ENVIRON["OURS_RE"] }
		/^==[0-9]+== *$/ { if (blk ~ re) { n++; if (print_them) print blk } blk = ""; next }
		{ blk = blk "\n" $0 }
		END { if (blk ~ re) { n++; if (print_them) print blk } if (!print_them) print n + 0 }' "$2"; }
	ours=$(sim__vg_blocks 0 "$1")
	t_equal "no valgrind error in a libibunion frame" "$ours" 0
	if [ "$ours" != 0 ]; then
		sim__vg_blocks 1 "$1" | head -n 80 | while IFS= read -r l; do diag "$l"; done
	fi
	diag "$(grep -E 'ERROR SUMMARY|definitely lost|possibly lost' "$1" | tail -n 3)"
}
