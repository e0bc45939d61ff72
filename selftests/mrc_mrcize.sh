#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrcize in the guest: stock Debian programs, unmodified, with their TCP
# sockets carried by AF_MRC over 4 planes; a plane killed mid-run; the
# fallback to plain TCP for a peer port that MRC does not serve. TAP.
#
#   ns a (clients)                           ns b (servers)
#   pl0 10.100.0.1 ------------------------- pl0 10.100.0.2
#   pl1 10.101.0.1 ------------------------- pl1 10.101.0.2
#   pl2 10.102.0.1 ------------------------- pl2 10.102.0.2
#   pl3 10.103.0.1 ------------------------- pl3 10.103.0.2
#
# Proof that traffic went over MRC and not TCP: /proc/net/mrc_stat's
# ConnOpen/ConnAccept and the planes' PlaneTxBytes grow by the transfer,
# and `ss` finds no TCP socket (not even TIME-WAIT) on the port.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"

MRCIZE=$us/mrcize/mrcize
PLANES=4
PEER=10.100.0.2
work=$(mktemp -d)
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	topo_cleanup
	rm -rf "$work"
}
trap cleanup EXIT

grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1


# $1: host, $2: counter name in /proc/net/mrc_stat
# shellcheck disable=SC2016 # awk's own variables
mrc_stat() { topo_exec "$1" awk -v n="$2" '$1 == n { print $2 }' /proc/net/mrc_stat; }
# $1: host: bytes its planes sent
plane_tx_bytes() {
	topo_exec "$1" "$MRCCTL" -j stats show |
		jq '[.planes[] | .stats.PlaneTxBytes // 0] | add // 0'
}
# $1: port: TCP connections in any state (TIME-WAIT too) on it, both
# hosts; not the TCP listener an mrcized server keeps for TCP clients.
tcp_on_port() {
	local h
	for h in a b; do
		topo_exec "$h" ss -Htn state connected "( sport = :$1 or dport = :$1 )"
	done
}

# $1: file, $2: pattern: wait up to 20 s for the pattern to appear
wait_for() {
	local i
	for ((i = 0; i < 100; i++)); do
		grep -q "$2" "$1" 2> /dev/null && return 0
		sleep 0.2
	done
	echo "# no \"$2\" in $1: $(tail -5 "$1" 2> /dev/null | tr '\n' ' ')"
	return 1
}

dump() {
	echo "# ---- $1"
	sed 's/^/# /' "${@:2}" 2> /dev/null | head -40
}

