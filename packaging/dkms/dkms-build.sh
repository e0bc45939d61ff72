#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build mrc.ko for KVER from DKMS's build directory (the current one).
# Module BTF needs the kernel's base BTF as "vmlinux" in the headers tree,
# which distribution headers lack, so this makes a private symlink copy of
# the tree holding the first of:
#   1. KSRC/vmlinux, when the headers have it (used as is);
#   2. /sys/kernel/btf/vmlinux, when KVER is the running kernel;
#   3. the .BTF of /boot/vmlinuz-KVER unpacked by extract-vmlinux (from
#      KSRC/scripts, $MRC_EXTRACT_VMLINUX or PATH).
# Without any of them mrc.ko is built without BTF and this says so: the
# module works, but mrcd's telemetry programs cannot attach to it.
#   dkms-build.sh KVER KSRC
set -eu
kver=$1
ksrc=$(readlink -f "$2")
tree=$PWD/.kbuild

find_extract() {
	for x in "${MRC_EXTRACT_VMLINUX:-}" "$ksrc/scripts/extract-vmlinux" \
		 "$(command -v extract-vmlinux || true)"; do
		[ -n "$x" ] && [ -x "$x" ] && { echo "$x"; return 0; }
	done
	return 1
}

base_btf() {
	if [ "$(uname -r)" = "$kver" ] && [ -r /sys/kernel/btf/vmlinux ]; then
		cp /sys/kernel/btf/vmlinux "$1"
		echo "running kernel's /sys/kernel/btf/vmlinux"
		return 0
	fi
	x=$(find_extract) || return 1
	[ -r "/boot/vmlinuz-$kver" ] || return 1
	"$x" "/boot/vmlinuz-$kver" > "$1.elf" || return 1
	objcopy -O binary --only-section=.BTF "$1.elf" "$1" || return 1
	rm -f "$1.elf"
	[ -s "$1" ] || return 1
	echo "/boot/vmlinuz-$kver unpacked by $x"
}

if [ ! -f "$ksrc/vmlinux" ]; then
	rm -rf "$tree"
	cp -as "$ksrc" "$tree"
	if from=$(base_btf "$tree/vmlinux"); then
		echo "mrc: module BTF against $from"
		ksrc=$tree
	else
		rm -rf "$tree" "$tree/vmlinux.elf"
		echo "mrc: no base BTF for $kver: building mrc.ko without BTF" \
			"(mrcd's telemetry needs it; rebuild under $kver)" >&2
	fi
fi
# No BTF id sets in mrc.ko, and resolve_btfids cannot read a raw BTF base.
exec make -C "$ksrc" M="$PWD" RESOLVE_BTFIDS=/bin/true modules
