// SPDX-License-Identifier: GPL-2.0
// The send and receive rings grow on demand: an idle connection holds
// small rings (mrc_core_mem_bytes() says how much), traffic grows them up
// to what sndbuf/rcvbuf need, the receive window stays the cap, and a
// failed grow is back-pressure or a NO_BUFFER drop that loses nothing.
#include "harness.hpp"

extern "C" {
#include "core_private.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

constexpr size_t kMiB = 1 << 20;
constexpr uint32_t kKernelBuf = 4 * kMiB;  // mrc.ko's default sk_sndbuf/rcvbuf
constexpr uint32_t kMinRing = MRC_CORE_MIN_RING;

uint32_t SqSlots(const mrc_core* c) { return c->sq_mask + 1; }
uint32_t RqSlots(const mrc_core* c) { return c->rq[0] != nullptr ? c->rq_mask + 1 : 0; }

// A ring's allocation: at least 128 pointers, a power of two (segments
// of a 1400-byte MSS never are).
bool IsRingGrowth(size_t size) { return size >= 128 * sizeof(void*) && (size & (size - 1)) == 0; }

// Refuse @e's ring growths, but not the lost map that its first segment
// allocates before the first ring (a bit for each PSN sq may hold: it
// can be the size of a grown ring).
std::function<bool(size_t)> FailRingGrowth(const Endpoint& e) {
  return [&e](size_t size) {
    // nor the EV table coming back from parking (mrc_ev_unpark())
    return IsRingGrowth(size) && !e.core->evs_parked &&
           (e.core->lost_map != nullptr || size != e.core->sq_cap / 8);
  };
}

// The rings' bytes: sq holds pointers, rq the held segments' slots.
size_t RingBytes(uint32_t sq_slots, uint32_t rq_slots) {
  return sq_slots * sizeof(void*) + rq_slots * sizeof(mrc_rslot);
}

// The EVs with their by-value table.
size_t EvBytes(const mrc_core* c) {
  return c->nevs * sizeof(mrc_ev) + (c->ev_hash_mask + 1) * sizeof(*c->ev_hash);
}

// The tables by plane id: the addresses (ours and the peer's) and paths.
size_t PlaneBytes(const mrc_core* c) {
  return c->plane_slots * (2 * sizeof(mrc_core_plane) + sizeof(mrc_path));
}

// The counters, while they are not parked in the core (stats.c).
size_t StatsBytes(const mrc_core* c) {
  return c->stats != nullptr ? offsetof(mrc_core_stats, srtt_us) : 0;
}

// What an idle core holds: itself, its plane tables, counters and EVs;
// the rings wait for a first segment to send or to hold.
size_t IdleBytes(const mrc_core* c) {
  return sizeof(mrc_core) + PlaneBytes(c) + StatsBytes(c) +
         (c->evs_parked ? (c->ev_parked != nullptr ? c->nevs * sizeof(*c->ev_parked) : 0)
                        : EvBytes(c));
}

// What a core that has queued data holds besides its segments: the
// rings, the lost map (a bit for each PSN sq may hold) and the EVs'
// counters.
size_t SenderBytes(const mrc_core* c) {
  return sizeof(mrc_core) + PlaneBytes(c) + StatsBytes(c) + EvBytes(c) +
         c->nevs * sizeof(mrc_ev_stats) + c->sq_cap / 8 + RingBytes(SqSlots(c), RqSlots(c));
}

void SetBuffers(Net& net, uint32_t bytes) {
  for (Endpoint* e : {&net.a, &net.b}) {
    e->cfg.sndbuf = bytes;
    e->cfg.rcvbuf = bytes;
  }
}

bool AllAcked(const Net& net) {
  return net.b.rx.size() == net.a.to_send && net.a.Stats().acked_bytes == net.a.to_send;
}

// Run until a's data is all delivered and acked, checking on the way that
// mrc_core_mem_bytes() is exactly what each core holds.
bool DrainCheckingMem(Net& net, uint64_t limit_us = 60 * kSec) {
  const uint64_t end = net.now + limit_us;
  while (!AllAcked(net) && net.now < end) {
    net.RunUntil([&] { return AllAcked(net); }, std::min(end, net.now + 2000));
    for (const Endpoint* e : {&net.a, &net.b}) {
      EXPECT_EQ(mrc_core_mem_bytes(e->core), e->live_bytes) << "endpoint " << e->id();
    }
  }
  return AllAcked(net);
}

// What a stalled transfer looks like, for the failure message.
std::string Explain(const Net& net) {
  const mrc_core* a = net.a.core;
  const mrc_core* b = net.b.core;
  const mrc_core_stats sb = net.b.Stats();
  return "delivered " + std::to_string(net.b.rx.size()) + " of " + std::to_string(net.a.to_send) +
         ", errors " + std::to_string(net.a.error) + "/" + std::to_string(net.b.error) + ", sq " +
         std::to_string(SqSlots(a)) + " slots, span " +
         std::to_string(mrc_diff(a, a->snd_una, a->snd_end)) + ", rq " +
         std::to_string(RqSlots(b)) + " slots, held " + std::to_string(b->held_pkts) +
         ", no-buffer drops " + std::to_string(sb.drops[MRC_DROP_NO_BUFFER]);
}

TEST(CoreRing, IdleConnectionHoldsSmallRings) {
  Net net;
  net.Setup(2);
  SetBuffers(net, kKernelBuf);
  net.Connect();
  EXPECT_EQ(net.a.core->sq, nullptr);
  EXPECT_EQ(RqSlots(net.a.core), 0U);
  EXPECT_EQ(mrc_core_mem_bytes(net.a.core), net.a.live_bytes);
  ASSERT_TRUE(net.RunUntil([&] { return net.Established(); }, net.now + kSec));
  net.RunFor(kSec);  // idle, established
  for (const Endpoint* e : {&net.a, &net.b}) {
    const mrc_core* c = e->core;
    // No ring, lost map or EV counters before the first segment.
    EXPECT_EQ(c->sq, nullptr);
    EXPECT_EQ(c->lost_map, nullptr);
    EXPECT_EQ(c->ev_stats, nullptr);
    EXPECT_EQ(RqSlots(c), 0U);
    // The EV table is parked: only the values stay (mrc_ev_park()).
    EXPECT_EQ(c->evs, nullptr);
    EXPECT_EQ(c->ev_hash, nullptr);
    // Its random values come from a seed (mrc_ev_seed_value()): parked,
    // it keeps nothing more.
    ASSERT_TRUE(c->evs_parked);
    EXPECT_NE(c->ev_seed, 0U);
    EXPECT_EQ(c->ev_parked, nullptr);
    EXPECT_EQ(IdleBytes(c), sizeof(mrc_core) + PlaneBytes(c));
    // So are its counters: the few the handshake moved stay in the core.
    EXPECT_EQ(c->stats, nullptr);
    EXPECT_GT(c->stats_nparked, 0U);
    EXPECT_GE(e->Stats().tx_pkts, 1U);  // its SYN or SYN_ACK
    // Planes 0 and 1: two slots of each plane table, not
    // MRC_WIRE_MAX_PLANES.
    EXPECT_EQ(c->plane_slots, 2U);
    // The caps are what the old fixed rings had.
    EXPECT_EQ(c->sq_cap, static_cast<uint32_t>(MRC_CORE_MAX_SEGS));
    EXPECT_EQ(c->rq_cap, static_cast<uint32_t>(MRC_CORE_MAX_RCV_WIN));
    EXPECT_EQ(mrc_core_mem_bytes(c), e->live_bytes);
    EXPECT_EQ(mrc_core_mem_bytes(c), IdleBytes(c));
    // 64 + 128 KiB of rings at full size; idle, none.
    EXPECT_LT(mrc_core_mem_bytes(c) + 180 * 1024, IdleBytes(c) + RingBytes(c->sq_cap, c->rq_cap));
    // The 128 EVs take 4 KiB, a kernel kmalloc class (they took 16 with
    // their counters and table inside); the table is an allocation of
    // its own.
    EXPECT_EQ(c->nevs * sizeof(mrc_ev), 4096U);
  }
  // mrc.ko allocates the connection with kmalloc(): past 4 KiB it takes
  // an 8 KiB object (it did, at 4,392 bytes, with the lost map inside).
  EXPECT_LE(sizeof(mrc_core), 4096U);
}

// An idle connection's parked EVs come back as they were when traffic
// starts, on either side; while there is no memory for them, DATA is
// refused (NO_BUFFER) and nothing is lost once there is.
TEST(CoreRing, ParkedEvsComeBackAsTheyWere) {
  Net net;
  net.Setup(2);
  Establish(net);
  net.RunFor(kSec);
  std::vector<mrc_core_ev_info> before(net.a.core->nevs);
  for (uint32_t i = 0; i < net.a.core->nevs; i++) {
    ASSERT_EQ(mrc_core_ev_get(net.a.core, i, &before[i]), 0);
  }
  ASSERT_TRUE(net.a.core->evs_parked);
  ASSERT_TRUE(net.b.core->evs_parked);
  // b cannot take its EVs back at first: the DATA waits, nothing is lost.
  net.b.alloc_fail_if = [](size_t size) { return size == 128 * sizeof(mrc_ev); };
  net.a.to_send = 256 * 1024;
  net.a.Pump();
  net.RunFor(20 * 1000);
  EXPECT_GT(net.b.alloc_failures, 0U);
  EXPECT_TRUE(net.b.core->evs_parked);
  EXPECT_EQ(net.b.rx.size(), 0U);
  net.b.alloc_fail_if = nullptr;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() == net.a.to_send; }, net.now + 10 * kSec));
  EXPECT_EQ(net.b.rx, Pattern(net.a.seed, net.a.to_send));
  for (const Endpoint* e : {&net.a, &net.b}) {
    EXPECT_FALSE(e->core->evs_parked);
    ASSERT_NE(e->core->evs, nullptr);
  }
  for (uint32_t i = 0; i < net.a.core->nevs; i++) {
    EXPECT_EQ(net.a.core->evs[i].value, before[i].value);
    EXPECT_EQ(net.a.core->evs[i].plane, before[i].plane);
    EXPECT_EQ(mrc_ev_find(net.a.core, before[i].value), static_cast<int>(i));
  }
}

