// SPDX-License-Identifier: GPL-2.0
// One end of a simulated connection: a struct mrc_core (kernel/core/,
// unchanged) behind an environment whose clock, timer and network are
// the simulator's, and the application above it: the client streams its
// flow's pattern and closes, the server reads, checks every byte against
// the pattern at its running offset, and closes after the peer's FIN.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

extern "C" {
#include <linux/mrc_netlink.h>

#include "mrc_core.h"
}

#include "engine.hpp"
#include "rng.hpp"

namespace mrc_sim {

class Sim;

// What a host's connections learned of the paths to one peer, packed:
// a million host pairs of a 1,024-host all-to-all hold the seed of the
// EV values (or, for explicit values, only the EVs their connections
// have: mrc_core_peer_paths has room for 256).
struct PeerRecord {
  uint32_t nevs = 0;
  uint32_t planes = 0;
  uint32_t ev_seed = 0;
  std::array<uint64_t, MRC_CORE_MAX_EVS / 64> bad{};
  std::vector<uint16_t> evs;  // only without a seed

  void Pack(const mrc_core_peer_paths& pp) {
    nevs = pp.nevs;
    planes = pp.planes;
    ev_seed = pp.ev_seed;
    std::copy(std::begin(pp.bad), std::end(pp.bad), bad.begin());
    if (ev_seed != 0) {
      evs.clear();
    } else {
      evs.assign(pp.evs, pp.evs + pp.nevs);
    }
  }
  void Unpack(mrc_core_peer_paths& pp) const {
    pp = {};
    pp.nevs = nevs;
    pp.planes = planes;
    pp.ev_seed = ev_seed;
    std::copy(bad.begin(), bad.end(), std::begin(pp.bad));
    std::copy(evs.begin(), evs.end(), std::begin(pp.evs));
  }
};

struct CoreDeleter {
  void operator()(mrc_core* c) const { mrc_core_destroy(c); }
};
using CorePtr = std::unique_ptr<mrc_core, CoreDeleter>;

struct Endpoint {
  Endpoint(Sim* s, uint32_t i, uint64_t seed) : sim(s), id(i), rng(seed, 0xe9000000ULL + i) {}

  static const mrc_core_env_ops kOps;
  static const mrc_core_env_ops kTracedOps;  // kOps and the tracepoints
  mrc_core_env Env();

  Sim* sim;
  uint32_t id;
  uint32_t flow = 0;
  size_t live_pos = 0;  // index in the simulator's live list
  uint32_t host = 0;
  uint32_t peer_host = 0;
  uint32_t peer_ep = 0;
  bool client = false;
  Rng rng;
  mrc_core_cfg cfg{};
  CorePtr core;
  // This host's paths to the peer: the host's record of them
  // (Sim::peer_paths_), or nullptr, and this end's full copy, which its
  // core is created from and learns into (at ESTABLISHED, at every EV
  // state or suspicion change and at the end); each learning is packed
  // back into the record, so the host's next connection there sees it.
  PeerRecord* record = nullptr;
  mrc_core_peer_paths paths{};
  void LearnPaths() {
    if (record == nullptr || core == nullptr) return;
    mrc_core_peer_paths_learn(core.get(), &paths);
    record->Pack(paths);
  }
  void LearnEv(uint32_t idx) {
    if (record == nullptr || core == nullptr) return;
    mrc_core_peer_paths_learn_ev(core.get(), &paths, idx);
    record->Pack(paths);
  }

  Time timer_when = 0;   // what the core asked for (0: none)
  Time timer_sched = 0;  // the pending timer event (0: none)
  Time tx_ready_at = 0;  // the pending kEvTxReady (0: none)

  uint64_t total = 0;  // bytes to send (client) or receive (server)
  uint64_t sent = 0;
  uint64_t rcvd = 0;
  uint64_t unread = 0;
  bool app_pending = false;
  bool closed = false;
  bool established = false;
  bool peer_fin = false;
  bool done = false;
  bool corrupt = false;  // a byte that was not the pattern's
  int error = 0;
};

}  // namespace mrc_sim
