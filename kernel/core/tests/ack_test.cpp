// SPDX-License-Identifier: GPL-2.0
// ACK processing with hand-made packets: SACK bitmaps, SACKs of what was
// never sent, wrong tokens, NACKs (plain and trimmed).
#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

// Hand-made packets from b to a (a's token, b's token as source).
mrc_pkt FromB(const Net& net, uint8_t type) {
  mrc_pkt p{};
  p.type = type;
  p.dst_token = mrc_core_token(net.a.core);
  p.src_token = mrc_core_token(net.b.core);
  p.ev = 3000;
  return p;
}

// Ten segments (14000 bytes) leave a and vanish.
void TenSegmentsVanish(Net& net) {
  net.filter = [](int from, uint32_t, const mrc_pkt& p) {
    return from == 0 && p.type == MRC_PKT_DATA;
  };
  net.a.to_send = 14000;
  net.RunFor(10);
  ASSERT_EQ(net.a.Stats().tx_data_pkts, 10U);
  ASSERT_EQ(net.a.Stats().inflight_bytes, 14000U);
}

class CoreAck : public ::testing::Test {
 protected:
  void SetUp() override {
    net_.Setup(2);
    net_.a.scripted_random = {0xaaaa, kIsn};
    net_.b.scripted_random = {0xbbbb, 5000};
    Establish(net_);
    ASSERT_NO_FATAL_FAILURE(TenSegmentsVanish(net_));
  }
  static constexpr uint32_t kIsn = 1000;
  Net net_{31};
};

TEST_F(CoreAck, SackBitmapAcksExactlyItsBits) {
  mrc_pkt s = FromB(net_, MRC_PKT_SACK);
  s.sack.cum_psn = kIsn;
  s.sack.sack_base = kIsn & ~63U;
  for (uint32_t psn = kIsn + 2; psn <= kIsn + 6; psn++)
    s.sack.bitmap |= 1ULL << (psn - s.sack.sack_base);
  s.sack.trig_psn = kIsn + 6;
  s.sack.rwnd = 1 << 20;
  s.sack.plane_up = 0x3;
  EXPECT_EQ(mrc_core_input(net_.a.core, &s, 0, false), MRC_DROP_NONE);
  mrc_core_stats st = net_.a.Stats();
  EXPECT_EQ(st.acked_bytes, 5U * 1400);
  EXPECT_EQ(st.sacks_rx, 1U);
  // Cumulative ACK of the first two.
  s.sack.cum_psn = kIsn + 2;
  EXPECT_EQ(mrc_core_input(net_.a.core, &s, 1, false), MRC_DROP_NONE);
  st = net_.a.Stats();
  EXPECT_EQ(st.acked_bytes, 7U * 1400);
  // The same SACK again changes nothing.
  EXPECT_EQ(mrc_core_input(net_.a.core, &s, 1, false), MRC_DROP_NONE);
  EXPECT_EQ(net_.a.Stats().acked_bytes, 7U * 1400);
}

// SACKs overtake each other. While the peer holds data past a gap its
// in-order count stands still, and a late SACK, sent when it held less,
// must not reopen the room the newer one said was gone (the sender then
// overran the peer's buffer: 1522 NO_BUFFER refusals in mrc-netsim's
// spine-failure). With as much held, a bigger window is the application
// reading, and counts.
TEST_F(CoreAck, LateSackPastAGapOpensNoRoom) {
  auto sack = [&](uint32_t held, uint32_t rwnd) {
    mrc_pkt s = FromB(net_, MRC_PKT_SACK);
    s.sack.cum_psn = kIsn;
    s.sack.sack_base = kIsn & ~63U;
    for (uint32_t psn = kIsn + 1; psn <= kIsn + held; psn++)
      s.sack.bitmap |= 1ULL << (psn - s.sack.sack_base);
    s.sack.trig_psn = kIsn + held;
    s.sack.rcv_bytes = 0;
    s.sack.ooo_count = static_cast<uint16_t>(held);
    s.sack.rwnd = rwnd;
    s.sack.plane_up = 0x3;
    EXPECT_EQ(mrc_core_input(net_.a.core, &s, 0, false), MRC_DROP_NONE);
    return net_.a.Stats().peer_rwnd;
  };
  EXPECT_EQ(sack(5, 3000), 3000U);
  EXPECT_EQ(sack(2, 1U << 20), 3000U) << "a late SACK reopened the window";
  EXPECT_EQ(sack(5, 60000), 60000U) << "a window update was ignored";
  EXPECT_EQ(sack(7, 2000), 2000U);
}