// An idle connection's counters wait in the core (stats.c); a packet it
// refuses is counted there too, also when there is no memory to take
// them back out, and traffic takes them out with nothing lost.
TEST(CoreRing, ParkedCountersCountAndComeBack) {
  Net net;
  net.Setup(2);
  Establish(net);
  net.RunFor(kSec);
  mrc_core* b = net.b.core;
  ASSERT_EQ(b->stats, nullptr);
  const mrc_core_stats before = net.b.Stats();
  mrc_pkt bad{};
  bad.type = MRC_PKT_DATA;
  bad.src_token = mrc_core_peer_token(b);
  bad.dst_token = mrc_core_token(b) ^ 1;
  EXPECT_EQ(mrc_core_input(b, &bad, 0, false), MRC_DROP_TOKEN);
  EXPECT_EQ(b->stats, nullptr) << "parked again after the call";
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_TOKEN], before.drops[MRC_DROP_TOKEN] + 1);
  // No memory for the counters: the drop is counted in the core.
  const size_t words = offsetof(mrc_core_stats, srtt_us);
  net.b.alloc_fail_if = [words](size_t size) { return size == words; };
  EXPECT_EQ(mrc_core_input(b, &bad, 0, false), MRC_DROP_TOKEN);
  EXPECT_GT(net.b.alloc_failures, 0U);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_TOKEN], before.drops[MRC_DROP_TOKEN] + 2);
  EXPECT_EQ(net.b.Stats().tx_pkts, before.tx_pkts);
  net.b.alloc_fail_if = nullptr;
  net.a.to_send = 64 * 1024;
  net.a.Pump();
  ASSERT_TRUE(Drain(net));
  EXPECT_NE(b->stats, nullptr) << "a connection with rings keeps its counters out";
  const mrc_core_stats after = net.b.Stats();
  EXPECT_EQ(after.drops[MRC_DROP_TOKEN], before.drops[MRC_DROP_TOKEN] + 2);
  EXPECT_EQ(after.rx_data_bytes, 64U * 1024);
  EXPECT_GT(after.tx_pkts, before.tx_pkts);
  EXPECT_EQ(mrc_core_mem_bytes(b), net.b.live_bytes);
}

