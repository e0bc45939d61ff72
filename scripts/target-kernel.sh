#!/bin/sh
# Print the version of the Debian target kernel: the newest version that has
# both headers (/lib/modules/<ver>/build) and an image (/boot/vmlinuz-<ver>).
# Never `uname -r`: the build machine runs a different kernel.
set -eu
best=""
for build in /lib/modules/*/build; do
	[ -e "$build/Makefile" ] || continue
	ver=$(basename "$(dirname "$build")")
	[ -r "/boot/vmlinuz-$ver" ] || continue
	best="$best$ver
"
done
ver=$(printf '%s' "$best" | sort -V | tail -n 1)
if [ -z "$ver" ]; then
	echo "target-kernel: no kernel with headers and image found; run 'make deps'" >&2
	exit 1
fi
echo "$ver"
