#!/bin/bash
# Run one TAP-producing guest script for `make stress` / `make soak`:
#   scripts/guest-tap.sh NAME TIMEOUT CMD [ARG...]
# The guest's TAP goes to the terminal and to build/results/NAME.tap; the
# exit status is non-zero when a test failed, the guest failed or timed
# out, or its kernel log showed a WARN/BUG/oops (vm-test/run's status 3).
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 3 ] || { echo "usage: $0 NAME TIMEOUT CMD [ARG...]" >&2; exit 2; }
name=$1 timeout=$2
shift 2
mkdir -p "$src/build/results"
tap=$src/build/results/$name.tap
"$src/vm-test/run" --timeout "$timeout" -o "$src/build/vm/$name" -- "$@" | tee "$tap"
rc=${PIPESTATUS[0]}
"$src/selftests/lib/tap-summary" "$tap" || exit 1
[ "$rc" = 0 ] || { echo "$name: the guest run failed with status $rc" >&2; exit 1; }
