# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers shared by the data-path tests (sourced). The caller sets PLANES
# and defines dp_link P up|down for its own kind of plane link.

# Every plane's link up or down: $1 up|down.
mrc_dp_all_links() {
	local p
	for ((p = 0; p < PLANES; p++)); do dp_link "$p" "$1" || return 1; done
}

# A fault: one second in, every plane down for two seconds, then back.
mrc_dp_all_planes_blink() {
	sleep 1
	mrc_dp_all_links down
	sleep 2
	mrc_dp_all_links up
}

# mrcperf -J reports $@ show every byte intact and no error.
mrc_dp_intact() {
	local json
	for json in "$@"; do
		jq -e '.mismatches == 0 and .error == null' "$json" > /dev/null || return 1
	done
}

# mrcperf -J report $1 ended in ETIMEDOUT.
mrc_dp_timed_out() { jq -e '.error | test("timed out")' "$1" > /dev/null; }

# No connection and no AF_MRC socket left on either host 10 s after its
# programs ended (a finished connection lingers half a second): one
# left past that holds its socket, and the socket the module, for as
# long as its peer stays silent. Says what is left, while the
# namespaces still exist to be asked.
# shellcheck disable=SC2016 # awk's own $1 and $3
mrc_dp_sockets() { topo_exec "$1" awk '$1 == "MRC" { print $3 }' /proc/net/protocols; }
mrc_dp_nothing_left() {
	local h i n
	for ((i = 0; i < 10; i++)); do
		n=0
		for h in a b; do
			n=$((n + $(topo_exec "$h" "$MRCCTL" -j conn show | jq length) +
			     $(mrc_dp_sockets "$h")))
		done
		[ "$n" = 0 ] && return 0
		sleep 1
	done
	for h in a b; do
		echo "# host $h: $(mrc_dp_sockets "$h") AF_MRC sockets; connections:"
		topo_exec "$h" "$MRCCTL" -s conn show | sed 's/^/#   /'
	done
	return 1
}

# Lingering connections finish (a closed connection delivers what it
# holds, an orphan waits at most 0.5 s for a last FIN): then nothing may
# hold the module.
mrc_dp_module_unused() {
	local i
	for ((i = 0; i < 40; i++)); do
		[ "$(cat /sys/module/mrc/refcnt)" = 0 ] && return 0
		sleep 1
	done
	echo "# mrc.ko still has $(cat /sys/module/mrc/refcnt) users"
	return 1
}

# Planes on both hosts, same ids on both sides: plane p is pl<p>, for p
# below the caller's PLANES.
mrc_dp_planes_up() {
	local h p
	for h in a b; do
		for ((p = 0; p < PLANES; p++)); do
			topo_exec "$h" "$MRCCTL" plane add dev "pl$p" id "$p" ||
				return 1
		done
	done
}

# A transfer left running: server on host b, client on host a sending to
# $PEER:$1 for $2 seconds. Sets MRC_DP_SPID and MRC_DP_CPID (the mrcperf
# processes themselves: ip netns exec execs); both write their output to
# $MRC_DP_BG_OUT.{server,client}, for mrc_dp_background_said.
# shellcheck disable=SC2034 # MRC_DP_*PID are for the caller
mrc_dp_background() {
	MRC_DP_BG_OUT=$(mktemp /tmp/mrc-bg.XXXXXX)
	ip netns exec "$(topo_ns b)" "$MRCPERF" -s -1 -p "$1" > "$MRC_DP_BG_OUT.server" 2>&1 &
	MRC_DP_SPID=$!
	sleep 0.3
	ip netns exec "$(topo_ns a)" "$MRCPERF" -c "$PEER" --wait-server 10000 -p "$1" -t "$2" \
		> "$MRC_DP_BG_OUT.client" 2>&1 &
	MRC_DP_CPID=$!
}

# What the background transfer's ends printed so far (the last lines), as
# comments: why a connection a check expected is gone.
mrc_dp_background_said() {
	local end
	for end in client server; do
		tail -n 3 "$MRC_DP_BG_OUT.$end" 2> /dev/null | sed "s/^/# background $end: /"
	done
}

# Host a's established connection to server port $1 that carries data:
# its id, once there is one (up to 10 s). Ids are random tokens, so the
# dump order means nothing: a refused attempt that still lingers (a slow
# guest's server was not listening yet) is told apart by its state.
mrc_dp_conn_id() {
	local i id
	for ((i = 0; i < 50; i++)); do
		for id in $(topo_exec a "$MRCCTL" -j conn show |
			jq ".[] | select(.\"peer-port\" == $1 and .state == \"established\") | .id"); do
			[ "$(topo_exec a "$MRCCTL" -j path show conn "$id" 2> /dev/null | jq length)" -gt 0 ] 2> /dev/null &&
				{ echo "$id"; return 0; }
		done
		sleep 0.2
	done
	return 1
}
