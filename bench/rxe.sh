#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Soft-RoCE for `make bench`: rdma_rxe in 6.1 sends from the initial
# network namespace only, so it runs between two guests (vm-test/run -g 2
# -p 1), each with its plane NIC shaped as the one-guest run shapes a
# plane. Guest 0 measures: ib_write_bw, then single-plane TCP on the same
# link for the comparison; one line "rxe MBPS tcp MBPS" into $BENCH_OUT/
# rxe.txt. Guest 1 serves. RoCE has one path: it is P1's single-plane row.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BARRIER=$src/vm-test/lib/barrier
MRCPERF=$src/build/userspace/mrcperf/mrcperf
SECS=${MRC_BENCH_SECS:-12}
me=$MRC_GUEST peer=10.100.0.$((2 - MRC_GUEST))
dev=plane0

tc qdisc replace dev "$dev" root netem rate "${MRC_BENCH_RATE:-10}mbit" delay 100us limit 100
modprobe rdma_rxe && rdma link add rxe0 type rxe netdev "$dev" || exit 1
sleep 1
# The GID of the plane's IPv4 address (RoCE v2, ::ffff:a.b.c.d).
# shellcheck disable=SC2046,SC2183 # four octets, split on purpose
hex=$(printf '%02x%02x:%02x%02x' $(ip -4 -o addr show "$dev" | awk '{ print $4 }' | cut -d/ -f1 | tr . ' '))
gid=$(grep -l "ffff:$hex\$" /sys/class/infiniband/rxe0/ports/1/gids/* | head -1)
[ -n "$gid" ] || { echo "rxe: no RoCE v2 GID for $dev"; exit 1; }
gid=$(basename "$gid")

if [ "$me" = 1 ]; then
	ib_write_bw -d rxe0 -x "$gid" -D "$SECS" -F --report_gbits > /tmp/rxe.out 2>&1 &
	"$BARRIER" rxe-server 120
	wait
	"$MRCPERF" -s -1 --tcp -J > /dev/null &
	"$BARRIER" tcp-server 120
	wait
	exit 0
fi
"$BARRIER" rxe-server 120 && sleep 1
ib_write_bw -d rxe0 -x "$gid" -D "$SECS" -F --report_gbits "$peer" > /tmp/rxe.out 2>&1
# The result row: bytes iterations BW-peak BW-average(Gb/s) MsgRate.
rxe=$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { v = $4 } END { if (v != "") print v * 1000 }' /tmp/rxe.out)
[ -n "$rxe" ] || { tail -5 /tmp/rxe.out; rxe=null; }
"$BARRIER" tcp-server 120 && sleep 1
tcp=$("$MRCPERF" -c "$peer" --tcp -t "$SECS" -J | jq '.server.bits_per_second // 0 | . / 1e6' 2> /dev/null)
echo "rxe ${rxe} tcp ${tcp:-null}" | tee "${BENCH_OUT:-$src/build/bench}/rxe.txt"
