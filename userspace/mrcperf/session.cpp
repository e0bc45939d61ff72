// SPDX-License-Identifier: GPL-2.0
// Both sides agree on the byte count at the end: the client compares what
// it sent with the server's Result, the server with the Hello's total.
#include "session.hpp"

#include <sys/socket.h>

#include <cerrno>

#include "error.hpp"
#include "io.hpp"
#include "pingpong.hpp"
#include "transport.hpp"
#include "zerocopy.hpp"

namespace mrcperf {
namespace {

// How long a --zerocopy send may take to complete without --timeout.
constexpr std::chrono::milliseconds kZerocopyLimit{60000};

std::string ShortTransfer(std::string_view expected_what, std::uint64_t expected,
                          std::string_view got_what, std::uint64_t got) {
  return "short transfer: " + std::string(expected_what) + " " + std::to_string(expected) +
         " bytes, " + std::string(got_what) + " " + std::to_string(got);
}

Hello ReceiveHello(const Connection& conn, const Options& options) {
  std::array<std::uint8_t, kHelloSize> bytes{};
  if (!ReceiveRecord(conn.fd, options.mode, bytes, conn.peer)) {
    throw ProtocolError(conn.peer + " closed the connection before its hello");
  }
  const Hello hello = DecodeHello(bytes);
  if (hello.mode != options.mode) {
    throw ProtocolError(conn.peer + " asks for " + std::string(Name(hello.mode)) +
                        " mode, this server runs " + std::string(Name(options.mode)));
  }
  if (options.verify && !hello.verify) {
    throw ProtocolError(conn.peer + " does not send a --verify pattern; this server requires it");
  }
  if (options.pingpong && !hello.pingpong) {
    throw ProtocolError(conn.peer + " asks for a throughput run; this server runs --pingpong");
  }
  return hello;
}

// Nagle's algorithm would hold back a message while an earlier one is
// unacknowledged; a ping-pong wants every message out at once. Only TCP
// and MPTCP have it; a failure costs latency, not correctness, so it is
// not fatal (the socketpairs of the tests refuse it).
void PreferLatency(const Connection& conn) {
  if (conn.transport == TransportKind::kTcp || conn.transport == TransportKind::kMptcp) {
    SetNoDelay(conn.fd);
  }
}

}  // namespace

Report NewReport(const Connection& conn, const Options& options, Role role) {
  Report report;
  report.role = role;
  report.transport = conn.transport;
  report.mode = options.mode;
  report.verify = options.verify;
  report.pingpong = options.pingpong;
  report.local = conn.local;
  report.peer = conn.peer;
  MarkStart(report.stats);
  return report;
}

Report FailedReport(const Options& options, const std::string& error) {
  Connection none;
  none.transport = options.transport;
  Report report = NewReport(none, options, options.role);
  report.error = error;
  return report;
}

Hello HelloFor(const Options& options, std::uint64_t seed) {
  // A counted ping-pong announces its bytes so that the server can tell a
  // short run, as with -n.
  const std::uint64_t total = options.pingpong && options.count != 0
                                  ? (std::uint64_t{options.warmup} + options.count) * options.length
                                  : options.bytes;
  return {.mode = options.mode,
          .verify = options.verify,
          .pingpong = options.pingpong,
          .length = options.length,
          .total_bytes = total,
          .duration = total != 0 ? std::chrono::milliseconds(0) : options.duration,
          .seed = seed};
}

Result ResultOf(const TransferStats& stats) {
  return {.bytes = stats.bytes,
          .messages = stats.messages,
          .mismatches = stats.mismatches,
          .bad_messages = stats.bad_messages,
          .first_mismatch = stats.first_mismatch,
          .longest_gap = stats.longest_gap,
          .duration = stats.duration};
}

Report RunClientSession(const Connection& conn, const Options& options, std::uint64_t seed,
                        const IntervalSink& sink) {
  Report report = NewReport(conn, options, Role::kClient);
  try {
    const Hello hello = HelloFor(options, seed);
    SendRecord(conn.fd, options.mode, Encode(hello), conn.peer);
    const TransferSetup setup{.fd = conn.fd,
                              .peer = conn.peer,
                              .hello = hello,
                              .interval = options.interval,
                              .sink = sink,
                              .zerocopy = options.zerocopy,
                              .zerocopy_limit = options.timeout.value_or(kZerocopyLimit)};
    if (options.zerocopy) {
      EnableZerocopy(conn.fd, options.transport == TransportKind::kMrc);
    }
    if (options.pingpong) {
      PreferLatency(conn);
      report.ping.emplace();
      PingData(setup, PlanFor(options), report.stats, *report.ping);
    } else {
      SendData(setup, report.stats);
    }
    if (shutdown(conn.fd, SHUT_WR) < 0) {
      throw SystemError("shutdown " + conn.peer, errno);
    }
    std::array<std::uint8_t, kResultSize> bytes{};
    if (!ReceiveRecord(conn.fd, options.mode, bytes, conn.peer)) {
      throw RuntimeError("server " + conn.peer + " closed the connection without a result");
    }
    report.server = DecodeResult(bytes);
    if (report.server->bytes != report.stats.bytes) {
      report.error =
          ShortTransfer("sent", report.stats.bytes, "server received", report.server->bytes);
    }
  } catch (const RuntimeError& e) {
    report.error = e.what();
  }
  return report;
}

Report RunServerSession(const Connection& conn, const Options& options, const IntervalSink& sink) {
  Report report = NewReport(conn, options, Role::kServer);
  try {
    const Hello hello = ReceiveHello(conn, options);
    report.verify = hello.verify;
    report.pingpong = hello.pingpong;
    const TransferSetup setup{.fd = conn.fd,
                              .peer = conn.peer,
                              .hello = hello,
                              .interval = options.interval,
                              .sink = sink};
    if (hello.pingpong) {
      PreferLatency(conn);
      EchoData(setup, report.stats);
    } else {
      ReceiveData(setup, report.stats);
    }
    if (hello.total_bytes != 0 && report.stats.bytes != hello.total_bytes) {
      report.error = ShortTransfer("expected", hello.total_bytes, "received", report.stats.bytes);
    }
    SendRecord(conn.fd, options.mode, Encode(ResultOf(report.stats)), conn.peer);
  } catch (const RuntimeError& e) {
    report.error = e.what();
  }
  return report;
}

}  // namespace mrcperf
