// SPDX-License-Identifier: GPL-2.0
// fuzz_reasm: the receive side (kernel/core/recv.c). b is a real server;
// the input's records (fuzz_targets.hpp, namespace reasm) are what its
// client sends: DATA near the window, ahead of it, behind it, duplicated,
// from an impostor with other lengths or flags, a FIN, with clock advances
// and an application that reads, stops or reads in part, stream and
// seqpacket. The model holds every segment b accepted; after each call:
//  - b delivers exactly the accepted segments in PSN order (bytes, length,
//    SOM/EOM), never one past a gap, and all it can when the app has room;
//  - its counters, SACK fields (cum_psn, bitmap, rcv_bytes, ooo_count) and
//    NACKs say what the model says;
//  - it holds no more than rcvbuf plus one MSS, and it always takes the
//    next in-order PSN while the application has room (else a buffer full
//    of out-of-order data stalls the transfer for good); with no room, it
//    takes nothing (else each zero-window probe grows the app's queue).
#include <algorithm>
#include <array>
#include <cstring>
#include <map>

#include "fuzz_harness.hpp"
#include "fuzz_targets.hpp"

extern "C" {
#include "wire.h"
}

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_fuzz {
namespace {

using reasm::kRecord;

constexpr uint32_t kMaxRcvWin = 8192;  // MRC_CORE_MAX_RCV_WIN

// A segment as sent: its length, SOM/EOM and whose bytes.
struct Seg {
  uint32_t len = 0;
  uint8_t flags = 0;
  uint8_t xor_with = 0;  // 0: the consistent sender's bytes

  // Segment `off`'s bytes start at a pattern offset of their own.
  static const uint8_t* Source(uint32_t off) { return Pattern(off * 1031ULL); }
  void Fill(uint32_t off, uint8_t* dst) const {
    std::memcpy(dst, Source(off), len);
    for (uint32_t i = 0; xor_with != 0 && i < len; i++) dst[i] ^= xor_with;
  }
  bool Matches(uint32_t off, const uint8_t* data) const {
    if (xor_with == 0) return std::memcmp(data, Source(off), len) == 0;
    for (uint32_t i = 0; i < len; i++)
      if (data[i] != (Source(off)[i] ^ xor_with)) return false;
    return true;
  }
};

class ReasmFuzz {
 public:
  explicit ReasmFuzz(const Options& o) : opts_(o), mask_(mrc_psn_mask(o.psn24)) {}

  bool Start();
  void Step(uint8_t op, ByteReader& r);

 private:
  uint32_t PsnAt(uint32_t off) const { return (opts_.client_isn + off) & mask_; }
  uint32_t OffOf(uint32_t psn) const { return (psn - opts_.client_isn) & mask_; }
  uint32_t Hash(uint32_t k) const {
    uint32_t x = (k + opts_.seed * 0x01000193U) * 0x9e3779b1U;
    x ^= x >> 13;
    return x * 0x85ebca6bU;
  }
  uint32_t Len(uint32_t k) const;
  bool EndsMessage(uint32_t k) const;
  Seg Consistent(uint32_t k) const;
  void Data(ByteReader& r);
  void SendData(uint32_t off, const Seg& seg, uint8_t flags, uint32_t plane, bool ce,
                uint16_t tsval);
  void Fin(ByteReader& r);
  void Read(ByteReader& r);
  void Control(ByteReader& r);
  int OnDeliver(const uint8_t* data, uint32_t len, uint32_t flags);
  void AfterCall();
  void CheckSack(const mrc_pkt& s) const;
  bool CanReceive() const {
    const enum mrc_core_state st = mrc_core_state(w_.b.core);
    return (st == MRC_CORE_ESTABLISHED || st == MRC_CORE_FIN_WAIT) && !fin_taken_;
  }
  void ReportSpace() {
    const uint64_t room = cap_ > unread_ ? cap_ - unread_ : 0;
    app_free_ = static_cast<uint32_t>(std::min<uint64_t>(room, UINT32_MAX));
    mrc_core_rcv_space(w_.b.core, app_free_);
  }

  Options opts_;
  uint32_t mask_;
  Bytes payload_;  // of the DATA being sent
  World w_;
  std::map<uint32_t, Seg> accepted_;  // by PSN offset
  uint64_t accepted_bytes_ = 0;
  uint32_t next_ = 0;  // the next PSN offset b needs (cum_psn)
  uint64_t next_bytes_ = 0;
  uint32_t app_free_ = 0;   // b's idea of the app's room: reported, less delivered
  uint32_t delivered_ = 0;  // segments delivered
  uint64_t delivered_bytes_ = 0;
  uint32_t max_len_ = 0;
  // The packet in the call now: delivered before the call returns.
  bool pending_ = false;
  bool pending_used_ = false;
  uint32_t pending_off_ = 0;
  Seg pending_seg_;
  // The application.
  uint64_t cap_ = UINT64_MAX;  // unread bytes it can hold
  uint64_t unread_ = 0;
  bool ever_refused_ = false;
  bool fin_taken_ = false;
  bool fin_trying_ = false;  // in the call that gives b a FIN at fin_off_
  uint32_t fin_off_ = 0;
};

// Segment k's length: half of them full, the rest anything.
uint32_t ReasmFuzz::Len(uint32_t k) const {
  return std::min<uint32_t>(opts_.mss, 1 + Hash(k) % (opts_.mss * 2));
}

// A short segment ends its message; a quarter of the full ones do too.
bool ReasmFuzz::EndsMessage(uint32_t k) const {
  return Len(k) < opts_.mss || (Hash(k) >> 20) % 4 == 0;
}

// Segment k of the consistent sender: messages of one or more segments.
Seg ReasmFuzz::Consistent(uint32_t k) const {
  Seg s;
  s.len = Len(k);
  if (opts_.sock_type == MRC_SYN_SEQPACKET) {
    if (k == 0 || EndsMessage(k - 1)) s.flags |= MRC_F_SOM;
    if (EndsMessage(k)) s.flags |= MRC_F_EOM;
  }
  return s;
}

bool ReasmFuzz::Start() {
  if (!w_.Accept(opts_)) return false;
  app_free_ = opts_.rcvbuf;  // what a new core assumes until told
  w_.b.on_deliver = [this](const uint8_t* d, uint32_t n, uint32_t f) { return OnDeliver(d, n, f); };
  w_.b.on_note = [this](mrc_core_note note, uint32_t) {
    if (note == MRC_NOTE_PEER_FIN)
      Check((fin_taken_ || fin_trying_) && delivered_ == next_ && next_ == fin_off_,
            "PEER_FIN before every byte up to the FIN was delivered");
  };
  return true;
}

int ReasmFuzz::OnDeliver(const uint8_t* data, uint32_t len, uint32_t flags) {
  const Seg* seg = nullptr;
  auto it = accepted_.find(delivered_);
  if (it != accepted_.end()) {
    seg = &it->second;
  } else if (pending_ && pending_off_ == delivered_) {
    seg = &pending_seg_;
    pending_used_ = true;
  }
  if (seg == nullptr) Fail("delivered a PSN it never accepted (past a gap)");
  Check(len == seg->len, "delivered a segment of another length");
  const uint32_t want = opts_.sock_type == MRC_SYN_SEQPACKET ? seg->flags : 0;
  Check(flags == want, "delivered SOM/EOM other than received");
  Check(seg->Matches(delivered_, data), "delivered bytes other than received");
  if (unread_ + len > cap_) {
    ever_refused_ = true;
    return -EAGAIN;
  }
  unread_ += len;
  app_free_ = app_free_ > len ? app_free_ - len : 0;
  delivered_++;
  delivered_bytes_ += len;
  return 0;
}

// What b said in a SACK is what the model holds.
void ReasmFuzz::CheckSack(const mrc_pkt& p) const {
  const mrc_pkt_sack& s = p.sack;
  Check(s.cum_psn == PsnAt(next_), "SACK cum_psn is not the next needed PSN");
  Check(s.rcv_bytes == static_cast<uint32_t>(next_bytes_),
        "SACK rcv_bytes is not the in-order bytes");
  Check(s.ooo_count == std::min<size_t>(accepted_.size() - next_, 0xffff),
        "SACK ooo_count is not the segments held past the gap");
  // One MSS when the buffer is smaller and b holds nothing: b always
  // takes the next in-order segment then.
  Check(s.rwnd <= opts_.rcvbuf ||
            (s.rwnd == opts_.mss && delivered_ == next_ && accepted_.size() == next_),
        "SACK rwnd beyond rcvbuf");
  for (uint32_t i = 0; i < 64; i++) {
    const uint32_t psn = (s.sack_base + i) & mask_;
    const bool set = ((s.bitmap >> i) & 1) != 0;
    const bool below = mrc_psn_diff(s.cum_psn, psn, opts_.psn24) < 0;
    Check(set == (below || accepted_.contains(OffOf(psn))),
          "SACK bitmap disagrees with what b holds");
  }
}

// After every call into b: its packets, counters and memory.
void ReasmFuzz::AfterCall() {
  for (size_t i = 0; i < w_.b.outbox.size(); i++) {
    const Sent& sent = w_.b.outbox[i];
    mrc_pkt p{};
    Check(mrc_wire_parse(sent.bytes.data(), static_cast<uint32_t>(sent.bytes.size()), &p) == 0,
          "b sent an unparsable packet");
    if (p.type == MRC_PKT_SACK) CheckSack(p);
    if (p.type == MRC_PKT_NACK)
      Check(p.nack.cum_psn == PsnAt(next_) && (p.nack.reason == MRC_NACK_NO_BUFFER ||
                                               p.nack.reason == MRC_NACK_PSN_OUT_OF_WINDOW),
            "NACK with another cum_psn or reason");
    Check(p.type != MRC_PKT_DATA, "b sent DATA it was never given");
  }
  w_.b.outbox.clear();
  w_.b.CheckInvariants();
  const mrc_core_stats st = w_.b.Stats();
  Check(st.rx_data_pkts == accepted_.size() && st.rx_data_bytes == accepted_bytes_,
        "rx_data counters are not the accepted segments");
  Check(st.delivered_bytes == delivered_bytes_, "delivered_bytes is not what was delivered");
  Check(delivered_ <= next_, "delivered past the next needed PSN");
  if (!ever_refused_ && cap_ == UINT64_MAX)
    Check(delivered_ == next_, "in-order data held back from an application with room");
  Check(accepted_bytes_ - delivered_bytes_ <= static_cast<uint64_t>(opts_.rcvbuf) + opts_.mss,
        "holds more than rcvbuf plus one MSS");
}

void ReasmFuzz::SendData(uint32_t off, const Seg& seg, uint8_t mode, uint32_t plane, bool ce,
                         uint16_t tsval) {
  payload_.resize(seg.len);
  seg.Fill(off, payload_.data());
  mrc_pkt p{};
  p.type = MRC_PKT_DATA;
  const bool spoiled = (mode & 7) != 0;
  p.flags = static_cast<uint8_t>((((mode & 1) != 0) != opts_.psn24 ? MRC_F_PSN24 : 0) | seg.flags |
                                 ((mode & 8) != 0 ? MRC_F_RETX : 0) |
                                 ((mode & 0x10) != 0 ? MRC_F_ACK_NOW : 0));
  p.src_token = mrc_core_peer_token(w_.b.core) ^ ((mode & 2) != 0 ? 1U : 0);
  p.dst_token = mrc_core_token(w_.b.core) ^ ((mode & 4) != 0 ? 1U : 0);
  p.ev = 20000;
  p.data.psn = PsnAt(off);
  p.data.tsval = tsval;
  p.data.plane = static_cast<uint16_t>(plane);
  p.payload = payload_.data();
  p.payload_len = seg.len;

  const bool in_order = off == next_ && delivered_ == next_ && CanReceive() && !spoiled &&
                        plane < opts_.nplanes && seg.len <= opts_.mss && app_free_ > 0;
  const uint64_t failures = w_.b.alloc_failures;
  const uint32_t window_start = delivered_;
  pending_ = true;
  pending_used_ = false;
  pending_off_ = off;
  pending_seg_ = seg;
  const int reason = w_.b.ReceivePkt(p, plane, ce);
  pending_ = false;
  if (reason != MRC_DROP_NONE) {
    Check(!pending_used_, "delivered a packet it refused");
    if (in_order && w_.b.alloc_failures == failures)
      Fail("refused the next in-order PSN: a full buffer stalls the transfer");
  } else {
    Check(!spoiled, "accepted DATA with wrong tokens or PSN size");
    Check(((off - window_start) & mask_) < kMaxRcvWin, "accepted DATA outside the PSN window");
    Check(!accepted_.contains(off), "accepted a duplicate");
    accepted_.emplace(off, seg);
    accepted_bytes_ += seg.len;
    max_len_ = std::max(max_len_, seg.len);
    for (auto it = accepted_.find(next_); it != accepted_.end(); it = accepted_.find(next_)) {
      next_bytes_ += it->second.len;
      next_ = (next_ + 1) & mask_;
    }
  }
  AfterCall();
}

void ReasmFuzz::Data(ByteReader& r) {
  const uint16_t sel = r.U16();
  const uint8_t how = r.U8();
  const uint8_t imp = r.U8();
  const uint8_t mode = r.U8();
  const uint16_t tsval = r.U16();
  const uint32_t v = sel & 0x3fffU;
  uint32_t off = 0;
  switch (sel >> 14) {
    case 0:
      off = next_ + v % 64;
      break;
    case 1:
      off = v;
      break;
    case 2:
      off = delivered_ + (256U << (v % 6)) + static_cast<uint32_t>(static_cast<int8_t>(v >> 3) % 8);
      break;
    default:
      off = next_ - 1 - v % 64;
      break;
  }
  off &= mask_;
  Seg seg = Consistent(off);
  if ((imp & 0x80) != 0) {
    const std::array<uint32_t, 8> lens = {
        1, opts_.mss + 1, 9000, 65523, 100, 1000, seg.len, std::max<uint32_t>(seg.len - 1, 1)};
    const std::array<uint8_t, 4> flags = {seg.flags, MRC_F_SOM | MRC_F_EOM, 0, MRC_F_EOM};
    seg.len = lens.at(imp & 7U);
    seg.flags = flags.at((imp >> 3) & 3U);
    seg.xor_with = (imp & 0x20) != 0 ? 0x55 : 0;
  }
  for (uint32_t copies = 1 + (how & 3U); copies > 0; copies--)
    SendData(off, seg, static_cast<uint8_t>(mode | ((how & 8) != 0 ? 0x10 : 0)), how >> 4,
             (how & 4) != 0, tsval);
}

void ReasmFuzz::Fin(ByteReader& r) {
  const auto n = static_cast<int16_t>(r.U16());
  const uint32_t off = (next_ + static_cast<uint32_t>(n % 4)) & mask_;
  mrc_pkt p{};
  p.type = MRC_PKT_FIN;
  p.flags = opts_.psn24 ? MRC_F_PSN24 : 0;
  p.src_token = mrc_core_peer_token(w_.b.core);
  p.dst_token = mrc_core_token(w_.b.core);
  p.ev = 20000;
  p.fin_end_psn = PsnAt(off);
  const bool could = CanReceive();
  const bool again = fin_taken_ && off == fin_off_;
  if (!fin_taken_) fin_off_ = off;
  fin_trying_ = true;
  const int reason = w_.b.ReceivePkt(p, 0, false);
  fin_trying_ = false;
  if (reason == MRC_DROP_NONE) {
    Check((could || again) && off == next_, "accepted a FIN not at the next needed PSN");
    fin_taken_ = true;
  }
  AfterCall();
}

void ReasmFuzz::Read(ByteReader& r) {
  switch (r.U8() % 4) {
    case 0:
      unread_ = 0;
      break;
    case 1:
      cap_ = unread_;
      break;
    case 2:
      unread_ /= 2;
      break;
    default:
      cap_ = r.U16();
      unread_ = 0;
      break;
  }
  ReportSpace();
  AfterCall();
}

void ReasmFuzz::Control(ByteReader& r) {
  const uint8_t kind = r.U8() % 4;
  const uint8_t plane = r.U8();
  const uint8_t up = r.U8();
  if (kind == 3) {
    mrc_core_close(w_.b.core);  // b has sent nothing: FIN at once
    AfterCall();
    return;
  }
  if (kind == 2) {
    mrc_core_plane_update(w_.b.core, plane % 4U, (up & 1) != 0);
    AfterCall();
    return;
  }
  mrc_pkt p{};
  p.type = kind == 0 ? MRC_PKT_RST : MRC_PKT_PROBE;
  p.flags = opts_.psn24 ? MRC_F_PSN24 : 0;
  p.src_token = mrc_core_peer_token(w_.b.core);
  p.dst_token = mrc_core_token(w_.b.core);
  p.ev = 20000;
  p.rst_reason = ECONNRESET;
  if (kind == 1) {
    p.probe = mrc_pkt_probe{};
    p.probe.probe_id = 7;
    p.probe.plane = plane % 4U;
    p.probe.plane_up = static_cast<uint16_t>((1U << opts_.nplanes) - 1);
  }
  w_.b.ReceivePkt(p, plane % 4U, false);
  AfterCall();
}

void ReasmFuzz::Step(uint8_t op, ByteReader& r) {
  switch (op % reasm::kOpCount) {
    case reasm::kData:
      Data(r);
      break;
    case reasm::kAdvance: {
      const uint64_t us = r.U16();
      w_.Advance(us << (r.U8() % 14));
      AfterCall();
      break;
    }
    case reasm::kRead:
      Read(r);
      break;
    case reasm::kFin:
      Fin(r);
      break;
    case reasm::kControl:
      Control(r);
      break;
    default:
      break;
  }
}

}  // namespace

int FuzzReasm(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  const Options opts = Options::Decode(in);
  ReasmFuzz f(opts);
  if (!f.Start()) return 0;
  for (size_t step = 0; step < reasm::kMaxRecords && !in.Empty(); step++) {
    ByteReader rec = in.Take(kRecord);
    const uint8_t op = rec.U8();
    f.Step(op, rec);
  }
  return 0;
}

}  // namespace mrc_fuzz

#ifdef MRC_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mrc_fuzz::FuzzReasm(data, size);
}
#endif

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
