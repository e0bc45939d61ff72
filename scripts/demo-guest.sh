#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make demo`, guest half: the product tour. Two hosts (network
# namespaces) joined by 4 planes; mrcd runs host a from a config file and
# watches every path with eBPF; a verified transfer keeps going while a
# plane is killed and restored, with a per-plane goodput table each
# second; then the verdict, mrcd's log and the telemetry bpftool reads.
set -eu
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/topo.sh
. "$src/selftests/lib/topo.sh"
mrcctl=$src/build/userspace/mrcctl/mrcctl
mrcd=$src/build/userspace/mrcd/mrcd
mrcperf=$src/build/userspace/mrcperf/mrcperf
PLANES=4
PEER=10.100.0.2
SECONDS_TOTAL=24	# the transfer; plane 2 dies at 6 s and returns at 14 s
work=$(mktemp -d)
mrcd_pid=""

cleanup() {
	[ -z "$mrcd_pid" ] || { kill "$mrcd_pid" 2> /dev/null; wait "$mrcd_pid" 2> /dev/null; }
	topo_cleanup
	rmmod mrc 2> /dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

say() { printf '\n\033[1m>>> %s\033[0m\n' "$*"; }
na() { topo_exec a "$@"; }

say "Booted Debian's $(uname -r) under QEMU; loading mrc.ko (AF_MRC)"
insmod "$src/kernel/mrc.ko"
"$mrcctl" info | head -1

say "Two hosts, a and b, joined by $PLANES planes (veth pairs pl0..pl$((PLANES - 1)), 10.10x.0.0/24)"
topo_two_hosts "$PLANES"
for ((p = 0; p < PLANES; p++)); do topo_exec b "$mrcctl" plane add dev "pl$p" > /dev/null; done
topo_exec b "$mrcctl" plane show

say "mrcd configures host a's planes from a file and loads its eBPF telemetry"
{
	printf '[daemon]\nlog_level = "info"\n\n[detect]\nburst_losses = 3\nburst_window_ms = 100\n'
	for ((p = 0; p < PLANES; p++)); do printf '\n[[plane]]\nifname = "pl%d"\nid = %d\n' "$p" "$p"; done
} > "$work/mrcd.conf"
sed 's/^/    /' "$work/mrcd.conf" | grep -v '^ *$' | head -8
echo "    ..."
nsenter --net="/run/netns/$(topo_ns a)" "$mrcd" --config "$work/mrcd.conf" 2> "$work/mrcd.log" &
mrcd_pid=$!
for ((i = 0; i < 100; i++)); do grep -qs 'msg=ready' "$work/mrcd.log" && break; sleep 0.2; done
grep -m1 'msg=ready' "$work/mrcd.log" | sed 's/^/    mrcd: /'
na "$mrcctl" plane show

say "A ${SECONDS_TOTAL} s transfer a -> b, every byte checked at b (mrcperf --verify)"
topo_exec b "$mrcperf" -s -1 -p 5001 --verify -J > "$work/server.json" &
server=$!
topo_exec a "$mrcperf" -c "$PEER" --wait-server 10000 -p 5001 -t "$SECONDS_TOTAL" --verify -J \
	> "$work/client.json" &
client=$!

# Host a's network namespace, keeping the guest's mounts (ip netns exec
# remounts /sys, which hides the pinned maps), and cheaper to enter.
nsa() { nsenter --net="/run/netns/$(topo_ns a)" "$@"; }
# Bytes each plane of host a has sent so far, one line "p0 p1 p2 p3".
plane_tx() {
	nsa "$mrcctl" -j stats show |
		jq -r "[range($PLANES) as \$p | [.planes[] | select(.id == \$p) | .stats.PlaneTxBytes // 0] | add // 0] | @tsv"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }

say "Per-plane goodput of host a (Mbit/s, about every second); plane 2 dies at 6 s and comes back at 14 s"
printf '    %5s' "t/s"
for ((p = 0; p < PLANES; p++)); do printf ' %8s' "plane $p"; done
printf ' %8s  %s\n' total event
read -ra prev <<< "$(plane_tx)"
start=$(now_ms)
last=$start
died="" back=""
# Wall-clock driven: a slow guest prints fewer rows, never a wrong rate.
while kill -0 "$client" 2> /dev/null; do
	sleep 1
	event=""
	t=$(now_ms)
	if [ -z "$died" ] && [ $((t - start)) -ge 6000 ]; then
		topo_link 2 down
		died=1 event="ip link set pl2 down (plane 2 dies)"
	elif [ -z "$back" ] && [ $((t - start)) -ge 14000 ]; then
		topo_link 2 up
		back=1 event="ip link set pl2 up (plane 2 is back)"
	fi
	read -ra now <<< "$(plane_tx)"
	t=$(now_ms)
	printf '    %5.1f' "$(((t - start) / 100))e-1"
	total=0
	for ((p = 0; p < PLANES; p++)); do
		rate=$(((now[p] - prev[p]) * 8 / 1000 / (t - last)))
		total=$((total + rate))
		printf ' %8d' "$rate"
	done
	printf ' %8d  %s\n' "$total" "$event"
	prev=("${now[@]}")
	last=$t
done

wait "$client" || true
wait "$server" || true
say "The verdict: both ends count the same bytes, b found every one intact"
jq -r '"    client: \(.bytes) bytes sent, error \(.error)"' "$work/client.json"
jq -r '"    server: \(.bytes) bytes received and verified, error \(.error)"' "$work/server.json"
[ "$(jq .bytes "$work/client.json")" = "$(jq .bytes "$work/server.json")" ] &&
	[ "$(jq -r .error "$work/server.json")" = null ] &&
	[ "$(jq -r .error "$work/client.json")" = null ]

say "What mrcd saw and did (its log, logfmt)"
grep -E 'msg=(alarm|action|change)' "$work/mrcd.log" | grep -E 'plane=2|pl2' | head -4 |
	cut -c1-160 | sed 's/^/    /'

say "The eBPF telemetry, read with bpftool: host a's per-plane counters, pinned by mrcd"
netns_a=$(stat -L -c %i "/run/netns/$(topo_ns a)")
bpftool -j map dump pinned /sys/fs/bpf/mrc/mrc_planes |
	jq -r --argjson ns "$netns_a" '.[].formatted | select(.key.netns == $ns) | .key.plane as $p | .value |
		"    plane \($p): tx_pkts \(.tx_pkts), retx_pkts \(.retx_pkts), losses \(.losses), alarms \(.alarms), mean RTT \(if .rtt_samples > 0 then (.rtt_sum_us / .rtt_samples | floor | tostring) + " us" else "-" end)"' |
	sort
echo "    mrcctl reads the same maps: mrcctl telemetry rtt"
nsa "$mrcctl" telemetry rtt | head -4 | sed 's/^/    /'

say "Done: the transfer survived a dead plane; the kernel log is checked by vm-test/run"
