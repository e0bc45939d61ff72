// SPDX-License-Identifier: GPL-2.0
// The trace_pipe-shaped trace of tracer.hpp.
#include "tracer.hpp"

#include <cinttypes>

#include "endpoint.hpp"

namespace mrc_sim {
namespace {

// The loss reasons of struct mrc_core_trace_info.arg that are the path's
// fault (SACK gap, RTO), as the eBPF program counts them.
constexpr uint32_t kLossRto = 1;

const char* PointName(mrc_core_trace point) {
  switch (point) {
    case MRC_TRACE_TX:
      return "mrc_tx";
    case MRC_TRACE_RX:
      return "mrc_rx";
    case MRC_TRACE_ACK:
      return "mrc_ack";
    case MRC_TRACE_LOSS:
      return "mrc_loss";
    case MRC_TRACE_NACK:
      return "mrc_nack";
  }
  return "mrc_unknown";
}

const char* ActionName(ActKind k) {
  switch (k) {
    case ActKind::kLinkDown:
      return "link-down";
    case ActKind::kLinkUp:
      return "link-up";
    case ActKind::kGray:
      return "gray";
    case ActKind::kHostLinkDown:
      return "host-link-down";
    case ActKind::kHostLinkUp:
      return "host-link-up";
    case ActKind::kLeafDown:
      return "leaf-down";
    case ActKind::kLeafUp:
      return "leaf-up";
    case ActKind::kSpineDown:
      return "spine-down";
    case ActKind::kSpineUp:
      return "spine-up";
    case ActKind::kPortDown:
      return "port-down";
    case ActKind::kPortUp:
      return "port-up";
  }
  return "unknown";
}

void Count(TmCounters& c, mrc_core_trace point, const mrc_core_trace_info& info) {
  switch (point) {
    case MRC_TRACE_TX:
      c.tx_pkts++;
      c.tx_bytes += info.len;
      c.retx_pkts += info.arg != 0 ? 1 : 0;
      break;
    case MRC_TRACE_RX:
      c.rx_pkts++;
      c.rx_bytes += info.len;
      c.rx_ce += info.ce ? 1 : 0;
      break;
    case MRC_TRACE_ACK:
      c.acked_pkts++;
      break;
    case MRC_TRACE_LOSS:
      if (info.arg <= kLossRto) {
        c.losses++;
        c.rto_losses += info.arg == kLossRto ? 1 : 0;
      }
      break;
    case MRC_TRACE_NACK:
      c.nacks++;
      break;
  }
}

uint32_t Token(const Endpoint& ep) { return ep.core ? mrc_core_token(ep.core.get()) : 0; }

}  // namespace

void Tracer::Head(uint32_t host, Time now, const char* event) {
  std::fprintf(out_, "mrc-netsim-%u [000] ..... %" PRIu64 ".%09" PRIu64 ": %s: ", host,
               now / 1000000000, now % 1000000000, event);
}

void Tracer::Fields(std::FILE* out, const TmCounters& c) {
  std::fprintf(out,
               "tx_pkts=%" PRIu64 " tx_bytes=%" PRIu64 " retx_pkts=%" PRIu64 " acked_pkts=%" PRIu64
               " losses=%" PRIu64 " rto_losses=%" PRIu64 " nacks=%" PRIu64 " rx_pkts=%" PRIu64
               " rx_bytes=%" PRIu64 " rx_ce=%" PRIu64 "\n",
               c.tx_pkts, c.tx_bytes, c.retx_pkts, c.acked_pkts, c.losses, c.rto_losses, c.nacks,
               c.rx_pkts, c.rx_bytes, c.rx_ce);
}

void Tracer::Point(const Endpoint& ep, mrc_core_trace point, const mrc_core_trace_info& info,
                   Time now) {
  Head(ep.host, now, PointName(point));
  std::fprintf(out_, "netns=%u conn=%u psn=%u plane=%u ev=%u len=%u rtt_us=%u arg=%u ce=%d\n",
               ep.host, Token(ep), info.psn, info.plane, info.ev, info.len, info.rtt_us, info.arg,
               info.ce ? 1 : 0);
  auto& path = paths_[ep.id][info.ev];
  path.first = info.plane;
  Count(path.second, point, info);
  Count(planes_[{ep.host, info.plane}], point, info);
}

void Tracer::EvState(const Endpoint& ep, uint32_t index, Time now) {
  mrc_core_ev_info info{};
  if (!ep.core || mrc_core_ev_get(ep.core.get(), index, &info) != 0) return;
  Head(ep.host, now, "mrc_ev_state");
  std::fprintf(out_, "netns=%u conn=%u index=%u ev=%u plane=%u state=%u\n", ep.host, Token(ep),
               index, info.value, info.plane, info.state);
}

void Tracer::Fault(const Action& a, Time now) {
  Head(0, now, "mrc_sim_fault");
  std::fprintf(out_, "what=%s plane=%u a=%u b=%u ppm=%u\n", ActionName(a.kind), a.plane, a.a, a.b,
               a.ppm);
}

void Tracer::Carrier(uint32_t host, uint32_t plane, bool up, Time now) {
  Head(host, now, "mrc_sim_carrier");
  std::fprintf(out_, "netns=%u plane=%u up=%d\n", host, plane, up ? 1 : 0);
}

void Tracer::ConnEnd(const Endpoint& ep, Time now) {
  const auto it = paths_.find(ep.id);
  if (it == paths_.end()) return;
  for (const auto& [ev, path] : it->second) {
    Head(ep.host, now, "mrc_path");
    std::fprintf(out_, "netns=%u conn=%u ev=%u plane=%u ", ep.host, Token(ep), ev, path.first);
    Fields(out_, path.second);
  }
  paths_.erase(it);
}

void Tracer::RunEnd(Time now) {
  for (const auto& [key, c] : planes_) {
    Head(key.first, now, "mrc_plane");
    std::fprintf(out_, "netns=%u plane=%u ", key.first, key.second);
    Fields(out_, c);
  }
}

}  // namespace mrc_sim
