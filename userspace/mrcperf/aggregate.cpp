// SPDX-License-Identifier: GPL-2.0
// The span of a run is measured on the steady clock (earliest start to
// latest end over all connections), so connections that overlap only in
// part still give the rate the network carried over the whole run.
#include "aggregate.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <vector>

namespace mrcperf {
namespace {

using nlohmann::json;

struct Totals {
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;
  std::uint64_t mismatches = 0;
  std::uint64_t bad_messages = 0;
  std::chrono::microseconds span{0};
  std::chrono::microseconds longest_gap{0};
  std::chrono::system_clock::time_point start_time;
  std::optional<std::string> error;
  bool ping = false;  // some connection measured round trips
  std::vector<std::chrono::nanoseconds> samples;
  std::optional<std::uint64_t> lost;
};

void AddPing(Totals& totals, const PingStats& ping) {
  totals.ping = true;
  totals.samples.insert(totals.samples.end(), ping.samples.begin(), ping.samples.end());
  if (ping.lost) {
    totals.lost = totals.lost.value_or(0) + *ping.lost;
  }
}

Totals Sum(std::span<const Report> reports) {
  Totals totals;
  if (reports.empty()) {
    return totals;
  }
  auto first = reports.front().stats.start;
  auto last = first;
  totals.start_time = reports.front().stats.start_time;
  for (const Report& report : reports) {
    const TransferStats& stats = report.stats;
    totals.bytes += stats.bytes;
    totals.messages += stats.messages;
    totals.mismatches += stats.mismatches;
    totals.bad_messages += stats.bad_messages;
    totals.longest_gap = std::max(totals.longest_gap, stats.longest_gap);
    first = std::min(first, stats.start);
    last = std::max(last, stats.start + stats.duration);
    totals.start_time = std::min(totals.start_time, stats.start_time);
    if (!totals.error && report.error) {
      totals.error = report.error;
    }
    if (report.ping) {
      AddPing(totals, *report.ping);
    }
  }
  totals.span = std::chrono::duration_cast<std::chrono::microseconds>(last - first);
  return totals;
}

std::string Fixed(double value, int decimals) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(decimals) << value;
  return text.str();
}

}  // namespace

json AggregateJson(std::span<const Report> reports) {
  const Totals totals = Sum(reports);
  json connections = json::array();
  for (const Report& report : reports) {
    connections.push_back(ToJson(report));
  }
  const Report none;
  const Report& model = reports.empty() ? none : reports.front();
  json out = {
      {"role", Name(model.role)},
      {"transport", Name(model.transport)},
      {"mode", ModeName(model.transport, model.mode)},
      {"pingpong", model.pingpong},
      {"start_time", UnixSeconds(totals.start_time)},
      {"bytes", totals.bytes},
      {"messages", totals.messages},
      {"mismatches", totals.mismatches},
      {"bad_messages", totals.bad_messages},
      {"seconds", static_cast<double>(totals.span.count()) / 1e6},
      {"bits_per_second", BitsPerSecond(totals.bytes, totals.span)},
      {"longest_gap_ms", static_cast<double>(totals.longest_gap.count()) / 1e3},
      {"error", totals.error ? json(*totals.error) : json(nullptr)},
      {"connections", connections},
  };
  if (totals.ping) {
    out["latency_us"] = LatencyJson(totals.samples);
    if (totals.lost) {
      out["lost"] = *totals.lost;
    }
  }
  return out;
}

std::string SumText(std::span<const Report> reports) {
  const Totals totals = Sum(reports);
  const bool client = !reports.empty() && reports.front().role == Role::kClient;
  std::string text = "[SUM] " + std::to_string(reports.size()) +
                     " connections: " + (client ? "sent " : "received ") +
                     HumanBytes(totals.bytes) + " in " +
                     Fixed(static_cast<double>(totals.span.count()) / 1e6, 3) +
                     " s = " + HumanBits(BitsPerSecond(totals.bytes, totals.span));
  if (totals.mismatches > 0 || totals.bad_messages > 0) {
    text += ", " + std::to_string(totals.mismatches) + " mismatches, " +
            std::to_string(totals.bad_messages) + " bad messages";
  }
  text +=
      ", longest gap " + Fixed(static_cast<double>(totals.longest_gap.count()) / 1e3, 3) + " ms\n";
  if (totals.ping) {
    text += "[SUM] " + LatencyText(totals.samples, totals.lost);
  }
  return text;
}

int WorstStatus(std::span<const Report> reports) {
  int worst = 0;
  for (const Report& report : reports) {
    worst = std::max(worst, ExitStatus(report));
  }
  return worst;
}

}  // namespace mrcperf
