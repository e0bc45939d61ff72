#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest self-test of selftests/lib/topo.sh: the topologies are what the
# data-path tests think they are. TAP output.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"
# shellcheck source=selftests/lib/topo.sh
. "$src/selftests/lib/topo.sh"
trap topo_cleanup EXIT

ping_plane() {	# $1 plane, $2 4|6
	local dst
	dst=$([ "$2" = 4 ] && echo "10.$((100 + $1)).0.2" || echo "fd00:$((100 + $1))::2")
	topo_exec a ping -"$2" -c 1 -W 1 "$dst" > /dev/null 2>&1
}
no_ping() { ! ping_plane "$@"; }
# A fresh path resolves neighbours (proxy ARP across the fabric) on the
# first packet; allow three tries before calling a plane dead.
ping_plane_soon() {
	local i
	for ((i = 0; i < 3; i++)); do ping_plane "$@" && return 0; done
	return 1
}
all_planes_ping() {
	local p
	for ((p = 0; p < 4; p++)); do ping_plane_soon "$p" 4 || return 1; done
	[ "${1:-}" = 4 ] && return 0
	for ((p = 0; p < 4; p++)); do ping_plane_soon "$p" 6 || return 1; done
}

# One UDP datagram to b's plane-0 address from each source port.
udp_from_ports() {
	topo_exec a python3 -c '
import socket
for port in range(40000, 40064):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("10.100.0.1", port))
    s.sendto(b"x", ("10.100.0.2", 9))
    s.close()'
}
delivered_to_b() { topo_exec p0-l1 cat /sys/class/net/hb/statistics/tx_packets; }

mrc_lib_check "two hosts, 4 planes" topo_two_hosts 4
mrc_lib_check "every plane pings, IPv4 and IPv6" all_planes_ping
mrc_lib_check "netem on a plane is applied (100% loss)" topo_shape 0 loss 100%
mrc_lib_check "shaped plane is lossy" no_ping 0 4
topo_unshape 0
mrc_lib_check "unshaped plane pings again" ping_plane_soon 0 4
topo_link 1 down
mrc_lib_check "plane 1 down: no ping" no_ping 1 4
topo_link 1 up
sleep 1
mrc_lib_check "plane 1 up: ping" ping_plane_soon 1 4
topo_cleanup
mrc_lib_check "cleanup leaves no namespace" \
	bash -c "! ip netns list | grep -q '^$TOPO_PREFIX-'"

mrc_lib_check "fabric emulator, 4 planes x (2 leaves + 2 spines)" topo_fabric 4
mrc_lib_check "every plane pings across the fabric" all_planes_ping 4
s0=$(topo_link_packets 0 0 0)
s1=$(topo_link_packets 0 0 1)
udp_from_ports
d0=$(($(topo_link_packets 0 0 0) - s0))
d1=$(($(topo_link_packets 0 0 1) - s1))
echo "# 64 source ports: spine 0 carried $d0, spine 1 carried $d1"
mrc_lib_check "ECMP spreads source ports over both spines" \
	test "$d0" -ge 8 -a "$d1" -ge 8
topo_spine_link 0 0 0 down
before=$(delivered_to_b)
udp_from_ports
got=$(($(delivered_to_b) - before))
echo "# spine link 0-0 black-holed: $got of 64 ports delivered"
mrc_lib_check "a dead spine link loses some ports, not all" \
	test "$got" -ge 8 -a "$got" -le 56
topo_spine_link 0 0 0 up
before=$(delivered_to_b)
udp_from_ports
got=$(($(delivered_to_b) - before))
mrc_lib_check "restored spine link delivers every port ($got)" test "$got" -ge 64
