// SPDX-License-Identifier: GPL-2.0
// 1 MiB transfers through the protocol core over a hostile simulated
// fabric: random loss, reordering, duplication, a plane dying mid-transfer,
// a black-holed spine, plane flapping, every plane down for a while (and
// for too long). Every transfer is checked byte for byte and by counters.
#include <algorithm>
#include <cstdio>

#include "harness.hpp"

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

constexpr size_t kMiB = 1 << 20;

// Connect, then move `bytes` from a to b; true when all arrived and acked.
bool Transfer(Net& net, size_t bytes, uint64_t limit_us = 60 * kSec) {
  if (net.a.core == nullptr) net.Connect();
  net.a.to_send += bytes;
  return net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.core != nullptr &&
               net.a.Stats().acked_bytes == net.a.to_send;
      },
      net.now + limit_us);
}

void ExpectIntact(const Net& net) {
  ASSERT_EQ(net.b.rx.size(), net.a.to_send);
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send)) << "payload corrupted";
  EXPECT_EQ(net.a.error, 0);
  EXPECT_EQ(net.b.error, 0);
}

// DATA went out on every plane in `planes` and on every EV of a.
void ExpectSprayed(const Net& net, uint32_t planes) {
  for (uint32_t p = 0; p < 16; p++) {
    if ((planes & (1U << p)) == 0) continue;
    EXPECT_GT(net.a.data_tx_by_plane.count(p), 0U) << "plane " << p << " unused";
  }
  EXPECT_EQ(net.a.data_tx_by_ev.size(), mrc_core_ev_count(net.a.core));
}

TEST(CoreTransfer, Clean) {
  Net net;
  net.Setup(4);
  ASSERT_TRUE(Transfer(net, kMiB));
  ExpectIntact(net);
  ExpectSprayed(net, 0xf);
  // Planes evenly loaded: each within 10% of a quarter.
  for (const auto& [p, n] : net.a.data_tx_by_plane)
    EXPECT_NEAR(static_cast<double>(n), static_cast<double>(net.a.Stats().tx_data_pkts) / 4,
                static_cast<double>(net.a.Stats().tx_data_pkts) / 40);
  // No EV carried two DATA packets in a row.
  const mrc_core_stats st = net.a.Stats();
  EXPECT_EQ(st.retx_pkts, 0U);
  EXPECT_EQ(st.tx_data_bytes, kMiB);
  EXPECT_GT(st.srtt_us, 0U);
  EXPECT_GE(st.srtt_us, 100U);  // 2 x 50 us one-way
  EXPECT_EQ(st.inflight_bytes, 0U);
  EXPECT_EQ(st.evs_good, 128U);
  EXPECT_EQ(net.b.Stats().dup_pkts, 0U);
  EXPECT_GT(net.b.Stats().sacks_tx, 0U);
  EXPECT_LT(net.b.Stats().sacks_tx, net.b.Stats().rx_data_pkts);  // batched
}

class CoreLoss : public ::testing::TestWithParam<double> {};

TEST_P(CoreLoss, RandomLossRecovered) {
  Net net(7);
  net.Setup(2);
  for (auto& p : net.planes) p.loss = GetParam();
  ASSERT_TRUE(Transfer(net, kMiB));
  ExpectIntact(net);
  ExpectSprayed(net, 0x3);
  const mrc_core_stats st = net.a.Stats();
  EXPECT_GT(st.retx_pkts, 0U);
  EXPECT_GT(st.fast_retx, 0U);
  // Retransmissions stay near the loss rate (x3 for lost SACKs/retx).
  EXPECT_LT(static_cast<double>(st.retx_pkts),
            static_cast<double>(st.tx_data_pkts) * GetParam() * 4 + 20);
  EXPECT_EQ(net.b.Stats().rx_data_bytes, kMiB);
}

INSTANTIATE_TEST_SUITE_P(Rates, CoreLoss, ::testing::Values(0.01, 0.05));

