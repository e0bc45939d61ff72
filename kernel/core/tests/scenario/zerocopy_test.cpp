// SPDX-License-Identifier: GPL-2.0
// The buffer interface (mrc.ko's zero copy) and EV trains: segments queued with
// mrc_core_send_buf() point into the application's append-only chunks and
// go to xmit() by reference; received DATA is kept as the environment's
// handle (rx_take()) and handed back with deliver(). The harness fails a
// test on any reference taken twice, given back twice or never given back,
// and on a payload sent from outside the buffer that holds it.
#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

void ZeroCopy(Net& net, size_t bytes_each_way) {
  for (Endpoint* e : {&net.a, &net.b}) {
    e->zero_copy = true;
    e->to_send = bytes_each_way;
  }
}

// Every plane of `net` loses, reorders and duplicates alike.
void Impair(Net& net, double loss, uint64_t jitter_us, double dup) {
  for (auto& p : net.planes) {
    p.loss = loss;
    p.jitter_us = jitter_us;
    p.dup = dup;
  }
}

// Both ways at once, over lossy, reordering, duplicating planes.
TEST(ZeroCopy, StreamBothWaysThroughLossAndReordering) {
  Net net(7);
  net.Setup(4);
  Impair(net, 0.02, 200, 0.01);
  ZeroCopy(net, 1 << 20);
  Establish(net);
  ASSERT_TRUE(DrainBoth(net, 60 * kSec));
  for (Endpoint* e : {&net.a, &net.b}) {
    const mrc_core_stats st = e->Stats();
    EXPECT_GT(st.retx_pkts, 0U) << "the loss was meant to cause retransmissions";
    // Every DATA transmission, first or again, went out by reference.
    EXPECT_EQ(e->data_tx_by_ref, st.tx_data_pkts + st.retx_pkts);
    // Every accepted packet was kept, not copied; duplicates were not.
    EXPECT_EQ(e->rx_taken, st.rx_data_pkts);
  }
  net.a.Destroy();
  net.b.Destroy();  // ExpectNoHandles(): every reference came back
}

TEST(ZeroCopy, SeqpacketMessagesArriveWhole) {
  Net net(3);
  net.Setup(2, MRC_SYN_SEQPACKET);
  net.planes.at(1).loss = 0.03;
  ZeroCopy(net, 40 * 5000);
  net.a.msg_size = 5000;
  net.b.msg_size = 5000;
  Establish(net);
  ASSERT_TRUE(DrainBoth(net, 60 * kSec));
  ASSERT_EQ(net.b.messages.size(), 40U);
  for (const Bytes& m : net.b.messages) EXPECT_EQ(m.size(), 5000U);
}

// A kept packet is held in the receive ring's slot itself: once the ring
// has grown to what the reordering needs, a received packet costs the
// core no allocation, in order or held past a gap.
TEST(ZeroCopy, ReceivedPacketCostsNoAllocation) {
  Net net(13);
  net.Setup(4);
  Impair(net, 0.01, 300, 0);
  ZeroCopy(net, 0);
  net.a.to_send = 4 << 20;
  Establish(net);
  const uint64_t calls = net.b.alloc_calls;
  ASSERT_TRUE(Drain(net, 60 * kSec));
  const mrc_core_stats st = net.b.Stats();
  ASSERT_GT(st.rx_data_pkts, 2500U);
  EXPECT_GT(st.drops[MRC_DROP_DUPLICATE] + net.a.Stats().retx_pkts, 0U) << "no loss: proves less";
  EXPECT_EQ(net.b.rx_taken, st.rx_data_pkts);
  // A few ring doublings; nothing per packet.
  EXPECT_LT(net.b.alloc_calls - calls, 16U) << st.rx_data_pkts << " packets";
}

// The environment may find no memory for a kept packet (mrc.ko cuts each
// packet of a GSO batch into an skb of its own in rx_take()): the packet
// is refused with a NO_BUFFER NACK, as a failed ring growth is, nothing
// is held for it, and the sender's resend fills the hole.
TEST(ZeroCopy, TakeWithoutMemoryIsRefusedAndResent) {
  Net net(17);
  net.Setup(2);
  ZeroCopy(net, 0);
  net.a.to_send = 1 << 20;
  net.b.rx_take_fail_every = 7;
  Establish(net);
  ASSERT_TRUE(DrainBoth(net, 60 * kSec));  // in order and intact
  const mrc_core_stats st = net.b.Stats();
  EXPECT_GT(net.b.rx_take_failed, 50U);
  EXPECT_EQ(st.drops[MRC_DROP_NO_BUFFER], net.b.rx_take_failed);
  EXPECT_EQ(net.b.rx_taken, st.rx_data_pkts);
  EXPECT_GE(net.a.Stats().nacks_rx, net.b.rx_take_failed) << "a NACK for each refusal";
  EXPECT_GE(net.a.Stats().retx_pkts, net.b.rx_take_failed);
  net.a.Destroy();
  net.b.Destroy();  // ExpectNoHandles(): nothing held for a refused packet
}

