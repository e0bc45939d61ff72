// SPDX-License-Identifier: GPL-2.0
// Protocol core pieces: seqpacket boundaries, flow control, PSN wrap,
// SACK/NACK processing with hand-made packets, token and ACK checks,
// ECN, administrator EV operations, NSCC quadrants, allocation failures
// and closing both ways at once.
#include "core_harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

constexpr uint64_t kSec = 1000000;

void Establish(Net& net) {
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
}

bool Drain(Net& net, uint64_t limit_us = 30 * kSec) {
  return net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send;
      },
      net.now + limit_us);
}

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
  ASSERT_TRUE(net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > before; },
                           net.now + kSec));
  EXPECT_GT(mrc_core_send_space(net.a.core, 1), 0U);
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
  ASSERT_TRUE(net.RunUntil([&] { return net.a.NoteCount(MRC_NOTE_WRITABLE) > 0; },
                           net.now + kSec));
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
  ASSERT_TRUE(net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.rx.size() == net.b.to_send &&
               net.a.Stats().acked_bytes == net.a.to_send &&
               net.b.Stats().acked_bytes == net.b.to_send;
      },
      net.now + 30 * kSec));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  EXPECT_TRUE(net.a.rx == Pattern(net.b.seed, net.b.to_send));
  EXPECT_GT(net.a.Stats().retx_pkts, 0U);
}

INSTANTIATE_TEST_SUITE_P(Modes, CorePsnWrap, ::testing::Values(true, false));

// Hand-made packets from b to a (a's token, b's token as source).
mrc_pkt FromB(const Net& net, uint8_t type) {
  mrc_pkt p{};
  p.type = type;
  p.dst_token = mrc_core_token(net.a.core);
  p.src_token = mrc_core_token(net.b.core);
  p.ev = 3000;
  return p;
}

class CoreAck : public ::testing::Test {
 protected:
  void SetUp() override {
    net_.Setup(2);
    net_.a.scripted_random = {0xaaaa, kIsn};
    net_.b.scripted_random = {0xbbbb, 5000};
    Establish(net_);
    // Ten segments leave a and vanish.
    net_.filter = [](int from, uint32_t, const mrc_pkt& p) {
      return from == 0 && p.type == MRC_PKT_DATA;
    };
    net_.a.to_send = 14000;
    net_.RunFor(10);
    ASSERT_EQ(net_.a.Stats().tx_data_pkts, 10U);
    ASSERT_EQ(net_.a.Stats().inflight_bytes, 14000U);
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

TEST(CoreRecv, OutOfWindowDataIsNackedAndDropped) {
  Net net;
  net.Setup(2);
  net.a.scripted_random = {0xaaaa, 100};
  Establish(net);
  std::vector<mrc_pkt> seen;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from == 1) seen.push_back(p);
    return false;
  };
  mrc_pkt d{};
  d.type = MRC_PKT_DATA;
  d.dst_token = mrc_core_token(net.b.core);
  d.src_token = mrc_core_token(net.a.core);
  d.ev = 4444;
  d.data.psn = 100 + 100000;
  d.data.tsval = 1;
  const std::array<uint8_t, 10> payload{};
  d.payload = payload.data();
  d.payload_len = 10;
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
  // The marked plane got fewer packets (lower weights, skips).
  EXPECT_LT(net.a.data_tx_by_plane[0], net.a.data_tx_by_plane[1]);
}

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

TEST(CoreAlloc, FailuresSlowButLoseNothing) {
  Net net(51);
  net.Setup(2);
  Establish(net);
  net.a.alloc_fail_every = 7;
  net.b.alloc_fail_every = 5;
  net.a.to_send = 1 << 20;
  net.b.to_send = 200000;
  ASSERT_TRUE(net.RunUntil(
      [&] {
        return net.b.rx.size() == net.a.to_send && net.a.rx.size() == net.b.to_send &&
               net.a.Stats().acked_bytes == net.a.to_send &&
               net.b.Stats().acked_bytes == net.b.to_send;
      },
      net.now + 30 * kSec));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send));
  EXPECT_TRUE(net.a.rx == Pattern(net.b.seed, net.b.to_send));
  EXPECT_GT(net.a.alloc_failures, 10U);
  EXPECT_GT(net.b.alloc_failures, 10U);
  EXPECT_GT(net.b.Stats().drops[MRC_DROP_NO_BUFFER], 0U);
  net.a.Destroy();
  net.b.Destroy();
  EXPECT_EQ(net.a.live_allocs, 0);
  EXPECT_EQ(net.b.live_allocs, 0);
}

TEST(CoreAlloc, CreateFailsCleanly) {
  for (uint64_t n = 1; n <= 5; n++) {
    Net net;
    net.Setup(2);
    net.a.alloc_fail_every = n;
    mrc_core_env env = net.a.Env();
    mrc_core* core = mrc_core_create(&net.a.cfg, &env);
    if (core != nullptr) mrc_core_destroy(core);
    EXPECT_EQ(net.a.live_allocs, 0) << "fail every " << n;
  }
  Net net;
  net.Setup(2);
  net.a.cfg.sock_type = 9;
  mrc_core_env env = net.a.Env();
  EXPECT_EQ(mrc_core_create(&net.a.cfg, &env), nullptr);
}

TEST(CoreClose, SimultaneousClose) {
  Net net(61);
  net.Setup(2);
  Establish(net);
  net.a.to_send = 300000;
  net.b.to_send = 300000;
  net.a.close_when_sent = true;
  net.b.close_when_sent = true;
  ASSERT_TRUE(net.RunUntil([&] { return net.a.done && net.b.done; }, net.now + 10 * kSec));
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, 300000));
  EXPECT_TRUE(net.a.rx == Pattern(net.b.seed, 300000));
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_DONE);
  EXPECT_EQ(mrc_core_state(net.b.core), MRC_CORE_DONE);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_PEER_FIN), 1);
  EXPECT_EQ(net.b.NoteCount(MRC_NOTE_PEER_FIN), 1);
}

TEST(CoreClose, LostFinIsRetried) {
  Net net(62);
  net.Setup(2);
  Establish(net);
  int fins = 0;
  net.filter = [&](int, uint32_t, const mrc_pkt& p) {
    return p.type == MRC_PKT_FIN && ++fins <= 2;
  };
  net.a.to_send = 10000;
  net.a.close_when_sent = true;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.peer_fin; }, net.now + 5 * kSec));
  mrc_core_close(net.b.core);
  ASSERT_TRUE(net.RunUntil([&] { return net.a.done && net.b.done; }, net.now + 5 * kSec));
  EXPECT_GE(fins, 3);
}

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
