#!/bin/bash
# Build mrc.ko, mrc_sim.ko and the deliberate-bug module against the debug
# kernel (vm-test/debug/build-kernel.sh OUTDIR first). Kbuild of 6.1 writes
# objects next to the sources, so the sources are mirrored into
# OUTDIR/mod and built there: the Debian build in the tree stays as is.
# Usage: build-modules.sh OUTDIR    -> OUTDIR/mod/kernel/mrc.ko,
#   OUTDIR/mod/drivers/mrc_sim/mrc_sim.ko, OUTDIR/mod/bugmod/mrc_vmtest_bugs.ko
set -euo pipefail
out=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
mod=$out/mod
jobs=${JOBS:-$(nproc)}

# Mirror only sources, so nothing built for the Debian kernel leaks in;
# afresh each time, so a file deleted in the tree is gone here too.
mirror() {
	local from=$1 to=$2
	mkdir -p "$to"
	(cd "$from" && find . -type f \( -name '*.[ch]' -o -name Kbuild \
		-o -name Makefile \) -print0) |
		(cd "$from" && xargs -0 cp -p --parents -t "$to")
}
rm -rf "$mod"
mkdir -p "$mod"
cp -p "$src/Kbuild" "$mod/Kbuild"
for d in kernel drivers include; do
	mirror "$src/$d" "$mod/$d"
done
mirror "$here/bugmod" "$mod/bugmod"

make -s -C "$out/obj" M="$mod" -j"$jobs" modules
make -s -C "$out/obj" M="$mod/bugmod" modules
if ! readelf -S "$mod/kernel/mrc.ko" | grep -q '\.BTF'; then
	echo "build-modules: $mod/kernel/mrc.ko has no .BTF section" >&2
	exit 1
fi
