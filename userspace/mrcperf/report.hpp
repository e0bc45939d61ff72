// SPDX-License-Identifier: GPL-2.0
// What a run tells the user: one Report per connection, printed as text
// or as one JSON object (-J), and the exit status it implies.
//
// JSON keys: role, transport (mrc, tcp, mptcp, udp), mode (stream,
// seqpacket; datagram for udp), verify, pingpong, local, peer,
// start_time, bytes, messages, mismatches, bad_messages,
// first_mismatch_offset, seconds, bits_per_second, longest_gap_ms,
// intervals [{start, end, bytes, messages, bits_per_second,
// longest_gap_ms}], server (client only: the server's Result, or null when
// none came), error (null or the text); a ping-pong client adds
// latency_us {count, min, mean, p50, p90, p99, p999, max} (microseconds,
// nearest-rank percentiles of the measured round trips; all but count
// null without any) and, over UDP, lost (measured echoes that never came).
// longest_gap_ms is, on a receiver, the longest time between two successive
// successful recv()s and, on a sender, the longest time one send() blocked;
// on a ping-pong client, the longest round trip.
// start_time is the wall-clock (CLOCK_REALTIME) Unix time in seconds at
// which the data phase began (or the run was attempted, when it never
// did); interval start/end are seconds after it.
//
// A run of several connections (client -P N, server --clients N, N > 1)
// prints one object instead: connections [each one's report as above]
// and, with the same names and meanings summed over them: role,
// transport, mode, pingpong, start_time (the earliest), bytes, messages,
// mismatches, bad_messages, seconds (earliest start to latest end),
// bits_per_second (all bytes over that span), longest_gap_ms (the
// longest), latency_us (over every measured sample, ping-pong only),
// error (the first connection's error, or null). See aggregate.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "options.hpp"
#include "pingpong.hpp"
#include "protocol.hpp"
#include "transfer.hpp"

namespace mrcperf {

struct Report {
  Role role = Role::kClient;
  TransportKind transport = TransportKind::kMrc;
  Mode mode = Mode::kStream;
  bool verify = false;
  bool pingpong = false;
  std::string local;
  std::string peer;
  TransferStats stats;
  std::optional<Result> server;   // client only
  std::optional<PingStats> ping;  // ping-pong client only
  std::optional<std::string> error;
};

nlohmann::json ToJson(const Report& report);

// latency_us of a ping-pong report.
nlohmann::json LatencyJson(const std::vector<std::chrono::nanoseconds>& samples);

// "stream", "seqpacket", or "datagram" for UDP.
std::string_view ModeName(TransportKind transport, Mode mode);

// Seconds since the Unix epoch, as start_time prints it.
double UnixSeconds(std::chrono::system_clock::time_point time);

// The closing lines of a text report.
std::string SummaryText(const Report& report);

// The text line of latency figures.
std::string LatencyText(const std::vector<std::chrono::nanoseconds>& samples,
                        const std::optional<std::uint64_t>& lost);

// One -i line.
std::string IntervalText(const Interval& interval, Mode mode);

// 0, kExitMismatch when any side saw a mismatch or a bad message,
// kExitRuntime on an error.
int ExitStatus(const Report& report);

double BitsPerSecond(std::uint64_t bytes, std::chrono::microseconds duration);
std::string HumanBytes(std::uint64_t bytes);    // "64.0 MiB"
std::string HumanBits(double bits_per_second);  // "10.5 Gbit/s"

}  // namespace mrcperf