// A fabric tuned to microseconds (the simulator's settings: RTO min
// 200 us, ACK delay 20 us, 5 us one way): a lost packet is found by the
// reordering rule, well before the RTO. With a fixed 250 us reorder slack
// the RTO (200 us) came first every time.
// A round trip of 3 s, longer than the default rto_max (2 s): a loaded
// 1 Mbit/s queue, or a debug kernel under TCG. The RTO follows the
// measured round trip past rto_max, so after the first samples nothing
// is resent and no EV is taken for bad (an RTO clamped at 2 s fired on
// every packet, marked its EV bad and probed it: the all-to-all test on
// the debug kernel timed out that way).
TEST(CoreTransfer, RoundTripLongerThanRtoMaxSendsOnce) {
  Net net;
  net.Setup(2);
  for (uint32_t p = 0; p < 2; p++) net.planes.at(p).delay_us = 1500 * 1000;
  net.a.cfg.rto_init_us = 4000000;  // no SYN resent before the first sample
  ASSERT_TRUE(Transfer(net, 64 * 1024, 120 * kSec));
  ExpectIntact(net);
  const mrc_core_stats st = net.a.Stats();
  EXPECT_GE(st.srtt_us, 3000000U);
  EXPECT_GT(st.rto_us, st.srtt_us);
  EXPECT_EQ(st.rto_count, 0U);
  EXPECT_EQ(st.retx_pkts, 0U);
  EXPECT_EQ(st.probes_tx, 0U);
}

// The same 3 s round trip with the default first RTO (100 ms): every
// packet is resent before its SACK can come, so Karn's rule alone leaves
// no sample and the RTO stays at the 2 s backoff ceiling, below the
// round trip, for good. A resent copy's SACK measures the round trip
// while the RTO is backed off; from then on nothing is resent.
TEST(CoreTransfer, RoundTripLongerThanEveryRtoIsStillMeasured) {
  Net net;
  net.Setup(2);
  for (uint32_t p = 0; p < 2; p++) net.planes.at(p).delay_us = 1500 * 1000;
  ASSERT_TRUE(Transfer(net, 16 * 1024, 120 * kSec));
  const mrc_core_stats first = net.a.Stats();
  EXPECT_GT(first.rto_count, 0U);
  EXPECT_GT(first.rto_us, 3000000U);
  ASSERT_TRUE(Transfer(net, 64 * 1024, 120 * kSec));
  ExpectIntact(net);
  const mrc_core_stats second = net.a.Stats();
  EXPECT_EQ(second.rto_count, first.rto_count);
  EXPECT_EQ(second.retx_pkts, first.retx_pkts);
}

TEST(CoreTransfer, MicrosecondFabricRecoversByFastRetransmit) {
  Net net(11);
  net.Setup(4);
  for (Endpoint* e : {&net.a, &net.b}) {
    e->cfg.rto_min_us = 200;
    e->cfg.rto_init_us = 1000;
    e->cfg.ack_delay_us = 20;
    e->cfg.probe_interval_us = 200;
  }
  for (auto& p : net.planes) {
    p.delay_us = 5;
    p.loss = 0.01;
  }
  ASSERT_TRUE(Transfer(net, kMiB));
  ExpectIntact(net);
  const mrc_core_stats st = net.a.Stats();
  EXPECT_GT(st.fast_retx, 0U);
  EXPECT_GT(st.fast_retx, 4 * st.rto_count) << "RTOs " << st.rto_count;
}

TEST(CoreTransfer, Reordering) {
  Net net(3);
  net.Setup(2);
  for (auto& p : net.planes) p.jitter_us = 400;
  ASSERT_TRUE(Transfer(net, kMiB));
  ExpectIntact(net);
  EXPECT_GT(net.b.Stats().ooo_pkts, 100U);
}

