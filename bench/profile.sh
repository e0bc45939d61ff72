#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Where the guest's CPU goes during one bulk stream: perf's samples of
# both vCPUs over a run of P10's topology (bench/lib/scenarios.sh). Only
# inside vm-test/run; the report goes to bench/perf_fold.py on the host:
#
#   vm-test/run -t 600 -o build/vm/prof -- env SYS=mrc MTU=9000 bench/profile.sh
#   bench/perf_fold.py build/prof/script-mrc.txt mrc_sendmsg mrc_core_input
#
# Environment: SYS (mrc|tcp|mptcp, default mrc), PLANES (default 1), MTU
# (the planes' device MTU, default as created), RATE (each plane shaped
# to RATE Mbit/s as bench/guest.sh shapes them, P1h's 100 say; default
# unshaped, as P10), SECS (default 8), OPTS (more mrcperf options for
# both ends) and COPTS (the client's): OPTS=--seqpacket COPTS="-l 1400"
# profiles small messages,
# PROF_OUT (default build/prof). Writes there: flat-SYS.txt (self time
# by symbol), children-SYS.txt (with callees), counters-SYS.txt (MRC's
# global and plane counters of both hosts) and script-SYS.txt (every
# sample's call chain, for perf_fold.py).
#
# Under TCG perf needs three things found the hard way: no throttle
# (kernel.perf_cpu_time_max_percent=0, or a few samples in all), its
# file in /dev/shm (it cannot mmap one on the 9p share), and the stream
# started only once perf is ready (its start-up alone took 8 s).
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"
for lib in record systems scenarios; do
	# shellcheck source=/dev/null
	. "$src/bench/lib/$lib.sh"
done
if [ "${MRC_VM:-}" != 1 ]; then
	echo "bench/profile.sh: refusing to load modules outside a vm-test guest" >&2
	exit 2
fi
SYS=${SYS:-mrc} PLANES=${PLANES:-1} SECS=${SECS:-8}
out=${PROF_OUT:-$src/build/prof} data=/dev/shm/mrc-prof.data ready=/dev/shm/mrc-prof.ready
work=$(mktemp -d)
# shellcheck disable=SC2317 # called by the trap
cleanup() { topo_cleanup; rm -rf "$work" "$data" "$ready"; }
trap cleanup EXIT
mkdir -p "$out"
grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1

topo_two_hosts "$PLANES" || exit 1
if [ -n "${MTU:-}" ]; then
	for h in a b; do
		for ((p = 0; p < PLANES; p++)); do
			topo_exec "$h" ip link set "pl$p" mtu "$MTU" || exit 1
		done
	done
fi
if [ -n "${RATE:-}" ]; then
	# shellcheck disable=SC2034 # used by shape() (scenarios.sh)
	DELAY=100us QUEUE=100
	for ((p = 0; p < PLANES; p++)); do shape "$p" "$RATE" || exit 1; done
fi
bench_mrc_planes "$PLANES" a b || exit 1
[ "$SYS" != mptcp ] || bench_mptcp_setup "$PLANES" b || exit 1

sysctl -qw kernel.perf_cpu_time_max_percent=0 kernel.perf_event_paranoid=-1
perf record -e cpu-clock -a -g -F 499 -o "$data" -- \
	sh -c "touch $ready; sleep $((SECS + 2))" > "$work/perf.log" 2>&1 &
perf_pid=$!
for ((i = 0; i < 600; i++)); do [ -e "$ready" ] && break; sleep 0.2; done
[ -e "$ready" ] || { echo "bench/profile.sh: perf did not start" >&2; cat "$work/perf.log" >&2; exit 1; }
# shellcheck disable=SC2086 # OPTS: words of their own
bench_server "$SYS" b 1 "$work/server.json" -i 0.1 ${OPTS:-}
# shellcheck disable=SC2086
bench_client "$SYS" a "$PEER" -t "$SECS" ${OPTS:-} ${COPTS:-} > "$work/client.json" 2> "$work/client.err"
# shellcheck disable=SC2154 # bench_spid: set by bench_server
wait "$bench_spid"
wait "$perf_pid"
echo "profile: $SYS, $PLANES plane(s), MTU ${MTU:-default}: $(bench_mbps "$work/server.json") Mbit/s"

report() { perf report -i "$data" --stdio --sort sym -g none "$@" 2> /dev/null | grep -v '^#' | grep -v '^$'; }
report --no-children --percent-limit 0.1 > "$out/flat-$SYS.txt"
report --children --percent-limit 0.4 > "$out/children-$SYS.txt"
perf script -i "$data" -F comm,cpu,ip,sym 2> /dev/null > "$out/script-$SYS.txt"
for h in a b; do
	echo "== host $h"
	topo_exec "$h" "$MRCCTL" stats
	topo_exec "$h" "$MRCCTL" -s plane show
done > "$out/counters-$SYS.txt" 2>&1
head -12 "$out/flat-$SYS.txt"
