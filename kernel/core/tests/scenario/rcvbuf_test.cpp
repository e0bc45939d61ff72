// SPDX-License-Identifier: GPL-2.0
// Small receive buffers and windows under loss and reordering: a buffer
// that fills with out-of-order data past a gap must still take the packet
// that fills the gap, or every retransmission of it is refused (NO_BUFFER)
// and the transfer stalls until the user timeout; a sender that learns the
// receiver's PSN window from its NACKs must not widen it again with the
// NACKs for the PSNs further out, or it resends them into the same refusal.
#include <tuple>

#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

constexpr size_t kMiB = 1 << 20;

// rcvbuf, seed
class SmallRcvbuf : public ::testing::TestWithParam<std::tuple<uint32_t, uint64_t>> {};

TEST_P(SmallRcvbuf, LossAndJitterDoNotStall) {
  const auto [rcvbuf, seed] = GetParam();
  Net net(seed);
  net.Setup(2);
  for (Endpoint* e : {&net.a, &net.b}) {
    e->cfg.sndbuf = 4 * kMiB;  // mrc.ko's default: far more than the peer's buffer
    e->cfg.rcvbuf = rcvbuf;
    e->cfg.user_timeout_ms = 2000;
  }
  for (auto& p : net.planes) {
    p.loss = 0.02;
    p.jitter_us = 300;
  }
  net.Connect();
  net.a.to_send = 8 * kMiB;
  const bool done = net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send;
      },
      net.now + 30 * kSec);
  const mrc_core_stats sb = net.b.Stats();
  ASSERT_TRUE(done) << "stalled at " << net.b.rx.size() << " of " << net.a.to_send
                    << " bytes; a error " << net.a.error << ", b refused "
                    << sb.drops[MRC_DROP_NO_BUFFER] << " DATA for lack of buffer";
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send)) << "payload corrupted";
  EXPECT_EQ(net.a.error, 0);
  // Never more than the buffer plus the one packet that fills the gap.
  EXPECT_LE(mrc_core_mem_bytes(net.b.core), sizeof(mrc_core) + 2 * rcvbuf + 64 * 1024);
  EXPECT_LT(net.a.Stats().longest_stall_us, kSec);
}

INSTANTIATE_TEST_SUITE_P(Buffers, SmallRcvbuf,
                         ::testing::Combine(::testing::Values(256U * 1024, 512U * 1024,
                                                              1024U * 1024),
                                            ::testing::Values(1U, 2U, 3U)));

// The receiver side of it, packet by packet: a buffer full of data past a
// gap refuses more out-of-order data but takes the gap's packet, delivers
// everything and opens its window again.
TEST(SmallRcvbuf, GapPacketTakenWhenFullOfOutOfOrderData) {
  Net net(21);
  net.Setup(1);
  net.a.cfg.rcvbuf = 8 * 1400;
  net.b.cfg.rcvbuf = 8 * 1400;
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  const uint32_t isn = net.b.core->rcv_nxt;
  const Bytes payload(1400, 0x42);
  auto data = [&](uint32_t off) {
    mrc_pkt p{};
    p.type = MRC_PKT_DATA;
    p.src_token = mrc_core_peer_token(net.b.core);
    p.dst_token = mrc_core_token(net.b.core);
    p.ev = net.a.Ev(0).value;
    p.data.psn = isn + off;
    p.data.tsval = 1;
    p.payload = payload.data();
    p.payload_len = 1400;
    return mrc_core_input(net.b.core, &p, 0, false);
  };
  for (uint32_t off = 1; off <= 8; off++) EXPECT_EQ(data(off), MRC_DROP_NONE) << off;
  EXPECT_EQ(data(9), MRC_DROP_NO_BUFFER) << "out-of-order data beyond the buffer";
  EXPECT_EQ(mrc_rcv_rwnd(net.b.core), 0U);
  EXPECT_EQ(data(0), MRC_DROP_NONE) << "the packet that fills the gap";
  EXPECT_EQ(net.b.rx.size(), 9U * 1400);
  EXPECT_EQ(net.b.core->held_bytes, 0U);
  EXPECT_EQ(data(9), MRC_DROP_NO_BUFFER) << "the application has no room left";
  net.b.Read();
  EXPECT_EQ(data(9), MRC_DROP_NONE);
}

