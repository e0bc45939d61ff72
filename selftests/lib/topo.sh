# SPDX-License-Identifier: GPL-2.0
# Test topologies inside a guest (sourced; bash). Everything lives in
# network namespaces named "$TOPO_PREFIX-*" (default prefix "mrc") and
# goes away with topo_cleanup (safe to call twice; callers trap it on EXIT).
#
# Hosts are "a" and "b". On both topologies plane p is the netdev pl<p> of
# each host with 10.(100+p).0.1/24 on a and .2 on b, so a test can switch
# topologies without changing addresses.
#
#   topo_two_hosts N         a and b joined by N veth pairs (one per plane),
#                            also IPv6 fd00:(100+p)::1 and ::2 /64
#   topo_fabric N [L] [S]    per plane a two-tier Clos of namespace routers:
#                            a hangs off leaf 0, b off leaf L-1, every leaf
#                            links to every spine; routes are ECMP with the
#                            L4 hash (fib_multipath_hash_policy=1), so the
#                            UDP source port (the EV) picks the spine
#   topo_shape P NETEM...    netem on both host ends of plane P (delay,
#                            loss, reorder, duplicate, corrupt, rate ...)
#   topo_unshape P
#   topo_link P up|down      both host ends of plane P (a cable pull)
#   topo_flap P MS COUNT     background: plane P down/up every MS ms, COUNT
#                            times; topo_flap_stop ends it early
#   topo_spine_link P L S up|down
#                            black-holes (100% loss both ways) the link
#                            between leaf L and spine S of plane P. A dead
#                            carrier would make Linux skip the nexthop at
#                            once; a silent black hole is the failure MRC
#                            has to detect by itself
#   topo_link_packets P L S  packets sent over that leaf-spine link so far
#   topo_ns H / topo_exec H CMD...
set -u

TOPO_PREFIX=${TOPO_PREFIX:-mrc}
TOPO_FLAP_PID=""

topo_err() { echo "topo: $*" >&2; return 1; }
topo_ns() { echo "$TOPO_PREFIX-$1"; }
topo_exec() { local h=$1; shift; ip netns exec "$(topo_ns "$h")" "$@"; }
topo_addr() { echo "10.$((100 + $2)).0.$([ "$1" = a ] && echo 1 || echo 2)"; }

topo_cleanup() {
	local ns
	topo_flap_stop
	for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }' |
		    grep "^$TOPO_PREFIX-"); do
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}

topo_new_ns() {
	ip netns add "$(topo_ns "$1")" || topo_err "cannot create netns $1" ||
		return 1
	topo_exec "$1" ip link set lo up
}

# $1 $2: namespaces, $3 $4: interface names in them
topo_veth() {
	ip link add "$3" netns "$(topo_ns "$1")" type veth \
		peer name "$4" netns "$(topo_ns "$2")" ||
		topo_err "veth $1/$3 - $2/$4" || return 1
	topo_exec "$1" ip link set "$3" up && topo_exec "$2" ip link set "$4" up
}

# Plane $1's veth pair between hosts a and b, with its addresses.
topo_plane_link() {
	local p=$1
	topo_veth a b "pl$p" "pl$p" &&
	topo_exec a ip addr add "10.$((100 + p)).0.1/24" dev "pl$p" &&
	topo_exec b ip addr add "10.$((100 + p)).0.2/24" dev "pl$p" &&
	topo_exec a ip addr add "fd00:$((100 + p))::1/64" dev "pl$p" nodad &&
	topo_exec b ip addr add "fd00:$((100 + p))::2/64" dev "pl$p" nodad
}

topo_two_hosts() {
	local n=$1 p
	topo_new_ns a && topo_new_ns b || return 1
	for ((p = 0; p < n; p++)); do
		topo_plane_link "$p" || return 1
	done
}

topo_router() {
	topo_new_ns "$1" || return 1
	topo_exec "$1" sysctl -qw net.ipv4.ip_forward=1 \
		net.ipv4.fib_multipath_hash_policy=1
}

# Host $1 (a|b) on plane $2 hangs off router $3 with a routed /32.
topo_attach_host() {
	local h=$1 p=$2 r=$3 ip
	ip=$(topo_addr "$h" "$p")
	topo_veth "$h" "$r" "pl$p" "h$h" || return 1
	topo_exec "$h" ip addr add "$ip/32" dev "pl$p" &&
	topo_exec "$h" ip route add "10.$((100 + p)).0.0/24" dev "pl$p" &&
	topo_exec "$r" sysctl -qw "net.ipv4.conf.h$h.proxy_arp=1" &&
	topo_exec "$r" ip route add "$ip/32" dev "h$h"
}

