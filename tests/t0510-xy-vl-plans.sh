#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# [Zhou10]'s VL plans through OpenSM (qos TRUE, event_plugin_options
# vl_plan=P): the SL2VL tables the simulated switches hold (smpquery sl2vl,
# every switch, every port) are OpenSM's opensm-sl2vl.dump, follow the plan
# (direction plans: one VL per output port, N/E vs S/W on 2 VLs, E/N/W/S
# on 4; spread: SL mod VLs), and `ibunion check --deadlock --sl2vl` finds
# no credit loop on any VL.  With qos FALSE a configured plan is logged as
# not programmed (WRN 5A40).
. "$(dirname "$0")/sim.sh"
sim_require
sim_setup
plan 26

net=$SIM_DIR/mesh.net
log=$SIM_DIR/osm.log
t_expect "ibunion gen mesh 3 4" "$IBUNION" gen mesh 3 4 --shuffle-ports \
	--shuffle-records --seed 34 -o "$net"
t_expect "ibsim runs the mesh" sim_start_ibsim "$net"

# "GUID in out v0 .. v15" for every switch port pair the switches hold
read_sl2vl()
{
	local lfts=$1 lid guid port ports

	awk '/\(Switch portguid/ { sub(":", "", $6); print $1, $6 }' "$lfts" | sort -u |
	while read -r lid guid; do
		ports=$(sim_client smpquery nodeinfo "$lid" 2>/dev/null |
			sed -n 's/^NumPorts:\.*\([0-9]*\)$/\1/p')
		for ((port = 1; port <= ${ports:-0}; port++)); do
			sim_client smpquery sl2vl "$lid" "$port" 2>/dev/null |
				awk -v g="$guid" -F'|' '/^ports: in/ {
					split($1, a, /[ ,:]+/)
					line = g " " a[3] " " a[5]
					for (i = 2; i <= 17; i++) { v = $i; gsub(/ /, "", v); line = line " " v }
					print line
				}'
		done
	done
}

# the same from opensm-sl2vl.dump (switch records only)
dump_sl2vl()
{
	awk '/^Switch 0x/ { g = $2; sub(",", "", g); next }
	     /^(Channel|Router|Ca|CA|HCA)/ { g = ""; next }
	     g != "" && /^[0-9]+ +[0-9]+ +:/ {
		line = g " " $1 " " $2
		for (i = 4; i <= 19; i++) line = line " " $i
		print line
	     }' "$1"
}

# the held rows of the port pairs OpenSM programmed (it skips uncabled
# ports, which keep the simulator's default), as "compared differing" and
# the compared rows themselves into $3
compare_held()
{
	awk -v out="$3" 'NR == FNR { want[$1 " " $2 " " $3] = $0; next }
	     ($1 " " $2 " " $3) in want {
		n++
		if ($0 != want[$1 " " $2 " " $3]) bad++
		print >out
	     } END { printf "%d compared, %d differ\n", n + 0, bad + 0 }' "$1" "$2"
}

# VLs used per row: every row one VL (direction plans) or SL mod VLs
rows_follow()
{
	local kind=$1 file=$2

	awk -v kind="$kind" '{
		for (i = 4; i <= 19; i++) {
			v = $i; sl = i - 4
			if (kind == "direction" && v != $4) bad++
			if (kind == "spread2" && v != sl % 2) bad++
			if (kind == "spread4" && v != sl % 4) bad++
			seen[v] = 1
		}
	} END {
		n = 0; for (v in seen) n++
		printf "%d %d\n", bad + 0, n
	}' "$file"
}

for spec in 2-direction:direction:2 4-direction:direction:4 2-spread:spread2:2; do
	plan=${spec%%:*} rest=${spec#*:}
	kind=${rest%%:*} vls=${rest#*:}
	sim_write_conf routing_engine xy,minhop lmc 0 qos TRUE log_flags 0x47 \
		event_plugin_options "vl_plan=$plan"
	sim_start_opensm
	t_expect "$plan: SUBNET UP" sim_wait_subnet_up
	t_grep "$plan: xy routes with the plan" "routing engine 'xy' registered.*vl_plan=$plan" "$log"
	t_grep "$plan: xy tables configured" "xy tables configured on all switches" "$log"
	t_expect "$plan: dump_lfts" sim_dump_lfts "$SIM_DIR/$plan.lfts"
	read_sl2vl "$SIM_DIR/$plan.lfts" >"$SIM_DIR/$plan.held"
	dump_sl2vl "$SIM_DIR/opensm-sl2vl.dump" >"$SIM_DIR/$plan.dumped"
	t_equal "$plan: the switches hold exactly OpenSM's SL2VL tables" \
		"$(compare_held "$SIM_DIR/$plan.dumped" "$SIM_DIR/$plan.held" "$SIM_DIR/$plan.rows")" \
		"$(grep -c . "$SIM_DIR/$plan.dumped") compared, 0 differ"
	t_equal "$plan: every table follows the plan ($vls VLs used)" \
		"$(rows_follow "$kind" "$SIM_DIR/$plan.rows")" "0 $vls"
	t_expect "$plan: check --deadlock --sl2vl: no credit loop on any VL" \
		"$IBUNION" check "$net" "$SIM_DIR/$plan.lfts" --deadlock \
		--sl2vl "$SIM_DIR/opensm-sl2vl.dump" --vl-plan "$plan"
	sim_stop_opensm
	mv "$log" "$SIM_DIR/osm-$plan.log"
done

sim_write_conf routing_engine xy,minhop lmc 0 qos FALSE \
	event_plugin_options vl_plan=2-direction
sim_start_opensm
t_expect "qos FALSE: SUBNET UP" sim_wait_subnet_up
t_grep "qos FALSE: the plan is logged as not programmed (WRN 5A40)" \
	"WRN 5A40: xy: vl_plan=2-direction is configured but qos is FALSE" "$log"
t_grep "qos FALSE: xy still routes" "xy tables configured on all switches" "$log"
done_testing
