// SPDX-License-Identifier: GPL-2.0
// The wire parser and builder of the protocol core (kernel/core/wire.c):
// round trips, byte-exact layouts, every drop reason the parser can give,
// and parsing that never touches a byte beyond the datagram (guard page).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include "wire.h"
}

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace {

using Bytes = std::vector<uint8_t>;

constexpr size_t kHdr = sizeof(mrc_hdr);
constexpr std::array<uint8_t, 5> kPayload = {'h', 'e', 'l', 'l', 'o'};

// Memory whose last byte is followed by an inaccessible page: any read or
// write past the bytes handed out by Tail() faults, sanitizer or not.
class GuardedArena {
 public:
  explicit GuardedArena(size_t capacity) {
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    usable_ = (capacity + page - 1) / page * page;
    map_len_ = usable_ + page;
    void* map = mmap(nullptr, map_len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
      throw std::runtime_error("mmap failed");
    }
    base_ = static_cast<uint8_t*>(map);
    if (mprotect(base_ + usable_, page, PROT_NONE) != 0) {
      munmap(base_, map_len_);
      throw std::runtime_error("mprotect failed");
    }
  }
  GuardedArena(const GuardedArena&) = delete;
  GuardedArena& operator=(const GuardedArena&) = delete;
  GuardedArena(GuardedArena&&) = delete;
  GuardedArena& operator=(GuardedArena&&) = delete;
  ~GuardedArena() { munmap(base_, map_len_); }

  // The last `n` bytes before the guard page.
  uint8_t* Tail(size_t n) {
    if (n > usable_) {
      throw std::length_error("GuardedArena too small");
    }
    return base_ + usable_ - n;
  }

  // `bytes` copied so that they end right at the guard page.
  const uint8_t* Place(std::span<const uint8_t> bytes) {
    uint8_t* dst = Tail(bytes.size());
    if (!bytes.empty()) {
      std::memcpy(dst, bytes.data(), bytes.size());
    }
    return dst;
  }

 private:
  uint8_t* base_ = nullptr;
  size_t usable_ = 0;
  size_t map_len_ = 0;
};

GuardedArena& Arena() {
  static GuardedArena arena(kHdr + 0x10000 + 64);
  return arena;
}

// Parses `bytes` from the guarded arena.
int Parse(std::span<const uint8_t> bytes, mrc_pkt* pkt) {
  const uint8_t* buf = Arena().Place(bytes);
  return mrc_wire_parse(buf, static_cast<u32>(bytes.size()), pkt);
}

mrc_pkt Zeroed() {
  mrc_pkt pkt{};
  std::memset(&pkt, 0, sizeof(pkt));
  return pkt;
}

mrc_core_plane Plane(uint8_t id, uint8_t flags, uint16_t port) {
  mrc_core_plane pl{};
  pl.id = id;
  pl.flags = flags;
  pl.udp_port = port;
  pl.addr4 = 0x0a000001U + id;
  auto byte = static_cast<uint8_t>(0xf0 + id);
  for (uint8_t& b : pl.addr6) {
    b = byte++;
  }
  return pl;
}

// A valid packet of `type` whose fields all hold distinct non-zero values.
mrc_pkt Sample(uint8_t type) {
  mrc_pkt pkt = Zeroed();
  pkt.type = type;
  pkt.flags = 0;
  pkt.dst_token = type == MRC_PKT_SYN ? 0 : 0xd1d2d3d4U;
  pkt.src_token = 0x51525354U;
  pkt.ev = 0x0000c0deU + type;
  switch (type) {
    case MRC_PKT_DATA:
      pkt.flags = MRC_F_SOM | MRC_F_EOM | MRC_F_RETX;
      pkt.data = {.psn = 0x89abcdefU, .tsval = 0x01020304U, .plane = 7};
      pkt.payload = kPayload.data();
      pkt.payload_len = static_cast<u32>(kPayload.size());
      break;
    case MRC_PKT_SACK:
      pkt.sack = {.cum_psn = 0xfffffff0U,
                  .sack_base = 0xffffffc0U,
                  .bitmap = 0x8000000100000003ULL,
                  .trig_psn = 0xfffffff5U,
                  .echo_ev = 0x0000abcdU,
                  .ts_echo = 0x11121314U,
                  .rwnd = 0x00200000U,
                  .rcv_bytes = 0x76543210U,
                  .ooo_count = 0x0203,
                  .ce_count = 9,
                  .cc_flags = MRC_SACK_CE,
                  .plane_up = 0x8421};
      break;
    case MRC_PKT_NACK:
      pkt.nack = {.psn = 0x10203040U,
                  .cum_psn = 0x1020303fU,
                  .echo_ev = 0x0000beefU,
                  .reason = MRC_NACK_PSN_OUT_OF_WINDOW};
      break;
    case MRC_PKT_PROBE:
    case MRC_PKT_PROBE_REPLY:
      pkt.probe = {.probe_id = 0xcafef00dU, .tsval = 0x00c0ffeeU, .plane = 15, .plane_up = 0xa5a5};
      break;
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      pkt.syn.isn = 0x7fffff01U;
      pkt.syn.rwnd = 0x00100000U;
      pkt.syn.src_port = 0x1234;
      pkt.syn.dst_port = 0x4321;
      pkt.syn.mss = 1400;
      pkt.syn.sock_type = type == MRC_PKT_SYN ? MRC_SYN_STREAM : MRC_SYN_SEQPACKET;
      pkt.syn.nplanes = 3;
      pkt.syn.ev_count = 256;
      pkt.syn.planes[0] = Plane(0, MRC_PLANE_F_V4, 4797);
      pkt.syn.planes[1] = Plane(9, MRC_PLANE_F_V6, 4798);
      pkt.syn.planes[2] = Plane(15, MRC_PLANE_F_V4 | MRC_PLANE_F_V6, 65535);
      break;
    case MRC_PKT_FIN:
      pkt.fin_end_psn = 0xfedcba98U;
      break;
    case MRC_PKT_RST:
      pkt.rst_reason = 104;  // ECONNRESET
      break;
    default:
      break;
  }
  return pkt;
}

// Sample() with MRC_F_PSN24 and every PSN near the top of the 24-bit space.
mrc_pkt Sample24(uint8_t type) {
  mrc_pkt pkt = Sample(type);
  pkt.flags |= MRC_F_PSN24;
  switch (type) {
    case MRC_PKT_DATA:
      pkt.data.psn = 0xfffffe;
      break;
    case MRC_PKT_SACK:
      pkt.sack.cum_psn = 0xffffff;
      pkt.sack.sack_base = 0xffffc0;
      pkt.sack.trig_psn = 0xfffffe;
      break;
    case MRC_PKT_NACK:
      pkt.nack.psn = 0xffffff;
      pkt.nack.cum_psn = 0xfffff0;
      break;
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      pkt.syn.isn = 0xfffff0;
      break;
    case MRC_PKT_FIN:
      pkt.fin_end_psn = 0xffffff;
      break;
    default:
      break;
  }
  return pkt;
}

// Header and body as mrc_wire_build() writes them, then the DATA payload.
// The buffer starts dirty so that unwritten (reserved) bytes show.
Bytes Build(const mrc_pkt& pkt) {
  Bytes out(MRC_WIRE_MAX_HDR, 0xa5);
  const u32 len = mrc_wire_build(&pkt, out.data(), static_cast<u32>(out.size()));
  out.resize(len);
  if (len != 0 && pkt.type == MRC_PKT_DATA) {
    out.insert(out.end(), pkt.payload, pkt.payload + pkt.payload_len);
  }
  return out;
}

Bytes BuildOk(const mrc_pkt& pkt) {
  Bytes out = Build(pkt);
  EXPECT_FALSE(out.empty()) << "mrc_wire_build refused a valid packet";
  return out;
}

void SetBodyLen(Bytes& bytes, size_t body_len) {
  bytes[offsetof(mrc_hdr, body_len)] = static_cast<uint8_t>(body_len >> 8);
  bytes[offsetof(mrc_hdr, body_len) + 1] = static_cast<uint8_t>(body_len);
}

void PutBe32(Bytes& bytes, size_t off, uint32_t value) {
  for (size_t i = 0; i < 4; i++) {
    bytes.at(off + i) = static_cast<uint8_t>(value >> (24 - 8 * i));
  }
}

// Fixed body size of a type, from the uapi structs.
size_t FixedBody(uint8_t type) {
  switch (type) {
    case MRC_PKT_DATA:
      return sizeof(mrc_data);
    case MRC_PKT_SACK:
      return sizeof(mrc_sack);
    case MRC_PKT_NACK:
      return sizeof(mrc_nack);
    case MRC_PKT_PROBE:
    case MRC_PKT_PROBE_REPLY:
      return sizeof(mrc_probe);
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      return sizeof(mrc_syn);
    case MRC_PKT_FIN:
      return sizeof(mrc_fin);
    case MRC_PKT_RST:
      return sizeof(mrc_rst);
    default:
      return 0;
  }
}

bool IsSyn(uint8_t type) { return type == MRC_PKT_SYN || type == MRC_PKT_SYN_ACK; }

// Offsets (in the datagram) of reserved bytes: ignored by the parser.
std::vector<size_t> ReservedOffsets(uint8_t type) {
  std::vector<size_t> off;
  auto add = [&off](size_t from, size_t len) {
    for (size_t i = 0; i < len; i++) {
      off.push_back(kHdr + from + i);
    }
  };
  switch (type) {
    case MRC_PKT_DATA:
      add(offsetof(mrc_data, reserved), sizeof(mrc_data::reserved));
      break;
    case MRC_PKT_SACK:
      add(offsetof(mrc_sack, reserved), sizeof(mrc_sack::reserved));
      add(offsetof(mrc_sack, reserved2), sizeof(mrc_sack::reserved2));
      break;
    case MRC_PKT_NACK:
      add(offsetof(mrc_nack, reserved), sizeof(mrc_nack::reserved));
      break;
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      add(offsetof(mrc_syn, reserved), sizeof(mrc_syn::reserved));
      break;
    default:
      break;
  }
  return off;
}

// Every decoded field of a packet by name, so that a mismatch names it.
using FieldList = std::vector<std::pair<std::string, uint64_t>>;

void AddDataFields(const mrc_pkt_data& d, FieldList& f) {
  f.insert(f.end(), {{"psn", d.psn}, {"tsval", d.tsval}, {"plane", d.plane}});
}

void AddSackFields(const mrc_pkt_sack& s, FieldList& f) {
  f.insert(f.end(), {{"cum_psn", s.cum_psn},
                     {"sack_base", s.sack_base},
                     {"bitmap", s.bitmap},
                     {"trig_psn", s.trig_psn},
                     {"echo_ev", s.echo_ev},
                     {"ts_echo", s.ts_echo},
                     {"rwnd", s.rwnd},
                     {"rcv_bytes", s.rcv_bytes},
                     {"ooo_count", s.ooo_count},
                     {"ce_count", s.ce_count},
                     {"cc_flags", s.cc_flags},
                     {"plane_up", s.plane_up}});
}

void AddNackFields(const mrc_pkt_nack& n, FieldList& f) {
  f.insert(f.end(),
           {{"psn", n.psn}, {"cum_psn", n.cum_psn}, {"echo_ev", n.echo_ev}, {"reason", n.reason}});
}

void AddProbeFields(const mrc_pkt_probe& p, FieldList& f) {
  f.insert(
      f.end(),
      {{"probe_id", p.probe_id}, {"tsval", p.tsval}, {"plane", p.plane}, {"plane_up", p.plane_up}});
}

void AddSynFields(const mrc_pkt_syn& syn, FieldList& f) {
  f.insert(f.end(), {{"isn", syn.isn},
                     {"rwnd", syn.rwnd},
                     {"src_port", syn.src_port},
                     {"dst_port", syn.dst_port},
                     {"mss", syn.mss},
                     {"sock_type", syn.sock_type},
                     {"nplanes", syn.nplanes},
                     {"ev_count", syn.ev_count}});
  const size_t n = std::min<size_t>(syn.nplanes, MRC_WIRE_MAX_PLANES);
  for (const mrc_core_plane& pl : std::span(syn.planes).first(n)) {
    const std::string at = "plane[" + std::to_string(pl.id) + "].";
    f.insert(f.end(),
             {{at + "flags", pl.flags}, {at + "udp_port", pl.udp_port}, {at + "addr4", pl.addr4}});
    for (uint8_t b : pl.addr6) {
      f.emplace_back(at + "addr6", b);
    }
  }
}

FieldList Fields(const mrc_pkt& pkt) {
  FieldList f = {
      {"type", pkt.type},           {"flags", pkt.flags}, {"dst_token", pkt.dst_token},
      {"src_token", pkt.src_token}, {"ev", pkt.ev},       {"payload_len", pkt.payload_len}};
  switch (pkt.type) {
    case MRC_PKT_DATA:
      AddDataFields(pkt.data, f);
      break;
    case MRC_PKT_SACK:
      AddSackFields(pkt.sack, f);
      break;
    case MRC_PKT_NACK:
      AddNackFields(pkt.nack, f);
      break;
    case MRC_PKT_PROBE:
    case MRC_PKT_PROBE_REPLY:
      AddProbeFields(pkt.probe, f);
      break;
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      AddSynFields(pkt.syn, f);
      break;
    case MRC_PKT_FIN:
      f.emplace_back("end_psn", pkt.fin_end_psn);
      break;
    case MRC_PKT_RST:
      f.emplace_back("reason", pkt.rst_reason);
      break;
    default:
      break;
  }
  return f;
}

Bytes Payload(const mrc_pkt& pkt) {
  if (pkt.payload == nullptr) {
    return {};
  }
  return {pkt.payload, pkt.payload + pkt.payload_len};
}

void ExpectSamePacket(const mrc_pkt& want, const mrc_pkt& got) {
  EXPECT_EQ(Fields(want), Fields(got));
  EXPECT_EQ(Payload(want), Payload(got));
}

// Parses `bytes`; the drop reason's name makes failures readable.
std::string ParseReason(const Bytes& bytes) {
  mrc_pkt pkt = Zeroed();
  return mrc_drop_reason_name(Parse(bytes, &pkt));
}

std::string Name(int reason) { return mrc_drop_reason_name(reason); }

// ---- every packet type -------------------------------------------------

const char* TypeName(int type) {
  static constexpr std::array<const char*, __MRC_PKT_MAX> kNames = {
      "none", "data", "sack", "nack", "probe", "probe_reply", "syn", "syn_ack", "fin", "rst"};
  return kNames.at(static_cast<size_t>(type));
}

class WireType : public ::testing::TestWithParam<int> {
 protected:
  [[nodiscard]] static uint8_t type() { return static_cast<uint8_t>(GetParam()); }
};

TEST_P(WireType, RoundTrip) {
  const mrc_pkt want = Sample(type());
  const Bytes bytes = BuildOk(want);
  ASSERT_EQ(bytes.size(), kHdr + FixedBody(type()) +
                              (IsSyn(type()) ? 3 * sizeof(mrc_wire_plane) : 0) +
                              (type() == MRC_PKT_DATA ? kPayload.size() : 0));
  mrc_pkt got = Zeroed();
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(Parse(bytes, &got)));
  ExpectSamePacket(want, got);
}

