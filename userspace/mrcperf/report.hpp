// SPDX-License-Identifier: GPL-2.0
// What a run tells the user: one Report per connection, printed as text
// or as one JSON object (-J), and the exit status it implies.
//
// JSON keys: role, transport, mode, verify, local, peer, bytes, messages,
// mismatches, bad_messages, first_mismatch_offset, seconds,
// bits_per_second, longest_gap_ms, intervals [{start, end, bytes,
// messages, bits_per_second, longest_gap_ms}], server (client only: the
// server's Result, or null when none came), error (null or the text).
// longest_gap_ms is, on a receiver, the longest time between two successive
// successful recv()s and, on a sender, the longest time one send() blocked.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "options.hpp"
#include "protocol.hpp"
#include "transfer.hpp"

namespace mrcperf {

struct Report {
  Role role = Role::kClient;
  TransportKind transport = TransportKind::kMrc;
  Mode mode = Mode::kStream;
  bool verify = false;
  std::string local;
  std::string peer;
  TransferStats stats;
  std::optional<Result> server;  // client only
  std::optional<std::string> error;
};

nlohmann::json ToJson(const Report& report);

// The closing lines of a text report.
std::string SummaryText(const Report& report);

// One -i line.
std::string IntervalText(const Interval& interval, Mode mode);

// 0, kExitMismatch when any side saw a mismatch or a bad message,
// kExitRuntime on an error.
int ExitStatus(const Report& report);

double BitsPerSecond(std::uint64_t bytes, std::chrono::microseconds duration);
std::string HumanBytes(std::uint64_t bytes);    // "64.0 MiB"
std::string HumanBits(double bits_per_second);  // "10.5 Gbit/s"

}  // namespace mrcperf
