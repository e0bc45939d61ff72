#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`, simulation rows: mrc-netsim (userspace/sim/, the module's
# protocol core on a simulated leaf/spine cluster) runs the scenarios
# issue 25 sets targets for, seeds 1 and 2, on the host; each becomes a
# record of records.jsonl beside the guest's, so bench/report.py puts
# simulation and guest in one table. The value is the worse seed's
# completion over the ideal time (the targets hold for each seed); the
# record's "seeds" field keeps both.
#   bench/sim.sh BENCH_DIR [MRC_NETSIM]
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?usage: bench/sim.sh BENCH_DIR [MRC_NETSIM]}
sim=${2:-$src/build/userspace/sim/mrc-netsim}
SCENARIOS=(smoke uneven-planes plane-failure permutation spine-failure gray-failure
	link-flap incast trimming allreduce-ring oversubscribed all-to-all-loaded)
SEEDS=(1 2)

if [ ! -x "$sim" ]; then
	echo "bench/sim.sh: $sim is missing (make userspace)" >&2
	exit 1
fi
mkdir -p "$out"
rc=0
for sc in "${SCENARIOS[@]}"; do
	ratios=()
	for seed in "${SEEDS[@]}"; do
		# The summary line ends its completion with "(1.23x)".
		line=$("$sim" --scenario "$sc" --seed "$seed" 2> /dev/null)
		r=$(grep -o '([0-9.]*x)' <<< "$line" | tr -d '()x')
		if [ -z "$r" ]; then
			echo "bench/sim.sh: $sc seed $seed: no result: $line" >&2
			rc=1
			continue
		fi
		ratios+=("$r")
	done
	[ "${#ratios[@]}" -gt 0 ] || continue
	printf '%s\n' "${ratios[@]}" | jq -s -c --arg s "sim:$sc" \
		'{scenario: $s, system: "mrc", metric: "completion", value: max,
		  unit: "x ideal", limit: 1, cpu: null, seeds: .}' >> "$out/records.jsonl"
	printf '  sim:%-18s completion / ideal, seeds %s: %s\n' "$sc" "${SEEDS[*]}" "${ratios[*]}"
done
exit "$rc"
