// SPDX-License-Identifier: GPL-2.0
// One Report, two printers: text for people, JSON for scripts.
#include "report.hpp"

#include <array>
#include <iomanip>
#include <sstream>

#include "error.hpp"
#include "latency.hpp"

namespace mrcperf {
namespace {

using nlohmann::json;

double Seconds(std::chrono::microseconds d) { return static_cast<double>(d.count()) / 1e6; }

double Millis(std::chrono::microseconds d) { return static_cast<double>(d.count()) / 1e3; }

// `value` with `decimals` digits after the point, right-aligned in `width`.
std::string Fixed(double value, int decimals, int width = 0) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(decimals) << std::setw(width) << value;
  return text.str();
}

std::string Right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

json IntervalJson(const Interval& interval) {
  return {{"start", Seconds(interval.start)},
          {"end", Seconds(interval.end)},
          {"bytes", interval.bytes},
          {"messages", interval.messages},
          {"bits_per_second", BitsPerSecond(interval.bytes, interval.end - interval.start)},
          {"longest_gap_ms", Millis(interval.longest_gap)}};
}

json OptionalOffset(const std::optional<std::uint64_t>& offset) {
  return offset ? json(*offset) : json(nullptr);
}

json ResultJson(const Result& result) {
  return {{"bytes", result.bytes},
          {"messages", result.messages},
          {"mismatches", result.mismatches},
          {"bad_messages", result.bad_messages},
          {"first_mismatch_offset", OptionalOffset(result.first_mismatch)},
          {"seconds", Seconds(result.duration)},
          {"bits_per_second", BitsPerSecond(result.bytes, result.duration)},
          {"longest_gap_ms", Millis(result.longest_gap)}};
}

json Number(std::uint64_t count, double value) { return count == 0 ? json(nullptr) : json(value); }

// The first line of a ping-pong report.
std::string PingSummaryText(const Report& report) {
  const TransferStats& stats = report.stats;
  const bool client = report.role == Role::kClient;
  std::string text = std::string(Name(report.role)) + " " + std::string(Name(report.transport)) +
                     " " + std::string(ModeName(report.transport, report.mode)) + " ping-pong " +
                     report.local + " <-> " + report.peer + ": " + (client ? "" : "echoed ") +
                     std::to_string(stats.messages) + (client ? " round trips" : " messages") +
                     " (" + HumanBytes(stats.bytes) + ") in " + Fixed(Seconds(stats.duration), 3) +
                     " s";
  if (stats.mismatches > 0 || stats.bad_messages > 0) {
    text += ", " + std::to_string(stats.mismatches) + " mismatches, " +
            std::to_string(stats.bad_messages) + " bad messages";
  }
  text += (client ? ", longest round trip " : ", longest gap ") +
          Fixed(Millis(stats.longest_gap), 3) + " ms\n";
  if (report.ping) {
    text += LatencyText(report.ping->samples, report.ping->lost);
  }
  return text;
}

std::string Checks(std::uint64_t mismatches, std::uint64_t bad_messages, bool verify, Mode mode,
                   const std::optional<std::uint64_t>& first) {
  std::string text;
  if (verify) {
    text += ", " + std::to_string(mismatches) + " mismatches";
    if (first) {
      text += " (first at byte " + std::to_string(*first) + ")";
    }
  }
  if (mode == Mode::kSeqpacket) {
    text += ", " + std::to_string(bad_messages) + " bad messages";
  }
  return text;
}

}  // namespace

double BitsPerSecond(std::uint64_t bytes, std::chrono::microseconds duration) {
  if (duration.count() <= 0) {
    return 0;
  }
  return static_cast<double>(bytes) * 8.0 / Seconds(duration);
}

std::string HumanBytes(std::uint64_t bytes) {
  constexpr std::array<const char*, 5> kUnits{"B", "KiB", "MiB", "GiB", "TiB"};
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  return Fixed(value, unit == 0 ? 0 : 1) + " " + kUnits.at(unit);
}

