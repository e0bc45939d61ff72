// SPDX-License-Identifier: GPL-2.0
// Built-in scenarios of scenario.hpp.
#include "scenario.hpp"

#include <algorithm>

namespace mrc_sim {

const std::vector<ScenarioInfo>& Scenarios() {
  static const std::vector<ScenarioInfo> list = {
      {"smoke", "2 hosts x 4 planes, a 4 MiB permutation, no failure"},
      {"uneven-planes",
       "2 hosts x 4 planes, 16 MiB each way; plane 3 runs at a quarter of the others' rate "
       "(make bench's P5)"},
      {"plane-failure",
       "2 hosts x 4 planes, 64 MiB each way; host 1's port on plane 1 dies at 200 us and "
       "returns at 500 us"},
      {"permutation",
       "16 hosts x 4 planes (4 leaves, 4 spines), 16 MiB permutation, no failure: the "
       "baseline of spine-failure, gray-failure and link-flap"},
      {"spine-failure",
       "16 hosts x 4 planes (4 leaves, 4 spines), 16 MiB permutation; spine 1 "
       "of plane 0 dies at 100 us"},
      {"gray-failure",
       "16 hosts x 4 planes, 16 MiB permutation; a leaf-spine link of plane 2 "
       "silently loses 20% from 50 us on"},
      {"all-to-all-1k",
       "1024 hosts x 8 planes (32 leaves x 32 spines), 16 KiB all-to-all, 4 "
       "flows a host at once; spine 3 of plane 2 dies at 100 us"},
      {"link-flap",
       "16 hosts x 4 planes, 16 MiB permutation; leaf 0 <-> spine 1 of plane 0 flaps 5 times "
       "(every 100 us, down 40 us) and host 5's plane-2 link 3 times (150 us, 60 us)"},
      {"incast", "16 hosts x 4 planes, 15 hosts send 2 MiB each to host 0 at once, tail drop"},
      {"trimming",
       "the incast with 128 KiB switch queues that trim DATA instead of dropping it: "
       "the receiver NACKs each trimmed packet and the sender resends it at once"},
      {"allreduce-ring",
       "8 hosts x 4 planes, ring all-reduce of 16 MiB: 14 steps of 2 MiB chunks, each step "
       "sent once the previous one is received"},
      {"oversubscribed",
       "32 hosts x 2 planes, 8 hosts a leaf and 2 spines (4:1), 4 MiB permutation: the "
       "spine links are the bottleneck"},
      {"all-to-all-loaded",
       "make bench's P7 at a thousandth of its time scale: 8 hosts x 4 planes on one "
       "switch, 512 KiB all-to-all, all 7 flows a host at once, 1 Gbit/s links with "
       "100-frame queues and no ECN; the core's timers scaled alike, so a loaded round "
       "trip is many probe intervals"},
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

void Incast(SimCfg& c, uint32_t hosts, uint32_t planes) {
  SetFabric(c, hosts != 0 ? hosts : 16, planes != 0 ? planes : 4, 4, 4);
  c.workload.kind = WorkloadKind::kIncast;
  c.workload.msg_bytes = 2ULL << 20;
}

// P7 of make bench (bench/lib/star.sh), every time divided by 1000: the
// guest's 1 Mbit/s links become 1 Gbit/s, its netem queues of 100 frames
// 150 KiB, the module's default timers (RTO min 10 ms, initial 100 ms,
// probes every 50 ms, ACK delay 200 us) microseconds, its 4 MiB buffers
// and 128 EVs kept, and mrcperf's 20 s timeout 20 ms. Its loaded round
// trip (a full queue a hop, about 1.2 ms) is some 24 probe intervals,
// where the other scenarios' round trips are shorter than one.
void AllToAllLoaded(SimCfg& c, uint32_t hosts, uint32_t planes) {
  SetFabric(c, hosts, planes, hosts, 1);
  c.fabric.gbps = 1;
  c.fabric.queue_bytes = 150 * 1024;
  c.fabric.host_queue_bytes = 150 * 1024;
  c.fabric.ecn_bytes = 16U << 20;  // netem marks nothing
  c.workload.kind = WorkloadKind::kAllToAll;
  c.workload.msg_bytes = 512ULL << 10;
  c.workload.window = hosts - 1;
  c.core.mss = 1400;
  c.core.ev_count = 128;
  c.core.sndbuf = 4U << 20;
  c.core.rcvbuf = 4U << 20;
  c.core.rto_min_us = 10;
  c.core.rto_init_us = 100;
  c.core.probe_interval_us = 50;
  c.core.ack_delay_us = 1;
  c.core.user_timeout_ms = 20;
  c.max_time = 200 * kMs;
}

// The scenarios of issue 10's link flap, trimming, collectives and
// oversubscription (MakeScenario() keeps the first ones as they were).
bool MakeNewScenario(const std::string& name, SimCfg& c, uint32_t hosts, uint32_t planes) {
  auto or_default = [](uint32_t v, uint32_t d) { return v != 0 ? v : d; };
  if (name == "link-flap") {
    SetFabric(c, or_default(hosts, 16), or_default(planes, 4), 4, 4);
    c.workload.msg_bytes = 16ULL << 20;
    c.flaps.push_back({.at = 50 * kUs,
                       .period = 100 * kUs,
                       .down_for = 40 * kUs,
                       .count = 5,
                       .plane = 0,
                       .a = 0,
                       .b = 1 % c.fabric.spines});
    c.flaps.push_back({.at = 80 * kUs,
                       .period = 150 * kUs,
                       .down_for = 60 * kUs,
                       .count = 3,
                       .host_link = true,
                       .plane = 2 % c.fabric.planes,
                       .a = 5 % c.fabric.hosts});
  } else if (name == "incast") {
    Incast(c, hosts, planes);
  } else if (name == "trimming") {
    Incast(c, hosts, planes);
    c.fabric.queue_bytes = 128 * 1024;
    c.fabric.ecn_bytes = 32 * 1024;
    c.fabric.trim = true;
  } else if (name == "allreduce-ring") {
    SetFabric(c, or_default(hosts, 8), or_default(planes, 4), 4, 4);
    c.workload.kind = WorkloadKind::kAllReduceRing;
    c.workload.msg_bytes = 16ULL << 20;
  } else if (name == "oversubscribed") {
    SetFabric(c, or_default(hosts, 32), or_default(planes, 2), 8, 2);
    c.workload.msg_bytes = 4ULL << 20;
  } else if (name == "all-to-all-loaded") {
    AllToAllLoaded(c, or_default(hosts, 8), or_default(planes, 4));
  } else {
    return false;
  }
  return true;
}

}  // namespace

void ExpandFlaps(SimCfg& c) {
  for (const Flap& f : c.flaps) {
    const ActKind down = f.host_link ? ActKind::kHostLinkDown : ActKind::kLinkDown;
    const ActKind up = f.host_link ? ActKind::kHostLinkUp : ActKind::kLinkUp;
    for (uint32_t i = 0; i < f.count; i++) {
      const Time t = f.at + i * f.period;
      c.actions.push_back({.at = t, .kind = down, .plane = f.plane, .a = f.a, .b = f.b});
      c.actions.push_back({.at = t + f.down_for, .kind = up, .plane = f.plane, .a = f.a, .b = f.b});
    }
  }
  c.flaps.clear();
}

std::optional<SimCfg> MakeScenario(const std::string& name, uint64_t seed, uint32_t hosts,
                                   uint32_t planes) {
  SimCfg c;
  c.scenario = name;
  c.seed = seed;
  auto or_default = [](uint32_t v, uint32_t d) { return v != 0 ? v : d; };
  if (name == "smoke") {
    SetFabric(c, or_default(hosts, 2), or_default(planes, 4), 16, 4);
    c.workload.msg_bytes = 4ULL << 20;
  } else if (name == "uneven-planes") {
    SetFabric(c, or_default(hosts, 2), or_default(planes, 4), 16, 4);
    c.workload.msg_bytes = 16ULL << 20;
    c.fabric.plane_gbps.assign(c.fabric.planes, c.fabric.gbps);
    c.fabric.plane_gbps.back() = c.fabric.gbps / 4;
  } else if (name == "plane-failure") {
    SetFabric(c, or_default(hosts, 2), or_default(planes, 4), 16, 4);
    c.workload.msg_bytes = 64ULL << 20;
    const uint32_t p = 1 % c.fabric.planes;
    c.actions.push_back({.at = 200 * kUs, .kind = ActKind::kPortDown, .plane = p, .a = 1});
    c.actions.push_back({.at = 500 * kUs, .kind = ActKind::kPortUp, .plane = p, .a = 1});
  } else if (name == "permutation") {
    SetFabric(c, or_default(hosts, 16), or_default(planes, 4), 4, 4);
    c.workload.msg_bytes = 16ULL << 20;
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
  } else if (!MakeNewScenario(name, c, hosts, planes)) {
    return std::nullopt;
  }
  return c;
}

}  // namespace mrc_sim