TEST_P(WireType, RoundTripWith24BitPsns) {
  const mrc_pkt want = Sample24(type());
  const Bytes bytes = BuildOk(want);
  mrc_pkt got = Zeroed();
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(Parse(bytes, &got)));
  ExpectSamePacket(want, got);
}

TEST_P(WireType, ReservedBytesAreWrittenZeroAndIgnored) {
  const mrc_pkt want = Sample(type());
  Bytes bytes = BuildOk(want);
  for (size_t off : ReservedOffsets(type())) {
    EXPECT_EQ(bytes.at(off), 0) << "reserved byte at offset " << off;
    bytes.at(off) = 0xff;
  }
  mrc_pkt got = Zeroed();
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(Parse(bytes, &got)));
  ExpectSamePacket(want, got);
}

// The reason for a prefix of `needed` (header + body) bytes whose body_len
// was fixed up to match: the body lacks bytes, or DATA lacks (some) payload.
int TruncatedReason(size_t len, size_t needed) {
  if (len < needed) {
    return MRC_DROP_SHORT;
  }
  return len == needed ? MRC_DROP_MALFORMED : MRC_DROP_NONE;
}

// Every prefix of a valid packet: shorter than the header is "short"; with
// the original body_len it is "length"; with body_len fixed up to match it
// is "short" while the body lacks bytes its type requires.
// `full` cut to `len` bytes, parsed as it is and with body_len fixed up.
void ExpectTruncationDropped(const Bytes& full, size_t len, size_t needed) {
  SCOPED_TRACE("truncated to " + std::to_string(len) + " of " + std::to_string(full.size()));
  Bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len));
  if (len < kHdr) {
    EXPECT_EQ(Name(MRC_DROP_SHORT), ParseReason(cut));
    return;
  }
  EXPECT_EQ(Name(MRC_DROP_LENGTH), ParseReason(cut));
  SetBodyLen(cut, len - kHdr);
  EXPECT_EQ(Name(TruncatedReason(len, needed)), ParseReason(cut));
}

