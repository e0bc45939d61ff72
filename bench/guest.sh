#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`, guest half: every scenario on every system, one record a
# figure in $BENCH_OUT/records.jsonl (bench/lib/record.sh), receiver time
# series of the failure scenarios beside it. Only inside vm-test/run.
#
#   bench/guest.sh [--quick] [SCENARIO...]     (default: all; --quick:
#                                               P1 P1h P2 P4 P5 P6 P9 P10
#                                               P10b P10j, 3 s runs)
#
# Environment: BENCH_OUT (default build/bench), MRC_BENCH_RATE (Mbit/s a
# plane, default 10), MRC_BENCH_RATE_HIGH (P1h's, default 100),
# MRC_BENCH_SECS (seconds a run: 12, --quick 3).
set -u
[ -z "${BENCH_TRACE:-}" ] || set -x
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"
for lib in record systems scenarios star; do
	# shellcheck source=/dev/null
	. "$src/bench/lib/$lib.sh"
done

if [ "${MRC_VM:-}" != 1 ]; then
	echo "bench/guest.sh: refusing to load modules outside a vm-test guest" >&2
	exit 2
fi

quick=0
[ "${1:-}" = --quick ] && { quick=1; shift; }
ALL=(P1 P1h P2 P3 P4 P5 P6 P7 P8 P9 P10 P10b P10j)
# --quick leaves out the scenarios that build many namespaces (the
# fabric, 8 hosts): under TCG their set-up alone takes minutes.
QUICK=(P1 P1h P2 P4 P5 P6 P9 P10 P10b P10j)
if [ $# -eq 0 ]; then
	if [ "$quick" = 1 ]; then set -- "${QUICK[@]}"; else set -- "${ALL[@]}"; fi
fi

BENCH_OUT=${BENCH_OUT:-$src/build/bench}
RATE=${MRC_BENCH_RATE:-10}
# shellcheck disable=SC2034 # read by the sourced scenarios
RATE_HIGH=${MRC_BENCH_RATE_HIGH:-100}
SECS=${MRC_BENCH_SECS:-$([ "$quick" = 1 ] && echo 3 || echo 12)}
DELAY=100us
# P7/P8: 8 hosts share the guest's CPU, so their planes are slower.
STAR_RATE=${MRC_BENCH_STAR_RATE:-1}
STAR_BYTES=$([ "$quick" = 1 ] && echo 128K || echo 512K)
QUEUE=100
# shellcheck disable=SC2034
CONNS_N=${MRC_BENCH_CONNS:-$([ "$quick" = 1 ] && echo 2000 || echo 10000)}
# shellcheck disable=SC2034 # read by the sourced scenarios
BENCH_STEP=0 BENCH_STEPS=$# CONNS=$src/build/bench/mrc_conns
work=$(mktemp -d)
mkdir -p "$BENCH_OUT"
rm -f "$BENCH_OUT"/records.jsonl "$BENCH_OUT"/series-*.json

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	topo_cleanup
	rm -rf "$work"
}
trap cleanup EXIT

grep -qw mrc /proc/modules || insmod "$src/kernel/mrc.ko" || exit 1
jq -n -c --argjson rate "$RATE" --argjson secs "$SECS" --arg delay "$DELAY" \
	--argjson queue "$QUEUE" --argjson quick "$quick" --arg kernel "$(uname -r)" \
	--argjson cpus "$(nproc)" \
	'{rate_mbit: $rate, seconds: $secs, delay: $delay, queue_pkts: $queue,
	  quick: ($quick == 1), kernel: $kernel, guest_cpus: $cpus}' > "$BENCH_OUT/setup.json"

declare -A title=(
	[P1]="goodput, 4 equal planes"
	[P1h]="goodput, 4 equal planes at $RATE_HIGH Mbit/s"
	[P2]="a plane black-holed mid-transfer"
	[P3]="fabric: a spine link of plane 0 dies"
	[P4]="1% loss on every plane, 1 ms RTT"
	[P5]="uneven planes R, R, R, R/4"
	[P6]="64-byte ping-pong latency"
	[P7]="all-to-all, 8 hosts x 4 planes"
	[P8]="7-to-1 incast with a victim flow"
	[P9]="scale: idle connections, 256 EVs"
	[P10]="one unshaped plane"
	[P10b]="four unshaped planes"
	[P10j]="one unshaped plane, 9000-byte frames"
)
declare -A run=(
	[P1]=p1_goodput [P1h]=p1h_goodput [P2]=p2_plane_failure [P3]=p3_spine_failure [P4]=p4_loss
	[P5]=p5_uneven [P6]=p6_latency [P7]=p7_all_to_all [P8]=p8_incast [P9]=p9_scale [P10]=p10_unshaped
	[P10b]=p10b_unshaped4 [P10j]=p10j_jumbo
)

rc=0
for scen in "$@"; do
	if [ -z "${run[$scen]:-}" ]; then
		echo "bench: unknown scenario $scen (known: ${ALL[*]})" >&2
		rc=1
		continue
	fi
	bench_progress "$scen ${title[$scen]}"
	"${run[$scen]}" || { echo "bench: $scen failed to set up" >&2; rc=1; }
	topo_cleanup
done
exit "$rc"
