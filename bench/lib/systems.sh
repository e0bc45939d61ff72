# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The systems under test, each driven by mrcperf so that all of them are
# measured with one stick (sourced by bench/guest.sh; topo.sh's helpers
# and $MRCPERF, $MRCCTL, $work are the caller's).
#
#   mrc    AF_MRC over every plane the hosts share
#   tcp    one TCP connection over plane 0 (or the plane of the address)
#   mptcp  MPTCP with one subflow per plane (the server announces its
#          other plane addresses; the in-kernel path manager opens a
#          subflow to each)
#   udp    raw UDP echo (ping-pong only): the latency floor
#   rxe    Soft-RoCE: not here but in bench/rxe.sh, between two guests
#          (rdma_rxe in 6.1 sends from the initial namespace only)
#
# Every run reads its figures from the receiver's mrcperf -J report.

bench_port=9000
bench_gput=0 bench_cpu=null

# mrcperf's transport option for system $1.
bench_transport_opt() {
	case $1 in
	mrc) echo "" ;;
	tcp) echo "--tcp" ;;
	mptcp) echo "--mptcp" ;;
	udp) echo "--udp" ;;
	*) echo "bench: unknown system $1" >&2; return 1 ;;
	esac
}

# Planes 0..$1-1 of hosts $2.. become MRC planes.
bench_mrc_planes() {
	local n=$1 h p
	shift
	for h in "$@"; do
		for ((p = 0; p < n; p++)); do
			topo_exec "$h" "$MRCCTL" plane add dev "pl$p" id "$p" > /dev/null || return 1
		done
	done
}

# MPTCP between client hosts and server hosts over $1 planes: every
# server host ($2, a space-separated list) announces its plane 1..n-1
# addresses; every host accepts enough subflows. $3: the host address
# function (topo_addr or the star's). $4: a port base: plane p's address
# is announced with port $4+p, where the kernel listens for the subflows
# itself (for programs that close their listener once connected, as
# Gloo does: a subflow otherwise goes to the program's port).
bench_mptcp_setup() {
	local n=$1 servers=$2 addr_fn=${3:-topo_addr} base=${4:-} h p ns port=()
	for ns in $(ip netns list | awk '{ print $1 }' | grep "^$TOPO_PREFIX-"); do
		ip netns exec "$ns" ip mptcp limits set subflow 8 add_addr_accepted 8 2> /dev/null
	done
	for h in $servers; do
		for ((p = 1; p < n; p++)); do
			[ -z "$base" ] || port=(port $((base + p)))
			topo_exec "$h" ip mptcp endpoint add "$($addr_fn "$h" "$p")" \
				dev "pl$p" "${port[@]}" signal || return 1
		done
	done
}

# Guest-wide CPU busy share (0..1) between two samples: the share of the
# CPUs' wall-clock time not spent idle. /proc/stat's idle is exact under
# NOHZ idle (the time in the idle loop, interrupts excluded), but its busy
# fields are tick samples, and Debian's 6.1 has no IRQ_TIME_ACCOUNTING:
# the softirq work an interrupt does on an idle CPU (a veth or netem
# receive path) was counted nowhere, so busy / (busy + idle) made a stack
# that works in softirq look cheaper than one whose processes do the same
# work (P1: MRC's receive path moved into the reader read 1.6x the CPU
# there, and less than before in a perf profile).
bench_cpu_sample() {
	local up
	read -r up _ < /proc/uptime
	awk -v up="$up" '/^cpu / { print up, $5 + $6 }' /proc/stat
}
bench_cpu_busy() {
	local t0 i0 t1 i1
	read -r t0 i0 <<< "$1"
	read -r t1 i1 <<< "$2"
	awk -v t="$t0" -v u="$t1" -v i="$((i1 - i0))" -v n="$(nproc)" \
		-v hz="$(getconf CLK_TCK)" 'BEGIN {
			wall = (u - t) * n * hz
			busy = wall > 0 ? 1 - i / wall : 0
			printf "%.3f", (busy < 0 ? 0 : (busy > 1 ? 1 : busy)) }'
}

