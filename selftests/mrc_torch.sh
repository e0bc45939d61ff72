#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# torch.distributed in the guest, unmodified, under mrcize: 4 hosts on 4
# planes (one bridge a plane), Gloo backend, the default TCP rendezvous
# at rank 0's plane 0 address (rank 0 connects to its own store: a local
# connection). Every reduced value is checked exactly (mrc_torch.py).
# Runs: MRC, MRC with plane 0 (the one every address in the job is on)
# killed after step 2, and with MRC_TORCH_TCP=1 plain TCP for the
# record first. TAP.
#   MRC_TORCH_STEPS (default 30), MRC_TORCH_ELEMS (float32s, default 65536)
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

# $1: name, $2: mrc|tcp, $3: plane to kill after step 2 (or "")
# Sets RUN_JSON (rank 0's report).
torch_run() {
	local name=$1 mode=$2 fault=$3 i pids=() rc=0 wrap=() k=0
	port=$((port + 1))
	RUN_JSON=$work/$name.0.out
	[ "$mode" = tcp ] || wrap=("$MRCIZE" run)
	rm -f "$work"/mark.*
	for ((i = HOSTS - 1; i >= 0; i--)); do
		topo_exec "h$i" env GLOO_SOCKET_IFNAME=pl0 "${wrap[@]}" "$PY" \
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
			tail -15 "$work/$name.$i.err" | sed 's/^/#   /'
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

# make bench (BENCH_OUT set): P11's records, step times in ms, each
# against plain TCP's median (limit) when TCP ran. $1: system, $2: metric
# for the median (step or step_fault), $3: rank 0's report.
TCP_MEDIAN=null
torch_record() {
	local med worst
	[ -n "${BENCH_OUT:-}" ] && [ -s "$3" ] || return 0
	# shellcheck source=bench/lib/record.sh
	. "$src/bench/lib/record.sh"
	med=$(jq .median_step_ms "$3") worst=$(jq .worst_step_ms "$3")
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

topo_cleanup
mrc_lib_check "module unused again after the torch tests" mrc_dp_module_unused
