# SPDX-License-Identifier: GPL-2.0
# TAP helpers for MRC test scripts (sourced). Results are plain TAP lines
# ("ok N name", "not ok N name", "ok N name # SKIP why") that
# selftests/lib/tap-summary counts.

MRC_TAP_N=0

# $1: test name
mrc_lib_ok() { MRC_TAP_N=$((MRC_TAP_N + 1)); echo "ok $MRC_TAP_N $1"; }

# $1: test name, $2: why it failed
mrc_lib_fail() {
	MRC_TAP_N=$((MRC_TAP_N + 1))
	echo "not ok $MRC_TAP_N $1"
	[ -z "${2:-}" ] || echo "# $2"
}

# $1: test name, $2..: command; ok when the command succeeds
mrc_lib_check() {
	local name=$1
	shift
	if "$@"; then mrc_lib_ok "$name"; else mrc_lib_fail "$name" "failed: $*"; fi
}

# Run a TAP-producing program; a crash or non-zero exit with no failing
# result line still counts as a failure.
# $1: name, $2..: command
mrc_lib_run_tap() {
	local name=$1 out rc start=$SECONDS
	shift
	echo "# ---- $name"
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	# make check must stay under CI's budget: say where the time goes.
	echo "# ---- $name: $((SECONDS - start)) s"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out"; then
		mrc_lib_fail "$name" "$name exited with status $rc and reported no failing test"
	fi
	rm -f "$out"
	return "$rc"
}