// DATA inside the window but past the ring grows it; every held segment
// keeps its PSN (it is delivered in order afterwards); the window is
// rq_cap, not the ring.
TEST(CoreRing, ReceiveWindowIsTheCapNotTheRing) {
  Net net;
  net.Setup(2);
  net.a.scripted_random = {0xaaaa, 0xfffff0};  // b's rcv ring wraps soon
  net.a.cfg.psn24 = true;
  Establish(net);
  mrc_core* b = net.b.core;
  const uint32_t cap = b->rq_cap;
  ASSERT_EQ(cap, 512U);       // 256 KiB rcvbuf, 1400-byte MSS
  ASSERT_EQ(RqSlots(b), 0U);  // no DATA yet
  std::vector<mrc_pkt> seen;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from == 1) seen.push_back(p);
    return false;
  };
  std::array<uint8_t, 4> payload{};
  auto data = [&](uint32_t off) {
    mrc_pkt d{};
    d.type = MRC_PKT_DATA;
    d.flags = MRC_F_PSN24;
    d.dst_token = mrc_core_token(b);
    d.src_token = mrc_core_token(net.a.core);
    d.ev = 4444;
    d.data.psn = (0xfffff0U + off) & 0xffffffU;
    d.data.tsval = 1;
    for (size_t i = 0; i < payload.size(); i++) payload.at(i) = static_cast<uint8_t>(off + i);
    d.payload = payload.data();
    d.payload_len = static_cast<uint32_t>(payload.size());
    return mrc_core_input(b, &d, 0, false);
  };
  // PSNs 1..40 held behind the gap at 0 (the first makes the ring),
  // then 100: the ring doubles.
  for (uint32_t off = 1; off <= 40; off++) ASSERT_EQ(data(off), MRC_DROP_NONE);
  EXPECT_EQ(RqSlots(b), kMinRing);
  EXPECT_EQ(data(100), MRC_DROP_NONE);
  EXPECT_EQ(RqSlots(b), 2 * kMinRing);
  EXPECT_EQ(data(40), MRC_DROP_DUPLICATE);
  EXPECT_EQ(data(100), MRC_DROP_DUPLICATE);
  // The last PSN of the window grows it to the cap; one more is outside.
  EXPECT_EQ(data(cap - 1), MRC_DROP_NONE);
  EXPECT_EQ(RqSlots(b), cap);
  seen.clear();
  EXPECT_EQ(data(cap), MRC_DROP_PSN_WINDOW);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0].type, MRC_PKT_NACK);
  EXPECT_EQ(seen[0].nack.reason, MRC_NACK_PSN_OUT_OF_WINDOW);
  EXPECT_EQ(mrc_core_mem_bytes(b), net.b.live_bytes);
  // The gap fills: 0..40 come out in order, 100 and cap - 1 stay held.
  ASSERT_EQ(data(0), MRC_DROP_NONE);
  ASSERT_EQ(net.b.rx.size(), 41 * payload.size());
  for (uint32_t off = 0; off <= 40; off++) {
    for (size_t i = 0; i < payload.size(); i++) {
      EXPECT_EQ(net.b.rx[off * payload.size() + i], static_cast<uint8_t>(off + i));
    }
  }
  EXPECT_EQ(b->held_pkts, 2U);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_PSN_WINDOW], 1U);
}

