#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# NIC offload through the software provider mrc_sim, in the guest: two
# hosts, 4 planes, every plane netdev made an offload device. Checks that
# connections are set up on the devices with their hooks in order, that
# data really goes through the devices (TX and RX hand-off) with the
# counters of mrcctl and mrc_sim agreeing, that every injected hook
# failure, error report and reset falls back to software with the
# transfer intact, and that unbinding the driver mid-transfer loses
# nothing. TAP output.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"

SIM_KO=${MRC_SIM_KO:-$src/drivers/mrc_sim/mrc_sim.ko}
SIM=/sys/kernel/debug/mrc_sim
PLANES=4
PEER=10.100.0.2
port=7300
work=$(mktemp -d)
monitor_pid=""

cleanup() {
	[ -z "$monitor_pid" ] || kill "$monitor_pid" 2> /dev/null
	topo_cleanup
	grep -qw mrc_sim /proc/modules && rmmod mrc_sim
	rm -rf "$work"
}
trap cleanup EXIT

grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

na() { topo_exec a "$@"; }
# nsenter keeps the guest's mounts (ip netns exec remounts /sys, which
# hides debugfs): mrc_sim resolves names in the writer's namespace.
in_ns() { local h=$1; shift; nsenter --net="/run/netns/$(topo_ns "$h")" "$@"; }

# Sim device of host $1 (a|b) on plane $2: a's are 0..3, b's 10..13.
sim_id() { echo $(($([ "$1" = a ] && echo 0 || echo 10) + $2)); }
sim_dir() { echo "$SIM/sim$(sim_id "$1" "$2")"; }
sim_new() { in_ns "$1" sh -c "echo '$(sim_id "$1" "$2") pl$2' > $SIM/new_device"; }
sim_count() { awk -v k="$3" '$1 == k { print $2 }' "$(sim_dir "$1" "$2")/counters"; }
sim_set() { echo "$4" > "$(sim_dir "$1" "$2")/$3"; }

# mrcctl's view of host a's plane $1: `jq` filter $2 on it.
plane_a() { na "$MRCCTL" -j -s plane show id "$1" | jq -r "(if type == \"array\" then .[0] else . end) | $2"; }
stat_a() { plane_a "$1" ".stats.$2 // 0"; }

# A verified server for one client on host b; its report in $work/$1.server.
server() {
	port=$((port + 1))
	# ip netns exec execs: $! is the server, for the kill in server_done.
	ip netns exec "$(topo_ns b)" "$MRCPERF" -s -1 -p "$port" --verify -J \
		--timeout 20000 > "$work/$1.server" &
	srv_pid=$!
}

# The client of server(): $1 bytes, report $work/$2.client. A slow guest
# may not listen yet: a refused connection is tried again.
client() {
	local i rc
	for ((i = 0; i < 30; i++)); do
		topo_exec a "$MRCPERF" -c "$PEER" --wait-server 10000 -p "$port" -n "$1" --verify -J \
			--timeout 20000 > "$work/$2.client" 2> "$work/$2.err"
		rc=$?
		grep -q "refused" "$work/$2.err" || break
		sleep 0.2
	done
	cat "$work/$2.err" >&2
	return "$rc"
}

# Wait for server() after its client returned $1; both reports intact.
server_done() {
	if [ "$1" != 0 ]; then
		kill "$srv_pid" 2> /dev/null
		wait "$srv_pid"
		return 1
	fi
	wait "$srv_pid" && mrc_dp_intact "$work/$2.client" "$work/$2.server"
}

# A verified transfer of $1 bytes from a to b; its reports in $work/$2.*.
transfer() {
	server "$2"
	client "$1" "$2"
	server_done $? "$2"
}

# A verified transfer of $1 bytes in the background ($2: report name).
background() {
	server "$2"
	client "$1" "$2" &
	bg_cpid=$!
}
background_done() {
	local rc=0
	wait "$bg_cpid" || rc=1
	server_done "$rc" "$1"
}

# The offload events the monitor printed so far (JSON lines).
offload_events() { grep '"event":"offload"' "$work/monitor" 2> /dev/null; }

