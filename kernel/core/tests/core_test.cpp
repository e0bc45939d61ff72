// SPDX-License-Identifier: GPL-2.0
// Protocol core connection life: handshake (lost SYN, lost SYN_ACK,
// duplicate SYN), refusal, timeouts, resets, graceful and simultaneous
// close, a lost FIN, allocation failures.
#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

TEST(CoreConn, HandshakeLearnsPeerAndPlanes) {
  Net net;
  net.Setup(4);
  net.b.cfg.nplanes = 3;  // server lacks plane 3
  net.b.cfg.plane_up = 0x7;
  net.Connect();
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_SYN_SENT);
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_ESTABLISHED);
  EXPECT_EQ(mrc_core_state(net.b.core), MRC_CORE_ESTABLISHED);
  EXPECT_EQ(mrc_core_peer_token(net.a.core), mrc_core_token(net.b.core));
  EXPECT_EQ(mrc_core_peer_token(net.b.core), mrc_core_token(net.a.core));
  EXPECT_NE(mrc_core_token(net.a.core), 0U);
  EXPECT_EQ(mrc_core_peer_service_port(net.b.core), 40000U);
  EXPECT_EQ(mrc_core_peer_service_port(net.a.core), 7000U);
  ASSERT_NE(mrc_core_peer_plane(net.a.core, 2), nullptr);
  EXPECT_EQ(mrc_core_peer_plane(net.a.core, 2)->addr4, net.b.cfg.planes[2].addr4);
  EXPECT_EQ(mrc_core_peer_plane(net.a.core, 3), nullptr);
  EXPECT_EQ(net.a.Stats().planes_usable, 0x7U);
  EXPECT_EQ(net.b.Stats().planes_usable, 0x7U);
  // EVs only on shared planes, evenly.
  std::map<uint32_t, int> per_plane;
  std::set<uint32_t> values;
  ASSERT_EQ(mrc_core_ev_count(net.a.core), 128U);
  for (uint32_t i = 0; i < 128; i++) {
    const mrc_core_ev_info ev = net.a.Ev(i);
    per_plane[ev.plane]++;
    values.insert(ev.value);
    EXPECT_GE(ev.value, 1024U);
    EXPECT_EQ(ev.state, MRC_EV_GOOD);
  }
  EXPECT_EQ(values.size(), 128U);
  ASSERT_EQ(per_plane.size(), 3U);
  for (const auto& [p, n] : per_plane) EXPECT_NEAR(n, 128 / 3, 1) << "plane " << p;
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_ESTABLISHED), 1);
  EXPECT_EQ(net.b.NoteCount(MRC_NOTE_ESTABLISHED), 1);
}

// The tables by plane id hold the planes in use: a client of planes 0-1
// keeps none of a server's planes 2, 3 and 12 (none could carry its
// data), the server keeps slots up to its plane 12, and both move data on
// the two they share.
TEST(CoreConn, PlaneTablesSizedByThePlanesInUse) {
  Net net;
  net.Setup(4);
  net.a.cfg.nplanes = 2;
  net.a.cfg.plane_up = 0x3;
  mrc_core_plane& far = net.b.cfg.planes[4];
  far = net.b.cfg.planes[3];
  far.id = 12;
  far.addr4 = 0x0a000c02U;
  net.b.cfg.nplanes = 5;
  net.b.cfg.plane_up |= 1U << 12;
  net.a.to_send = 200000;
  Establish(net);
  EXPECT_EQ(net.a.core->plane_slots, 2U);
  EXPECT_EQ(net.b.core->plane_slots, 13U);
  ASSERT_NE(mrc_core_peer_plane(net.a.core, 1), nullptr);
  EXPECT_EQ(mrc_core_peer_plane(net.a.core, 1)->addr4, net.b.cfg.planes[1].addr4);
  EXPECT_EQ(mrc_core_peer_plane(net.a.core, 2), nullptr);
  EXPECT_EQ(mrc_core_peer_plane(net.a.core, 12), nullptr);
  EXPECT_EQ(mrc_core_peer_plane(net.b.core, 12), nullptr);  // not the client's
  ASSERT_NE(mrc_core_peer_plane(net.b.core, 0), nullptr);
  EXPECT_EQ(mrc_core_peer_plane(net.b.core, 0)->addr4, net.a.cfg.planes[0].addr4);
  ASSERT_TRUE(Drain(net));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, net.a.to_send));
  EXPECT_EQ(net.a.Stats().planes_usable, 0x3U);
  EXPECT_EQ(net.b.Stats().planes_usable, 0x3U);
  EXPECT_EQ(mrc_core_mem_bytes(net.a.core), net.a.live_bytes);
  EXPECT_EQ(mrc_core_mem_bytes(net.b.core), net.b.live_bytes);
}

