// SPDX-License-Identifier: GPL-2.0
// The simulator's run loop, event dispatch, flows and failure actions.
#include "sim.hpp"

#include <algorithm>
#include <array>
#include <cerrno>

#include "kinds.hpp"
#include "pattern.hpp"
#include "tracer.hpp"
#include "wire.h"

// struct mrc_pkt is the C union the kernel shares; its members are the API.
// NOLINTBEGIN(cppcoreguidelines-pro-type-union-access)

namespace mrc_sim {

Sim::Sim(const SimCfg& cfg) : cfg_(cfg), fabric_(cfg.fabric, engine_, pool_, cfg.seed) {
  const FabricCfg& fc = cfg_.fabric;
  ExpandFlaps(cfg_);
  flows_ = MakeFlows(cfg_.workload, fc.hosts, cfg_.seed);
  queue_.resize(fc.hosts);
  next_.assign(fc.hosts, 0);
  // A flow that waits for another is started by it (Delivered()), not by
  // its host's window.
  for (uint32_t f = 0; f < flows_.size(); f++)
    if (flows_[f].after == UINT32_MAX) queue_[flows_[f].src].push_back(f);
  plane_up_.assign(static_cast<size_t>(fc.hosts) * fc.planes, 1);
}

Sim::~Sim() = default;

void Sim::FillCfg(Endpoint& ep) {
  const CoreCfg& c = cfg_.core;
  mrc_core_cfg& k = ep.cfg;
  k.sock_type = MRC_SYN_STREAM;
  k.local_port = static_cast<uint16_t>(ep.client ? 40000 : 7000);
  k.peer_port = static_cast<uint16_t>(ep.client ? 7000 : 0);
  k.mss = c.mss;
  k.ev_count = c.ev_count;
  k.sndbuf = c.sndbuf;
  k.rcvbuf = c.rcvbuf;
  k.user_timeout_ms = c.user_timeout_ms;
  k.rto_min_us = c.rto_min_us;
  k.rto_init_us = c.rto_init_us;
  k.ack_delay_us = c.ack_delay_us;
  k.probe_interval_us = c.probe_interval_us;
  k.cc.target_delay_ns = c.target_delay_ns;
  const uint32_t planes = cfg_.fabric.planes;
  k.nplanes = planes;
  k.plane_up = 0;
  for (uint32_t p = 0; p < planes; p++) {
    k.planes[p].id = static_cast<uint8_t>(p);
    k.planes[p].flags = MRC_PLANE_F_V4;
    k.planes[p].udp_port = 4797;
    k.planes[p].addr4 = 0x0a000000U | p << 16 | ep.host;
    if (fabric_.HostPlaneUp(ep.host, p)) k.plane_up |= 1U << p;
    if (p < c.plane_weight.size()) k.plane_weight[p] = static_cast<uint16_t>(c.plane_weight[p]);
  }
  if (ep.client) k.early_data = c.early_data;
  if (c.peer_paths) {
    // One host is one peer table: many cores share it (one thread).
    ep.record = &peer_paths_[static_cast<uint64_t>(ep.host) << 32 | ep.peer_host];
    ep.record->Unpack(ep.paths);
    k.peer_paths = &ep.paths;
  }
  if (ep.client) {
    // The SYN goes to the peer's first plane this host can use, or with
    // spread_connects to its plane (src + dst) mod P, the first up from
    // there.
    uint32_t first = cfg_.workload.spread_connects ? (ep.host + ep.peer_host) % planes : 0;
    for (uint32_t i = 0; i < planes && (k.plane_up & 1U << first) == 0; i++)
      first = (first + 1) % planes;
    k.peer = k.planes[first];
    k.peer.addr4 = 0x0a000000U | first << 16 | ep.peer_host;
    k.has_peer = true;
  }
}

uint32_t Sim::NewEndpoint(uint32_t flow, bool client) {
  const auto id = static_cast<uint32_t>(eps_.size());
  eps_.push_back(std::make_unique<Endpoint>(this, id, cfg_.seed));
  Endpoint& ep = *eps_.back();
  const Flow& f = flows_[flow];
  ep.flow = flow;
  ep.client = client;
  ep.host = client ? f.src : f.dst;
  ep.peer_host = client ? f.dst : f.src;
  ep.total = f.bytes;
  FillCfg(ep);
  ep.live_pos = live_.size();
  live_.push_back(id);
  totals_.peak_endpoints = std::max(totals_.peak_endpoints, live_.size());
  return id;
}

void Sim::StartFlow(uint32_t fi) {
  Flow& f = flows_[fi];
  f.started = true;
  f.start = engine_.now();
  open_++;
  f.client_ep = NewEndpoint(fi, true);
  f.server_ep = NewEndpoint(fi, false);
  Endpoint& c = *eps_[f.client_ep];
  Endpoint& s = *eps_[f.server_ep];
  c.peer_ep = s.id;
  s.peer_ep = c.id;
  mrc_core_env env = c.Env();
  c.core.reset(mrc_core_create(&c.cfg, &env));
  if (c.core == nullptr || mrc_core_connect(c.core.get()) != 0) {
    f.failed = true;
    f.error = ENOMEM;
    EndFlow(fi);
    return;
  }
  if (c.cfg.early_data != 0) WakeApp(c);  // it writes before the SYN_ACK
}

// Snapshot what the flow tells, free both cores, open the host's next flow.
void Sim::EndFlow(uint32_t fi) {
  Flow& f = flows_[fi];
  if (f.finished) return;
  f.finished = true;
  f.end = engine_.now();
  open_--;
  for (uint32_t id : {f.client_ep, f.server_ep}) {
    Endpoint* ep = eps_[id].get();
    if (ep == nullptr) continue;
    if (ep->error != 0 && !f.failed) {
      f.failed = true;
      f.error = ep->error;
    }
    if (ep->corrupt) f.corrupt = true;
    ep->LearnPaths();
    if (!ep->client) f.received = ep->rcvd;
    if (!ep->client && ep->core != nullptr) {
      mrc_core_stats k{};
      mrc_core_get_stats(ep->core.get(), &k);
      f.st.receiver_nacks_tx = static_cast<uint32_t>(k.nacks_tx);
      f.st.receiver_sacks_tx = static_cast<uint32_t>(k.sacks_tx);
      f.st.receiver_trimmed = static_cast<uint32_t>(k.trimmed_rx);
      for (size_t r = 0; r < f.st.receiver_drops.size(); r++)
        f.st.receiver_drops[r] = static_cast<uint32_t>(k.drops[r]);
    }
    if (ep->client && ep->core != nullptr) {
      mrc_core_stats k{};
      mrc_core_get_stats(ep->core.get(), &k);
      f.st.retx_pkts = static_cast<uint32_t>(k.retx_pkts);
      f.st.rto_count = static_cast<uint32_t>(k.rto_count);
      f.st.fast_retx = static_cast<uint32_t>(k.fast_retx);
      f.st.tail_probes = static_cast<uint32_t>(k.tail_probes);
      f.st.early_data_bytes = static_cast<uint32_t>(k.early_data_bytes);
      f.st.early_refused = static_cast<uint32_t>(k.early_refused);
      f.st.nacks_rx = static_cast<uint32_t>(k.nacks_rx);
      f.st.ce_echoed = static_cast<uint32_t>(k.ce_echoed);
      f.st.probes_tx = static_cast<uint32_t>(k.probes_tx);
      f.st.ev_state_changes = static_cast<uint32_t>(k.ev_state_changes);
      f.st.longest_stall_us = static_cast<uint32_t>(k.longest_stall_us);
      const uint32_t n = mrc_core_ev_count(ep->core.get());
      for (uint32_t i = 0; i < n; i++) {
        mrc_core_ev_info info{};
        if (mrc_core_ev_get(ep->core.get(), i, &info) == 0 && info.state == MRC_EV_ASSUMED_BAD)
          f.bad_evs++;
      }
    }
    if (tracer_ != nullptr) tracer_->ConnEnd(*ep, engine_.now());
    // Swap-remove from the live list (deterministic: same order each run).
    const size_t pos = ep->live_pos;
    live_[pos] = live_.back();
    eps_[live_[pos]]->live_pos = pos;
    live_.pop_back();
    eps_[id].reset();
  }
  // Sample the cores' memory now and then (a walk over every live core).
  if (++ended_ % 64 == 1) {
    size_t mem = 0;
    for (uint32_t l : live_)
      if (eps_[l]->core != nullptr) mem += mrc_core_mem_bytes(eps_[l]->core.get());
    totals_.peak_core_bytes = std::max(totals_.peak_core_bytes, mem);
  }
  if (f.rx_done == 0) NextFlowOf(f.src);  // failed before it freed its slot
}

void Sim::NextFlowOf(uint32_t host) {
  if (next_[host] < queue_[host].size())
    engine_.Schedule(engine_.now(), kEvFlowStart, queue_[host][next_[host]++], 0);
}

void Sim::ArmTimer(Endpoint& ep, uint64_t when_us) {
  ep.timer_when = when_us * kUs;
  if (when_us == 0) return;
  if (ep.timer_sched == 0 || ep.timer_when < ep.timer_sched) {
    ep.timer_sched = std::max(ep.timer_when, engine_.now());
    engine_.Schedule(ep.timer_sched, kEvTimer, ep.id, 0);
  }
}

void Sim::OnTimer(uint32_t id, Time t) {
  Endpoint* ep = eps_[id].get();
  if (ep == nullptr || ep->timer_sched != t) return;  // stale
  ep->timer_sched = 0;
  if (ep->timer_when == 0 || ep->core == nullptr) return;
  if (ep->timer_when > t) {
    ep->timer_sched = ep->timer_when;
    engine_.Schedule(ep->timer_sched, kEvTimer, id, 0);
    return;
  }
  ep->timer_when = 0;
  mrc_core_on_timer(ep->core.get());
}

// Is the host's NIC queue on @plane past host_tsq_bytes? Then the core
// sends nothing new there until it has drained below (kEvTxReady).
bool Sim::TxBusy(Endpoint& ep, uint32_t plane) {
  const uint32_t limit = cfg_.fabric.host_tsq_bytes;
  if (limit == 0 || plane >= cfg_.fabric.planes) return false;
  const Time drained = fabric_.DrainedTo(fabric_.HostUp(plane, ep.host), limit);
  if (drained <= engine_.now()) return false;
  if (ep.tx_ready_at == 0 || drained < ep.tx_ready_at) {
    ep.tx_ready_at = drained;
    engine_.Schedule(drained, kEvTxReady, ep.id, 0);
  }
  return true;
}

void Sim::OnTxReady(uint32_t id, Time t) {
  Endpoint* ep = eps_[id].get();
  if (ep == nullptr || ep->tx_ready_at != t || ep->core == nullptr) return;  // stale
  ep->tx_ready_at = 0;
  mrc_core_tx_ready(ep->core.get());
}

int Sim::Xmit(Endpoint& ep, uint32_t plane, uint32_t ev, const void* hdr, uint32_t hdr_len,
              const void* payload, uint32_t payload_len) {
  if (plane >= cfg_.fabric.planes || !fabric_.HostPlaneUp(ep.host, plane)) return -ENETDOWN;
  const uint32_t id = pool_.Get();
  Packet& pk = pool_[id];
  const auto* h = static_cast<const uint8_t*>(hdr);
  pk.bytes.assign(h, h + hdr_len);
  if (payload_len != 0) {
    const auto* b = static_cast<const uint8_t*>(payload);
    pk.bytes.insert(pk.bytes.end(), b, b + payload_len);
  }
  pk.src_host = ep.host;
  pk.dst_host = ep.peer_host;
  pk.dst_ep = ep.peer_ep;
  pk.ev = ev;
  pk.plane = static_cast<uint8_t>(plane);
  pk.ect = payload_len != 0;
  pk.ce = false;
  pk.trimmed = false;
  fabric_.SendFromHost(id);
  return 0;
}

void Sim::WakeApp(Endpoint& ep) {
  if (ep.app_pending) return;
  ep.app_pending = true;
  engine_.Schedule(engine_.now(), kEvApp, ep.id, 0);
}

void Sim::Delivered(Endpoint& ep) {
  Flow& f = flows_[ep.flow];
  if (ep.rcvd >= ep.total && f.rx_done == 0) {
    f.rx_done = engine_.now();
    NextFlowOf(f.src);
    if (f.then != UINT32_MAX) engine_.Schedule(engine_.now(), kEvFlowStart, f.then, 0);
  }
  WakeApp(ep);
}

void Sim::OnApp(uint32_t id) {
  Endpoint* ep = eps_[id].get();
  if (ep == nullptr) return;
  ep->app_pending = false;
  mrc_core* core = ep->core.get();
  Endpoint* peer = eps_[ep->peer_ep].get();
  const bool peer_over = peer == nullptr || peer->done || peer->error != 0;
  if (ep->error != 0 || (ep->done && peer_over)) {
    EndFlow(ep->flow);
    return;
  }
  if (core == nullptr) return;
  if (ep->unread != 0) {
    ep->unread = 0;
    mrc_core_rcv_space(core, ep->cfg.rcvbuf);
  }
  const auto st = mrc_core_state(core);
  const bool early = st == MRC_CORE_SYN_SENT && ep->cfg.early_data != 0;
  if (ep->client && !ep->closed &&
      (st == MRC_CORE_ESTABLISHED || st == MRC_CORE_CLOSE_WAIT || early)) {
    while (ep->sent < ep->total) {
      const auto want = static_cast<uint32_t>(std::min<uint64_t>(ep->total - ep->sent, 65536));
      const int n = mrc_core_send(
          core, want, 0,
          [](void* arg, void* dst, uint32_t off, uint32_t len) {
            const auto* e = static_cast<const Endpoint*>(arg);
            PatternFill(e->flow, e->sent + off, static_cast<uint8_t*>(dst), len);
            return 0;
          },
          ep);
      if (n <= 0) break;
      ep->sent += static_cast<uint64_t>(n);
    }
    if (ep->sent == ep->total) {
      ep->closed = true;
      mrc_core_close(core);
    }
  }
  if (!ep->client && ep->peer_fin && !ep->closed) {
    ep->closed = true;
    mrc_core_close(core);
  }
}

void Sim::OnPacket(uint32_t id) {
  Packet& pk = pool_[id];
  engine_.Mix(static_cast<uint64_t>(pk.bytes.size()) << 32 | pk.ev);
  Endpoint* ep = pk.dst_ep < eps_.size() ? eps_[pk.dst_ep].get() : nullptr;
  if (pk.trimmed) {
    if (ep != nullptr) OnTrimmed(*ep, pk);
    pool_.Put(id);
    return;
  }
  mrc_pkt pkt{};
  if (ep != nullptr && mrc_wire_parse(pk.bytes.data(), static_cast<uint32_t>(pk.bytes.size()),
                                      &pkt) == MRC_DROP_NONE) {
    if (ep->core == nullptr && !ep->client && pkt.type == MRC_PKT_SYN) {
      mrc_core_env env = ep->Env();
      ep->cfg.token = pkt.dst_token;  // the proposal, as mrc.ko takes it
      ep->core.reset(mrc_core_create(&ep->cfg, &env));
      if (ep->core != nullptr && mrc_core_accept(ep->core.get(), &pkt, pk.plane) != 0)
        ep->core.reset();
    } else if (ep->core != nullptr &&
               (pkt.dst_token == 0 || pkt.dst_token == mrc_core_token(ep->core.get()))) {
      mrc_core_input(ep->core.get(), &pkt, pk.plane, pk.ce);
    } else if (ep->core == nullptr && pkt.type == MRC_PKT_DATA) {
      Reset(*ep, pkt, pk.plane);  // no connection for its token yet
    }
  }
  pool_.Put(id);
}

// The kernel demux's answer to a packet for a token it has no connection
// for (mrc_demux_reset()): an RST with the packet's tokens swapped.
void Sim::Reset(Endpoint& ep, const mrc_pkt& pkt, uint32_t plane) {
  std::array<uint8_t, sizeof(mrc_hdr) + sizeof(mrc_rst)> buf{};
  const uint32_t len = mrc_wire_build_reset(&pkt, buf.data(), buf.size());
  if (len != 0) Xmit(ep, plane, pkt.ev, buf.data(), len, nullptr, 0);
}

// What a switch left of a DATA packet: the receiving core NACKs it, as
// the kernel would on a packet marked trimmed.
void Sim::OnTrimmed(Endpoint& ep, const Packet& pk) {
  if (ep.core == nullptr) return;
  mrc_pkt pkt{};
  const auto len = static_cast<uint32_t>(pk.bytes.size());
  if (mrc_wire_parse_trimmed(pk.bytes.data(), len, &pkt) != MRC_DROP_NONE) return;
  if (pkt.dst_token == mrc_core_token(ep.core.get()))
    mrc_core_input_trimmed(ep.core.get(), &pkt, pk.plane);
}

void Sim::OnAction(uint32_t idx) {
  const Action& a = cfg_.actions[idx];
  const uint32_t p = a.plane;
  last_action_ = engine_.now();
  if (tracer_ != nullptr) tracer_->Fault(a, engine_.now());
  switch (a.kind) {
    case ActKind::kLinkDown:
    case ActKind::kLinkUp:
      fabric_.SetLinkAdmin(fabric_.LeafUp(p, a.a, a.b), a.kind == ActKind::kLinkUp);
      fabric_.SetLinkAdmin(fabric_.SpineDown(p, a.b, a.a), a.kind == ActKind::kLinkUp);
      break;
    case ActKind::kGray:
      fabric_.SetLoss(fabric_.LeafUp(p, a.a, a.b), a.ppm);
      fabric_.SetLoss(fabric_.SpineDown(p, a.b, a.a), a.ppm);
      break;
    case ActKind::kHostLinkDown:
    case ActKind::kHostLinkUp:
      fabric_.SetLinkAdmin(fabric_.HostUp(p, a.a), a.kind == ActKind::kHostLinkUp);
      fabric_.SetLinkAdmin(fabric_.HostDown(p, a.a), a.kind == ActKind::kHostLinkUp);
      break;
    case ActKind::kLeafDown:
    case ActKind::kLeafUp:
      fabric_.SetLeaf(p, a.a, a.kind == ActKind::kLeafUp);
      break;
    case ActKind::kSpineDown:
    case ActKind::kSpineUp:
      fabric_.SetSpine(p, a.a, a.kind == ActKind::kSpineUp);
      break;
    case ActKind::kPortDown:
    case ActKind::kPortUp:
      fabric_.SetHostPort(a.a, p, a.kind == ActKind::kPortUp);
      break;
  }
  // Carrier changes reach every connection of the host, as the kernel's
  // netdev notifier does (mrc_conn_plane_changed()).
  const uint32_t planes = cfg_.fabric.planes;
  for (uint32_t h = 0; h < cfg_.fabric.hosts; h++) {
    for (uint32_t q = 0; q < planes; q++) {
      const bool up = fabric_.HostPlaneUp(h, q);
      uint8_t& seen = plane_up_[static_cast<size_t>(h) * planes + q];
      if (static_cast<bool>(seen) == up) continue;
      seen = up ? 1 : 0;
      if (tracer_ != nullptr) tracer_->Carrier(h, q, up, engine_.now());
      for (uint32_t id : live_) {
        Endpoint& ep = *eps_[id];
        if (ep.host == h && ep.core != nullptr) mrc_core_plane_update(ep.core.get(), q, up);
      }
    }
  }
}

void Sim::Dispatch(const Event& ev) {
  switch (ev.kind) {
    case kEvArrive:
      if (fabric_.Arrive(ev.a, static_cast<uint32_t>(ev.b))) OnPacket(static_cast<uint32_t>(ev.b));
      break;
    case kEvTimer:
      OnTimer(ev.a, ev.t);
      break;
    case kEvApp:
      OnApp(ev.a);
      break;
    case kEvAction:
      OnAction(ev.a);
      break;
    case kEvFlowStart:
      StartFlow(ev.a);
      break;
    case kEvTxReady:
      OnTxReady(ev.a, ev.t);
      break;
    default:
      break;
  }
}

void Sim::Run() {
  const Time t0 = cfg_.workload.start;
  for (uint32_t h = 0; h < cfg_.fabric.hosts; h++) {
    for (uint32_t i = 0; i < cfg_.workload.window && next_[h] < queue_[h].size(); i++)
      engine_.Schedule(t0, kEvFlowStart, queue_[h][next_[h]++], 0);
  }
  for (uint32_t i = 0; i < cfg_.actions.size(); i++)
    engine_.Schedule(cfg_.actions[i].at, kEvAction, i, 0);
  hook_next_ = hook_every_;
  uint64_t finished = 0;
  while (!engine_.Empty() && engine_.NextTime() <= cfg_.max_time) {
    const Event ev = engine_.Pop();
    Dispatch(ev);
    if (hook_ && engine_.now() >= hook_next_) {
      hook_(*this);
      hook_next_ = engine_.now() + hook_every_;
    }
    if (ev.kind == kEvApp && open_ == 0) {
      finished = 0;
      for (const Flow& f : flows_) finished += f.finished ? 1 : 0;
      if (finished == flows_.size()) break;
    }
  }
  // Flows still open at the end: record them, then free their cores.
  for (uint32_t fi = 0; fi < flows_.size(); fi++) {
    Flow& f = flows_[fi];
    if (f.started && !f.finished) {
      EndFlow(fi);
      f.finished = false;
    }
  }
  if (tracer_ != nullptr) tracer_->RunEnd(engine_.now());
  Summarise();
}

void Sim::Summarise() {
  RunTotals& t = totals_;
  for (const Flow& f : flows_) {
    if (f.finished && !f.failed && f.rx_done != 0)
      t.flows_done++;
    else if (f.failed)
      t.flows_failed++;
    else
      t.flows_unfinished++;
    t.corrupt += f.corrupt ? 1 : 0;
    t.bytes += f.received;
    t.retx_pkts += f.st.retx_pkts;
    t.rto += f.st.rto_count;
    t.longest_stall_us = std::max<uint64_t>(t.longest_stall_us, f.st.longest_stall_us);
    t.end = std::max(t.end, f.rx_done);
  }
  t.ideal = IdealTime();
  t.drops = fabric_.drops();
  t.trims = fabric_.trims();
}

// A lower bound on the completion time: the busiest host NIC, or the
// busiest leaf's spine links for what leaves or enters that leaf (which
// oversubscription makes the bottleneck), at each plane's line rate,
// payload only, plus one trip across the fabric. A ring all-reduce's
// steps wait for each other: each costs its chunk and a trip.
Time Sim::IdealTime() const {
  const FabricCfg& fc = cfg_.fabric;
  const uint32_t leaves = fabric_.leaves();
  std::vector<uint64_t> out(fc.hosts);
  std::vector<uint64_t> in(fc.hosts);
  std::vector<uint64_t> up(leaves);
  std::vector<uint64_t> down(leaves);
  for (const Flow& f : flows_) {
    out[f.src] += f.bytes;
    in[f.dst] += f.bytes;
    const uint32_t ls = fabric_.LeafOf(f.src);
    const uint32_t ld = fabric_.LeafOf(f.dst);
    if (ls != ld) {
      up[ls] += f.bytes;
      down[ld] += f.bytes;
    }
  }
  uint64_t host = 0;
  uint64_t leaf = 0;
  for (uint32_t h = 0; h < fc.hosts; h++) host = std::max({host, out[h], in[h]});
  for (uint32_t l = 0; l < leaves; l++) leaf = std::max({leaf, up[l], down[l]});
  uint64_t host_gbps = 0;  // of one host over all planes
  uint64_t uplink_gbps = 0;
  for (uint32_t p = 0; p < fc.planes; p++) {
    host_gbps += fc.HostGbps(p);
    uplink_gbps += static_cast<uint64_t>(fc.spines) * fc.PlaneUplinkGbps(p);
  }
  const Time trip = 4 * fc.prop_ns;
  Time span = std::max(host * 8 / host_gbps, leaf * 8 / uplink_gbps) + trip;
  if (cfg_.workload.kind == WorkloadKind::kAllReduceRing && !flows_.empty()) {
    const uint64_t steps = flows_.size() / fc.hosts;
    span = std::max(span, steps * (flows_[0].bytes * 8 / host_gbps + trip));
  }
  return cfg_.workload.start + span;
}

}  // namespace mrc_sim

// NOLINTEND(cppcoreguidelines-pro-type-union-access)