// A failed grow of the receive ring drops the DATA with a NO_BUFFER NACK
// (the sender resends it), never PSN_OUT_OF_WINDOW (which would narrow
// the sender's PSN window for good), and keeps all it held.
TEST(CoreRing, ReceiveGrowthFailureIsNoBuffer) {
  Net net;
  net.Setup(2);
  net.a.scripted_random = {0xaaaa, 1000};
  Establish(net);
  mrc_core* b = net.b.core;
  std::vector<mrc_pkt> seen;
  net.filter = [&](int from, uint32_t, const mrc_pkt& p) {
    if (from == 1) seen.push_back(p);
    return false;
  };
  const std::array<uint8_t, 8> payload{1, 2, 3, 4, 5, 6, 7, 8};
  auto data = [&](uint32_t psn) {
    mrc_pkt d{};
    d.type = MRC_PKT_DATA;
    d.dst_token = mrc_core_token(b);
    d.src_token = mrc_core_token(net.a.core);
    d.ev = 4444;
    d.data.psn = psn;
    d.data.tsval = 1;
    d.payload = payload.data();
    d.payload_len = static_cast<uint32_t>(payload.size());
    return mrc_core_input(b, &d, 0, false);
  };
  ASSERT_EQ(data(1001), MRC_DROP_NONE);
  net.b.alloc_fail_if = IsRingGrowth;
  seen.clear();
  EXPECT_EQ(data(1000 + 200), MRC_DROP_NO_BUFFER);
  EXPECT_EQ(net.b.alloc_failures, 1U);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0].type, MRC_PKT_NACK);
  EXPECT_EQ(seen[0].nack.reason, MRC_NACK_NO_BUFFER);
  EXPECT_EQ(seen[0].nack.psn, 1200U);
  EXPECT_EQ(RqSlots(b), kMinRing);
  EXPECT_EQ(b->held_pkts, 1U);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_NO_BUFFER], 1U);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_PSN_WINDOW], 0U);
  // Inside the ring nothing needs allocating but the segment.
  EXPECT_EQ(data(1000 + 63), MRC_DROP_NONE);
  // Allocations work again: the resent DATA is taken.
  net.b.alloc_fail_if = nullptr;
  EXPECT_EQ(data(1000 + 200), MRC_DROP_NONE);
  EXPECT_EQ(RqSlots(b), 4 * kMinRing);
  EXPECT_EQ(data(1000), MRC_DROP_NONE);
  EXPECT_EQ(net.b.rx.size(), 2 * payload.size());  // 1000, 1001
  EXPECT_EQ(b->held_pkts, 2U);                     // 1063, 1200
  EXPECT_EQ(mrc_core_mem_bytes(b), net.b.live_bytes);
}

