# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # work, RATE, SECS ... are the caller's
# The benchmark scenarios P1..P10 (sourced by bench/guest.sh). Each builds
# its topology, runs every system on it, records the figures with their
# limit, and tears the topology down. Planes are shaped with netem to
# RATE Mbit/s each (well under what the guest CPU carries) with DELAY of
# one-way delay per host end; SECS is the length of a timed run.

PEER=10.100.0.2

# The shaping of plane $1 at $2 Mbit/s, more netem options after.
shape() {
	local p=$1 rate=$2
	shift 2
	topo_shape "$p" rate "${rate}mbit" delay "$DELAY" limit "$QUEUE" "$@"
}

# Two hosts, 4 planes at RATE (plane 3 at $1 when given), MRC planes on both.
four_planes() {
	local last=${1:-$RATE} p
	topo_two_hosts 4 || return 1
	for ((p = 0; p < 3; p++)); do shape "$p" "$RATE" || return 1; done
	shape 3 "$last" && bench_mrc_planes 4 a b && bench_mptcp_setup 4 b
}

# The goodput of system $2 in scenario $1 recorded against limit $3.
goodput_run() {
	local scen=$1 sys=$2 limit=$3
	shift 3
	bench_stream "$sys" "$PEER" "$SECS" "$scen-$sys" "$@"
	bench_record "$scen" "$sys" goodput "$(bench_num "$bench_gput")" Mbit/s "$limit" "$bench_cpu"
}

# Four equal planes at RATE, as scenario $1 (default P1).
p1_goodput() {
	local scen=${1:-P1} limit sys
	four_planes || return 1
	limit=$(bench_tcp_per_plane 4 "$SECS" "$scen-limit")
	echo "$limit" > "$work/$scen.limit"
	for sys in tcp mptcp mrc; do goodput_run "$scen" "$sys" "$limit"; done
}

# P1 at RATE_HIGH a plane (100 Mbit/s): what the systems carry once the
# planes are no longer far below what the guest's CPU can move; P1 stays
# at RATE for comparison with earlier runs.
p1h_goodput() {
	local RATE=$RATE_HIGH
	p1_goodput P1h
}

# Receiver goodput (Mbit/s) in report $1 from wall-clock time $2 on,
# whole 0.1 s intervals only.
goodput_after() {
	jq -r --argjson t "$2" '.start_time as $st
		| [.intervals[] | select($st + .start >= $t and .end - .start > 0.099)]
		| if length == 0 then 0 else
		  ((map(.bytes) | add) * 8 / (map(.end - .start) | add) / 1e6) end' "$1"
}

# Packets host b received on all its planes so far.
rx_packets_b() { topo_exec b sh -c 'cat /sys/class/net/pl*/statistics/rx_packets' | awk '{ s += $1 } END { print s }'; }

# Once data flows (b received 500 packets more than at $1), $SECS/3 on,
# the fault command $3 runs; its wall-clock time goes to file $2. A slow
# handshake (SYN retried) must not move the fault to before the data.
fault_after_start() {
	local base=$1 file=$2 i
	shift 2
	for ((i = 0; i < 200; i++)); do
		[ "$(rx_packets_b)" -gt $((base + 500)) ] && break
		sleep 0.05
	done
	sleep "$(awk -v s="$SECS" 'BEGIN { print s / 3 }')"
	date +%s.%N > "$file"
	"$@"
}

# The fault $4 a third into a $SECS run of system $2 in scenario $1.
# Records the receiver's longest stall and its goodput from 1 s after
# the fault on, against limit $3; keeps the time series for the plot.
failover_run() {
	local scen=$1 sys=$2 limit=$3 fault=$4 t g stall
	fault_after_start "$(rx_packets_b)" "$work/$scen-$sys.fault" "$fault" &
	bench_stream "$sys" "$PEER" "$SECS" "$scen-$sys"
	wait
	t=$(cat "$work/$scen-$sys.fault")
	g=$(goodput_after "$work/$scen-$sys.json" "$(awk -v t="$t" 'BEGIN { printf "%.6f", t + 1 }')")
	stall=$(jq -r '.longest_gap_ms // empty' "$work/$scen-$sys.json")
	bench_record "$scen" "$sys" stall "$(bench_num "$stall")" ms null "$bench_cpu"
	bench_record "$scen" "$sys" goodput_after "$(bench_num "$g")" Mbit/s "$limit" "$bench_cpu"
	jq -c --argjson t "$t" '{fault: $t, start_time, intervals}' \
		"$work/$scen-$sys.json" > "$BENCH_OUT/series-$scen-$sys.json"
}

