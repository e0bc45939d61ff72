# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # work, MRCPERF, SECS ... are the caller's
# Many hosts on one switch per plane, for the all-to-all (P7) and incast
# (P8) scenarios (sourced by bench/guest.sh). Hosts h0..h(N-1); plane p
# of host i is pl<p> with 10.(100+p).0.(i+1)/24, joined to the bridge of
# namespace sw<p>. Both directions of every host link are shaped, so a
# host's downlink is a bottleneck of its own, as in a real incast.

star_addr() { echo "10.$((100 + $2)).0.$((${1#h} + 1))"; }

# star_build HOSTS PLANES RATE_MBIT
star_build() {
	local n=$1 planes=$2 rate=$3 p i
	for ((p = 0; p < planes; p++)); do
		topo_new_ns "sw$p" || return 1
		topo_exec "sw$p" ip link add br0 type bridge &&
			topo_exec "sw$p" ip link set br0 up || return 1
	done
	for ((i = 0; i < n; i++)); do
		topo_new_ns "h$i" || return 1
		for ((p = 0; p < planes; p++)); do
			topo_veth "h$i" "sw$p" "pl$p" "h$i" &&
				topo_exec "sw$p" ip link set "h$i" master br0 &&
				topo_exec "h$i" ip addr add "$(star_addr "h$i" "$p")/24" dev "pl$p" &&
				topo_exec "h$i" tc qdisc replace dev "pl$p" root netem \
					rate "${rate}mbit" delay "$DELAY" limit "$QUEUE" &&
				topo_exec "sw$p" tc qdisc replace dev "h$i" root netem \
					rate "${rate}mbit" delay "$DELAY" limit "$QUEUE" || return 1
		done
	done
}

# star_system_setup SYSTEM HOSTS PLANES [PORT]: MRC planes or MPTCP
# endpoints (PORT: bench_mptcp_setup's port base).
star_system_setup() {
	local sys=$1 n=$2 planes=$3 i hosts=()
	for ((i = 0; i < n; i++)); do hosts+=("h$i"); done
	case $sys in
	mrc) bench_mrc_planes "$planes" "${hosts[@]}" ;;
	mptcp) bench_mptcp_setup "$planes" "${hosts[*]}" star_addr "${4:-}" ;;
	esac
}

STAR_SERVERS=()
# mrcperf's --timeout: a client that has handed all its data to the
# kernel then waits for the server's result with no progress of its own
# to see, so a slow kernel needs more (selftests stretch it).
STAR_TIMEOUT_MS=${STAR_TIMEOUT_MS:-20000}

# A server of $1 on host $2 for $3 clients on port $4, report in $5.
star_server() {
	# shellcheck disable=SC2046
	ip netns exec "$(topo_ns "$2")" "$MRCPERF" -s --clients "$3" -p "$4" -J \
		--timeout "$STAR_TIMEOUT_MS" $(bench_transport_opt "$1") > "$5" 2> "$5.err" &
	STAR_SERVERS+=($!)
}

# Once the clients (pids $@) ended, the servers get 5 s to finish; a
# server still waiting for a client that never came is ended.
star_wait() {
	local pid i
	wait "$@"
	for ((i = 0; i < 50; i++)); do
		for pid in "${STAR_SERVERS[@]}"; do
			kill -0 "$pid" 2> /dev/null && break
		done
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	for pid in "${STAR_SERVERS[@]}"; do
		kill "$pid" 2> /dev/null && echo "  star: a server still waited for a client"
	done
	wait "${STAR_SERVERS[@]}" 2> /dev/null
	STAR_SERVERS=()
}

# A client of $1 on host $2 to host $3 port $4, report in $5; more
# mrcperf options after. Retries a refused connect (slow server start).
star_client() {
	local sys=$1 from=$2 to=$3 port=$4 out=$5 i
	shift 5
	for ((i = 0; i < 20; i++)); do
		# shellcheck disable=SC2046
		topo_exec "$from" "$MRCPERF" -c "$(star_addr "$to" 0)" -p "$port" -J \
			--timeout "$STAR_TIMEOUT_MS" $(bench_transport_opt "$sys") "$@" > "$out" 2> "$out.err"
		grep -q refused "$out.err" || return 0
		sleep 0.2
	done
}