// Jitter several times the base RTT (TCG guests, busy hosts) reorders
// packets without losing any: the reordering window learns it from the
// spurious retransmissions and stops making more. Judged over 8 seeds:
// one seed's figure swings between 1% and 13% with small changes to EV
// recovery (seed 5 gave 1.8% on a core whose mean over these seeds was
// 4.3% and whose worst was 12.6%). Since a loss found by RACK cuts its
// plane's window (path.c), reordering taken for loss costs window too:
// the mean went from 2.2% to 4.1%, the worst from 3.1% to 9.1%.
TEST(CoreTransfer, JitterLearnsReorderWindow) {
  constexpr int kSeeds = 8;
  double sum = 0;
  double worst = 0;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    Net net(static_cast<uint64_t>(seed));
    net.Setup(4);
    for (auto& p : net.planes) {
      p.delay_us = 300;
      p.jitter_us = 20000;
    }
    ASSERT_TRUE(Transfer(net, 8 * kMiB)) << "seed " << seed;
    ExpectIntact(net);
    const mrc_core_stats sa = net.a.Stats();
    const double retx = static_cast<double>(sa.retx_pkts) / static_cast<double>(sa.tx_data_pkts);
    std::printf("jitter seed %d: %llu of %llu data packets retransmitted (%.2f%%), %llu RTOs\n",
                seed, static_cast<unsigned long long>(sa.retx_pkts),
                static_cast<unsigned long long>(sa.tx_data_pkts), 100.0 * retx,
                static_cast<unsigned long long>(sa.rto_count));
    EXPECT_GT(sa.spurious_retx, 0U) << "seed " << seed;  // what the window learned from
    sum += retx;
    worst = std::max(worst, retx);
  }
  EXPECT_LT(sum / kSeeds, 0.05);
  EXPECT_LT(worst, 0.12);
}

TEST(CoreTransfer, Duplication) {
  Net net(4);
  net.Setup(2);
  for (auto& p : net.planes) p.dup = 0.05;
  ASSERT_TRUE(Transfer(net, kMiB));
  ExpectIntact(net);
  const mrc_core_stats sb = net.b.Stats();
  EXPECT_GT(sb.dup_pkts, 10U);
  EXPECT_EQ(sb.drops[MRC_DROP_DUPLICATE], sb.dup_pkts);
  EXPECT_EQ(sb.rx_data_bytes, kMiB);
  EXPECT_EQ(sb.delivered_bytes, kMiB);
}

// Heavy duplication from the first packet on: duplicated SYNs, SYN_ACKs
// and first ACKs must neither stall the handshake nor reset it (a debug
// guest once saw a connect time out with 10% duplication).
TEST(CoreTransfer, DuplicatedHandshake) {
  for (uint64_t seed = 1; seed <= 40; seed++) {
    Net net(seed);
    net.Setup(4);
    for (auto& p : net.planes) p.dup = 0.5;
    ASSERT_TRUE(Transfer(net, 64 * 1024)) << "seed " << seed;
    ExpectIntact(net);
    EXPECT_EQ(net.a.Stats().rto_count, 0U) << "seed " << seed;
  }
}

TEST(CoreTransfer, PlaneDownMidTransferIsAvoided) {
  Net net(5);
  net.Setup(3);
  ASSERT_TRUE(Transfer(net, 300000));
  // Plane 1 dies (both hosts see their link go): nothing new goes there.
  const int plane_notes = net.a.NoteCount(MRC_NOTE_PLANE_STATE);
  net.planes[1].up = false;
  mrc_core_plane_update(net.a.core, 1, false);
  mrc_core_plane_update(net.b.core, 1, false);
  net.MarkPlane(1);
  EXPECT_EQ(net.a.Stats().planes_usable, 0x5U);
  EXPECT_EQ(net.a.Stats().inflight_bytes, 0U);
  ASSERT_TRUE(Transfer(net, kMiB));
  ExpectIntact(net);
  EXPECT_EQ(net.a.data_tx_after_mark[1], 0U);
  EXPECT_EQ(net.b.data_tx_after_mark[1], 0U);
  // Its EVs are out of rotation, not ASSUMED_BAD.
  for (uint32_t i = 0; i < mrc_core_ev_count(net.a.core); i++)
    EXPECT_EQ(net.a.Ev(i).state, MRC_EV_GOOD);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_PLANE_STATE), plane_notes + 1);
  // It comes back and carries data again.
  net.planes[1].up = true;
  mrc_core_plane_update(net.a.core, 1, true);
  mrc_core_plane_update(net.b.core, 1, true);
  net.RunFor(1000);  // b's SACK on plane 1 tells a the plane is back
  EXPECT_EQ(net.a.Stats().planes_usable, 0x7U);
  net.MarkPlane(1);
  ASSERT_TRUE(Transfer(net, 200000));
  ExpectIntact(net);
  EXPECT_GT(net.a.data_tx_after_mark[1], 0U);
  EXPECT_EQ(net.a.Stats().planes_usable, 0x7U);
}