// One plane, two EVs, ten segments gone: a's core, its first unacked
// PSN (una) and one at least three after it (later), sent on the same
// EV as una or on the other.
struct TwoEvsTenGone {
  explicit TwoEvsTenGone(bool same_ev) {
    net.Setup(1);
    net.a.cfg.ev_count = 2;
    net.b.cfg.ev_count = 2;
    Establish(net);
    TenSegmentsVanish(net);
    core = net.a.core;
    una = core->snd_una;
    const mrc_seg* first = core->sq[una & core->sq_mask];
    for (uint32_t k = 3; k < 10 && first != nullptr && later == 0; k++) {
      const mrc_seg* seg = core->sq[(una + k) & core->sq_mask];
      if ((seg->ev_idx == first->ev_idx) == same_ev) later = una + k;
    }
  }
  // A SACK of PSN `psn` alone, una not yet in order.
  int Sack(uint32_t psn) {
    mrc_pkt s = FromB(net, MRC_PKT_SACK);
    s.sack.cum_psn = una;
    s.sack.sack_base = psn & ~63U;
    s.sack.bitmap = 1ULL << (psn - s.sack.sack_base);
    s.sack.trig_psn = psn;
    s.sack.rwnd = 1 << 20;
    s.sack.plane_up = 0x1;
    return mrc_core_input(core, &s, 0, false);
  }
  Net net{7};
  mrc_core* core = nullptr;
  uint32_t una = 0;
  uint32_t later = 0;  // 0: none found (the test fails)
};

// An EV is one route and a route keeps order: once a later transmission
// on a segment's EV is acked, the segment is lost, with no reorder wait
// (gray-failure in mrc-netsim: 3.46x -> 2.46x of ideal). A later one on
// another EV is no such proof before the wait.
TEST(CoreAckEv, LaterAckOnTheSameEvLosesAtOnce) {
  for (const bool same_ev : {true, false}) {
    TwoEvsTenGone t(same_ev);
    ASSERT_NE(t.later, 0U);
    EXPECT_EQ(t.Sack(t.later), MRC_DROP_NONE);
    EXPECT_EQ(t.net.a.Stats().fast_retx > 0, same_ev) << "same EV: " << same_ev;
  }
}

// SACKs that arrive together (a socket backlog's, taken as one input
// batch) are all taken before loss detection: the first may prove a
// segment lost (a later one on its EV acked) that the second
// acknowledges. Taken one by one, the segment is resent for nothing
// (make bench's P1h, where SACKs wait in the sender's backlog while it
// holds the socket); in one batch it is not.
TEST(CoreAckEv, BatchTakesItsSacksBeforeCountingLosses) {
  for (const bool batch : {false, true}) {
    TwoEvsTenGone t(true);
    ASSERT_NE(t.later, 0U);
    if (batch) mrc_core_input_begin(t.core);
    EXPECT_EQ(t.Sack(t.later), MRC_DROP_NONE);
    EXPECT_EQ(t.Sack(t.una), MRC_DROP_NONE);
    if (batch) mrc_core_input_end(t.core);
    const mrc_core_stats st = t.net.a.Stats();
    EXPECT_EQ(st.fast_retx > 0, !batch) << "batch: " << batch;
    EXPECT_EQ(t.core->snd_una, t.una + 1) << "batch: " << batch;
    if (batch) {
      EXPECT_EQ(st.retx_pkts, 0U);
    }
  }
}

