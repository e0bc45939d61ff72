#!/bin/sh
# Build the guest initramfs: busybox-static, the init script and the
# target kernel's virtio, 9p, virtio-net and UDP tunnel modules in load
# order.
# Usage: initramfs.sh KVER OUT.cpio.gz
# KVER "builtin": a kernel with those drivers built in (the debug kernel),
# so the initramfs carries no module.
set -eu
kver=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/modules" "$work/proc" "$work/sys" "$work/dev" \
	"$work/host" "$work/ctl"
cp /bin/busybox "$work/bin/busybox"
cp "$here/lib/guest-init" "$work/init"
chmod 755 "$work/init"

# Dependencies first, each module once, in the order modprobe would use.
# udp_tunnel and ip6_udp_tunnel are mrc.ko's dependencies: tests insmod
# mrc.ko from the build tree, where modprobe cannot resolve them.
: > "$work/modules/order"
[ "$kver" = builtin ] ||
for m in virtio_pci 9pnet_virtio 9p virtio_net udp_tunnel ip6_udp_tunnel; do
	modprobe --show-depends -S "$kver" "$m"
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' |
while read -r ko; do
	cp "$ko" "$work/modules/"
	basename "$ko" >> "$work/modules/order"
done

(cd "$work" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