# ---- set-up
setup() {
	local h p
	topo_two_hosts "$PLANES" || return 1
	for h in a b; do
		for ((p = 0; p < PLANES; p++)); do
			topo_exec "$h" "$MRCCTL" plane add dev "pl$p" id "$p" || return 1
		done
	done
	# Not through a shell function: $! must be mrcctl itself, or the
	# kill below misses it and it holds the TAP pipe open.
	nsenter --net="/run/netns/$(topo_ns a)" "$MRCCTL" -j monitor \
		> "$work/monitor" 2>&1 &
	monitor_pid=$!
}
mrc_lib_check "topology: two hosts, $PLANES planes each" setup

no_driver() {
	[ "$(plane_a 0 .offload.mode)" = auto ] &&
		[ "$(plane_a 0 .offload.state)" = none ] || return 1
	# Offload required on a netdev without a driver: refused, said why.
	! na "$MRCCTL" plane set 0 offload on 2> "$work/on.err" &&
		grep -q "no MRC offload driver" "$work/on.err" &&
		echo "# $(cat "$work/on.err")"
}
mrc_lib_check "without a driver: mode auto, state none; 'offload on' refused" no_driver

load_sim() {
	local h p
	insmod "$SIM_KO" || return 1
	for h in a b; do
		for ((p = 0; p < PLANES; p++)); do
			sim_new "$h" "$p" || return 1
		done
	done
	# A name from another namespace does not resolve.
	! in_ns a sh -c "echo '99 nosuchdev' > $SIM/new_device" 2> /dev/null
}
mrc_lib_check "mrc_sim binds to the plane netdevs of both hosts" load_sim

attached() {
	local p
	na "$MRCCTL" plane show | sed 's/^/# /' | head -4
	for ((p = 0; p < PLANES; p++)); do
		plane_a "$p" '.offload | select(.state == "active" and
			.driver == "mrc_sim" and .api_version == 1 and
			(.features | index("tx") and index("rx")) and
			.ev_table_size == 256) | .state' | grep -q active || return 1
		grep -q "rx_steer port=4797 on=1" "$(sim_dir a "$p")/log" || return 1
	done
	offload_events | grep -q '"reason":"offload-attach"\|"reason":"attach"'
}
mrc_lib_check "every plane offloaded: capabilities shown, RX steered, attach event" attached

# ---- traffic through the devices; hooks in order

# Line number of the first line of log $1 matching $2 (999999: none).
first_line() { grep -n -m1 -- "$2" "$1" | cut -d: -f1 | grep . || echo 999999; }

hook_order() {
	local id ev log add prog xmit change del cc rc=0
	for log in "$SIM"/sim*/log; do echo > "$log"; done
	# No head start: a fast guest moves 48 MiB in a few seconds, and the
	# connection must still be there when its EV is denied.
	background 96M order
	id=$(mrc_dp_conn_id "$port")
	# An EV of plane 0 denied mid-transfer: its slot is rewritten.
	ev=$(na "$MRCCTL" -j path show conn "$id" | jq '[.[] | select(.plane == 0)][0].ev')
	[ -n "$id" ] && na "$MRCCTL" path set conn "$id" ev "$ev" state denied || rc=1
	background_done order || rc=1
	[ "$rc" = 0 ] || { echo "# no connection, or the transfer failed"; return 1; }
	sleep 1
	log=$(sim_dir a 0)/log
	cc=$(first_line "$log" "^cc_program")
	add=$(first_line "$log" "^conn_add conn=$id ")
	prog=$(first_line "$log" "^ev_program conn=$id ")
	xmit=$(first_line "$log" "^xmit conn=$id")
	change=$(first_line "$log" "^ev_program conn=$id .* ev=$ev state=3")
	del=$(first_line "$log" "^conn_del conn=$id")
	echo "# sim0 log lines: cc_program $cc, conn_add $add, ev_program $prog, first xmit $xmit, EV $ev denied $change, conn_del $del"
	[ "$cc" -lt "$add" ] && [ "$add" -lt "$prog" ] && [ "$prog" -lt "$xmit" ] &&
		[ "$xmit" -lt "$change" ] && [ "$change" -lt "$del" ] && [ "$del" != 999999 ]
}
mrc_lib_check "hooks in order: cc_program, conn_add, ev_program, xmit, EV change, conn_del" hook_order

