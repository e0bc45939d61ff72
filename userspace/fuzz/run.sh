#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make fuzz`'s runner: each fuzz target in turn, from a scratch corpus
# under BUILD_DIR/corpus/<target> that starts as a copy of the seeds in
# userspace/fuzz/corpus (the repository's corpus is never written) and
# keeps what earlier runs found. Prints per target the executions,
# executions per second, corpus size and crashes; crash inputs land in
# BUILD_DIR/artifacts/<target>-crash-*. Exit status 1 if any target crashed.
#   run.sh BUILD_DIR [RUNS [SECS]]
# RUNS: executions per target (libFuzzer -runs, default 10000000); SECS: a
# safety limit in seconds per target (-max_total_time, default 14400).
set -u
src=$(cd "$(dirname "$0")" && pwd)
build=$1
runs=${2:-10000000}
secs=${3:-14400}

# Longest input per target: a datagram with room to spare; the options
# and 32 records of fuzz_ack or 64 of fuzz_reasm (fuzz_targets.hpp: more
# are ignored).
max_len() {
	case $1 in
	fuzz_wire) echo 1500 ;;
	*) echo 516 ;;
	esac
}

# A field of libFuzzer's -print_final_stats=1 output; after a crash,
# which skips those, the last status line's ("#N ... exec/s: R").
stat() {
	v=$(sed -n "s/^stat::$1: *//p" "$2" | tail -n 1)
	if [ -z "$v" ]; then
		case $1 in
		number_of_executed_units) v=$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$2" | tail -n 1) ;;
		*) v=$(sed -n 's/^#[0-9]*[[:space:]].* exec\/s: \([0-9]*\).*/\1/p' "$2" | tail -n 1) ;;
		esac
	fi
	echo "${v:-?}"
}

mkdir -p "$build/artifacts"
status=0
printf '%-11s %12s %9s %8s %8s\n' target executions exec/s corpus crashes
for target in fuzz_wire fuzz_ack fuzz_reasm; do
	corpus=$build/corpus/$target
	log=$build/$target.log
	mkdir -p "$corpus"
	cp "$src/corpus/$target/"* "$corpus/"
	before=$(find "$build/artifacts" -name "$target-*" | wc -l)
	# No malloc stack traces: they cost a third of the time, and a
	# crash is replayed with them anyway. The schedule favours inputs
	# that run fast (up to 30x): fuzz_ack's slowest take milliseconds.
	# A unit over 30 s is a hang; 10 s was hit by a fuzzer starved
	# behind a guest (a 0.2 s unit took 11 s at nice 19).
	ASAN_OPTIONS=malloc_context_size=0 "$build/$target" -runs="$runs" \
		-max_total_time="$secs" -max_len="$(max_len "$target")" \
		-entropic_scale_per_exec_time=1 -reload=0 -timeout=30 \
		-print_final_stats=1 \
		-artifact_prefix="$build/artifacts/$target-" "$corpus" >"$log" 2>&1
	rc=$?
	crashes=$(($(find "$build/artifacts" -name "$target-*" | wc -l) - before))
	printf '%-11s %12s %9s %8s %8s\n' "$target" \
		"$(stat number_of_executed_units "$log")" \
		"$(stat average_exec_per_sec "$log")" \
		"$(find "$corpus" -type f | wc -l)" "$crashes"
	if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
		status=1
		echo "$target failed (exit $rc); the end of $log:" >&2
		tail -n 30 "$log" >&2
	fi
done
exit $status