TEST(CoreConn, ExplicitEvValues) {
  Net net;
  net.Setup(2);
  std::array<uint16_t, 8> evs = {5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007};
  net.a.cfg.evs = evs.data();
  net.a.cfg.nevs = static_cast<uint32_t>(evs.size());
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  ASSERT_EQ(mrc_core_ev_count(net.a.core), 8U);
  for (uint32_t i = 0; i < 8; i++) {
    EXPECT_EQ(net.a.Ev(i).value, evs.at(i));
    EXPECT_EQ(net.a.Ev(i).plane, i % 2);
  }
}

// Random EV values are distinct source ports, each found from its value
// (a SACK's echo) by the by-value table; so are values a profile gives,
// and a value that is no EV's is not found.
TEST(CoreConn, EvValuesAreDistinctAndFound) {
  Net net;
  net.Setup(2);
  net.a.cfg.ev_count = MRC_CORE_MAX_EVS;
  std::array<uint16_t, 4> given = {0x1302, 0x1300, 5000, 0xffff};
  net.b.cfg.evs = given.data();
  net.b.cfg.nevs = static_cast<uint32_t>(given.size());
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  std::set<uint32_t> values;
  ASSERT_EQ(mrc_core_ev_count(net.a.core), static_cast<uint32_t>(MRC_CORE_MAX_EVS));
  // Idle, the tables are parked; lookups by value need them back.
  ASSERT_EQ(mrc_ev_unpark(net.a.core), 0);
  ASSERT_EQ(mrc_ev_unpark(net.b.core), 0);
  for (uint32_t i = 0; i < MRC_CORE_MAX_EVS; i++) {
    const uint32_t v = net.a.Ev(i).value;
    EXPECT_GE(v, 1024U);
    EXPECT_LE(v, 0xffffU);
    EXPECT_TRUE(values.insert(v).second) << "value " << v << " twice";
    EXPECT_EQ(mrc_ev_find(net.a.core, v), static_cast<int>(i));
  }
  for (uint32_t i = 0; i < given.size(); i++) {
    EXPECT_EQ(mrc_ev_find(net.b.core, given.at(i)), static_cast<int>(i));
  }
  EXPECT_EQ(mrc_ev_find(net.b.core, 0x1303), -1);
  EXPECT_EQ(mrc_ev_find(net.b.core, 0x11302), -1);
  EXPECT_GT(net.b.core->ev_hash_mask + 1, 2 * given.size() - 1);
  // Both ends move data over the EVs they know.
  net.a.to_send = 64 * 1400;
  net.b.to_send = 64 * 1400;
  ASSERT_TRUE(DrainBoth(net, 10 * kSec));
}

TEST(CoreConn, LostSynIsRetried) {
  Net net;
  net.Setup(2);
  int syns = 0;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    return from == 0 && p.type == MRC_PKT_SYN && ++syns <= 2;
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  EXPECT_EQ(syns, 3);
}

