// SPDX-License-Identifier: GPL-2.0
// The loops stay free of reporting: they count, time and check, and leave
// printing to the sink and the report.
#include "transfer.hpp"

#include <algorithm>
#include <array>
#include <csignal>
#include <limits>

#include "error.hpp"
#include "io.hpp"
#include "pattern.hpp"

namespace mrcperf {
namespace {

constexpr std::size_t kNumberSize = 8;
constexpr std::size_t kStreamReceiveBuffer = std::size_t{256} * 1024;

std::chrono::microseconds Micros(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::microseconds>(d);
}

void AddCheck(TransferStats& stats, const CheckResult& check) {
  stats.mismatches += check.mismatches;
  if (!stats.first_mismatch) {
    stats.first_mismatch = check.first_mismatch;
  }
}

// Set by SIGUSR1 (EndTimedSends()): a timed sender's time is up.
volatile std::sig_atomic_t g_time_up = 0;

// How many bytes the next send may carry: 0 when the transfer is over.
std::uint64_t NextChunk(const Hello& hello, std::uint64_t sent, Clock::time_point deadline) {
  if (hello.total_bytes != 0) {
    return std::min<std::uint64_t>(hello.length, hello.total_bytes - sent);
  }
  return g_time_up == 0 && Clock::now() < deadline ? hello.length : 0;
}

void SendStream(const TransferSetup& setup, Meter& meter, Clock::time_point deadline,
                TransferStats& stats) {
  const Hello& hello = setup.hello;
  const Pattern pattern(hello.seed);
  std::vector<std::uint8_t> buffer(hello.length);
  pattern.Fill(0, buffer);  // without --verify the content is this, repeated
  while (const std::uint64_t chunk = NextChunk(hello, stats.bytes, deadline)) {
    const std::span<std::uint8_t> data(buffer.data(), chunk);
    if (hello.verify) {
      pattern.Fill(stats.bytes, data);
    }
    for (std::size_t sent = 0; sent < chunk;) {
      const auto before = Clock::now();
      const std::size_t n = SendSome(setup.fd, data.subspan(sent), setup.peer);
      const auto after = Clock::now();
      meter.Record(after, n, 0, after - before);
      sent += n;
      stats.bytes += n;
    }
  }
}

// SendStream() with MSG_ZEROCOPY: from a ring of buffers, each filled
// again only once the kernel completed its sends (zerocopy.hpp).
void SendStreamZerocopy(const TransferSetup& setup, Meter& meter, Clock::time_point deadline,
                        TransferStats& stats) {
  const Hello& hello = setup.hello;
  const Pattern pattern(hello.seed);
  ZerocopySender sender(setup.fd, setup.peer, hello.length, setup.zerocopy_limit);
  while (const std::uint64_t chunk = NextChunk(hello, stats.bytes, deadline)) {
    const std::span<std::uint8_t> data = sender.Next().first(chunk);
    if (hello.verify || sender.Fresh()) {
      pattern.Fill(hello.verify ? stats.bytes : 0, data);
    }
    for (std::size_t sent = 0; sent < chunk;) {
      const auto before = Clock::now();
      const std::size_t n = sender.Send(sent, chunk - sent);
      const auto after = Clock::now();
      meter.Record(after, n, 0, after - before);
      sent += n;
      stats.bytes += n;
    }
    stats.zerocopy = sender.stats();
  }
  sender.Drain();
  stats.zerocopy = sender.stats();
}

void SendMessages(const TransferSetup& setup, Meter& meter, Clock::time_point deadline,
                  TransferStats& stats) {
  const Hello& hello = setup.hello;
  const Pattern pattern(hello.seed);
  std::vector<std::uint8_t> buffer(hello.length);
  pattern.Fill(0, buffer);
  while (const std::uint64_t length = NextChunk(hello, stats.bytes, deadline)) {
    const std::span<std::uint8_t> message(buffer.data(), length);
    if (hello.verify) {
      pattern.Fill(stats.messages * hello.length, message);
    }
    PutMessageNumber(stats.messages, message);
    const auto before = Clock::now();
    const std::size_t n = SendSome(setup.fd, message, setup.peer);
    const auto after = Clock::now();
    if (n != length) {
      throw RuntimeError("send to " + setup.peer + ": message of " + std::to_string(length) +
                         " bytes went out as " + std::to_string(n));
    }
    meter.Record(after, n, 1, after - before);
    stats.bytes += n;
    ++stats.messages;
  }
}

void ReceiveStream(const TransferSetup& setup, Meter& meter, Clock::time_point& last,
                   TransferStats& stats) {
  const Pattern pattern(setup.hello.seed);
  std::vector<std::uint8_t> buffer(kStreamReceiveBuffer);
  for (;;) {
    const Received got = ReceiveSome(setup.fd, buffer, setup.peer);
    const auto now = Clock::now();
    if (got.bytes == 0) {
      return;
    }
    if (setup.hello.verify) {
      AddCheck(stats, pattern.Check(stats.bytes, {buffer.data(), got.bytes}));
    }
    meter.Record(now, got.bytes, 0, now - last);
    last = now;
    stats.bytes += got.bytes;
  }
}

// Checks one received message; returns the number the next one should carry.
std::uint64_t CheckMessage(const Hello& hello, const Pattern& pattern,
                           std::span<const std::uint8_t> message, bool truncated,
                           std::uint64_t expected, TransferStats& stats) {
  std::uint64_t number = GetMessageNumber(message);
  if (message.size() < kNumberSize) {
    // Only the low bytes of the number came: assume the expected one when
    // they agree.
    std::array<std::uint8_t, kNumberSize> wanted{};
    PutMessageNumber(expected, std::span(wanted).first(message.size()));
    if (std::equal(message.begin(), message.end(), wanted.begin())) {
      number = expected;
    }
  }
  const std::uint64_t length = ExpectedMessageLength(hello, number);
  if (truncated || number != expected || message.size() != length) {
    ++stats.bad_messages;
  }
  if (length == 0) {
    return expected + 1;  // no such message: nothing to compare it with
  }
  if (hello.verify && message.size() > kNumberSize) {
    const std::uint64_t offset = number * hello.length + kNumberSize;
    AddCheck(stats, pattern.Check(offset, message.subspan(kNumberSize)));
  }
  return number + 1;
}

void ReceiveMessages(const TransferSetup& setup, Meter& meter, Clock::time_point& last,
                     TransferStats& stats) {
  const Pattern pattern(setup.hello.seed);
  std::vector<std::uint8_t> buffer(setup.hello.length);
  std::uint64_t expected = 0;
  for (;;) {
    const Received got = ReceiveSome(setup.fd, buffer, setup.peer);
    const auto now = Clock::now();
    if (got.bytes == 0 && !got.truncated) {
      return;
    }
    expected = CheckMessage(setup.hello, pattern, {buffer.data(), got.bytes}, got.truncated,
                            expected, stats);
    meter.Record(now, got.bytes, 1, now - last);
    last = now;
    stats.bytes += got.bytes;
    ++stats.messages;
  }
}

}  // namespace

void EndTimedSends(int /*signal*/) { g_time_up = 1; }

void PutMessageNumber(std::uint64_t number, std::span<std::uint8_t> message) {
  const std::size_t n = std::min(message.size(), kNumberSize);
  for (std::size_t i = 0; i < n; ++i) {
    message[n - 1 - i] = static_cast<std::uint8_t>(number >> (8 * i));
  }
}

std::uint64_t GetMessageNumber(std::span<const std::uint8_t> message) {
  std::uint64_t number = 0;
  for (std::size_t i = 0; i < std::min(message.size(), kNumberSize); ++i) {
    number = (number << 8U) | message[i];
  }
  return number;
}

std::uint64_t ExpectedMessageLength(const Hello& hello, std::uint64_t number) {
  if (hello.total_bytes == 0) {
    return hello.length;
  }
  if (number > hello.total_bytes / hello.length || number * hello.length >= hello.total_bytes) {
    return 0;
  }
  return std::min<std::uint64_t>(hello.length, hello.total_bytes - number * hello.length);
}

void CompleteStats(TransferStats& stats, const Meter& meter, Clock::time_point end) {
  stats.duration = Micros(end - stats.start);
  stats.longest_gap = meter.longest_gap();
  stats.intervals = meter.intervals();
}

void MarkStart(TransferStats& stats) {
  stats.start = Clock::now();
  stats.start_time = std::chrono::system_clock::now();
}

void SendData(const TransferSetup& setup, TransferStats& stats) {
  MarkStart(stats);
  const auto start = stats.start;
  Meter meter(start, setup.interval, setup.sink);
  const auto deadline = start + setup.hello.duration;
  try {
    if (setup.hello.mode == Mode::kSeqpacket) {
      SendMessages(setup, meter, deadline, stats);
    } else if (setup.zerocopy) {
      SendStreamZerocopy(setup, meter, deadline, stats);
    } else {
      SendStream(setup, meter, deadline, stats);
    }
  } catch (...) {
    CompleteStats(stats, meter, Clock::now());
    throw;
  }
  const auto end = Clock::now();
  meter.Finish(end);
  CompleteStats(stats, meter, end);
}

void ReceiveData(const TransferSetup& setup, TransferStats& stats) {
  MarkStart(stats);
  const auto start = stats.start;
  Meter meter(start, setup.interval, setup.sink);
  auto last = start;
  try {
    if (setup.hello.mode == Mode::kSeqpacket) {
      ReceiveMessages(setup, meter, last, stats);
    } else {
      ReceiveStream(setup, meter, last, stats);
    }
  } catch (...) {
    CompleteStats(stats, meter, last);
    throw;
  }
  meter.Finish(last);
  CompleteStats(stats, meter, last);
}

}  // namespace mrcperf
