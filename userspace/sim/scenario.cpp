// SPDX-License-Identifier: GPL-2.0
// Built-in scenarios of scenario.hpp.
#include "scenario.hpp"

#include <algorithm>

namespace mrc_sim {

const std::vector<ScenarioInfo>& Scenarios() {
  static const std::vector<ScenarioInfo> list = {
      {"smoke", "2 hosts x 4 planes, a 4 MiB permutation, no failure"},
      {"plane-failure",
       "2 hosts x 4 planes, 64 MiB each way; host 1's port on plane 1 dies at 200 us and "
       "returns at 500 us"},
      {"spine-failure",
       "16 hosts x 4 planes (4 leaves, 4 spines), 16 MiB permutation; spine 1 "
       "of plane 0 dies at 100 us"},
      {"gray-failure",
       "16 hosts x 4 planes, 16 MiB permutation; a leaf-spine link of plane 2 "
       "silently loses 20% from 50 us on"},
      {"all-to-all-1k",
       "1024 hosts x 8 planes (32 leaves x 32 spines), 16 KiB all-to-all, 4 "
       "flows a host at once; spine 3 of plane 2 dies at 100 us"},
  };
  return list;
}

namespace {

void SetFabric(SimCfg& c, uint32_t hosts, uint32_t planes, uint32_t per_leaf, uint32_t spines) {
  c.fabric.hosts = hosts;
  c.fabric.planes = planes;
  c.fabric.hosts_per_leaf = std::min(per_leaf, hosts);
  c.fabric.spines = spines;
}

}  // namespace

std::optional<SimCfg> MakeScenario(const std::string& name, uint64_t seed, uint32_t hosts,
                                   uint32_t planes) {
  SimCfg c;
  c.scenario = name;
  c.seed = seed;
  auto or_default = [](uint32_t v, uint32_t d) { return v != 0 ? v : d; };
  if (name == "smoke") {
    SetFabric(c, or_default(hosts, 2), or_default(planes, 4), 16, 4);
    c.workload.msg_bytes = 4ULL << 20;
  } else if (name == "plane-failure") {
    SetFabric(c, or_default(hosts, 2), or_default(planes, 4), 16, 4);
    c.workload.msg_bytes = 64ULL << 20;
    const uint32_t p = 1 % c.fabric.planes;
    c.actions.push_back({.at = 200 * kUs, .kind = ActKind::kPortDown, .plane = p, .a = 1});
    c.actions.push_back({.at = 500 * kUs, .kind = ActKind::kPortUp, .plane = p, .a = 1});
  } else if (name == "spine-failure") {
    SetFabric(c, or_default(hosts, 16), or_default(planes, 4), 4, 4);
    c.workload.msg_bytes = 16ULL << 20;
    c.actions.push_back({.at = 100 * kUs, .kind = ActKind::kSpineDown, .plane = 0, .a = 1});
  } else if (name == "gray-failure") {
    SetFabric(c, or_default(hosts, 16), or_default(planes, 4), 4, 4);
    c.workload.msg_bytes = 16ULL << 20;
    c.actions.push_back({.at = 50 * kUs,
                         .kind = ActKind::kGray,
                         .plane = 2 % c.fabric.planes,
                         .a = 0,
                         .b = 1,
                         .ppm = 200000});
  } else if (name == "all-to-all-1k") {
    SetFabric(c, or_default(hosts, 1024), or_default(planes, 8), 32, 32);
    c.workload.kind = WorkloadKind::kAllToAll;
    c.workload.msg_bytes = 16ULL << 10;
    c.workload.window = 4;
    c.core.ev_count = 32;
    c.core.sndbuf = 256 * 1024;
    c.core.rcvbuf = 256 * 1024;
    c.actions.push_back({.at = 100 * kUs,
                         .kind = ActKind::kSpineDown,
                         .plane = 2 % c.fabric.planes,
                         .a = 3 % c.fabric.spines});
  } else {
    return std::nullopt;
  }
  return c;
}

}  // namespace mrc_sim