TEST_P(WireType, EveryTruncationIsDropped) {
  const mrc_pkt pkt = Sample(type());
  const Bytes full = BuildOk(pkt);
  const size_t planes = IsSyn(type()) ? pkt.syn.nplanes : 0;
  const size_t needed = kHdr + FixedBody(type()) + planes * sizeof(mrc_wire_plane);
  for (size_t len = 0; len < full.size(); len++) {
    ExpectTruncationDropped(full, len, needed);
  }
  EXPECT_EQ(Name(MRC_DROP_NONE), ParseReason(full));
}

TEST_P(WireType, ZeroSourceTokenIsDropped) {
  mrc_pkt pkt = Sample(type());
  Bytes bytes = BuildOk(pkt);
  std::memset(&bytes[offsetof(mrc_hdr, src_token)], 0, sizeof(mrc_hdr::src_token));
  EXPECT_EQ(Name(MRC_DROP_TOKEN), ParseReason(bytes));
  pkt.src_token = 0;
  EXPECT_TRUE(Build(pkt).empty());
}

// SYN alone cannot know the receiver's token; everything else must carry it.
// Every packet but a SYN names its receiver; a SYN's dst_token is 0 or the
// token it proposes for the server (early data): either is fine.
TEST_P(WireType, DestinationTokenZeroOnlyInSyn) {
  for (const uint32_t token : {0U, 1U}) {
    mrc_pkt pkt = Sample(type());
    Bytes bytes = BuildOk(pkt);
    std::memset(&bytes[offsetof(mrc_hdr, dst_token)], 0, sizeof(mrc_hdr::dst_token));
    bytes[offsetof(mrc_hdr, dst_token) + 3] = static_cast<uint8_t>(token);
    pkt.dst_token = token;
    if (type() == MRC_PKT_SYN || token != 0) {
      EXPECT_EQ(Name(MRC_DROP_NONE), ParseReason(bytes)) << token;
      EXPECT_FALSE(Build(pkt).empty()) << token;
    } else {
      EXPECT_EQ(Name(MRC_DROP_TOKEN), ParseReason(bytes));
      EXPECT_TRUE(Build(pkt).empty());
    }
  }
}

