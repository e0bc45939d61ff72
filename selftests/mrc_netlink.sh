#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrcctl against the kernel's generic netlink family, in the guest: every
# command, its error paths and extack texts, privileges, netns isolation,
# planes following their netdev, and the event stream. TAP output.
#
#   ns "mrcnl-XXXX"                         ns "mrcnl-other-XXXX"
#   +-----------------------------------+   +------------------+
#   | va0 10.0.0.1 <--veth--> vb0       |   |  (no planes)     |
#   | va1 10.0.1.1 <--veth--> vb1       |   +------------------+
#   +-----------------------------------+
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"
MRCCTL=${MRCCTL:-$src/build/userspace/mrcctl/mrcctl}
sfx=$(mktemp -u XXXXXX)
ns=mrcnl-$sfx
ns_other=mrcnl-other-$sfx
out=$(mktemp)
err=$(mktemp)
events=$(mktemp)
monitor_pid=

cleanup() {
	[ -z "$monitor_pid" ] || kill "$monitor_pid" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	ip netns del "$ns_other" 2>/dev/null
	rm -f "$out" "$err" "$events"
}
trap cleanup EXIT

# $1..: mrcctl arguments, run in $ns; output in $out/$err, returns status
mrc_lib_ctl() { ip netns exec "$ns" "$MRCCTL" "$@" > "$out" 2> "$err"; }

# $1: name, $2: expected status, $3: extended regex expected on stderr,
# $4..: mrcctl arguments
mrc_lib_expect_fail() {
	local name=$1 want=$2 re=$3 rc
	shift 3
	mrc_lib_ctl "$@"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -Eq "$re" "$err"; then
		mrc_lib_ok "$name"
	else
		mrc_lib_fail "$name" "mrcctl $* -> status $rc, stderr: $(head -c 300 "$err")"
	fi
}

# $1: name, $2: jq filter that must print true, $3..: mrcctl arguments
mrc_lib_expect_json() {
	local name=$1 filter=$2
	shift 2
	if mrc_lib_ctl -j "$@" && [ "$(jq -c "$filter" < "$out" 2>/dev/null)" = true ]; then
		mrc_lib_ok "$name"
	else
		mrc_lib_fail "$name" "mrcctl -j $* | jq '$filter' is not true: $(head -c 400 "$out") $(head -c 200 "$err")"
	fi
}

# $1: name, $2: jq filter over the event lines (slurped) that must be true
mrc_lib_expect_event() {
	local i
	for i in $(seq 50); do
		[ "$(jq -s -c "$2" < "$events" 2>/dev/null)" = true ] && break
		sleep 0.1
	done
	if [ "$(jq -s -c "$2" < "$events" 2>/dev/null)" = true ]; then
		mrc_lib_ok "$1"
	else
		mrc_lib_fail "$1" "events: $(tail -c 600 "$events")"
	fi
}

echo "TAP version 13"
grep -qw mrc /proc/modules || insmod "${MRC_KO:-$src/kernel/mrc.ko}"
ip netns add "$ns"
ip netns add "$ns_other"
for i in 0 1; do
	ip -n "$ns" link add "va$i" type veth peer name "vb$i"
	ip -n "$ns" addr add "10.0.$i.1/24" dev "va$i"
	ip -n "$ns" link set "va$i" up
	ip -n "$ns" link set "vb$i" up
done

ip netns exec "$ns" "$MRCCTL" -j monitor > "$events" 2>/dev/null &
monitor_pid=$!

# --- info
mrc_lib_expect_json "info reports the live family and limits" \
	".family == $(cat /sys/module/mrc/parameters/family) and .[\"max-planes\"] == 16" info

# --- planes
mrc_lib_check "plane add dev va0 addr 10.0.0.1" mrc_lib_ctl plane add dev va0 addr 10.0.0.1
mrc_lib_expect_json "plane show returns the plane as JSON" \
	'length == 1 and .[0].dev == "va0" and .[0].addr == "10.0.0.1" and .[0].state == "up" and .[0].port == 4797 and .[0].weight == 100' \
	plane show
mrc_lib_expect_event "monitor saw plane-new" \
	'any(.[]; .event == "plane-new" and .plane.dev == "va0")'
mrc_lib_expect_fail "plane add dev nosuch fails clearly" 1 'Cannot find device "nosuch"' \
	plane add dev nosuch
