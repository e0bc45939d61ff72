# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # work, RATE, SECS ... are the caller's
# Results of the benchmark scenarios (sourced by bench/guest.sh): one JSON
# record a line in $BENCH_OUT/records.jsonl, the form results.json keeps:
#   {"scenario", "system", "metric", "value", "unit", "limit", "cpu"}
# `limit` is the reference the scenario's goal divides by (null: none);
# `cpu` the guest's busy share during the run (null: not measured).

# record SCENARIO SYSTEM METRIC VALUE UNIT LIMIT [CPU]
bench_record() {
	local cpu=${7:-null}
	jq -n -c --arg s "$1" --arg sys "$2" --arg m "$3" --arg u "$5" \
		--argjson v "${4:-null}" --argjson l "${6:-null}" --argjson c "${cpu:-null}" \
		'{scenario: $s, system: $sys, metric: $m, value: $v, unit: $u, limit: $l, cpu: $c}' \
		>> "$BENCH_OUT/records.jsonl"
	printf '  %-4s %-6s %-14s %10s %-6s limit %s\n' "$1" "$2" "$3" "${4:-null}" "$5" "${6:-null}"
}

# A number for jq --argjson: "" and non-numbers become null.
# Six significant digits are plenty for figures this noisy.
bench_num() {
	[[ $1 =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]] && printf '%.6g\n' "$1" || echo null
}

# The progress line: which scenario runs now.
bench_progress() {
	BENCH_STEP=$((BENCH_STEP + 1))
	printf '\n#### bench [%d/%d] %s (%s)\n' "$BENCH_STEP" "$BENCH_STEPS" "$1" "$(date +%T)"
}
