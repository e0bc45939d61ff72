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

enum class WorkloadKind : uint8_t {
  kPermutation,    // every host one message to another (a random derangement)
  kAllToAll,       // every host one message to every other
  kIncast,         // `senders` hosts one message each to host 0, all at once
  kAllReduceRing,  // ring all-reduce of msg_bytes: 2(H-1) steps of msg_bytes/H
};

struct WorkloadCfg {
  WorkloadKind kind = WorkloadKind::kPermutation;
  uint64_t msg_bytes = 1024 * 1024;  // one message = one stream transfer
                                     // (all-reduce: the buffer reduced)
  uint32_t window = 4;               // flows a host has open at once
  uint32_t senders = 0;              // incast: hosts 1..senders (0: all)
  // A client connects to the peer's address on plane (src + dst) mod P
  // (else on its first plane), as a launcher spreads its rendezvous so
  // that not every handshake and first flight of the job meets on one.
  bool spread_connects = false;
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

// A link that goes down and comes back `count` times: down at
// at + i * period for down_for. The run turns it into plain down/up
// actions (ExpandFlaps()).
struct Flap {
  Time at = 0;
  Time period = 0;
  Time down_for = 0;
  uint32_t count = 0;
  bool host_link = false;  // host a's access link, else leaf a <-> spine b
  uint32_t plane = 0;
  uint32_t a = 0;
  uint32_t b = 0;
};

// Core parameters for a datacenter fabric (the kernel's defaults are for
// real networks with millisecond timers).
struct CoreCfg {
  uint32_t mss = 4096;
  uint32_t ev_count = 64;
  // 2 MiB: 42 us of a host's 400 Gbit/s. A 16-host permutation's paths
  // differ by up to 36 us of spine queue, and the receiver holds what
  // the faster ones bring past a gap: with 1 MiB the peer's window, not
  // the congestion window, held the flows back (spine-failure: most
  // pushes stopped at the peer's window, mean of seeds 1-2 1.66x against
  // 1.52x with 2 MiB).
  uint32_t sndbuf = 2 * 1024 * 1024;
  uint32_t rcvbuf = 2 * 1024 * 1024;
  uint32_t rto_min_us = 200;
  uint32_t rto_init_us = 1000;
  uint32_t probe_interval_us = 200;
  uint32_t ack_delay_us = 20;
  uint32_t user_timeout_ms = 2000;
  uint32_t target_delay_ns = 20000;
  std::vector<uint32_t> plane_weight;  // of plane p (absent or 0: the default)
  // A host hands what its connections to a peer learned of the paths
  // there to its next connection to that peer (mrc_core_peer_paths).
  bool peer_paths = true;
  // Payload a client sends before the SYN_ACK (mrc_core_cfg.early_data;
  // 0: it waits for the handshake), as an application does that sends
  // with MSG_FASTOPEN; a server takes the token the SYN proposes, as
  // mrc.ko does with net.mrc.early_data. Off by default: most
  // applications connect, then send.
  uint32_t early_data = 0;
};

struct SimCfg {
  std::string scenario = "custom";
  uint64_t seed = 1;
  FabricCfg fabric;
  WorkloadCfg workload;
  CoreCfg core;
  std::vector<Action> actions;
  std::vector<Flap> flaps;
  Time max_time = 10ULL * 1000 * kMs;  // give up (flows left are unfinished)
};

// Append each flap's down/up actions to c.actions and clear c.flaps.
void ExpandFlaps(SimCfg& c);

}  // namespace mrc_sim
