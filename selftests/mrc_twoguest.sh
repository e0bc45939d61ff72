#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The data path between two separate guests (vm-test/run -g 2 -p 4):
# guest 1 serves, guest 0 sends AF_MRC transfers checked byte for byte
# (the server reports mismatches back to the client) while faults are set
# on guest 0's plane NICs: loss, reordering, duplication, a plane down, a
# plane flapping, all planes down for less and for more than the user
# timeout. Guest 0 prints TAP; guest 1 prints comments. Sizes as in
# mrc_datapath.sh: MRC_DP_BYTES (default 256M), MRC_DP_MSGS (100000).
# The fault functions run through transfer(), out of shellcheck's sight.
# shellcheck disable=SC2317
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$src/build
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"
# shellcheck source=selftests/lib/dp.sh
. "$src/selftests/lib/dp.sh"

MRCCTL=$build/userspace/mrcctl/mrcctl
MRCPERF=$build/userspace/mrcperf/mrcperf
BARRIER=$src/vm-test/lib/barrier
BYTES=${MRC_DP_BYTES:-256M}
MSGS=${MRC_DP_MSGS:-100000}
MSGLEN=1400
PLANES=${MRC_PLANES:-4}
PEER=10.100.0.2
STREAM_PORT=7001
SEQPACKET_PORT=7002

if [ "${MRC_VM:-}" != 1 ] || [ "${MRC_GUESTS:-1}" != 2 ]; then
	echo "mrc_twoguest.sh: run it as vm-test/run -g 2 -p 4 -- $0" >&2
	exit 2
fi

grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1
for ((p = 0; p < PLANES; p++)); do
	"$MRCCTL" plane add dev "plane$p" id "$p" > /dev/null || exit 1
done

# ---- guest 1: two servers, until guest 0 is done
if [ "$MRC_GUEST" = 1 ]; then
	"$MRCPERF" -s -p "$STREAM_PORT" --verify 2>&1 | sed 's/^/# server: /' &
	"$MRCPERF" -s -p "$SEQPACKET_PORT" --seqpacket --verify 2>&1 |
		sed 's/^/# server: /' &
	sleep 0.5
	"$BARRIER" servers 120 || exit 1
	"$BARRIER" finished 3600
	pkill -x mrcperf
	wait
	"$MRCCTL" stats show | sed 's/^/# /'
	if ! mrc_dp_module_unused || ! rmmod mrc; then
		echo "# server guest: rmmod failed"
		exit 1
	fi
	exit 0
fi

# ---- guest 0: the client and its faults
echo "TAP version 13"
mrc_lib_check "the other guest is serving" "$BARRIER" servers 120
work=$(mktemp -d)
trap 'rm -rf "$work"; "$BARRIER" finished 5' EXIT

# $1: name, $2: port, $3: client options, $4..: a fault run meanwhile.
transfer() {
	local name=$1 port=$2 opts=$3 json=$work/client.json cpid fpid="" rc
	local t0=$SECONDS
	shift 3
	# shellcheck disable=SC2086
	"$MRCPERF" -c "$PEER" --wait-server 10000 -p "$port" --verify -J $opts > "$json" &
	cpid=$!
	if [ $# -gt 0 ]; then
		"$@" &
		fpid=$!
	fi
	wait "$cpid"
	rc=$?
	[ -z "$fpid" ] || wait "$fpid"
	if [ "$rc" -eq 0 ] && mrc_dp_intact "$json"; then
		mrc_lib_ok "$name: $(jq -r '"\(.bytes) bytes, \(.bits_per_second / 1e6 | floor) Mbit/s"' "$json"), $((SECONDS - t0)) s"
	else
		mrc_lib_fail "$name" "client rc=$rc: $(tr '\n' ' ' < "$json" | cut -c1-600)"
	fi
}
both() {
	transfer "$1 (stream $BYTES)" "$STREAM_PORT" "-n $BYTES" "${@:2}"
	transfer "$1 (seqpacket $MSGS x $MSGLEN)" "$SEQPACKET_PORT" \
		"--seqpacket -l $MSGLEN -n $((MSGS * MSGLEN))" "${@:2}"
}

dp_link() { ip link set "plane$1" "$2"; }
shape_all() {
	local p
	for ((p = 0; p < PLANES; p++)); do
		tc qdisc replace dev "plane$p" root netem "$@" || return 1
	done
}
unshape_all() {
	local p
	for ((p = 0; p < PLANES; p++)); do tc qdisc del dev "plane$p" root 2> /dev/null; done
	return 0
}
plane_dies() { sleep 1; dp_link 1 down; }
flap_plane() {
	local i
	for ((i = 0; i < 20; i++)); do dp_link 2 down; sleep 0.2; dp_link 2 up; sleep 0.2; done
}

both "no faults"
shape_all loss 1%
both "1% loss"
# MSG_ZEROCOPY across a NIC, retransmissions included: every send
# completes once (mrcperf fails otherwise) and the bytes are intact, while
# the pages of a send are refilled only after its completion.
transfer "1% loss, MSG_ZEROCOPY (stream $BYTES)" "$STREAM_PORT" "-n $BYTES --zerocopy"
# (no process substitution: the guest has no /dev/fd)
zc_counts() {
	local counts sends="" completed="" copied=""
	counts=$(jq -r '.zerocopy | "\(.sends) \(.completed) \(.copied)"' "$work/client.json") ||
		return 1
	read -r sends completed copied <<< "$counts"
	echo "# MSG_ZEROCOPY: $sends sends, $completed completed, $copied copied by the kernel"
	[ "${sends:-0}" -gt 0 ] && [ "$completed" = "$sends" ]
}
mrc_lib_check "MSG_ZEROCOPY between guests: every send completed" zc_counts
shape_all loss 5%
both "5% loss"
shape_all delay 1ms reorder 25% 50%
both "reordering"
shape_all duplicate 5%
both "duplication"
unshape_all
both "plane 1 link down mid-transfer" plane_dies
dp_link 1 up
both "plane 2 flapping every 200 ms" flap_plane
both "all planes down 2 s (< user timeout)" mrc_dp_all_planes_blink

spread() {
	local p tx ok=0
	for ((p = 0; p < PLANES; p++)); do
		tx=$("$MRCCTL" -j stats show | jq "[.planes[] | select(.id == $p) | .stats.PlaneTxPkts // 0] | add // 0")
		echo "# plane $p sent $tx packets"
		[ "${tx:-0}" -gt 100 ] || ok=1
	done
	return "$ok"
}
mrc_lib_check "counters: every plane carried traffic" spread

past_timeout() {
	local rc
	( sleep 1; mrc_dp_all_links down ) &
	timeout 120 "$MRCPERF" -c "$PEER" --wait-server 10000 -p "$STREAM_PORT" -n 1G --verify --timeout 3000 -J \
		> "$work/timeout.json"
	rc=$?
	wait
	mrc_dp_all_links up
	echo "# $(jq -r .error "$work/timeout.json")"
	[ "$rc" -eq 2 ] && mrc_dp_timed_out "$work/timeout.json"
}
mrc_lib_check "all planes down past the user timeout: ETIMEDOUT" past_timeout

mrc_lib_check "module unused again" mrc_dp_module_unused
mrc_lib_check "module unloads" rmmod mrc
exit 0
