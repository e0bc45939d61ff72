// SPDX-License-Identifier: GPL-2.0
// mrcperf's front: the command line to a server or client run, sockets
// opened through Transport, reports printed as text or JSON.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

#include "mrc/fd.hpp"
#include "options.hpp"
#include "printer.hpp"
#include "transport.hpp"

namespace mrcperf {

// Parses `args` (without the program name) and runs; returns the exit
// status. Never throws.
int Run(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);

// A listening server (AF_MRC, TCP, MPTCP; UdpServer for --udp). Apart so
// that tests can learn the port before a client connects.
class Server {
 public:
  // Binds and listens; throws RuntimeError.
  Server(const Options& options, std::ostream& out, std::ostream& err);

  [[nodiscard]] std::uint16_t port() const { return port_; }

  // Accepts one client and serves it; returns its exit status.
  int ServeOne();

  // --clients N (-1 is 1): serves N clients, each on its own thread as it
  // comes, and returns the worst status; without it serves clients the
  // same way until an accept() fails.
  int Serve();

 private:
  [[nodiscard]] Fd Accept() const;
  // Never throws: failures end up in the report.
  Report ServeConnection(const Fd& fd, const std::string& tag);
  int ServeMany(std::uint32_t clients);
  [[noreturn]] void ServeForever();

  Options options_;
  Printer printer_;
  Transport transport_;
  Fd listener_;
  std::uint16_t port_ = 0;
};

// Connects (-P connections at once), runs the test, prints the report;
// returns the exit status.
int RunClient(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace mrcperf