TEST_P(WireType, WrongVersionIsDropped) {
  Bytes bytes = BuildOk(Sample(type()));
  for (int version : {0, 2, 15}) {
    bytes[0] = static_cast<uint8_t>(version << 4 | type());
    EXPECT_EQ(Name(MRC_DROP_VERSION), ParseReason(bytes)) << "version " << version;
  }
}

TEST_P(WireType, BodyLengthMismatchIsDropped) {
  const Bytes good = BuildOk(Sample(type()));
  for (long delta : {-1L, 1L, 0x100L}) {
    Bytes bytes = good;
    SetBodyLen(bytes, static_cast<size_t>(static_cast<long>(good.size() - kHdr) + delta));
    EXPECT_EQ(Name(MRC_DROP_LENGTH), ParseReason(bytes)) << "body_len off by " << delta;
  }
  Bytes longer = good;
  longer.push_back(0);  // the datagram has a byte body_len does not count
  EXPECT_EQ(Name(MRC_DROP_LENGTH), ParseReason(longer));
}

// Anything after a fixed-size body is refused (DATA's is its payload).
TEST_P(WireType, TrailingBytesAfterBody) {
  Bytes bytes = BuildOk(Sample(type()));
  bytes.push_back(0x42);
  SetBodyLen(bytes, bytes.size() - kHdr);
  const int want = type() == MRC_PKT_DATA ? MRC_DROP_NONE : MRC_DROP_MALFORMED;
  EXPECT_EQ(Name(want), ParseReason(bytes));
}

TEST_P(WireType, BuildIntoTooSmallBufferWritesNothing) {
  const mrc_pkt pkt = Sample(type());
  const size_t need = BuildOk(pkt).size() - pkt.payload_len;
  GuardedArena arena(need);
  uint8_t* buf = arena.Tail(need);
  std::memset(buf, 0x5a, need);
  for (size_t len = 0; len < need; len++) {
    EXPECT_EQ(0U, mrc_wire_build(&pkt, buf + need - len, static_cast<u32>(len))) << len;
  }
  for (size_t i = 0; i < need; i++) {
    ASSERT_EQ(buf[i], 0x5a) << "byte " << i << " written";
  }
  // exactly enough room, ending at the guard page
  EXPECT_EQ(need, mrc_wire_build(&pkt, buf, static_cast<u32>(need)));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, WireType,
                         ::testing::Range(int{MRC_PKT_DATA}, int{__MRC_PKT_MAX}),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                           return std::string(TypeName(param_info.param));
                         });

// ---- byte-exact layouts ------------------------------------------------

TEST(WireBytes, DataMatchesHandWrittenBytes) {
  mrc_pkt pkt = Zeroed();
  pkt.type = MRC_PKT_DATA;
  pkt.flags = MRC_F_SOM | MRC_F_ACK_NOW;
  pkt.dst_token = 0x11223344;
  pkt.src_token = 0x55667788;
  pkt.ev = 0x0000beef;
  pkt.data = {.psn = 0x00abcdef, .tsval = 0x01020304, .plane = 3};
  static constexpr std::array<uint8_t, 3> kHi = {'h', 'i', '!'};
  pkt.payload = kHi.data();
  pkt.payload_len = static_cast<u32>(kHi.size());
  const Bytes want = {
      0x11, 0x0a, 0x00, 0x0f,  // version 1, DATA; SOM|ACK_NOW; body_len 12 + 3
      0x11, 0x22, 0x33, 0x44,  // dst_token
      0x55, 0x66, 0x77, 0x88,  // src_token
      0x00, 0x00, 0xbe, 0xef,  // ev
      0x00, 0xab, 0xcd, 0xef,  // psn
      0x01, 0x02, 0x03, 0x04,  // tsval
      0x00, 0x03, 0x00, 0x00,  // plane, reserved
      'h',  'i',  '!',         // payload
  };
  EXPECT_EQ(want, Build(pkt));
  mrc_pkt got = Zeroed();
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(Parse(want, &got)));
  ExpectSamePacket(pkt, got);
}

TEST(WireBytes, SackMatchesHandWrittenBytes) {
  mrc_pkt pkt = Zeroed();
  pkt.type = MRC_PKT_SACK;
  pkt.flags = MRC_F_PSN24;
  pkt.dst_token = 0xa1a2a3a4;
  pkt.src_token = 0xb1b2b3b4;
  pkt.ev = 0x00001234;
  pkt.sack = {.cum_psn = 0x000102,
              .sack_base = 0x000100,
              .bitmap = 0x8000000000000005ULL,
              .trig_psn = 0x00013f,
              .echo_ev = 0x0000c0de,
              .ts_echo = 0xdeadbeef,
              .rwnd = 0x00100000,
              .rcv_bytes = 0x12345678,
              .ooo_count = 0x0102,
              .ce_count = 7,
              .cc_flags = MRC_SACK_CE,
              .plane_up = 0x000b};
  const Bytes want = {
      0x12, 0x01, 0x00, 0x30,                          // version 1, SACK; PSN24; body_len 48
      0xa1, 0xa2, 0xa3, 0xa4,                          // dst_token
      0xb1, 0xb2, 0xb3, 0xb4,                          // src_token
      0x00, 0x00, 0x12, 0x34,                          // ev
      0x00, 0x00, 0x01, 0x02,                          // cum_psn
      0x00, 0x00, 0x01, 0x00,                          // sack_base
      0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,  // bitmap
      0x00, 0x00, 0x01, 0x3f,                          // trig_psn
      0x00, 0x00, 0xc0, 0xde,                          // echo_ev
      0xde, 0xad, 0xbe, 0xef,                          // ts_echo
      0x00, 0x10, 0x00, 0x00,                          // rwnd
      0x12, 0x34, 0x56, 0x78,                          // rcv_bytes
      0x01, 0x02, 0x07, 0x01,                          // ooo_count, ce_count, cc_flags
      0x00, 0x0b, 0x00, 0x00,                          // plane_up, reserved
      0x00, 0x00, 0x00, 0x00,                          // reserved2
  };
  EXPECT_EQ(want, Build(pkt));
  mrc_pkt got = Zeroed();
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(Parse(want, &got)));
  ExpectSamePacket(pkt, got);
}

