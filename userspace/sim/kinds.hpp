// SPDX-License-Identifier: GPL-2.0
// The kinds of events the simulator schedules, and what a and b carry.
#pragma once

#include <cstdint>

namespace mrc_sim {

enum EventKind : uint32_t {
  kEvArrive = 1,  // a: link, b: packet: it reached the link's far end
  kEvTimer,       // a: endpoint, b: arming generation: the core's timer
  kEvApp,         // a: endpoint: the application's turn (send, read, close)
  kEvAction,      // a: scenario action index: a failure or repair
  kEvFlowStart,   // a: flow index: open its connection
  kEvTxReady,     // a: endpoint: its NIC queue drained (tx_busy())
};

}  // namespace mrc_sim