counters_match() {
	local p ok=1 mtx stx dtx mrx srx madd sadd
	transfer 16M counters || { echo "# transfer failed"; return 1; }
	sleep 1
	for ((p = 0; p < PLANES; p++)); do
		mtx=$(stat_a "$p" OffloadTxPkts) stx=$(sim_count a "$p" tx_pkts)
		dtx=$(plane_a "$p" '.offload.stats.TxPkts // 0')
		mrx=$(stat_a "$p" OffloadRxPkts) srx=$(sim_count a "$p" rx_pkts)
		madd=$(stat_a "$p" OffloadConns) sadd=$(sim_count a "$p" conn_add)
		echo "# plane $p: tx mrc $mtx sim $stx read-back $dtx; rx mrc $mrx sim $srx; conns mrc $madd sim $sadd"
		[ "$mtx" -gt 0 ] && [ "$mrx" -gt 0 ] && [ "$mtx" = "$stx" ] &&
			[ "$stx" = "$dtx" ] && [ "$mrx" = "$srx" ] && [ "$madd" = "$sadd" ] || ok=0
	done
	# Host b received through its devices too.
	[ "$(sim_count b 0 rx_pkts)" -gt 0 ] || ok=0
	[ "$ok" = 1 ]
}
mrc_lib_check "16 MiB intact through the devices; mrcctl and mrc_sim counters agree" counters_match

# ---- injected failures: each falls back to software, data intact
# Hook $1 fails on host a's plane 1 during a transfer; then it is healed.
inject() {
	local hook=$1 before after rc=0
	before=$(stat_a 1 OffloadErrors)
	sim_set a 1 "fail_$hook" 12
	transfer 8M "fail-$hook" || rc=1
	sim_set a 1 "fail_$hook" 0
	after=$(stat_a 1 OffloadErrors)
	echo "# fail_$hook: OffloadErrors $before -> $after, state $(plane_a 1 .offload.state), ConnFail $(stat_a 1 OffloadConnFail), TxFallback $(stat_a 1 OffloadTxFallback)"
	[ "$rc" = 0 ] && [ "$after" -gt "$before" ] &&
		offload_events | grep -q "\"hook\":\"$hook\"" || return 1
	# A failed device stays unused until it resets.
	if [ "$(plane_a 1 .offload.state)" = failed ]; then
		sim_set a 1 reset 1
		sleep 0.5
	fi
	[ "$(plane_a 1 .offload.state)" = active ]
}
for hook in cc_program conn_add ev_program xmit; do
	mrc_lib_check "fail_$hook: software fallback, counted, event names the hook, data intact" inject "$hook"
done

steer_fails() {
	sim_set a 2 fail_rx_steer 12
	na "$MRCCTL" plane set 2 offload off > /dev/null &&
		na "$MRCCTL" plane set 2 offload auto > /dev/null || return 1
	[ "$(plane_a 2 .offload.state)" = failed ] || return 1
	sim_set a 2 fail_rx_steer 0
	transfer 4M steer || return 1
	sim_set a 2 reset 1
	sleep 0.5
	[ "$(plane_a 2 .offload.state)" = active ] &&
		grep -q "rx_steer port=4797 on=1" "$(sim_dir a 2)/log"
}
mrc_lib_check "fail_rx_steer: plane marked failed, software works, a reset restores it" steer_fails

ev_table_full() {
	local before
	before=$(stat_a 3 OffloadConnFail)
	sim_set a 3 ev_table_size 4
	sim_set a 3 reset 1	# capabilities are read again at a reset
	sleep 0.5
	transfer 4M table || return 1
	sim_set a 3 ev_table_size 256
	sim_set a 3 reset 1
	sleep 0.5
	[ "$(stat_a 3 OffloadConnFail)" -gt "$before" ] &&
		offload_events | grep -q '"hook":"ev_table"'
}
mrc_lib_check "an EV table too small for the connection: software, counted" ev_table_full

stats_caps_fail() {
	local before
	before=$(stat_a 3 OffloadErrors)
	sim_set a 3 fail_stats 5
	# No read-back this time, the rest of the reply as always.
	[ "$(plane_a 3 '.offload.stats // "none"')" = none ] &&
		[ "$(plane_a 3 .offload.state)" = active ] || return 1
	sim_set a 3 fail_stats 0
	[ "$(stat_a 3 OffloadErrors)" -gt "$before" ] || return 1
	# Capabilities unreadable after a reset: failed until the next one.
	sim_set a 3 fail_caps 5
	sim_set a 3 reset 1
	sleep 0.5
	[ "$(plane_a 3 .offload.state)" = failed ] &&
		offload_events | grep -q '"hook":"caps"' || return 1
	sim_set a 3 fail_caps 0
	sim_set a 3 reset 1
	sleep 0.5
	[ "$(plane_a 3 .offload.state)" = active ]
}
mrc_lib_check "fail_stats: no read-back, counted; fail_caps at a reset: failed until the next" stats_caps_fail

