// SPDX-License-Identifier: GPL-2.0
// fuzz_wire: the wire parser and builder (kernel/core/wire.c). The input is
// one UDP payload: what the parser accepts must build back to a datagram of
// the same length that parses to the same packet, and building that packet
// again gives the same bytes. The same input, read as packet fields, goes
// through the builder: what it accepts must parse back to the fields.
#include <array>
#include <cstring>

#include "fuzz_harness.hpp"
#include "fuzz_targets.hpp"

extern "C" {
#include "wire.h"
}

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_fuzz {
namespace {

bool SamePlane(const mrc_core_plane& x, const mrc_core_plane& y) {
  return x.id == y.id && x.flags == y.flags && x.udp_port == y.udp_port && x.addr4 == y.addr4 &&
         std::memcmp(x.addr6, y.addr6, sizeof(x.addr6)) == 0;
}

bool SameSyn(const mrc_pkt_syn& x, const mrc_pkt_syn& y) {
  if (x.isn != y.isn || x.rwnd != y.rwnd || x.src_port != y.src_port || x.dst_port != y.dst_port ||
      x.mss != y.mss || x.sock_type != y.sock_type || x.nplanes != y.nplanes ||
      x.ev_count != y.ev_count)
    return false;
  for (uint32_t i = 0; i < x.nplanes && i < MRC_WIRE_MAX_PLANES; i++)
    if (!SamePlane(x.planes[i], y.planes[i])) return false;
  return true;
}

bool SameSack(const mrc_pkt_sack& x, const mrc_pkt_sack& y) {
  return x.cum_psn == y.cum_psn && x.sack_base == y.sack_base && x.bitmap == y.bitmap &&
         x.trig_psn == y.trig_psn && x.echo_ev == y.echo_ev && x.ts_echo == y.ts_echo &&
         x.rwnd == y.rwnd && x.rcv_bytes == y.rcv_bytes && x.ooo_count == y.ooo_count &&
         x.ce_count == y.ce_count && x.cc_flags == y.cc_flags && x.plane_up == y.plane_up;
}

// The fields each type carries on the wire, payload bytes included.
bool SamePkt(const mrc_pkt& x, const mrc_pkt& y) {
  if (x.type != y.type || x.flags != y.flags || x.dst_token != y.dst_token ||
      x.src_token != y.src_token || x.ev != y.ev)
    return false;
  switch (x.type) {
    case MRC_PKT_DATA:
      return x.data.psn == y.data.psn && x.data.tsval == y.data.tsval &&
             x.data.plane == y.data.plane && x.payload_len == y.payload_len &&
             std::memcmp(x.payload, y.payload, x.payload_len) == 0;
    case MRC_PKT_SACK:
      return SameSack(x.sack, y.sack);
    case MRC_PKT_NACK:
      return x.nack.psn == y.nack.psn && x.nack.cum_psn == y.nack.cum_psn &&
             x.nack.echo_ev == y.nack.echo_ev && x.nack.reason == y.nack.reason;
    case MRC_PKT_PROBE:
    case MRC_PKT_PROBE_REPLY:
      return x.probe.probe_id == y.probe.probe_id && x.probe.tsval == y.probe.tsval &&
             x.probe.plane == y.probe.plane && x.probe.plane_up == y.probe.plane_up;
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      return SameSyn(x.syn, y.syn);
    case MRC_PKT_FIN:
      return x.fin_end_psn == y.fin_end_psn;
    case MRC_PKT_RST:
      return x.rst_reason == y.rst_reason;
    default:
      return false;
  }
}

// Build `pkt` (header and body) followed by its payload. Empty: refused.
Bytes BuildDatagram(const mrc_pkt& pkt) {
  std::array<uint8_t, MRC_WIRE_MAX_HDR> hdr{};
  const uint32_t n = mrc_wire_build(&pkt, hdr.data(), static_cast<uint32_t>(hdr.size()));
  if (n == 0) return {};
  Bytes out(hdr.begin(), hdr.begin() + n);
  if (pkt.type == MRC_PKT_DATA && pkt.payload_len != 0)
    out.insert(out.end(), pkt.payload, pkt.payload + pkt.payload_len);
  return out;
}

// Parse, build, parse: both parses agree, and the second build is the first.
void RoundTrip(const uint8_t* data, size_t size) {
  mrc_pkt pkt{};
  const auto len = static_cast<uint32_t>(size);
  const int reason = mrc_wire_parse(data, len, &pkt);
  Check(std::strcmp(mrc_drop_reason_name(reason), "unknown") != 0, "parser gave an unnamed reason");
  if (reason != MRC_DROP_NONE) return;
  if (pkt.type == MRC_PKT_DATA)
    Check(pkt.payload == data + sizeof(mrc_hdr) + sizeof(mrc_data) &&
              pkt.payload_len == size - sizeof(mrc_hdr) - sizeof(mrc_data),
          "DATA payload is not the rest of the datagram");
  const Bytes built = BuildDatagram(pkt);
  Check(!built.empty(), "builder refuses a packet the parser accepted");
  Check(built.size() == size, "rebuilt datagram has another length");
  mrc_pkt again{};
  Check(mrc_wire_parse(built.data(), static_cast<uint32_t>(built.size()), &again) == MRC_DROP_NONE,
        "rebuilt datagram does not parse");
  Check(SamePkt(pkt, again), "parse -> build -> parse changed the packet");
  Check(BuildDatagram(again) == built, "building the same packet twice gave other bytes");
}

// Read a packet's fields from `in` for the builder direction.
mrc_pkt FieldsFrom(ByteReader& in, Bytes& payload) {
  mrc_pkt pkt{};
  pkt.type = static_cast<uint8_t>(in.U8() % 11);  // 0 and 10: unknown types
  pkt.flags = in.U8();
  pkt.dst_token = in.U32();
  pkt.src_token = in.U32();
  pkt.ev = in.U32();
  switch (pkt.type) {
    case MRC_PKT_DATA:
      pkt.data.psn = in.U32();
      pkt.data.tsval = in.U32();
      pkt.data.plane = in.U16();
      payload.resize(in.U16());
      pkt.payload = payload.data();
      pkt.payload_len = static_cast<uint32_t>(payload.size());
      break;
    case MRC_PKT_SACK:
      pkt.sack.cum_psn = in.U32();
      pkt.sack.sack_base = in.U32();
      pkt.sack.bitmap = in.U64();
      pkt.sack.trig_psn = in.U32();
      pkt.sack.echo_ev = in.U32();
      pkt.sack.ts_echo = in.U32();
      pkt.sack.rwnd = in.U32();
      pkt.sack.rcv_bytes = in.U32();
      pkt.sack.ooo_count = in.U16();
      pkt.sack.ce_count = in.U8();
      pkt.sack.cc_flags = in.U8();
      pkt.sack.plane_up = in.U16();
      break;
    case MRC_PKT_NACK:
      pkt.nack.psn = in.U32();
      pkt.nack.cum_psn = in.U32();
      pkt.nack.echo_ev = in.U32();
      pkt.nack.reason = in.U8();
      break;
    case MRC_PKT_PROBE:
    case MRC_PKT_PROBE_REPLY:
      pkt.probe.probe_id = in.U32();
      pkt.probe.tsval = in.U32();
      pkt.probe.plane = in.U16();
      pkt.probe.plane_up = in.U16();
      break;
    case MRC_PKT_SYN:
    case MRC_PKT_SYN_ACK:
      pkt.syn.isn = in.U32();
      pkt.syn.rwnd = in.U32();
      pkt.syn.src_port = in.U16();
      pkt.syn.dst_port = in.U16();
      pkt.syn.mss = in.U16();
      pkt.syn.sock_type = in.U8();
      pkt.syn.nplanes = in.U8();
      pkt.syn.ev_count = in.U16();
      for (auto& pl : pkt.syn.planes) {
        pl.id = in.U8();
        pl.flags = in.U8();
        pl.udp_port = in.U16();
        pl.addr4 = in.U32();
        for (auto& b : pl.addr6) b = in.U8();
      }
      break;
    case MRC_PKT_FIN:
      pkt.fin_end_psn = in.U32();
      break;
    case MRC_PKT_RST:
      pkt.rst_reason = in.U32();
      break;
    default:
      break;
  }
  return pkt;
}

// Build from fields: what the builder takes parses back to those fields.
void BuildParse(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  Bytes payload;
  const mrc_pkt pkt = FieldsFrom(in, payload);
  const Bytes built = BuildDatagram(pkt);
  if (built.empty()) return;
  mrc_pkt parsed{};
  Check(mrc_wire_parse(built.data(), static_cast<uint32_t>(built.size()), &parsed) == MRC_DROP_NONE,
        "the builder emitted a packet the parser drops");
  Check(SamePkt(pkt, parsed), "build -> parse changed the packet");
}

}  // namespace

int FuzzWire(const uint8_t* data, size_t size) {
  RoundTrip(data, size);
  BuildParse(data, size);
  return 0;
}

}  // namespace mrc_fuzz

#ifdef MRC_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mrc_fuzz::FuzzWire(data, size);
}
#endif

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
