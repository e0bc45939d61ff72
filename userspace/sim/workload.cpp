// SPDX-License-Identifier: GPL-2.0
// Workloads as flow lists: a permutation (every host sends one message to
// another, a random derangement of the seed), all-to-all (every host
// sends one message to every other, in the staggered order h+1, h+2, ...),
// incast (many hosts to host 0 at once) and ring all-reduce (flows chained
// by what each step must have received first).
#include <algorithm>
#include <numeric>

#include "rng.hpp"
#include "sim.hpp"

namespace mrc_sim {
namespace {

// Ring all-reduce (reduce-scatter, then all-gather): in each of 2(H-1)
// steps host h sends one chunk of msg_bytes / H to h+1, and it can only
// send what it received in the step before, so flow (s, h) starts once
// flow (s-1, h-1) is received; step 0 starts at once.
std::vector<Flow> RingFlows(const WorkloadCfg& w, uint32_t hosts) {
  const uint32_t steps = 2 * (hosts - 1);
  const uint64_t chunk = std::max<uint64_t>(1, w.msg_bytes / hosts);
  std::vector<Flow> flows(static_cast<size_t>(steps) * hosts);
  for (uint32_t s = 0; s < steps; s++) {
    for (uint32_t h = 0; h < hosts; h++) {
      Flow& f = flows[s * hosts + h];
      f.src = h;
      f.dst = (h + 1) % hosts;
      f.bytes = chunk;
      if (s > 0) {
        const uint32_t prev = (s - 1) * hosts + (h + hosts - 1) % hosts;
        f.after = prev;
        flows[prev].then = s * hosts + h;
      }
    }
  }
  return flows;
}

}  // namespace

std::vector<Flow> MakeFlows(const WorkloadCfg& w, uint32_t hosts, uint64_t seed) {
  std::vector<Flow> flows;
  if (hosts < 2) return flows;
  auto add = [&](uint32_t src, uint32_t dst) {
    Flow f;
    f.src = src;
    f.dst = dst;
    f.bytes = w.msg_bytes;
    flows.push_back(f);
  };
  switch (w.kind) {
    case WorkloadKind::kPermutation: {
      // Sattolo's shuffle: one cycle through every host, so nobody sends
      // to itself.
      std::vector<uint32_t> to(hosts);
      std::iota(to.begin(), to.end(), 0U);
      Rng rng(seed, 0x9e7);
      for (uint32_t i = hosts - 1; i > 0; i--)
        std::swap(to[i], to[static_cast<uint32_t>(rng.Below(i))]);
      for (uint32_t h = 0; h < hosts; h++) add(h, to[h]);
      break;
    }
    case WorkloadKind::kAllToAll:
      for (uint32_t h = 0; h < hosts; h++)
        for (uint32_t k = 1; k < hosts; k++) add(h, (h + k) % hosts);
      break;
    case WorkloadKind::kIncast: {
      const uint32_t n = w.senders != 0 ? std::min(w.senders, hosts - 1) : hosts - 1;
      for (uint32_t h = 1; h <= n; h++) add(h, 0);
      break;
    }
    case WorkloadKind::kAllReduceRing:
      flows = RingFlows(w, hosts);
      break;
  }
  return flows;
}

}  // namespace mrc_sim