// A dead path under one entropy value must not stall the handshake: every
// retry goes out on two fresh EVs, and the backoff stops at the RTO cap.
TEST(CoreConn, SynRetriesUseFreshEvsAndCappedBackoff) {
  Net net;
  net.Setup(2);
  net.server_silent = true;
  net.a.cfg.user_timeout_ms = 2000;
  net.a.cfg.rto_max_us = 100000;
  std::vector<uint32_t> syn_evs;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from == 0 && p.type == MRC_PKT_SYN) syn_evs.push_back(p.ev);
    return false;
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.a.error != 0; }, net.now + 3 * kSec));
  EXPECT_EQ(net.a.error, ETIMEDOUT);
  // 20, 40, 80, then every 100 ms until 2 s: about 20 rounds of two.
  EXPECT_GE(syn_evs.size(), 36U);
  EXPECT_LE(syn_evs.size(), 44U);
  for (size_t i = 1; i < syn_evs.size(); i++) EXPECT_NE(syn_evs[i], syn_evs[i - 1]);
}

TEST(CoreConn, LostSynAckIsAnsweredAgain) {
  Net net;
  net.Setup(2);
  int synacks = 0;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    return from == 1 && p.type == MRC_PKT_SYN_ACK && ++synacks == 1;
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  // The retried SYN went out twice (two EVs); both were answered, the
  // client took the first and dropped the other as out of state.
  EXPECT_EQ(net.b.NoteCount(MRC_NOTE_ESTABLISHED), 1);
  // Data flows after the repaired handshake.
  net.a.to_send = 10000;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 10000; }, net.now + kSec));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 10000));
  EXPECT_EQ(synacks, 3);
  EXPECT_EQ(net.a.Stats().drops[MRC_DROP_STATE], 1U);
}

// The server's plane 0 carries nothing out (a TX queue stuck in one
// direction), yet the client's SYNs arrive on it: each answer to a repeated
// SYN takes the next plane, and the connection opens and moves data.
TEST(CoreConn, SynAckTriesAnotherPlaneWhenTheFirstIsDeadOneWay) {
  Net net;
  net.Setup(4);
  std::vector<uint32_t> synack_planes;
  net.filter = [&](int from, uint32_t plane, const mrc_pkt& p) {
    if (from == 1 && p.type == MRC_PKT_SYN_ACK) synack_planes.push_back(plane);
    return from == 1 && plane == 0;
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + 2 * kSec));
  ASSERT_GE(synack_planes.size(), 2U);
  EXPECT_EQ(synack_planes[0], 0U);
  EXPECT_NE(synack_planes[1], 0U);
  net.a.to_send = 100000;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 100000; }, net.now + 10 * kSec));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 100000));
}

TEST(CoreConn, SynToNobodyTimesOut) {
  Net net;
  net.Setup(2);
  net.server_silent = true;
  net.a.cfg.user_timeout_ms = 1500;
  net.Connect();
  const uint64_t start = net.now;
  EXPECT_FALSE(net.RunUntil([&] { return net.a.error != 0; }, start + 1400 * 1000));
  ASSERT_TRUE(net.RunUntil([&] { return net.a.error != 0; }, start + 3 * kSec));
  EXPECT_EQ(net.a.error, ETIMEDOUT);
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_ABORTED);
  EXPECT_GE(net.now - start, 1500U * 1000);
  EXPECT_LE(net.now - start, 1600U * 1000);
}

TEST(CoreConn, RstToSynIsConnectionRefused) {
  Net net;
  net.Setup(2);
  net.server_listening = false;
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.a.error != 0; }, net.now + kSec));
  EXPECT_EQ(net.a.error, ECONNREFUSED);
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_ABORTED);
}

TEST(CoreConn, AbortResetsPeer) {
  Net net;
  net.Setup(2);
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  mrc_core_abort(net.a.core, 0);
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_ABORTED);
  EXPECT_EQ(net.a.error, 0);
  ASSERT_TRUE(net.RunUntil([&] { return net.b.error != 0; }, net.now + kSec));
  EXPECT_EQ(net.b.error, ECONNRESET);
  EXPECT_EQ(mrc_core_state(net.b.core), MRC_CORE_ABORTED);
  EXPECT_EQ(mrc_core_send(net.a.core, 1, 0, nullptr, nullptr), -EPIPE);
}

