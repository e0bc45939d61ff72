#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The soak (guest): for $1 seconds (default 600), back-to-back batches of
# verified transfers, each with a random size, connection count and fault
# from the fault matrix; then the totals and any leak: connection memory,
# sockets, module references and slab growth. TAP output; a failing batch
# prints the seed that replays the same sequence (MRC_SOAK_SEED).
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/guest.sh
. "$src/selftests/lib/guest.sh"
# shellcheck source=selftests/lib/faults.sh
. "$src/selftests/lib/faults.sh"

DURATION=${1:-600}
SEED=${MRC_SOAK_SEED:-$(date +%s)}
PLANES=4
PEER=10.100.0.2
FAULT_WORK=$(mktemp -d)
RANDOM=$SEED

cleanup() {
	topo_cleanup
	rm -rf "$FAULT_WORK"
}
trap cleanup EXIT

grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}" || exit 1

faults=(
	"fault_none"
	"fault_netem_all loss 1%"
	"fault_netem_all loss 5%"
	"fault_netem_all loss 10%"
	"fault_netem_all delay 2ms reorder 25% 50%"
	"fault_netem_all duplicate 10%"
	"fault_netem_all corrupt 2%"
	"fault_netem_mixed"
	"fault_plane_flap"
	"fault_all_planes_blink"
	"fault_mtu_drop"
	"fault_netdev_gone"
	"fault_plane_settings"
	"fault_profiles"
)

# shellcheck disable=SC2016 # an awk program
stat_of() { topo_exec "$1" awk -v k="$2" '$1 == k { print $2 }' /proc/net/mrc_stat; }
slab_kb() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }

# Nothing of the soak is left: connection memory and sockets.
no_leak() {
	local h i ok
	for ((i = 0; i < 40; i++)); do
		ok=1
		for h in a b; do
			[ "$(stat_of "$h" MemBytes)" = 0 ] &&
				[ "$(stat_of "$h" SockInUse)" = 0 ] || ok=0
		done
		[ "$ok" = 1 ] && break
		sleep 0.5
	done
	for h in a b; do
		echo "# host $h: MemBytes $(stat_of "$h" MemBytes), SockInUse $(stat_of "$h" SockInUse)"
	done
	[ "$ok" = 1 ]
}

echo "# soak for $DURATION s, seed $SEED"
mrc_lib_check "topology: two hosts, $PLANES planes" topo_two_hosts "$PLANES"
mrc_lib_check "planes configured on both hosts" fault_planes_up
slab0=$(slab_kb)
end=$((SECONDS + DURATION))
while [ "$SECONDS" -lt "$end" ]; do
	FAULT_CONNS=$((1 + RANDOM % 8))
	FAULT_BYTES=$(((1 + RANDOM % 16) << 20))
	fault=${faults[RANDOM % ${#faults[@]}]}
	# shellcheck disable=SC2086 # the fault's words
	fault_batch "$fault, $FAULT_CONNS x $FAULT_BYTES bytes" $fault
done
fault_totals
mrc_lib_check "soak: every batch delivered every byte (seed $SEED)" [ "$FAULT_FAILED" = 0 ]
mrc_lib_check "soak: no connection memory or socket left" no_leak
topo_cleanup
mrc_lib_check "soak: no module reference left" mrc_dp_module_unused
echo "# slab: $slab0 kB before, $(slab_kb) kB after (namespaces gone)"
