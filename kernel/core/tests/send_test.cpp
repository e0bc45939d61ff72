// SPDX-License-Identifier: GPL-2.0
// Sending: SOCK_SEQPACKET message boundaries, flow control against the
// peer's window and the send buffer, PSN wrap.
#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

TEST(CoreSeqpacket, MessageBoundariesKept) {
  Net net;
  net.Setup(2, MRC_SYN_SEQPACKET);
  Establish(net);
  const std::array<size_t, 6> sizes = {1, 1400, 1401, 4900, 100000, 7};
  size_t total = 0;
  for (size_t sz : sizes) {
    net.a.msg_size = sz;
    net.a.to_send = total + sz;
    ASSERT_TRUE(Drain(net));
    total += sz;
  }
  ASSERT_EQ(net.b.messages.size(), sizes.size());
  size_t off = 0;
  for (size_t i = 0; i < sizes.size(); i++) {
    EXPECT_EQ(net.b.messages[i].size(), sizes.at(i));
    EXPECT_EQ(net.b.messages[i], Pattern(net.a.seed, sizes.at(i), off));
    off += sizes.at(i);
  }
  EXPECT_TRUE(net.b.partial.empty());
}

TEST(CoreSeqpacket, TooLargeAndMissingEom) {
  Net net;
  net.Setup(2, MRC_SYN_SEQPACKET);
  net.a.cfg.sndbuf = 50000;
  Establish(net);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  EXPECT_EQ(mrc_core_send(net.a.core, 50001, MRC_F_EOM, fill, nullptr), -EMSGSIZE);
  EXPECT_EQ(mrc_core_send(net.a.core, 100, 0, fill, nullptr), -EINVAL);
  EXPECT_EQ(mrc_core_send(net.a.core, 50000, MRC_F_EOM, fill, nullptr), 50000);
  // Whole or nothing: no room for one more byte until acked.
  EXPECT_EQ(mrc_core_send(net.a.core, 10, MRC_F_EOM, fill, nullptr), 0);
  ASSERT_TRUE(net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > 0; }, net.now + kSec));
  EXPECT_EQ(mrc_core_send(net.a.core, 10, MRC_F_EOM, fill, nullptr), 10);
  ASSERT_TRUE(net.RunUntil([&] { return net.b.messages.size() == 2; }, net.now + kSec));
  EXPECT_EQ(net.b.messages[0].size(), 50000U);
  EXPECT_EQ(net.b.messages[1].size(), 10U);
}

// What SIOCOUTQ and SIOCOUTQNSD read: everything queued until acked, the
// part never sent until sent.
TEST(CoreFlow, SendQueuedCountsUnackedAndUnsent) {
  Net net;
  net.Setup(2);
  Establish(net);
  uint32_t queued = 1;
  uint32_t unsent = 1;
  mrc_core_send_queued(net.a.core, &queued, &unsent);
  EXPECT_EQ(queued, 0U);
  EXPECT_EQ(unsent, 0U);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  ASSERT_EQ(mrc_core_send(net.a.core, 200000, 0, fill, nullptr), 200000);
  mrc_core_send_queued(net.a.core, &queued, &unsent);
  EXPECT_EQ(queued, 200000U);
  // The first window went out at once; the rest waits for acknowledgements.
  EXPECT_GT(unsent, 0U);
  EXPECT_LT(unsent, queued);
  mrc_core_stats st{};
  mrc_core_get_stats(net.a.core, &st);
  EXPECT_EQ(queued - unsent, st.inflight_bytes);
  ASSERT_TRUE(net.RunUntil(
      [&] {
        mrc_core_send_queued(net.a.core, &queued, &unsent);
        return queued == 0;
      },
      net.now + kSec));
  EXPECT_EQ(unsent, 0U);
}

// A plane whose local queue is full (tx_busy) gets no new DATA until the
// environment says it drained (mrc_core_tx_ready()); the other plane
// carries the transfer meanwhile. With both full nothing new goes out,
// and the transfer completes once they drain.
TEST(CoreFlow, BusyLocalQueueHoldsDataUntilDrained) {
  Net net;
  net.Setup(2);
  Establish(net);
  net.a.busy_planes = 1U << 0;
  net.a.to_send = 1 << 20;
  net.a.Pump();
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() >= net.a.to_send / 4; }, net.now + kSec));
  EXPECT_EQ(net.a.data_tx_by_plane[0], 0U);
  EXPECT_GT(net.a.data_tx_by_plane[1], 0U);
  EXPECT_GT(net.a.busy_answers, 0U);

  net.a.busy_planes = 0x3;
  const uint64_t on0 = net.a.data_tx_by_plane[0];
  const uint64_t on1 = net.a.data_tx_by_plane[1];
  net.RunFor(kSec / 20);
  EXPECT_EQ(net.a.data_tx_by_plane[0], on0);
  EXPECT_EQ(net.a.data_tx_by_plane[1], on1);
  EXPECT_LT(net.b.rx.size(), net.a.to_send);

  net.a.TxDrained(0);
  EXPECT_GT(net.a.data_tx_by_plane[0], on0) << "tx_ready sent nothing";
  net.a.TxDrained(1);
  ASSERT_TRUE(Drain(net));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, net.a.to_send));
  EXPECT_EQ(net.a.Stats().retx_pkts, 0U);
}