TEST(CoreTransfer, PlaneDiesWithDataInFlight) {
  Net net(6);
  net.Setup(2);
  net.planes[1].delay_us = 2000;  // plenty in flight on plane 1
  net.a.cfg.rto_min_us = 200000;  // so only the plane news can save us fast
  ASSERT_TRUE(Transfer(net, 100000));
  net.RunFor(20000);
  net.a.to_send += 400000;
  net.RunFor(1500);
  const uint64_t inflight = net.a.Stats().inflight_bytes;
  ASSERT_GT(inflight, 0U);
  net.planes[1].up = false;
  const uint64_t t0 = net.now;
  mrc_core_plane_update(net.a.core, 1, false);
  mrc_core_plane_update(net.b.core, 1, false);
  ASSERT_TRUE(net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send;
      },
      net.now + 10 * kSec));
  ExpectIntact(net);
  EXPECT_LT(net.now - t0, 100000U) << "resent at once, not after an RTO";
  EXPECT_EQ(net.a.Stats().rto_count, 0U);
  EXPECT_GT(std::count(net.a.traces.begin(), net.a.traces.end(), MRC_TRACE_LOSS), 0);
}

// A plane dies and nobody tells the cores. Its losses cut its window
// (path.c), so within a few round trips the connection leaves it: a
// packet goes there only when the live plane's window is full, and each
// is found lost and resent on the live plane. (Before each plane had a
// window, every EV got its share until two losses made it ASSUMED_BAD:
// 64 EVs, 128 lost packets at least.)
TEST(CoreTransfer, SilentPlaneDeathIsLeft) {
  Net net(8);
  net.Setup(2);
  ASSERT_TRUE(Transfer(net, 100000));
  net.planes[1].up = false;  // nobody tells the cores
  std::map<uint32_t, uint64_t> before = net.a.data_tx_by_plane;
  ASSERT_TRUE(Transfer(net, 4 * kMiB));
  ExpectIntact(net);
  const uint64_t dead = net.a.data_tx_by_plane[1] - before[1];
  const uint64_t live = net.a.data_tx_by_plane[0] - before[0];
  EXPECT_LT(dead * 20, dead + live) << dead << " of " << dead + live << " to the dead plane";
  EXPECT_EQ(net.a.Stats().rto_count, 0U) << "every loss found by RACK, none by the RTO";
  // It stays left: the next transfer puts (almost) nothing there.
  before = net.a.data_tx_by_plane;
  ASSERT_TRUE(Transfer(net, kMiB));
  ExpectIntact(net);
  EXPECT_LT(net.a.data_tx_by_plane[1] - before[1], 16U);
}

// The EVs of a that hash to one "spine" of plane 0 (every 4th EV there).
std::set<uint32_t> SpineEvs(const Net& net) {
  std::set<uint32_t> evs;
  int k = 0;
  for (uint32_t i = 0; i < mrc_core_ev_count(net.a.core); i++) {
    const mrc_core_ev_info ev = net.a.Ev(i);
    if (ev.plane == 0 && k++ % 4 == 0) evs.insert(ev.value);
  }
  return evs;
}

