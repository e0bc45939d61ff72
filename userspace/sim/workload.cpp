// SPDX-License-Identifier: GPL-2.0
// Workloads as flow lists: a permutation (every host sends one message to
// another, a random derangement of the seed) and all-to-all (every host
// sends one message to every other, in the staggered order h+1, h+2, ...).
#include <numeric>

#include "rng.hpp"
#include "sim.hpp"

namespace mrc_sim {

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
  }
  return flows;
}

}  // namespace mrc_sim