// The sender's side: the segment b's cum_psn waits for is resent as soon
// as it is found lost, though b's window is closed by what it holds past
// the gap; only a NO_BUFFER NACK for it (b out of memory) makes it wait
// for the retransmission timer.
TEST(SmallRcvbuf, GapPacketResentThroughClosedWindow) {
  Net net(22);
  net.Setup(1);
  net.a.cfg.rto_min_us = 50000;  // far from the reordering window
  net.a.cfg.rto_init_us = 50000;
  net.a.scripted_random = {0x1111, 1000};  // token, ISN
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  net.filter = [](int from, uint32_t, const mrc_pkt&) { return from == 0; };  // b hears nothing
  const uint64_t sent_at = net.now;
  net.a.to_send = 8 * 1400;
  net.RunFor(1000);
  ASSERT_EQ(net.a.Stats().tx_data_pkts, 8U);

  // b holds 1001..1007, which close its window; 1000 is missing.
  mrc_pkt sack{};
  sack.type = MRC_PKT_SACK;
  sack.src_token = mrc_core_peer_token(net.a.core);
  sack.dst_token = mrc_core_token(net.a.core);
  sack.ev = 7;
  sack.sack.cum_psn = 1000;
  sack.sack.sack_base = 960;
  sack.sack.bitmap = 0x7fULL << 41;
  sack.sack.trig_psn = 1007;
  sack.sack.echo_ev = net.a.Ev(0).value;  // an RTT for plane 0
  sack.sack.ts_echo = static_cast<uint32_t>(sent_at);
  sack.sack.rwnd = 0;
  sack.sack.plane_up = 1;
  ASSERT_EQ(mrc_core_input(net.a.core, &sack, 0, false), MRC_DROP_NONE);
  EXPECT_EQ(net.a.Stats().peer_rwnd, 0U);
  net.RunFor(5000);  // the reordering window (an RTT and a bit) passes
  EXPECT_EQ(net.a.Stats().retx_pkts, 1U) << "gap packet resent through the closed window";
  EXPECT_EQ(net.a.Stats().rto_count, 0U);

  // b refuses it for lack of memory: now it waits for the RTO.
  mrc_pkt nack{};
  nack.type = MRC_PKT_NACK;
  nack.src_token = sack.src_token;
  nack.dst_token = sack.dst_token;
  nack.ev = 7;
  nack.nack.psn = 1000;
  nack.nack.cum_psn = 1000;
  nack.nack.reason = MRC_NACK_NO_BUFFER;
  ASSERT_EQ(mrc_core_input(net.a.core, &nack, 0, false), MRC_DROP_NONE);
  net.RunFor(40000);
  EXPECT_EQ(net.a.Stats().retx_pkts, 1U);
  net.RunFor(100000);  // the retransmission timer (50 ms) resends it
  EXPECT_EQ(net.a.Stats().retx_pkts, 2U);
}

// A receive buffer smaller than one segment (here 1,000 bytes against an
// MSS of 1,400; in the module, a small SO_RCVBUF on a jumbo-MTU plane):
// b takes the next in-order segment whenever it holds nothing, so it must
// advertise a segment's worth. It used to advertise the 1,000 bytes, which
// a sends no segment into: every segment waited for the persist timer
// (found by fuzz_ack, corpus regress-drain-stall-*).
TEST(SmallRcvbuf, BufferSmallerThanOneSegmentStillFlows) {
  Net net(24);
  net.Setup(1);
  net.b.cfg.rcvbuf = 1000;
  net.Connect();
  net.a.to_send = 64 * 1400;
  const uint64_t start = net.now;
  ASSERT_TRUE(net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send;
      },
      net.now + 30 * kSec))
      << "stalled at " << net.b.rx.size() << " of " << net.a.to_send;
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  // One segment a round trip, never a persist timeout between two.
  EXPECT_LT(net.a.Stats().longest_stall_us, 10000U);
  EXPECT_LT(net.now - start, 64 * 10000U);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_NO_BUFFER], 0U);
  EXPECT_LE(mrc_rcv_rwnd(net.b.core), 1400U);
}

// The window update that reopens it: after the application was full, the
// space it frees is news as soon as a whole segment fits again, though it
// is less than a quarter of the buffer past the last window.
TEST(SmallRcvbuf, WindowUpdateWhenASegmentFitsAgain) {
  Net net(25);
  net.Setup(1);
  net.b.cfg.rcvbuf = 1000;
  net.b.auto_read = false;
  net.Connect();
  net.a.to_send = 4 * 1400;
  net.RunFor(200000);
  ASSERT_EQ(net.b.rx.size(), 1400U) << "one segment over the application's buffer, no more";
  EXPECT_EQ(net.a.Stats().peer_rwnd, 0U);
  const uint64_t sacks = net.b.Stats().sacks_tx;
  net.b.Read();
  EXPECT_EQ(net.b.Stats().sacks_tx, sacks + 1) << "no window update";
  net.RunFor(2000);  // far less than a's retransmission timer
  EXPECT_EQ(net.b.rx.size(), 2U * 1400);
}