// Planes of limited rate, so that the connection needs both: one plane
// of unlimited rate would carry everything, and the earliest-completion
// rule (path.c) would leave the other idle once its window was cut.
TEST(CoreTransfer, BlackHoledSpineEvsAreProbedBack) {
  Net net(9);
  net.Setup(2);
  for (auto& p : net.planes) p.rate = 100;
  ASSERT_TRUE(Transfer(net, 10000));
  const std::set<uint32_t> hole = SpineEvs(net);
  ASSERT_EQ(hole.size(), 16U);
  net.planes[0].blackhole_evs = hole;
  // Two losses make an EV ASSUMED_BAD; plane 0's window, cut by the
  // losses, sends each hole EV fewer packets than the even spread would.
  ASSERT_TRUE(Transfer(net, 2 * kMiB));
  ExpectIntact(net);
  for (uint32_t i = 0; i < 128; i++) {
    const mrc_core_ev_info ev = net.a.Ev(i);
    if (hole.contains(ev.value)) {
      EXPECT_EQ(ev.state, MRC_EV_ASSUMED_BAD) << "EV " << ev.value;
      EXPECT_GT(ev.losses, 0U);
    } else {
      EXPECT_NE(ev.state, MRC_EV_ASSUMED_BAD) << "healthy EV " << ev.value;
    }
  }
  net.RunFor(3 * net.a.cfg.probe_interval_us);  // probes go unanswered
  const mrc_core_stats st = net.a.Stats();
  for (uint32_t i = 0; i < 128; i++) {
    const mrc_core_ev_info ev = net.a.Ev(i);
    if (hole.contains(ev.value)) {
      EXPECT_EQ(ev.state, MRC_EV_ASSUMED_BAD) << "EV " << ev.value;
    }
  }
  EXPECT_GT(st.probes_tx, 0U);
  // Once taken out, the hole gets (almost) no more DATA.
  std::map<uint32_t, uint64_t> before = net.a.data_tx_by_ev;
  ASSERT_TRUE(Transfer(net, 500000));
  for (uint32_t v : hole) EXPECT_EQ(net.a.data_tx_by_ev[v], before[v]) << "EV " << v;
  // Fix the spine: probes bring every EV back (each probe unanswered
  // doubled the wait for the next).
  net.planes[0].blackhole_evs.clear();
  const uint64_t replies = net.a.Stats().probe_replies_rx;
  EXPECT_TRUE(net.RunUntil([&] { return net.a.Stats().evs_good == 128; },
                           net.now + 50 * net.a.cfg.probe_interval_us));
  EXPECT_GE(net.a.Stats().probe_replies_rx, replies + 16);
  int to_good = 0;
  for (const auto& [note, arg] : net.a.notes)
    if (note == MRC_NOTE_EV_STATE && hole.contains(net.a.Ev(arg).value)) to_good++;
  EXPECT_GE(to_good, 32);  // each went bad and came back
  before = net.a.data_tx_by_ev;
  ASSERT_TRUE(Transfer(net, 2 * kMiB));
  ExpectIntact(net);
  for (uint32_t v : hole) EXPECT_GT(net.a.data_tx_by_ev[v], before[v]) << "EV " << v;
}

TEST(CoreTransfer, EvMinActiveRespected) {
  Net net(10);
  net.Setup(2);
  net.a.cfg.ev_count = 32;
  net.a.cfg.ev_min_active = 28;
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  // Black-hole half the EVs of each plane (EV i is on plane i % 2): only
  // 4 may be declared bad. (Every EV of one plane would be a dead plane,
  // which the connection leaves before its EVs lose two packets each.)
  std::set<uint32_t> hole;
  for (uint32_t i = 0; i < 32; i++) {
    if ((i / 2) % 2 == 0) hole.insert(net.a.Ev(i).value);
  }
  net.planes[0].blackhole_evs = hole;
  net.planes[1].blackhole_evs = hole;
  ASSERT_TRUE(Transfer(net, 300000));
  ExpectIntact(net);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < 32; i++) bad += net.a.Ev(i).state == MRC_EV_ASSUMED_BAD ? 1 : 0;
  EXPECT_EQ(bad, 4U);
  EXPECT_EQ(net.a.Stats().evs_good, 28U);
}