// A packet lost on its way is resent about a round trip after it left
// (its EV's RTT, a quarter more, the variation), not after the peer's
// ACK delay too: the peer SACKs what lies past a gap, and what closes
// one, at once (recv.c). With the delay (200 us here) in the wait, a
// packet lost on a failing route held the peer's window for 70-80 us
// where its round trip was 8-20 us (mrc-netsim's gray-failure).
TEST(CoreAckWait, LossIsFoundAboutARoundTripAfterItLeft) {
  Net net(5);
  net.Setup(2);
  for (uint32_t p = 0; p < 2; p++) net.planes[p].delay_us = 10;
  Establish(net);
  // A route that loses everything: no later packet of its EV is ever
  // acked, so only the wait finds its losses.
  const mrc_core_ev_info dead = net.a.Ev(0);
  std::map<uint32_t, uint64_t> sent;  // PSN -> when it left on the dead EV
  uint64_t worst = 0;
  uint32_t found = 0;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from != 0 || p.type != MRC_PKT_DATA) return false;
    const auto it = sent.find(p.data.psn);
    if (it != sent.end()) {
      worst = std::max(worst, net.now - it->second);
      found++;
      sent.erase(it);
    } else if (p.ev == dead.value) {
      sent[p.data.psn] = net.now;
    }
    return p.ev == dead.value;
  };
  net.a.to_send = 512 * 1024;
  ASSERT_TRUE(Drain(net));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  ASSERT_GT(found, 0U);
  EXPECT_TRUE(sent.empty());
  EXPECT_EQ(net.a.Stats().rto_count, 0U);
  EXPECT_LT(worst, 100U) << "round trip 20 us, ACK delay 200 us";
}

// The last packets of a transfer vanish: no later transmission will be
// acked, so RACK cannot call them lost. The tail probe resends the last
// about two round trips after it left (RACK-TLP), not at the RTO (2 ms
// here, 200 us and more in the module: many round trips of a fabric), on
// another route; its SACK is the later transmission that lets RACK call
// the one before it lost. Neither an EV nor a window pays for the probe.
TEST(CoreAckWait, LostTailIsProbedBeforeTheRto) {
  for (const uint32_t lost : {1U, 2U}) {
    SCOPED_TRACE(testing::Message() << "the last " << lost << " vanish");
    Net net(9);
    net.Setup(2);
    for (uint32_t p = 0; p < 2; p++) net.planes[p].delay_us = 10;
    Establish(net);
    constexpr uint32_t kPkts = 40;
    uint32_t seen = 0;
    std::map<uint32_t, uint64_t> gone;  // PSN -> when its first copy vanished
    uint64_t worst = 0;
    net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
      if (from != 0 || p.type != MRC_PKT_DATA) return false;
      const auto it = gone.find(p.data.psn);
      if (it != gone.end()) {
        worst = std::max(worst, net.now - it->second);
        return false;
      }
      if (++seen > kPkts - lost) {
        gone[p.data.psn] = net.now;
        return true;
      }
      return false;
    };
    net.a.to_send = kPkts * 1400;
    ASSERT_TRUE(Drain(net));
    EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
    ASSERT_EQ(gone.size(), lost);
    const mrc_core_stats st = net.a.Stats();
    EXPECT_EQ(st.rto_count, 0U);
    EXPECT_EQ(st.tail_probes, 1U);
    EXPECT_EQ(st.retx_pkts, lost);
    EXPECT_LT(worst, 200U) << "round trip 20 us, RTO at least 2000 us";
    uint64_t ev_losses = 0;  // the probed one is none
    for (uint32_t i = 0; i < 128; i++) ev_losses += net.a.Ev(i).losses;
    EXPECT_EQ(ev_losses, lost - 1);
  }
}

