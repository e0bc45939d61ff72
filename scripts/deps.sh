#!/bin/sh
# Install every Debian package the build, the guest and the tests need.
# Idempotent and non-interactive: packages already present are skipped,
# so a second run costs one dpkg query.
set -eu

PKGS="
build-essential make cmake pkg-config kmod cpio xz-utils file
linux-image-amd64 linux-headers-amd64 linux-source
qemu-system-x86 busybox-static
clang libclang-rt-dev llvm libbpf-dev bpftool dwarves libelf-dev zlib1g-dev
libnl-3-dev libnl-genl-3-dev liburing-dev
nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev googletest
libtomlplusplus-dev libcpp-httplib-dev
iproute2 iperf3 iputils-ping procps python3 python3-yaml jq util-linux curl redis-server
python3-torch
gnuplot-nox rdma-core ibverbs-providers ibverbs-utils perftest
dkms man-db groff-base
flex bison bc libssl-dev
"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