# ---- iperf3: $1 name, $2 port, $3 seconds, $4 extra client options,
# $5.. a fault run in the background one second into the transfer.
# Sets LAST_JSON for the caller.
iperf_run() {
	local name=$1 port=$2 secs=$3 opts=$4 spid cpid fpid="" crc src=0
	local open0 acc0 tx0 open1 acc1 tx1 bytes sent bufs tcp ok=1 sender=a
	shift 4
	[[ " $opts " != *" -R "* ]] || sender=b
	LAST_JSON=$work/iperf-$port.json
	open0=$(mrc_stat a ConnOpen) acc0=$(mrc_stat b ConnAccept) tx0=$(plane_tx_bytes $sender)
	ip netns exec "$(topo_ns b)" "$MRCIZE" run --debug iperf3 -s -1 -p "$port" -J \
		> "$work/server-$port.json" 2> "$work/server-$port.log" &
	spid=$!
	pids+=("$spid")
	wait_for "$work/server-$port.log" "bound on MRC port $port" || ok=0
	# shellcheck disable=SC2086 # $opts is a list of options
	ip netns exec "$(topo_ns a)" "$MRCIZE" run --debug iperf3 -c "$PEER" -p "$port" \
		-t "$secs" -J $opts > "$LAST_JSON" 2> "$work/client-$port.log" &
	cpid=$!
	if [ $# -gt 0 ]; then
		( sleep 1; "$@" ) &
		fpid=$!
	fi
	wait "$cpid"
	crc=$?
	[ -z "$fpid" ] || wait "$fpid"
	[ "$crc" -eq 0 ] || { sleep 2; kill "$spid" 2> /dev/null; }
	wait "$spid" || src=$?
	open1=$(mrc_stat a ConnOpen) acc1=$(mrc_stat b ConnAccept) tx1=$(plane_tx_bytes $sender)
	bytes=$(jq '.end.sum_received.bytes // 0 | floor' "$LAST_JSON" 2> /dev/null)
	sent=$(jq '.end.sum_sent.bytes // 0 | floor' "$LAST_JSON" 2> /dev/null)
	# What the sender wrote but the receiver had not read when the test
	# stopped sits in the two socket buffers, as with TCP.
	bufs=$(jq '.start.sndbuf_actual + .start.rcvbuf_actual' "$LAST_JSON" 2> /dev/null)
	tcp=$(tcp_on_port "$port")
	echo "# $name: client rc=$crc server rc=$src, received ${bytes:-?} of ${sent:-?} bytes; ConnOpen +$((open1 - open0)), ConnAccept +$((acc1 - acc0)), host $sender planes sent $((tx1 - tx0)) bytes"
	[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] || ok=0
	jq -e '.error == null' "$LAST_JSON" "$work/server-$port.json" > /dev/null || ok=0
	[ "${bytes:-0}" -gt 0 ] && [ "$((sent - bytes))" -le "${bufs:-0}" ] || ok=0
	# Control and data connections, both over MRC, and every byte on the planes.
	[ $((open1 - open0)) -ge 2 ] && [ $((acc1 - acc0)) -ge 2 ] || ok=0
	[ $((tx1 - tx0)) -ge "${bytes:-1}" ] || ok=0
	[ -z "$tcp" ] || { echo "# TCP on port $port: $tcp"; ok=0; }
	if [ "$ok" = 1 ]; then
		mrc_lib_ok "$name: $(jq -r '"\(.end.sum_received.bytes) bytes, \(.end.sum_received.bits_per_second / 1e6 | floor) Mbit/s"' "$LAST_JSON")"
	else
		mrc_lib_fail "$name" "see the logs below"
		dump "client json" "$LAST_JSON"
		dump "client log" "$work/client-$port.log"
		dump "server log" "$work/server-$port.log"
		topo_exec a "$MRCCTL" -j conn show | sed 's/^/# /' | head -20
		return 1
	fi
}

# Every one-second interval of $1 (iperf3 -J) moved data: no stall to zero
# when a plane died.
no_stalled_interval() {
	local zero
	zero=$(jq '[.intervals[] | select(.sum.bytes == 0)] | length' "$1")
	echo "# intervals: $(jq -c '[.intervals[].sum.bits_per_second / 1e6 | floor]' "$1") Mbit/s"
	[ "$zero" = 0 ]
}

kill_plane1() { topo_link 1 down; }

echo "TAP version 13"
mrc_lib_check "topology: two hosts, $PLANES planes" topo_two_hosts "$PLANES"
mrc_lib_check "planes configured on both hosts" mrc_dp_planes_up

iperf_run "iperf3 under mrcize, 4 planes" 5201 5 ""
iperf_run "iperf3 under mrcize, plane 1 down mid-run" 5202 8 "" kill_plane1 &&
	mrc_lib_check "iperf3: no interval stalled when plane 1 died" \
		no_stalled_interval "$LAST_JSON"
topo_link 1 up
iperf_run "iperf3 -Z (sendfile) under mrcize" 5203 3 "-Z"
iperf_run "iperf3 -R (server sends) under mrcize" 5204 3 "-R"

# ---- what a TCP program relies on: names, options, non-blocking connect,
# shutdown (selftests/mrc_mrcize_probe.py, python3 under mrcize)
probe() {
	local spid rc=0 py=$src/selftests/mrc_mrcize_probe.py
	ip netns exec "$(topo_ns b)" "$MRCIZE" run python3 "$py" server 7001 \
		> "$work/probe-server.out" 2>&1 &
	spid=$!
	pids+=("$spid")
	wait_for "$work/probe-server.out" listening || return 1
	topo_exec a "$MRCIZE" run python3 "$py" client "$PEER" 7001 \
		> "$work/probe-client.out" 2>&1 || rc=1
	wait "$spid" || rc=1
	grep -hv '^listening$' "$work/probe-server.out" "$work/probe-client.out" | sed 's/^/# /'
	[ "$rc" = 0 ] && [ -z "$(tcp_on_port 7001)" ]
}
mrc_lib_check "socket semantics under mrcize (python3 probe)" probe

# ---- every IPPROTO_TCP and SOL_SOCKET option: TCP's answers, then mrcize's
# $1: port, $2: tag, $3..: the wrapper (nothing for plain TCP)
sockopt_run() {
	local port=$1 tag=$2 spid rc=0 bin=$build/selftests/mrc_sockopt_probe
	local sync=$work/so-$tag.probed
	shift 2
	rm -f "$sync"
	MRC_PROBE_SYNC=$sync ip netns exec "$(topo_ns b)" "$@" "$bin" server "$port" \
		> "$work/so-$tag.server" 2> "$work/so-$tag.server.err" &
	spid=$!
	pids+=("$spid")
	wait_for "$work/so-$tag.server.err" listening || return 1
	MRC_PROBE_SYNC=$sync topo_exec a "$@" "$bin" client "$PEER" "$port" \
		> "$work/so-$tag.client" || rc=1
	wait "$spid" || rc=1
	cat "$work/so-$tag.server" "$work/so-$tag.client" > "$work/so-$tag"
	[ "$rc" = 0 ] || dump "probe $tag" "$work/so-$tag.server.err"
	return "$rc"
}

# Where mrcize answers otherwise by design (mrcize(1) says why), as
# "LEVEL NAME FIELD": FIELD "value" (the int read differs) or "set"/"bad"
# (the writes are refused otherwise).
SOCKOPT_DIFFER="IPPROTO_TCP 2 value
IPPROTO_TCP 10 value
IPPROTO_TCP 19 set
IPPROTO_TCP 19 bad
IPPROTO_TCP 24 value
SOL_SOCKET 7 value
SOL_SOCKET 8 value
SOL_SOCKET 49 value
SOL_SOCKET 56 value"

sockopts() {
	local diff n
	sockopt_run 7101 tcp env || return 1
	sockopt_run 7102 mrc "$MRCIZE" run || return 1
	n=$(wc -l < "$work/so-tcp")
	# shellcheck disable=SC2016 # an awk program
	diff=$(awk -v differ="$SOCKOPT_DIFFER" '
		BEGIN { n = split(differ, d, "\n"); for (i = 1; i <= n; i++) ok[d[i]] = 1 }
		# STATE LEVEL NAME get RC ERRNO LEN VALUE set RC ERRNO [bad RC ERRNO RC ERRNO]
		function part(line, f,   a) {
			split(line, a, " ")
			if (f == "get") return a[5] " " a[6] " " a[7]
			if (f == "value") return a[8]
			if (f == "set") return a[10] " " a[11]
			return a[13] " " a[14] " " a[15] " " a[16]
		}
		FNR == NR { tcp[$1 " " $2 " " $3] = $0; next }
		{
			k = $1 " " $2 " " $3
			if (!(k in tcp)) { print "only under mrcize: " $0; next }
			split("get value set bad", fs, " ")
			for (i = 1; i <= 4; i++) {
				if (ok[$2 " " $3 " " fs[i]]) continue
				if (part(tcp[k], fs[i]) != part($0, fs[i]))
					print k " " fs[i] ": TCP " part(tcp[k], fs[i]) ", mrcize " part($0, fs[i])
			}
			delete tcp[k]
		}
		END { for (k in tcp) print "only under TCP: " tcp[k] }' "$work/so-tcp" "$work/so-mrc")
	echo "# $n (state, option) pairs compared"
	[ -z "$diff" ] || { echo "$diff" | head -60 | sed 's/^/# /'; return 1; }
	[ "$n" -gt 400 ]
}
mrc_lib_check "every TCP and SOL_SOCKET option under mrcize answers as TCP's" sockopts

# ---- redis: server on host b, redis-benchmark and redis-cli on host a
# $1: port, $2..: how to start it (mrcize run or nothing): redis-server on
# host b bound to $REDIS_BIND (default 0.0.0.0), its pid in REDIS_PID.
# ip netns exec and mrcize exec, so the pid is redis-server's own.
redis_start() {
	local port=$1
	shift
	ip netns exec "$(topo_ns b)" "$@" redis-server --port "$port" --bind "${REDIS_BIND:-0.0.0.0}" \
		--protected-mode no --save "" --appendonly no --dir "$work" \
		--daemonize no > "$work/redis-$port.log" 2>&1 &
	REDIS_PID=$!
	pids+=("$REDIS_PID")
	wait_for "$work/redis-$port.log" "Ready to accept connections"
}

redis_stop() { kill "$REDIS_PID" 2> /dev/null; wait "$REDIS_PID" 2> /dev/null; }

# For the record: the same benchmark over plain TCP.
redis_tcp_baseline() {
	local port=6380
	redis_start "$port" || return 1
	echo "# plain TCP: $(topo_exec a redis-benchmark -h "$PEER" -p "$port" -q -n 20000 -t set,get 2>&1 |
		tr '\r' '\n' | grep 'requests per second' | tr '\n' ' ')"
	redis_stop
}

redis() {
	local port=6379 bench open0 open1 tcp
	redis_start "$port" "$MRCIZE" run --debug || return 1
	open0=$(mrc_stat a ConnOpen)
	# Plane 2 dies 2 s into the benchmark's 50 connections and stays dead.
	(sleep 2 && topo_link 2 down) &
	local killer=$!
	bench=$(topo_exec a "$MRCIZE" run redis-benchmark -h "$PEER" -p "$port" \
		-q -n 20000 -t set,get 2> "$work/bench.err" | tr '\r' '\n' |
		grep 'requests per second')
	wait "$killer"
	local dead
	dead=$(topo_exec a cat /sys/class/net/pl2/operstate)
	topo_link 2 up
	open1=$(mrc_stat a ConnOpen)
	echo "# $(echo "$bench" | tr '\n' ' ') (ConnOpen +$((open1 - open0)), plane 2 $dead since 2 s in)"
	[ "$dead" = down ] || return 1
	# shellcheck disable=SC2015 # the block after || is the failure report
	grep -q '^SET: .* requests per second' <<< "$bench" &&
		grep -q '^GET: .* requests per second' <<< "$bench" || {
		dump "redis-benchmark stderr" "$work/bench.err"
		dump "redis log" "$work/redis-$port.log"
		return 1
	}
	! grep -qi error "$work/bench.err" || { dump "redis-benchmark stderr" "$work/bench.err"; return 1; }
	[ $((open1 - open0)) -ge 50 ] || return 1
	[ "$(topo_exec a "$MRCIZE" run redis-cli -h "$PEER" -p "$port" SET mrcize-key "hello over mrc")" = OK ] ||
		return 1
	[ "$(topo_exec a "$MRCIZE" run redis-cli -h "$PEER" -p "$port" GET mrcize-key)" = "hello over mrc" ] ||
		return 1
	redis_stop
	tcp=$(tcp_on_port "$port")
	[ -z "$tcp" ] || { echo "# TCP on port $port: $tcp"; return 1; }
}
mrc_lib_check "redis-server, redis-benchmark (plane 2 killed 2 s in) and redis-cli under mrcize" redis
redis_tcp_baseline

# ---- fallback: plain TCP iperf3 server (no mrcize) on host b
fallback() {
	local port=5301 spid rc tcp
	ip netns exec "$(topo_ns b)" iperf3 -s -1 -p "$port" -J > "$work/plain.json" 2>&1 &
	spid=$!
	pids+=("$spid")
	sleep 1
	# With --no-fallback an MRC client is refused: nobody serves the port on MRC.
	if topo_exec a "$MRCIZE" run --no-fallback iperf3 -c "$PEER" -p "$port" -t 1 > "$work/nofb.out" 2>&1; then
		echo "# with --no-fallback the client got through:"; dump out "$work/nofb.out"
		return 1
	fi
	# By default it falls back.
	topo_exec a "$MRCIZE" run --debug iperf3 -c "$PEER" -p "$port" -t 2 -J \
		> "$work/fb.json" 2> "$work/fb.log"
	rc=$?
	wait "$spid"
	tcp=$(tcp_on_port "$port")
	echo "# fallback client rc=$rc, $(jq -r '"\(.end.sum_received.bytes) bytes, \(.end.sum_received.bits_per_second / 1e6 | floor) Mbit/s"' "$work/fb.json"); TCP sockets on $port: $(echo "$tcp" | wc -l)"
	# shellcheck disable=SC2015 # the block after || is the failure report
	[ "$rc" -eq 0 ] && jq -e '.error == null and .end.sum_received.bytes > 0' "$work/fb.json" > /dev/null &&
		grep -q "plain TCP (fallback" "$work/fb.log" && [ -n "$tcp" ] || {
		dump "fallback log" "$work/fb.log"
		dump "fallback json" "$work/fb.json"
		return 1
	}
}
mrc_lib_check "mrcize run (fallback by default): a TCP-only peer is reached over TCP" fallback

# ---- a host that runs no MRC on the address: refused at once, TCP at once
# Host b stops serving MRC on plane 0 (its MRC socket there closes), so
# its kernel answers a SYN with ICMP port unreachable, as for TCP.
no_mrc_host() {
	local port=5303 out rc t0 ms icmp0 icmp1 spid fbrc fbms ok=1 scale=${MRC_TIME_SCALE:-1}
	topo_exec b "$MRCCTL" plane del 0 || return 1
	icmp0=$(mrc_stat a ConnRefusedIcmp)
	t0=$(date +%s%N)
	out=$(topo_exec a "$MRCPERF" -c "$PEER" -p "$port" -n 1M -J --timeout 10000)
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	icmp1=$(mrc_stat a ConnRefusedIcmp)
	echo "# AF_MRC connect to a host without MRC: exit $rc," \
		"\"$(jq -r .error <<< "$out")\" after $ms ms; ConnRefusedIcmp +$((icmp1 - icmp0))"
	# Refused, not timed out (the SYNs would go on for the 10 s timeout).
	[ "$rc" = 2 ] && jq -e '.error | test("refused")' <<< "$out" > /dev/null || ok=0
	[ "$ms" -lt $((5000 * scale)) ] && [ $((icmp1 - icmp0)) -ge 1 ] || ok=0
	ip netns exec "$(topo_ns b)" iperf3 -s -1 -p "$port" -J > "$work/nomrc.json" 2>&1 &
	spid=$!
	pids+=("$spid")
	sleep 1
	t0=$(date +%s%N)
	topo_exec a "$MRCIZE" run --debug --timeout 10000 iperf3 -c "$PEER" -p "$port" -t 1 -J \
		> "$work/nomrc-fb.json" 2> "$work/nomrc-fb.log"
	fbrc=$?
	fbms=$((($(date +%s%N) - t0) / 1000000))
	wait "$spid"
	topo_exec b "$MRCCTL" plane add dev pl0 id 0 || ok=0
	echo "# mrcize (fallback by default) to it: exit $fbrc after $fbms ms (1 s of transfer;" \
		"an MRC connect that is not refused waits --timeout, 10 s, before TCP)"
	# Each connection fell back because MRC was refused, not after the
	# 10 s of waiting for an answer (3.3 s on a loaded machine, 26 Nov).
	# shellcheck disable=SC2015 # the block after || is the failure report
	[ "$fbrc" = 0 ] && grep -q "plain TCP (fallback" "$work/nomrc-fb.log" &&
		grep -q "plain TCP (fallback: MRC refused)" "$work/nomrc-fb.log" &&
		! grep -q "no MRC answer in time" "$work/nomrc-fb.log" &&
		[ "$fbms" -lt $((10000 * scale)) ] || { ok=0; dump "fallback log" "$work/nomrc-fb.log"; }
	[ "$ok" = 1 ]
}
mrc_lib_check "a host without MRC refuses at once (ICMP); mrcize goes TCP at once" no_mrc_host

# ---- a peer that serves TCP but whose MRC packets are lost (UDP dropped
# as it comes in on its planes): the kernel goes TCP after the timeout
# (MRC_CONNECT_TCP) and the program sees TCP's semantics throughout; a
# non-blocking connect returns at once (the probe checks), as TCP's does
silent_peer() {
	local py=$src/selftests/mrc_mrcize_probe.py spid rc=0 i fb0 fb1 n
	local ms=$((1000 * ${MRC_TIME_SCALE:-1}))
	for i in $(seq 0 $((PLANES - 1))); do
		topo_exec b tc qdisc add dev "pl$i" clsact &&
			topo_exec b tc filter add dev "pl$i" ingress protocol ip \
				u32 match ip protocol 17 0xff action drop || return 1
	done
	ip netns exec "$(topo_ns b)" python3 "$py" server 7002 > "$work/silent-server.out" 2>&1 &
	spid=$!
	pids+=("$spid")
	wait_for "$work/silent-server.out" listening || rc=1
	fb0=$(mrc_stat a ConnectTcp)
	topo_exec a "$MRCIZE" run --debug --timeout "$ms" python3 "$py" client "$PEER" 7002 \
		> "$work/silent-client.out" 2> "$work/silent-client.log" || rc=1
	wait "$spid" || rc=1
	fb1=$(mrc_stat a ConnectTcp)
	for i in $(seq 0 $((PLANES - 1))); do topo_exec b tc qdisc del dev "pl$i" clsact; done
	n=$(grep -c "plain TCP (fallback: no MRC answer in time)" "$work/silent-client.log")
	echo "# client exit $rc; ConnectTcp +$((fb1 - fb0)); $n fallback lines"
	grep -hv '^listening$' "$work/silent-server.out" "$work/silent-client.out" | sed 's/^/# /'
	# The probe's two connections: non-blocking, then blocking.
	# shellcheck disable=SC2015 # the block after || is the failure report
	[ "$rc" = 0 ] && [ $((fb1 - fb0)) = 2 ] && [ "$n" = 2 ] || {
		dump "client log" "$work/silent-client.log"
		return 1
	}
}
mrc_lib_check "a peer that loses MRC's packets: mrcize goes TCP after --timeout, non-blocking stays so" silent_peer

# ---- a dual-stack server (redis's default bind: 0.0.0.0 and :: on one
# port): the first socket keeps the port on MRC, the second stays TCP;
# MRC clients, plain IPv4 and plain IPv6 clients all get answers
dual_stack() {
	local port=6381 acc0 acc1 tcp0 tcp1 ok=1 v6
	v6=fd00:100::2
	REDIS_BIND="* -::*" redis_start "$port" "$MRCIZE" run --debug || {
		dump "redis log" "$work/redis-$port.log"
		return 1
	}
	grep -q "dual-stack: another socket has the port on MRC" "$work/redis-$port.log" || ok=0
	acc0=$(mrc_stat b ConnAccept) tcp0=$(mrc_stat b ListenTcpAccept)
	[ "$(topo_exec a "$MRCIZE" run redis-cli -h "$PEER" -p "$port" PING)" = PONG ] || ok=0
	acc1=$(mrc_stat b ConnAccept)
	[ "$(topo_exec a redis-cli -h "$PEER" -p "$port" PING)" = PONG ] || ok=0
	tcp1=$(mrc_stat b ListenTcpAccept)
	[ "$(topo_exec a redis-cli -h "$v6" -p "$port" PING)" = PONG ] || ok=0
	echo "# mrcized client: ConnAccept +$((acc1 - acc0)); plain IPv4 client:" \
		"ListenTcpAccept +$((tcp1 - tcp0)); plain IPv6 client answered: $ok"
	[ $((acc1 - acc0)) = 1 ] && [ $((tcp1 - tcp0)) = 1 ] || ok=0
	redis_stop
	[ "$ok" = 1 ] || dump "redis log" "$work/redis-$port.log"
	[ "$ok" = 1 ]
}
mrc_lib_check "a dual-stack redis (0.0.0.0 and ::) under mrcize serves MRC, IPv4 and IPv6" dual_stack

# ---- one listener for everyone: an mrcized server takes a plain TCP
# client and an mrcized one on the same port (MRC_LISTEN_TCP)
# $1: name, $2: port, $3: client host, $4: peer address, $5..: the
# client's wrapper (nothing: plain TCP). A 1 s iperf3 run, checked.
iperf_once() {
	local name=$1 port=$2 host=$3 peer=$4 rc
	shift 4
	topo_exec "$host" "$@" iperf3 -c "$peer" -p "$port" -t 1 -J \
		> "$work/once-$name.json" 2> "$work/once-$name.log"
	rc=$?
	echo "# $name: exit $rc, $(jq -r '"\(.end.sum_received.bytes) bytes"' "$work/once-$name.json" 2> /dev/null)"
	# shellcheck disable=SC2015 # the block after || is the failure report
	[ "$rc" = 0 ] && jq -e '.error == null and .end.sum_received.bytes > 0' \
		"$work/once-$name.json" > /dev/null || {
		dump "$name json" "$work/once-$name.json"
		dump "$name log" "$work/once-$name.log"
		return 1
	}
}

everyone() {
	local port=5305 spid ok=1 tcp0 tcp1 acc0 acc1
	ip netns exec "$(topo_ns b)" "$MRCIZE" run --debug iperf3 -s -p "$port" \
		> "$work/everyone.out" 2> "$work/everyone.log" &
	spid=$!
	pids+=("$spid")
	wait_for "$work/everyone.log" "listening for MRC and TCP clients" || return 1
	tcp0=$(mrc_stat b ListenTcpAccept) acc0=$(mrc_stat b ConnAccept)
	iperf_once tcp-client "$port" a "$PEER" env || ok=0
	tcp1=$(mrc_stat b ListenTcpAccept) acc1=$(mrc_stat b ConnAccept)
	echo "# plain TCP client: ListenTcpAccept +$((tcp1 - tcp0)), ConnAccept +$((acc1 - acc0))"
	[ $((tcp1 - tcp0)) = 2 ] && [ $((acc1 - acc0)) = 0 ] || ok=0
	iperf_once mrc-client "$port" a "$PEER" "$MRCIZE" run || ok=0
	tcp0=$(mrc_stat b ListenTcpAccept) acc0=$(mrc_stat b ConnAccept)
	echo "# mrcized client: ListenTcpAccept +$((tcp0 - tcp1)), ConnAccept +$((acc0 - acc1))"
	[ $((tcp0 - tcp1)) = 0 ] && [ $((acc0 - acc1)) = 2 ] || ok=0
	kill "$spid"
	wait "$spid" 2> /dev/null
	grep -q "accepted a TCP client" "$work/everyone.log" || ok=0
	[ "$ok" = 1 ] || dump "server log" "$work/everyone.log"
	[ "$ok" = 1 ]
}
mrc_lib_check "an mrcized server takes plain TCP and MRC clients on one port" everyone

# ---- client and server on one host, as a training job's rank 0 is with
# its own rendezvous store: its plane address over MRC (looped back),
# 127.0.0.1 over TCP to the same listener
same_host() {
	local port=5306 spid ok=1 loc0 loc1 tcp0 tcp1 own
	own=$(topo_addr b 1)
	ip netns exec "$(topo_ns b)" "$MRCIZE" run --debug iperf3 -s -p "$port" \
		> "$work/same.out" 2> "$work/same.log" &
	spid=$!
	pids+=("$spid")
	wait_for "$work/same.log" "listening for MRC and TCP clients" || return 1
	loc0=$(mrc_stat b ConnLocal) tcp0=$(mrc_stat b ListenTcpAccept)
	iperf_once same-plane "$port" b "$own" "$MRCIZE" run || ok=0
	loc1=$(mrc_stat b ConnLocal)
	echo "# to its own plane address $own: ConnLocal +$((loc1 - loc0))"
	[ $((loc1 - loc0)) = 2 ] || ok=0
	iperf_once same-loopback "$port" b 127.0.0.1 "$MRCIZE" run || ok=0
	tcp1=$(mrc_stat b ListenTcpAccept)
	echo "# to 127.0.0.1: ListenTcpAccept +$((tcp1 - tcp0))"
	[ $((tcp1 - tcp0)) = 2 ] || ok=0
	kill "$spid"
	wait "$spid" 2> /dev/null
	[ "$ok" = 1 ] || dump "server log" "$work/same.log"
	[ "$ok" = 1 ]
}
mrc_lib_check "client and server on one host: plane address over MRC, loopback over TCP" same_host

# ---- Python programs (selftests/mrc_mrcize_apps.py): asyncio streams and
# http.server, each with a plane killed while every connection carries
# data. The clients pace themselves (3 MiB a connection at 512 KiB/s, 6 s;
# 256 KiB/s where two programs start at once, as a slow guest can take
# seconds more to start one python than the other), so the fault lands
# mid-transfer however fast the guest is; MRC_TIME_SCALE stretches only
# the time allowed.
PY=/usr/bin/python3
APPS=$src/selftests/mrc_mrcize_apps.py
SCALE=${MRC_TIME_SCALE:-1}
APP_BYTES=$((3 << 20))
APP_RATE=$((512 << 10))

# $1: plane, $2..: PID:MARK of each client. Plane $1 goes down once every
# client touched its mark (it has a quarter of its data); fails unless
# every client still runs then.
kill_plane_at_marks() {
	local plane=$1 i c left=1
	shift
	for ((i = 0; i < 600 * SCALE && left; i++)); do
		left=0
		for c in "$@"; do
			kill -0 "${c%%:*}" 2> /dev/null || { echo "# client ${c%%:*} ended before its mark"; return 1; }
			[ -e "${c#*:}" ] || left=1
		done
		[ "$left" = 0 ] || sleep 0.1
	done
	[ "$left" = 0 ] || { echo "# the clients had no quarter of their data in time"; return 1; }
	topo_link "$plane" down || return 1
	for c in "$@"; do
		kill -0 "${c%%:*}" 2> /dev/null || { echo "# client ${c%%:*} ended before plane $plane died"; return 1; }
	done
	echo "# plane $plane down with every client mid-transfer"
}

# $1: the count wanted, $2: pattern (grep), $3..: debug logs: it occurs
# exactly $1 times in them, and no socket went plain TCP.
logged() {
	local want=$1 pat=$2 n
	shift 2
	n=$(cat "$@" | grep -c "$pat")
	[ "$n" = "$want" ] || { echo "# \"$pat\": $n times in $*, not $want"; return 1; }
	! grep -h "plain TCP" "$@" | sed 's/^/# /' | grep .
}

asyncio_streams() {
	local port=7201 conns=4 bytes=$APP_BYTES rate=$APP_RATE plane=0
	local spid cpid crc src=0 ok=1 open0 acc0 txa0 txb0 open1 acc1 txa1 txb1 tcp
	local mark=$work/asyncio.mark log=$work/asyncio
	open0=$(mrc_stat a ConnOpen) acc0=$(mrc_stat b ConnAccept)
	txa0=$(plane_tx_bytes a) txb0=$(plane_tx_bytes b)
	ip netns exec "$(topo_ns b)" "$MRCIZE" run --debug "$PY" "$APPS" asyncio-server \
		"$PEER" "$port" "$conns" > "$log-server.out" 2> "$log-server.log" &
	spid=$!
	pids+=("$spid")
	wait_for "$log-server.out" listening || return 1
	timeout $((120 * SCALE)) ip netns exec "$(topo_ns a)" "$MRCIZE" run --debug "$PY" \
		"$APPS" asyncio-client "$PEER" "$port" "$conns" "$bytes" "$rate" "$mark" \
		> "$log-client.out" 2> "$log-client.log" &
	cpid=$!
	kill_plane_at_marks "$plane" "$cpid:$mark" || ok=0
	wait "$cpid"
	crc=$?
	topo_link "$plane" up
	[ "$crc" = 0 ] || { sleep 2; kill "$spid" 2> /dev/null; }
	wait "$spid" || src=$?
	open1=$(mrc_stat a ConnOpen) acc1=$(mrc_stat b ConnAccept)
	txa1=$(plane_tx_bytes a) txb1=$(plane_tx_bytes b)
	tcp=$(tcp_on_port "$port")
	echo "# client rc=$crc $(cat "$log-client.out"); server rc=$src $(tail -1 "$log-server.out")"
	echo "# ConnOpen +$((open1 - open0)), ConnAccept +$((acc1 - acc0)), planes sent: host a" \
		"$((txa1 - txa0)), host b $((txb1 - txb0)) bytes"
	[ "$crc" = 0 ] && [ "$src" = 0 ] || ok=0
	# Every connection's echo exact, every byte through the server.
	jq -e ".exact == $conns" "$log-client.out" > /dev/null || ok=0
	tail -1 "$log-server.out" | jq -e ".bytes == $((conns * bytes))" > /dev/null || ok=0
	# Over MRC: each connection an MRC one at both ends, every byte on the
	# planes both ways, no TCP connection on the port.
	[ $((open1 - open0)) = "$conns" ] && [ $((acc1 - acc0)) = "$conns" ] || ok=0
	logged "$conns" "connect\(ed\|ing\) over MRC to port $port" "$log-client.log" || ok=0
	logged "$conns" "accepted over MRC" "$log-server.log" || ok=0
	[ $((txa1 - txa0)) -ge $((conns * bytes)) ] && [ $((txb1 - txb0)) -ge $((conns * bytes)) ] || ok=0
	[ -z "$tcp" ] || { echo "# TCP on port $port: $tcp"; ok=0; }
	[ "$ok" = 1 ] || { dump "client log" "$log-client.log"; dump "server log" "$log-server.log"; }
	[ "$ok" = 1 ]
}
mrc_lib_check "python asyncio streams under mrcize: 4 connections x 3 MiB echoed exactly, plane 0 killed mid-run" \
	asyncio_streams

# http.server on host b serves a file of random bytes; host a fetches it
# twice at once with urllib.request and once with curl, all under mrcize.
# curl writes into a pipe read at the same pace (mrc_mrcize_apps.py sink).
http_fetch() {
	local port=7301 size=$APP_BYTES rate=$((APP_RATE / 2)) plane=3 fetches=2
	local spid gpid cpid grc crc ok=1 acc0 tx0 acc1 tx1 want url tcp curl
	local log=$work/http dir=$work/www
	mkdir -p "$dir" && head -c "$size" /dev/urandom > "$dir/data" || return 1
	want=$(sha256sum < "$dir/data" | cut -d' ' -f1)
	url=http://$PEER:$port/data
	acc0=$(mrc_stat b ConnAccept) tx0=$(plane_tx_bytes b)
	ip netns exec "$(topo_ns b)" "$MRCIZE" run --debug "$PY" -u -m http.server \
		--bind "$PEER" --directory "$dir" "$port" > "$log-server.out" 2> "$log-server.log" &
	spid=$!
	pids+=("$spid")
	wait_for "$log-server.out" "Serving HTTP" || return 1
	timeout $((120 * SCALE)) ip netns exec "$(topo_ns a)" "$MRCIZE" run --debug "$PY" \
		"$APPS" http-get "$url" "$size" "$rate" "$log-get.mark" "$fetches" \
		> "$log-get.out" 2> "$log-get.log" &
	gpid=$!
	(
		set -o pipefail
		timeout $((120 * SCALE)) ip netns exec "$(topo_ns a)" "$MRCIZE" run --debug \
			curl -sS --fail "$url" 2> "$log-curl.log" |
			"$PY" "$APPS" sink "$size" "$rate" "$log-curl.mark" > "$log-curl.out"
	) &
	cpid=$!
	kill_plane_at_marks "$plane" "$gpid:$log-get.mark" "$cpid:$log-curl.mark" || ok=0
	wait "$gpid"
	grc=$?
	wait "$cpid"
	crc=$?
	topo_link "$plane" up
	kill "$spid"
	wait "$spid" 2> /dev/null
	acc1=$(mrc_stat b ConnAccept) tx1=$(plane_tx_bytes b)
	tcp=$(tcp_on_port "$port")
	echo "# urllib rc=$grc, curl rc=$crc; ConnAccept +$((acc1 - acc0)), host b's planes sent $((tx1 - tx0)) bytes"
	sed 's/^/# urllib: /' "$log-get.out"
	curl=$(cat "$log-curl.out")
	echo "# curl:   $curl"
	echo "# file:   $want $size"
	[ "$grc" = 0 ] && [ "$crc" = 0 ] || ok=0
	# Each fetch whole and exact.
	[ "$(grep -c "^$want  fetch-[0-9]* $size\$" "$log-get.out")" = "$fetches" ] || ok=0
	[ "$curl" = "$want  stdin $size" ] || ok=0
	[ "$(grep -c '"GET /data HTTP/1.1" 200' "$log-server.log")" = $((fetches + 1)) ] || ok=0
	# Over MRC, as above.
	[ $((acc1 - acc0)) = $((fetches + 1)) ] || ok=0
	logged $((fetches + 1)) "connect\(ed\|ing\) over MRC to port $port" "$log-get.log" "$log-curl.log" || ok=0
	logged $((fetches + 1)) "accepted over MRC" "$log-server.log" || ok=0
	[ $((tx1 - tx0)) -ge $(((fetches + 1) * size)) ] || ok=0
	[ -z "$tcp" ] || { echo "# TCP on port $port: $tcp"; ok=0; }
	[ "$ok" = 1 ] || { dump "urllib log" "$log-get.log"; dump "curl log" "$log-curl.log"
		dump "server log" "$log-server.log"; }
	[ "$ok" = 1 ]
}
mrc_lib_check "python http.server under mrcize: 3 MiB fetched by urllib (x2) and curl, exact, plane 3 killed mid-fetch" \
	http_fetch

# ---- the usual end
for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
wait 2> /dev/null
pids=()
topo_cleanup
mrc_lib_check "module unused again after the mrcize tests" mrc_dp_module_unused