blackhole_plane0() { topo_shape 0 loss 100%; }

p2_plane_failure() {
	local remaining sys
	four_planes || return 1
	# The three planes left: their share of P1's measured capacity.
	remaining=$(bench_tcp_per_plane 3 "$SECS" P2-limit)
	for sys in mptcp mrc; do
		failover_run P2 "$sys" "$remaining" blackhole_plane0
		topo_cleanup
		four_planes || return 1
	done
}

spine_dies() { topo_spine_link 0 0 0 down; }

p3_spine_failure() {
	local p limit sys
	for sys in mptcp mrc; do
		topo_fabric 4 || return 1
		for ((p = 0; p < 4; p++)); do shape "$p" "$RATE" || return 1; done
		bench_mrc_planes 4 a b && bench_mptcp_setup 4 b || return 1
		# A spine link is one of two: each plane keeps its host link's rate.
		[ -n "${limit:-}" ] || limit=$(bench_tcp_per_plane 4 "$SECS" P3-limit)
		failover_run P3 "$sys" "$limit" spine_dies
		topo_cleanup
	done
}

p4_loss() {
	local p sys clean
	four_planes || return 1
	for ((p = 0; p < 4; p++)); do DELAY=500us shape "$p" "$RATE"; done
	for sys in tcp mptcp mrc; do
		bench_stream "$sys" "$PEER" "$SECS" "P4-$sys-clean"
		clean=$bench_gput
		for ((p = 0; p < 4; p++)); do DELAY=500us shape "$p" "$RATE" loss 1%; done
		goodput_run P4 "$sys" "$(bench_num "$clean")"
		for ((p = 0; p < 4; p++)); do DELAY=500us shape "$p" "$RATE"; done
	done
}

p5_uneven() {
	local limit sys
	four_planes "$(awk -v r="$RATE" 'BEGIN { print r / 4 }')" || return 1
	limit=$(bench_tcp_per_plane 4 "$SECS" P5-limit)
	for sys in mptcp mrc; do goodput_run P5 "$sys" "$limit"; done
}

p6_latency() {
	local sys m udp
	four_planes || return 1
	for sys in udp tcp mptcp mrc; do
		bench_pingpong "$sys" "$PEER" "$SECS" "P6-$sys"
	done
	for m in p50 p99 p999; do
		udp=$(jq -r ".latency_us.$m // empty" "$work/P6-udp.json")
		for sys in udp tcp mptcp mrc; do
			bench_record P6 "$sys" "$m" \
				"$(bench_num "$(jq -r ".latency_us.$m // empty" "$work/P6-$sys.json")")" \
				us "$(bench_num "$udp")"
		done
	done
}

# P10b: four unshaped planes. The limit is one TCP stream on plane 0;
# MPTCP and MRC may use all four (issue 24: above both is the goal).
p10b_unshaped4() {
	local tcp
	topo_two_hosts 4 && bench_mrc_planes 4 a b && bench_mptcp_setup 4 b || return 1
	bench_stream tcp "$PEER" "$SECS" P10b-tcp
	tcp=$bench_gput
	bench_record P10b tcp goodput "$(bench_num "$tcp")" Mbit/s "$(bench_num "$tcp")" "$bench_cpu"
	goodput_run P10b mptcp "$(bench_num "$tcp")"
	goodput_run P10b mrc "$(bench_num "$tcp")"
}

# P10 and P10j: one unshaped plane, scenario $1; with $2, the plane's
# MTU on both hosts (P10j: 9000-byte frames, as AI fabrics run them; MRC's
# segments follow the MTU, 8924 payload bytes, while TCP's GSO already
# sent 64 KiB a time at 1500, so what is left is the cost per packet).
p10_one_plane() {
	local scen=$1 mtu=${2:-} tcp h
	topo_two_hosts 1 || return 1
	if [ -n "$mtu" ]; then
		for h in a b; do topo_exec "$h" ip link set pl0 mtu "$mtu" || return 1; done
	fi
	bench_mrc_planes 1 a b || return 1
	bench_stream tcp "$PEER" "$SECS" "$scen-tcp"
	tcp=$bench_gput
	bench_record "$scen" tcp goodput "$(bench_num "$tcp")" Mbit/s "$(bench_num "$tcp")" "$bench_cpu"
	goodput_run "$scen" mrc "$(bench_num "$tcp")"
}
p10_unshaped() { p10_one_plane P10; }
p10j_jumbo() { p10_one_plane P10j 9000; }