// A failed grow of the send ring is "no room now": send() takes nothing
// more, send space is 0, and the writer is woken once the retry timer
// passed and allocations work again.
TEST(CoreRing, SendGrowthFailureIsNoRoomNow) {
  Net net;
  net.Setup(2);
  Establish(net);
  mrc_core* a = net.a.core;
  // Nothing is acked: the ring fills with what is sent.
  net.filter = [](int from, uint32_t, const mrc_pkt& p) {
    return from == 0 && p.type == MRC_PKT_DATA;
  };
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  const uint32_t ring_bytes = kMinRing * a->mss;
  ASSERT_EQ(mrc_core_send(a, ring_bytes, 0, fill, nullptr), static_cast<int>(ring_bytes));
  EXPECT_EQ(SqSlots(a), kMinRing);
  net.a.alloc_fail_if = IsRingGrowth;
  EXPECT_EQ(mrc_core_send(a, 1000, 0, fill, nullptr), 0);
  EXPECT_EQ(net.a.alloc_failures, 1U);
  EXPECT_EQ(SqSlots(a), kMinRing);
  EXPECT_EQ(mrc_core_send_space(a, 1), 0U);
  EXPECT_EQ(a->queued_bytes, ring_bytes);
  // Still failing after the retry: still no room, and no busy loop.
  const int writable = net.a.NoteCount(MRC_NOTE_WRITABLE);
  net.RunFor(2 * MRC_CORE_ALLOC_RETRY_US);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_WRITABLE), writable + 1);
  EXPECT_EQ(mrc_core_send(a, 1000, 0, fill, nullptr), 0);
  EXPECT_EQ(net.a.alloc_failures, 2U);
  net.a.alloc_fail_if = nullptr;
  net.RunFor(2 * MRC_CORE_ALLOC_RETRY_US);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_WRITABLE), writable + 2);
  EXPECT_EQ(mrc_core_send(a, 1000, 0, fill, nullptr), 1000);
  EXPECT_EQ(SqSlots(a), 2 * kMinRing);
  EXPECT_EQ(a->queued_bytes, ring_bytes + 1000);
  EXPECT_EQ(mrc_core_mem_bytes(a), net.a.live_bytes);
  EXPECT_EQ(net.a.error, 0);
}

