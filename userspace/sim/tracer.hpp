// SPDX-License-Identifier: GPL-2.0
// `mrc-netsim --trace`: the run in the module's own vocabulary, so one
// parser reads a simulated run and a real one.
//
// Lines have the shape of /sys/kernel/tracing/trace_pipe:
//   "mrc-netsim-<host> [000] ..... <s>.<ns>: <event>: <fields>"
// with the module's tracepoints (kernel/conn/trace.h: mrc_tx, mrc_rx, mrc_ack,
// mrc_loss, mrc_nack with "netns= conn= psn= plane= ev= len= rtt_us= arg=
// ce=", and mrc_ev_state), netns being the host's index and conn the
// connection's token as mrcctl shows it. Three events are the
// simulator's: mrc_sim_fault (a scheduled failure or repair),
// mrc_sim_carrier (what a host's port sees), and, when a connection ends
// and at the end of the run, mrc_path and mrc_plane lines with the
// counters of the eBPF maps mrc_paths and mrc_planes under their field
// names (struct mrc_tm_path, include/uapi/linux/mrc_telemetry.h), counted
// from the tracepoints the way ebpf/mrc_telemetry.bpf.c counts them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <unordered_map>

extern "C" {
#include "mrc_core.h"
}

#include "config.hpp"
#include "engine.hpp"

namespace mrc_sim {

struct Endpoint;

// The counters of struct mrc_tm_path and struct mrc_tm_plane.
struct TmCounters {
  uint64_t tx_pkts = 0;
  uint64_t tx_bytes = 0;
  uint64_t retx_pkts = 0;
  uint64_t acked_pkts = 0;
  uint64_t losses = 0;
  uint64_t rto_losses = 0;
  uint64_t nacks = 0;
  uint64_t rx_pkts = 0;
  uint64_t rx_bytes = 0;
  uint64_t rx_ce = 0;
};

class Tracer {
 public:
  explicit Tracer(std::FILE* out) : out_(out) {}

  void Point(const Endpoint& ep, mrc_core_trace point, const mrc_core_trace_info& info, Time now);
  void EvState(const Endpoint& ep, uint32_t index, Time now);
  void Fault(const Action& a, Time now);
  void Carrier(uint32_t host, uint32_t plane, bool up, Time now);
  // The connection is going away: its mrc_path lines.
  void ConnEnd(const Endpoint& ep, Time now);
  // The run is over: an mrc_plane line for every host and plane.
  void RunEnd(Time now);

 private:
  void Head(uint32_t host, Time now, const char* event);
  static void Fields(std::FILE* out, const TmCounters& c);

  std::FILE* out_;
  // Per live connection (endpoint id), per EV value: its path counters.
  std::unordered_map<uint32_t, std::map<uint32_t, std::pair<uint32_t, TmCounters>>> paths_;
  std::map<std::pair<uint32_t, uint32_t>, TmCounters> planes_;  // (host, plane)
};

}  // namespace mrc_sim