# A server of system $1 on host $2 for $3 clients, JSON report in $4;
# more mrcperf options after. Sets bench_spid. Returns once it listens
# (TCP and MPTCP: seen by ss; AF_MRC and UDP: after a pause).
bench_server() {
	local sys=$1 host=$2 clients=$3 out=$4 i count=(-1)
	shift 4
	[ "$clients" = 1 ] || count=(--clients "$clients")
	bench_port=$((bench_port + 1))
	# shellcheck disable=SC2046 # the transport option is one word or none
	ip netns exec "$(topo_ns "$host")" "$MRCPERF" -s "${count[@]}" \
		-p "$bench_port" -J $(bench_transport_opt "$sys") "$@" > "$out" 2> "$out.err" &
	bench_spid=$!
	case $sys in
	tcp | mptcp)
		for ((i = 0; i < 50; i++)); do
			topo_exec "$host" ss -Hltn "sport = :$bench_port" | grep -q . && return 0
			sleep 0.1
		done ;;
	*) sleep 0.5 ;;
	esac
	return 0
}

# A client of system $1 on host $2 to $3 (the server of bench_server);
# more mrcperf options after; JSON report on stdout.
bench_client() {
	local sys=$1 host=$2 dest=$3
	shift 3
	# shellcheck disable=SC2046
	topo_exec "$host" "$MRCPERF" -c "$dest" -p "$bench_port" -J \
		$(bench_transport_opt "$sys") "$@"
}

# Receiver goodput in Mbit/s of an mrcperf -J report $1 (0 when none).
bench_mbps() { jq -r '(.bits_per_second // 0) / 1e6' "$1" 2> /dev/null || echo 0; }

# One stream of system $1 from a to $2 for $3 seconds; the receiver's
# report in $work/$4.json (intervals every 0.1 s). More client options
# after. Sets bench_gput (Mbit/s) and bench_cpu (busy share); call it
# directly, not in $(...), or both are lost.
bench_stream() {
	local sys=$1 dest=$2 secs=$3 name=$4 c0 c1
	shift 4
	bench_server "$sys" b 1 "$work/$name.json" -i 0.1
	c0=$(bench_cpu_sample)
	bench_client "$sys" a "$dest" -t "$secs" "$@" > "$work/$name.client.json" 2> "$work/$name.client.err"
	wait "$bench_spid"
	c1=$(bench_cpu_sample)
	bench_cpu=$(bench_cpu_busy "$c0" "$c1")
	bench_gput=$(bench_mbps "$work/$name.json")
}

# Σ over planes 0..$1-1 of single-plane TCP goodput, every plane at
# once for $2 seconds ($3: report name). Echoes Mbit/s.
bench_tcp_per_plane() {
	local n=$1 secs=$2 name=$3 p pids=() ports=() sum=0
	for ((p = 0; p < n; p++)); do
		bench_server tcp b 1 "$work/$name.p$p.json"
		pids+=("$bench_spid") ports+=("$bench_port")
	done
	for ((p = 0; p < n; p++)); do
		topo_exec a "$MRCPERF" -c "$(topo_addr b "$p")" -p "${ports[p]}" -J --tcp \
			-t "$secs" > /dev/null 2>&1 &
	done
	wait "${pids[@]}"
	wait
	for ((p = 0; p < n; p++)); do
		sum=$(awk -v s="$sum" -v g="$(bench_mbps "$work/$name.p$p.json")" 'BEGIN { print s + g }')
	done
	echo "$sum"
}

# Ping-pong of system $1 from a to $2 for $3 seconds with 64-byte
# messages; report in $work/$4.json.
bench_pingpong() {
	local sys=$1 dest=$2 secs=$3 name=$4
	bench_server "$sys" b 1 "$work/$name.server.json" --pingpong
	bench_client "$sys" a "$dest" --pingpong -l 64 -t "$secs" > "$work/$name.json" \
		2> "$work/$name.err"
	wait "$bench_spid"
}