// The first segment allocates the send side (ring, lost map, EV
// counters) in one step: when that fails, nothing stays allocated, the
// send is "no room now" as for a growth, and the retry brings it back.
TEST(CoreRing, FirstSegmentAllocationFailureIsNoRoomNow) {
  Net net;
  net.Setup(2);
  Establish(net);
  mrc_core* a = net.a.core;
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  const size_t idle = mrc_core_mem_bytes(a);
  net.a.alloc_fail_if = [](size_t) { return true; };
  EXPECT_EQ(mrc_core_send(a, 1000, 0, fill, nullptr), 0);
  EXPECT_GE(net.a.alloc_failures, 1U);
  EXPECT_EQ(a->sq, nullptr);
  EXPECT_EQ(a->lost_map, nullptr);
  EXPECT_EQ(a->ev_stats, nullptr);
  EXPECT_EQ(mrc_core_mem_bytes(a), idle);
  EXPECT_EQ(mrc_core_mem_bytes(a), net.a.live_bytes);
  EXPECT_EQ(mrc_core_send_space(a, 1), 0U);
  mrc_core_ev_info info{};
  ASSERT_EQ(mrc_core_ev_get(a, 0, &info), 0);
  EXPECT_EQ(info.tx_pkts, 0U);
  const int writable = net.a.NoteCount(MRC_NOTE_WRITABLE);
  net.a.alloc_fail_if = nullptr;
  net.RunFor(2 * MRC_CORE_ALLOC_RETRY_US);
  EXPECT_EQ(net.a.NoteCount(MRC_NOTE_WRITABLE), writable + 1);
  EXPECT_EQ(mrc_core_send(a, 1000, 0, fill, nullptr), 1000);
  EXPECT_EQ(SqSlots(a), kMinRing);
  EXPECT_EQ(mrc_core_mem_bytes(a), net.a.live_bytes);
  ASSERT_TRUE(net.RunUntil([&] { return net.a.Stats().acked_bytes == 1000; }, net.now + kSec));
  // The counters count from the first segment on.
  uint64_t sent = 0;
  for (uint32_t i = 0; i < mrc_core_ev_count(a); i++) {
    ASSERT_EQ(mrc_core_ev_get(a, i, &info), 0);
    sent += info.tx_bytes;
  }
  EXPECT_EQ(sent, 1000U);
  EXPECT_EQ(net.a.error, 0);
}

