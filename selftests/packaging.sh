#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Packaging, on the host: DKMS builds and installs mrc.ko for the target
# kernel from the sources `make install-dkms` stages, and the module it
# built loads and works in a guest; `make install` puts every file where
# systemd, man and the shell look for it. Nothing here touches the
# build machine: DKMS works in private trees (--sourcetree, --dkmstree,
# --installtree, --no-depmod) and the install goes to a DESTDIR. TAP.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kver=$("$src/scripts/target-kernel.sh") || exit 1
ver=$(sed -n 's/.*MRC_MODULE_VERSION[[:space:]]*"\(.*\)"/\1/p' "$src/kernel/pernet.h")
dkms_cmd=(dkms --sourcetree "$tmp/pkg/usr/src" --dkmstree "$tmp/dkms"
	  --installtree "$tmp/modules" --no-depmod)
# The build machine runs another kernel: the base BTF comes from the
# target's vmlinuz, unpacked by the kernel source's own tool.
export MRC_EXTRACT_VMLINUX=$src/build/linux-source/scripts/extract-vmlinux
# DKMS signs what it builds, with a key it would otherwise make under
# /var/lib/dkms: a throwaway one here.
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
mkdir -p "$tmp/dkms" "$tmp/modules/$kver"
stage=$tmp/stage

version_matches() {
	echo "# module $ver, dkms.conf $(sed -n 's/^PACKAGE_VERSION=//p' "$src/packaging/dkms/dkms.conf")"
	grep -qx "PACKAGE_VERSION=\"$ver\"" "$src/packaging/dkms/dkms.conf"
}

stage_sources() {
	local d=$tmp/pkg/usr/src/mrc-$ver f
	make -s -C "$src" install-dkms DESTDIR="$tmp/pkg" > /dev/null || return 1
	for f in dkms.conf Kbuild scripts/dkms-build.sh kernel/Kbuild kernel/module.c \
		 kernel/core/wire.c include/uapi/linux/mrc.h include/net/mrc_offload.h; do
		[ -f "$d/$f" ] || { echo "# $f missing"; return 1; }
	done
	# Sources only: nothing built, no test drivers.
	! find "$d" -name '*.o' -o -name '*.ko' -o -name '*.mod.c' | grep -q . &&
		[ ! -e "$d/drivers" ]
}

dkms_build() {
	"${dkms_cmd[@]}" add -m mrc -v "$ver" > "$tmp/dkms.log" 2>&1 &&
		"${dkms_cmd[@]}" build -m mrc -v "$ver" -k "$kver" >> "$tmp/dkms.log" 2>&1 || {
		sed 's/^/# /' "$tmp/dkms.log" | tail -20
		find "$tmp/dkms" -name make.log -exec tail -20 {} \; | sed 's/^/# /'
		return 1
	}
	find "$tmp/dkms/mrc/$ver" -name make.log -exec grep -h "^mrc: " {} + | sed 's/^/# /'
	"${dkms_cmd[@]}" status -m mrc | sed 's/^/# /'
	"${dkms_cmd[@]}" status -m mrc | grep -q "$kver.*: built"
}

built_ko() { find "$tmp/dkms/mrc/$ver/$kver" -name 'mrc.ko*' | head -1; }

module_fits_target() {
	local ko
	ko=$(built_ko)
	[ -n "$ko" ] || return 1
	echo "# $(modinfo -F vermagic "$ko"), version $(modinfo -F version "$ko")"
	modinfo -F vermagic "$ko" | grep -q "^$kver " &&
		[ "$(modinfo -F version "$ko")" = "$ver" ] &&
		readelf -S "$ko" | grep -q '\.BTF'
}

dkms_install() {
	"${dkms_cmd[@]}" install -m mrc -v "$ver" -k "$kver" >> "$tmp/dkms.log" 2>&1 ||
		{ tail -5 "$tmp/dkms.log" | sed 's/^/# /'; return 1; }
	ls "$tmp/modules/$kver/updates/dkms/" | sed 's/^/# installed: /'
	[ -f "$tmp/modules/$kver/updates/dkms/mrc.ko" ] &&
		"${dkms_cmd[@]}" status -m mrc | grep -q "$kver.*: installed"
}

