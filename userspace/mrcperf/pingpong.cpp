// SPDX-License-Identifier: GPL-2.0
// Round trips are timed on the steady clock around the send and the last
// byte of the echo, nothing else inside, so the figure is the transport's.
#include "pingpong.hpp"

#include <algorithm>
#include <vector>

#include "error.hpp"
#include "io.hpp"
#include "pattern.hpp"

namespace mrcperf {
namespace {

// Numbers the exchanges across the warmup and the measured phase.
class Runner {
 public:
  Runner(std::uint32_t length, const Exchange& exchange, Meter& meter, TransferStats& stats,
         PingStats& ping)
      : length_(length), exchange_(exchange), meter_(meter), stats_(stats), ping_(ping) {}

  [[nodiscard]] std::uint64_t next() const { return next_; }

  // Runs exchanges while `more(next number)`.
  template <typename More>
  void Phase(bool measured, More more) {
    for (; more(next_); ++next_) {
      const std::optional<Clock::duration> rtt = exchange_(next_);
      if (!rtt) {
        if (measured && ping_.lost) {
          ++*ping_.lost;
        }
        continue;
      }
      meter_.Record(Clock::now(), length_, 1, *rtt);
      stats_.bytes += length_;
      ++stats_.messages;
      if (measured) {
        ping_.samples.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(*rtt));
      }
    }
  }

 private:
  std::uint32_t length_;
  const Exchange& exchange_;
  Meter& meter_;
  TransferStats& stats_;
  PingStats& ping_;
  std::uint64_t next_ = 0;
};

void ExchangeAll(const PingPlan& plan, Runner& runner) {
  runner.Phase(false, [&](std::uint64_t n) { return n < plan.warmup; });
  if (plan.count != 0) {
    const std::uint64_t end = runner.next() + plan.count;
    runner.Phase(true, [&](std::uint64_t n) { return n < end; });
    return;
  }
  // The clock starts after the warmup: -t is the measured time.
  const auto deadline = Clock::now() + plan.duration;
  runner.Phase(true, [&](std::uint64_t) { return Clock::now() < deadline; });
}

// Receives one echo into `echo` (sized for one byte more than sent, so a
// longer message shows); returns the bytes received.
std::size_t ReceiveEcho(const TransferSetup& setup, std::span<std::uint8_t> echo,
                        TransferStats& stats) {
  const std::size_t length = setup.hello.length;
  if (setup.hello.mode == Mode::kStream) {
    if (!ReceiveRecord(setup.fd, Mode::kStream, echo.first(length), setup.peer)) {
      throw RuntimeError("server " + setup.peer + " closed the connection during the ping-pong");
    }
    return length;
  }
  const Received got = ReceiveSome(setup.fd, echo, setup.peer);
  if (got.bytes == 0 && !got.truncated) {
    throw RuntimeError("server " + setup.peer + " closed the connection during the ping-pong");
  }
  if (got.truncated || got.bytes != length) {
    ++stats.bad_messages;
  }
  return std::min(got.bytes, length);
}

// The server's receive: one message, its bytes, or nothing at the end.
// `buffer` has one byte more than hello.length on a seqpacket socket.
std::optional<std::size_t> ReceivePing(const TransferSetup& setup, std::span<std::uint8_t> buffer,
                                       TransferStats& stats) {
  if (setup.hello.mode == Mode::kStream) {
    if (!ReceiveRecord(setup.fd, Mode::kStream, buffer, setup.peer)) {
      return std::nullopt;
    }
    return buffer.size();
  }
  const Received got = ReceiveSome(setup.fd, buffer, setup.peer);
  if (got.bytes == 0 && !got.truncated) {
    return std::nullopt;
  }
  if (got.truncated || got.bytes != setup.hello.length) {
    ++stats.bad_messages;
  }
  return got.bytes;
}

}  // namespace

PingPlan PlanFor(const Options& options) {
  return {.warmup = options.warmup, .count = options.count, .duration = options.duration};
}

void RunExchanges(const PingPlan& plan, std::uint32_t length, const Exchange& exchange,
                  std::chrono::milliseconds interval, const IntervalSink& sink,
                  TransferStats& stats, PingStats& ping) {
  MarkStart(stats);
  Meter meter(stats.start, interval, sink);
  Runner runner(length, exchange, meter, stats, ping);
  try {
    ExchangeAll(plan, runner);
  } catch (...) {
    CompleteStats(stats, meter, Clock::now());
    throw;
  }
  const auto end = Clock::now();
  meter.Finish(end);
  CompleteStats(stats, meter, end);
}

void FillPing(const Hello& hello, std::uint64_t number, std::span<std::uint8_t> message) {
  Pattern(hello.seed).Fill(hello.verify ? number * hello.length : 0, message);
  PutMessageNumber(number, message);
}

void CompareEcho(std::span<const std::uint8_t> sent, std::span<const std::uint8_t> echo,
                 std::uint64_t number, TransferStats& stats) {
  const std::size_t common = std::min(sent.size(), echo.size());
  const std::size_t missing = std::max(sent.size(), echo.size()) - common;
  std::uint64_t differ = missing;
  std::optional<std::size_t> first;
  for (std::size_t i = 0; i < common; ++i) {
    if (sent[i] != echo[i]) {
      ++differ;
      first = first.value_or(i);
    }
  }
  if (!first && missing > 0) {
    first = common;
  }
  stats.mismatches += differ;
  if (first && !stats.first_mismatch) {
    stats.first_mismatch = number * sent.size() + *first;
  }
}

void PingData(const TransferSetup& setup, const PingPlan& plan, TransferStats& stats,
              PingStats& ping) {
  const Hello& hello = setup.hello;
  std::vector<std::uint8_t> message(hello.length);
  std::vector<std::uint8_t> echo(std::size_t{hello.length} + 1);
  const Exchange exchange = [&](std::uint64_t number) -> std::optional<Clock::duration> {
    FillPing(hello, number, message);
    const auto before = Clock::now();
    SendRecord(setup.fd, hello.mode, message, setup.peer);
    const std::size_t got = ReceiveEcho(setup, echo, stats);
    const auto after = Clock::now();
    CompareEcho(message, std::span(echo).first(got), number, stats);
    return after - before;
  };
  RunExchanges(plan, hello.length, exchange, setup.interval, setup.sink, stats, ping);
}

void EchoData(const TransferSetup& setup, TransferStats& stats) {
  MarkStart(stats);
  Meter meter(stats.start, setup.interval, setup.sink);
  const bool stream = setup.hello.mode == Mode::kStream;
  std::vector<std::uint8_t> buffer(std::size_t{setup.hello.length} + (stream ? 0 : 1));
  auto last = stats.start;
  try {
    while (const std::optional<std::size_t> bytes = ReceivePing(setup, buffer, stats)) {
      const auto now = Clock::now();
      SendRecord(setup.fd, setup.hello.mode, std::span(buffer).first(*bytes), setup.peer);
      meter.Record(now, *bytes, 1, now - last);
      last = now;
      stats.bytes += *bytes;
      ++stats.messages;
    }
  } catch (...) {
    CompleteStats(stats, meter, last);
    throw;
  }
  meter.Finish(last);
  CompleteStats(stats, meter, last);
}

}  // namespace mrcperf
