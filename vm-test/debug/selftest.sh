#!/bin/bash
# make check-debug's self-test, inside a guest booted from the debug
# kernel: load vm-test/debug/bugmod once per deliberate bug and check that
# the kernel reports it. Proves the net catches fish before the suite's
# "0 reports" means anything. Lockdep switches itself off after its first
# report and after a KASAN report, so the lock-order inversion comes first.
# Usage: selftest.sh BUGMOD.ko
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"
ko=$1
kmemleak=/sys/kernel/debug/kmemleak

if [ "${MRC_VM:-}" != 1 ]; then
	echo "selftest: refusing to load a buggy module outside a vm-test guest" >&2
	exit 2
fi

# $1: bug, $2: what reports it, $3: extended regex the report must match
expect_report() {
	local bug=$1 who=$2 re=$3 before
	before=$(dmesg | wc -l)
	if ! insmod "$ko" bug="$bug"; then
		mrc_lib_fail "$who reports \"$bug\"" "insmod bug=$bug failed"
		return
	fi
	rmmod mrc_vmtest_bugs
	if [ "$bug" = leak ]; then
		sleep 6 # kmemleak reports only objects older than 5 s
		echo scan > "$kmemleak"
		echo scan > "$kmemleak"
		cat "$kmemleak" > /tmp/kmemleak.txt
		dmesg | tail -n +"$((before + 1))" | cat - /tmp/kmemleak.txt > /tmp/report.txt
	else
		dmesg | tail -n +"$((before + 1))" > /tmp/report.txt
	fi
	if grep -Eq "$re" /tmp/report.txt; then
		mrc_lib_ok "$who reports \"$bug\""
		grep -Em1 "$re" /tmp/report.txt | sed 's/^/#   /'
	else
		mrc_lib_fail "$who reports \"$bug\"" "no /$re/ after insmod bug=$bug"
		sed 's/^/#   /' /tmp/report.txt | head -40
	fi
}

echo "TAP version 13"
mrc_lib_check "the debug kernel runs" bash -c '[[ $(uname -r) == *-mrc-debug ]]'
mrc_lib_check "kmemleak is on" test -e "$kmemleak"
mrc_lib_check "lockdep is on" grep -q "lock-classes" /proc/lockdep_stats
expect_report lockorder lockdep "WARNING: possible circular locking dependency detected"
expect_report uaf KASAN "BUG: KASAN: (slab-)?use-after-free in mrc_vmtest_uaf"
expect_report shift UBSAN "UBSAN: shift-out-of-bounds in .*mrc_vmtest_bugs.c"
expect_report sleep might_sleep "BUG: sleeping function called from invalid context"
expect_report timer debugobjects "ODEBUG: free active .*object type: timer_list"
expect_report leak kmemleak "unreferenced object 0x[0-9a-f]+ \(size 128\)"
exit 0