TEST(WireBytes, UapiStructSizes) {
  EXPECT_EQ(16U, sizeof(mrc_hdr));
  EXPECT_EQ(12U, sizeof(mrc_data));
  EXPECT_EQ(48U, sizeof(mrc_sack));
  EXPECT_EQ(16U, sizeof(mrc_nack));
  EXPECT_EQ(12U, sizeof(mrc_probe));
  EXPECT_EQ(24U, sizeof(mrc_wire_plane));
  EXPECT_EQ(20U, sizeof(mrc_syn));
  EXPECT_EQ(4U, sizeof(mrc_fin));
  EXPECT_EQ(4U, sizeof(mrc_rst));
  EXPECT_EQ(16U + 20U + 16U * 24U, MRC_WIRE_MAX_HDR);
}

// ---- individual drop rules ---------------------------------------------

TEST(WireDrop, UnknownTypes) {
  Bytes bytes = BuildOk(Sample(MRC_PKT_RST));
  for (int type : {0, int{__MRC_PKT_MAX}, 15}) {
    bytes[0] = static_cast<uint8_t>(MRC_WIRE_VERSION << 4 | type);
    EXPECT_EQ(Name(MRC_DROP_TYPE), ParseReason(bytes)) << "type " << type;
    mrc_pkt pkt = Sample(MRC_PKT_RST);
    pkt.type = static_cast<uint8_t>(type);
    EXPECT_TRUE(Build(pkt).empty()) << "type " << type;
  }
}

TEST(WireDrop, DatagramLongerThanBodyLenCanSay) {
  mrc_pkt pkt = Sample(MRC_PKT_DATA);
  const Bytes big_payload(0x10000 - sizeof(mrc_data), 0x77);
  pkt.payload = big_payload.data();
  pkt.payload_len = static_cast<u32>(big_payload.size());
  EXPECT_TRUE(Build(pkt).empty()) << "body_len would overflow 16 bits";

  pkt.payload_len--;  // body_len 0xffff
  Bytes bytes = BuildOk(pkt);
  ASSERT_EQ(kHdr + 0xffff, bytes.size());
  mrc_pkt got = Zeroed();
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(Parse(bytes, &got)));
  EXPECT_EQ(pkt.payload_len, got.payload_len);

  bytes.push_back(0x77);
  EXPECT_EQ(Name(MRC_DROP_LENGTH), ParseReason(bytes));
}

TEST(WireDrop, DataWithoutPayload) {
  mrc_pkt pkt = Sample(MRC_PKT_DATA);
  pkt.payload_len = 0;
  EXPECT_TRUE(Build(pkt).empty());
  pkt.payload_len = 1;
  Bytes bytes = BuildOk(pkt);
  bytes.pop_back();
  SetBodyLen(bytes, sizeof(mrc_data));
  EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes));
}

// mrc_wire_parse_head(): a DATA packet whose payload is not in the head
// (an skb's pages) parses from its header alone; nothing else does.
TEST(WireHead, DataPayloadOutsideTheHead) {
  const Bytes bytes = BuildOk(Sample(MRC_PKT_DATA));
  const auto len = static_cast<u32>(bytes.size());
  const u32 head = mrc_wire_head_len(MRC_PKT_DATA, len);
  ASSERT_EQ(kHdr + sizeof(mrc_data), head);
  mrc_pkt got = Zeroed();
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(mrc_wire_parse_head(bytes.data(), head, len, &got)));
  EXPECT_EQ(nullptr, got.payload);
  EXPECT_EQ(kPayload.size(), got.payload_len);
  EXPECT_EQ(0x89abcdefU, got.data.psn);
  EXPECT_EQ(nullptr, got.buf);
  // The whole packet in the head: the payload is found there.
  ASSERT_EQ(Name(MRC_DROP_NONE), Name(mrc_wire_parse_head(bytes.data(), len, len, &got)));
  EXPECT_EQ(bytes.data() + head, got.payload);
  // One byte of the DATA header missing from the head.
  EXPECT_EQ(Name(MRC_DROP_SHORT), Name(mrc_wire_parse_head(bytes.data(), head - 1, len, &got)));
  EXPECT_EQ(Name(MRC_DROP_SHORT), Name(mrc_wire_parse_head(bytes.data(), len + 1, len, &got)));
}

TEST(WireHead, ControlPacketsMustBeWhole) {
  for (const uint8_t type : {MRC_PKT_SACK, MRC_PKT_NACK, MRC_PKT_FIN, MRC_PKT_SYN}) {
    SCOPED_TRACE(TypeName(type));
    const Bytes bytes = BuildOk(Sample(type));
    const auto len = static_cast<u32>(bytes.size());
    EXPECT_EQ(len, mrc_wire_head_len(type, len));
    mrc_pkt got = Zeroed();
    EXPECT_EQ(Name(MRC_DROP_SHORT), Name(mrc_wire_parse_head(bytes.data(), len - 1, len, &got)));
    EXPECT_EQ(Name(MRC_DROP_NONE), Name(mrc_wire_parse_head(bytes.data(), len, len, &got)));
  }
}

// A be16 plane id at body offset `off` of `good`: 15 is the largest id;
// `bad` is `good` with plane id 16, which the builder refuses.
void ExpectPlaneIdChecked(const mrc_pkt& good, size_t off, const mrc_pkt& bad) {
  SCOPED_TRACE(TypeName(good.type));
  Bytes bytes = BuildOk(good);
  off += kHdr;
  bytes[off + 1] = MRC_WIRE_MAX_PLANES - 1;
  EXPECT_EQ(Name(MRC_DROP_NONE), ParseReason(bytes));
  bytes[off + 1] = MRC_WIRE_MAX_PLANES;
  EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes));
  bytes[off] = 1;
  bytes[off + 1] = 0;
  EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes)) << "plane 256";
  EXPECT_TRUE(Build(bad).empty());
}