TEST(CoreConn, CleanTransferAndGracefulClose) {
  Net net;
  net.Setup(2);
  net.Connect();
  net.a.to_send = 1 << 20;
  net.a.close_when_sent = true;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.peer_fin; }, net.now + 10 * kSec));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 1 << 20));
  EXPECT_EQ(mrc_core_state(net.b.core), MRC_CORE_CLOSE_WAIT);
  // The server answers and closes its side.
  net.b.to_send = 5000;
  net.b.close_when_sent = true;
  ASSERT_TRUE(net.RunUntil([&] { return net.a.done && net.b.done; }, net.now + 10 * kSec));
  EXPECT_EQ(net.a.rx, Pattern(net.b.seed, 5000));
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_DONE);
  EXPECT_EQ(mrc_core_state(net.b.core), MRC_CORE_DONE);
  const mrc_core_stats sa = net.a.Stats();
  EXPECT_EQ(sa.acked_bytes, 1U << 20);
  EXPECT_EQ(sa.tx_data_bytes, 1U << 20);
  EXPECT_EQ(sa.retx_pkts, 0U);
  EXPECT_EQ(sa.rto_count, 0U);
  EXPECT_EQ(net.b.Stats().delivered_bytes, 1U << 20);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_DONE), 1);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_PEER_FIN), 1);
  EXPECT_EQ(mrc_core_send(net.a.core, 1, 0, nullptr, nullptr), -EPIPE);
}

// Data in the first flight: the client's first bytes follow its SYN at
// once, to the token the SYN proposes, and reach the server's reader half
// a round trip in, where a handshake first would take one and a half.
// (12,000 bytes: within the initial window, 12 packets of 1,400.)
TEST(CoreEarly, FirstFlightArrivesBeforeTheSynAck) {
  Net net;
  net.Setup(4);
  net.a.cfg.early_data = 64 * 1024;
  net.a.to_send = 12000;
  uint32_t proposed = 0;
  std::set<uint32_t> early_planes;
  net.filter = [&](int from, uint32_t plane, const mrc_pkt& p) {
    if (from == 0 && p.type == MRC_PKT_SYN) proposed = p.dst_token;
    if (from == 0 && p.type == MRC_PKT_DATA && (p.flags & MRC_F_EARLY) != 0)
      early_planes.insert(plane);
    return false;
  };
  const uint64_t start = net.now;
  net.Connect();
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_SYN_SENT);
  EXPECT_EQ(net.a.sent, 12000U);
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 12000; }, net.now + kSec));
  // one way is 50 us; the SYN_ACK is not back before 100 us
  EXPECT_LT(net.now - start, 100U);
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_SYN_SENT);
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 12000));
  EXPECT_NE(proposed, 0U);
  EXPECT_EQ(mrc_core_token(net.b.core), proposed);
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  EXPECT_EQ(mrc_core_peer_token(net.a.core), proposed);
  // The first flight took the SYN's plane, the one peer address known;
  // the EVs were dealt over our planes, which the SYN_ACK confirmed.
  EXPECT_EQ(early_planes, std::set<uint32_t>{0});
  std::set<uint32_t> planes;
  for (uint32_t i = 0; i < mrc_core_ev_count(net.a.core); i++) planes.insert(net.a.Ev(i).plane);
  EXPECT_EQ(planes.size(), 4U);
  ASSERT_TRUE(net.RunUntil([&] { return net.a.Stats().acked_bytes == 12000; }, net.now + kSec));
  const mrc_core_stats st = net.a.Stats();
  EXPECT_EQ(st.early_data_bytes, 12000U);
  EXPECT_EQ(st.retx_pkts, 0U);
  EXPECT_EQ(st.early_refused, 0U);
}

