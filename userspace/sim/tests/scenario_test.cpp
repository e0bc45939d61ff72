// SPDX-License-Identifier: GPL-2.0
// The simulator's invariants over a seeded matrix of small scenarios:
// the same seed gives the same digest, every byte arrives once and in
// order, no connection fails while a path exists, traffic leaves a dead
// plane within a few RTTs, and no EV stays ASSUMED_BAD once its path
// healed and was probed. Every failure names the seed that reproduces it
// (mrc-netsim --scenario NAME --seed N).
#include "scenario.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "pattern.hpp"
#include "sim.hpp"
#include "sim_checks.hpp"

namespace mrc_sim {
namespace {

using test::Cfg;
using test::ExpectClean;
using test::Repro;

// The run ended before @percent per cent of the ideal time.
void ExpectDoneWithin(const Sim& sim, uint64_t percent) {
  EXPECT_LT(sim.totals().end, percent * sim.totals().ideal / 100)
      << "done " << sim.totals().end / kUs << " us, ideal " << sim.totals().ideal / kUs << " us";
}

TEST(Pattern, CheckCatchesWrongByteOffsetAndFlow) {
  std::array<uint8_t, 100> b{};
  PatternFill(3, 17, b.data(), 100);
  EXPECT_TRUE(PatternCheck(3, 17, b.data(), 100));
  EXPECT_FALSE(PatternCheck(3, 18, b.data(), 100));  // shifted: a duplicate or a gap
  EXPECT_FALSE(PatternCheck(4, 17, b.data(), 100));  // another flow's bytes
  b[50] ^= 1;
  EXPECT_FALSE(PatternCheck(3, 17, b.data(), 100));
}

TEST(Determinism, SameSeedSameDigestOtherSeedOther) {
  auto digest = [](uint64_t seed) {
    Sim sim(Cfg("spine-failure", seed));
    sim.Run();
    return sim.engine().digest().Hex();
  };
  const std::string a = digest(7);
  EXPECT_EQ(a, digest(7)) << Repro("spine-failure", 7);
  EXPECT_NE(a, digest(8)) << "seeds 7 and 8 ran the same trace";
}

class Matrix : public testing::TestWithParam<std::tuple<const char*, uint64_t>> {};

TEST_P(Matrix, EveryByteOnceInOrderNoFailure) {
  const auto [name, seed] = GetParam();
  Sim sim(Cfg(name, seed));
  sim.Run();
  ExpectClean(sim);
}

INSTANTIATE_TEST_SUITE_P(Seeds, Matrix,
                         testing::Combine(testing::Values("smoke", "plane-failure", "spine-failure",
                                                          "gray-failure"),
                                          testing::Values(1, 2, 3)));
INSTANTIATE_TEST_SUITE_P(NewScenarios, Matrix,
                         testing::Combine(testing::Values("link-flap", "incast", "trimming",
                                                          "allreduce-ring", "oversubscribed"),
                                          testing::Values(1, 2)));

// A receiver whose buffer is full of data held past a gap refuses every
// segment but the gap (NO_BUFFER NACKs). In link-flap seed 4 the gap's
// retransmission was lost as well, and the sender found that only by
// RTOs, one segment in flight each, backing off: done at 2 s for a
// 350 us ideal. A NACK proves its transmission arrived, so RACK finds
// the gap lost within a reorder wait.
TEST(LinkFlap, RefusedSegmentsDoNotHideALostGap) {
  for (uint64_t seed : {1, 2, 3, 4, 5, 6}) {
    SCOPED_TRACE(Repro("link-flap", seed));
    Sim sim(Cfg("link-flap", seed));
    sim.Run();
    ExpectClean(sim);
    ExpectDoneWithin(sim, 2000);
  }
}

// Per plane: DATA packets the live client cores sent on it, EVs
// ASSUMED_BAD on it now.
struct PlaneView {
  std::array<uint64_t, 16> tx{};
  std::array<uint32_t, 16> bad{};
};

PlaneView Look(const Sim& sim) {
  PlaneView v;
  for (const auto& ep : sim.endpoints()) {
    if (ep == nullptr || ep->core == nullptr) continue;
    const uint32_t n = mrc_core_ev_count(ep->core.get());
    for (uint32_t i = 0; i < n; i++) {
      mrc_core_ev_info info{};
      if (mrc_core_ev_get(ep->core.get(), i, &info) != 0 || info.plane >= 16) continue;
      v.tx[info.plane] += info.tx_pkts;
      v.bad[info.plane] += info.state == MRC_EV_ASSUMED_BAD ? 1 : 0;
    }
  }
  return v;
}

// Planes of uneven rate (the last at a quarter of the others'): each
// plane's own window and the earliest-completion choice
// (kernel/core/path.c) put the traffic where the capacity is. One window
// for the connection, with the EVs dealt evenly over the planes, took
// 2.42x and 2.26x ideal on seeds 1 and 2 and sent a quarter of the DATA
// to the slow plane; per-plane windows 1.32x and 1.26x.
TEST(UnevenPlanes, TrafficFollowsCapacity) {
  for (uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE(Repro("uneven-planes", seed));
    const SimCfg cfg = Cfg("uneven-planes", seed);
    const uint32_t slow = cfg.fabric.planes - 1;
    PlaneView last;
    Sim sim(cfg);
    sim.set_hook([&](Sim& s) { last = Look(s); }, 5 * kUs);
    sim.Run();
    ExpectClean(sim);
    ExpectDoneWithin(sim, 150);
    uint64_t all = 0;
    for (uint64_t n : last.tx) all += n;
    ASSERT_GT(all, 0U);
    // Its share of the capacity is 1/13; of the EVs, 1/4.
    EXPECT_LT(last.tx[slow] * 8, all)
        << last.tx[slow] << " of " << all << " DATA on the slow plane";
  }
}

// The 16-host permutation without a fault: leaves 0 and 1 send all four
// hosts' traffic over the spines, whose links it needs at line rate
// (1:1), so every route of a plane is loaded alike and ECN marks fall
// on EVs at random. A mark skips its EV for a rotation but leaves its
// weight (kernel/core/ev.c): halving the weight of each marked EV piled
// the planes onto a few routes, the median spine link's queue peaked at
// 193 KB (51 KB without halving) and packets 40 us late on the deepest
// filled the peer's window behind a gap (seeds 1 and 2: 1.45x and 1.42x
// ideal; without halving 1.21x and 1.27x).
TEST(Permutation, MarksDoNotPileAPlaneOntoFewRoutes) {
  for (uint64_t seed : {1, 2}) {
    SCOPED_TRACE(Repro("permutation", seed));
    Sim sim(Cfg("permutation", seed));
    sim.Run();
    ExpectClean(sim);
    ExpectDoneWithin(sim, 135);
    std::vector<uint64_t> peaks;
    for (const Link& l : sim.fabric().links())
      if (l.kind == LinkKind::kLeafUp || l.kind == LinkKind::kSpineDown)
        peaks.push_back(l.st.max_backlog);
    ASSERT_FALSE(peaks.empty());
    std::nth_element(peaks.begin(), peaks.begin() + peaks.size() / 2, peaks.end());
    EXPECT_LT(peaks[peaks.size() / 2], 120U * 1024) << "median peak of the spine links' queues";
  }
}

// A leaf-spine link that silently loses a fifth of what it carries: a
// packet lost there is resent about a round trip after it left (RACK's
// wait without the peer's ACK delay, kernel/core/ack.c), where waiting
// out the delay too held the peer's window behind it for 70-80 us with
// round trips of 8-20 us (seeds 1 and 2: 1.55x and 1.62x ideal, against
// 1.32x and 1.35x). Which EVs cross the lossy link is a draw of their
// values, and one seed's figure moves with it (1.20x to 1.50x over
// seeds 1-6 with seeded values, 1.32x to 1.38x with the values drawn
// one by one; means over 20 seeds 1.32x and 1.34x): the bound is on the
// mean of four.
TEST(GrayFailure, LossesAreFoundAboutARoundTripAfterTheyLeft) {
  double sum = 0;
  for (uint64_t seed : {1, 2, 3, 4}) {
    SCOPED_TRACE(Repro("gray-failure", seed));
    Sim sim(Cfg("gray-failure", seed));
    sim.Run();
    ExpectClean(sim);
    ExpectDoneWithin(sim, 160);
    sum += static_cast<double>(sim.totals().end) / static_cast<double>(sim.totals().ideal);
  }
  EXPECT_LT(sum / 4, 1.42) << "mean ratio to ideal of seeds 1-4";
}

TEST(PlaneFailure, TrafficLeavesDeadPlaneAndEvsRecoverAfterHeal) {
  for (uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE(Repro("plane-failure", seed));
    SimCfg cfg = Cfg("plane-failure", seed);
    ASSERT_EQ(cfg.actions.size(), 2U);
    const Time down = cfg.actions[0].at;
    const Time up = cfg.actions[1].at;
    const uint32_t plane = cfg.actions[0].plane;
    // A few RTTs: the fabric's RTT is about 10 us.
    const Time settle = down + 50 * kUs;
    const Time heal_probed = up + 4 * cfg.core.probe_interval_us * kUs;
    uint64_t tx_settled = 0, tx_before_up = 0;
    bool seen_settled = false;
    uint32_t bad_after_heal = 0, bad_during = 0;
    Sim sim(cfg);
    sim.set_hook(
        [&](Sim& s) {
          const Time now = s.engine().now();
          const PlaneView v = Look(s);
          if (now >= settle && now < up && !seen_settled) {
            seen_settled = true;
            tx_settled = v.tx[plane];
          }
          if (now >= down && now < up) {
            tx_before_up = v.tx[plane];
            bad_during = std::max(bad_during, v.bad[plane]);
          }
          if (now >= heal_probed) {
            for (uint32_t b : v.bad) bad_after_heal += b;
          }
        },
        5 * kUs);
    sim.Run();
    ExpectClean(sim);
    ASSERT_TRUE(seen_settled);
    EXPECT_EQ(tx_before_up, tx_settled)
        << "DATA still went out on dead plane " << plane << " 50 us after it died";
    EXPECT_EQ(bad_after_heal, 0U) << "EVs still ASSUMED_BAD after the plane healed and was probed";
    for (const Flow& f : sim.flows()) EXPECT_EQ(f.bad_evs, 0U);
    // The transfer outlived the heal by more than the probing took.
    EXPECT_GT(sim.totals().end, heal_probed);
    // The peer's SACKs say the plane is down: the core leaves it without
    // marking its EVs bad (GrayFailure covers ASSUMED_BAD and back).
    EXPECT_EQ(bad_during, 0U);
  }
}

// A leaf-spine link that silently drops everything (routing never
// notices) and then heals: the EVs hashed over it go ASSUMED_BAD, and
// once it heals their probes bring every one of them back.
// Since when each EV of every live core has been ASSUMED_BAD (absent: it
// is not), keyed by endpoint and EV index.
class BadSince {
 public:
  // Look at every EV now; return how many have been bad since before `t`.
  uint32_t Update(const Sim& sim, Time now, Time t) {
    uint32_t stale = 0;
    for (const auto& ep : sim.endpoints()) {
      if (ep == nullptr || ep->core == nullptr) continue;
      const uint32_t n = mrc_core_ev_count(ep->core.get());
      for (uint32_t i = 0; i < n; i++) {
        mrc_core_ev_info info{};
        if (mrc_core_ev_get(ep->core.get(), i, &info) != 0) continue;
        const uint64_t key = static_cast<uint64_t>(ep->id) << 32 | i;
        if (info.state != MRC_EV_ASSUMED_BAD) {
          since_.erase(key);
          continue;
        }
        const Time first = since_.emplace(key, now).first->second;
        stale += first < t ? 1 : 0;
      }
    }
    return stale;
  }

