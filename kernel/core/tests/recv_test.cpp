// SPDX-License-Identifier: GPL-2.0
// Receiving: out-of-window DATA, prompt SACKs around a gap, ECN marks
// and their echo.
#include <set>

#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

// A hand-made DATA packet from a to b: PSN @psn, EV 4444, @payload.
template <size_t N>
mrc_pkt DataToB(const Net& net, uint32_t psn, const std::array<uint8_t, N>& payload) {
  mrc_pkt d{};
  d.type = MRC_PKT_DATA;
  d.dst_token = mrc_core_token(net.b.core);
  d.src_token = mrc_core_token(net.a.core);
  d.ev = 4444;
  d.data.psn = psn;
  d.data.tsval = 1;
  d.payload = payload.data();
  d.payload_len = N;
  return d;
}

// Two planes, a's first PSN 100; b's config may still change before
// Establish().
void SetupAtPsn100(Net& net) {
  net.Setup(2);
  net.a.scripted_random = {0xaaaa, 100};
}

// From now on, each SACK b sends is added to @sacks (and not delivered).
void CaptureSacksOfB(Net& net, std::vector<mrc_pkt>& sacks) {
  net.filter = [&sacks](int from, uint32_t, const mrc_pkt& p) {
    if (from == 1 && p.type == MRC_PKT_SACK) {
      sacks.push_back(p);
    }
    return false;
  };
}

TEST(CoreRecv, OutOfWindowDataIsNackedAndDropped) {
  Net net;
  SetupAtPsn100(net);
  Establish(net);
  std::vector<mrc_pkt> seen;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from == 1) seen.push_back(p);
    return false;
  };
  const std::array<uint8_t, 10> payload{};
  mrc_pkt d = DataToB(net, 100 + 100000, payload);
  EXPECT_EQ(mrc_core_input(net.b.core, &d, 0, false), MRC_DROP_PSN_WINDOW);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0].type, MRC_PKT_NACK);
  EXPECT_EQ(seen[0].nack.reason, MRC_NACK_PSN_OUT_OF_WINDOW);
  EXPECT_EQ(seen[0].nack.psn, 100U + 100000);
  EXPECT_EQ(seen[0].nack.echo_ev, 4444U);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_PSN_WINDOW], 1U);
  EXPECT_EQ(net.b.Stats().nacks_tx, 1U);
  // In order: taken, delivered, and a duplicate is dropped but re-acked.
  d.data.psn = 100;
  d.flags = MRC_F_ACK_NOW;
  EXPECT_EQ(mrc_core_input(net.b.core, &d, 0, false), MRC_DROP_NONE);
  EXPECT_EQ(net.b.rx.size(), 10U);
  EXPECT_EQ(mrc_core_input(net.b.core, &d, 0, false), MRC_DROP_DUPLICATE);
  ASSERT_EQ(seen.size(), 3U);
  EXPECT_EQ(seen[2].type, MRC_PKT_SACK);
  EXPECT_EQ(seen[2].sack.cum_psn, 101U);
  EXPECT_EQ(seen[2].sack.trig_psn, 100U);
  EXPECT_EQ(seen[2].sack.sack_base, 64U);
  EXPECT_EQ(seen[2].sack.bitmap, ~0ULL >> 27);  // PSNs 64..100
  EXPECT_EQ(seen[2].sack.echo_ev, 4444U);
  EXPECT_EQ(net.b.Stats().dup_pkts, 1U);
  EXPECT_EQ(net.b.rx.size(), 10U);
}

// A packet that closes a gap is SACKed at once, as one past a gap is: the
// sender may be held back by the data past the gap, and its RACK does
// not wait out our ACK delay (ack.c). In order with no gap, a packet
// waits for the delayed SACK (or ack_every packets).
TEST(CoreRecv, PacketClosingAGapIsSackedAtOnce) {
  Net net;
  SetupAtPsn100(net);
  net.b.cfg.ack_every = 8;
  Establish(net);
  std::vector<mrc_pkt> sacks;
  CaptureSacksOfB(net, sacks);
  const std::array<uint8_t, 10> payload{};
  auto data = [&](uint32_t psn) {
    mrc_pkt d = DataToB(net, psn, payload);
    EXPECT_EQ(mrc_core_input(net.b.core, &d, 0, false), MRC_DROP_NONE) << psn;
    return sacks.size();
  };
  EXPECT_EQ(data(100), 0U) << "in order, no gap: the SACK may wait";
  EXPECT_EQ(data(102), 1U) << "past a gap";
  EXPECT_EQ(data(103), 2U) << "past a gap";
  ASSERT_EQ(data(101), 3U) << "the packet that closed the gap waited";
  EXPECT_EQ(sacks.back().sack.cum_psn, 104U);
  EXPECT_EQ(data(104), 3U) << "in order again, no gap: the SACK may wait";
  EXPECT_EQ(net.b.rx.size(), 5 * payload.size());
}

// An input batch owes one SACK, but a SACK's bitmap covers only the 64
// PSNs around its trigger: a batch that crosses into the next 64 while a
// gap stands gets a SACK for each 64 it reached, or the PSNs before the
// crossing would go unreported and the sender would resend them.
TEST(CoreRecv, BatchAcrossSackWindowsReportsEveryPsn) {
  Net net;
  SetupAtPsn100(net);
  Establish(net);
  std::vector<mrc_pkt> sacks;
  CaptureSacksOfB(net, sacks);
  const std::array<uint8_t, 10> payload{};
  // PSNs 100..119 missing: 120..140 stand past a gap, across 128.
  mrc_core_input_begin(net.b.core);
  for (uint32_t psn = 120; psn <= 140; psn++) {
    mrc_pkt d = DataToB(net, psn, payload);
    EXPECT_EQ(mrc_core_input(net.b.core, &d, 0, false), MRC_DROP_NONE);
  }
  mrc_core_input_end(net.b.core);
  std::set<uint32_t> reported;
  for (const mrc_pkt& s : sacks) {
    EXPECT_EQ(s.sack.cum_psn, 100U);
    for (uint32_t i = 0; i < 64; i++) {
      if (((s.sack.bitmap >> i) & 1U) != 0) {
        reported.insert(s.sack.sack_base + i);
      }
    }
  }
  for (uint32_t psn = 120; psn <= 140; psn++) {
    EXPECT_EQ(reported.count(psn), 1U) << psn;
  }
  EXPECT_EQ(sacks.size(), 2U) << "one SACK for each 64 the batch reached";
}

TEST(CoreEcn, MarksSkipEvsAndAreEchoed) {
  Net net(41);
  net.Setup(2);
  net.planes[0].ce = 0.3;
  Establish(net);
  net.a.to_send = 1 << 20;
  ASSERT_TRUE(Drain(net));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  EXPECT_GT(net.b.Stats().ce_rx, 0U);
  EXPECT_GT(net.a.Stats().ce_echoed, 0U);
  uint64_t marks0 = 0, marks1 = 0;
  for (uint32_t i = 0; i < 128; i++) {
    const mrc_core_ev_info ev = net.a.Ev(i);
    (ev.plane == 0 ? marks0 : marks1) += ev.ce_marks;
  }
  EXPECT_GT(marks0, 0U);
  EXPECT_EQ(marks1, 0U);
  EXPECT_GT(net.a.NoteCount(MRC_NOTE_EV_STATE), 0);  // SKIP and back
  // The marked plane got fewer packets (its window, its EVs skipped).
  EXPECT_LT(net.a.data_tx_by_plane[0], net.a.data_tx_by_plane[1]);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