TEST(WireDrop, PlaneIdOfData) {
  const mrc_pkt good = Sample(MRC_PKT_DATA);
  mrc_pkt bad = good;
  bad.data.plane = MRC_WIRE_MAX_PLANES;
  ExpectPlaneIdChecked(good, offsetof(mrc_data, plane), bad);
}

TEST(WireDrop, PlaneIdOfProbes) {
  for (uint8_t type : {uint8_t{MRC_PKT_PROBE}, uint8_t{MRC_PKT_PROBE_REPLY}}) {
    const mrc_pkt good = Sample(type);
    mrc_pkt bad = good;
    bad.probe.plane = MRC_WIRE_MAX_PLANES;
    ExpectPlaneIdChecked(good, offsetof(mrc_probe, plane), bad);
  }
}

// SYN and SYN_ACK share their body and its rules.
class WireSyn : public ::testing::TestWithParam<int> {
 protected:
  [[nodiscard]] static uint8_t type() { return static_cast<uint8_t>(GetParam()); }
  static constexpr size_t kCountOffset = kHdr + offsetof(mrc_syn, nplanes);
};

// A SYN advertising planes 0 .. n - 1.
mrc_pkt SynWithPlanes(uint8_t type, uint8_t n) {
  mrc_pkt pkt = Sample(type);
  pkt.syn.nplanes = n;
  uint8_t id = 0;
  for (mrc_core_plane& pl : std::span(pkt.syn.planes).first(n)) {
    pl = Plane(id++, MRC_PLANE_F_V4, 4797);
  }
  return pkt;
}

TEST_P(WireSyn, EveryPlaneCountRoundTrips) {
  for (uint8_t n = 1; n <= MRC_WIRE_MAX_PLANES; n++) {
    SCOPED_TRACE(std::to_string(n) + " planes");
    const mrc_pkt pkt = SynWithPlanes(type(), n);
    const Bytes bytes = BuildOk(pkt);
    EXPECT_EQ(kHdr + sizeof(mrc_syn) + n * sizeof(mrc_wire_plane), bytes.size());
    mrc_pkt got = Zeroed();
    ASSERT_EQ(Name(MRC_DROP_NONE), Name(Parse(bytes, &got)));
    ExpectSamePacket(pkt, got);
  }
}

TEST_P(WireSyn, PlaneCountOutOfRangeIsNotBuilt) {
  for (int n : {0, MRC_WIRE_MAX_PLANES + 1, 255}) {
    mrc_pkt pkt = SynWithPlanes(type(), MRC_WIRE_MAX_PLANES);
    pkt.syn.nplanes = static_cast<uint8_t>(n);
    EXPECT_TRUE(Build(pkt).empty()) << n << " planes";
  }
}

TEST_P(WireSyn, PlaneCountDisagreesWithBody) {
  Bytes bytes = BuildOk(Sample(type()));  // 3 planes
  bytes[kCountOffset] = 2;
  EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes)) << "a plane more than announced";
  bytes[kCountOffset] = 4;
  EXPECT_EQ(Name(MRC_DROP_SHORT), ParseReason(bytes)) << "a plane less than announced";
}

TEST_P(WireSyn, PlaneCountOutOfRangeIsDropped) {
  const Bytes good = BuildOk(Sample(type()));
  for (int n : {0, MRC_WIRE_MAX_PLANES + 1}) {
    Bytes bytes = good;
    bytes[kCountOffset] = static_cast<uint8_t>(n);
    EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes)) << n << " planes";
    // and followed by that many planes' worth of bytes
    bytes.resize(kHdr + sizeof(mrc_syn) + static_cast<size_t>(n) * sizeof(mrc_wire_plane), 0);
    SetBodyLen(bytes, bytes.size() - kHdr);
    EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes)) << n << " planes, all present";
  }
}

TEST_P(WireSyn, SocketType) {
  const Bytes good = BuildOk(Sample(type()));
  for (int sock_type : {0, 1, 2, 3, 255}) {
    Bytes bytes = good;
    bytes[kHdr + offsetof(mrc_syn, sock_type)] = static_cast<uint8_t>(sock_type);
    const bool ok = sock_type == MRC_SYN_STREAM || sock_type == MRC_SYN_SEQPACKET;
    EXPECT_EQ(Name(ok ? MRC_DROP_NONE : MRC_DROP_MALFORMED), ParseReason(bytes))
        << "sock_type " << sock_type;
  }
  mrc_pkt pkt = Sample(type());
  pkt.syn.sock_type = 3;
  EXPECT_TRUE(Build(pkt).empty());
}

TEST_P(WireSyn, SmallestMss) {
  const mrc_pkt good = Sample(type());
  for (int mss : {0, 1, 63, 64, 65535}) {
    Bytes bytes = BuildOk(good);
    bytes[kHdr + offsetof(mrc_syn, mss)] = static_cast<uint8_t>(mss >> 8);
    bytes[kHdr + offsetof(mrc_syn, mss) + 1] = static_cast<uint8_t>(mss);
    const bool ok = mss >= 64;
    EXPECT_EQ(Name(ok ? MRC_DROP_NONE : MRC_DROP_MALFORMED), ParseReason(bytes)) << "mss " << mss;
    mrc_pkt pkt = good;
    pkt.syn.mss = static_cast<uint16_t>(mss);
    EXPECT_EQ(ok, !Build(pkt).empty()) << "mss " << mss;
  }
}

INSTANTIATE_TEST_SUITE_P(SynTypes, WireSyn, ::testing::Values(MRC_PKT_SYN, MRC_PKT_SYN_ACK),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                           return std::string(TypeName(param_info.param));
                         });

