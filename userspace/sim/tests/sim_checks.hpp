// SPDX-License-Identifier: GPL-2.0
// What every simulator test checks of a run: the scenario's configuration,
// the command that reproduces a run, and that every flow finished with
// every byte delivered once, in order, and right.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "scenario.hpp"
#include "sim.hpp"

namespace mrc_sim::test {

inline SimCfg Cfg(const std::string& name, uint64_t seed) {
  auto c = MakeScenario(name, seed, 0, 0);
  EXPECT_TRUE(c.has_value()) << name;
  return c.value_or(SimCfg{});
}

inline std::string Repro(const std::string& name, uint64_t seed) {
  return "reproduce: mrc-netsim --scenario " + name + " --seed " + std::to_string(seed);
}

// Every flow finished, none failed while a path existed, every byte
// checked against the pattern.
inline void ExpectClean(const Sim& sim) {
  SCOPED_TRACE(Repro(sim.cfg().scenario, sim.cfg().seed));
  ASSERT_FALSE(sim.flows().empty());
  uint64_t want = 0;
  for (const Flow& f : sim.flows()) {
    EXPECT_TRUE(f.finished) << "flow " << f.src << "->" << f.dst << " unfinished";
    EXPECT_FALSE(f.failed) << "flow " << f.src << "->" << f.dst << " failed, errno " << f.error
                           << ", while a path existed";
    EXPECT_FALSE(f.corrupt) << "flow " << f.src << "->" << f.dst
                            << " delivered a byte twice, out of order or wrong";
    EXPECT_EQ(f.received, f.bytes) << "flow " << f.src << "->" << f.dst;
    want += f.bytes;
  }
  EXPECT_EQ(sim.totals().bytes, want);
  EXPECT_EQ(sim.totals().flows_done, sim.flows().size());
}

}  // namespace mrc_sim::test
