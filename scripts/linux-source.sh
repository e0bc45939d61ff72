#!/bin/sh
# Extract the few files we use from Debian's linux-source tarball (the
# target kernel's own source): the kselftest harness, extract-vmlinux and
# checkpatch. Usage: linux-source.sh OUTDIR
set -eu
out=$1
stamp="$out/.extracted"
[ -e "$stamp" ] && exit 0

tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
if [ -z "$tarball" ]; then
	echo "linux-source: no /usr/src/linux-source-*.tar.xz; run 'make deps'" >&2
	exit 1
fi
top=$(basename "$tarball" .tar.xz)
mkdir -p "$out"
tar -xJf "$tarball" -C "$out" --strip-components=1 \
	"$top/scripts/extract-vmlinux" \
	"$top/scripts/checkpatch.pl" \
	"$top/scripts/spelling.txt" \
	"$top/scripts/const_structs.checkpatch" \
	"$top/tools/testing/selftests/kselftest_harness.h" \
	"$top/tools/testing/selftests/kselftest.h"
touch "$stamp"