TEST(WireDrop, SynPlaneFields) {
  const size_t plane1 = kHdr + sizeof(mrc_syn) + sizeof(mrc_wire_plane);
  const mrc_pkt good = Sample(MRC_PKT_SYN);
  struct Case {
    const char* what;
    size_t offset;
    uint8_t value;
  };
  const std::array<Case, 8> cases = {{
      {"no address family", offsetof(mrc_wire_plane, flags), 0},
      {"unknown flag", offsetof(mrc_wire_plane, flags), 0x04},
      {"V4 and unknown flag", offsetof(mrc_wire_plane, flags), MRC_PLANE_F_V4 | 0x80},
      {"V6 and unknown flag", offsetof(mrc_wire_plane, flags), MRC_PLANE_F_V6 | 0x08},
      {"plane id 16", offsetof(mrc_wire_plane, plane), MRC_WIRE_MAX_PLANES},
      {"plane id 255", offsetof(mrc_wire_plane, plane), 255},
      {"same id as plane 0", offsetof(mrc_wire_plane, plane), good.syn.planes[0].id},
      {"same id as plane 2", offsetof(mrc_wire_plane, plane), good.syn.planes[2].id},
  }};
  for (const Case& c : cases) {
    Bytes bytes = BuildOk(good);
    bytes[plane1 + c.offset] = c.value;
    EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes)) << c.what;
  }
  Bytes bytes = BuildOk(good);
  bytes[plane1 + offsetof(mrc_wire_plane, udp_port)] = 0;
  bytes[plane1 + offsetof(mrc_wire_plane, udp_port) + 1] = 0;
  EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes)) << "UDP port 0";

  mrc_pkt pkt = good;
  pkt.syn.planes[1].flags = 0;
  EXPECT_TRUE(Build(pkt).empty());
  pkt = good;
  pkt.syn.planes[1].udp_port = 0;
  EXPECT_TRUE(Build(pkt).empty());
  pkt = good;
  pkt.syn.planes[1].id = good.syn.planes[0].id;
  EXPECT_TRUE(Build(pkt).empty());
}

TEST(WireDrop, NackReasonRange) {
  mrc_pkt pkt = Sample(MRC_PKT_NACK);
  for (int reason = 0; reason <= 255; reason++) {
    pkt.nack.reason = MRC_NACK_TRIMMED;
    Bytes bytes = BuildOk(pkt);
    bytes[kHdr + offsetof(mrc_nack, reason)] = static_cast<uint8_t>(reason);
    const bool ok = reason >= MRC_NACK_TRIMMED && reason <= MRC_NACK_UNEXPECTED;
    EXPECT_EQ(Name(ok ? MRC_DROP_NONE : MRC_DROP_MALFORMED), ParseReason(bytes))
        << "reason " << reason;
    pkt.nack.reason = static_cast<uint8_t>(reason);
    EXPECT_EQ(ok, !Build(pkt).empty()) << "reason " << reason;
  }
}

// A PSN field at body offset `off` of a valid 24-bit `pkt`: 2^24 is fine
// for 32-bit PSNs only; 2^24 - 1 is the largest 24-bit PSN.
void ExpectPsn24Checked(const mrc_pkt& pkt, size_t off) {
  SCOPED_TRACE(std::string(TypeName(pkt.type)) + " body offset " + std::to_string(off));
  Bytes bytes = BuildOk(pkt);
  off += kHdr;
  PutBe32(bytes, off, 0x1000000);
  bytes[offsetof(mrc_hdr, flags)] = static_cast<uint8_t>(pkt.flags & ~MRC_F_PSN24);
  EXPECT_EQ(Name(MRC_DROP_NONE), ParseReason(bytes)) << "32-bit PSNs";
  bytes[offsetof(mrc_hdr, flags)] = pkt.flags;
  EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes)) << "24-bit PSNs";
  PutBe32(bytes, off, 0xffffff);
  EXPECT_EQ(Name(MRC_DROP_NONE), ParseReason(bytes)) << "largest 24-bit PSN";
}

TEST(WireDrop, Psn24Overflow) {
  ExpectPsn24Checked(Sample24(MRC_PKT_DATA), offsetof(mrc_data, psn));
  ExpectPsn24Checked(Sample24(MRC_PKT_SACK), offsetof(mrc_sack, cum_psn));
  ExpectPsn24Checked(Sample24(MRC_PKT_SACK), offsetof(mrc_sack, trig_psn));
  ExpectPsn24Checked(Sample24(MRC_PKT_NACK), offsetof(mrc_nack, psn));
  ExpectPsn24Checked(Sample24(MRC_PKT_NACK), offsetof(mrc_nack, cum_psn));
  ExpectPsn24Checked(Sample24(MRC_PKT_SYN), offsetof(mrc_syn, isn));
  ExpectPsn24Checked(Sample24(MRC_PKT_SYN_ACK), offsetof(mrc_syn, isn));
  ExpectPsn24Checked(Sample24(MRC_PKT_FIN), offsetof(mrc_fin, end_psn));
}

// sack_base: the largest 24-bit value is the last multiple of 64.
TEST(WireDrop, Psn24OverflowOfSackBase) {
  Bytes bytes = BuildOk(Sample24(MRC_PKT_SACK));
  const size_t base = kHdr + offsetof(mrc_sack, sack_base);
  PutBe32(bytes, base, 0xffffc0);
  EXPECT_EQ(Name(MRC_DROP_NONE), ParseReason(bytes));
  PutBe32(bytes, base, 0x1000000);
  EXPECT_EQ(Name(MRC_DROP_MALFORMED), ParseReason(bytes));
}

TEST(WireDrop, Psn24OverflowIsNotBuilt) {
  mrc_pkt pkt = Sample24(MRC_PKT_DATA);
  pkt.data.psn = 0x1000000;
  EXPECT_TRUE(Build(pkt).empty());
  pkt.data.psn = 0xffffff;
  EXPECT_FALSE(Build(pkt).empty());
  pkt = Sample24(MRC_PKT_SACK);
  pkt.sack.trig_psn = 0x1000000;
  EXPECT_TRUE(Build(pkt).empty());
}

TEST(WireDrop, SackBaseMustBeMultipleOf64) {
  mrc_pkt pkt = Sample(MRC_PKT_SACK);
  for (uint32_t base : {0U, 64U, 128U, 0xffffffc0U, 1U, 32U, 63U, 65U, 0xffffffffU}) {
    pkt.sack.sack_base = 0;
    Bytes bytes = BuildOk(pkt);
    PutBe32(bytes, kHdr + offsetof(mrc_sack, sack_base), base);
    const bool ok = base % 64 == 0;
    EXPECT_EQ(Name(ok ? MRC_DROP_NONE : MRC_DROP_MALFORMED), ParseReason(bytes)) << base;
    pkt.sack.sack_base = base;
    EXPECT_EQ(ok, !Build(pkt).empty()) << base;
  }
}

TEST(WireDrop, ShortHeaderBeforeAnythingElse) {
  // a datagram too short for the header is "short" even if its first byte
  // would already be a bad version
  const Bytes bytes = {0xf0, 0x00, 0x00};
  EXPECT_EQ(Name(MRC_DROP_SHORT), ParseReason(bytes));
  EXPECT_EQ(Name(MRC_DROP_SHORT), ParseReason(Bytes{}));
}