# The DKMS build, not kernel/mrc.ko, in the target kernel: two hosts
# (namespaces) with 2 planes carry a verified transfer, and the module's
# BTF is there for mrcd's programs.
dkms_module_works() {
	local ko=$tmp/modules/$kver/updates/dkms/mrc.ko out=$src/build/vm/dkms rc
	rm -rf "$out"
	mkdir -p "$out"
	cp "$ko" "$out/mrc.ko"
	cat > "$out/guest.sh" <<-EOF
		#!/bin/bash
		set -eu
		. $src/selftests/lib/topo.sh
		trap topo_cleanup EXIT
		mrcctl=$src/build/userspace/mrcctl/mrcctl
		mrcperf=$src/build/userspace/mrcperf/mrcperf
		insmod $out/mrc.ko
		\$mrcctl info | head -1
		topo_two_hosts 2
		for h in a b; do for p in 0 1; do topo_exec \$h \$mrcctl plane add dev pl\$p; done; done
		topo_exec b \$mrcperf -s -1 -p 7200 --verify > $out/server.txt &
		topo_exec a \$mrcperf -c 10.100.0.2 --wait-server 10000 -p 7200 -n 16M --verify
		wait \$!
		echo "BTF functions: \$(bpftool btf dump file /sys/kernel/btf/mrc | grep -c "FUNC 'mrc_")"
		topo_cleanup
		# A finished connection lingers briefly (it may still have to
		# answer a FIN): the module is free soon after, not at once.
		for i in \$(seq 50); do rmmod mrc 2> /dev/null && exit 0; sleep 0.2; done
		rmmod mrc
	EOF
	chmod +x "$out/guest.sh"
	"$src/vm-test/run" --timeout 600 -o "$out/vm" -- "$out/guest.sh" > "$out/guest.log" 2>&1
	rc=$?
	grep -E "^mrc version|bytes|BTF functions|rror" "$out/guest.log" | head -8 | sed 's/^/# /'
	[ "$rc" = 0 ] && grep -q "^BTF functions: [1-9]" "$out/guest.log"
}

make_install() {
	make -s -C "$src" install DESTDIR="$stage" PREFIX=/usr > "$tmp/install.log" 2>&1 ||
		{ tail -5 "$tmp/install.log" | sed 's/^/# /'; return 1; }
	local f ok=0
	for f in usr/sbin/mrcctl usr/sbin/mrcd usr/bin/mrcperf \
		 usr/lib/systemd/system/mrcd.service \
		 usr/share/bash-completion/completions/mrcctl \
		 usr/share/doc/mrc/mrcd.conf.example; do
		[ -f "$stage/$f" ] || { echo "# $f missing"; ok=1; }
	done
	echo "# $(find "$stage" -type f | wc -l) files under DESTDIR"
	return $ok
}

unit_names_prefix() {
	grep '^ExecStart=' "$stage/usr/lib/systemd/system/mrcd.service" | sed 's/^/# /'
	grep -qx 'ExecStart=/usr/sbin/mrcd --config /etc/mrc/mrcd.conf' \
		"$stage/usr/lib/systemd/system/mrcd.service"
}

man_pages_installed() {
	local n
	n=$(find "$stage/usr/share/man" -name '*.[1-8]' | wc -l)
	echo "# $n man pages: $(find "$stage/usr/share/man" -name '*.[1-8]' -printf '%f ')"
	[ "$n" -ge 1 ] && [ -f "$stage/usr/share/man/man8/mrcctl.8" ] &&
		MANWIDTH=80 man -l "$stage/usr/share/man/man8/mrcctl.8" 2> /dev/null | grep -q mrcctl
}

# No path into the build tree is left in what was installed.
installed_tools_run() {
	local bin
	for bin in usr/sbin/mrcctl usr/sbin/mrcd usr/bin/mrcperf; do
		if readelf -d "$stage/$bin" | grep -E 'R(UN)?PATH' | grep -q "$src"; then
			echo "# $bin has a build-tree RUNPATH"
			return 1
		fi
	done
	"$stage/usr/sbin/mrcctl" -V | sed 's/^/# /' &&
		"$stage/usr/sbin/mrcd" --help 2>&1 | grep -q Usage
}

mrc_lib_check "dkms.conf's version is the module's" version_matches
mrc_lib_check "make install-dkms stages the module's sources, nothing built" stage_sources
mrc_lib_check "dkms build: mrc.ko for $kver" dkms_build
mrc_lib_check "the DKMS module: vermagic $kver, version $ver, BTF" module_fits_target
mrc_lib_check "dkms install into the kernel's updates/dkms" dkms_install
mrc_lib_check "the DKMS module loads in a $kver guest and carries verified data" dkms_module_works
mrc_lib_check "make install DESTDIR PREFIX=/usr: tools, unit, completion, example config" make_install
mrc_lib_check "mrcd.service names the prefix's mrcd and config" unit_names_prefix
mrc_lib_check "man pages installed and readable by man" man_pages_installed
mrc_lib_check "installed tools run, no build-tree RUNPATH" installed_tools_run