// Writes that continue one chunk fill whole segments, as copies do;
// a write in another buffer starts a new one.
TEST(ZeroCopy, ContiguousWritesFillSegments) {
  Net net;
  net.Setup(1);
  Establish(net);
  Endpoint& a = net.a;
  a.zero_copy = true;
  a.chunk_size = 1 << 20;
  // Nothing leaves while the only plane is down: segments stay queued.
  mrc_core_plane_update(a.core, 0, false);
  constexpr size_t kWrites = 300;
  constexpr size_t kWrite = 100;
  for (size_t i = 0; i < kWrites; i++) {
    ASSERT_EQ(a.SendByRef(kWrite, 0), static_cast<int>(kWrite));
    a.sent += kWrite;
  }
  const uint32_t mss = a.core->mss;
  EXPECT_EQ(a.core->snd_end - a.core->snd_una, (kWrites * kWrite + mss - 1) / mss);
  // A new chunk: the next write cannot continue the last segment.
  a.chunk_off = a.chunk->data.size();
  const uint32_t segs = a.core->snd_end - a.core->snd_una;
  ASSERT_EQ(a.SendByRef(kWrite, 0), static_cast<int>(kWrite));
  a.sent += kWrite;
  EXPECT_EQ(a.core->snd_end - a.core->snd_una, segs + 1);
  a.to_send = a.sent;
  mrc_core_plane_update(a.core, 0, true);
  ASSERT_TRUE(Drain(net));
  EXPECT_EQ(net.b.rx, Pattern(a.seed, a.to_send));
}

// A receiver that cannot take data keeps the handles; destroying both
// ends mid-transfer, with packets held past a gap, gives every one back.
TEST(ZeroCopy, HeldPacketsGoBackOnDestroy) {
  Net net(11);
  net.Setup(2);
  net.planes.at(0).loss = 0.2;
  ZeroCopy(net, 1 << 20);
  net.b.app_cap = 64 * 1024;
  net.b.auto_read = false;
  Establish(net);
  net.RunFor(200000);
  EXPECT_GT(net.b.refused, 0U);
  EXPECT_GT(net.b.rx_held.size(), 0U) << "nothing held: the test proves nothing";
  EXPECT_GT(net.a.chunks.size(), 0U);
  net.a.Destroy();
  net.b.Destroy();
  EXPECT_GT(net.b.rx_freed, 0U);
}

// mrc_core_send_buf() needs a handle and the ops that count it.
TEST(ZeroCopy, SendBufWithoutHandleIsRefused) {
  Net net;
  net.Setup(1);
  Establish(net);
  std::array<uint8_t, 16> bytes{};
  const mrc_core_buf buf{bytes.data(), static_cast<uint32_t>(bytes.size()), nullptr};
  EXPECT_EQ(mrc_core_send_buf(net.a.core, &buf, 0), -EINVAL);
}

// Trains: up to train_pkts first transmissions in a row on one EV, in
// one burst, which an environment that batches (the flush op) sends
// together.
TEST(Train, FirstTransmissionsRideOneEvInTrains) {
  Net net(5);
  net.Setup(4);
  // Rate-limited planes: the window, opened a SACK (4 packets) at a
  // time, is what limits the sender.
  for (uint32_t p = 0; p < 4; p++) net.planes.at(p).rate = 100;
  net.a.cfg.train_pkts = 8;
  net.a.batch = true;
  net.a.to_send = 2000 * 1400;
  Establish(net);
  ASSERT_TRUE(Drain(net));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, net.a.to_send));
  const std::vector<uint32_t>& evs = net.a.data_first_tx_evs;
  ASSERT_EQ(evs.size(), net.a.Stats().tx_data_pkts);
  std::vector<size_t> runs{1};
  for (size_t i = 1; i < evs.size(); i++) {
    if (evs[i] == evs[i - 1])
      runs.back()++;
    else
      runs.push_back(1);
  }
  // A train ends with its burst, so the window may cut one short, but
  // the sender waits for a whole train's room before it starts one.
  size_t in_full = 0;
  for (const size_t r : runs) in_full += r >= 8 ? r : 0;
  EXPECT_GT(in_full, evs.size() * 3 / 4) << "most DATA in whole trains";
  std::set<uint32_t> planes;
  for (const auto& [plane, n] : net.a.data_tx_by_plane) planes.insert(plane);
  EXPECT_EQ(planes.size(), 4U) << "trains still spread over every plane";
  EXPECT_GT(net.a.batched, 300U) << "most DATA went out in batches";
  // A burst is whole trains: no train split over two bursts, none sent
  // a few packets at a time as the window opens (the sender defers).
  size_t full = 0;
  for (const size_t n : net.a.batch_sizes) full += n == 8 ? n : 0;
  EXPECT_GT(full, net.a.data_first_tx_evs.size() * 3 / 4) << "batches of a whole train";
}

// A train stops at an EV that stopped being good, and loses nothing.
TEST(Train, TrainsSurviveDeadEvsAndLoss) {
  Net net(9);
  SetupTwoWayTrains(net, 2, 16);
  net.planes.at(0).loss = 0.01;
  Establish(net);
  for (uint32_t i = 0; i < 8; i++) net.planes.at(1).blackhole_evs.insert(net.a.Ev(2 * i + 1).value);
  ASSERT_TRUE(DrainBoth(net, 60 * kSec));
  EXPECT_GT(net.a.Stats().retx_pkts, 0U);
}

// 1, the default, sprays every packet: no EV twice in a row by design.
TEST(Train, DefaultSpraysEveryPacket) {
  Net net(5);
  net.Setup(4);
  net.a.to_send = 200 * 1400;
  Establish(net);
  ASSERT_TRUE(Drain(net));
  const std::vector<uint32_t>& evs = net.a.data_first_tx_evs;
  size_t repeats = 0;
  for (size_t i = 1; i < evs.size(); i++) repeats += evs[i] == evs[i - 1] ? 1 : 0;
  EXPECT_LT(repeats, 5U);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