// A writer that only asked for space (and found none) is still woken:
// the kernel checks send space, then sleeps without calling send.
TEST(CoreFlow, SendSpaceZeroArmsWritable) {
  Net net;
  net.Setup(2);
  net.a.cfg.sndbuf = 20000;
  Establish(net);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  ASSERT_EQ(mrc_core_send(net.a.core, 20000, 0, fill, nullptr), 20000);
  ASSERT_EQ(mrc_core_send_space(net.a.core, 1), 0U);
  const int before = net.a.NoteCount(MRC_NOTE_WRITABLE);
  ASSERT_TRUE(
      net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > before; }, net.now + kSec));
  EXPECT_GT(mrc_core_send_space(net.a.core, 1), 0U);
}

// A look (need 0) arms nothing: a writer that looked, then waits for a
// third of the buffer, is woken when that fits, not at the first
// acknowledgment (the smallest need armed wins, so a look's 1 woke the
// kernel's stream writer at every SACK).
TEST(CoreFlow, SendSpaceLookArmsNothing) {
  Net net;
  net.Setup(2);
  net.a.cfg.sndbuf = 60000;
  Establish(net);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  ASSERT_EQ(mrc_core_send(net.a.core, 60000, 0, fill, nullptr), 60000);
  ASSERT_EQ(mrc_core_send_space(net.a.core, 0), 0U);
  EXPECT_FALSE(
      net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > 0; }, net.now + kSec / 10));
  ASSERT_EQ(mrc_core_send(net.a.core, 60000, 0, fill, nullptr), 60000);  // full again
  ASSERT_EQ(mrc_core_send_space(net.a.core, 0), 0U);
  ASSERT_EQ(mrc_core_send_space(net.a.core, 20000), 0U);
  ASSERT_TRUE(net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > 0; }, net.now + kSec));
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_WRITABLE), 1);
  for (const auto& note : net.a.notes) {
    if (note.first == MRC_NOTE_WRITABLE) {
      EXPECT_GE(note.second, 20000U);
    }
  }
}

// A need beyond what an empty ring holds (a send buffer larger than
// MRC_CORE_MAX_SEGS segments) is met when the ring is empty, not never.
TEST(CoreFlow, SendSpaceNeedBeyondRingWakes) {
  Net net;
  net.Setup(2);
  net.a.cfg.sndbuf = 64U << 20;
  Establish(net);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  const uint32_t room = mrc_core_send_space(net.a.core, 1);
  ASSERT_LT(room, net.a.cfg.sndbuf) << "the ring should bound this buffer";
  ASSERT_EQ(mrc_core_send(net.a.core, room, 0, fill, nullptr), static_cast<int>(room));
  ASSERT_EQ(mrc_core_send_space(net.a.core, net.a.cfg.sndbuf), 0U);
  ASSERT_TRUE(
      net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > 0; }, net.now + 60 * kSec));
  EXPECT_EQ(mrc_core_send_space(net.a.core, 1), room);
}

// A message within the send buffer but beyond the ring's MRC_CORE_MAX_SEGS
// segments can never be queued: -EMSGSIZE, not a writer woken (the need is
// clamped to the ring) to find it does not fit, again and again.
TEST(CoreFlow, MessageBeyondRingIsTooBig) {
  Net net;
  net.Setup(2, MRC_SYN_SEQPACKET);
  net.a.cfg.sndbuf = 64U << 20;
  Establish(net);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  const uint32_t room = mrc_core_send_space(net.a.core, 1);
  ASSERT_LT(room, net.a.cfg.sndbuf) << "the ring should bound this buffer";
  EXPECT_EQ(mrc_core_send(net.a.core, room + 1, MRC_F_EOM, fill, nullptr), -EMSGSIZE);
  EXPECT_EQ(mrc_core_send(net.a.core, room, MRC_F_EOM, fill, nullptr), static_cast<int>(room));
}