// A sender's first segment makes its receive ring too: once its send
// side has taken every allocation it may (a memory cap), it can still
// take its peer's answer, kept in the packets themselves as mrc.ko keeps
// skbs (rx_take). Made by the answer's DATA, the ring was refused there,
// and each NO_BUFFER NACK brought the DATA back for ever: a debug
// guest's capped mrc_limits transfer hung so.
TEST(CoreRing, SenderCanTakeAnAnswerWithNoMemoryLeft) {
  Net net;
  net.Setup(2);
  net.a.zero_copy = true;
  Establish(net);
  auto fill = [](void*, void*, uint32_t, uint32_t) { return 0; };
  ASSERT_EQ(mrc_core_send(net.a.core, 1000, 0, fill, nullptr), 1000);
  EXPECT_EQ(RqSlots(net.a.core), kMinRing);
  net.a.alloc_fail_if = [](size_t) { return true; };
  ASSERT_TRUE(net.RunUntil([&] { return net.a.Stats().acked_bytes == 1000; }, net.now + kSec));
  net.b.to_send = 4000;
  net.b.Pump();
  ASSERT_TRUE(net.RunUntil([&] { return net.a.rx.size() == 4000; }, net.now + kSec))
      << "a got " << net.a.rx.size() << " bytes, NO_BUFFER drops "
      << net.a.Stats().drops[MRC_DROP_NO_BUFFER];
  EXPECT_EQ(net.a.Stats().drops[MRC_DROP_NO_BUFFER], 0U);
  EXPECT_EQ(mrc_core_mem_bytes(net.a.core), net.a.live_bytes);
}

struct Fabric {
  const char* name;
  double loss;
  uint64_t jitter_us;
  bool psn24_wrap;
};

class CoreRingGrowth : public ::testing::TestWithParam<Fabric> {};

// Rings sized like mrc.ko's (4 MiB buffers) grow with a 3 MiB transfer;
// the bytes arrive intact, and once everything is acked the core holds
// only itself, its EVs and the rings.
TEST_P(CoreRingGrowth, TransferGrowsRingsByteExact) {
  const Fabric f = GetParam();
  Net net(31);
  net.Setup(2);
  SetBuffers(net, kKernelBuf);
  if (f.psn24_wrap) {
    net.a.cfg.psn24 = true;
    net.a.scripted_random = {0x1111, 0xffffffU - 300};
    net.b.scripted_random = {0x2222, 0xffffffU - 20};
  }
  for (auto& p : net.planes) {
    p.loss = f.loss;
    p.jitter_us = f.jitter_us;
  }
  Establish(net);
  net.a.to_send = 3 * kMiB;
  ASSERT_TRUE(DrainCheckingMem(net)) << Explain(net);
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send)) << "payload corrupted";
  EXPECT_EQ(net.a.error, 0);
  EXPECT_EQ(net.b.error, 0);
  const mrc_core* a = net.a.core;
  const mrc_core* b = net.b.core;
  EXPECT_GT(SqSlots(a), kMinRing);
  EXPECT_LE(SqSlots(a), a->sq_cap);
  // Only reordering or loss hold DATA ahead of a gap.
  if (f.loss > 0 || f.jitter_us > 0) {
    EXPECT_GT(RqSlots(b), kMinRing);
  }
  EXPECT_LE(RqSlots(b), b->rq_cap);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_PSN_WINDOW], 0U);
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_NO_BUFFER], 0U);
  EXPECT_EQ(mrc_core_mem_bytes(a), SenderBytes(a));
}

INSTANTIATE_TEST_SUITE_P(Fabrics, CoreRingGrowth,
                         ::testing::Values(Fabric{"Clean", 0, 0, false},
                                           Fabric{"Loss", 0.02, 0, false},
                                           Fabric{"Reorder", 0, 400, false},
                                           Fabric{"LossReorder", 0.01, 400, false},
                                           Fabric{"Psn24Wrap", 0.01, 200, true}),
                         [](const ::testing::TestParamInfo<Fabric>& p) { return p.param.name; });

