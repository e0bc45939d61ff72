#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fault matrix (guest): batches of concurrent AF_MRC transfers, stream
# and SOCK_SEQPACKET, every byte checked against mrcperf's seeded pattern
# and counted on both ends, each batch under one fault: netem loss 0-10%,
# reordering, duplication, corruption, a mix of all four, plane flaps, all
# planes down and back, an MTU black hole, a netdev deleted, plane settings
# and profiles changed under traffic, many connections at once, a spine
# link failing in a routed fabric. Fails on any lost, duplicated or
# corrupted byte and on any application error. Prints what it covered.
#
# MRC_FAULT_LONG=1 is `make stress`: larger transfers, more connections,
# every loss rate, each batch MRC_FAULT_ROUNDS times (default 3).
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"
# shellcheck source=selftests/lib/faults.sh
. "$src/selftests/lib/faults.sh"

PLANES=4
PEER=10.100.0.2
FAULT_WORK=$(mktemp -d)
if [ "${MRC_FAULT_LONG:-0}" = 1 ]; then
	FAULT_CONNS=8 FAULT_BYTES=${MRC_FAULT_BYTES:-32M}
	rounds=${MRC_FAULT_ROUNDS:-3} losses=(1% 2% 5% 10%) many=64
else
	FAULT_CONNS=4 FAULT_BYTES=${MRC_FAULT_BYTES:-4M}
	rounds=1 losses=(2% 10%) many=32
fi

cleanup() {
	topo_cleanup
	rm -rf "$FAULT_WORK"
}
trap cleanup EXIT

grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1

# Packets with a bad UDP checksum on both hosts: the UDP stack checks the
# checksum before it hands a datagram to MRC's encapsulation socket.
csum_errors() {
	local h n=0
	for h in a b; do
		# shellcheck disable=SC2016 # awk fields
		n=$((n + $(topo_exec "$h" awk '$1 == "Udp:" {
			if (!i) { for (j = 2; j <= NF; j++) if ($j == "InCsumErrors") i = j }
			else print $i }' /proc/net/snmp)))
	done
	echo "$n"
}

# Many short connections at once, under 1% loss.
many_conns() {
	local FAULT_CONNS=$many FAULT_BYTES=256K
	fault_batch "$many connections at once, 1% loss" fault_netem_all loss 1%
}

spine_flap() {
	sleep 1
	topo_spine_link 0 0 0 down || return 1
	sleep 2
	topo_spine_link 0 0 0 up
}

matrix() {
	local loss
	fault_batch "no fault" fault_none
	for loss in "${losses[@]}"; do
		fault_batch "loss $loss on every plane" fault_netem_all loss "$loss"
	done
	fault_batch "reordering" fault_netem_all delay 2ms reorder 25% 50%
	fault_batch "duplication 10%" fault_netem_all duplicate 10%
	fault_batch "corruption 2%" fault_netem_all corrupt 2%
	fault_batch "mixed: loss, duplication, reordering, corruption" fault_netem_mixed
	fault_batch "plane 2 flapping every 200 ms" fault_plane_flap
	fault_batch "all planes down 2 s and back" fault_all_planes_blink
	fault_batch "MTU 1280 on one end of plane 1 (one-way black hole)" fault_mtu_drop
	fault_batch "plane 3's netdev deleted, then made again" fault_netdev_gone
	fault_batch "plane weight, state, MTU, removal changed under traffic" \
		fault_plane_settings
	fault_batch "EV and CC profiles changed under traffic" fault_profiles
	many_conns
}

mrc_lib_check "topology: two hosts, $PLANES planes" topo_two_hosts "$PLANES"
mrc_lib_check "planes configured on both hosts" fault_planes_up
csum0=$(csum_errors)
for ((round = 1; round <= rounds; round++)); do
	[ "$rounds" = 1 ] || echo "# ---- round $round of $rounds"
	matrix
done
csum1=$(csum_errors)
echo "# corrupted packets dropped by their UDP checksum: $((csum1 - csum0))"
mrc_lib_check "corrupted packets were dropped and counted" [ "$csum1" -gt "$csum0" ]
topo_cleanup

# A spine link of a routed two-tier fabric fails and comes back.
PLANES=2
mrc_lib_check "topology: fabric emulator, $PLANES planes" topo_fabric "$PLANES"
mrc_lib_check "planes configured on both hosts (fabric)" fault_planes_up
fault_batch "spine link of plane 0 down 2 s mid-transfer" spine_flap
topo_cleanup

fault_totals
mrc_lib_check "fault matrix: no batch lost, duplicated or corrupted a byte" \
	[ "$FAULT_FAILED" = 0 ]
mrc_lib_check "module unused again after the fault matrix" mrc_dp_module_unused
