// SPDX-License-Identifier: GPL-2.0
// Carries out the policy's actions through mrc::Control: marks paths
// ASSUMED_BAD (the module then steers around them and probes them back)
// and takes planes administratively down and up.
#pragma once

#include <cstddef>

#include "mrc/control.hpp"
#include "policy.hpp"

namespace mrcd {

// Returns how many paths changed state (0 for kPlaneDown and kPlaneUp).
// A connection or EV that is gone by now (ENOENT) is not a failure; other
// kernel errors propagate as mrc::Error naming the action.
std::size_t Execute(mrc::Control& ctl, const Action& action);

}  // namespace mrcd
