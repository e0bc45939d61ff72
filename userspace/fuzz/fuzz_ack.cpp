// SPDX-License-Identifier: GPL-2.0
// fuzz_ack: the sender's acknowledgment processing (kernel/core/ack.c and
// the send side under it). A real connection, a sending to b, with data in
// flight; the input's records (fuzz_targets.hpp, namespace ack) forge
// SACKs, NACKs, probes and control packets around what a really sent, move
// the clock, forward real packets either way and make application calls.
// After every step: the common core invariants, the sender model (every
// DATA a sends is the application's bytes at the right offset, the same on
// every retransmission, first transmissions in PSN order), b's delivered
// stream is the application's, and a refused packet changed nothing.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "fuzz_harness.hpp"
#include "fuzz_targets.hpp"

extern "C" {
#include "wire.h"
}

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_fuzz {
namespace {

using ack::kRecord;

// Bounds the work of one input, which sets the executions per second: a
// few hundred packets are enough to reach any state the ops can.
constexpr uint32_t kMaxWrite = 16 * 1024;
// Milliseconds of clean network Drain() gives the connection: many
// retransmission timeouts (rto_max 200 ms), a fraction of its user timeout.
constexpr int kDrainRounds = 3000;

// One DATA transmission of a, as a SACK would echo it.
struct DataTx {
  uint32_t psn = 0;
  uint32_t tsval = 0;
  uint32_t ev = 0;
};

struct ProbeTx {
  uint32_t id = 0;
  uint32_t tsval = 0;
  uint32_t ev = 0;
};

// A segment as first transmitted: where its bytes sit in the stream.
struct SegTx {
  uint64_t start = 0;
  uint32_t len = 0;
  uint8_t flags = 0;
};

class AckFuzz {
 public:
  explicit AckFuzz(const Options& o) : opts_(o) {}

  bool Start();
  void Step(uint8_t op, ByteReader& r);
  void CheckAll();
  void Drain();
  std::string Describe() const;

 private:
  uint32_t Mask() const { return mrc_psn_mask(opts_.psn24); }
  uint32_t PsnAt(uint64_t off) const { return (isn_ + static_cast<uint32_t>(off)) & Mask(); }
  uint32_t PsnsSent() const { return static_cast<uint32_t>(segs_.size()); }
  const DataTx& Recent(uint8_t i) const { return recent_.at(i % std::max<size_t>(recent_n_, 1)); }
  uint32_t EvValue(uint32_t idx) const;
  bool IsMsgEnd(uint64_t off) const {
    return std::binary_search(msg_ends_.begin(), msg_ends_.end(), off);
  }

  void OnXmit(const mrc_pkt& pkt);
  void CheckData(const mrc_pkt& pkt);
  int OnDeliver(const uint8_t* data, uint32_t len, uint32_t flags);
  void Write(uint32_t n, uint32_t fail_at = UINT32_MAX);
  void WriteOp(ByteReader& r);
  mrc_pkt Forged(uint8_t type, uint8_t mode) const;
  void Feed(const mrc_pkt& pkt, uint32_t plane, bool ce);
  void Sack(ByteReader& r);
  void Nack(ByteReader& r);
  void Probe(ByteReader& r);
  void ProbeReply(ByteReader& r);
  void Control(ByteReader& r);

  Options opts_;
  World w_;
  uint32_t isn_ = 0;
  uint32_t b_isn_ = 0;
  uint64_t app_bytes_ = 0;          // bytes a's application queued
  uint32_t writing_ = 0;            // bytes of the mrc_core_send() in progress
  std::vector<uint64_t> msg_ends_;  // seqpacket: stream offsets of EOMs
  std::vector<SegTx> segs_;         // by PSN offset, as first sent
  uint64_t first_tx_bytes_ = 0;
  uint64_t retx_pkts_ = 0;
  std::array<DataTx, 32> recent_{};
  size_t recent_n_ = 0, recent_at_ = 0;
  std::array<ProbeTx, 8> probes_{};
  size_t probes_n_ = 0;
  uint64_t b_delivered_ = 0;
  bool closed_ = false;
  bool forged_taken_ = false;  // a believed a packet b never sent
};

uint32_t AckFuzz::EvValue(uint32_t idx) const {
  mrc_core_ev_info info{};
  if (mrc_core_ev_get(w_.a.core, idx % mrc_core_ev_count(w_.a.core), &info) != 0) return 0;
  return info.value;
}

bool AckFuzz::Start() {
  // Seed bit 6: a's create fails part way (and that is all); bit 7: a
  // stays in SYN_SENT, b's SYN_ACK waiting in its outbox.
  if ((opts_.seed & 0x40) != 0) {
    w_.CreateFailing(opts_, 1 + (opts_.seed & 3U));
    return false;
  }
  if (!w_.Handshake(opts_, (opts_.seed & 0x80) == 0)) return false;
  isn_ = opts_.client_isn;
  b_isn_ = 0x00777777U & Mask();
  w_.a.on_xmit = [this](const Sent&, const mrc_pkt& pkt) { OnXmit(pkt); };
  w_.b.on_deliver = [this](const uint8_t* d, uint32_t n, uint32_t f) {
    return w_.b.auto_read ? OnDeliver(d, n, f) : -EAGAIN;
  };
  w_.b.auto_read = true;
  // Initial data: one write (stream) or messages of a seed-chosen size.
  const uint32_t msg = 1 + (opts_.seed * 37U) % 3000;
  const uint32_t initial = std::min(opts_.initial, kMaxWrite);
  for (uint32_t done = 0; done < initial;) {
    const uint32_t n = opts_.sock_type == MRC_SYN_STREAM ? initial - done : msg;
    const uint64_t before = app_bytes_;
    Write(n);
    if (app_bytes_ == before) break;
    done += static_cast<uint32_t>(app_bytes_ - before);
  }
  CheckAll();
  return true;
}

void AckFuzz::Write(uint32_t n, uint32_t fail_at) {
  // Copies the application's bytes; from `fail_at` on it faults (-EFAULT).
  struct Fill {
    uint64_t base;
    uint32_t fail_at;
    static int Run(void* arg, void* dst, uint32_t off, uint32_t len) {
      const auto* f = static_cast<const Fill*>(arg);
      auto* d = static_cast<uint8_t*>(dst);
      if (off + len > f->fail_at) return -EFAULT;
      for (uint32_t done = 0; done < len;) {
        const uint32_t n = std::min<uint32_t>(len - done, 65536);
        std::memcpy(d + done, Pattern(f->base + off + done), n);
        done += n;
      }
      return 0;
    }
  } fill{app_bytes_, fail_at};
  const bool msg = opts_.sock_type == MRC_SYN_SEQPACKET;
  // The core sends from inside the call: the model has the bytes already.
  writing_ = n;
  if (msg) msg_ends_.push_back(app_bytes_ + n);
  const int ret = mrc_core_send(w_.a.core, n, msg ? MRC_F_EOM : 0, Fill::Run, &fill);
  writing_ = 0;
  if (ret <= 0) {
    if (msg) msg_ends_.pop_back();
    Check(first_tx_bytes_ <= app_bytes_, "sent bytes of a write that failed");
    if (ret < 0 && fail_at >= n && mrc_core_state(w_.a.core) == MRC_CORE_ESTABLISHED && !closed_)
      Check(msg && (ret == -EMSGSIZE || ret == -EINVAL), "a write failed for no reason");
    return;
  }
  if (fail_at < n) Check(!msg, "a message whose copy faulted was taken");
  Check(static_cast<uint32_t>(ret) <= n, "send took more than it was given");
  if (msg) Check(static_cast<uint32_t>(ret) == n, "a message was taken in part");
  app_bytes_ += static_cast<uint32_t>(ret);
  Check(first_tx_bytes_ <= app_bytes_, "sent bytes of a write beyond what it took");
}

// A write, maybe asking mrc_core_send_space() first, maybe faulting.
void AckFuzz::WriteOp(ByteReader& r) {
  const uint32_t v = r.U16() % kMaxWrite;
  const uint8_t how = r.U8();
  const uint32_t arg = r.U16();
  const bool stream = opts_.sock_type == MRC_SYN_STREAM;
  uint32_t n = stream ? v + 1 : 1 + v % opts_.sndbuf;
  if ((how & 2) != 0) {
    // What send_space() promises, a send of that size must take whole
    // (unless an allocation fails).
    const uint32_t need = stream ? 1 + arg % n : n;
    const uint32_t space = mrc_core_send_space(w_.a.core, need);
    if (space == 0) return;
    Check(space >= need, "send_space() below the need it was asked for");
    n = stream ? std::min(n, space) : n;
    const uint64_t before = app_bytes_;
    const uint64_t failures = w_.a.alloc_failures;
    Write(n);
    if (w_.a.alloc_failures == failures)
      Check(app_bytes_ - before == n, "send took less than send_space() promised");
    return;
  }
  Write(n, (how & 1) != 0 ? arg : UINT32_MAX);
}

void AckFuzz::OnXmit(const mrc_pkt& pkt) {
  switch (pkt.type) {
    case MRC_PKT_DATA:
      CheckData(pkt);
      break;
    case MRC_PKT_PROBE:
      probes_.at(probes_n_++ % probes_.size()) =
          ProbeTx{pkt.probe.probe_id, pkt.probe.tsval, pkt.ev};
      break;
    case MRC_PKT_FIN:
      Check(closed_, "FIN before the application closed");
      Check(pkt.fin_end_psn == PsnAt(PsnsSent()), "FIN's end_psn is not after the last DATA");
      Check(first_tx_bytes_ == app_bytes_, "FIN with application bytes never sent");
      break;
    default:
      break;
  }
}

// Every DATA: the application's bytes at its offset, retransmissions equal.
void AckFuzz::CheckData(const mrc_pkt& pkt) {
  const enum mrc_core_state st = mrc_core_state(w_.a.core);
  Check(st == MRC_CORE_ESTABLISHED || st == MRC_CORE_CLOSE_WAIT || st == MRC_CORE_FIN_WAIT ||
            st == MRC_CORE_LAST_ACK,
        "DATA sent in a state that sends none");
  const uint32_t off = (pkt.data.psn - isn_) & Mask();
  const uint8_t msg_flags = pkt.flags & (MRC_F_SOM | MRC_F_EOM);
  Check(off <= PsnsSent(), "DATA skipped a PSN never sent");
  Check(pkt.payload_len <= opts_.mss, "DATA larger than the MSS");
  if (off == PsnsSent()) {
    Check((pkt.flags & MRC_F_RETX) == 0, "first transmission flagged RETX");
    segs_.push_back(SegTx{first_tx_bytes_, pkt.payload_len, msg_flags});
    first_tx_bytes_ += pkt.payload_len;
    Check(first_tx_bytes_ <= app_bytes_ + writing_, "sent bytes the application never wrote");
  } else {
    Check((pkt.flags & MRC_F_RETX) != 0, "retransmission not flagged RETX");
    retx_pkts_++;
  }
  const SegTx& seg = segs_.at(off);
  Check(pkt.payload_len == seg.len && msg_flags == seg.flags, "retransmission differs");
  Check(std::memcmp(pkt.payload, Pattern(seg.start), seg.len) == 0,
        "DATA payload is not the app's bytes");
  if (opts_.sock_type == MRC_SYN_STREAM) {
    Check(msg_flags == 0, "stream DATA with SOM/EOM");
  } else {
    const uint64_t end = seg.start + seg.len;
    Check(((seg.flags & MRC_F_SOM) != 0) == (seg.start == 0 || IsMsgEnd(seg.start)),
          "SOM is not at a message start");
    Check(((seg.flags & MRC_F_EOM) != 0) == IsMsgEnd(end), "EOM is not at a message end");
    const auto next = std::upper_bound(msg_ends_.begin(), msg_ends_.end(), seg.start);
    Check(next != msg_ends_.end() && *next >= end, "a segment spans two messages");
  }
  recent_.at(recent_at_) = DataTx{pkt.data.psn, pkt.data.tsval, pkt.ev};
  recent_at_ = (recent_at_ + 1) % recent_.size();
  recent_n_ = std::min(recent_n_ + 1, recent_.size());
}

// b delivers exactly a's application bytes, messages intact.
int AckFuzz::OnDeliver(const uint8_t* data, uint32_t len, uint32_t flags) {
  Check(len <= 65536 && std::memcmp(data, Pattern(b_delivered_), len) == 0,
        "b delivered bytes a never wrote there");
  if (opts_.sock_type == MRC_SYN_SEQPACKET) {
    Check(((flags & MRC_F_SOM) != 0) == (b_delivered_ == 0 || IsMsgEnd(b_delivered_)),
          "b delivered SOM off a message start");
    Check(((flags & MRC_F_EOM) != 0) == IsMsgEnd(b_delivered_ + len),
          "b delivered EOM off a message end");
  } else {
    Check(flags == 0, "stream delivery with flags");
  }
  b_delivered_ += len;
  Check(b_delivered_ <= app_bytes_, "b delivered more than a wrote");
  return 0;
}

// A packet "from b" to a, spoiled as `mode` says.
mrc_pkt AckFuzz::Forged(uint8_t type, uint8_t mode) const {
  mrc_pkt p{};
  p.type = type;
  p.flags = static_cast<uint8_t>(((mode & 1) != 0) != opts_.psn24 ? MRC_F_PSN24 : 0);
  p.src_token = mrc_core_peer_token(w_.a.core) ^ ((mode & 2) != 0 ? 0x100U : 0);
  p.dst_token = mrc_core_token(w_.a.core) ^ ((mode & 4) != 0 ? 0x100U : 0);
  p.ev = EvValue(0);
  return p;
}

// Give a the packet; a refused one must leave a's state as it was.
void AckFuzz::Feed(const mrc_pkt& pkt, uint32_t plane, bool ce) {
  const mrc_core_stats before = w_.a.Stats();
  const enum mrc_core_state state = mrc_core_state(w_.a.core);
  const int reason = w_.a.ReceivePkt(pkt, plane, ce);
  if (reason == MRC_DROP_NONE) forged_taken_ = true;
  if (reason <= 0 || pkt.type == MRC_PKT_DATA || pkt.type == MRC_PKT_SYN) return;
  const mrc_core_stats after = w_.a.Stats();
  Check(after.tx_pkts == before.tx_pkts && after.acked_bytes == before.acked_bytes &&
            after.inflight_bytes == before.inflight_bytes && after.cwnd == before.cwnd &&
            after.peer_rwnd == before.peer_rwnd && after.srtt_us == before.srtt_us &&
            after.evs_good == before.evs_good && after.planes_usable == before.planes_usable &&
            mrc_core_state(w_.a.core) == state,
        "a refused packet changed the connection");
}

void AckFuzz::Sack(ByteReader& r) {
  const uint8_t mode = r.U8();
  const uint8_t plane_ce = r.U8();
  const uint16_t cum_sel = r.U16();
  const DataTx& tx = Recent(r.U8());
  const uint8_t delta = r.U8();
  const uint8_t b7 = r.U8();
  const uint32_t bitmap_lo = r.U32();
  uint64_t bitmap = bitmap_lo | static_cast<uint64_t>(r.U16()) << 32;
  bitmap <<= r.U8() % 17;
  const uint8_t rw = r.U8();

  mrc_pkt p = Forged(MRC_PKT_SACK, mode);
  mrc_pkt_sack& s = p.sack;
  const uint32_t mask = Mask();
  if ((cum_sel & 0x8000U) == 0)
    s.cum_psn = PsnAt(cum_sel % (PsnsSent() + 3));
  else
    s.cum_psn = (isn_ - (cum_sel & 0x7fffU)) & mask;
  switch ((mode >> 3) & 3) {
    case 0:
      s.trig_psn = tx.psn;
      break;
    case 1:
      s.trig_psn = (s.cum_psn + mask) & mask;
      break;
    case 2:
      s.trig_psn = (s.cum_psn + delta % 8) & mask;
      break;
    default:
      s.trig_psn = (tx.psn + 64) & mask;
      break;
  }
  const auto now = static_cast<uint32_t>(w_.now);
  switch ((mode >> 5) & 3) {
    case 0:
      s.ts_echo = tx.tsval;
      break;
    case 1:
      s.ts_echo = 0;
      break;
    case 2:
      s.ts_echo = now - delta * 16U;
      break;
    default:
      s.ts_echo = now + delta;
      break;
  }
  s.echo_ev = (mode & 0x80) != 0 ? EvValue(b7 & 15U) : tx.ev;
  s.cc_flags = (b7 & 0x10) != 0 ? MRC_SACK_CE : 0;
  static constexpr std::array<int32_t, 8> kBaseMove = {0, 0, -64, 64, 128, -128, 192, 4096};
  s.sack_base =
      static_cast<uint32_t>(static_cast<int64_t>(s.cum_psn & ~63U) + kBaseMove.at(b7 >> 5)) & mask &
      ~63U;
  s.bitmap = bitmap;
  const uint32_t mss = opts_.mss;
  const std::array<uint32_t, 8> rwnds = {1U << 20, 0, 1, mss, 65536, ~0U, ((rw >> 3) & 15U) * 1024,
                                         16 * mss};
  s.rwnd = rwnds.at(rw & 7U);
  s.rcv_bytes = static_cast<uint32_t>(b_delivered_);
  s.ce_count = static_cast<uint8_t>(plane_ce >> 4);
  s.plane_up = (rw & 0x80) != 0 ? static_cast<uint16_t>(plane_ce >> 4)
                                : static_cast<uint16_t>((1U << opts_.nplanes) - 1);
  Feed(p, plane_ce & 15U, false);
}

void AckFuzz::Nack(ByteReader& r) {
  const uint8_t mode = r.U8();
  const uint8_t plane = r.U8();
  const uint16_t psn_off = r.U16();
  const DataTx& tx = Recent(r.U8());
  const uint16_t cum_off = r.U16();
  const uint8_t ev = r.U8();

  mrc_pkt p = Forged(MRC_PKT_NACK, mode);
  p.nack.psn = (mode & 8) != 0 ? tx.psn : PsnAt(psn_off % (PsnsSent() + 2));
  p.nack.cum_psn = PsnAt(cum_off % (PsnsSent() + 2));
  p.nack.echo_ev = ev == 0 ? tx.ev : EvValue(ev & 15U);
  const uint32_t n = mode >> 4;
  p.nack.reason = static_cast<uint8_t>(n == 15 ? 0 : 1 + n % 7);
  Feed(p, plane & 15U, false);
}

void AckFuzz::Probe(ByteReader& r) {
  const uint8_t mode = r.U8();
  const uint8_t plane = r.U8();
  mrc_pkt p = Forged(MRC_PKT_PROBE, mode);
  p.probe.probe_id = r.U32();
  p.probe.plane_up = r.U16();
  p.probe.tsval = r.U32();
  p.probe.plane = plane & 15U;
  Feed(p, plane & 15U, false);
}

void AckFuzz::ProbeReply(ByteReader& r) {
  const uint8_t mode = r.U8();
  const uint8_t plane = r.U8();
  const ProbeTx& pr = probes_.at(r.U8() % std::max<size_t>(std::min(probes_n_, probes_.size()), 1));
  const uint32_t raw_id = r.U32();
  const uint16_t plane_up = r.U16();
  const uint8_t delta = r.U8();
  mrc_pkt p = Forged(MRC_PKT_PROBE_REPLY, mode);
  p.probe.probe_id = (mode & 8) != 0 ? raw_id : pr.id;
  p.ev = (mode & 0x10) != 0 ? pr.ev + 1 : pr.ev;
  p.probe.tsval = pr.tsval - delta * 16U;
  p.probe.plane = plane & 15U;
  p.probe.plane_up =
      (mode & 0x80) != 0 ? plane_up : static_cast<uint16_t>((1U << opts_.nplanes) - 1);
  Feed(p, plane & 15U, false);
}

void AckFuzz::Control(ByteReader& r) {
  static constexpr std::array<uint8_t, 5> kTypes = {MRC_PKT_FIN, MRC_PKT_RST, MRC_PKT_SYN,
                                                    MRC_PKT_SYN_ACK, MRC_PKT_DATA};
  const uint8_t which = r.U8() % (kTypes.size() + 2);
  if (which == kTypes.size()) {
    mrc_core_abort(w_.a.core, r.U8());
    return;
  }
  if (which == kTypes.size() + 1) {
    mrc_core_close(w_.b.core);
    return;
  }
  const uint8_t kind = kTypes.at(which);
  const uint16_t off = r.U16();
  const uint16_t len = r.U16();
  const uint8_t flags = r.U8();
  const uint8_t mode = r.U8();
  const uint8_t plane = r.U8();
  mrc_pkt p = Forged(kind, mode);
  Bytes payload;
  switch (kind) {
    case MRC_PKT_FIN:
      p.fin_end_psn = (b_isn_ + off) & Mask();
      break;
    case MRC_PKT_RST:
      p.rst_reason = ECONNRESET;
      break;
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      p.syn = World::ClientSyn(opts_).syn;
      p.syn.isn = b_isn_;
      if (kind == MRC_PKT_SYN) p.dst_token = 0;
      break;
    default:
      payload.assign(len % 2000U + 1, 0x5a);
      p.flags |= static_cast<uint8_t>(flags & ~MRC_F_PSN24);
      p.data.psn = (b_isn_ + off) & Mask();
      p.data.tsval = static_cast<uint32_t>(w_.now);
      p.data.plane = plane & 15U;
      p.payload = payload.data();
      p.payload_len = static_cast<uint32_t>(payload.size());
      break;
  }
  Feed(p, plane & 15U, false);
}

void AckFuzz::Step(uint8_t op, ByteReader& r) {
  Endpoint& a = w_.a;
  switch (op % ack::kOpCount) {
    case ack::kSack:
      Sack(r);
      break;
    case ack::kNack:
      Nack(r);
      break;
    case ack::kProbe:
      Probe(r);
      break;
    case ack::kProbeReply:
      ProbeReply(r);
      break;
    case ack::kAdvance: {
      const uint64_t us = r.U16();
      w_.Advance(us << (r.U8() % 14));
      break;
    }
    case ack::kToPeer:
    case ack::kFromPeer: {
      const size_t n = 1 + r.U8() % 16U;
      const uint32_t drop = r.U32();
      w_.Forward(op % ack::kOpCount == ack::kToPeer ? a : w_.b, n, drop, r.U8());
      break;
    }
    case ack::kWrite:
      WriteOp(r);
      break;
    case ack::kClose:
      closed_ = true;
      mrc_core_close(a.core);
      break;
    case ack::kRcvSpace: {
      const uint32_t space = r.U32();
      const uint8_t how = r.U8();
      if ((how & 1) != 0) w_.b.auto_read = (how & 2) == 0;
      mrc_core_rcv_space((how & 1) != 0 ? w_.b.core : a.core, space);
      break;
    }
    case ack::kPlane: {
      const uint8_t plane = r.U8() % 16U;
      const uint8_t how = r.U8();
      mrc_core_plane_update((how & 2) != 0 ? w_.b.core : a.core, plane, (how & 1) != 0);
      break;
    }
    case ack::kEvAdmin: {
      const uint8_t idx = r.U8();
      const uint8_t state = r.U8();
      if ((r.U8() & 1) != 0)
        mrc_core_ev_probe(a.core, idx);
      else
        mrc_core_ev_set_state(a.core, idx, state);
      break;
    }
    case ack::kControl:
      Control(r);
      break;
    case ack::kLose:
      for (uint8_t n = r.U8(); n > 0 && !a.outbox.empty(); n--) a.outbox.pop_front();
      break;
    case ack::kPump: {
      const uint32_t rounds = 1 + r.U8() % 8U;
      const uint64_t us = r.U16() + 1U;
      const uint8_t drop_ab = r.U8();
      const uint8_t drop_ba = r.U8();
      for (uint32_t i = 0; i < rounds; i++) {
        w_.Forward(a, 16, drop_ab);
        w_.Advance(us);
        w_.Forward(w_.b, 16, drop_ba);
      }
      break;
    }
    default:
      break;
  }
}

// Liveness: unless a was told lies (a forged SACK may acknowledge what b
// never got), a clean network from here on (planes up, EVs in rotation,
// b's application reading, nothing lost) delivers and acknowledges every
// byte a's application wrote long before the user timeout.
void AckFuzz::Drain() {
  Endpoint& a = w_.a;
  Endpoint& b = w_.b;
  if (forged_taken_ || a.core == nullptr || mrc_core_state(a.core) == MRC_CORE_ABORTED ||
      mrc_core_state(b.core) == MRC_CORE_ABORTED)
    return;
  for (uint32_t p = 0; p < opts_.nplanes; p++) {
    mrc_core_plane_update(a.core, p, true);
    mrc_core_plane_update(b.core, p, true);
  }
  for (Endpoint* e : {&a, &b})
    for (uint32_t i = 0; i < mrc_core_ev_count(e->core); i++)
      mrc_core_ev_set_state(e->core, i, MRC_EV_GOOD);
  b.auto_read = true;
  mrc_core_rcv_space(b.core, opts_.rcvbuf);
  auto done = [&] { return b_delivered_ == app_bytes_ && a.Stats().acked_bytes == app_bytes_; };
  const uint64_t retx_before = a.Stats().retx_pkts;
  for (int round = 0; round < kDrainRounds && !done(); round++) {
    w_.Forward(a, Outbox::kMax, 0);
    w_.Advance(1000);
    w_.Forward(b, Outbox::kMax, 0);
    CheckAll();
  }
  if (done()) {
    // Nothing is lost now, but a PSN may still be resent: for a loss or a
    // plane lost before, once refused for the PSN window, and once
    // spuriously when the drain's millisecond round trips dwarf the RTT
    // the records let a measure (RACK calls the rest lost). Not again and
    // again: that is a storm.
    Check(a.Stats().retx_pkts - retx_before <= 4ULL * PsnsSent() + 64,
          "a retransmission storm on a clean network");
    return;
  }
  // Its user timeout may have run out during the drain: the stall began
  // before, when the records lost everything for seconds. Inconclusive.
  if (mrc_core_state(a.core) == MRC_CORE_ABORTED || mrc_core_state(b.core) == MRC_CORE_ABORTED)
    return;
  Fail("data undelivered or unacknowledged after seconds of a clean network:" + Describe());
}

// The state a stalled drain leaves, for its failure message.
std::string AckFuzz::Describe() const {
  const mrc_core_stats sa = w_.a.Stats();
  const mrc_core_stats sb = w_.b.Stats();
  std::string d;
  auto put = [&d](const char* name, uint64_t v) {
    d += std::string(" ") + name + "=" + std::to_string(v);
  };
  put("written", app_bytes_);
  put("a.sent", sa.tx_data_bytes);
  put("a.acked", sa.acked_bytes);
  put("a.inflight", sa.inflight_bytes);
  put("a.cwnd", sa.cwnd);
  put("a.peer_rwnd", sa.peer_rwnd);
  put("a.retx", sa.retx_pkts);
  put("a.rto", sa.rto_count);
  put("a.evs_good", sa.evs_good);
  put("a.planes", sa.planes_usable);
  put("b.received", sb.rx_data_bytes);
  put("b.delivered", b_delivered_);
  put("b.refused_window", sb.drops[MRC_DROP_PSN_WINDOW]);
  put("b.refused_buffer", sb.drops[MRC_DROP_NO_BUFFER]);
  put("b.refused_state", sb.drops[MRC_DROP_STATE]);
  return d;
}

void AckFuzz::CheckAll() {
  w_.a.CheckInvariants();
  w_.b.CheckInvariants();
  const mrc_core_stats st = w_.a.Stats();
  Check(st.tx_data_bytes == first_tx_bytes_, "tx_data_bytes is not what went out first");
  Check(st.retx_pkts == retx_pkts_, "retx_pkts is not the retransmissions that went out");
  Check(st.acked_bytes <= first_tx_bytes_, "acked bytes never sent");
}

}  // namespace

int FuzzAck(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  const Options opts = Options::Decode(in);
  AckFuzz f(opts);
  if (!f.Start()) return 0;
  for (size_t step = 0; step < ack::kMaxRecords && !in.Empty(); step++) {
    ByteReader rec = in.Take(kRecord);
    const uint8_t op = rec.U8();
    f.Step(op, rec);
    f.CheckAll();
  }
  f.Drain();
  return 0;
}

}  // namespace mrc_fuzz

#ifdef MRC_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mrc_fuzz::FuzzAck(data, size);
}
#endif

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
