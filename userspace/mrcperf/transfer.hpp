// SPDX-License-Identifier: GPL-2.0
// The data phase over a connected socket, after the Hello: the sender's
// loop and the receiver's loop, for a byte stream and for numbered
// messages, with --verify checking.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meter.hpp"
#include "protocol.hpp"
#include "zerocopy.hpp"

namespace mrcperf {

struct TransferStats {
  // When the data phase began: `start` to measure spans across
  // connections, `start_time` (CLOCK_REALTIME) for scripts that line the
  // intervals up with events at known wall-clock times.
  Clock::time_point start;
  std::chrono::system_clock::time_point start_time;
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;      // seqpacket only
  std::uint64_t mismatches = 0;    // receiver with --verify
  std::uint64_t bad_messages = 0;  // receiver, seqpacket: wrong number/length, truncated
  std::optional<std::uint64_t> first_mismatch;
  std::chrono::microseconds duration{0};
  std::chrono::microseconds longest_gap{0};  // see Meter::Record
  std::vector<Interval> intervals;
  std::optional<ZerocopyStats> zerocopy;  // sender with --zerocopy
};

struct TransferSetup {
  int fd = -1;
  std::string peer;  // for error messages
  Hello hello;
  std::chrono::milliseconds interval{0};
  IntervalSink sink;
  // Stream sender: MSG_ZEROCOPY (switched on already), and how long one
  // send may take to complete.
  bool zerocopy = false;
  std::chrono::milliseconds zerocopy_limit{60000};
};

// Sends hello.total_bytes, or for hello.duration; does not shut down.
// `stats` holds what was done so far when it throws.
void SendData(const TransferSetup& setup, TransferStats& stats);

// A signal handler: every timed send (-t) ends at its next chunk, as if
// its time were up (a test ends a long transfer when its checks are done).
void EndTimedSends(int signal);

// Receives until the peer shuts its side down; `stats` as above.
void ReceiveData(const TransferSetup& setup, TransferStats& stats);

// Stamps the start of the data phase (both clocks) into `stats`.
void MarkStart(TransferStats& stats);

// Closes the data phase at `end`: duration since stats.start, and the
// meter's longest gap and intervals.
void CompleteStats(TransferStats& stats, const Meter& meter, Clock::time_point end);

// The message number as carried in the first bytes of a seqpacket message:
// 8 big-endian bytes, or the low-order ones in a final message shorter
// than 8 bytes.
void PutMessageNumber(std::uint64_t number, std::span<std::uint8_t> message);
std::uint64_t GetMessageNumber(std::span<const std::uint8_t> message);

// The length message `number` must have: hello.length, or less for the
// last message of a byte-bound transfer; 0 when there is no such message.
std::uint64_t ExpectedMessageLength(const Hello& hello, std::uint64_t number);

}  // namespace mrcperf