# Seconds from the first client's start ($1: a glob of client reports)
# to the last byte a server received ($2: a glob of server reports, each
# with its connections). A sender is done when its data sits in its send
# buffer, so only the receivers can say when a transfer completed.
star_span() {
	local start end
	# shellcheck disable=SC2086 # globs on purpose
	start=$(jq -s 'map(.start_time) | min' $1)
	# shellcheck disable=SC2086
	end=$(jq -s '[.[] | .connections // [.] | .[] | .start_time + .seconds] | max' $2)
	awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }'
}

# P7: every host sends $STAR_BYTES to every other one, all at once.
p7_all_to_all() {
	local n=8 planes=4 rate=$STAR_RATE sys i j port ideal span bytes pids
	bytes=$(numfmt --from=iec "$STAR_BYTES")
	# Each host's uplink and downlink carry (n-1) transfers over its
	# planes, at the payload share of a full TCP frame (1448/1514).
	ideal=$(awk -v b="$bytes" -v n="$n" -v r="$rate" -v p="$planes" \
		'BEGIN { printf "%.3f", (n - 1) * b * 8 / (p * r * 1e6 * 1448 / 1514) }')
	for sys in mptcp mrc; do
		star_build "$n" "$planes" "$rate" && star_system_setup "$sys" "$n" "$planes" || return 1
		port=9500
		for ((i = 0; i < n; i++)); do star_server "$sys" "h$i" $((n - 1)) "$port" "$work/P7-s$i.json"; done
		sleep 1
		pids=()
		for ((i = 0; i < n; i++)); do
			for ((j = 0; j < n; j++)); do
				[ "$i" = "$j" ] && continue
				star_client "$sys" "h$i" "h$j" "$port" "$work/P7-$sys-$i-$j.json" -n "$STAR_BYTES" &
				pids+=($!)
			done
		done
		star_wait "${pids[@]}"
		span=$(star_span "$work/P7-$sys-*.json" "$work/P7-s*.json")
		jq -e -s 'length == 56 and all(.error == null)' "$work"/P7-"$sys"-*.json > /dev/null ||
			{ echo "  P7: $sys: a transfer failed: $(cat "$work"/P7-"$sys"-*.err | sort | uniq -c | head -3)"; span=null; }
		bench_record P7 "$sys" completion "$(bench_num "$span")" s "$ideal"
		topo_cleanup
	done
}

# P8: hosts 1..7 send to host 0 (the incast) while host 1 also sends to
# host 2 (the victim flow, sharing host 1's uplink with an incast flow).
# Max-min fair, the incast flow gets 1/7 of host 0's downlink and the
# victim the rest of host 1's uplink: 6/7 of 4 planes at STAR_RATE
# (payload share 1448/1514 of a full frame).
p8_incast() {
	local n=8 planes=4 rate=$STAR_RATE sys i fair victim pids
	fair=$(awk -v r="$rate" -v p="$planes" 'BEGIN { printf "%.3f", 6 / 7 * p * r * 1448 / 1514 }')
	for sys in mptcp mrc; do
		star_build "$n" "$planes" "$rate" && star_system_setup "$sys" "$n" "$planes" || return 1
		star_server "$sys" h0 $((n - 1)) 9600 "$work/P8-$sys-incast.json"
		star_server "$sys" h2 1 9601 "$work/P8-$sys-victim-s.json"
		sleep 1
		pids=()
		for ((i = 1; i < n; i++)); do
			star_client "$sys" "h$i" h0 9600 "$work/P8-$sys-$i.json" -t "$SECS" &
			pids+=($!)
		done
		star_client "$sys" h1 h2 9601 "$work/P8-$sys-victim.json" -t "$SECS" &
		star_wait "${pids[@]}" $!
		victim=$(jq -r '(.bits_per_second // 0) / 1e6' "$work/P8-$sys-victim-s.json" 2> /dev/null)
		bench_record P8 "$sys" victim "$(bench_num "$victim")" Mbit/s "$fair"
		topo_cleanup
	done
}
