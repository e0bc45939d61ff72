// SPDX-License-Identifier: GPL-2.0
// The echo comes back before the server does any book-keeping, so the
// client times the network and the two system calls, nothing more.
#include <algorithm>
#include <optional>
#include <vector>

#include "aggregate.hpp"
#include "datagram.hpp"
#include "error.hpp"
#include "udp.hpp"

namespace mrcperf {
namespace {

bool IsEndMarker(const Datagram& datagram, std::span<const std::uint8_t> buffer) {
  return datagram.bytes == kUdpEndMarker.size() &&
         std::equal(kUdpEndMarker.begin(), kUdpEndMarker.end(), buffer.begin());
}

}  // namespace

UdpServer::UdpServer(const Options& options, std::ostream& out, std::ostream& err)
    : options_(options),
      printer_(options, out, err),
      transport_(Transport::For(options.transport)) {
  const Endpoint local = transport_.Resolve(options.bind_host, options.port);
  socket_ = transport_.Bind(local, options.mode);
  ReceiveDestinations(socket_.get(), local.domain);
  if (options.timeout) {
    transport_.ApplyTimeout(socket_.get(), *options.timeout);
  }
  const Endpoint bound = transport_.LocalOf(socket_.get());
  local_ = bound.text;
  port_ = PortOf(bound);
  printer_.Line("", "Server echoing UDP on " + bound.text + "\n");
}

Report UdpServer::ServeRun(const std::string& tag) {
  Connection conn;
  conn.transport = TransportKind::kUdp;
  conn.local = local_;
  Report report = NewReport(conn, options_, Role::kServer);
  report.pingpong = true;
  TransferStats& stats = report.stats;
  std::vector<std::uint8_t> buffer(kUdpBuffer);
  std::optional<Meter> meter;  // from the run's first datagram on
  auto last = stats.start;
  try {
    for (;;) {
      Datagram datagram = ReceiveDatagram(socket_.get(), buffer);
      const auto now = Clock::now();
      if (IsEndMarker(datagram, buffer)) {
        if (stats.messages > 0) {
          break;
        }
        continue;  // a repeat of the last run's marker
      }
      SendBack(socket_.get(), datagram, std::span(buffer).first(datagram.bytes));
      if (!meter) {
        MarkStart(stats);
        last = stats.start;
        meter.emplace(stats.start, options_.interval, printer_.Sink(tag));
        report.peer = transport_.Describe(datagram.from, datagram.from_len).text;
        printer_.Line(tag, "Echoing " + report.peer + '\n');
      }
      meter->Record(now, datagram.bytes, 1, now - last);
      last = now;
      stats.bytes += datagram.bytes;
      ++stats.messages;
    }
  } catch (const RuntimeError& e) {
    report.error = e.what();
  }
  if (meter) {
    meter->Finish(last);
    CompleteStats(stats, *meter, last);
  }
  return report;
}

int UdpServer::Serve() {
  if (options_.clients == 1) {
    const Report report = ServeRun("");
    printer_.Single(report);
    return ExitStatus(report);
  }
  if (options_.clients == 0) {
    for (;;) {
      const Report report = ServeRun("");
      printer_.Single(report);
      if (report.error) {
        return ExitStatus(report);
      }
    }
  }
  std::vector<Report> reports;
  while (reports.size() < options_.clients) {
    reports.push_back(ServeRun(Tag(reports.size())));
    printer_.Part(Tag(reports.size() - 1), reports.back());
    if (reports.back().error) {
      break;  // the socket failed: the runs left would too
    }
  }
  printer_.Total(reports);
  return WorstStatus(reports);
}

}  // namespace mrcperf