# Leaf $3 of plane $1 reaches host address $2 through every spine.
topo_ecmp() {
	local p=$1 dst=$2 l=$3 nspines=$4 s hops=()
	for ((s = 0; s < nspines; s++)); do
		hops+=(nexthop via "172.$((16 + p)).$((l * 16 + s)).1")
	done
	topo_exec "p$p-l$l" ip route add "$dst/32" "${hops[@]}"
}

topo_fabric() {
	local n=$1 nl=${2:-2} ns=${3:-2} p l s last
	last=$((nl - 1))
	topo_new_ns a && topo_new_ns b || return 1
	for ((p = 0; p < n; p++)); do
		for ((l = 0; l < nl; l++)); do topo_router "p$p-l$l" || return 1; done
		for ((s = 0; s < ns; s++)); do topo_router "p$p-s$s" || return 1; done
		topo_attach_host a "$p" "p$p-l0" &&
		topo_attach_host b "$p" "p$p-l$last" || return 1
		for ((l = 0; l < nl; l++)); do
			for ((s = 0; s < ns; s++)); do
				topo_veth "p$p-l$l" "p$p-s$s" "s$s" "l$l" &&
				topo_exec "p$p-l$l" ip addr add \
					"172.$((16 + p)).$((l * 16 + s)).0/31" dev "s$s" &&
				topo_exec "p$p-s$s" ip addr add \
					"172.$((16 + p)).$((l * 16 + s)).1/31" dev "l$l" ||
					return 1
			done
		done
		# Spines know where each host's leaf is.
		for ((s = 0; s < ns; s++)); do
			topo_exec "p$p-s$s" ip route add "$(topo_addr a "$p")/32" \
				via "172.$((16 + p)).$((s)).0" &&
			topo_exec "p$p-s$s" ip route add "$(topo_addr b "$p")/32" \
				via "172.$((16 + p)).$((last * 16 + s)).0" || return 1
		done
		topo_ecmp "$p" "$(topo_addr b "$p")" 0 "$ns" &&
		topo_ecmp "$p" "$(topo_addr a "$p")" "$last" "$ns" || return 1
	done
}

topo_shape() {
	local p=$1 h
	shift
	for h in a b; do
		topo_exec "$h" tc qdisc replace dev "pl$p" root netem "$@" ||
			topo_err "netem $* on plane $p" || return 1
	done
}

topo_unshape() {
	local h
	for h in a b; do
		topo_exec "$h" tc qdisc del dev "pl$1" root 2>/dev/null
	done
	return 0
}

topo_link() {
	local h
	for h in a b; do
		topo_exec "$h" ip link set "pl$1" "$2" || return 1
	done
}

topo_flap() {
	local p=$1 ms=$2 count=$3
	(
		for ((i = 0; i < count; i++)); do
			topo_link "$p" down
			sleep "$(printf '0.%03d' "$ms")"
			topo_link "$p" up
			sleep "$(printf '0.%03d' "$ms")"
		done
	) &
	TOPO_FLAP_PID=$!
	echo "$TOPO_FLAP_PID"
}

topo_flap_stop() {
	[ -n "${TOPO_FLAP_PID:-}" ] || return 0
	kill "$TOPO_FLAP_PID" 2>/dev/null
	wait "$TOPO_FLAP_PID" 2>/dev/null
	TOPO_FLAP_PID=""
	return 0
}

topo_spine_link() {
	local p=$1 l=$2 s=$3 how=$4
	if [ "$how" = down ]; then
		topo_exec "p$p-l$l" tc qdisc replace dev "s$s" root netem loss 100% &&
		topo_exec "p$p-s$s" tc qdisc replace dev "l$l" root netem loss 100%
	else
		topo_exec "p$p-l$l" tc qdisc del dev "s$s" root 2>/dev/null
		topo_exec "p$p-s$s" tc qdisc del dev "l$l" root 2>/dev/null
		return 0
	fi
}

topo_link_packets() {
	topo_exec "p$1-l$2" cat "/sys/class/net/s$3/statistics/tx_packets"
}
