#!/bin/bash
# The guest runner's own tests (TAP), run on the host: exit status,
# mounts, timeout, kernel-warning detection, option misuse and two guests
# pinging each other over every plane.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
run=$src/vm-test/run
out=$src/build/vm/selftest
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# $1: expected status, $2: name, $3..: vm-test/run arguments
expect_status() {
	local want=$1 name=$2 rc
	shift 2
	"$run" -o "$out" "$@" > "$log" 2>&1
	rc=$?
	sed 's/^/#   /' "$log"
	if [ "$rc" -eq "$want" ]; then
		mrc_lib_ok "$name"
	else
		mrc_lib_fail "$name" "vm-test/run exited $rc, expected $want"
	fi
}

# $1: name, $2: extended regex that the last run's output must contain
expect_output() {
	if grep -Eq "$2" "$log"; then mrc_lib_ok "$1"; else mrc_lib_fail "$1" "no /$2/ in output"; fi
}

echo "TAP version 13"

expect_status 2 "no command is a usage error" --timeout 30
expect_output "usage error explains itself" "no command given after --"
expect_status 2 "bad option value is a usage error" --guests 0 -- true
expect_status 2 "--kernel that cannot be read is a usage error" \
	--kernel "$src/build/no-such-bzImage" -- true
expect_output "--kernel error names the image" 'cannot read ".*no-such-bzImage"'
expect_status 2 "--modules without --kernel is a usage error" --modules "$src" -- true

# One boot checks the guest's view of the world.
guest_checks='set -e
cd "$MRC_SRC"
[ "$(uname -r)" = "$(scripts/target-kernel.sh)" ] && echo CHECK-kernel
grep -qw mrc /proc/modules || insmod kernel/mrc.ko
grep -qw mrc /proc/modules && echo CHECK-module
! touch /etc/mrc-probe 2>/dev/null && echo CHECK-root-ro
touch /tmp/x /run/x && echo CHECK-tmp-rw
echo guest > build/vm/selftest-written && echo CHECK-tree-rw
ip link add mrcprobe0 type veth peer name mrcprobe1 && echo CHECK-autoload
exit 7'
expect_status 7 "exit status of CMD propagates" -- bash -c "$guest_checks"
expect_output "guest runs the Debian target kernel" CHECK-kernel
expect_output "mrc.ko loads in the guest" CHECK-module
expect_output "host root is read-only" CHECK-root-ro
expect_output "/tmp and /run are writable" CHECK-tmp-rw
expect_output "project tree is writable" CHECK-tree-rw
expect_output "kernel module autoload works (veth)" CHECK-autoload
mrc_lib_check "guest writes reach the host tree" \
	grep -qx guest "$src/build/vm/selftest-written"
mrc_lib_check "guest dmesg is saved" grep -q "AF_MRC registered" "$out/g0/dmesg"

expect_status 3 "a guest WARN_ON fails a successful command" \
	-- insmod "$src/vm-test/warnmod/mrc_vmtest_warn.ko"
expect_output "the warning is shown" "WARNING: CPU: [0-9]+ PID: .*mrc_vmtest_warn"

start=$SECONDS
expect_status 124 "timeout stops a hung command" --timeout 25 -- sleep 600
mrc_lib_check "timeout is enforced promptly" test $((SECONDS - start)) -lt 60

ping_all='peer=$((2 - MRC_GUEST)) fail=0
for ((p = 0; p < MRC_PLANES; p++)); do
	ping -c 2 -W 5 "10.$((100 + p)).0.$peer" > /dev/null || fail=1
	ping -6 -c 2 -W 5 "fd00:$((100 + p))::$peer" > /dev/null || fail=1
done
echo "CHECK-cpus possible=$(cat /sys/devices/system/cpu/possible)" \
	"online=$(cat /sys/devices/system/cpu/online)"
exit $fail'
expect_status 0 "two guests ping each other on all 3 planes (IPv4, IPv6)" \
	--guests 2 --planes 3 -- bash -c "$ping_all"
# One vCPU each, on a machine that may have two: QEMU 7.2's TCG drops the
# guest's memory barriers otherwise, and virtio-net kicks get lost.
expect_output "one vCPU per guest, two possible (TCG keeps barriers)" \
	"\\[g1\\] CHECK-cpus possible=0-1 online=0$"
exit 0