// Messages that trickle in faster than they are acked (one every 2 us, a
// 20 us round trip): each is the newest when it leaves. One at a time
// asks for a prompt SACK (MRC_F_ACK_NOW); the peer's every-4 SACKs answer
// the rest. Each asking made a SACK for every DATA packet (a profile of
// 1400-byte SOCK_SEQPACKET messages in the guest: 35.6k SACKs for 35.9k
// DATA). The last still gets its SACK without a needless tail probe.
TEST(CoreAckWait, TrickledMessagesAskForFewSacks) {
  Net net(3);
  net.Setup(2, MRC_SYN_SEQPACKET);
  for (uint32_t p = 0; p < 2; p++) net.planes[p].delay_us = 10;
  Establish(net);
  constexpr size_t kMsg = 1400;
  constexpr size_t kMsgs = 400;
  net.a.msg_size = kMsg;
  for (size_t i = 0; i < kMsgs; i++) {
    net.a.to_send += kMsg;
    net.RunFor(2);
  }
  ASSERT_TRUE(Drain(net));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  EXPECT_EQ(net.b.messages.size(), kMsgs);
  const mrc_core_stats st = net.a.Stats();
  EXPECT_EQ(st.tx_data_pkts, kMsgs);
  EXPECT_EQ(st.retx_pkts, 0U);
  EXPECT_EQ(st.tail_probes, 0U);
  EXPECT_LT(st.sacks_rx * 2, st.tx_data_pkts) << st.sacks_rx << " SACKs";
}

// SACKs overtake each other, and a stale one's plane_up is as old as its
// window: one sent while the peer's plane 1 was down, arriving after one
// sent once it was up again, must not take the plane away again (in
// mrc-netsim's link-flap each return of a host link lost 70 packets in
// flight there). A newer one that says the plane is down does.
TEST_F(CoreAck, StaleSackDoesNotTakeAPlaneAway) {
  auto sack = [&](uint32_t rcv_bytes, uint16_t plane_up) {
    mrc_pkt s = FromB(net_, MRC_PKT_SACK);
    s.sack.cum_psn = kIsn;
    s.sack.sack_base = kIsn & ~63U;
    s.sack.trig_psn = kIsn;
    s.sack.rcv_bytes = rcv_bytes;
    s.sack.rwnd = 1 << 20;
    s.sack.plane_up = plane_up;
    EXPECT_EQ(mrc_core_input(net_.a.core, &s, 0, false), MRC_DROP_NONE);
    return net_.a.Stats().retx_pkts;
  };
  ASSERT_EQ(sack(5000, 0x3), 0U);
  EXPECT_EQ(sack(4000, 0x1), 0U) << "a stale SACK took plane 1 away";
  EXPECT_GT(sack(6000, 0x1), 0U) << "plane 1's packets were not resent when it went down";
}

TEST_F(CoreAck, SackOfNeverSentIsDropped) {
  const mrc_core_stats before = net_.a.Stats();
  mrc_pkt s = FromB(net_, MRC_PKT_SACK);
  s.sack.cum_psn = kIsn + 11;  // only 10 were sent
  s.sack.sack_base = kIsn & ~63U;
  s.sack.trig_psn = kIsn + 1;
  s.sack.rwnd = 1 << 20;
  EXPECT_EQ(mrc_core_input(net_.a.core, &s, 0, false), MRC_DROP_ACK);
  s.sack.cum_psn = kIsn;
  s.sack.bitmap = 1ULL << (kIsn + 12 - s.sack.sack_base);
  EXPECT_EQ(mrc_core_input(net_.a.core, &s, 0, false), MRC_DROP_ACK);
  mrc_pkt n = FromB(net_, MRC_PKT_NACK);
  n.nack.psn = kIsn + 10;
  n.nack.cum_psn = kIsn;
  n.nack.reason = MRC_NACK_NO_RESOURCE;
  EXPECT_EQ(mrc_core_input(net_.a.core, &n, 0, false), MRC_DROP_ACK);
  const mrc_core_stats after = net_.a.Stats();
  EXPECT_EQ(after.drops[MRC_DROP_ACK], before.drops[MRC_DROP_ACK] + 3);
  EXPECT_EQ(after.acked_bytes, before.acked_bytes);
  EXPECT_EQ(after.sacks_rx, before.sacks_rx);
  EXPECT_EQ(after.nacks_rx, before.nacks_rx);
  EXPECT_EQ(after.inflight_bytes, 14000U);
}

