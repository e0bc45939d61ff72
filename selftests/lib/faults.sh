# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The fault matrix's building blocks (sourced after selftests/lib/guest.sh):
# a batch of verified transfers that runs while one fault is injected, the
# faults themselves, and the running totals the matrix and the soak print.
# Topology: topo_two_hosts with PLANES planes (plane p is pl<p> on hosts a
# and b); the caller sets PLANES, PEER, FAULT_WORK (a scratch directory),
# FAULT_CONNS (stream connections per batch) and FAULT_BYTES (per stream
# connection; a SOCK_SEQPACKET pair of a quarter of that runs alongside).

# shellcheck disable=SC2153 # FAULT_WORK, PLANES, PEER are the caller's
FAULT_PORT=${FAULT_PORT:-7000}
FAULT_TRANSFERS=0 FAULT_VERIFIED=0 FAULT_INJECTED=0 FAULT_FAILED=0

# Both hosts' planes, same id on both sides.
fault_plane_add() {
	local h
	for h in a b; do
		topo_exec "$h" "$MRCCTL" plane add dev "pl$1" id "$1" || return 1
	done
}

fault_planes_up() {
	local p
	for ((p = 0; p < PLANES; p++)); do fault_plane_add "$p" || return 1; done
}

# ---- faults: each runs in the background while a batch transfers, and
# leaves the fabric as it found it when it returns.

fault_none() { :; }

# IP packets both hosts received so far: each crossed the far end's qdisc.
# shellcheck disable=SC2016 # an awk program
fault_ip_in() {
	local h n=0
	for h in a b; do
		n=$((n + $(topo_exec "$h" awk '$1 == "Ip:" && $2 ~ /^[0-9]+$/ { print $4 }' \
			/proc/net/snmp)))
	done
	echo "$n"
}

# Whether a transfer of the batch still runs (fault_batch's FAULT_PIDS,
# which a fault run in the background inherits).
fault_transfers_running() {
	local pid
	for pid in "${FAULT_PIDS[@]}"; do kill -0 "$pid" 2> /dev/null && return 0; done
	return 1
}

# Keep the planes' impairments FAULT_HOLD seconds (default 3), and past
# that, while a transfer runs, until 1,000 packets have crossed them (60 s
# at most). Under a debug kernel the programs start and tc applies each
# plane's qdisc so slowly that 3 s could pass before any transfer sent a
# packet: make check-debug of 0343fc7 saw 0 corrupted packets in the
# batches that corrupt 2%, where a 4M transfer under the same netem gives
# 41 UDP checksum errors.
fault_hold() {
	local start k=0
	start=$(fault_ip_in)
	sleep "${FAULT_HOLD:-3}"
	while [ "$k" -lt 120 ] && fault_transfers_running &&
		[ $(($(fault_ip_in) - start)) -lt 1000 ]; do
		sleep 0.5
		k=$((k + 1))
	done
}

# netem on every plane (both directions) for the batch: $@ netem options.
fault_netem_all() {
	local p
	for ((p = 0; p < PLANES; p++)); do topo_shape "$p" "$@" || return 1; done
	fault_hold
	for ((p = 0; p < PLANES; p++)); do topo_unshape "$p"; done
}

# A different impairment on each plane at once.
fault_netem_mixed() {
	topo_shape 0 loss 3% &&
	topo_shape 1 duplicate 5% &&
	topo_shape 2 delay 2ms reorder 25% 50% &&
	topo_shape 3 corrupt 2% || return 1
	fault_hold
	local p
	for ((p = 0; p < 4; p++)); do topo_unshape "$p"; done
}

fault_plane_flap() {
	topo_flap 2 200 10 > /dev/null
	wait "$TOPO_FLAP_PID" 2> /dev/null
	TOPO_FLAP_PID=""
	topo_link 2 up
}

# dp.sh's plane helpers take plane links from dp_link.
dp_link() { topo_link "$@"; }
fault_all_planes_blink() { mrc_dp_all_planes_blink; }

# Plane 1 of host b shrinks its MTU below MRC's packet size: a silent
# black hole for data one way while small packets (SACKs, probes) pass.
fault_mtu_drop() {
	sleep 1
	topo_exec b ip link set pl1 mtu 1280 || return 1
	sleep 2
	topo_exec b ip link set pl1 mtu 1500
}

# Plane 3's veth pair is deleted mid-transfer (both planes go with their
# netdevs), then made again and added back.
fault_netdev_gone() {
	sleep 1
	topo_exec a ip link del pl3 || return 1
	sleep 2
	topo_plane_link 3 && fault_plane_add 3
}

# Plane settings change under traffic: weight, admin state, MTU, and a
# plane removed and added back by the control plane.
fault_plane_settings() {
	local h
	sleep 0.5
	for h in a b; do
		topo_exec "$h" "$MRCCTL" plane set 1 weight 10 &&
		topo_exec "$h" "$MRCCTL" plane set 2 state down &&
		topo_exec "$h" "$MRCCTL" plane set 0 mtu 1280 || return 1
	done
	sleep 1
	for h in a b; do
		topo_exec "$h" "$MRCCTL" plane set 2 state up &&
		topo_exec "$h" "$MRCCTL" plane set 1 weight 100 &&
		topo_exec "$h" "$MRCCTL" plane set 0 mtu auto &&
		topo_exec "$h" "$MRCCTL" plane del 3 || return 1
	done
	sleep 1
	fault_plane_add 3
}

