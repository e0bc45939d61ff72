// SPDX-License-Identifier: GPL-2.0
// NSCC congestion control: the four quadrants, base RTT learning.
#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

TEST(CoreNscc, Quadrants) {
  mrc_core_cc cfg{};
  cfg.base_rtt_ns = 100000;       // 100 us
  cfg.target_delay_ns = 1000000;  // 1 ms
  mrc_nscc cc{};
  mrc_nscc_init(&cc, &cfg, 1000);
  const uint32_t w0 = cc.cwnd;
  EXPECT_EQ(w0, 16U * 1024);
  // No ECN, low delay: proportional increase (empty path: +acked).
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 1000, 4000, 100, 100, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(cc.cwnd, w0 + 4000);
  // Half the target: half as much.
  uint32_t w = cc.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 2000, 4000, 600, 600, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(cc.cwnd, w + 2000);
  // No ECN, high delay: fair increase, one MSS per window acked.
  w = cc.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 3000, w, 5000, 5000, false), MRC_NSCC_FAIR);
  EXPECT_EQ(cc.cwnd, w + 1000);
  // ECN, low delay: hold.
  w = cc.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 4000, 4000, 200, 200, true), MRC_NSCC_HOLD);
  EXPECT_EQ(cc.cwnd, w);
  // ECN, high delay: decrease, bounded by max_md_jump (50%).
  w = cc.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 100000, 4000, 1000000, 5000, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(cc.cwnd, w - w / 2);
  // At most once per RTT.
  w = cc.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 100010, 4000, 1000000, 5000, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(cc.cwnd, w);
  // Moderate delay: a smaller cut (gamma * (delay - target) / delay).
  w = cc.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 200000, 4000, 2100, 2100, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(cc.cwnd, w - w / 2);
  w = cc.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 300000, 4000, 1350, 1350, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(cc.cwnd, w - static_cast<uint32_t>(static_cast<uint64_t>(w) * 200000 / 1000000));
  // Never below one MSS, never above max_cwnd.
  for (uint64_t t = 1; t < 100; t++) mrc_nscc_on_ack(&cc, 1000000 * t, 4000, 1000000, 5000, true);
  EXPECT_EQ(cc.cwnd, 1000U);
  for (int i = 0; i < 2000; i++) mrc_nscc_on_ack(&cc, 0, 100000, 100, 100, false);
  EXPECT_EQ(cc.cwnd, 4U * 1024 * 1024);
  mrc_nscc_on_timeout(&cc);
  EXPECT_EQ(cc.cwnd, 2U * 1024 * 1024);
}

TEST(CoreNscc, LearnsBaseRttWhenUnset) {
  mrc_core_cc cfg{};
  mrc_nscc cc{};
  mrc_nscc_init(&cc, &cfg, 1400);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 1, 1400, 3000, 3000, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 2, 1400, 3500, 3000, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, 3, 1400, 4500, 3000, false), MRC_NSCC_FAIR);
  EXPECT_EQ(cc.min_rtt_us, 3000U);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
