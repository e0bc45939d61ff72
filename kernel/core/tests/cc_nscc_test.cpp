// SPDX-License-Identifier: GPL-2.0
// NSCC congestion control: the four quadrants, base RTT learning, and
// windows that share parameters but not state.
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
  mrc_nscc_win win{};
  mrc_nscc_init(&cc, &cfg, 1000);
  mrc_nscc_win_init(&cc, &win, 1);
  const uint32_t w0 = win.cwnd;
  EXPECT_EQ(w0, 16U * 1024);
  // No ECN, low delay: proportional increase (empty path: +acked).
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 1000, 4000, 100, 100, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(win.cwnd, w0 + 4000);
  // Half the target: half as much.
  uint32_t w = win.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 2000, 4000, 600, 600, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(win.cwnd, w + 2000);
  // No ECN, high delay: fair increase, one MSS per window acked.
  w = win.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 3000, w, 5000, 5000, false), MRC_NSCC_FAIR);
  EXPECT_EQ(win.cwnd, w + 1000);
  // ECN, low delay: hold.
  w = win.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 4000, 4000, 200, 200, true), MRC_NSCC_HOLD);
  EXPECT_EQ(win.cwnd, w);
  // ECN, high delay: decrease, bounded by max_md_jump (50%).
  w = win.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 100000, 4000, 1000000, 5000, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(win.cwnd, w - w / 2);
  // At most once per RTT.
  w = win.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 100010, 4000, 1000000, 5000, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(win.cwnd, w);
  // Moderate delay: a smaller cut (gamma * (delay - target) / delay).
  w = win.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 200000, 4000, 2100, 2100, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(win.cwnd, w - w / 2);
  w = win.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 300000, 4000, 1350, 1350, true), MRC_NSCC_DECREASE);
  EXPECT_EQ(win.cwnd, w - static_cast<uint32_t>(static_cast<uint64_t>(w) * 200000 / 1000000));
  // Never below one MSS, never above max_cwnd.
  for (uint64_t t = 1; t < 100; t++)
    mrc_nscc_on_ack(&cc, &win, 1000000 * t, 4000, 1000000, 5000, true);
  EXPECT_EQ(win.cwnd, 1000U);
  for (int i = 0; i < 2000; i++) mrc_nscc_on_ack(&cc, &win, 0, 100000, 100, 100, false);
  EXPECT_EQ(win.cwnd, 4U * 1024 * 1024);
  mrc_nscc_on_timeout(&cc, &win);
  EXPECT_EQ(win.cwnd, 2U * 1024 * 1024);
}

TEST(CoreNscc, LearnsBaseRttWhenUnset) {
  mrc_core_cc cfg{};
  mrc_nscc cc{};
  mrc_nscc_win win{};
  mrc_nscc_init(&cc, &cfg, 1400);
  mrc_nscc_win_init(&cc, &win, 1);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 1, 1400, 3000, 3000, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 2, 1400, 3500, 3000, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &win, 3, 1400, 4500, 3000, false), MRC_NSCC_FAIR);
  EXPECT_EQ(win.min_rtt_us, 3000U);
}

// Two windows of one connection (two planes): a decrease on one leaves the
// other alone, and each learns its own base RTT.
TEST(CoreNscc, WindowsAreIndependent) {
  mrc_core_cc cfg{};
  cfg.target_delay_ns = 100000;  // 100 us
  mrc_nscc cc{};
  mrc_nscc_win fast{};
  mrc_nscc_win slow{};
  mrc_nscc_init(&cc, &cfg, 1000);
  mrc_nscc_win_init(&cc, &fast, 1);
  mrc_nscc_win_init(&cc, &slow, 1);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &fast, 10, 1000, 50, 50, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &slow, 10, 1000, 200, 200, false), MRC_NSCC_PROPORTIONAL);
  EXPECT_EQ(fast.min_rtt_us, 50U);
  EXPECT_EQ(slow.min_rtt_us, 200U);
  const uint32_t f = fast.cwnd;
  const uint32_t w = slow.cwnd;
  EXPECT_EQ(mrc_nscc_on_ack(&cc, &slow, 1000, 1000, 600, 600, true), MRC_NSCC_DECREASE);
  EXPECT_LT(slow.cwnd, w);
  EXPECT_EQ(fast.cwnd, f);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
