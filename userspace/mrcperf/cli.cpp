// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <ostream>
#include <random>

#include "error.hpp"
#include "report.hpp"
#include "session.hpp"

namespace mrcperf {
namespace {

void Print(const Report& report, const Options& options, std::ostream& out, std::ostream& err) {
  if (options.json) {
    out << ToJson(report).dump(2) << '\n';
  } else if (!report.peer.empty()) {  // nothing to sum up before a connection
    out << SummaryText(report);
  }
  if (report.error) {
    err << "mrcperf: " << *report.error << '\n';
  }
  out.flush();
}

// A report for a run that failed before it had a connection.
Report Failed(const Options& options, const std::string& error) {
  Report report;
  report.role = options.role;
  report.transport = options.transport;
  report.mode = options.mode;
  report.verify = options.verify;
  report.error = error;
  return report;
}

IntervalSink SinkFor(const Options& options, std::ostream& out) {
  if (options.json || options.interval.count() == 0) {
    return {};
  }
  return [&out, mode = options.mode](const Interval& interval) {
    out << IntervalText(interval, mode) << std::flush;
  };
}

std::uint64_t RandomSeed() {
  std::random_device device;
  return (std::uint64_t{device()} << 32U) | device();
}

std::uint16_t PortOf(const Endpoint& endpoint) {
  const auto colon = endpoint.text.rfind(':');
  return static_cast<std::uint16_t>(std::stoul(endpoint.text.substr(colon + 1)));
}

}  // namespace

Server::Server(const Options& options, std::ostream& out, std::ostream& err)
    : options_(options), out_(out), err_(err), transport_(Transport::For(options.transport)) {
  const Endpoint local = transport_.Resolve(options.bind_host, options.port);
  listener_ = transport_.Listen(local, options.mode);
  const Endpoint bound = transport_.LocalOf(listener_.get());
  port_ = PortOf(bound);
  if (!options_.json) {
    out_ << "Server listening on " << bound.text << " (" << Name(options.transport) << ' '
         << Name(options.mode) << ")\n"
         << std::flush;
  }
}

int Server::ServeOne() {
  Fd fd;
  do {
    fd.Reset(accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
  } while (!fd.valid() && errno == EINTR);
  if (!fd.valid()) {
    throw SystemError("accept", errno);
  }
  Report report;
  try {
    const Connection conn{.fd = fd.get(),
                          .transport = options_.transport,
                          .local = transport_.LocalOf(fd.get()).text,
                          .peer = transport_.PeerOf(fd.get()).text};
    if (options_.timeout) {
      transport_.ApplyTimeout(fd.get(), *options_.timeout);
    }
    if (!options_.json) {
      out_ << "Accepted " << conn.peer << '\n' << std::flush;
    }
    report = RunServerSession(conn, options_, SinkFor(options_, out_));
  } catch (const RuntimeError& e) {
    report = Failed(options_, e.what());
  }
  Print(report, options_, out_, err_);
  return ExitStatus(report);
}

int Server::Serve() {
  if (options_.one_off) {
    return ServeOne();
  }
  for (;;) {
    ServeOne();
  }
}

int RunClient(const Options& options, std::ostream& out, std::ostream& err) {
  Report report;
  try {
    const Transport transport = Transport::For(options.transport);
    const Endpoint remote = transport.Resolve(options.host, options.port);
    std::optional<Endpoint> local;
    if (!options.bind_host.empty()) {
      local = transport.Resolve(options.bind_host, 0);
    }
    const Fd fd = transport.Connect(remote, local, options.mode, options.timeout);
    const Connection conn{.fd = fd.get(),
                          .transport = options.transport,
                          .local = transport.LocalOf(fd.get()).text,
                          .peer = remote.text};
    if (!options.json) {
      out << "Connected " << conn.local << " -> " << conn.peer << " (" << Name(options.transport)
          << ' ' << Name(options.mode) << ", " << options.length << "-byte "
          << (options.mode == Mode::kSeqpacket ? "messages" : "sends")
          << (options.verify ? ", verify" : "") << ")\n"
          << std::flush;
    }
    report = RunClientSession(conn, options, RandomSeed(), SinkFor(options, out));
  } catch (const RuntimeError& e) {
    report = Failed(options, e.what());
  }
  Print(report, options, out, err);
  return ExitStatus(report);
}

int Run(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
  Options options;
  try {
    options = ParseOptions(args);
  } catch (const UsageError& e) {
    err << "mrcperf: " << e.what() << '\n' << UsageText();
    return kExitUsage;
  }
  if (options.help) {
    out << UsageText();
    return kExitOk;
  }
  if (options.role == Role::kClient) {
    return RunClient(options, out, err);
  }
  try {
    Server server(options, out, err);
    return server.Serve();
  } catch (const RuntimeError& e) {
    const Report report = Failed(options, e.what());
    Print(report, options, out, err);
    return kExitRuntime;
  }
}

}  // namespace mrcperf
