// SPDX-License-Identifier: GPL-2.0
// The summary line and JSON report of report.hpp.
#include "report.hpp"

#include <array>
#include <cstdio>

namespace mrc_sim {
namespace {

const char* KindName(LinkKind k) {
  switch (k) {
    case LinkKind::kHostUp:
      return "host-leaf";
    case LinkKind::kHostDown:
      return "leaf-host";
    case LinkKind::kLeafUp:
      return "leaf-spine";
    case LinkKind::kSpineDown:
      return "spine-leaf";
  }
  return "?";
}

double Us(Time t) { return static_cast<double>(t) / 1000.0; }

}  // namespace

std::string SummaryLine(const Sim& sim) {
  const RunTotals& t = sim.totals();
  const SimCfg& c = sim.cfg();
  const double ratio =
      t.ideal != 0 ? static_cast<double>(t.end) / static_cast<double>(t.ideal) : 0.0;
  std::array<char, 512> buf{};
  std::snprintf(
      buf.data(), buf.size(),
      "scenario=%s hosts=%u planes=%u flows=%zu done=%llu failed=%llu unfinished=%llu "
      "corrupt=%llu completion=%.1fus ideal=%.1fus (%.2fx) bytes=%llu drops=%llu "
      "trims=%llu retx=%llu rto=%llu stall_max=%lluus events=%llu seed=%llu digest=%s",
      c.scenario.c_str(), c.fabric.hosts, c.fabric.planes, sim.flows().size(),
      static_cast<unsigned long long>(t.flows_done),
      static_cast<unsigned long long>(t.flows_failed),
      static_cast<unsigned long long>(t.flows_unfinished),
      static_cast<unsigned long long>(t.corrupt), Us(t.end), Us(t.ideal), ratio,
      static_cast<unsigned long long>(t.bytes), static_cast<unsigned long long>(t.drops),
      static_cast<unsigned long long>(t.trims), static_cast<unsigned long long>(t.retx_pkts),
      static_cast<unsigned long long>(t.rto), static_cast<unsigned long long>(t.longest_stall_us),
      static_cast<unsigned long long>(sim.engine().events()),
      static_cast<unsigned long long>(c.seed), sim.engine().digest().Hex().c_str());
  return buf.data();
}

nlohmann::json ReportJson(const Sim& sim) {
  using nlohmann::json;
  const RunTotals& t = sim.totals();
  const SimCfg& c = sim.cfg();
  json flows = json::array();
  for (const Flow& f : sim.flows()) {
    const FlowStats& s = f.st;
    json refused = json::object();  // receiver's drops by reason
    for (int r = 1; r < MRC_DROP_MAX; r++)
      if (s.receiver_drops[r] != 0) refused[mrc_drop_reason_name(r)] = s.receiver_drops[r];
    flows.push_back({{"src", f.src},
                     {"dst", f.dst},
                     {"bytes", f.bytes},
                     {"received", f.received},
                     {"start_us", Us(f.start)},
                     {"completion_us", f.rx_done != 0 ? Us(f.rx_done - f.start) : -1.0},
                     {"failed", f.failed},
                     {"error", f.error},
                     {"corrupt", f.corrupt},
                     {"retx_pkts", s.retx_pkts},
                     {"rto_count", s.rto_count},
                     {"fast_retx", s.fast_retx},
                     {"tail_probes", s.tail_probes},
                     {"early_data_bytes", s.early_data_bytes},
                     {"early_refused", s.early_refused},
                     {"nacks_rx", s.nacks_rx},
                     {"ce_echoed", s.ce_echoed},
                     {"probes_tx", s.probes_tx},
                     {"ev_state_changes", s.ev_state_changes},
                     {"longest_stall_us", s.longest_stall_us},
                     {"evs_assumed_bad_at_end", f.bad_evs},
                     {"receiver_nacks_tx", s.receiver_nacks_tx},
                     {"receiver_sacks_tx", s.receiver_sacks_tx},
                     {"receiver_trimmed", s.receiver_trimmed},
                     {"receiver_drops", refused}});
  }
  const Time span = t.end > 0 ? t.end : 1;
  json links = json::array();
  const auto& ls = sim.fabric().links();
  for (size_t i = 0; i < ls.size(); i++) {
    const Link& l = ls[i];
    // Each link at its own rate: spine links differ when oversubscribed.
    const double util = static_cast<double>(l.st.tx_bytes) * 8.0 /
                        (static_cast<double>(l.gbps) * static_cast<double>(span));
    links.push_back({{"id", i},
                     {"kind", KindName(l.kind)},
                     {"plane", l.plane},
                     {"from", l.from},
                     {"to", l.to},
                     {"up", l.up},
                     {"gbps", l.gbps},
                     {"downs", l.st.downs},
                     {"trims", l.st.trims},
                     {"utilisation", util},
                     {"tx_pkts", l.st.tx_pkts},
                     {"tx_bytes", l.st.tx_bytes},
                     {"drops_queue", l.st.drops_queue},
                     {"drops_down", l.st.drops_down},
                     {"drops_gray", l.st.drops_gray},
                     {"ecn_marks", l.st.ecn_marks},
                     {"max_queue_bytes", l.st.max_backlog}});
  }
  return {{"scenario", c.scenario},
          {"seed", c.seed},
          {"digest", sim.engine().digest().Hex()},
          {"hosts", c.fabric.hosts},
          {"planes", c.fabric.planes},
          {"gbps", c.fabric.gbps},
          {"fabric",
           {{"hosts_per_leaf", c.fabric.hosts_per_leaf},
            {"spines", c.fabric.spines},
            {"prop_ns", c.fabric.prop_ns},
            {"queue_bytes", c.fabric.queue_bytes},
            {"ecn_bytes", c.fabric.ecn_bytes},
            {"uplink_gbps", c.fabric.UplinkGbps()},
            {"trim", c.fabric.trim},
            {"host_ctl_prio", c.fabric.host_ctl_prio},
            {"host_tsq_bytes", c.fabric.host_tsq_bytes}}},
          {"events", sim.engine().events()},
          {"totals",
           {{"flows_done", t.flows_done},
            {"flows_failed", t.flows_failed},
            {"flows_unfinished", t.flows_unfinished},
            {"corrupt", t.corrupt},
            {"bytes", t.bytes},
            {"drops", t.drops},
            {"trims", t.trims},
            {"retx_pkts", t.retx_pkts},
            {"rto_count", t.rto},
            {"longest_stall_us", t.longest_stall_us},
            {"completion_us", Us(t.end)},
            {"ideal_us", Us(t.ideal)},
            {"peak_endpoints", t.peak_endpoints},
            {"peak_core_bytes", t.peak_core_bytes}}},
          {"flows", flows},
          {"links", links}};
}

}  // namespace mrc_sim
