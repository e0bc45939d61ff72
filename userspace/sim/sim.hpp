// SPDX-License-Identifier: GPL-2.0
// The simulator: the engine, the fabric, the endpoints and the flows of
// one run, and the dispatch of every event. Endpoints are created when
// their flow starts and their cores destroyed when it ends, so memory
// follows the flows open at once, not the flows of the whole run.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "config.hpp"
#include "endpoint.hpp"
#include "engine.hpp"
#include "fabric.hpp"
#include "packet.hpp"

struct mrc_pkt;

namespace mrc_sim {

class Tracer;

// What a flow's connection counted, kept small: a run holds a million.
struct FlowStats {
  uint32_t retx_pkts = 0;
  uint32_t rto_count = 0;
  uint32_t fast_retx = 0;
  uint32_t tail_probes = 0;
  uint32_t early_data_bytes = 0;  // sent before the SYN_ACK
  uint32_t early_refused = 0;     // RSTs: early DATA that beat the SYN
  uint32_t nacks_rx = 0;
  uint32_t ce_echoed = 0;
  uint32_t probes_tx = 0;
  uint32_t ev_state_changes = 0;
  uint32_t longest_stall_us = 0;
  uint32_t receiver_nacks_tx = 0;
  uint32_t receiver_sacks_tx = 0;
  uint32_t receiver_trimmed = 0;                        // trimmed DATA the receiver NACKed
  std::array<uint32_t, MRC_DROP_MAX> receiver_drops{};  // by enum mrc_drop_reason
};

struct Flow {
  uint32_t src = 0;
  uint32_t dst = 0;
  uint64_t bytes = 0;
  uint32_t after = UINT32_MAX;  // starts once this flow is received (else at once)
  uint32_t then = UINT32_MAX;   // the flow that waits for this one
  uint32_t client_ep = UINT32_MAX;
  uint32_t server_ep = UINT32_MAX;
  Time start = 0;
  Time rx_done = 0;  // every byte received (0: not yet)
  Time end = 0;      // both ends DONE, or failed
  bool started = false;
  bool finished = false;
  bool failed = false;
  int error = 0;
  bool corrupt = false;  // a byte wrong, twice or out of order
  uint64_t received = 0;
  FlowStats st;          // at the end
  uint32_t bad_evs = 0;  // client EVs ASSUMED_BAD at the end
};

struct RunTotals {
  uint64_t flows_done = 0;
  uint64_t flows_failed = 0;
  uint64_t flows_unfinished = 0;
  uint64_t corrupt = 0;
  uint64_t bytes = 0;  // delivered and checked
  uint64_t retx_pkts = 0;
  uint64_t rto = 0;
  uint64_t drops = 0;
  uint64_t trims = 0;  // DATA packets trimmed by switches
  uint64_t longest_stall_us = 0;
  Time end = 0;    // last flow's rx_done
  Time ideal = 0;  // a lower bound: busiest NIC or leaf, ring steps (IdealTime())
  size_t peak_endpoints = 0;
  size_t peak_core_bytes = 0;
};

class Sim {
 public:
  explicit Sim(const SimCfg& cfg);
  Sim(const Sim&) = delete;
  Sim& operator=(const Sim&) = delete;
  Sim(Sim&&) = delete;
  Sim& operator=(Sim&&) = delete;
  ~Sim();

  void Run();

  const SimCfg& cfg() const { return cfg_; }
  const Engine& engine() const { return engine_; }
  Engine& engine() { return engine_; }
  const Fabric& fabric() const { return fabric_; }
  const std::vector<Flow>& flows() const { return flows_; }
  const RunTotals& totals() const { return totals_; }
  // Time of the last failure or repair action.
  Time last_action() const { return last_action_; }

  // A hook run every `every` ns of simulated time (tests look at the
  // live cores with it).
  void set_hook(std::function<void(Sim&)> fn, Time every) {
    hook_ = std::move(fn);
    hook_every_ = every;
  }
  // The --trace writer (tracer.hpp); nullptr: no trace. Set before Run().
  void set_tracer(Tracer* t) { tracer_ = t; }
  Tracer* tracer() const { return tracer_; }
  // Live endpoints (nullptr once their flow ended).
  const std::vector<std::unique_ptr<Endpoint>>& endpoints() const { return eps_; }

  // For the endpoints' environment.
  uint64_t NowUs() const { return engine_.now() / kUs; }
  void ArmTimer(Endpoint& ep, uint64_t when_us);
  int Xmit(Endpoint& ep, uint32_t plane, uint32_t ev, const void* hdr, uint32_t hdr_len,
           const void* payload, uint32_t payload_len);
  void WakeApp(Endpoint& ep);
  bool TxBusy(Endpoint& ep, uint32_t plane);
  void Delivered(Endpoint& ep);

 private:
  void Dispatch(const Event& ev);
  void OnTimer(uint32_t ep, Time t);
  void OnApp(uint32_t ep);
  void OnTxReady(uint32_t ep, Time t);
  void OnPacket(uint32_t pkt);
  static void OnTrimmed(Endpoint& ep, const Packet& pk);
  void Reset(Endpoint& ep, const mrc_pkt& pkt, uint32_t plane);
  void OnAction(uint32_t idx);
  void StartFlow(uint32_t f);
  void EndFlow(uint32_t f);
  void NextFlowOf(uint32_t host);
  uint32_t NewEndpoint(uint32_t flow, bool client);
  void FillCfg(Endpoint& ep);
  void Summarise();
  Time IdealTime() const;

  SimCfg cfg_;
  Engine engine_;
  PacketPool pool_;
  Fabric fabric_;
  std::vector<std::unique_ptr<Endpoint>> eps_;
  // Per (host, peer host): what its connections learned of the paths
  // there (CoreCfg::peer_paths); nodes stay put, endpoints point at them.
  std::map<uint64_t, PeerRecord> peer_paths_;
  std::vector<uint32_t> live_;  // endpoint ids with a core or waiting for one
  std::vector<Flow> flows_;
  std::vector<std::vector<uint32_t>> queue_;  // per source host: its flows
  std::vector<uint32_t> next_;                // per source host: next in queue_
  std::vector<uint8_t> plane_up_;             // [h * planes + p] as hosts saw it
  size_t open_ = 0;                           // flows started, not finished
  uint64_t ended_ = 0;                        // EndFlow() calls
  Time last_action_ = 0;
  RunTotals totals_;
  std::function<void(Sim&)> hook_;
  Tracer* tracer_ = nullptr;
  Time hook_every_ = 0;
  Time hook_next_ = 0;
};

// Flow list of a workload (workload.cpp).
std::vector<Flow> MakeFlows(const WorkloadCfg& w, uint32_t hosts, uint64_t seed);

}  // namespace mrc_sim
