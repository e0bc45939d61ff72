#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# torch.distributed in the guest, unmodified, under mrcize: 4 hosts on 4
# planes (one bridge a plane), Gloo backend, the default TCP rendezvous
# at rank 0's plane 0 address (rank 0 connects to its own store: a local
# connection). Every reduced value is checked exactly (mrc_torch.py).
# Runs: MRC, MRC with plane 0 (the one every address in the job is on)
# killed after step 2, with MRC_TORCH_TCP=1 plain TCP for the record
# first, and with MRC_TORCH_MPTCP=1 MPTCP (bench/mptcpize.c, every host
# announcing its planes 1-3) and MPTCP with plane 0 killed last. TAP.
#   MRC_TORCH_STEPS (default 30), MRC_TORCH_ELEMS (float32s, default 65536)
#   MRC_TORCH_JOB_SECS: seconds after which a job still running fails
#   (default 900)
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"
for lib in systems star; do
	# shellcheck source=/dev/null
	. "$src/bench/lib/$lib.sh"
done

HOSTS=4
PLANES=4
# shellcheck disable=SC2034 # star_build's netem on every port reads them
DELAY=50us QUEUE=1000
STEPS=${MRC_TORCH_STEPS:-30}
ELEMS=${MRC_TORCH_ELEMS:-65536}
MRCIZE=$us/mrcize/mrcize
MPTCPIZE=$us/bench/libmptcpize.so
JOB_SECS=${MRC_TORCH_JOB_SECS:-900}
PY=/usr/bin/python3
MASTER=$(star_addr h0 0)
port=29500
work=$(mktemp -d)

cleanup() {
	topo_cleanup
	rm -rf "$work"
}
trap cleanup EXIT

grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1

# $1: counter: its sum over the hosts
# shellcheck disable=SC2016 # awk's own variables
hosts_stat() {
	local i sum=0 v
	for ((i = 0; i < HOSTS; i++)); do
		v=$(topo_exec "h$i" awk -v n="$1" '$1 == n { print $2 }' /proc/net/mrc_stat)
		sum=$((sum + ${v:-0}))
	done
	echo "$sum"
}

# TCP connections between the hosts (not counting listeners)
tcp_conns() {
	local i
	for ((i = 0; i < HOSTS; i++)); do
		topo_exec "h$i" ss -Htn state established | grep -v '127\.0\.0\.1'
	done
}

# Plane $1 dies: every host's port on its switch goes down.
plane_down() {
	local i
	for ((i = 0; i < HOSTS; i++)); do topo_exec "sw$1" ip link set "h$i" "${2:-down}"; done
}

# $1: name, $2: mrc|tcp|mptcp, $3: plane to kill after step 2 (or "")
# Sets RUN_JSON (rank 0's report).
torch_run() {
	local name=$1 mode=$2 fault=$3 i pids=() rc=0 wrap=() k=0
	port=$((port + 1))
	RUN_JSON=$work/$name.0.out
	case $mode in
	mrc) wrap=("$MRCIZE" run) ;;
	mptcp) wrap=(env LD_PRELOAD="$MPTCPIZE") ;;
	esac
	rm -f "$work"/mark.*
	# A job that hangs (a transport that does not survive the fault) ends
	# as a failure, not as the guest's timeout; SIGABRT makes Python's
	# faulthandler print where each rank waited (in .err, shown below).
	for ((i = HOSTS - 1; i >= 0; i--)); do
		timeout -s ABRT -k 10 "$JOB_SECS" ip netns exec "$(topo_ns "h$i")" \
			env GLOO_SOCKET_IFNAME=pl0 PYTHONFAULTHANDLER=1 "${wrap[@]}" "$PY" \
			"$src/selftests/mrc_torch.py" "$i" "$HOSTS" "$MASTER" "$port" \
			"$STEPS" "$ELEMS" "$work/mark.$i" > "$work/$name.$i.out" \
			2> "$work/$name.$i.err" &
		pids+=($!)
	done
	if [ -n "$fault" ]; then
		while [ ! -e "$work/mark.0" ] && [ "$k" -lt 1200 ]; do
			sleep 0.1
			k=$((k + 1))
		done
		plane_down "$fault"
	fi
	for i in "${pids[@]}"; do wait "$i" || rc=1; done
	[ -z "$fault" ] || plane_down "$fault" up
	echo "# $name: $(cat "$RUN_JSON" 2> /dev/null || echo "no report")"
	if [ "$rc" != 0 ] || ! jq -e '.wrong == 0 and .values_checked > 0' "$RUN_JSON" > /dev/null 2>&1; then
		for ((i = 0; i < HOSTS; i++)); do
			echo "# ---- rank $i"
			grep -v "^Extension modules:" "$work/$name.$i.err" | tail -15 | sed 's/^/#   /'
		done
		return 1
	fi
}

# The job ran over MRC: connections made (the rendezvous, Gloo's mesh),
# rank 0's own store among them, and no TCP connection between hosts.
# $1: name, $2 $3: ConnOpen and ConnLocal sums before
over_mrc() {
	local open local_ tcp
	open=$(($(hosts_stat ConnOpen) - $2))
	local_=$(($(hosts_stat ConnLocal) - $3))
	tcp=$(tcp_conns)
	echo "# $1: ConnOpen +$open, ConnLocal +$local_, TCP connections: $(echo -n "$tcp" | grep -c .)"
	# 3 store clients + 6 pairs of the mesh at least
	[ "$open" -ge 9 ] && [ "$local_" -ge 1 ] && [ -z "$tcp" ]
}

mrc_job() {
	local o0 l0
	o0=$(hosts_stat ConnOpen) l0=$(hosts_stat ConnLocal)
	torch_run "$1" mrc "$2" && over_mrc "$1" "$o0" "$l0"
}