// The first flight is bounded by early_data; the rest waits for the
// SYN_ACK, and the whole transfer arrives intact.
TEST(CoreEarly, FirstFlightIsBounded) {
  Net net;
  net.Setup(2);
  net.a.cfg.early_data = 8 * 1024;
  net.a.cfg.mss = 1024;
  net.b.cfg.mss = 1024;
  net.a.to_send = 100000;
  uint64_t before_synack = 0;
  bool synack = false;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from == 1 && p.type == MRC_PKT_SYN_ACK) synack = true;
    if (from == 0 && p.type == MRC_PKT_DATA && !synack) before_synack += p.payload_len;
    return false;
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 100000; }, net.now + 5 * kSec));
  EXPECT_EQ(before_synack, 8U * 1024);
  EXPECT_EQ(net.a.Stats().early_data_bytes, 8U * 1024);
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 100000));
}

// The SYN is lost, so the first flight reaches a host with no connection
// for its token, which answers each packet with an RST from that token.
// The client ignores those, sends the data again after the SYN_ACK, and
// nothing is lost or doubled.
TEST(CoreEarly, DataThatBeatsTheSynIsSentAgain) {
  Net net;
  net.Setup(2);
  net.a.cfg.early_data = 64 * 1024;
  net.a.to_send = 30000;
  int syns = 0;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    return from == 0 && p.type == MRC_PKT_SYN && ++syns == 1;
  };
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 30000; }, net.now + 2 * kSec));
  EXPECT_EQ(net.a.error, 0);
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 30000));
  const mrc_core_stats st = net.a.Stats();
  EXPECT_GT(st.early_refused, 0U);
  EXPECT_EQ(st.rto_count, 0U);  // sent again at the SYN_ACK, not by the RTO
  // and the second SYN_ACK (a retry is two SYNs) comes out of state
  EXPECT_EQ(st.drops[MRC_DROP_STATE], st.early_refused + 1);
}

// A server that does not take the proposed token (an older one, or a
// token already in use there): the early data went to nobody and is sent
// again to the token the SYN_ACK gives.
TEST(CoreEarly, ServerWithItsOwnTokenGetsTheDataAgain) {
  Net net;
  net.Setup(2);
  net.server_takes_token = false;
  net.a.cfg.early_data = 64 * 1024;
  net.a.to_send = 30000;
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == 30000; }, net.now + 2 * kSec));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 30000));
  EXPECT_EQ(mrc_core_peer_token(net.a.core), mrc_core_token(net.b.core));
  EXPECT_EQ(net.a.Stats().rto_count, 0U);
}

// close() before the SYN_ACK with data queued closes after the handshake
// (without early data it aborts the attempt).
TEST(CoreEarly, CloseBeforeTheSynAckFinishesTheTransfer) {
  Net net;
  net.Setup(2);
  net.a.cfg.early_data = 64 * 1024;
  net.a.to_send = 5000;
  net.a.close_when_sent = true;
  net.Connect();
  EXPECT_TRUE(net.a.closed);
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_SYN_SENT);
  ASSERT_TRUE(net.RunUntil([&] { return net.b.peer_fin; }, net.now + kSec));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, 5000));
  EXPECT_EQ(mrc_core_state(net.a.core), MRC_CORE_FIN_WAIT);
  EXPECT_EQ(net.a.error, 0);
}

// With no listener the refusal still ends the attempt: its RST comes from
// another token than the one the SYN proposed.
TEST(CoreEarly, RefusedSynStillFails) {
  Net net;
  net.Setup(2);
  net.server_listening = false;
  net.a.cfg.early_data = 64 * 1024;
  net.a.to_send = 5000;
  net.Connect();
  ASSERT_TRUE(net.RunUntil([&] { return net.a.error != 0; }, net.now + kSec));
  EXPECT_EQ(net.a.error, ECONNREFUSED);
}

TEST(CoreAlloc, FailuresSlowButLoseNothing) {
  Net net(51);
  net.Setup(2);
  Establish(net);
  net.a.alloc_fail_every = 7;
  net.b.alloc_fail_every = 5;
  net.a.to_send = 1 << 20;
  net.b.to_send = 200000;
  ASSERT_TRUE(DrainBoth(net));
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

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