struct FailCase {
  const char* name;
  int side;  // whose ring growth fails: 0 the sender, 1 the receiver
  size_t msg_size;
};

class CoreRingAllocFail : public ::testing::TestWithParam<FailCase> {};

// Every ring growth on one side fails for the first part of a lossy,
// reordering 2 MiB transfer: it goes on with the small ring, loses and
// corrupts nothing, and completes with grown rings once allocations
// succeed again. mrc.ko's 4 MiB buffers: with a receive buffer not much
// larger than the reordering, out-of-order DATA can fill it and the
// hole's retransmission is refused for good (a stall that has nothing to
// do with the rings; the fixed rings had it too).
TEST_P(CoreRingAllocFail, GrowthFailureLosesNothing) {
  const FailCase fc = GetParam();
  Net net(33);
  net.Setup(2, fc.msg_size != 0 ? MRC_SYN_SEQPACKET : MRC_SYN_STREAM);
  SetBuffers(net, kKernelBuf);
  for (auto& p : net.planes) {
    p.loss = 0.01;
    p.jitter_us = 300;
  }
  Establish(net);
  Endpoint& failing = fc.side == 0 ? net.a : net.b;
  failing.alloc_fail_if = FailRingGrowth(failing);
  net.a.msg_size = fc.msg_size;
  net.a.to_send = 2 * kMiB;
  ASSERT_TRUE(net.RunUntil([&] { return net.b.rx.size() >= kMiB / 2; }, net.now + 30 * kSec));
  EXPECT_GT(failing.alloc_failures, 0U);
  if (fc.side == 0) {
    EXPECT_EQ(SqSlots(net.a.core), kMinRing);
  } else {
    EXPECT_EQ(RqSlots(net.b.core), kMinRing);
    EXPECT_GT(net.b.Stats().drops[MRC_DROP_NO_BUFFER], 0U);
  }
  EXPECT_EQ(net.b.Stats().drops[MRC_DROP_PSN_WINDOW], 0U);
  EXPECT_TRUE(
      std::equal(net.b.rx.begin(), net.b.rx.end(), Pattern(net.a.seed, net.b.rx.size()).begin()));
  EXPECT_EQ(mrc_core_mem_bytes(failing.core), failing.live_bytes);

  failing.alloc_fail_if = nullptr;
  ASSERT_TRUE(DrainCheckingMem(net)) << Explain(net);
  EXPECT_TRUE(net.b.rx == Pattern(net.a.seed, net.a.to_send)) << "payload corrupted";
  EXPECT_EQ(net.a.error, 0);
  EXPECT_EQ(net.b.error, 0);
  EXPECT_GT(fc.side == 0 ? SqSlots(net.a.core) : RqSlots(net.b.core), kMinRing);
  if (fc.msg_size != 0) {
    ASSERT_EQ(net.b.messages.size(), (net.a.to_send + fc.msg_size - 1) / fc.msg_size);
    for (size_t i = 0; i + 1 < net.b.messages.size(); i++) {
      EXPECT_EQ(net.b.messages[i].size(), fc.msg_size);
    }
  }
  net.a.Destroy();
  net.b.Destroy();
  EXPECT_EQ(net.a.live_allocs, 0);
  EXPECT_EQ(net.b.live_allocs, 0);
  EXPECT_EQ(net.a.live_bytes, 0U);
  EXPECT_EQ(net.b.live_bytes, 0U);
}

INSTANTIATE_TEST_SUITE_P(Sides, CoreRingAllocFail,
                         ::testing::Values(FailCase{"SenderStream", 0, 0},
                                           FailCase{"ReceiverStream", 1, 0},
                                           FailCase{"SenderSeqpacket", 0, 9000},
                                           FailCase{"ReceiverSeqpacket", 1, 9000}),
                         [](const ::testing::TestParamInfo<FailCase>& p) { return p.param.name; });

}  // namespace
}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
