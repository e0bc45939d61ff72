// SPDX-License-Identifier: GPL-2.0
// The fake environment, handshake and common invariants of fuzz_harness.hpp.
#include "fuzz_harness.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

extern "C" {
#include "wire.h"
}

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_fuzz {
namespace {

constexpr uint32_t kClientToken = 0x0a0a0a0a;
constexpr uint32_t kServerToken = 0x0b0b0b0b;
constexpr uint32_t kServerIsn = 0x00777777;
// A timer that keeps firing without the clock moving is a busy loop in
// mrc.ko; each firing may legitimately settle one segment, no more.
constexpr int kTimerStormFirings = 2 * 8192 + 64;
constexpr uint32_t kRtoMaxUs = 200000;    // Configure()'s rto_max_us
constexpr uint32_t kRtoCeilUs = 60000000;  // MRC_CORE_RTO_CEIL_US

constexpr std::array<uint32_t, 4> kMss = {1400, 64, 256, 1000};
constexpr std::array<uint32_t, 4> kEvs = {4, 1, 16, 2};
constexpr std::array<uint32_t, 8> kRcvbuf = {65536, 4096, 1000, 16384, 262144, 2048, 8192, 1 << 20};
constexpr std::array<uint32_t, 2> kSndbuf = {262144, 16384};
constexpr std::array<uint32_t, 4> kFailEvery = {0, 0, 7, 31};

// Fixed EV values: no random() calls for them, and a SACK's echo_ev can
// name one without asking the core.
constexpr std::array<uint16_t, 16> kClientEvs = {20000, 20001, 20002, 20003, 20004, 20005,
                                                 20006, 20007, 20008, 20009, 20010, 20011,
                                                 20012, 20013, 20014, 20015};
constexpr std::array<uint16_t, 16> kServerEvs = {30000, 30001, 30002, 30003, 30004, 30005,
                                                 30006, 30007, 30008, 30009, 30010, 30011,
                                                 30012, 30013, 30014, 30015};

uint32_t IsnFor(uint32_t choice, bool psn24) {
  const uint32_t mask = mrc_psn_mask(psn24);
  switch (choice) {
    case 1:
      return mask - 20;  // wraps after a few packets
    case 2:
      return mask / 2 - 10;  // crosses the sign bit of PSN differences
    case 3:
      return mask - 3000;
    default:
      return 100;
  }
}

template <typename T, size_t N>
uint32_t IndexOf(const std::array<T, N>& table, T value) {
  for (size_t i = 0; i < N; i++)
    if (table.at(i) == value) return static_cast<uint32_t>(i);
  Fail("Options::Encode: a value not in its table");
}

Endpoint* Ep(void* ctx) { return static_cast<Endpoint*>(ctx); }

uint64_t EnvNow(void* ctx) { return Ep(ctx)->world()->now; }

void EnvTimerArm(void* ctx, uint64_t when) { Ep(ctx)->timer_when = when; }

int EnvXmit(void* ctx, uint32_t plane, uint32_t ev, const void* hdr, uint32_t hdr_len,
            const void* payload, uint32_t payload_len, void* /*payload_ref*/) {
  Endpoint* e = Ep(ctx);
  Sent& s = e->outbox.push_back();
  s.plane = plane;
  s.ev = ev;
  const auto* h = static_cast<const uint8_t*>(hdr);
  s.bytes.assign(h, h + hdr_len);
  if (payload_len != 0) {
    const auto* p = static_cast<const uint8_t*>(payload);
    s.bytes.insert(s.bytes.end(), p, p + payload_len);
  }
  mrc_pkt pkt{};
  Check(
      mrc_wire_parse(s.bytes.data(), static_cast<uint32_t>(s.bytes.size()), &pkt) == MRC_DROP_NONE,
      "a core sent a packet its peer cannot parse");
  Check(pkt.ev == ev, "packet's EV is not the one it was sent with");
  Check(plane < MRC_WIRE_MAX_PLANES, "packet sent on a plane id out of range");
  Check(plane < e->cfg.nplanes, "packet sent on a plane we lack");  // ids are 0..n-1
  if (e->on_xmit) e->on_xmit(s, pkt);
  return 0;
}

int EnvDeliver(void* ctx, const void* data, uint32_t len, uint32_t flags, void* ref) {
  Endpoint* e = Ep(ctx);
  Check(len != 0, "deliver() of zero bytes");
  Check(ref == nullptr && data != nullptr, "deliver() of a packet nobody gave the core");
  const int ret = e->on_deliver ? e->on_deliver(static_cast<const uint8_t*>(data), len, flags) : 0;
  if (ret == 0) e->unread += len;
  return ret;
}

void EnvTrace(void* /*ctx*/, mrc_core_trace point, const mrc_core_trace_info* info) {
  Check(point >= MRC_TRACE_TX && point <= MRC_TRACE_NACK, "unknown trace point");
  Check(info->plane < MRC_WIRE_MAX_PLANES, "trace of a plane id out of range");
  if (point == MRC_TRACE_TX || point == MRC_TRACE_RX || point == MRC_TRACE_ACK)
    Check(info->len != 0 && info->len <= 0xffff, "trace of DATA with an impossible length");
  // 0 SACK gap, 1 RTO, 2 NACK, 3 plane down, 4 tail probe (mrc_core.h)
  if (point == MRC_TRACE_LOSS) Check(info->arg <= 4, "loss trace with an unknown reason");
}

void EnvNotify(void* ctx, mrc_core_note note, uint32_t arg) {
  Endpoint* e = Ep(ctx);
  if (e->on_note) e->on_note(note, arg);
}

// In front of every allocation: its size, and whose it is (a map of live
// pointers would double the allocations, which ASan makes dear).
struct alignas(16) AllocHeader {
  size_t size;
  const Endpoint* owner;
};

void* EnvAlloc(void* ctx, size_t size) {
  Endpoint* e = Ep(ctx);
  Check(size <= MRC_CORE_MAX_ALLOC, "allocation above MRC_CORE_MAX_ALLOC");
  e->alloc_calls++;
  if (e->fail_every != 0 && e->alloc_calls % e->fail_every == 0) {
    e->alloc_failures++;
    return nullptr;
  }
  // NOLINTNEXTLINE(cppcoreguidelines-no-malloc): the core's C allocator
  auto* h = static_cast<AllocHeader*>(std::malloc(sizeof(AllocHeader) + size));
  if (h == nullptr) Fail("host out of memory");
  *h = AllocHeader{size, e};
  e->live_allocs++;
  e->live_bytes += size;
  return h + 1;
}

void EnvFree(void* ctx, void* ptr) {
  if (ptr == nullptr) return;
  Endpoint* e = Ep(ctx);
  AllocHeader* h = static_cast<AllocHeader*>(ptr) - 1;
  if (h->owner != e) Fail("free of a pointer this core never allocated");
  h->owner = nullptr;
  e->live_allocs--;
  e->live_bytes -= h->size;
  std::free(h);  // NOLINT(cppcoreguidelines-no-malloc)
}

uint32_t EnvRandom(void* ctx) {
  Endpoint* e = Ep(ctx);
  if (e->randoms.empty()) return 0x5eed1234;
  const uint32_t v = e->randoms.front();
  e->randoms.pop_front();
  return v;
}

}  // namespace

std::string& FailContext() {
  static std::string ctx;
  return ctx;
}

const uint8_t* Pattern(uint64_t off) {
  static const std::vector<uint8_t> bytes = [] {
    std::vector<uint8_t> b(kPatternPeriod + 65536);
    uint32_t x = 0x12345678;
    for (uint32_t i = 0; i < kPatternPeriod; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      b[i] = static_cast<uint8_t>(x >> 24);
    }
    std::copy(b.begin(), b.begin() + 65536, b.begin() + kPatternPeriod);
    return b;
  }();
  return bytes.data() + off % kPatternPeriod;
}

void Fail(const std::string& what) {
  std::fprintf(stderr, "mrc fuzz invariant broken: %s%s%s\n", what.c_str(),
               FailContext().empty() ? "" : " -- input ", FailContext().c_str());
  std::abort();
}

const mrc_core_env_ops Endpoint::kOps = {
    .now_us = EnvNow,
    .timer_arm = EnvTimerArm,
    .xmit = EnvXmit,
    .deliver = EnvDeliver,
    .notify = EnvNotify,
    .trace = EnvTrace,
    .alloc = EnvAlloc,
    .free = EnvFree,
    .random = EnvRandom,
    // Copies: no zero-copy handles, no batching.
    .rx_take = nullptr,
    .rx_free = nullptr,
    .buf_get = nullptr,
    .buf_put = nullptr,
    .flush = nullptr,
    .tx_busy = nullptr,  // no local queue
    .scratch = nullptr,  // a thread's own (core.c)
    .core_alloc = nullptr,
    .core_free = nullptr,
};

Options Options::Decode(ByteReader& in) {
  Options o;
  const uint8_t b0 = in.U8();
  const uint8_t b1 = in.U8();
  o.sock_type = (b0 & 1) != 0 ? MRC_SYN_SEQPACKET : MRC_SYN_STREAM;
  o.psn24 = (b0 & 2) != 0;
  o.client_isn = IsnFor((b0 >> 2) & 3U, o.psn24);
  o.nplanes = ((b0 >> 4) & 3U) + 1;
  o.fail_every = kFailEvery.at((b0 >> 6) & 3U);
  o.mss = kMss.at(b1 & 3U);
  o.nevs = kEvs.at((b1 >> 2) & 3U);
  o.rcvbuf = kRcvbuf.at((b1 >> 4) & 7U);
  o.sndbuf = kSndbuf.at((b1 >> 7) & 1U);
  o.seed = in.U8();
  o.initial = (in.U8() & 63U) * 1024;
  return o;
}

Bytes Options::Encode() const {
  uint32_t isn_choice = 0;
  for (uint32_t c = 0; c < 4; c++)
    if (IsnFor(c, psn24) == client_isn) isn_choice = c;
  const uint32_t fail = fail_every == 0 ? 0 : IndexOf(kFailEvery, fail_every);
  const auto b0 = static_cast<uint8_t>((sock_type == MRC_SYN_SEQPACKET ? 1 : 0) | (psn24 ? 2 : 0) |
                                       isn_choice << 2 | (nplanes - 1) << 4 | fail << 6);
  const auto b1 =
      static_cast<uint8_t>(IndexOf(kMss, mss) | IndexOf(kEvs, nevs) << 2 |
                           IndexOf(kRcvbuf, rcvbuf) << 4 | IndexOf(kSndbuf, sndbuf) << 7);
  return {b0, b1, seed, static_cast<uint8_t>(initial / 1024)};
}

void Configure(Endpoint& e, const Options& o, bool client) {
  mrc_core_cfg& c = e.cfg;
  c = mrc_core_cfg{};
  c.sock_type = o.sock_type;
  c.local_port = client ? 40000 : 7000;
  c.peer_port = client ? 7000 : 0;
  c.mss = o.mss;
  c.ev_count = o.nevs;
  c.evs = client ? kClientEvs.data() : kServerEvs.data();
  c.nevs = o.nevs;
  c.sndbuf = o.sndbuf;
  c.rcvbuf = o.rcvbuf;
  // A retransmission timer far below the user timeout: a connection that
  // stalls on a clean network is a bug, not a backoff (fuzz_ack's drain).
  c.user_timeout_ms = 10000;
  c.rto_min_us = 2000;
  c.rto_max_us = kRtoMaxUs;
  c.rto_init_us = 20000;
  c.probe_interval_us = 5000;
  c.psn24 = client && o.psn24;
  c.nplanes = o.nplanes;
  for (uint32_t p = 0; p < o.nplanes; p++) {
    c.planes[p].id = static_cast<uint8_t>(p);
    c.planes[p].flags = MRC_PLANE_F_V4;
    c.planes[p].udp_port = 4797;
    c.planes[p].addr4 = 0x0a000000U | (p << 8) | (client ? 1U : 2U);
  }
  c.plane_up = (1U << o.nplanes) - 1;
  if (client) {
    c.peer = c.planes[0];
    c.peer.addr4 = 0x0a000002U;
    c.has_peer = true;
  }
  e.randoms = {client ? kClientToken : kServerToken, client ? o.client_isn : kServerIsn};
}

mrc_core_stats Endpoint::Stats() const {
  mrc_core_stats st{};
  mrc_core_get_stats(core, &st);
  return st;
}

void Endpoint::Destroy() {
  if (core == nullptr) return;
  mrc_core_destroy(core);
  core = nullptr;
  Check(live_allocs == 0 && live_bytes == 0, "the core leaked memory");
}

int Endpoint::Receive(const Bytes& bytes, uint32_t plane, bool ce) {
  mrc_pkt pkt{};
  int reason = mrc_wire_parse(bytes.data(), static_cast<uint32_t>(bytes.size()), &pkt);
  if (reason != MRC_DROP_NONE || core == nullptr) return reason;
  reason = mrc_core_input(core, &pkt, plane, ce);
  AppRead();
  return reason;
}

void Endpoint::AppRead() {
  if (!auto_read || unread == 0 || core == nullptr) return;
  unread = 0;
  mrc_core_rcv_space(core, cfg.rcvbuf);
}

int Endpoint::ReceivePkt(const mrc_pkt& pkt, uint32_t plane, bool ce) {
  scratch.resize(MRC_WIRE_MAX_HDR);
  const uint32_t n = mrc_wire_build(&pkt, scratch.data(), static_cast<uint32_t>(scratch.size()));
  if (n == 0) return -1;
  scratch.resize(n);
  if (pkt.payload_len != 0)
    scratch.insert(scratch.end(), pkt.payload, pkt.payload + pkt.payload_len);
  return Receive(scratch, plane, ce);
}

void Endpoint::CheckInvariants() {
  if (core == nullptr) return;
  const mrc_core_stats st = Stats();
  const enum mrc_core_state state = mrc_core_state(core);
  Check(state >= MRC_CORE_CLOSED && state <= MRC_CORE_ABORTED, "state out of range");
  Check(mrc_core_mem_bytes(core) == live_bytes, "mrc_core_mem_bytes() is not what the core holds");
  Check(st.acked_bytes <= st.tx_data_bytes, "more bytes acknowledged than ever sent");
  Check(st.acked_bytes + st.inflight_bytes <= st.tx_data_bytes,
        "bytes in flight and acknowledged exceed bytes sent");
  Check(st.delivered_bytes <= st.rx_data_bytes, "more bytes delivered than received");
  // The usable planes' windows together: each in [64 B, max_cwnd].
  Check(st.cwnd >= 64 && st.cwnd <= 16U * 4 * 1024 * 1024, "cwnd out of [64 B, 16 x max_cwnd]");
  // rto_max bounds the backoff; the estimate follows the round trip the
  // SACK echoes show, up to the core's ceiling (60 s).
  Check(st.rto_us >= cfg.rto_min_us && st.rto_us <= kRtoCeilUs, "RTO out of its bounds");
  Check(st.evs_good <= mrc_core_ev_count(core), "more GOOD EVs than EVs");
  Check((st.planes_usable & ~((1U << cfg.nplanes) - 1)) == 0, "a plane we lack is usable");
  if (state == MRC_CORE_ABORTED) Check(timer_when == 0, "an aborted core keeps its timer");
  // Counters only grow.
  Check(st.tx_pkts >= last.tx_pkts && st.acked_bytes >= last.acked_bytes &&
            st.delivered_bytes >= last.delivered_bytes && st.rx_data_bytes >= last.rx_data_bytes &&
            st.tx_data_bytes >= last.tx_data_bytes && st.retx_pkts >= last.retx_pkts &&
            st.rx_pkts >= last.rx_pkts,
        "a monotonic counter went down");
  last = st;
}

void World::CreateFailing(const Options& o, uint64_t fail_every) {
  Configure(a, o, true);
  a.fail_every = fail_every;
  const mrc_core_env env = a.Env();
  a.core = mrc_core_create(&a.cfg, &env);
  if (a.core == nullptr) Check(a.live_allocs == 0 && a.live_bytes == 0, "a failed create leaked");
  a.Destroy();
}

bool World::Handshake(const Options& o, bool complete) {
  Configure(a, o, true);
  Configure(b, o, false);
  const mrc_core_env aenv = a.Env();
  a.core = mrc_core_create(&a.cfg, &aenv);
  Check(a.core != nullptr, "client create failed");
  Check(mrc_core_connect(a.core) == 0, "connect failed");
  Check(a.outbox.size() == 1, "connect sent no SYN");
  mrc_pkt syn{};
  const Bytes syn_bytes = a.outbox.front().bytes;
  Check(mrc_wire_parse(syn_bytes.data(), static_cast<uint32_t>(syn_bytes.size()), &syn) ==
            MRC_DROP_NONE,
        "SYN does not parse");
  const mrc_core_env benv = b.Env();
  b.core = mrc_core_create(&b.cfg, &benv);
  Check(b.core != nullptr, "server create failed");
  Check(mrc_core_accept(b.core, &syn, a.outbox.front().plane) == 0, "accept failed");
  Check(b.outbox.size() == 1, "accept sent no SYN_ACK");
  a.outbox.clear();
  a.fail_every = o.fail_every;
  b.fail_every = o.fail_every;
  if (!complete) return mrc_core_state(b.core) == MRC_CORE_ESTABLISHED;
  const Sent synack = b.outbox.front();
  b.outbox.clear();
  Check(a.Receive(synack.bytes, synack.plane, false) == MRC_DROP_NONE, "SYN_ACK refused");
  return mrc_core_state(a.core) == MRC_CORE_ESTABLISHED &&
         mrc_core_state(b.core) == MRC_CORE_ESTABLISHED;
}

mrc_pkt World::ClientSyn(const Options& o) {
  mrc_pkt syn{};
  syn.type = MRC_PKT_SYN;
  syn.flags = o.psn24 ? MRC_F_PSN24 : 0;
  syn.src_token = kClientToken;
  syn.ev = kClientEvs[0];
  syn.syn.isn = o.client_isn;
  syn.syn.rwnd = o.rcvbuf;
  syn.syn.src_port = 40000;
  syn.syn.dst_port = 7000;
  syn.syn.mss = static_cast<uint16_t>(o.mss);
  syn.syn.sock_type = o.sock_type;
  syn.syn.nplanes = static_cast<uint8_t>(o.nplanes);
  syn.syn.ev_count = static_cast<uint16_t>(o.nevs);
  for (uint32_t p = 0; p < o.nplanes; p++) {
    syn.syn.planes[p].id = static_cast<uint8_t>(p);
    syn.syn.planes[p].flags = MRC_PLANE_F_V4;
    syn.syn.planes[p].udp_port = 4797;
    syn.syn.planes[p].addr4 = 0x0a000001U | (p << 8);
  }
  return syn;
}

bool World::Accept(const Options& o) {
  Configure(b, o, false);
  const mrc_core_env benv = b.Env();
  b.core = mrc_core_create(&b.cfg, &benv);
  Check(b.core != nullptr, "server create failed");
  const mrc_pkt syn = ClientSyn(o);
  if (mrc_core_accept(b.core, &syn, 0) != 0) return false;
  b.outbox.clear();
  b.fail_every = o.fail_every;
  return mrc_core_state(b.core) == MRC_CORE_ESTABLISHED;
}

void World::FireDue(Endpoint& e) {
  for (int n = 0; e.core != nullptr && e.timer_when != 0 && e.timer_when <= now; n++) {
    Check(n < kTimerStormFirings, "timer storm: re-armed in the past again and again");
    e.timer_when = 0;
    mrc_core_on_timer(e.core);
    e.AppRead();
  }
}

void World::Advance(uint64_t us) {
  const uint64_t end = now + us;
  for (int firings = 0; firings < kMaxFirings; firings++) {
    uint64_t t = UINT64_MAX;
    for (const Endpoint* e : {&a, &b})
      if (e->core != nullptr && e->timer_when != 0 && e->timer_when < t) t = e->timer_when;
    if (t > end) break;
    if (t > now) now = t;
    FireDue(a);
    FireDue(b);
  }
  // Past kMaxFirings the host was too busy: what is due fires late, once.
  now = end;
  FireDue(a);
  FireDue(b);
}

size_t World::Forward(Endpoint& from, size_t n, uint32_t drop, uint32_t ce) {
  Endpoint& to = Peer(from);
  size_t delivered = 0;
  for (size_t i = 0; i < n && !from.outbox.empty(); i++) {
    // In place: the receiver's answers go to its own outbox.
    const Sent& s = from.outbox.front();
    if (i >= 32 || (drop & (1U << i)) == 0) {
      to.Receive(s.bytes, s.plane, i < 32 && (ce & (1U << i)) != 0);
      delivered++;
    }
    from.outbox.pop_front();
  }
  return delivered;
}

}  // namespace mrc_fuzz

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
