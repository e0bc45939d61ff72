// SPDX-License-Identifier: GPL-2.0
// Writes the seed corpus of the fuzz targets: for fuzz_wire a valid packet
// of every type from the wire builder (and a few the parser must drop), for
// fuzz_ack and fuzz_reasm short scripts (fuzz_targets.hpp) of the protocol's
// usual and unusual moments. Files are named seed-*; others in the corpus
// (regress-*: inputs that found a bug) are left alone.
//   build/userspace/fuzz/gen_corpus userspace/fuzz/corpus
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_harness.hpp"
#include "fuzz_targets.hpp"

extern "C" {
#include "wire.h"
}

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_fuzz {
namespace {

namespace fs = std::filesystem;

// Arguments of one record, little-endian.
struct Args {
  Bytes b;
  Args& U8(uint32_t v) {
    b.push_back(static_cast<uint8_t>(v));
    return *this;
  }
  Args& U16(uint32_t v) { return U8(v).U8(v >> 8); }
  Args& U32(uint32_t v) { return U16(v).U16(v >> 16); }
};

// Options then fixed-size records.
class Script {
 public:
  Script(const Options& o, size_t record) : bytes_(o.Encode()), record_(record) {}
  Script& Op(uint8_t op, const Args& args = {}) {
    Bytes rec(record_, 0);
    rec[0] = op;
    for (size_t i = 0; i < args.b.size() && i + 1 < record_; i++) rec[i + 1] = args.b[i];
    bytes_.insert(bytes_.end(), rec.begin(), rec.end());
    return *this;
  }
  template <typename F>
  Script& Times(int n, F f) {
    for (int i = 0; i < n; i++) f(*this, i);
    return *this;
  }
  const Bytes& bytes() const { return bytes_; }

 private:
  Bytes bytes_;
  size_t record_;
};

Options Opt(uint32_t initial = 16 * 1024) {
  Options o;
  o.initial = initial;
  return o;
}

class Writer {
 public:
  explicit Writer(fs::path root) : root_(std::move(root)) {}
  void Put(const char* target, const std::string& name, const Bytes& bytes) {
    const fs::path dir = root_ / target;
    fs::create_directories(dir);
    std::ofstream out(dir / ("seed-" + name), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),  // NOLINT: bytes to a stream
              static_cast<std::streamsize>(bytes.size()));
    files_++;
  }
  int files() const { return files_; }

 private:
  fs::path root_;
  int files_ = 0;
};

// ---- fuzz_wire: packets of every type --------------------------------

Bytes Build(const mrc_pkt& pkt) {
  std::array<uint8_t, MRC_WIRE_MAX_HDR> hdr{};
  const uint32_t n = mrc_wire_build(&pkt, hdr.data(), static_cast<uint32_t>(hdr.size()));
  if (n == 0) Fail("gen_corpus: the builder refused a seed packet");
  Bytes out(hdr.begin(), hdr.begin() + n);
  if (pkt.type == MRC_PKT_DATA) out.insert(out.end(), pkt.payload, pkt.payload + pkt.payload_len);
  return out;
}

mrc_pkt Pkt(uint8_t type, uint8_t flags = 0) {
  mrc_pkt p{};
  p.type = type;
  p.flags = flags;
  p.dst_token = type == MRC_PKT_SYN ? 0 : 0x0b0b0b0bU;
  p.src_token = 0x0a0a0a0aU;
  p.ev = 20001;
  return p;
}

void WireSeeds(Writer& w) {
  const Bytes payload(1400, 0xa5);
  for (const uint32_t len : {1U, 100U, 1400U}) {
    mrc_pkt p = Pkt(MRC_PKT_DATA, MRC_F_SOM | MRC_F_EOM | MRC_F_ACK_NOW);
    p.data = {0x12345678, 1000000, 1};
    p.payload = payload.data();
    p.payload_len = len;
    w.Put("fuzz_wire", "data-" + std::to_string(len), Build(p));
  }
  mrc_pkt d24 = Pkt(MRC_PKT_DATA, MRC_F_PSN24 | MRC_F_RETX);
  d24.data = {0xfffffe, 77, 3};
  d24.payload = payload.data();
  d24.payload_len = 64;
  w.Put("fuzz_wire", "data-psn24", Build(d24));

  mrc_pkt sack = Pkt(MRC_PKT_SACK);
  sack.sack = {1000, 960, 0xf0f0f0f0f0f0f0f0ULL, 1003, 20001, 999, 65536, 1400000,
               3,    1,   MRC_SACK_CE,           3};
  w.Put("fuzz_wire", "sack", Build(sack));
  mrc_pkt fin_ack = Pkt(MRC_PKT_SACK, MRC_F_PSN24);
  fin_ack.sack = {0xffff00, 0xffff00, 0, 0xffff00, 0, 0, 0, 0, 0, 0, 0, 1};
  w.Put("fuzz_wire", "sack-psn24", Build(fin_ack));

  for (uint8_t reason = MRC_NACK_TRIMMED; reason <= MRC_NACK_UNEXPECTED; reason++) {
    mrc_pkt nack = Pkt(MRC_PKT_NACK);
    nack.nack = {1001, 1000, 20001, reason};
    w.Put("fuzz_wire", "nack-" + std::to_string(reason), Build(nack));
  }
  for (const uint8_t type : {MRC_PKT_PROBE, MRC_PKT_PROBE_REPLY}) {
    mrc_pkt probe = Pkt(type);
    probe.probe = {0x0102, 123456, 2, 0xf};
    w.Put("fuzz_wire", type == MRC_PKT_PROBE ? "probe" : "probe-reply", Build(probe));
  }
  for (const uint32_t planes : {1U, 2U, 16U}) {
    for (const uint8_t type : {MRC_PKT_SYN, MRC_PKT_SYN_ACK}) {
      Options o;
      o.nplanes = planes > 4 ? 4 : planes;
      mrc_pkt syn = World::ClientSyn(o);
      syn.type = type;
      syn.dst_token = type == MRC_PKT_SYN ? 0 : 0x0b0b0b0bU;
      syn.syn.nplanes = static_cast<uint8_t>(planes);
      for (uint32_t p = 0; p < planes; p++) {
        syn.syn.planes[p].id = static_cast<uint8_t>(15 - p);
        syn.syn.planes[p].flags = p % 2 != 0 ? MRC_PLANE_F_V6 : MRC_PLANE_F_V4 | MRC_PLANE_F_V6;
        syn.syn.planes[p].udp_port = 4797;
        syn.syn.planes[p].addr6[15] = static_cast<uint8_t>(p);
      }
      w.Put("fuzz_wire",
            std::string(type == MRC_PKT_SYN ? "syn-" : "syn-ack-") + std::to_string(planes),
            Build(syn));
    }
  }
  mrc_pkt fin = Pkt(MRC_PKT_FIN);
  fin.fin_end_psn = 4242;
  w.Put("fuzz_wire", "fin", Build(fin));
  mrc_pkt rst = Pkt(MRC_PKT_RST);
  rst.rst_reason = 104;
  w.Put("fuzz_wire", "rst", Build(rst));

  // Ones the parser drops: short, bad version, unknown type, bad length.
  Bytes truncated = Build(World::ClientSyn(Options{}));
  truncated.resize(truncated.size() - 5);
  w.Put("fuzz_wire", "drop-short", truncated);
  Bytes version = Build(fin);
  version[0] = 0x28;
  w.Put("fuzz_wire", "drop-version", version);
  Bytes type = Build(fin);
  type[0] = 0x1f;
  w.Put("fuzz_wire", "drop-type", type);
  Bytes length = Build(rst);
  length.push_back(0);
  w.Put("fuzz_wire", "drop-length", length);
}

// ---- fuzz_ack ----------------------------------------------------------

Script AckScript(const Options& o) { return Script(o, ack::kRecord); }

// Real packets both ways with time for the delayed SACK.
void Pump(Script& s, int rounds, uint32_t us = 300) {
  for (; rounds > 0; rounds -= 8) s.Op(ack::kPump, Args().U8(std::min(rounds, 8) - 1).U16(us - 1));
}

// A SACK: cumulative up to offset `cum`, the rest as the Op's comment says.
Args SackArgs(uint16_t cum, uint8_t mode = 0, uint8_t rec = 0, uint64_t bitmap = 0,
              uint8_t rwnd = 0, uint8_t b7 = 0) {
  return Args()
      .U8(mode)
      .U8(0)
      .U16(cum)
      .U8(rec)
      .U8(0)
      .U8(b7)
      .U32(static_cast<uint32_t>(bitmap))
      .U16(static_cast<uint32_t>(bitmap >> 32))
      .U8(0)
      .U8(rwnd);
}

void AckSeeds(Writer& w) {
  {
    Script s = AckScript(Opt());
    Pump(s, 12);
    s.Op(ack::kWrite, Args().U16(30000));
    Pump(s, 16);
    s.Op(ack::kClose);
    Pump(s, 6, 3000);
    w.Put("fuzz_ack", "clean-stream", s.bytes());
  }
  {
    Options o = Opt(20 * 1024);
    o.sock_type = MRC_SYN_SEQPACKET;
    o.seed = 9;
    Script s = AckScript(o);
    Pump(s, 10);
    s.Op(ack::kWrite, Args().U16(5000));
    Pump(s, 8);
    s.Op(ack::kClose);
    Pump(s, 4, 3000);
    w.Put("fuzz_ack", "clean-seqpacket", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    s.Times(12, [](Script& t, int i) {
      t.Op(ack::kSack, SackArgs(static_cast<uint16_t>(i + 1), 0, static_cast<uint8_t>(i)));
    });
    w.Put("fuzz_ack", "sack-cumulative", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    s.Op(ack::kSack, SackArgs(0, 0, 8, 0xfffffffeULL))
        .Op(ack::kAdvance, Args().U16(5000))
        .Op(ack::kSack, SackArgs(0, 0, 9, 0xfffffff8ULL))
        .Op(ack::kAdvance, Args().U16(5000))
        .Op(ack::kSack, SackArgs(12, 0x08, 0, 0, 0))
        .Op(ack::kSack, SackArgs(13, 0x20));
    w.Put("fuzz_ack", "sack-holes", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    for (uint8_t r = 0; r < 7; r++)
      s.Op(ack::kNack, Args().U8(static_cast<uint8_t>(r << 4)).U8(0).U16(r).U8(0).U16(0).U8(0));
    s.Op(ack::kAdvance, Args().U16(1000));
    Pump(s, 4);
    w.Put("fuzz_ack", "nack-reasons", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    s.Times(12, [](Script& t, int) { t.Op(ack::kAdvance, Args().U16(20000).U8(2)); });
    w.Put("fuzz_ack", "rto-to-timeout", s.bytes());
  }
  {
    Options o = Opt();
    o.nevs = 16;
    Script s = AckScript(o);
    s.Op(ack::kEvAdmin, Args().U8(0).U8(MRC_EV_ASSUMED_BAD))
        .Op(ack::kEvAdmin, Args().U8(1).U8(MRC_EV_DENIED))
        .Op(ack::kAdvance, Args().U16(6000))
        .Op(ack::kProbeReply, Args().U8(0).U8(0).U8(0))
        .Op(ack::kEvAdmin, Args().U8(2).U8(0).U8(1))
        .Op(ack::kProbe, Args().U8(0).U8(1).U32(77).U16(3).U32(5));
    Pump(s, 4);
    w.Put("fuzz_ack", "probes", s.bytes());
  }
  {
    Options o = Opt(40 * 1024);
    o.psn24 = true;
    o.client_isn = 0xffffff - 20;
    Script s = AckScript(o);
    Pump(s, 14);
    w.Put("fuzz_ack", "psn24-wrap", s.bytes());
  }
  {
    Options o = Opt(8 * 1024);
    o.mss = 64;
    o.nevs = 1;
    o.nplanes = 1;
    o.client_isn = 0xffffffff - 20;
    Script s = AckScript(o);
    Pump(s, 20);
    w.Put("fuzz_ack", "tiny-mss-wrap", s.bytes());
  }
  {
    Options o = Opt();
    o.nplanes = 4;
    o.nevs = 16;
    Script s = AckScript(o);
    s.Op(ack::kPlane, Args().U8(1).U8(0)).Op(ack::kPlane, Args().U8(2).U8(2));
    Pump(s, 4);
    s.Op(ack::kPlane, Args().U8(1).U8(1)).Op(ack::kPlane, Args().U8(2).U8(3));
    Pump(s, 4);
    w.Put("fuzz_ack", "planes", s.bytes());
  }
  {
    Options o = Opt(64 * 1024 - 1024);
    o.fail_every = 7;
    Script s = AckScript(o);
    Pump(s, 16);
    w.Put("fuzz_ack", "alloc-failures", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    for (uint8_t kind = 0; kind < 5; kind++)
      s.Op(ack::kControl, Args().U8((kind + 2) % 5).U16(0).U16(100).U8(0).U8(0).U8(0));
    Pump(s, 2);
    w.Put("fuzz_ack", "control", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    s.Op(ack::kSack, SackArgs(2, 0, 1, 0, 1))
        .Op(ack::kAdvance, Args().U16(30000))
        .Op(ack::kAdvance, Args().U16(30000))
        .Op(ack::kSack, SackArgs(3, 0x08, 0, 0, 4))
        .Op(ack::kRcvSpace, Args().U32(0));
    Pump(s, 4);
    w.Put("fuzz_ack", "zero-window", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    for (uint8_t mode = 1; mode < 8; mode++) s.Op(ack::kSack, SackArgs(4, mode));
    s.Op(ack::kSack, SackArgs(0x8005));
    w.Put("fuzz_ack", "spoiled", s.bytes());
  }
  {
    // Both close: FIN each way, SACKs for both, DONE.
    Script s = AckScript(Opt(4096));
    Pump(s, 3);
    s.Op(ack::kClose).Op(ack::kControl, Args().U8(6));
    Pump(s, 6, 2000);
    w.Put("fuzz_ack", "both-close", s.bytes());
  }
  {
    Options o = Opt();
    o.seed = 0x80;  // the SYN_ACK waits
    Script s = AckScript(o);
    s.Op(ack::kAdvance, Args().U16(30000))
        .Op(ack::kWrite, Args().U16(100))
        .Op(ack::kFromPeer, Args().U8(0));
    Pump(s, 4);
    w.Put("fuzz_ack", "syn-sent", s.bytes());
  }
  for (uint8_t n = 0; n < 4; n++) {
    Options o = Opt();
    o.seed = static_cast<uint8_t>(0x40 | n);
    w.Put("fuzz_ack", "create-fails-" + std::to_string(n), AckScript(o).bytes());
  }
  {
    Options o = Opt(0);
    Script s = AckScript(o);
    s.Op(ack::kWrite, Args().U16(5000).U8(2).U16(100))
        .Op(ack::kWrite, Args().U16(5000).U8(1).U16(3000))
        .Op(ack::kToPeer, Args().U8(15).U32(0).U8(0x55))
        .Op(ack::kRcvSpace, Args().U32(1000).U8(3));
    Pump(s, 3);
    s.Op(ack::kRcvSpace, Args().U32(65536).U8(1));
    Pump(s, 3);
    s.Op(ack::kControl, Args().U8(5).U8(104));
    w.Put("fuzz_ack", "writes-ce-abort", s.bytes());
  }
  {
    Options o = Opt(0);
    o.sock_type = MRC_SYN_SEQPACKET;
    Script s = AckScript(o);
    s.Op(ack::kWrite, Args().U16(3000).U8(2))
        .Op(ack::kWrite, Args().U16(3000).U8(1).U16(1500))
        .Op(ack::kWrite, Args().U16(3000));
    Pump(s, 4);
    w.Put("fuzz_ack", "seqpacket-writes", s.bytes());
  }
  {
    // 1-byte messages, the first lost: b holds its PSN window (256) and
    // refuses the rest, whose NACKs a must not take for a wider window.
    Options o = Opt();
    o.sock_type = MRC_SYN_SEQPACKET;
    o.mss = 64;
    o.nevs = 1;
    o.nplanes = 1;
    o.rcvbuf = 1000;
    Script s = AckScript(o);
    s.Op(ack::kLose, Args().U8(1));
    w.Put("fuzz_ack", "psn-window-edge", s.bytes());
  }
  {
    Script s = AckScript(Opt());
    s.Op(ack::kLose, Args().U8(3));
    Pump(s, 3);
    s.Op(ack::kAdvance, Args().U16(30000));
    Pump(s, 8);
    w.Put("fuzz_ack", "loss", s.bytes());
  }
}

// ---- fuzz_reasm --------------------------------------------------------

Script ReasmScript(const Options& o) { return Script(o, reasm::kRecord); }

// DATA at `sel` (mode << 14 | v) with the record's other bytes.
Args DataArgs(uint16_t sel, uint8_t how = 0, uint8_t imp = 0, uint8_t mode = 0) {
  return Args().U16(sel).U8(how).U8(imp).U8(mode).U16(1234);
}

constexpr uint16_t kOffset = 1 << 14;  // mode 1: absolute offset
constexpr uint16_t kEdge = 2 << 14;
constexpr uint16_t kBehind = 3 << 14;

uint16_t Sel(uint16_t mode, uint32_t v) { return static_cast<uint16_t>(mode | (v & 0x3fffU)); }

void InOrder(Script& s, int n) {
  s.Times(n, [](Script& t, int) { t.Op(reasm::kData, DataArgs(0)); });
}

void ReasmSeeds(Writer& w) {
  {
    Script s = ReasmScript(Opt(0));
    InOrder(s, 40);
    s.Op(reasm::kAdvance, Args().U16(1000));
    w.Put("fuzz_reasm", "in-order", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    for (uint16_t off = 30; off > 0; off--) s.Op(reasm::kData, DataArgs(Sel(kOffset, off)));
    s.Op(reasm::kData, DataArgs(kOffset));
    w.Put("fuzz_reasm", "reversed", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    for (uint16_t v = 1; v < 12; v += 2) s.Op(reasm::kData, DataArgs(v, 0x08));
    InOrder(s, 12);
    w.Put("fuzz_reasm", "gaps", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    s.Times(10, [](Script& t, int) { t.Op(reasm::kData, DataArgs(kBehind, 3)); });
    InOrder(s, 5);
    s.Times(5, [](Script& t, int i) {
      t.Op(reasm::kData, DataArgs(Sel(kBehind, static_cast<uint32_t>(i)), 2));
    });
    w.Put("fuzz_reasm", "duplicates", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    for (uint16_t v = 0; v < 6; v++) {
      s.Op(reasm::kData, DataArgs(Sel(kEdge, v)));
      s.Op(reasm::kData, DataArgs(Sel(kEdge, v | 0xf8U << 3)));  // -1
    }
    w.Put("fuzz_reasm", "window-edge", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    for (uint8_t imp = 0x80; imp != 0; imp = static_cast<uint8_t>(imp + 0x09)) {
      s.Op(reasm::kData, DataArgs(static_cast<uint16_t>(imp % 5), 0, imp));
      if (imp > 0xf0) break;
    }
    InOrder(s, 6);
    w.Put("fuzz_reasm", "impostors", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    InOrder(s, 8);
    s.Op(reasm::kFin, Args().U16(1)).Op(reasm::kFin, Args().U16(0)).Op(reasm::kFin, Args().U16(0));
    InOrder(s, 2);
    w.Put("fuzz_reasm", "fin", s.bytes());
  }
  {
    Options o = Opt(0);
    o.rcvbuf = 16384;
    Script s = ReasmScript(o);
    InOrder(s, 3);
    s.Op(reasm::kRead, Args().U8(1));
    InOrder(s, 14);
    s.Op(reasm::kRead, Args().U8(2)).Op(reasm::kRead, Args().U8(0));
    InOrder(s, 4);
    s.Op(reasm::kRead, Args().U8(3).U16(3000));
    InOrder(s, 4);
    w.Put("fuzz_reasm", "slow-reader", s.bytes());
  }
  {
    Options o = Opt(0);
    o.sock_type = MRC_SYN_SEQPACKET;
    Script s = ReasmScript(o);
    for (const uint32_t off : {2U, 1U, 5U, 0U, 3U, 4U, 9U, 8U, 7U, 6U})
      s.Op(reasm::kData, DataArgs(Sel(kOffset, off)));
    InOrder(s, 10);
    w.Put("fuzz_reasm", "seqpacket", s.bytes());
  }
  {
    Options o = Opt(0);
    o.psn24 = true;
    o.client_isn = 0xffffff - 20;
    o.sock_type = MRC_SYN_SEQPACKET;
    Script s = ReasmScript(o);
    InOrder(s, 30);
    w.Put("fuzz_reasm", "psn24-wrap", s.bytes());
  }
  {
    // A buffer full of out-of-order data, then the PSN that fills the gap.
    Options o = Opt(0);
    o.rcvbuf = 4096;
    Script s = ReasmScript(o);
    constexpr uint8_t k1000Bytes = 0x80 | 5;
    for (uint16_t off = 1; off < 5; off++)
      s.Op(reasm::kData, DataArgs(Sel(kOffset, off), 0, k1000Bytes));
    s.Op(reasm::kData, DataArgs(0, 0, k1000Bytes)).Op(reasm::kData, DataArgs(0));
    InOrder(s, 6);
    w.Put("fuzz_reasm", "full-buffer-gap", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    for (uint8_t mode = 1; mode < 16; mode++) s.Op(reasm::kData, DataArgs(0, 0, 0, mode));
    w.Put("fuzz_reasm", "spoiled", s.bytes());
  }
  {
    Options o = Opt(0);
    o.nplanes = 3;
    Script s = ReasmScript(o);
    InOrder(s, 3);
    s.Op(reasm::kControl, Args().U8(1).U8(1))
        .Op(reasm::kControl, Args().U8(2).U8(1).U8(0))
        .Op(reasm::kData, DataArgs(0, 0x14))
        .Op(reasm::kControl, Args().U8(2).U8(1).U8(1))
        .Op(reasm::kAdvance, Args().U16(60000).U8(6))
        .Op(reasm::kControl, Args().U8(0));
    InOrder(s, 2);
    w.Put("fuzz_reasm", "control", s.bytes());
  }
  {
    Script s = ReasmScript(Opt(0));
    InOrder(s, 4);
    s.Op(reasm::kControl, Args().U8(3));
    InOrder(s, 2);
    s.Op(reasm::kFin, Args().U16(0)).Op(reasm::kAdvance, Args().U16(1000));
    w.Put("fuzz_reasm", "both-close", s.bytes());
  }
  {
    Options o = Opt(0);
    o.fail_every = 7;
    o.mss = 256;
    Script s = ReasmScript(o);
    for (uint16_t v = 0; v < 40; v++) s.Op(reasm::kData, DataArgs(v % 3 == 0 ? 0 : 70 + v));
    w.Put("fuzz_reasm", "alloc-failures", s.bytes());
  }
}

}  // namespace
}  // namespace mrc_fuzz

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_corpus CORPUS_DIR\n");
    return 2;
  }
  mrc_fuzz::Writer w{std::filesystem::path(argv[1])};  // NOLINT: argv
  mrc_fuzz::WireSeeds(w);
  mrc_fuzz::AckSeeds(w);
  mrc_fuzz::ReasmSeeds(w);
  std::printf("gen_corpus: %d seed files in %s\n", w.files(), argv[1]);  // NOLINT: argv
  return 0;
}

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