std::string HumanBits(double bits_per_second) {
  constexpr std::array<const char*, 5> kUnits{"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
  double value = bits_per_second;
  std::size_t unit = 0;
  while (value >= 1000 && unit + 1 < kUnits.size()) {
    value /= 1000;
    ++unit;
  }
  return Fixed(value, 2) + " " + kUnits.at(unit);
}

double UnixSeconds(std::chrono::system_clock::time_point time) {
  return std::chrono::duration<double>(time.time_since_epoch()).count();
}

std::string_view ModeName(TransportKind transport, Mode mode) {
  return transport == TransportKind::kUdp ? "datagram" : Name(mode);
}

json LatencyJson(const std::vector<std::chrono::nanoseconds>& samples) {
  const LatencySummary s = Summarize(samples);
  return {{"count", s.count},
          {"min", Number(s.count, s.min_us)},
          {"mean", Number(s.count, s.mean_us)},
          {"p50", Number(s.count, s.p50_us)},
          {"p90", Number(s.count, s.p90_us)},
          {"p99", Number(s.count, s.p99_us)},
          {"p999", Number(s.count, s.p999_us)},
          {"max", Number(s.count, s.max_us)}};
}

std::string LatencyText(const std::vector<std::chrono::nanoseconds>& samples,
                        const std::optional<std::uint64_t>& lost) {
  const LatencySummary s = Summarize(samples);
  std::string text = "latency over " + std::to_string(s.count) + " round trips";
  if (s.count > 0) {
    text += ": min " + Fixed(s.min_us, 1) + " / mean " + Fixed(s.mean_us, 1) + " / p50 " +
            Fixed(s.p50_us, 1) + " / p90 " + Fixed(s.p90_us, 1) + " / p99 " + Fixed(s.p99_us, 1) +
            " / p99.9 " + Fixed(s.p999_us, 1) + " / max " + Fixed(s.max_us, 1) + " us";
  }
  if (lost) {
    text += ", " + std::to_string(*lost) + " lost";
  }
  return text + "\n";
}

json ToJson(const Report& report) {
  const TransferStats& stats = report.stats;
  json intervals = json::array();
  for (const Interval& interval : stats.intervals) {
    intervals.push_back(IntervalJson(interval));
  }
  json out = {{"role", Name(report.role)},
              {"transport", Name(report.transport)},
              {"mode", ModeName(report.transport, report.mode)},
              {"verify", report.verify},
              {"pingpong", report.pingpong},
              {"local", report.local},
              {"peer", report.peer},
              {"start_time", UnixSeconds(stats.start_time)},
              {"bytes", stats.bytes},
              {"messages", stats.messages},
              {"mismatches", stats.mismatches},
              {"bad_messages", stats.bad_messages},
              {"first_mismatch_offset", OptionalOffset(stats.first_mismatch)},
              {"seconds", Seconds(stats.duration)},
              {"bits_per_second", BitsPerSecond(stats.bytes, stats.duration)},
              {"longest_gap_ms", Millis(stats.longest_gap)},
              {"intervals", intervals},
              {"error", report.error ? json(*report.error) : json(nullptr)}};
  if (report.role == Role::kClient) {
    out["server"] = report.server ? ResultJson(*report.server) : json(nullptr);
  }
  if (stats.zerocopy) {
    out["zerocopy"] = {{"sends", stats.zerocopy->sends},
                       {"completed", stats.zerocopy->completed},
                       {"copied", stats.zerocopy->copied}};
  }
  if (report.ping) {
    out["latency_us"] = LatencyJson(report.ping->samples);
    if (report.ping->lost) {
      out["lost"] = *report.ping->lost;
    }
  }
  return out;
}

std::string IntervalText(const Interval& interval, Mode mode) {
  const double rate = BitsPerSecond(interval.bytes, interval.end - interval.start);
  std::string line = "[" + Fixed(Seconds(interval.start), 2, 7) + "-" +
                     Fixed(Seconds(interval.end), 2, 7) + " s] " +
                     Right(HumanBytes(interval.bytes), 11) + " " + Right(HumanBits(rate), 14);
  if (mode == Mode::kSeqpacket) {
    line += "  " + std::to_string(interval.messages) + " msgs";
  }
  return line + "  longest gap " + Fixed(Millis(interval.longest_gap), 3) + " ms\n";
}

std::string SummaryText(const Report& report) {
  if (report.pingpong) {
    return PingSummaryText(report);
  }
  const TransferStats& stats = report.stats;
  const bool sender = report.role == Role::kClient;
  std::string text = std::string(Name(report.role)) + " " + std::string(Name(report.transport)) +
                     " " + std::string(Name(report.mode)) + " " + report.local + " <-> " +
                     report.peer + ": " + (sender ? "sent " : "received ") +
                     HumanBytes(stats.bytes);
  if (report.mode == Mode::kSeqpacket) {
    text += " in " + std::to_string(stats.messages) + " messages";
  }
  text += " in " + Fixed(Seconds(stats.duration), 3) +
          " s = " + HumanBits(BitsPerSecond(stats.bytes, stats.duration));
  if (!sender) {
    text += Checks(stats.mismatches, stats.bad_messages, report.verify, report.mode,
                   stats.first_mismatch);
  }
  text += (sender ? ", longest send() block " : ", longest gap ") +
          Fixed(Millis(stats.longest_gap), 3) + " ms\n";
  if (stats.zerocopy) {
    text += "zero copy: " + std::to_string(stats.zerocopy->sends) + " sends, " +
            std::to_string(stats.zerocopy->completed) + " completed, " +
            std::to_string(stats.zerocopy->copied) + " of them copied by the kernel\n";
  }
  if (report.server) {
    const Result& server = *report.server;
    text += "server: received " + HumanBytes(server.bytes) + " in " +
            Fixed(Seconds(server.duration), 3) +
            " s = " + HumanBits(BitsPerSecond(server.bytes, server.duration)) +
            Checks(server.mismatches, server.bad_messages, report.verify, report.mode,
                   server.first_mismatch) +
            ", longest gap " + Fixed(Millis(server.longest_gap), 3) + " ms\n";
  }
  return text;
}

int ExitStatus(const Report& report) {
  const bool bad =
      report.stats.mismatches > 0 || report.stats.bad_messages > 0 ||
      (report.server && (report.server->mismatches > 0 || report.server->bad_messages > 0));
  if (bad) {
    return kExitMismatch;
  }
  return report.error ? kExitRuntime : kExitOk;
}

}  // namespace mrcperf
