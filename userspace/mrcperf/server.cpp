// SPDX-License-Identifier: GPL-2.0
// The connected-socket server: every client served on its own thread, so
// that --clients N sees N concurrent connections the way -P N makes them.
#include <sys/socket.h>

#include <cerrno>
#include <thread>
#include <vector>

#include "aggregate.hpp"
#include "cli.hpp"
#include "crew.hpp"
#include "error.hpp"
#include "session.hpp"

namespace mrcperf {

Server::Server(const Options& options, std::ostream& out, std::ostream& err)
    : options_(options),
      printer_(options, out, err),
      transport_(Transport::For(options.transport)) {
  const Endpoint local = transport_.Resolve(options.bind_host, options.port);
  listener_ = transport_.Listen(local, options.mode);
  const Endpoint bound = transport_.LocalOf(listener_.get());
  port_ = PortOf(bound);
  printer_.Line("", "Server listening on " + bound.text + " (" +
                        std::string(Name(options.transport)) + ' ' +
                        std::string(Name(options.mode)) + ")\n");
}

Fd Server::Accept() const {
  Fd fd;
  do {
    fd.Reset(accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
  } while (!fd.valid() && errno == EINTR);
  if (!fd.valid()) {
    throw SystemError("accept", errno);
  }
  return fd;
}

Report Server::ServeConnection(const Fd& fd, const std::string& tag) {
  try {
    const Connection conn{.fd = fd.get(),
                          .transport = options_.transport,
                          .local = transport_.LocalOf(fd.get()).text,
                          .peer = transport_.PeerOf(fd.get()).text};
    if (options_.timeout) {
      transport_.ApplyTimeout(fd.get(), *options_.timeout);
    }
    printer_.Line(tag, "Accepted " + conn.peer + '\n');
    return RunServerSession(conn, options_, printer_.Sink(tag));
  } catch (const RuntimeError& e) {
    return FailedReport(options_, e.what());
  }
}

int Server::ServeOne() {
  const Fd fd = Accept();
  const Report report = ServeConnection(fd, "");
  printer_.Single(report);
  return ExitStatus(report);
}

int Server::ServeMany(std::uint32_t clients) {
  std::vector<Report> reports(clients);
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < clients; ++i) {
      threads.emplace_back([this, &reports, i, fd = Accept()] {
        reports[i] = ServeConnection(fd, Tag(i));
        printer_.Part(Tag(i), reports[i]);
      });
    }
  }  // joined: every client done
  printer_.Total(reports);
  return WorstStatus(reports);
}

void Server::ServeForever() {
  Crew crew;
  for (;;) {
    crew.Spawn([this, fd = Accept()] { printer_.Single(ServeConnection(fd, "")); });
  }
}

int Server::Serve() {
  if (options_.clients == 1) {
    return ServeOne();
  }
  if (options_.clients == 0) {
    ServeForever();
  }
  return ServeMany(options_.clients);
}

}  // namespace mrcperf
