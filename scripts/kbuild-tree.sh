#!/bin/sh
# Make a private copy of the target kernel's headers directory that also
# holds the target's vmlinux, so Kbuild generates module BTF (pahole needs
# the base BTF of vmlinux). The copy is a tree of symlinks; only vmlinux is
# a real file. Usage: kbuild-tree.sh KVER LINUX_SOURCE_DIR OUTDIR
set -eu
kver=$1
src=$2
out=$3
[ -e "$out/vmlinux" ] && exit 0

headers=$(readlink -f "/lib/modules/$kver/build")
rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -as "$headers" "$out"
"$src/scripts/extract-vmlinux" "/boot/vmlinuz-$kver" > "$out/vmlinux.tmp"
if ! readelf -S "$out/vmlinux.tmp" | grep -q '\.BTF'; then
	echo "kbuild-tree: vmlinux of $kver has no .BTF section" >&2
	exit 1
fi
mv "$out/vmlinux.tmp" "$out/vmlinux"
