// SPDX-License-Identifier: GPL-2.0
// The engine's order, the PRNG's reproducibility and the digest.
#include "engine.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "digest.hpp"
#include "rng.hpp"

namespace mrc_sim {
namespace {

TEST(Engine, TimeThenScheduleOrder) {
  Engine e;
  e.Schedule(20, 0, 1, 0);
  e.Schedule(10, 0, 2, 0);
  e.Schedule(20, 0, 3, 0);
  e.Schedule(10, 0, 4, 0);
  std::vector<uint32_t> order;
  while (!e.Empty()) order.push_back(e.Pop().a);
  EXPECT_EQ(order, (std::vector<uint32_t>{2, 4, 1, 3}));
  EXPECT_EQ(e.now(), 20U);
  EXPECT_EQ(e.events(), 4U);
}

TEST(Engine, PastIsNow) {
  Engine e;
  e.Schedule(100, 0, 0, 0);
  e.Pop();
  e.Schedule(5, 0, 0, 0);
  EXPECT_EQ(e.Pop().t, 100U);
}

TEST(Engine, DigestFollowsEvents) {
  auto run = [](uint32_t b) {
    Engine e;
    e.Schedule(1, 1, 2, b);
    e.Schedule(2, 1, 2, 3);
    while (!e.Empty()) e.Pop();
    return e.digest().value();
  };
  EXPECT_EQ(run(7), run(7));
  EXPECT_NE(run(7), run(8));
}

TEST(Digest, KnownFnv1a) {
  Digest d;
  EXPECT_EQ(d.Hex(), "cbf29ce484222325");
  d.Add(0);
  // FNV-1a 64 of eight zero bytes.
  EXPECT_EQ(d.value(), 0xa8c7f832281a39c5ULL);
}

TEST(Rng, SameSeedSameStreamDifferentSeedNot) {
  Rng a(1), b(1), c(2);
  bool differ = false;
  for (int i = 0; i < 100; i++) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differ |= x != c.Next();
  }
  EXPECT_TRUE(differ);
  Rng s0(1, 0), s1(1, 1);
  EXPECT_NE(s0.Next(), s1.Next());
}

TEST(Rng, BelowStaysBelowAndSpreads) {
  Rng r(3);
  std::vector<int> hist(10);
  for (int i = 0; i < 10000; i++) {
    const uint64_t v = r.Below(10);
    ASSERT_LT(v, 10U);
    hist[v]++;
  }
  for (int n : hist) EXPECT_GT(n, 800);
}

}  // namespace
}  // namespace mrc_sim