// An application that stops reading: the zero-window probes are refused,
// so its queue stays one segment over its buffer however long it waits,
// and the sender, answered, keeps the connection past its user timeout.
TEST(SmallRcvbuf, ApplicationThatStopsReadingGrowsNothing) {
  Net net(26);
  net.Setup(1);
  net.b.cfg.rcvbuf = 16 * 1400;
  net.b.auto_read = false;
  net.a.cfg.user_timeout_ms = 5000;  // more than the probes' longest gap (rto_max)
  net.Connect();
  net.a.to_send = 64 * 1400;
  net.RunFor(20 * kSec);
  EXPECT_EQ(net.b.rx.size(), 16U * 1400);
  EXPECT_EQ(net.a.error, 0) << "a gave up on a peer that answers";
  EXPECT_GT(net.b.Stats().drops[MRC_DROP_NO_BUFFER], 3U) << "no zero-window probes";
  EXPECT_LT(net.b.Stats().drops[MRC_DROP_NO_BUFFER], 40U) << "probes that do not back off";
  net.b.Read();
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 32U * 1400; }, net.now + kSec));
}

// 1-byte messages are 1-byte segments: the bytes of b's buffer allow far
// more PSNs in flight than its PSN window (256) takes. With loss and
// reordering the window's edge is hit; a learns it from the first NACK.
// (Before: each later NACK widened it again, ~4,400 refusals and ~4,700
// retransmissions for 20,000 messages; now ~250 and ~700.)
TEST(SmallRcvbuf, TinyMessagesLearnThePsnWindowOnce) {
  Net net(1);
  net.Setup(1, MRC_SYN_SEQPACKET);
  net.b.cfg.rcvbuf = 1000;
  net.planes[0].jitter_us = 300;
  net.planes[0].loss = 0.02;
  net.a.msg_size = 1;
  net.Connect();
  net.a.to_send = 20000;
  ASSERT_TRUE(
      net.RunUntil([&] { return net.b.messages.size() == net.a.to_send; }, net.now + 10 * kSec));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  EXPECT_LT(net.b.Stats().drops[MRC_DROP_PSN_WINDOW], 1000U);
  EXPECT_LT(net.a.Stats().retx_pkts, 1500U);
}

// The NACKs of one refused burst, in order: the window is the first one's.
TEST(SmallRcvbuf, PsnWindowFromNacksNeverWidens) {
  Net net(23);
  net.Setup(1, MRC_SYN_SEQPACKET);
  net.a.scripted_random = {0x1111, 5000};  // token, ISN
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  net.filter = [](int from, uint32_t, const mrc_pkt&) { return from == 0; };  // b hears nothing
  net.a.msg_size = 1;
  net.a.to_send = 300;
  net.RunFor(100);
  ASSERT_EQ(net.a.Stats().tx_data_pkts, 300U);
  auto nack = [&](uint32_t psn) {
    mrc_pkt n{};
    n.type = MRC_PKT_NACK;
    n.src_token = mrc_core_peer_token(net.a.core);
    n.dst_token = mrc_core_token(net.a.core);
    n.ev = 7;
    n.nack.psn = psn;
    n.nack.cum_psn = 5000;
    n.nack.reason = MRC_NACK_PSN_OUT_OF_WINDOW;
    return mrc_core_input(net.a.core, &n, 0, false);
  };
  ASSERT_EQ(nack(5150), MRC_DROP_NONE);
  EXPECT_EQ(net.a.core->peer_psn_win, 150U);
  ASSERT_EQ(nack(5151), MRC_DROP_NONE);
  ASSERT_EQ(nack(5190), MRC_DROP_NONE);
  EXPECT_EQ(net.a.core->peer_psn_win, 150U) << "widened by a NACK further out";
  ASSERT_EQ(nack(5120), MRC_DROP_NONE);
  EXPECT_EQ(net.a.core->peer_psn_win, 120U);
  ASSERT_EQ(nack(5010), MRC_DROP_NONE);
  EXPECT_EQ(net.a.core->peer_psn_win, 64U) << "never below 64";
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