TEST_F(CoreAck, WrongTokenChangesNothing) {
  mrc_pkt s = FromB(net_, MRC_PKT_SACK);
  s.src_token ^= 1;
  s.sack.cum_psn = kIsn + 10;
  s.sack.sack_base = kIsn & ~63U;
  s.sack.trig_psn = kIsn + 9;
  EXPECT_EQ(mrc_core_input(net_.a.core, &s, 0, false), MRC_DROP_TOKEN);
  mrc_pkt r = FromB(net_, MRC_PKT_RST);
  r.src_token ^= 1;
  EXPECT_EQ(mrc_core_input(net_.a.core, &r, 0, false), MRC_DROP_TOKEN);
  EXPECT_EQ(mrc_core_state(net_.a.core), MRC_CORE_ESTABLISHED);
  EXPECT_EQ(net_.a.Stats().acked_bytes, 0U);
  EXPECT_EQ(net_.a.Stats().drops[MRC_DROP_TOKEN], 2U);
  // A plane the connection does not share.
  mrc_pkt ok = FromB(net_, MRC_PKT_SACK);
  ok.sack.cum_psn = kIsn;
  ok.sack.sack_base = kIsn & ~63U;
  ok.sack.trig_psn = kIsn - 1;
  EXPECT_EQ(mrc_core_input(net_.a.core, &ok, 5, false), MRC_DROP_PLANE);
}

TEST_F(CoreAck, NackResendsAtOnceOnAnotherEv) {
  net_.filter = nullptr;
  const mrc_core_ev_info before_ev = net_.a.Ev(0);
  (void)before_ev;
  mrc_pkt n = FromB(net_, MRC_PKT_NACK);
  n.nack.psn = kIsn + 3;
  n.nack.cum_psn = kIsn;
  n.nack.reason = MRC_NACK_TRIMMED_LASTHOP;
  EXPECT_EQ(mrc_core_input(net_.a.core, &n, 0, false), MRC_DROP_NONE);
  const mrc_core_stats st = net_.a.Stats();
  EXPECT_EQ(st.nacks_rx, 1U);
  EXPECT_EQ(st.retx_pkts, 1U);
  EXPECT_EQ(std::count(net_.a.traces.begin(), net_.a.traces.end(), MRC_TRACE_NACK), 1);
}

TEST_F(CoreAck, TrimmedNackSkipsTheEv) {
  mrc_pkt n = FromB(net_, MRC_PKT_NACK);
  n.nack.psn = kIsn + 3;
  n.nack.cum_psn = kIsn;
  n.nack.reason = MRC_NACK_TRIMMED;
  n.nack.echo_ev = net_.a.Ev(5).value;
  EXPECT_EQ(mrc_core_input(net_.a.core, &n, 0, false), MRC_DROP_NONE);
  EXPECT_EQ(net_.a.Ev(5).state, MRC_EV_SKIP);
  EXPECT_EQ(net_.a.Ev(5).nacks, 1U);
  // Back to GOOD after one rotation of DATA.
  net_.filter = nullptr;
  net_.a.to_send += 200 * 1400;
  ASSERT_TRUE(Drain(net_));
  EXPECT_EQ(net_.a.Ev(5).state, MRC_EV_GOOD);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
