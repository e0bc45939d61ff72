#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of mrcctl's bash completion: what a user gets after TAB at
# each position of a command line. TAP output.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"
# shellcheck source=userspace/completion/mrcctl.bash
. "$src/userspace/completion/mrcctl.bash"

# $1: expected completions (space separated, in order), $2..: the words of
# the line; the last one is the word being completed.
expect() {
	local want=$1 got
	shift
	COMP_WORDS=(mrcctl "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_mrcctl
	got="${COMPREPLY[*]}"
	if [ "$got" = "$want" ]; then
		mrc_lib_ok "completion: mrcctl $*<TAB>"
	else
		mrc_lib_fail "completion: mrcctl $*<TAB>" "want '$want', got '$got'"
	fi
}

expect "info plane ev-profile cc-profile conn path peer stats monitor telemetry help" ""
expect "plane path peer" p
expect "show help" peer ""
expect "-pretty" -j -p
expect "add del set show help" plane ""
expect "show" conn s
expect "dev id addr addr6 port weight mtu state offload" plane add ""
expect "up down denied" plane add dev veth0 state ""
expect "down denied" plane set id 1 state d
expect "auto explicit generated" ev-profile add mode ""
expect "good assumed-bad denied" path set conn 1 ev 3 state ""
expect "$(cd /sys/class/net && echo l*)" plane add dev l
expect "" plane add id ""
expect "plane" stats show pl
expect "show rtt link help" telemetry ""
expect "conn plane" telemetry show ""
expect "plane" telemetry rtt ""
expect "conn plane" telemetry conn 5 ""
expect "" info now ""
expect "" nosuchobject ""

if complete -p mrcctl | grep -q -- '-F _mrcctl'; then
	mrc_lib_ok "completion: registered for mrcctl"
else
	mrc_lib_fail "completion: registered for mrcctl" "$(complete -p mrcctl 2>&1)"
fi
