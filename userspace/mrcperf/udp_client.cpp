// SPDX-License-Identifier: GPL-2.0
// The client's socket is connected, so the kernel drops datagrams from
// anyone but the server and an ICMP port unreachable ends the run with
// "Connection refused" instead of a run of losses.
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <thread>
#include <vector>

#include "error.hpp"
#include "io.hpp"
#include "pingpong.hpp"
#include "udp.hpp"

namespace mrcperf {
namespace {

constexpr std::size_t kNumberSize = 8;

// Waits until `fd` is readable or `deadline` passes; false on the latter.
bool AwaitReadable(int fd, Clock::time_point deadline, const std::string& peer) {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      return false;
    }
    pollfd p{.fd = fd, .events = POLLIN, .revents = 0};
    const int n = poll(&p, 1, static_cast<int>(left.count()));
    if (n > 0) {
      return true;
    }
    if (n < 0 && errno != EINTR) {
      throw SystemError("poll " + peer, errno);
    }
  }
}

// Sends datagram `number` and waits for its echo, skipping stale ones;
// the round trip, or nothing when the echo is lost.
std::optional<Clock::duration> Ping(const Connection& conn, const Hello& hello,
                                    std::uint64_t number, std::vector<std::uint8_t>& message,
                                    std::vector<std::uint8_t>& echo, TransferStats& stats) {
  FillPing(hello, number, message);
  const auto before = Clock::now();
  if (SendSome(conn.fd, message, conn.peer) != message.size()) {
    throw RuntimeError("send to " + conn.peer + ": datagram cut short");
  }
  const auto deadline = before + kUdpEchoTimeout;
  while (AwaitReadable(conn.fd, deadline, conn.peer)) {
    const Received got = ReceiveSome(conn.fd, echo, conn.peer);
    const auto after = Clock::now();
    if (got.bytes < kNumberSize || GetMessageNumber(std::span(echo).first(got.bytes)) != number) {
      continue;  // the late echo of a datagram already counted lost
    }
    if (got.truncated) {
      ++stats.bad_messages;
    }
    CompareEcho(message, std::span(echo).first(got.bytes), number, stats);
    return after - before;
  }
  return std::nullopt;
}

// Best effort: a server already gone answers with ICMP, which is fine.
void SendEndMarkers(int fd) {
  for (int i = 0; i < kUdpEndMarkers; ++i) {
    if (i > 0) {
      std::this_thread::sleep_for(kUdpEndMarkerSpacing);
    }
    (void)send(fd, kUdpEndMarker.data(), kUdpEndMarker.size(), MSG_NOSIGNAL);
  }
}

}  // namespace

Report RunUdpClientSession(const Connection& conn, const Options& options, std::uint64_t seed,
                           const IntervalSink& sink) {
  Report report = NewReport(conn, options, Role::kClient);
  report.pingpong = true;
  report.ping.emplace();
  report.ping->lost = 0;
  try {
    const Hello hello = HelloFor(options, seed);
    std::vector<std::uint8_t> message(options.length);
    std::vector<std::uint8_t> echo(std::size_t{options.length} + 1);
    const Exchange exchange = [&](std::uint64_t number) {
      return Ping(conn, hello, number, message, echo, report.stats);
    };
    RunExchanges(PlanFor(options), options.length, exchange, options.interval, sink, report.stats,
                 *report.ping);
    if (report.stats.messages == 0) {
      report.error = "no echo came back from " + conn.peer + " (is an mrcperf -s --udp there?)";
    }
  } catch (const RuntimeError& e) {
    report.error = e.what();
  }
  SendEndMarkers(conn.fd);
  return report;
}

}  // namespace mrcperf
