#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make crosscheck`, guest half: mrc-netsim's plane-failure scenario on
# the real module. Two hosts a and b, 4 planes, each plane a leaf/spine
# fabric of namespace routers (a on one leaf, b on the other); a sends to
# b with every byte checked; b's port on plane 1 goes down and comes back
# (a sees no carrier change, as host 0 does not in the simulator). The
# module's tracepoints are recorded with a marker line at each fault, in
# the format tools/mrc_trace.py reads.
#   crosscheck-guest.sh OUT_DIR
set -eu
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$1
# shellcheck source=selftests/lib/topo.sh
. "$src/selftests/lib/topo.sh"
mrcctl=$src/build/userspace/mrcctl/mrcctl
mrcperf=$src/build/userspace/mrcperf/mrcperf
PLANES=4 DEAD=1 PEER=10.100.0.2
SECS=12 DOWN_AT=4 UP_AT=8	# the transfer; plane 1 dies and returns
tracing=/sys/kernel/tracing

cleanup() {
	echo 0 > "$tracing/tracing_on" 2> /dev/null || true
	echo 0 > "$tracing/events/mrc/enable" 2> /dev/null || true
	topo_cleanup
	rmmod mrc 2> /dev/null || true
}
trap cleanup EXIT

mark() { echo "mrc_sim_fault: what=$1 plane=$DEAD a=1 b=0 ppm=0" > "$tracing/trace_marker"; }

mkdir -p "$out"
mountpoint -q "$tracing" || mount -t tracefs nodev "$tracing"
insmod "$src/kernel/mrc.ko"
topo_fabric "$PLANES" 2 2
for h in a b; do
	for ((p = 0; p < PLANES; p++)); do topo_exec "$h" "$mrcctl" plane add dev "pl$p" > /dev/null; done
done

echo 0 > "$tracing/tracing_on"
echo > "$tracing/trace"
echo 131072 > "$tracing/buffer_size_kb"
for e in mrc_tx mrc_rx mrc_ack mrc_loss mrc_nack mrc_ev_state; do
	echo 1 > "$tracing/events/mrc/$e/enable"
done
echo 1 > "$tracing/tracing_on"

topo_exec b "$mrcperf" -s -1 -p 5001 --verify -J > "$out/server.json" &
server=$!
topo_exec a "$mrcperf" -c "$PEER" --wait-server 10000 -p 5001 -t "$SECS" --verify -J \
	> "$out/client.json" &
client=$!
start=$(date +%s)
# Host a's connection counters twice a second, with the trace clock.
(
	while kill -0 "$client" 2> /dev/null; do
		echo "$(awk '{print $1}' /proc/uptime) $(nsenter --net="/run/netns/$(topo_ns a)" "$mrcctl" -j conn show 2> /dev/null)"
		sleep 0.5
	done
) > "$out/conns_a.txt" &
sleep "$DOWN_AT"
# A command takes a while to start in a busy TCG guest: markers on both
# sides of it bound when the link really went (and came back).
mark port-down
topo_exec b ip link set "pl$DEAD" down
mark port-down-done
echo "crosscheck: b's port on plane $DEAD down $(($(date +%s) - start)) s into the transfer"
sleep $((UP_AT - DOWN_AT))
mark port-up
topo_exec b ip link set "pl$DEAD" up
mark port-up-done
topo_exec a "$mrcctl" -j conn show > "$out/conn_a.json"
echo "crosscheck: back up $(($(date +%s) - start)) s in"
rc=0
wait "$client" || rc=1
wait "$server" || rc=1
echo 0 > "$tracing/tracing_on"
cp "$tracing/trace" "$out/trace.txt"
for h in a b; do
	topo_exec "$h" "$mrcctl" -j stats show > "$out/stats_$h.json"
	echo "netns $h: $(topo_exec "$h" stat -L -c %i /proc/self/ns/net)" >> "$out/netns.txt"
done
echo "crosscheck: $(grep -c ': mrc_' "$out/trace.txt") trace lines," \
	"lost to a full buffer: $(awk '/entries-in-buffer/ {print $0}' "$out/trace.txt" | head -1)"
jq -c '{bytes, error}' "$out/client.json" "$out/server.json"
exit "$rc"