// ---- names and PSN arithmetic -------------------------------------------

TEST(WireNames, DropReasonNames) {
  const std::array<const char*, MRC_DROP_MAX> want = {
      "none",  "short",      "version",   "type",      "length", "malformed", "no-conn", "token",
      "state", "psn-window", "duplicate", "no-buffer", "plane",  "ack",       "csum"};
  std::set<std::string> seen;
  for (int reason = 0; reason < MRC_DROP_MAX; reason++) {
    EXPECT_STREQ(want.at(static_cast<size_t>(reason)), mrc_drop_reason_name(reason));
    seen.insert(mrc_drop_reason_name(reason));
  }
  EXPECT_EQ(size_t{MRC_DROP_MAX}, seen.size()) << "names must be distinct";
  for (int reason : {-1, int{MRC_DROP_MAX}, 1000}) {
    EXPECT_STREQ("unknown", mrc_drop_reason_name(reason)) << reason;
  }
}

TEST(WirePsn, Diff24Wraps) {
  EXPECT_EQ(0, mrc_psn_diff(5, 5, true));
  EXPECT_EQ(1, mrc_psn_diff(0xffffff, 0, true));
  EXPECT_EQ(-1, mrc_psn_diff(0, 0xffffff, true));
  EXPECT_EQ(3, mrc_psn_diff(0xfffffe, 1, true));
  EXPECT_EQ(-3, mrc_psn_diff(1, 0xfffffe, true));
  EXPECT_EQ(0x7fffff, mrc_psn_diff(0, 0x7fffff, true));
  EXPECT_EQ(-0x800000, mrc_psn_diff(0, 0x800000, true));
  EXPECT_EQ(-0x7fffff, mrc_psn_diff(0x7fffff, 0, true));
  EXPECT_EQ(0xffffffU, mrc_psn_mask(true));
}

TEST(WirePsn, Diff32Wraps) {
  EXPECT_EQ(1, mrc_psn_diff(0xffffffffU, 0, false));
  EXPECT_EQ(-1, mrc_psn_diff(0, 0xffffffffU, false));
  EXPECT_EQ(3, mrc_psn_diff(0xfffffffeU, 1, false));
  EXPECT_EQ(0x7fffffff, mrc_psn_diff(0, 0x7fffffffU, false));
  EXPECT_EQ(INT32_MIN, mrc_psn_diff(0, 0x80000000U, false));
  // 24-bit neighbours are far apart in 32-bit space
  EXPECT_EQ(-0xffffff, mrc_psn_diff(0xffffff, 0, false));
  EXPECT_EQ(0xffffffffU, mrc_psn_mask(false));
}

// ---- mutated packets ----------------------------------------------------

// A valid packet of a random type with one to three random corruptions:
// a byte overwritten, the datagram cut, or bytes appended; half of the time
// body_len is then fixed up to match so that deeper checks are reached.
Bytes MutatedPacket(std::mt19937& rng) {
  const auto type = static_cast<uint8_t>(MRC_PKT_DATA + rng() % (__MRC_PKT_MAX - MRC_PKT_DATA));
  Bytes bytes = BuildOk(Sample(type));
  const auto mutations = static_cast<unsigned>(1 + rng() % 3);
  for (unsigned m = 0; m < mutations; m++) {
    switch (rng() % 5) {
      case 0:
      case 1:
        bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
        break;
      case 2:
        bytes.resize(std::max<size_t>(1, rng() % (bytes.size() + 1)));
        break;
      case 3:  // a token zeroed: dst_token or src_token
        if (bytes.size() >= kHdr)
          std::memset(&bytes[offsetof(mrc_hdr, dst_token) + 4 * (rng() % 2)], 0, 4);
        break;
      default:
        bytes.resize(bytes.size() + 1 + rng() % 48, static_cast<uint8_t>(rng()));
        break;
    }
  }
  if (bytes.size() >= kHdr && rng() % 2 == 0) {
    SetBodyLen(bytes, bytes.size() - kHdr);
  }
  return bytes;
}

// `got` was parsed from `bytes` (placed in the arena): it must point its
// payload into them and re-encode to them, reserved bytes zeroed.
::testing::AssertionResult ReencodesExactly(const Bytes& bytes, const mrc_pkt& got) {
  if (got.type == MRC_PKT_DATA &&
      got.payload != Arena().Tail(bytes.size()) + bytes.size() - got.payload_len) {
    return ::testing::AssertionFailure() << "payload does not point at the datagram's tail";
  }
  Bytes want = bytes;
  for (size_t off : ReservedOffsets(got.type)) {
    want.at(off) = 0;
  }
  if (Build(got) != want) {
    return ::testing::AssertionFailure() << "re-encoded bytes differ";
  }
  return ::testing::AssertionSuccess();
}

// Random corruptions of valid packets, parsed ending at the guard page: the
// parser only answers reasons it owns, and whatever it accepts re-encodes to
// the very same bytes (reserved bytes aside), so nothing is silently lost.
TEST(WireFuzz, AcceptedPacketsReencodeExactly) {
  std::mt19937 rng(4797);
  const std::set<int> parser_reasons = {MRC_DROP_NONE, MRC_DROP_SHORT,  MRC_DROP_VERSION,
                                        MRC_DROP_TYPE, MRC_DROP_LENGTH, MRC_DROP_MALFORMED,
                                        MRC_DROP_TOKEN};
  std::map<int, int> seen;
  for (int iter = 0; iter < 200000; iter++) {
    const Bytes bytes = MutatedPacket(rng);
    mrc_pkt got = Zeroed();
    const int reason = Parse(bytes, &got);
    seen[reason]++;
    ASSERT_TRUE(parser_reasons.contains(reason)) << Name(reason);
    if (reason == MRC_DROP_NONE) {
      ASSERT_TRUE(ReencodesExactly(bytes, got)) << "iteration " << iter;
    }
  }
  // the corpus must exercise both sides of the parser
  for (int reason : {MRC_DROP_NONE, MRC_DROP_SHORT, MRC_DROP_VERSION, MRC_DROP_TYPE,
                     MRC_DROP_LENGTH, MRC_DROP_MALFORMED, MRC_DROP_TOKEN}) {
    EXPECT_GT(seen[reason], 100) << Name(reason);
  }
}

}  // namespace

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
