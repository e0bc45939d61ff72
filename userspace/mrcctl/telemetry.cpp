// SPDX-License-Identifier: GPL-2.0
// mrcctl telemetry { show | rtt | link }: the eBPF telemetry maps pinned
// under /sys/fs/bpf/mrc by mrcd, for this network namespace. The numbers
// are the maps' own: `bpftool map dump pinned /sys/fs/bpf/mrc/mrc_paths`
// prints the same entries.
#include "mrc/telemetry.hpp"

#include <linux/mrc_netlink.h>

#include <cstdio>
#include <iomanip>

#include "mrc/error.hpp"
#include "objects.hpp"
#include "output.hpp"

namespace mrcctl {
namespace {

enum class View { kShow, kRtt, kLink };
enum class Kw { kConn, kPlane };

constexpr std::array<Name<View>, 4> kViews{{
    {"show", View::kShow},
    {"list", View::kShow},
    {"rtt", View::kRtt},
    {"link", View::kLink},
}};

constexpr std::array<Name<Kw>, 2> kKeywords{{{"conn", Kw::kConn}, {"plane", Kw::kPlane}}};

struct Filter {
  std::optional<std::uint32_t> conn{};
  std::optional<std::uint32_t> plane{};
};

Filter ParseFilter(Args& args, bool conn_allowed) {
  Filter filter;
  while (!args.Empty()) {
    const Name<Kw>& kw = MatchKeyword(kKeywords, args.Next());
    const std::string_view key = kw.name;
    if (kw.value == Kw::kConn && !conn_allowed) {
      Usage("\"conn\" does not apply here.");
    }
    if (kw.value == Kw::kConn) {
      SetOnce(filter.conn, ParseUnsigned<std::uint32_t>(key, args.Value(key)), key);
    } else {
      SetOnce(filter.plane,
              ParseUnsigned<std::uint32_t>(key, args.Value(key), 0, MRC_MAX_PLANES - 1), key);
    }
  }
  return filter;
}

std::string StateName(std::uint32_t state) {
  for (const auto& name : kEvStates) {
    if (static_cast<std::uint32_t>(name.value) == state) {
      return std::string(name.name);
    }
  }
  return std::to_string(state);
}

Json PathJson(const mrc_tm_path_key& k, const mrc_tm_path& p) {
  return Json{{"conn", k.conn},           {"ev", k.ev},
              {"plane", p.plane},         {"state", StateName(p.state)},
              {"tx_pkts", p.tx_pkts},     {"tx_bytes", p.tx_bytes},
              {"retx_pkts", p.retx_pkts}, {"acked_pkts", p.acked_pkts},
              {"losses", p.losses},       {"rto_losses", p.rto_losses},
              {"nacks", p.nacks},         {"rx_pkts", p.rx_pkts},
              {"rx_bytes", p.rx_bytes},   {"rx_ce", p.rx_ce},
              {"alarms", p.alarms}};
}

void PrintPaths(const Context& ctx, const mrc::PathEntries& paths) {
  if (ctx.opts().json) {
    Json doc = Json::array();
    for (const auto& [key, path] : paths) {
      doc.push_back(PathJson(key, path));
    }
    ctx.out() << Dump(doc, ctx.opts()) << '\n';
    return;
  }
  std::ostream& out = ctx.out();
  out << std::left << std::setw(11) << "conn" << std::setw(7) << "ev" << std::setw(6) << "plane"
      << std::setw(12) << "state" << std::right << std::setw(10) << "tx_pkts" << std::setw(13)
      << "tx_bytes" << std::setw(8) << "retx" << std::setw(10) << "acked" << std::setw(8)
      << "losses" << std::setw(7) << "nacks" << std::setw(10) << "rx_pkts" << std::setw(7)
      << "alarms" << '\n';
  for (const auto& [k, p] : paths) {
    out << std::left << std::setw(11) << k.conn << std::setw(7) << k.ev << std::setw(6) << p.plane
        << std::setw(12) << StateName(p.state) << std::right << std::setw(10) << p.tx_pkts
        << std::setw(13) << p.tx_bytes << std::setw(8) << p.retx_pkts << std::setw(10)
        << p.acked_pkts << std::setw(8) << p.losses << std::setw(7) << p.nacks << std::setw(10)
        << p.rx_pkts << std::setw(7) << p.alarms << '\n';
  }
}

void PrintRtt(const Context& ctx, const mrc::PlaneEntries& planes) {
  Json doc = Json::array();
  for (const auto& [key, plane] : planes) {
    Json buckets = Json::array();
    // Bucket b holds samples of 2^b .. 2^(b+1)-1 us (b = 0: 0..1).
    for (std::size_t b = 0; b < MRC_TM_RTT_BUCKETS; ++b) {
      if (plane.rtt_hist[b] != 0) {
        buckets.push_back(Json{{"min_us", b == 0 ? 0ULL : 1ULL << b},
                               {"max_us", (2ULL << b) - 1},
                               {"count", plane.rtt_hist[b]}});
      }
    }
    const std::uint64_t mean = plane.rtt_samples ? plane.rtt_sum_us / plane.rtt_samples : 0;
    doc.push_back(Json{{"plane", key.plane},
                       {"samples", plane.rtt_samples},
                       {"mean_us", mean},
                       {"buckets", std::move(buckets)}});
  }
  if (ctx.opts().json) {
    ctx.out() << Dump(doc, ctx.opts()) << '\n';
    return;
  }
  for (const Json& plane : doc) {
    ctx.out() << "plane " << plane["plane"] << " samples " << plane["samples"] << " mean "
              << plane["mean_us"] << " us\n";
    std::uint64_t most = 1;
    for (const Json& b : plane["buckets"]) {
      most = std::max(most, b["count"].get<std::uint64_t>());
    }
    for (const Json& b : plane["buckets"]) {
      const auto count = b["count"].get<std::uint64_t>();
      const auto bar = static_cast<std::size_t>(count * 40 / most);
      const std::string label = std::to_string(b["min_us"].get<std::uint64_t>()) + ".." +
                                std::to_string(b["max_us"].get<std::uint64_t>()) + " us";
      ctx.out() << "    " << std::left << std::setw(20) << label << std::right << std::setw(10)
                << count << " " << std::string(bar, '#') << '\n';
    }
  }
}

void PrintLinks(const Context& ctx, const mrc::LinkEntries& links) {
  Json doc = Json::array();
  for (const auto& [key, link] : links) {
    doc.push_back(Json{{"ifindex", key.ifindex},
                       {"tx_pkts", link.tx_pkts},
                       {"tx_bytes", link.tx_bytes},
                       {"rx_pkts", link.rx_pkts},
                       {"rx_bytes", link.rx_bytes}});
  }
  if (ctx.opts().json) {
    ctx.out() << Dump(doc, ctx.opts()) << '\n';
    return;
  }
  for (const Json& link : doc) {
    ctx.out() << "ifindex " << link["ifindex"] << " tx_pkts " << link["tx_pkts"] << " tx_bytes "
              << link["tx_bytes"] << " rx_pkts " << link["rx_pkts"] << " rx_bytes "
              << link["rx_bytes"] << '\n';
  }
}

}  // namespace

void TelemetryUsage(std::ostream& out) {
  out << "Usage: mrcctl telemetry [ show ] [ conn ID ] [ plane ID ]\n"
         "       mrcctl telemetry rtt [ plane ID ]\n"
         "       mrcctl telemetry link\n"
         "       mrcctl telemetry help\n"
         "Reads the eBPF maps mrcd pins under " MRC_TM_PIN_DIR " (this namespace only).\n";
}

int RunTelemetry(Context& ctx, Args& args) {
  if (TakeHelp(args)) {
    TelemetryUsage(ctx.out());
    return kExitOk;
  }
  View view = View::kShow;
  if (!args.Empty()) {
    const Match<View> match = Find(kViews, args.Peek());
    if (match.found != nullptr) {
      view = match.found->value;
      args.Next();
    }
  }
  const Filter filter = ParseFilter(args, view == View::kShow);
  if (!ctx.env().telemetry) {
    throw mrc::Error("telemetry is not available");
  }
  mrc::TelemetrySnapshot snap = ctx.env().telemetry()->Read(mrc::CurrentNetns());
  std::erase_if(snap.paths, [&](const auto& e) {
    return (filter.conn && e.first.conn != *filter.conn) ||
           (filter.plane && e.second.plane != *filter.plane);
  });
  std::erase_if(snap.planes,
                [&](const auto& e) { return filter.plane && e.first.plane != *filter.plane; });
  switch (view) {
    case View::kShow:
      PrintPaths(ctx, snap.paths);
      break;
    case View::kRtt:
      PrintRtt(ctx, snap.planes);
      break;
    case View::kLink:
      PrintLinks(ctx, snap.links);
      break;
  }
  return kExitOk;
}

}  // namespace mrcctl