mrc_lib_expect_fail "same device twice is refused by the kernel" 2 'device is already a plane' \
	plane add dev va0
mrc_lib_expect_fail "same address twice is refused" 2 'address is already used by another plane' \
	plane add dev va1 addr 10.0.0.1
mrc_lib_expect_fail "MTU above the device's is refused" 2 "MTU is larger than the device's MTU" \
	plane add dev va1 mtu 9000
mrc_lib_expect_fail "out-of-range weight is a usage error" 1 'weight' \
	plane add dev va1 weight 100000
mrc_lib_expect_fail "unknown keyword is a usage error" 1 'Error' \
	plane add dev va1 colour blue
mrc_lib_check "plane add with IPv6, port, weight, id" \
	mrc_lib_ctl plane add dev va1 id 3 addr 10.0.1.1 addr fd00::1 port 5000 weight 300
mrc_lib_expect_json "second plane shows every setting" \
	'map(select(.id == 3))[0] | .addr6 == "fd00::1" and .port == 5000 and .weight == 300 and .link == "up"' \
	plane show
mrc_lib_expect_fail "plane id in use is refused" 2 'plane id is already in use' \
	plane add dev vb0 id 3
mrc_lib_check "plane set state down" mrc_lib_ctl plane set 3 state down
mrc_lib_expect_json "state down is shown" 'map(select(.id == 3))[0].state == "down"' plane show
mrc_lib_expect_event "monitor saw plane-down (admin)" \
	'any(.[]; .event == "plane-down" and .plane.id == 3 and .reason == "admin")'
mrc_lib_check "plane set state up" mrc_lib_ctl plane set 3 state up
mrc_lib_expect_event "monitor saw plane-up" 'any(.[]; .event == "plane-up" and .plane.id == 3)'
mrc_lib_expect_fail "deleting a missing plane names it" 2 'no such plane' plane del 9

# --- privileges and namespaces
unpriv="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
# shellcheck disable=SC2086
if ip netns exec "$ns" $unpriv "$MRCCTL" plane add dev vb0 > "$out" 2> "$err"; then
	mrc_lib_fail "unprivileged plane add is refused" "it succeeded"
else
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "Operation not permitted" "$err"; then
		mrc_lib_ok "unprivileged plane add is refused"
	else
		mrc_lib_fail "unprivileged plane add is refused" "status $rc: $(cat "$err")"
	fi
fi
mrc_lib_check "unprivileged users may read" \
	bash -c "ip netns exec $ns $unpriv $MRCCTL plane show | grep -q va0"
mrc_lib_check "planes are invisible in another namespace" \
	bash -c "[ \"\$(ip netns exec $ns_other $MRCCTL -j plane show | jq length)\" = 0 ]"

# --- planes follow their netdev
ip -n "$ns" link set vb1 down
mrc_lib_expect_event "carrier loss takes the plane down (reason link)" \
	'any(.[]; .event == "plane-down" and .plane.id == 3 and .reason == "link")'
mrc_lib_expect_json "link down is shown" 'map(select(.id == 3))[0].link == "down"' plane show
ip -n "$ns" link set vb1 up
mrc_lib_expect_event "carrier back brings it up" \
	'[.[] | select(.event == "plane-up" and .plane.id == 3)] | length >= 2'
mrc_lib_check "removing the netdev under a plane returns promptly" \
	timeout 20 ip -n "$ns" link del va1
mrc_lib_expect_json "the plane went with its netdev" 'map(select(.id == 3)) | length == 0' plane show
mrc_lib_expect_event "monitor saw plane-del (netdev-gone)" \
	'any(.[]; .event == "plane-del" and .plane.id == 3 and .reason == "netdev-gone")'
mrc_lib_expect_json "stats count the netdev removal" '.global.PlaneNetdevGone == 1' stats

# --- EV profiles (OCP state machine)
mrc_lib_check "generated EV profile goes ONLINE in one request" \
	mrc_lib_ctl ev-profile add id 1 mode generated count 128 min-active 64 events good,assumed-bad seed 7 state online
mrc_lib_expect_json "its 128 EVs are distinct" \
	'.[0] | (.evs | length) == 128 and ([.evs[].ev] | unique | length) == 128 and .state == "online"' \
	ev-profile show 1
mrc_lib_expect_fail "INIT needs mode and count to go OFFLINE" 2 'needs mode and count' \
	ev-profile add id 2 state offline