TEST(CoreTransfer, PlaneFlapping) {
  Net net(11);
  net.Setup(3);
  for (auto& p : net.planes) p.rate = 20;  // 1 MiB takes ~17 ms
  net.Connect();
  net.a.to_send = kMiB;
  bool up = true;
  for (int i = 0; i < 4000 && net.b.rx.size() < kMiB; i++) {
    net.RunFor(200);
    up = !up;
    net.planes[2].up = up;
    if (net.a.core != nullptr && net.b.core != nullptr) {
      mrc_core_plane_update(net.a.core, 2, up);
      mrc_core_plane_update(net.b.core, 2, up);
    }
  }
  net.planes[2].up = true;
  ASSERT_TRUE(Transfer(net, 0));
  ExpectIntact(net);
  EXPECT_GT(net.a.data_tx_by_plane[2], 0U);
  EXPECT_GT(net.a.NoteCount(MRC_NOTE_PLANE_STATE), 10);
}

TEST(CoreTransfer, AllPlanesDownBrieflyThenBack) {
  Net net(12);
  net.Setup(2);
  net.a.cfg.user_timeout_ms = 5000;
  ASSERT_TRUE(Transfer(net, 200000));
  net.a.to_send += kMiB;
  net.RunFor(300);
  for (auto& p : net.planes) p.up = false;
  net.RunFor(2 * kSec);
  EXPECT_EQ(net.a.error, 0);
  for (auto& p : net.planes) p.up = true;
  ASSERT_TRUE(Transfer(net, 0, 10 * kSec));
  ExpectIntact(net);
  const mrc_core_stats st = net.a.Stats();
  EXPECT_GT(st.rto_count, 0U);
  EXPECT_GE(st.longest_stall_us, 2 * kSec);
  EXPECT_LT(st.longest_stall_us, 5 * kSec);
}

TEST(CoreTransfer, AllPlanesDownWithNoticeThenBack) {
  Net net(13);
  net.Setup(2);
  ASSERT_TRUE(Transfer(net, 100000));
  net.a.to_send += 300000;
  net.RunFor(300);
  for (uint32_t p = 0; p < 2; p++) {
    net.planes[p].up = false;
    mrc_core_plane_update(net.a.core, p, false);
    mrc_core_plane_update(net.b.core, p, false);
  }
  net.RunFor(kSec);
  EXPECT_EQ(net.a.error, 0);
  for (uint32_t p = 0; p < 2; p++) {
    net.planes[p].up = true;
    mrc_core_plane_update(net.a.core, p, true);
    mrc_core_plane_update(net.b.core, p, true);
  }
  ASSERT_TRUE(Transfer(net, 0, 10 * kSec));
  ExpectIntact(net);
}

// Data queued while no plane is usable still counts against the user
// timeout: nothing can be sent, so nothing would ever restart the clock.
TEST(CoreTransfer, DataQueuedWithNoUsablePlaneTimesOut) {
  Net net(15);
  net.Setup(2);
  net.a.cfg.user_timeout_ms = 1000;
  ASSERT_TRUE(Transfer(net, 100000));
  net.RunFor(300);
  for (uint32_t p = 0; p < 2; p++) {
    net.planes[p].up = false;
    mrc_core_plane_update(net.a.core, p, false);
    mrc_core_plane_update(net.b.core, p, false);
  }
  const uint64_t t0 = net.now;
  net.a.to_send += kMiB;
  net.a.Pump();
  ASSERT_TRUE(net.RunUntil([&] { return net.a.error != 0; }, net.now + 5 * kSec));
  EXPECT_EQ(net.a.error, ETIMEDOUT);
  EXPECT_GE(net.now - t0, 900U * 1000);
  EXPECT_LE(net.now - t0, 1100U * 1000);
}

TEST(CoreTransfer, AllPlanesDownTooLongTimesOut) {
  Net net(14);
  net.Setup(2);
  net.a.cfg.user_timeout_ms = 1000;
  ASSERT_TRUE(Transfer(net, 100000));
  net.a.to_send += kMiB;
  net.RunFor(300);
  for (auto& p : net.planes) p.up = false;
  const uint64_t t0 = net.now;
  ASSERT_TRUE(net.RunUntil([&] { return net.a.error != 0; }, net.now + 5 * kSec));
  EXPECT_EQ(net.a.error, ETIMEDOUT);
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_ABORTED);
  EXPECT_GE(net.now - t0, 900U * 1000);
  EXPECT_LE(net.now - t0, 1100U * 1000);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_ERROR), 1);
}

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
