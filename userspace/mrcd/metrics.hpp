// SPDX-License-Identifier: GPL-2.0
// mrcd's /metrics page in the Prometheus text exposition format 0.0.4:
// the eBPF telemetry maps per path, plane and link, the planes' state
// from netlink, and the daemon's own counters.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "mrc/telemetry.hpp"
#include "mrc/types.hpp"

namespace mrcd {

struct DaemonCounters {
  std::map<std::string, std::uint64_t> alarms{};   // kind -> count
  std::map<std::string, std::uint64_t> actions{};  // kind -> count
  std::uint64_t paths_changed = 0;                 // paths the actions marked bad
  std::uint64_t reloads_ok = 0;
  std::uint64_t reloads_failed = 0;
  std::uint64_t planes_held_down = 0;  // a gauge
};

struct MetricsSnapshot {
  mrc::TelemetrySnapshot telemetry{};
  std::vector<mrc::Plane> planes{};  // from DumpPlanes(): state, ifname
  DaemonCounters daemon{};
};

inline constexpr std::string_view kMetricsContentType = "text/plain; version=0.0.4";

// A label value with backslash, double quote and newline escaped.
std::string EscapeLabelValue(std::string_view value);

// The whole page. Families without samples are left out, except the
// daemon's own, which always appear.
std::string FormatMetrics(const MetricsSnapshot& snapshot);

}  // namespace mrcd