# $1: MPTcpExt counter of /proc/net/netstat: its sum over the hosts
# shellcheck disable=SC2016 # awk's own variables
hosts_mptcp_stat() {
	local i sum=0 v
	for ((i = 0; i < HOSTS; i++)); do
		v=$(topo_exec "h$i" awk -v n="$1" '$1 == "MPTcpExt:" {
			if (!seen++) { split($0, names); next }
			for (f = 2; f <= NF; f++) if (names[f] == n) print $f }' /proc/net/netstat)
		sum=$((sum + ${v:-0}))
	done
	echo "$sum"
}

# MPTCP as bench/lib/systems.sh sets it up: every host announces its
# plane 1-3 addresses (endpoints "signal": the peer opens a subflow to
# each, from its own address on that plane; a "subflow" endpoint would
# reach the peer's plane 0 address, over plane 0), each with a port the
# kernel listens on: Gloo closes a pair's listener once connected, and a
# subflow to a closed port is refused (the mesh would stay on plane 0).
mptcp_setup() {
	local i
	for ((i = 0; i < HOSTS; i++)); do
		topo_exec "h$i" sysctl -qw net.mptcp.enabled=1 || return 1
	done
	[ -e "$MPTCPIZE" ] || { echo "# no $MPTCPIZE (make userspace)"; return 1; }
	star_system_setup mptcp "$HOSTS" "$PLANES" 20000
}

MPTCP_COUNTERS="MPCapableSYNACKRX MPCapableFallbackACK MPCapableFallbackSYNACK MPJoinSynAckRx"
mptcp_counters() {
	local c
	for c in $MPTCP_COUNTERS; do hosts_mptcp_stat "$c"; done
}

# The job ran over MPTCP: connections made MP_CAPABLE, none fell back to
# TCP, and subflows joined them over the other planes. $1: name, $2: the
# counters (mptcp_counters) before.
over_mptcp() {
	local before after capable fallback joins
	read -r -a before <<< "$2"
	read -r -a after <<< "$(mptcp_counters | tr '\n' ' ')"
	capable=$((after[0] - before[0]))
	fallback=$((after[1] - before[1] + after[2] - before[2]))
	joins=$((after[3] - before[3]))
	echo "# $1: MPTCP connections +$capable, fell back to TCP +$fallback, subflows joined +$joins"
	# 3 store clients + 6 pairs of the mesh at least; at least as many
	# joins as give each of the mesh's 6 connections a subflow on every
	# other plane
	[ "$capable" -ge 9 ] && [ "$fallback" = 0 ] &&
		[ "$joins" -ge $((HOSTS * (HOSTS - 1) * (PLANES - 1) / 2)) ]
}

mptcp_job() {
	local before
	before=$(mptcp_counters | tr '\n' ' ')
	torch_run "$1" mptcp "$2" && over_mptcp "$1" "$before"
}

# make bench (BENCH_OUT set): P11's records, step times in ms, each
# against plain TCP's median (limit) when TCP ran. $1: system, $2: metric
# for the median (step or step_fault), $3: rank 0's report. A job that
# failed (no report) is recorded as null: "-" in the table.
TCP_MEDIAN=null
torch_record() {
	local med=null worst=null
	[ -n "${BENCH_OUT:-}" ] || return 0
	# shellcheck source=bench/lib/record.sh
	. "$src/bench/lib/record.sh"
	[ ! -s "$3" ] || med=$(jq .median_step_ms "$3") worst=$(jq .worst_step_ms "$3")
	bench_record P11 "$1" "$2" "$med" ms "$TCP_MEDIAN"
	bench_record P11 "$1" "${2}_worst" "$worst" ms "$TCP_MEDIAN"
}

echo "TAP version 13"
mrc_lib_check "topology: $HOSTS hosts, $PLANES planes" star_build "$HOSTS" "$PLANES" 1000
mrc_lib_check "planes configured on every host" star_system_setup mrc "$HOSTS" "$PLANES"
# Plain TCP only for the record (make bench): each run costs the ranks'
# torch import, a minute or two under TCG.
if [ "${MRC_TORCH_TCP:-0}" != 0 ]; then
	mrc_lib_check "all_reduce over plain TCP ($STEPS steps of $ELEMS floats)" torch_run tcp tcp ""
	TCP_MEDIAN=$(jq .median_step_ms "$work/tcp.0.out" 2> /dev/null || echo null)
	torch_record tcp step "$work/tcp.0.out"
fi
mrc_lib_check "all_reduce under mrcize ($STEPS steps of $ELEMS floats): exact, over MRC" \
	mrc_job mrc ""
torch_record mrc step "$work/mrc.0.out"
mrc_lib_check "all_reduce under mrcize, plane 0 killed after step 2: exact" \
	mrc_job mrc-plane0-dies 0
torch_record mrc step_fault "$work/mrc-plane0-dies.0.out"
# MPTCP for the record (make bench): Debian 12 has no mptcpize, so
# bench/mptcpize.c makes Gloo's and the store's sockets MPTCP ones.
if [ "${MRC_TORCH_MPTCP:-0}" != 0 ]; then
	mrc_lib_check "MPTCP endpoints on every host (planes 1-3 announced)" mptcp_setup
	mrc_lib_check "all_reduce over MPTCP ($STEPS steps of $ELEMS floats): exact" \
		mptcp_job mptcp ""
	torch_record mptcp step "$work/mptcp.0.out"
	mrc_lib_check "all_reduce over MPTCP, plane 0 killed after step 2: exact" \
		mptcp_job mptcp-plane0-dies 0
	torch_record mptcp step_fault "$work/mptcp-plane0-dies.0.out"
fi

topo_cleanup
mrc_lib_check "module unused again after the torch tests" mrc_dp_module_unused