mode_off() {
	local before
	na "$MRCCTL" plane set 2 offload off > /dev/null || return 1
	[ "$(plane_a 2 .offload.state)" = none ] || return 1
	before=$(sim_count a 2 tx_pkts)
	transfer 4M off || return 1
	[ "$(sim_count a 2 tx_pkts)" = "$before" ] &&
		[ "$(sim_count a 2 conns)" = 0 ] &&
		na "$MRCCTL" plane set 2 offload auto > /dev/null &&
		[ "$(plane_a 2 .offload.state)" = active ]
}
mrc_lib_check "offload off: the plane's traffic stays in software; auto brings it back" mode_off

# ---- mid-transfer: error report, reset, driver removal
# Wait (up to 10 s) until the background transfer's connection is bound
# to one of host a's devices and the client still runs: a fixed sleep
# let a fast machine finish the transfer before the fault. Any device:
# after mid_error plane 0's is failed until a reset, and binds nothing.
wait_bound() {
	local i p n
	for ((i = 0; i < 50; i++)); do
		n=0
		for ((p = 0; p < PLANES; p++)); do
			n=$((n + $(sim_count a "$p" conns)))
		done
		[ "$n" -gt 0 ] && break
		sleep 0.2
	done
	kill -0 "$bg_cpid" 2> /dev/null ||
		{ echo "# the transfer ended before the fault"; return 1; }
	[ "$i" -lt 50 ] || { echo "# no connection bound to a device"; return 1; }
}

mid_error() {
	local before
	before=$(stat_a 0 OffloadFallbacks)
	background 48M error
	wait_bound || { background_done error; return 1; }
	sim_set a 0 report_error 5
	background_done error || return 1
	echo "# fallbacks on plane 0: $before -> $(stat_a 0 OffloadFallbacks), state $(plane_a 0 .offload.state)"
	[ "$(stat_a 0 OffloadFallbacks)" -gt "$before" ] &&
		[ "$(plane_a 0 .offload.state)" = failed ] &&
		[ "$(sim_count a 0 conns)" = 0 ] &&
		offload_events | grep -q '"reason":"offload-error"\|"reason":"error"'
}
mrc_lib_check "error reported mid-transfer: connections to software, nothing lost" mid_error

mid_reset() {
	background 48M reset
	wait_bound || { background_done reset; return 1; }
	sim_set a 0 reset 1
	sim_set a 1 reset 1
	background_done reset &&
		[ "$(plane_a 0 .offload.state)" = active ] &&
		[ "$(plane_a 1 .offload.state)" = active ]
}
mrc_lib_check "devices reset mid-transfer: nothing lost, offload active again" mid_reset

unbind() {
	local p before=0
	for ((p = 0; p < PLANES; p++)); do
		before=$((before + $(stat_a "$p" OffloadFallbacks)))
	done
	background 64M unbind
	wait_bound || { background_done unbind; return 1; }
	for ((p = 0; p < PLANES; p++)); do
		sim_id a "$p" > "$SIM/del_device" || return 1
	done
	rmmod mrc_sim || return 1	# host b's devices go with the module
	background_done unbind || return 1
	local after=0
	for ((p = 0; p < PLANES; p++)); do
		after=$((after + $(stat_a "$p" OffloadFallbacks)))
		[ "$(plane_a "$p" .offload.state)" = none ] || return 1
	done
	echo "# connections moved to software at unbind: $((after - before))"
	[ "$after" -gt "$before" ] &&
		offload_events | grep -q '"reason":"offload-gone"\|"reason":"gone"'
}
mrc_lib_check "driver unbound and unloaded mid-transfer: every byte arrives" unbind

unused() {
	topo_cleanup
	kill "$monitor_pid" 2> /dev/null
	wait "$monitor_pid" 2> /dev/null
	monitor_pid=""
	mrc_dp_module_unused
}
mrc_lib_check "module unused again after the offload tests" unused