mrc_lib_check "explicit profile to OFFLINE" \
	mrc_lib_ctl ev-profile add id 3 mode explicit count 4 min-active 2 events assumed-bad,denied state offline
mrc_lib_expect_fail "ONLINE needs every explicit slot" 2 'every explicit EV slot' \
	ev-profile set 3 state online
mrc_lib_check "explicit EVs listed" mrc_lib_ctl ev-profile set 3 evs 100,200,300,400
mrc_lib_check "explicit profile ONLINE" mrc_lib_ctl ev-profile set 3 state online
mrc_lib_check "EV 100 denied" mrc_lib_ctl ev-profile set 3 ev 100 ev-state denied
mrc_lib_expect_event "monitor saw the EV state change" \
	'any(.[]; .event == "ev-state" and .path.ev == 100 and .path.state == "denied")'
mrc_lib_check "EV 200 assumed bad" mrc_lib_ctl ev-profile set 3 ev 200 ev-state assumed-bad
mrc_lib_expect_fail "ev_min_active stops a third" 2 'fewer GOOD EVs than ev_min_active' \
	ev-profile set 3 ev 300 ev-state denied
mrc_lib_expect_fail "ONLINE profile cannot change count" 2 'ONLINE' \
	ev-profile set 3 count 8
mrc_lib_expect_fail "ONLINE profile cannot be deleted" 2 'take it OFFLINE first' \
	ev-profile del 3
mrc_lib_expect_event "monitor saw profile state changes" \
	'any(.[]; .event == "profile-state" and .["ev-profile"].id == 3 and .["ev-profile"].state == "online")'
mrc_lib_check "back to INIT, then deleted" \
	bash -c "ip netns exec $ns $MRCCTL ev-profile set 3 state init && ip netns exec $ns $MRCCTL ev-profile del 3"
mrc_lib_expect_fail "deleted profile is gone" 2 'no such profile' ev-profile show 3

# --- CC profiles
mrc_lib_expect_fail "unknown algorithm is refused" 1 'algorithm "cubic" is not one of' \
	cc-profile add algorithm cubic
mrc_lib_expect_fail "ONLINE needs parameters" 2 'needs its parameters' \
	cc-profile add id 1 algorithm nscc state online
mrc_lib_expect_fail "target delay below base RTT is refused" 1 'target-delay 10000 is below base-rtt 20000' \
	cc-profile add algorithm nscc base-rtt 20000 target-delay 10000
mrc_lib_check "NSCC profile OFFLINE with parameters" \
	mrc_lib_ctl cc-profile add id 5 algorithm nscc base-rtt 9000 target-delay 12000 state offline
mrc_lib_expect_fail "kernel keeps target delay >= base RTT on change" 2 \
	'target_delay must not be below base_rtt' cc-profile set 5 base-rtt 90000
mrc_lib_check "NSCC profile ONLINE with parameters" \
	mrc_lib_ctl cc-profile add id 2 algorithm nscc base-rtt 8000 target-delay 12000 eta 0.2 state online
mrc_lib_expect_json "NSCC parameters read back" \
	'map(select(.id == 2))[0] | .state == "online" and .["base-rtt"] == 8000 and .eta == 0.2' cc-profile show

# --- connections and paths (none exist yet)
mrc_lib_expect_json "conn show lists no connections" 'length == 0' conn show
mrc_lib_expect_fail "paths of a missing connection" 2 'no such connection' path show conn 1
mrc_lib_expect_fail "path set on a missing connection" 2 'no such connection' \
	path set conn 1 ev 5 state denied

# --- stats
mrc_lib_expect_json "stats -s shows zero counters too" \
	'(.global | has("SockInUse") and has("SockCreate")) and (.planes[0].stats | has("PlaneRxDrop"))' -s stats

# --- monitor ends cleanly
kill -TERM "$monitor_pid"
wait "$monitor_pid"
rc=$?
monitor_pid=
mrc_lib_check "monitor exits 0 on SIGTERM" test "$rc" -eq 0

# --- module unload with planes configured
mrc_lib_check "rmmod with a configured plane" rmmod mrc
mrc_lib_check "its netdev is free afterwards" timeout 20 ip -n "$ns" link del va0
mrc_lib_check "module loads again" insmod "${MRC_KO:-$src/kernel/mrc.ko}"
exit 0