# EV and CC profiles are added, changed, taken offline and deleted on both
# hosts while connections run (they copied theirs at connect).
fault_profile_cycle() {
	local m=(topo_exec "$1" "$MRCCTL")
	"${m[@]}" ev-profile add id 7 mode generated count 64 min-active 8 \
		events none state online &&
	"${m[@]}" cc-profile add id 7 algorithm nscc max-cwnd 262144 state online &&
	"${m[@]}" ev-profile set 7 state offline &&
	"${m[@]}" ev-profile set 7 count 32 min-active 4 &&
	"${m[@]}" ev-profile set 7 state online &&
	"${m[@]}" cc-profile set 7 state offline &&
	"${m[@]}" cc-profile set 7 max-cwnd 131072 &&
	"${m[@]}" ev-profile set 7 state offline &&
	"${m[@]}" ev-profile del 7 &&
	"${m[@]}" cc-profile del 7
}

fault_profiles() {
	local h i
	for ((i = 0; i < 5; i++)); do
		for h in a b; do fault_profile_cycle "$h" > /dev/null || return 1; done
		sleep 0.2
	done
}

# ---- batches

# Every report in $@ shows all bytes intact: no error, no mismatch.
fault_reports_intact() {
	local json
	for json in "$@"; do
		jq -e '.error == null and .mismatches == 0 and .bad_messages == 0' \
			"$json" > /dev/null || return 1
	done
}

# One transfer pair: server on b, client on a. $1 tag, $2 connections,
# $3 bytes each, $4.. extra mrcperf options (both sides). Their pids go
# to FAULT_PIDS.
fault_pair_start() {
	local tag=$1 conns=$2 bytes=$3
	shift 3
	FAULT_PORT=$((FAULT_PORT + 1))
	timeout 300 ip netns exec "$(topo_ns b)" "$MRCPERF" -s --clients "$conns" \
		-p "$FAULT_PORT" --verify -J "$@" > "$FAULT_WORK/$tag.s.json" &
	FAULT_PIDS+=($!)
	sleep 0.3
	timeout 300 ip netns exec "$(topo_ns a)" "$MRCPERF" -c "$PEER" \
		-p "$FAULT_PORT" -P "$conns" -n "$bytes" --verify -J --wait-server 10000 "$@" \
		> "$FAULT_WORK/$tag.c.json" &
	FAULT_PIDS+=($!)
}

# The pair $1 (tag) with $2 connections of $3 bytes delivered everything.
fault_pair_check() {
	local tag=$1 want=$(($2 * $3)) c=$FAULT_WORK/$1.c.json s=$FAULT_WORK/$1.s.json
	fault_reports_intact "$c" "$s" &&
		[ "$(jq .bytes "$c")" = "$want" ] && [ "$(jq .bytes "$s")" = "$want" ]
}

# $1: name, $2..: fault command. Runs FAULT_CONNS verified stream
# connections and 2 SOCK_SEQPACKET ones while the fault runs; TAP result.
fault_batch() {
	local name=$1 rc=0 pid fpid bytes seq_bytes t0=$SECONDS
	shift
	bytes=$(numfmt --from=iec "$FAULT_BYTES")
	seq_bytes=$((bytes / 4 / 4096 * 4096))
	FAULT_PIDS=()
	fault_pair_start stream "$FAULT_CONNS" "$bytes"
	fault_pair_start seq 2 "$seq_bytes" --seqpacket
	"$@" &
	fpid=$!
	for pid in "${FAULT_PIDS[@]}"; do wait "$pid" || rc=1; done
	wait "$fpid" || { echo "# $name: the fault itself failed"; rc=1; }
	FAULT_INJECTED=$((FAULT_INJECTED + 1))
	FAULT_TRANSFERS=$((FAULT_TRANSFERS + FAULT_CONNS + 2))
	if [ "$rc" = 0 ] && fault_pair_check stream "$FAULT_CONNS" "$bytes" &&
	   fault_pair_check seq 2 "$seq_bytes"; then
		FAULT_VERIFIED=$((FAULT_VERIFIED + FAULT_CONNS * bytes + 2 * seq_bytes))
		mrc_lib_ok "$name: $((FAULT_CONNS + 2)) transfers intact, $(jq -r \
			'"\(.bits_per_second / 1e6 | floor) Mbit/s, longest gap \(.longest_gap_ms) ms"' \
			"$FAULT_WORK/stream.s.json"), $((SECONDS - t0)) s"
	else
		FAULT_FAILED=$((FAULT_FAILED + 1))
		mrc_lib_fail "$name" "$(cat "$FAULT_WORK"/*.json | jq -c \
			'{role, bytes, mismatches, bad_messages, error}' 2> /dev/null |
			tr '\n' ' ' | cut -c1-800)"
		fault_counters
	fi
	rm -f "$FAULT_WORK"/*.json
}

# The non-zero per-netns counters of both hosts, as TAP comments: what a
# failed batch's connections saw.
# shellcheck disable=SC2016 # an awk program
fault_counters() {
	local h
	for h in a b; do
		echo "# host $h: $(topo_exec "$h" awk '$2 != 0 { printf "%s %s ", $1, $2 }' \
			/proc/net/mrc_stat)"
	done
}

fault_totals() {
	echo "# covered: $FAULT_TRANSFERS transfers, $FAULT_VERIFIED bytes verified," \
		"$FAULT_INJECTED faults, $FAULT_FAILED failed batches"
}
