// SPDX-License-Identifier: GPL-2.0
// mrcperf's front: the command line to a server or client run, sockets
// opened through Transport, reports printed as text or JSON.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string_view>

#include "mrc/fd.hpp"
#include "options.hpp"
#include "transport.hpp"

namespace mrcperf {

// Parses `args` (without the program name) and runs; returns the exit
// status. Never throws.
int Run(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);

// A listening server. Apart so that tests can learn the port before a
// client connects.
class Server {
 public:
  // Binds and listens; throws RuntimeError.
  Server(const Options& options, std::ostream& out, std::ostream& err);

  [[nodiscard]] std::uint16_t port() const { return port_; }

  // Accepts one client and serves it; returns its exit status.
  int ServeOne();

  // -1: ServeOne() once; otherwise serves clients until an accept() fails.
  int Serve();

 private:
  Options options_;
  std::ostream& out_;
  std::ostream& err_;
  Transport transport_;
  Fd listener_;
  std::uint16_t port_ = 0;
};

// Connects, runs one test, prints the report; returns the exit status.
int RunClient(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace mrcperf
