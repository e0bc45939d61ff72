// SPDX-License-Identifier: GPL-2.0
// Receive batches: the packets of one GSO or GRO skb reach the core in one
// mrc_core_input_begin()/_end() bracket, which answers them with one SACK
// and reads the clock once (the harness fails a call that reads it twice).
#include "harness.hpp"

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

// One plane, trains of 8 at the sender; `rx_batch` at the receiver or not.
void TrainTransfer(Net& net, bool rx_batch) {
  net.Setup(1);
  net.a.cfg.train_pkts = 8;
  net.a.batch = true;
  net.a.to_send = 2000 * 1400;
  net.rx_batch = rx_batch;
  Establish(net);
  ASSERT_TRUE(Drain(net));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, net.a.to_send));
}

TEST(RxBatch, OneSackPerBatch) {
  Net per_pkt(3);
  TrainTransfer(per_pkt, false);
  Net batched(3);
  TrainTransfer(batched, true);
  const uint64_t sacks_per_pkt = per_pkt.b.Stats().sacks_tx;
  const uint64_t sacks_batched = batched.b.Stats().sacks_tx;
  size_t in_batches = 0;
  for (const size_t n : batched.rx_batch_sizes) in_batches += n > 1 ? n : 0;
  EXPECT_GT(in_batches, batched.b.Stats().rx_data_pkts / 2) << "most DATA came in batches";
  // Per packet: a SACK every 4 DATA and at each burst's tail; batched:
  // at most one a batch.
  EXPECT_LE(sacks_batched, batched.rx_batch_sizes.size());
  EXPECT_LT(sacks_batched * 10, sacks_per_pkt)
      << sacks_batched << " SACKs batched, " << sacks_per_pkt << " per packet";
}

// A packet lost inside a train: the batch's one SACK shows the gap, and
// the sender resends it from that, not from its retransmission timer.
TEST(RxBatch, GapInsideABatchIsReportedAtItsEnd) {
  Net net(4);
  net.Setup(1);
  net.a.cfg.train_pkts = 8;
  net.a.batch = true;
  net.a.to_send = 64 * 1400;
  net.rx_batch = true;
  uint64_t first_tx = 0;
  net.filter = [&](int from, uint32_t /*plane*/, const mrc_pkt& pkt) {
    if (from != 0 || pkt.type != MRC_PKT_DATA || (pkt.flags & MRC_F_RETX) != 0) return false;
    return ++first_tx == 11;  // the third packet of the second train
  };
  Establish(net);
  ASSERT_TRUE(Drain(net));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, net.a.to_send));
  const mrc_core_stats st = net.a.Stats();
  EXPECT_EQ(st.retx_pkts, 1U);
  EXPECT_EQ(st.rto_count, 0U) << "the gap was reported by the batch's SACK";
  EXPECT_GT(net.b.Stats().ooo_pkts, 0U);
}

// Both ways at once, lossy and duplicating, zero copy at both ends: every
// byte arrives intact and every handle goes back.
TEST(RxBatch, LossyTransferBothWaysIsIntact) {
  Net net(6);
  SetupTwoWayTrains(net, 2, 16);
  net.b.seed = 2;
  net.planes.at(0).loss = 0.01;
  net.planes.at(1).dup = 0.02;
  net.rx_batch = true;
  Establish(net);
  ASSERT_TRUE(DrainBoth(net, 60 * kSec));
  EXPECT_FALSE(net.rx_batch_sizes.empty());
  EXPECT_GT(net.b.Stats().dup_pkts, 0U);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
