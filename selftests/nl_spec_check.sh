#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of scripts/nl-spec-check.py: the netlink API's C header, its
# YAML spec and the kernel's policy and operation tables agree, and the
# checker notices when they do not: each mutated copy (of the spec, the
# header or a kernel table) must fail with a line naming what changed.
# TAP output.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"

check=$src/scripts/nl-spec-check.py
header=$src/include/uapi/linux/mrc_netlink.h
spec=$src/include/uapi/linux/mrc_netlink.yaml
kernel=$src/kernel
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- the tree as it is
if out=$(python3 "$check" 2>&1); then
	mrc_lib_ok "nl-spec: header, spec and kernel tables agree"
else
	mrc_lib_fail "nl-spec: header, spec and kernel tables agree" "$(head -20 <<<"$out")"
fi

# $1: an attribute; the kernel file whose policy table has an entry for it
# (the tables move between files, so the file is looked up, never named)
kernel_file() {
	grep -rlE --include='*.[ch]' -- "^[[:space:]]*\\[$1\\][[:space:]]*=" "$kernel" | head -1
}

# Run the checker with one file replaced by a mutated copy.
# $1: test name, $2: the file (header, spec, or a file under kernel/),
# $3: sed -E script that mutates it, $4: ERE the checker's output must match
mutant() {
	local name="nl-spec: fails on $1" file=$2 edit=$3 want=$4 copy out rc
	local args=(--header "$header" --spec "$spec" --kernel-dir "$kernel")
	if [ ! -f "$file" ]; then
		mrc_lib_fail "$name" "nothing to mutate: no file '$file'"
		return
	fi
	case $file in
	"$header") copy=$tmp/mrc_netlink.h; args[1]=$copy ;;
	"$spec") copy=$tmp/mrc_netlink.yaml; args[3]=$copy ;;
	*)	# a copy of the kernel sources, this one file mutated
		rm -rf "$tmp/kernel"
		mkdir -p "$tmp/kernel"
		(cd "$kernel" && find . -name '*.[ch]' -exec cp --parents {} "$tmp/kernel" \;)
		copy=$tmp/kernel/${file#"$kernel"/}
		args[5]=$tmp/kernel ;;
	esac
	sed -E "$edit" "$file" >"$copy"
	if cmp -s "$file" "$copy"; then
		mrc_lib_fail "$name" "the mutation '$edit' changed nothing in $file"
		return
	fi
	out=$(python3 "$check" "${args[@]}" 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && grep -qE -- "$want" <<<"$out"; then
		mrc_lib_ok "$name"
	else
		mrc_lib_fail "$name" "exit $rc (want 1) and no line matching /$want/: $(head -5 <<<"$out")"
	fi
	rm -f "$tmp/mrc_netlink.h" "$tmp/mrc_netlink.yaml"
}

# ---- the spec
mutant "an attribute's type changed in the spec" "$spec" \
	's/\{name: port, type: u16,/{name: port, type: u32,/' \
	'MRC_PLANE_ATTR_PORT\].*type u16 in the policy, u32 in the spec'
mutant "an attribute dropped from the spec" "$spec" \
	'/\{name: ifname, type: string/d' \
	'MRC_PLANE_ATTR_IFNAME = 3 is not in the spec'
mutant "a bound changed in the spec" "$spec" \
	's/\{min: 1, max: 1000\}/{min: 1, max: 999}/' \
	'MRC_PLANE_ATTR_WEIGHT\]: max 1000 in the policy, 999 in the spec'
mutant "a command's permission dropped from the spec" "$spec" \
	'0,/flags: \[uns-admin-perm\]/{/flags: \[uns-admin-perm\]/d}' \
	'MRC_CMD_PLANE_ADD: flags \[.uns-admin-perm.\] in the kernel'
mutant "a nested set changed in the spec" "$spec" \
	's/\{name: nscc, type: nest, nested-attributes: nscc\}/{name: nscc, type: nest, nested-attributes: ev}/' \
	'MRC_CC_PROFILE_ATTR_NSCC.*nested nscc in the policy, ev in the spec'

# ---- the header
mutant "an attribute renumbered in the header" "$header" \
	's/^(\tMRC_NSCC_ATTR_ETA),/\1 = 7,/' \
	'MRC_NSCC_ATTR_ETA = 7, but the spec has attribute nscc.eta = 4'
mutant "a command renumbered in the header" "$header" \
	's/^(\tMRC_CMD_UNSPEC),/\1 = 2,/' \
	'MRC_CMD_INFO_GET = 3, but the spec has operation info-get = 1'

# ---- the kernel's tables
mutant "a max changed in a policy" "$(kernel_file MRC_PLANE_ATTR_ID)" \
	's/(\[MRC_PLANE_ATTR_ID\].*MRC_MAX_PLANES) - 1/\1/' \
	'MRC_PLANE_ATTR_ID\]: max 16 in the policy, 15 in the spec'
mutant "a policy entry's type changed" "$(kernel_file MRC_CONN_ATTR_ID)" \
	's/(\[MRC_CONN_ATTR_ID\].*)NLA_U32/\1NLA_U64/' \
	'MRC_CONN_ATTR_ID\]: type u64 in the policy, u32 in the spec'
