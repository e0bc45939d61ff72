# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Soft-RoCE (rdma_rxe) on plane 0 of hosts a and b, measured with
# perftest's ib_write_bw (sourced by bench/guest.sh). RoCE has one path,
# so it only runs where one path is the question (P1's single-plane row).

# The GID index of RDMA device $1 that carries IPv4 address $2 (RoCE v2).
rxe_gid_index() {
	local dev=$1 hex gid
	hex=$(printf '%02x%02x:%02x%02x' ${2//./ })
	for gid in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		grep -q "ffff:$hex\$" "$gid" 2> /dev/null && { basename "$gid"; return 0; }
	done
	return 1
}

# ib_write_bw from a to b over plane 0 for $SECS; recorded in scenario
# $1 against limit $2. A guest without rdma_rxe records nothing and says
# why.
bench_rxe() {
	local scen=$1 limit=$2 ga gb spid bw c0 c1
	if ! modprobe rdma_rxe 2> "$work/rxe.err"; then
		echo "  rxe: rdma_rxe does not load: $(cat "$work/rxe.err")"
		return 0
	fi
	topo_exec a rdma link add rxea type rxe netdev pl0 &&
		topo_exec b rdma link add rxeb type rxe netdev pl0 || return 0
	sleep 1
	ga=$(rxe_gid_index rxea "$(topo_addr a 0)") gb=$(rxe_gid_index rxeb "$(topo_addr b 0)")
	if [ -z "$ga" ] || [ -z "$gb" ]; then
		echo "  rxe: no RoCE v2 GID for the plane addresses"
		rxe_cleanup
		return 0
	fi
	topo_exec b ib_write_bw -d rxeb -x "$gb" -D "$SECS" -F --report_gbits \
		> "$work/rxe.server" 2>&1 &
	spid=$!
	sleep 1
	c0=$(bench_cpu_sample)
	topo_exec a ib_write_bw -d rxea -x "$ga" -D "$SECS" -F --report_gbits "$PEER" \
		> "$work/rxe.client" 2>&1
	c1=$(bench_cpu_sample)
	wait "$spid"
	# The result row: bytes iterations BW-peak BW-average MsgRate.
	bw=$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { v = $4 } END { if (v != "") print v * 1000 }' \
		"$work/rxe.client")
	[ -n "$bw" ] || sed 's/^/  rxe: /' "$work/rxe.client" | tail -5
	bench_record "$scen" rxe goodput "$(bench_num "$bw")" Mbit/s "$limit" \
		"$(bench_cpu_busy "$c0" "$c1")"
	rxe_cleanup
}

rxe_cleanup() {
	topo_exec a rdma link del rxea 2> /dev/null
	topo_exec b rdma link del rxeb 2> /dev/null
	return 0
}
