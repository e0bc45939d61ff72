// SPDX-License-Identifier: GPL-2.0
// The fake environment and simulated network of harness.hpp.
#include "harness.hpp"

extern "C" {
#include "wire.h"
}

// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_test {
namespace {

Endpoint* Ep(void* ctx) { return static_cast<Endpoint*>(ctx); }

uint64_t EnvNow(void* ctx) {
  Ep(ctx)->clock_reads++;
  return Ep(ctx)->net()->now;
}

void EnvTimerArm(void* ctx, uint64_t when) { Ep(ctx)->timer_when = when; }

// A payload sent by reference must lie in a chunk some segment holds.
void CheckPayloadRef(Endpoint* e, const void* payload, uint32_t len, void* ref) {
  auto it = e->chunks.find(ref);
  ASSERT_NE(it, e->chunks.end()) << "xmit of a buffer the core does not hold";
  const Endpoint::Chunk& c = *it->second;
  EXPECT_GT(c.refs, 0);
  const auto* p = static_cast<const uint8_t*>(payload);
  EXPECT_TRUE(p >= c.data.data() && p + len <= c.data.data() + c.data.size())
      << "payload outside its buffer";
  e->data_tx_by_ref++;
}

int EnvXmit(void* ctx, uint32_t plane, uint32_t ev, const void* hdr, uint32_t hdr_len,
            const void* payload, uint32_t payload_len, void* payload_ref) {
  Endpoint* e = Ep(ctx);
  if (payload_ref != nullptr) CheckPayloadRef(e, payload, payload_len, payload_ref);
  const bool data = (static_cast<const uint8_t*>(hdr)[0] & 0xf) == MRC_PKT_DATA;
  if (e->batch) {
    if (!e->held.empty() && (!data || e->held.back().plane != plane || e->held.back().ev != ev))
      e->FlushHeld();
    if (data) {
      const auto* h = static_cast<const uint8_t*>(hdr);
      const auto* p = static_cast<const uint8_t*>(payload);
      e->held.push_back({plane, ev, Bytes(h, h + hdr_len), Bytes(p, p + payload_len)});
      return 0;
    }
  }
  e->net()->Xmit(e->id(), plane, ev, hdr, hdr_len, payload, payload_len);
  return 0;
}

void EnvFlush(void* ctx) {
  Endpoint* e = Ep(ctx);
  e->flushes++;
  e->FlushHeld();
}

bool EnvTxBusy(void* ctx, uint32_t plane) {
  Endpoint* e = Ep(ctx);
  const bool busy = (e->busy_planes & (1U << plane)) != 0;
  e->busy_answers += busy ? 1 : 0;
  return busy;
}

int EnvDeliver(void* ctx, const void* data, uint32_t len, uint32_t flags, void* ref) {
  Endpoint* e = Ep(ctx);
  if (e->unread + len > e->app_cap) {
    e->refused++;
    return -EAGAIN;
  }
  auto held = e->rx_held.end();
  if (ref != nullptr) {
    held = e->rx_held.find(ref);
    EXPECT_EQ(data, nullptr);
    if (held == e->rx_held.end()) {
      ADD_FAILURE() << "deliver() of a handle the core was never given";
      return -EINVAL;
    }
    EXPECT_EQ(held->second->size(), len);
    data = held->second->data();
  }
  const auto* p = static_cast<const uint8_t*>(data);
  e->unread += len;
  if (e->cfg.sock_type == MRC_SYN_SEQPACKET) {
    e->partial.insert(e->partial.end(), p, p + len);
    if ((flags & MRC_F_EOM) != 0) {
      e->messages.push_back(std::move(e->partial));
      e->partial.clear();
    }
  }
  e->rx.insert(e->rx.end(), p, p + len);
  if (held != e->rx_held.end()) e->rx_held.erase(held);  // ours again
  return 0;
}

void* EnvRxTake(void* ctx, const mrc_pkt* pkt) {
  Endpoint* e = Ep(ctx);
  EXPECT_NE(e->rx_pending, nullptr) << "rx_take() twice, or of no packet";
  if (e->rx_pending == nullptr) return nullptr;
  EXPECT_EQ(pkt->buf, e->rx_pending.get());
  EXPECT_EQ(pkt->payload_len, e->rx_pending->size());
  if (e->rx_take_fail_every != 0 && ++e->rx_take_calls % e->rx_take_fail_every == 0) {
    e->rx_take_failed++;
    return nullptr;  // no memory for the handle: the core refuses the packet
  }
  void* ref = e->rx_pending.get();
  e->rx_held[ref] = std::move(e->rx_pending);
  e->rx_taken++;
  return ref;
}

void EnvRxFree(void* ctx, void* ref) {
  Endpoint* e = Ep(ctx);
  EXPECT_EQ(e->rx_held.erase(ref), 1U) << "rx_free() of a handle not held";
  e->rx_freed++;
}

void EnvBufGet(void* ctx, void* ref) {
  Endpoint* e = Ep(ctx);
  auto it = e->chunks.find(ref);
  ASSERT_NE(it, e->chunks.end()) << "buf_get() of an unknown buffer";
  EXPECT_GT(it->second->refs, 0) << "buf_get() of a buffer nobody holds";
  it->second->refs++;
}

void EnvBufPut(void* ctx, void* ref) {
  Endpoint* e = Ep(ctx);
  auto it = e->chunks.find(ref);
  ASSERT_NE(it, e->chunks.end()) << "buf_put() of an unknown buffer";
  EXPECT_GT(it->second->refs, 0) << "buf_put() once too often";
  if (--it->second->refs == 0) e->chunks.erase(it);
}

void EnvNotify(void* ctx, mrc_core_note note, uint32_t arg) {
  Endpoint* e = Ep(ctx);
  e->notes.emplace_back(note, arg);
  switch (note) {
    case MRC_NOTE_ESTABLISHED:
      e->established = true;
      break;
    case MRC_NOTE_PEER_FIN:
      e->peer_fin = true;
      break;
    case MRC_NOTE_DONE:
      e->done = true;
      break;
    case MRC_NOTE_ERROR:
      e->error = static_cast<int>(arg);
      break;
    default:
      break;
  }
}

void EnvTrace(void* ctx, mrc_core_trace point, const mrc_core_trace_info* /*info*/) {
  Ep(ctx)->traces.push_back(point);
}

void* EnvAlloc(void* ctx, size_t size) {
  Endpoint* e = Ep(ctx);
  e->alloc_calls++;
  EXPECT_LE(size, static_cast<size_t>(MRC_CORE_MAX_ALLOC));
  if ((e->alloc_fail_every != 0 && e->alloc_calls % e->alloc_fail_every == 0) ||
      (e->alloc_fail_if && e->alloc_fail_if(size))) {
    e->alloc_failures++;
    return nullptr;
  }
  void* p = std::malloc(size);  // NOLINT(cppcoreguidelines-no-malloc): C allocator of the core
  if (p != nullptr) {
    e->live_allocs++;
    e->live_bytes += size;
    e->alloc_sizes[p] = size;
  }
  return p;
}

void EnvFree(void* ctx, void* ptr) {
  if (ptr == nullptr) return;
  Endpoint* e = Ep(ctx);
  auto it = e->alloc_sizes.find(ptr);
  EXPECT_NE(it, e->alloc_sizes.end()) << "free of a pointer never allocated";
  if (it != e->alloc_sizes.end()) {
    e->live_bytes -= it->second;
    e->alloc_sizes.erase(it);
  }
  e->live_allocs--;
  std::free(ptr);  // NOLINT(cppcoreguidelines-no-malloc)
}

uint32_t EnvRandom(void* ctx) {
  Endpoint* e = Ep(ctx);
  if (!e->scripted_random.empty()) {
    const uint32_t v = e->scripted_random.front();
    e->scripted_random.pop_front();
    return v;
  }
  return static_cast<uint32_t>(e->rng());
}

int FillPattern(void* arg, void* dst, uint32_t off, uint32_t len) {
  const auto* e = static_cast<const Endpoint*>(arg);
  auto* d = static_cast<uint8_t*>(dst);
  for (uint32_t i = 0; i < len; i++) d[i] = PatternByte(e->seed, e->sent + off + i);
  return 0;
}

}  // namespace

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
    .rx_take = EnvRxTake,
    .rx_free = EnvRxFree,
    .buf_get = EnvBufGet,
    .buf_put = EnvBufPut,
    .flush = EnvFlush,
    .tx_busy = EnvTxBusy,
    .scratch = nullptr,  // a thread's own (core.c)
    .core_alloc = nullptr,
    .core_free = nullptr,
};