 private:
  std::map<uint64_t, Time> since_;
};

TEST(GrayFailure, BlackholedEvsComeBackAfterHeal) {
  for (uint64_t seed : {1, 2}) {
    SCOPED_TRACE(Repro("spine-failure", seed) + " with leaf 0 <-> spine 1 of plane 0 " +
                 "dropping all from 50 us to 200 us instead of the spine failure");
    SimCfg cfg = Cfg("spine-failure", seed);
    cfg.workload.msg_bytes = 32ULL << 20;
    const Time heal = 200 * kUs;
    cfg.actions = {
        {.at = 50 * kUs, .kind = ActKind::kGray, .plane = 0, .a = 0, .b = 1, .ppm = 1000000},
        {.at = heal, .kind = ActKind::kGray, .plane = 0, .a = 0, .b = 1, .ppm = 0}};
    const Time heal_probed = heal + 3 * cfg.core.probe_interval_us * kUs;
    uint32_t bad_during = 0, stale_after_heal = 0;
    BadSince bad_since;
    Sim sim(cfg);
    sim.set_hook(
        [&](Sim& s) {
          const Time now = s.engine().now();
          const PlaneView v = Look(s);
          if (now >= 50 * kUs && now < heal_probed) bad_during = std::max(bad_during, v.bad[0]);
          // Bad since before the heal and still bad once probes had
          // their chance. EVs marked after the heal (a congestion drop
          // found by fast retransmit) are probed back on their own time.
          const uint32_t stale = bad_since.Update(s, now, heal);
          if (now >= heal_probed) stale_after_heal += stale;
        },
        5 * kUs);
    sim.Run();
    ExpectClean(sim);
    EXPECT_GT(bad_during, 0U) << "no EV went ASSUMED_BAD after its route dropped everything";
    EXPECT_EQ(stale_after_heal, 0U) << "EVs still ASSUMED_BAD after the link healed and was probed";
    EXPECT_GT(sim.totals().end, heal_probed) << "the transfer ended before the check could run";
  }
}

TEST(Cli, ScenarioNamesResolve) {
  for (const auto& s : Scenarios()) EXPECT_TRUE(MakeScenario(s.name, 1, 0, 0).has_value());
  EXPECT_FALSE(MakeScenario("no-such", 1, 0, 0).has_value());
}

}  // namespace
}  // namespace mrc_sim
