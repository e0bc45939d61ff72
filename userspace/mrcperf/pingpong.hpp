// SPDX-License-Identifier: GPL-2.0
// Ping-pong (--pingpong): the client sends one message of `length` bytes,
// the server echoes it whole, the client times the round trip and sends
// the next. Warmup exchanges first, then measured ones for a duration or
// a count. The exchange loop is shared with the UDP echo (udp.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "meter.hpp"
#include "options.hpp"
#include "transfer.hpp"

namespace mrcperf {

struct PingStats {
  std::vector<std::chrono::nanoseconds> samples;  // measured round trips, in order
  std::optional<std::uint64_t> lost;              // --udp: measured echoes that never came
};

struct PingPlan {
  std::uint64_t warmup = 0;
  std::uint64_t count = 0;  // measured exchanges; 0: as many as fit in `duration`
  std::chrono::milliseconds duration{0};
};

PingPlan PlanFor(const Options& options);

// One exchange: sends message `number` and waits for its echo. Returns the
// round-trip time, or nothing when the echo did not come in time (UDP).
using Exchange = std::function<std::optional<Clock::duration>(std::uint64_t number)>;

// Runs the plan. `stats` counts every completed exchange, warmup included
// (bytes and messages sent and echoed; longest_gap is the longest round
// trip; intervals as with -i); `ping` holds the measured samples and
// counts the losses when `ping.lost` is set. `stats` holds what was done
// so far when an exchange throws.
void RunExchanges(const PingPlan& plan, std::uint32_t length, const Exchange& exchange,
                  std::chrono::milliseconds interval, const IntervalSink& sink,
                  TransferStats& stats, PingStats& ping);

// The message of exchange `number`: the pattern (at the message's stream
// offset with --verify, else at 0) under the number's 8 bytes.
void FillPing(const Hello& hello, std::uint64_t number, std::span<std::uint8_t> message);

// Counts the bytes of `echo` that differ from `sent` (and the length
// difference) as mismatches, offsets relative to message `number`.
void CompareEcho(std::span<const std::uint8_t> sent, std::span<const std::uint8_t> echo,
                 std::uint64_t number, TransferStats& stats);

// The client's side over a connected socket after the Hello.
void PingData(const TransferSetup& setup, const PingPlan& plan, TransferStats& stats,
              PingStats& ping);

// The server's side after the Hello: echoes every message until the
// client shuts its side down.
void EchoData(const TransferSetup& setup, TransferStats& stats);

}  // namespace mrcperf