void Endpoint::FlushHeld() {
  if (held.size() > 1) batched += held.size();
  if (!held.empty()) batch_sizes.push_back(held.size());
  for (const Held& h : held)
    net_->Xmit(id_, h.plane, h.ev, h.hdr.data(), static_cast<uint32_t>(h.hdr.size()),
               h.payload.data(), static_cast<uint32_t>(h.payload.size()));
  held.clear();
}

int Endpoint::SendByRef(size_t n, uint32_t flags) {
  const bool message = (flags & MRC_F_EOM) != 0;
  if (chunk == nullptr || chunk_off == chunk->data.size() ||
      (message && chunk->data.size() - chunk_off < n)) {
    if (chunk != nullptr) EnvBufPut(this, chunk);  // the app lets go
    auto c = std::make_unique<Chunk>();
    c->data.resize(std::max(chunk_size, message ? n : 0));
    c->refs = 1;
    chunk = c.get();
    chunk_off = 0;
    chunks[chunk] = std::move(c);
  }
  n = std::min(n, chunk->data.size() - chunk_off);
  for (size_t i = 0; i < n; i++) chunk->data[chunk_off + i] = PatternByte(seed, sent + i);
  const mrc_core_buf buf{chunk->data.data() + chunk_off, static_cast<uint32_t>(n), chunk};
  const uint64_t before = clock_reads;
  const int r = mrc_core_send_buf(core, &buf, flags);
  EndCall(before);
  if (r > 0) chunk_off += static_cast<size_t>(r);
  return r;
}

