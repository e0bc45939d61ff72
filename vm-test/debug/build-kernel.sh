#!/bin/bash
# Build the debug guest kernel (KASAN, lockdep, kmemleak, UBSAN...) from
# Debian's linux-source tarball, the target kernel's own source: the
# config is x86_64_defconfig + kvm_guest.config + vm-test/debug/debug.config.
# Cached: redone only when the tarball, the fragment or this script
# changed (then incrementally, in the same object tree).
# Usage: build-kernel.sh OUTDIR     (prints nothing else on a cache hit)
# OUTDIR/obj is the kernel build tree (make -C OUTDIR/obj M=...),
# OUTDIR/bzImage the image, OUTDIR/modroot/lib/modules/<release> what the
# guest sees as /lib/modules, OUTDIR/release the release string.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fragment=$here/debug.config
jobs=${JOBS:-$(nproc)}

tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
if [ -z "$tarball" ]; then
	echo "build-kernel: no /usr/src/linux-source-*.tar.xz; run 'make deps'" >&2
	exit 1
fi
key=$( { stat -c '%n %s %Y' "$tarball"; cat "$fragment" "$0"; } | sha256sum | cut -d' ' -f1)
if [ -s "$out/bzImage" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$key" ]; then
	exit 0
fi

src=$out/src
obj=$out/obj
if [ "$(cat "$out/src.stamp" 2>/dev/null)" != "$(stat -c '%n %s %Y' "$tarball")" ]; then
	echo "build-kernel: extracting $tarball"
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	stat -c '%n %s %Y' "$tarball" > "$out/src.stamp"
fi

start=$(date +%s)
mkdir -p "$obj"
make -s -C "$src" O="$obj" x86_64_defconfig
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" \
	kernel/configs/kvm_guest.config "$fragment" > "$obj/merge.log")
make -s -C "$src" O="$obj" olddefconfig

# merge_config only warns when Kconfig drops an option; a debug kernel
# without its debug options would pass every check and mean nothing.
missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) want=$line ;;
	"# CONFIG_"*" is not set") want=$line ;;
	*) continue ;;
	esac
	opt=${want#\# }
	opt=${opt%%[= ]*}
	got=$(grep -E "^(# )?$opt[= ]" "$obj/.config" || echo "# $opt is not set")
	if [ "$got" != "$want" ]; then
		echo "build-kernel: $opt: asked \"$want\", got \"$got\"" >&2
		missing=1
	fi
done < "$fragment"
[ "$missing" -eq 0 ] || exit 1

echo "build-kernel: building $(make -s -C "$src" O="$obj" kernelrelease) with $jobs jobs"
make -s -C "$src" O="$obj" -j"$jobs" bzImage modules
rm -rf "$out/modroot"
make -s -C "$src" O="$obj" INSTALL_MOD_PATH="$out/modroot" modules_install
make -s -C "$src" O="$obj" kernelrelease > "$out/release"
cp "$obj/arch/x86/boot/bzImage" "$out/bzImage"
echo "$key" > "$out/stamp"
echo "build-kernel: built in $(( $(date +%s) - start )) s"