// A message writer waits for room for the whole message: space that is
// there but too small must not wake it (a kernel writer would spin).
TEST(CoreFlow, MessageWriterWaitsForWholeMessage) {
  Net net;
  net.Setup(2, MRC_SYN_SEQPACKET);
  net.a.cfg.sndbuf = 20000;
  Establish(net);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  for (int i = 0; i < 4; i++) {
    ASSERT_EQ(mrc_core_send(net.a.core, 4500, MRC_F_EOM, fill, nullptr), 4500);
  }
  EXPECT_EQ(mrc_core_send(net.a.core, 4500, MRC_F_EOM, fill, nullptr), 0);
  EXPECT_EQ(mrc_core_send_space(net.a.core, 1), 2000U);
  EXPECT_EQ(mrc_core_send_space(net.a.core, 4500), 0U);
  const size_t before = net.a.notes.size();
  ASSERT_TRUE(net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > 0; }, net.now + kSec));
  for (size_t i = before; i < net.a.notes.size(); i++) {
    if (net.a.notes[i].first == MRC_NOTE_WRITABLE) {
      EXPECT_GE(net.a.notes[i].second, 4500U);
    }
  }
  EXPECT_GE(mrc_core_send_space(net.a.core, 4500), 4500U);
  // Bigger than the whole buffer: wait for all of it, then EMSGSIZE.
  EXPECT_EQ(mrc_core_send(net.a.core, 30000, MRC_F_EOM, fill, nullptr), -EMSGSIZE);
}

TEST(CoreFlow, SlowReaderLosesNothing) {
  Net net;
  net.Setup(2);
  net.b.cfg.rcvbuf = 64 * 1024;
  net.b.app_cap = 64 * 1024;
  net.b.auto_read = false;
  Establish(net);
  net.a.to_send = 1 << 20;
  int reads = 0;
  while (net.b.rx.size() < net.a.to_send && reads < 2000) {
    net.RunFor(3000);
    net.b.Read();
    reads++;
  }
  ASSERT_TRUE(Drain(net));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  EXPECT_GT(net.b.refused, 0U);  // deliver() was refused and retried
  const mrc_core_stats sb = net.b.Stats();
  EXPECT_EQ(sb.delivered_bytes, 1U << 20);
  EXPECT_EQ(net.a.error, 0);
}

TEST(CoreFlow, ZeroWindowRecoversWithoutWindowUpdate) {
  Net net;
  net.Setup(2);
  net.b.cfg.rcvbuf = 32 * 1024;
  net.b.app_cap = 32 * 1024;
  net.b.auto_read = false;
  Establish(net);
  net.a.to_send = 200000;
  net.RunFor(20000);
  EXPECT_EQ(net.a.Stats().peer_rwnd, 0U);
  // The app reads but the window-update SACK is lost: the persist probe
  // finds the open window.
  int lost_updates = 0;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    return from == 1 && p.type == MRC_PKT_SACK && ++lost_updates == 1;
  };
  for (int i = 0; i < 200 && net.b.rx.size() < net.a.to_send; i++) {
    net.b.Read();
    net.RunFor(20000);
  }
  ASSERT_TRUE(Drain(net));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  EXPECT_GE(lost_updates, 1);
}

class CorePsnWrap : public ::testing::TestWithParam<bool> {};

TEST_P(CorePsnWrap, TransferAcrossWrap) {
  const bool psn24 = GetParam();
  Net net(21);
  net.Setup(2);
  net.a.cfg.psn24 = psn24;
  const uint32_t top = psn24 ? 0xffffffU : 0xffffffffU;
  net.a.scripted_random = {0x1111, top - 200};  // token, ISN
  net.b.scripted_random = {0x2222, top - 5};
  for (auto& p : net.planes) p.loss = 0.01;
  Establish(net);
  net.a.to_send = 1 << 20;
  net.b.to_send = 300000;
  ASSERT_TRUE(DrainBoth(net));
  EXPECT_GT(net.a.Stats().retx_pkts, 0U);
}

INSTANTIATE_TEST_SUITE_P(Modes, CorePsnWrap, ::testing::Values(true, false));

// A lossy two-way transfer goes through every hot path (SACKs, RACK,
// RTOs, NACKs, probes, delayed SACKs); no call reads the clock twice.
TEST(CoreClock, OneReadPerCall) {
  Net net(22);
  net.Setup(4);
  for (auto& p : net.planes) p.loss = 0.02;
  net.planes[1].jitter_us = 200;
  Establish(net);
  net.a.to_send = 1 << 20;
  net.b.to_send = 200000;
  ASSERT_TRUE(DrainBoth(net));
  EXPECT_GT(net.a.Stats().retx_pkts, 0U);
  for (const Endpoint* e : {&net.a, &net.b}) {
    EXPECT_GT(e->clock_reads, 100U);
    EXPECT_EQ(e->max_clock_reads_per_call, 1U);
  }
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