# kB of slab and of free memory in the guest.
mem_sample() { awk '/^Slab:/ { s = $2 } /^MemFree:/ { f = $2 } END { print s, f }' /proc/meminfo; }

# Where the slab bytes went since slabinfo $1 was taken, per connection
# end of $2 connections (both ends here): the caches that grew most.
slab_breakdown() {
	awk -v n="$2" 'FNR == NR { if (FNR > 2) b[$1] = $3 * $4; next }
		FNR > 2 { d = $3 * $4 - b[$1]; if (d > 0) printf "%8.0f %s (%d B objects)\n", d / (2 * n), $1, $4 }' \
		"$1" /proc/slabinfo | sort -rn | head -15
}

# $2 idle connections of system $1 (mrc|tcp) with $3 EVs each (0: the
# default) between a and b. Echoes "slab-bytes free-bytes seconds": per
# connection end (both ends live in this guest: the delta over 2N), and
# how long opening them took.
idle_conns() {
	local sys=$1 n=$2 evs=$3 opt=() s0 f0 s1 f1 spid holder fifo=$work/hold t0 t1
	[ "$sys" = tcp ] && opt=(--tcp)
	bench_port=$((bench_port + 1))
	# The slabs an earlier run emptied go first, or this run reuses their
	# objects unseen and undercounts.
	for f in /sys/kernel/slab/*/shrink; do echo 1 > "$f"; done 2> /dev/null
	read -r s0 f0 <<< "$(mem_sample)"
	cat /proc/slabinfo > "$work/slab0"
	# ip netns exec execs: $! is the server itself, for the kill below.
	ip netns exec "$(topo_ns b)" "$CONNS" -s "$bench_port" "${opt[@]}" > /dev/null &
	spid=$!
	sleep 0.5
	rm -f "$fifo" && mkfifo "$fifo"
	ip netns exec "$(topo_ns a)" "$CONNS" -c "$PEER" "$bench_port" "$n" --evs "$evs" "${opt[@]}" \
		< "$fifo" > "$work/conns.out" &
	holder=$!
	exec 7> "$fifo"
	t0=$(date +%s.%N)
	for ((i = 0; i < 2400; i++)); do
		grep -q ready "$work/conns.out" && break
		kill -0 "$holder" 2> /dev/null || break
		sleep 0.25
	done
	t1=$(date +%s.%N)
	sleep 2
	read -r s1 f1 <<< "$(mem_sample)"
	slab_breakdown "$work/slab0" "$n" > "$BENCH_OUT/p9-slabs-$sys-${evs}ev.txt"
	grep -q ready "$work/conns.out" || { echo "  P9: $sys: $(cat "$work/conns.out")" >&2; s1=""; }
	exec 7>&-
	wait "$holder"
	kill "$spid" 2> /dev/null
	wait "$spid" 2> /dev/null
	[ -n "$s1" ] || return 1
	awk -v n="$n" -v ds="$((s1 - s0))" -v df="$((f0 - f1))" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.0f %.0f %.1f\n", ds * 1024 / (2 * n), df * 1024 / (2 * n), t1 - t0 }'
}

p9_scale() {
	local tcp_slab tcp_total slab total setup_s
	topo_two_hosts 1 && bench_mrc_planes 1 a b || return 1
	# TCP's connections to one address and port get one ephemeral port
	# each (28,232): its bytes per connection do not depend on how many.
	read -r tcp_slab tcp_total _ <<< "$(idle_conns tcp "$((CONNS_N < 20000 ? CONNS_N : 20000))" 0)"
	bench_record P9 tcp bytes_per_conn "$(bench_num "$tcp_slab")" B "$(bench_num "$tcp_slab")"
	bench_record P9 tcp bytes_per_conn_all "$(bench_num "$tcp_total")" B "$(bench_num "$tcp_total")"
	sleep 2
	read -r slab total setup_s <<< "$(idle_conns mrc "$CONNS_N" 0)"
	bench_record P9 mrc bytes_per_conn "$(bench_num "$slab")" B "$(bench_num "$tcp_slab")"
	bench_record P9 mrc bytes_per_conn_all "$(bench_num "$total")" B "$(bench_num "$tcp_total")"
	bench_record P9 mrc conns "$CONNS_N" count
	bench_record P9 mrc setup_time "$(bench_num "$setup_s")" s
	sleep 2
	# 256 EVs, the most a connection may have: each one is state.
	read -r slab total _ <<< "$(idle_conns mrc "$((CONNS_N / 10))" 256)"
	bench_record P9 mrc bytes_per_conn_256ev "$(bench_num "$slab")" B "$(bench_num "$tcp_slab")"
}
