// SPDX-License-Identifier: GPL-2.0
// Entropy values under administrator control: a denied EV.
#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

TEST(CoreAdmin, DeniedEvIsNeverUsedAndProbeAnswers) {
  Net net;
  net.Setup(2);
  Establish(net);
  ASSERT_EQ(mrc_core_ev_set_state(net.a.core, 7, MRC_EV_DENIED), 0);
  EXPECT_EQ(mrc_core_ev_set_state(net.a.core, 7, MRC_EV_SKIP), -EINVAL);
  EXPECT_EQ(mrc_core_ev_set_state(net.a.core, 999, MRC_EV_GOOD), -ENOENT);
  EXPECT_EQ(net.a.Ev(7).state, MRC_EV_DENIED);
  net.a.to_send = 500000;
  ASSERT_TRUE(Drain(net));
  EXPECT_EQ(net.a.data_tx_by_ev.count(net.a.Ev(7).value), 0U);
  EXPECT_EQ(net.a.Ev(7).tx_pkts, 0U);
  ASSERT_EQ(mrc_core_ev_probe(net.a.core, 7), 0);
  EXPECT_TRUE(net.a.Ev(7).probing);
  net.RunFor(1000);
  EXPECT_EQ(net.a.Stats().probe_replies_rx, 1U);
  EXPECT_FALSE(net.a.Ev(7).probing);
  EXPECT_EQ(net.a.Ev(7).state, MRC_EV_DENIED);  // only the admin lifts it
  ASSERT_EQ(mrc_core_ev_set_state(net.a.core, 7, MRC_EV_GOOD), 0);
  net.a.to_send += 500000;
  ASSERT_TRUE(Drain(net));
  EXPECT_GT(net.a.Ev(7).tx_pkts, 0U);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
