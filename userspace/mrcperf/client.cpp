// SPDX-License-Identifier: GPL-2.0
// The client: one connection, or -P of them at once, each on its own
// thread with its own seed, started together (start_line.hpp) and
// reported together.
#include <cerrno>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include "aggregate.hpp"
#include "cli.hpp"
#include "error.hpp"
#include "session.hpp"
#include "start_line.hpp"
#include "udp.hpp"

namespace mrcperf {
namespace {

std::uint64_t RandomSeed() {
  std::random_device device;
  return (std::uint64_t{device()} << 32U) | device();
}

std::string ConnectedText(const Connection& conn, const Options& options) {
  const bool messages =
      options.mode == Mode::kSeqpacket || options.transport == TransportKind::kUdp;
  return "Connected " + conn.local + " -> " + conn.peer + " (" +
         std::string(Name(options.transport)) + ' ' +
         std::string(ModeName(options.transport, options.mode)) +
         (options.pingpong ? " ping-pong" : "") + ", " + std::to_string(options.length) + "-byte " +
         (messages ? "messages" : "sends") + (options.verify ? ", verify" : "") + ")\n";
}

// connect(), tried again every 50 ms while the server refuses and
// --wait-server has time left.
Fd ConnectWaiting(const Transport& transport, const Endpoint& remote,
                  const std::optional<Endpoint>& local, const Options& options) {
  const auto deadline = std::chrono::steady_clock::now() + options.wait_server;
  for (;;) {
    try {
      return transport.Connect(remote, local, options.mode, options.timeout);
    } catch (const SystemError& e) {
      if (e.error() != ECONNREFUSED || std::chrono::steady_clock::now() >= deadline) {
        throw;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// One connection of the run, from connect() to the report; never throws.
// `line` (nullptr for a single connection) holds the transfer until every
// connection of the run is connected.
Report RunConnection(const Options& options, Printer& printer, const std::string& tag,
                     StartLine* line) {
  StartLine::Ticket ticket(line);
  try {
    const Transport transport = Transport::For(options.transport);
    const Endpoint remote = transport.Resolve(options.host, options.port);
    std::optional<Endpoint> local;
    if (!options.bind_host.empty()) {
      local = transport.Resolve(options.bind_host, 0);
    }
    const Fd fd = ConnectWaiting(transport, remote, local, options);
    const Connection conn{.fd = fd.get(),
                          .transport = options.transport,
                          .local = transport.LocalOf(fd.get()).text,
                          .peer = remote.text};
    printer.Line(tag, ConnectedText(conn, options));
    ticket.Wait();
    if (options.transport == TransportKind::kUdp) {
      return RunUdpClientSession(conn, options, RandomSeed(), printer.Sink(tag));
    }
    return RunClientSession(conn, options, RandomSeed(), printer.Sink(tag));
  } catch (const RuntimeError& e) {
    return FailedReport(options, e.what());
  }
}

}  // namespace

int RunClient(const Options& options, std::ostream& out, std::ostream& err) {
  Printer printer(options, out, err);
  if (options.parallel == 1) {
    const Report report = RunConnection(options, printer, "", nullptr);
    printer.Single(report);
    return ExitStatus(report);
  }
  std::vector<Report> reports(options.parallel);
  StartLine line(reports.size());
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < reports.size(); ++i) {
      threads.emplace_back([&, i] {
        reports[i] = RunConnection(options, printer, Tag(i), &line);
        printer.Part(Tag(i), reports[i]);
      });
    }
  }  // joined: every connection done
  printer.Total(reports);
  return WorstStatus(reports);
}

}  // namespace mrcperf