void Endpoint::ExpectNoHandles() {
  if (chunk != nullptr) EnvBufPut(this, chunk);
  chunk = nullptr;
  EXPECT_TRUE(chunks.empty()) << chunks.size() << " send buffers still held after destroy";
  EXPECT_TRUE(rx_held.empty()) << rx_held.size() << " received packets still held after destroy";
}

void Endpoint::Pump() {
  if (core == nullptr || closed) return;
  const auto st = mrc_core_state(core);
  const bool early = st == MRC_CORE_SYN_SENT && cfg.early_data != 0;
  if (st != MRC_CORE_ESTABLISHED && st != MRC_CORE_CLOSE_WAIT && !early) return;
  while (sent < to_send) {
    size_t want = to_send - sent;
    uint32_t flags = 0;
    if (msg_size != 0) {
      want = std::min(want, msg_size);
      flags = MRC_F_EOM;
    } else {
      want = std::min(want, write_size);
    }
    const uint64_t before = clock_reads;
    const int n = zero_copy
                      ? SendByRef(want, flags)
                      : mrc_core_send(core, static_cast<uint32_t>(want), flags, FillPattern, this);
    EndCall(before);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  if (sent == to_send && close_when_sent && !closed) {
    closed = true;
    mrc_core_close(core);
  }
}

void Net::Enqueue(int to, uint32_t plane, bool ce, Bytes bytes, uint64_t delay) {
  queue_.emplace(std::make_pair(now + delay, seq_++), Flight{to, plane, ce, std::move(bytes)});
}

void Net::Xmit(int from, uint32_t plane, uint32_t ev, const void* hdr, uint32_t hdr_len,
               const void* payload, uint32_t payload_len) {
  Endpoint& src = from == 0 ? a : b;
  Bytes bytes(static_cast<const uint8_t*>(hdr), static_cast<const uint8_t*>(hdr) + hdr_len);
  if (payload_len != 0) {
    const auto* p = static_cast<const uint8_t*>(payload);
    bytes.insert(bytes.end(), p, p + payload_len);
  }
  mrc_pkt pkt{};
  EXPECT_EQ(mrc_wire_parse(bytes.data(), static_cast<uint32_t>(bytes.size()), &pkt), MRC_DROP_NONE)
      << "core built a packet its peer cannot parse";
  EXPECT_EQ(pkt.ev, ev);
  EXPECT_LT(plane, static_cast<uint32_t>(MRC_WIRE_MAX_PLANES));
  if (pkt.type == MRC_PKT_DATA) {
    EXPECT_EQ(pkt.data.plane, plane);
    if ((pkt.flags & MRC_F_RETX) == 0) src.data_first_tx_evs.push_back(ev);
    src.data_tx_by_plane[plane]++;
    src.data_tx_by_ev[ev]++;
    auto it = src.data_tx_after_mark.find(plane);
    if (it != src.data_tx_after_mark.end()) it->second++;
  }
  const PlaneCfg& pc = planes.at(plane);
  if (!pc.up || pc.blackhole_evs.contains(ev) || (filter && filter(from, plane, pkt)) ||
      (pc.loss > 0 && Uniform() < pc.loss)) {
    dropped++;
    return;
  }
  const bool ce = pkt.type == MRC_PKT_DATA && pc.ce > 0 && Uniform() < pc.ce;
  uint64_t queued = 0;  // serialisation behind earlier packets
  if (pc.rate != 0) {
    uint64_t& busy = busy_until_.at(static_cast<size_t>(from)).at(plane);
    busy = std::max(busy, now) + (bytes.size() + pc.rate - 1) / pc.rate;
    queued = busy - now;
  }
  auto delay = [&] {
    uint64_t d = pc.delay_us + queued;
    if (pc.jitter_us != 0) d += rng_() % pc.jitter_us;
    return d;
  };
  if (pc.dup > 0 && Uniform() < pc.dup) {
    duplicated++;
    Enqueue(1 - from, plane, ce, bytes, delay());
  }
  Enqueue(1 - from, plane, ce, std::move(bytes), delay());
}

void Net::Deliver(const Flight& f) {
  Endpoint& dst = f.to == 0 ? a : b;
  mrc_pkt pkt{};
  const int r = mrc_wire_parse(f.bytes.data(), static_cast<uint32_t>(f.bytes.size()), &pkt);
  ASSERT_EQ(r, MRC_DROP_NONE);
  if (!planes.at(f.plane).up) return;  // died while in flight
  delivered++;
  if (pkt.type == MRC_PKT_SYN && f.to == 1) {
    if (server_silent) return;
    if (!server_listening) {
      // What a host with no listener answers: RST (ECONNREFUSED).
      mrc_pkt rst{};
      rst.type = MRC_PKT_RST;
      rst.flags = pkt.flags & MRC_F_PSN24;
      rst.dst_token = pkt.src_token;
      rst.src_token = 0x5eed;
      rst.ev = pkt.ev;
      rst.rst_reason = ECONNREFUSED;
      std::array<uint8_t, 64> buf{};
      const uint32_t n = mrc_wire_build(&rst, buf.data(), static_cast<uint32_t>(buf.size()));
      ASSERT_NE(n, 0U);
      Enqueue(0, f.plane, false, Bytes(buf.begin(), buf.begin() + n), planes.at(f.plane).delay_us);
      return;
    }
    if (dst.core == nullptr) {
      dst.cfg.token = server_takes_token ? pkt.dst_token : 0;
      dst.core = mrc_core_create(&dst.cfg, &envs_[1]);
      ASSERT_NE(dst.core, nullptr);
      ASSERT_EQ(mrc_core_accept(dst.core, &pkt, f.plane), 0);
      return;
    }
  }
  if (dst.core == nullptr || (pkt.dst_token != 0 && pkt.dst_token != mrc_core_token(dst.core))) {
    ResetUnknown(f, pkt);
    return;
  }
  if (dst.zero_copy && pkt.type == MRC_PKT_DATA) {
    // The packet as a handle; no pointer to its bytes, so a core that
    // copied instead of taking it would fail.
    dst.rx_pending = std::make_unique<Bytes>(pkt.payload, pkt.payload + pkt.payload_len);
    pkt.buf = dst.rx_pending.get();
    pkt.payload = nullptr;
  }
  const uint64_t before = dst.clock_reads;
  const int reason = mrc_core_input(dst.core, &pkt, f.plane, f.ce);
  dst.EndCall(before);
  dst.rx_pending.reset();  // not taken: the receiver frees it
  dst.ExpectNothingHeld();
  if (reason != MRC_DROP_NONE) drops_by_reason[reason]++;
}

// `first` and every packet due for the same endpoint at the same time.
// What mrc.ko answers to DATA for a token it has no connection for
// (mrc_demux_reset()): an RST with the tokens swapped.
void Net::ResetUnknown(const Flight& f, const mrc_pkt& pkt) {
  if (pkt.type != MRC_PKT_DATA) return;
  std::array<uint8_t, 64> buf{};
  const uint32_t n = mrc_wire_build_reset(&pkt, buf.data(), static_cast<uint32_t>(buf.size()));
  ASSERT_NE(n, 0U);
  Enqueue(1 - f.to, f.plane, false, Bytes(buf.begin(), buf.begin() + n),
          planes.at(f.plane).delay_us);
}

void Net::DeliverBatch(const Flight& first, uint64_t at) {
  Endpoint& dst = first.to == 0 ? a : b;
  mrc_core* core = dst.core;
  const uint64_t before = dst.clock_reads;
  size_t n = 1;
  mrc_core_input_begin(core);
  Deliver(first);
  while (!queue_.empty() && queue_.begin()->first.first == at &&
         queue_.begin()->second.to == first.to) {
    const Flight f = std::move(queue_.begin()->second);
    queue_.erase(queue_.begin());
    Deliver(f);
    n++;
  }
  mrc_core_input_end(core);
  dst.EndCall(before);
  dst.ExpectNothingHeld();
  rx_batch_sizes.push_back(n);
}

bool Net::Step(uint64_t until) {
  uint64_t t = UINT64_MAX;
  int which = -1;  // 0/1: timer of a/b, 2: packet
  if (!queue_.empty()) {
    t = queue_.begin()->first.first;
    which = 2;
  }
  for (Endpoint* e : {&a, &b}) {
    if (e->core != nullptr && e->timer_when != 0 && e->timer_when < t) {
      t = e->timer_when;
      which = e->id();
    }
  }
  if (which < 0 || t > until) return false;
  if (t > now) now = t;
  if (which == 2) {
    const Flight f = std::move(queue_.begin()->second);
    queue_.erase(queue_.begin());
    if (rx_batch && (f.to == 0 ? a : b).core != nullptr)
      DeliverBatch(f, t);
    else
      Deliver(f);
  } else {
    Endpoint& e = which == 0 ? a : b;
    e.timer_when = 0;
    const uint64_t before = e.clock_reads;
    mrc_core_on_timer(e.core);
    e.EndCall(before);
    e.ExpectNothingHeld();
  }
  return true;
}

bool Net::RunUntil(const std::function<bool()>& done, uint64_t until_us) {
  auto app = [&] {
    for (Endpoint* e : {&a, &b}) {
      if (e->auto_read && e->unread != 0) e->Read();
      e->Pump();
      e->ExpectNothingHeld();
    }
  };
  app();
  while (!done()) {
    if (!Step(until_us)) {
      if (until_us > now) now = until_us;
      return done();
    }
    app();
  }
  return true;
}

}  // namespace mrc_test

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
