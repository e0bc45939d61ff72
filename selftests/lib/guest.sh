# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The common start of the two-host guest tests (sourced once $src is the
# tree): the TAP, topology and data-path helpers, and the built tools
# (MRC_USERSPACE overrides where they are).
# shellcheck disable=SC2034,SC2154 # src is the caller's; build, MRCCTL, MRCPERF are for it
build=$src/build
# shellcheck source=selftests/lib/tap.sh
. "$src/selftests/lib/tap.sh"
# shellcheck source=selftests/lib/topo.sh
. "$src/selftests/lib/topo.sh"
# shellcheck source=selftests/lib/dp.sh
. "$src/selftests/lib/dp.sh"

us=${MRC_USERSPACE:-$build/userspace}
MRCCTL=$us/mrcctl/mrcctl
MRCPERF=$us/mrcperf/mrcperf
