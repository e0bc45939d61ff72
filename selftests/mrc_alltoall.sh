#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# All-to-all under load (guest; issue 20): 8 hosts x 4 planes on one
# switch a plane, every host link shaped to 1 Mbit/s each way with the
# bench's 100-frame queues, and all 56 connections at once (make bench's
# P7 with smaller transfers). A loaded round trip here is many probe
# intervals: the core once probed an ASSUMED_BAD EV every interval with a
# new id, matched no reply, and sent more probes than data until the
# applications timed out. Checks: every byte verified, no connection
# error, and EV probes a small share of the packets. TAP output.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"
for lib in systems star; do
	# shellcheck source=/dev/null
	. "$src/bench/lib/$lib.sh"
done

HOSTS=8
PLANES=4
BYTES=${MRC_A2A_BYTES:-256K}
# A debug kernel under TCG runs this in 30-45 s instead of 7 (27 Nov), and
# a client that sent its 256K early waited over 20 s for its server's
# result: stretch mrcperf's timeout with the other timed tests.
# shellcheck disable=SC2034 # star.sh's, as DELAY and QUEUE below
STAR_TIMEOUT_MS=$((20000 * ${MRC_TIME_SCALE:-1}))
# star.sh's shaping: 1 Mbit/s, 100 us a host end, 100 frames a queue.
DELAY=100us
QUEUE=100
work=$(mktemp -d)

cleanup() {
	topo_cleanup
	rm -rf "$work"
}
trap cleanup EXIT

grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1

# Every host's connection counters, each second until $work/done exists.
sample_conns() {
	local i
	while [ ! -e "$work/done" ]; do
		for ((i = 0; i < HOSTS; i++)); do
			topo_exec "h$i" "$MRCCTL" -s conn show 2> /dev/null
		done >> "$work/conns.txt"
		sleep 1
	done
}

alltoall() {
	local i j pids=() bytes span
	bytes=$(numfmt --from=iec "$BYTES")
	star_build "$HOSTS" "$PLANES" 1 && star_system_setup mrc "$HOSTS" "$PLANES" || return 1
	for ((i = 0; i < HOSTS; i++)); do
		star_server mrc "h$i" $((HOSTS - 1)) 9500 "$work/s$i.json" --verify
	done
	sleep 1
	sample_conns &
	for ((i = 0; i < HOSTS; i++)); do
		for ((j = 0; j < HOSTS; j++)); do
			[ "$i" = "$j" ] && continue
			star_client mrc "h$i" "h$j" 9500 "$work/c$i-$j.json" -n "$BYTES" --verify &
			pids+=($!)
		done
	done
	star_wait "${pids[@]}"
	touch "$work/done"
	wait
	span=$(star_span "$work/c*.json" "$work/s*.json")
	echo "# $((HOSTS * (HOSTS - 1))) transfers of $BYTES in $span s"
	cat "$work"/c*.err "$work"/s*.err 2> /dev/null | sort | uniq -c | head -5 | sed 's/^/# /'
	jq -e -s --argjson n $((HOSTS * (HOSTS - 1))) \
		'length == $n and all(.error == null)' "$work"/c*.json > /dev/null &&
		jq -e -s --argjson n $((HOSTS - 1)) --argjson b "$bytes" \
			'all(.connections | length == $n and
			     all(.error == null and .verify and .bytes == $b))' \
			"$work"/s*.json > /dev/null
}

# EV probes against DATA packets sent, each connection's last sample.
# Probes are paced by time (the RTO, rto_max), DATA by bytes: where
# MRC_TIME_SCALE stretches time (the debug kernel, round trips of a third
# of a second), the bound stretches with it (there 30% of the DATA, 7%
# on Debian's kernel; bench P7 once sent more probes than DATA).
probes_bounded() {
	local probes data counts scale=${MRC_TIME_SCALE:-1}
	counts=$(awk '
		$1 == "conn" { id = $2 }
		$1 == "ProbesTx" { p[id] = $2 }
		$1 == "TxDataPkts" { d[id] = $2 }
		END { for (c in p) { np += p[c]; nd += d[c] } print np + 0, nd + 0 }' \
		"$work/conns.txt")
	read -r probes data <<< "$counts"
	echo "# EV probes $probes, DATA packets $data (last samples of each connection)"
	[ "$data" -gt 0 ] && [ $((probes * 4)) -lt $((data * scale)) ]
}

no_timeout() {
	local i n
	for ((i = 0; i < HOSTS; i++)); do
		n=$(topo_exec "h$i" awk '$1 == "ConnTimeout" { print $2 }' /proc/net/mrc_stat)
		[ "$n" = 0 ] || { echo "# h$i: ConnTimeout $n"; return 1; }
	done
}

mrc_lib_check "all-to-all of 8 hosts x 4 planes on shaped links: every byte verified, no error" \
	alltoall
mrc_lib_check "EV probes stay under a quarter of the DATA packets (x MRC_TIME_SCALE)" probes_bounded
mrc_lib_check "no connection hit its user timeout (ConnTimeout 0 on every host)" no_timeout
