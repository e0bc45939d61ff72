// SPDX-License-Identifier: GPL-2.0
// Everything a run is made of: the fabric, the workload, the failures a
// scenario schedules, the core's parameters, and the seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine.hpp"
#include "fabric.hpp"

namespace mrc_sim {

enum class WorkloadKind : uint8_t { kPermutation, kAllToAll };

struct WorkloadCfg {
  WorkloadKind kind = WorkloadKind::kPermutation;
  uint64_t msg_bytes = 1024 * 1024;  // one message = one stream transfer
  uint32_t window = 4;               // flows a host has open at once
  Time start = 10 * kUs;
};

enum class ActKind : uint8_t {
  kLinkDown,  // leaf a <-> spine b of plane, both directions
  kLinkUp,
  kGray,          // leaf a <-> spine b: ppm silent loss both ways (0: healed)
  kHostLinkDown,  // host a <-> its leaf, both directions
  kHostLinkUp,
  kLeafDown,  // leaf a
  kLeafUp,
  kSpineDown,  // spine a
  kSpineUp,
  kPortDown,  // host a's NIC port for plane
  kPortUp,
};

struct Action {
  Time at = 0;
  ActKind kind = ActKind::kLinkDown;
  uint32_t plane = 0;
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t ppm = 0;
};

// Core parameters for a datacenter fabric (the kernel's defaults are for
// real networks with millisecond timers).
struct CoreCfg {
  uint32_t mss = 4096;
  uint32_t ev_count = 64;
  uint32_t sndbuf = 1024 * 1024;
  uint32_t rcvbuf = 1024 * 1024;
  uint32_t rto_min_us = 200;
  uint32_t rto_init_us = 1000;
  uint32_t probe_interval_us = 200;
  uint32_t ack_delay_us = 20;
  uint32_t user_timeout_ms = 2000;
  uint32_t target_delay_ns = 20000;
};

struct SimCfg {
  std::string scenario = "custom";
  uint64_t seed = 1;
  FabricCfg fabric;
  WorkloadCfg workload;
  CoreCfg core;
  std::vector<Action> actions;
  Time max_time = 10ULL * 1000 * kMs;  // give up (flows left are unfinished)
};

}  // namespace mrc_sim
