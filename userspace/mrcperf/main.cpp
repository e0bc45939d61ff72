// SPDX-License-Identifier: GPL-2.0
// mrcperf: an iperf3-like traffic tool for AF_MRC (and TCP, MPTCP, and UDP
// for ping-pong latency). See cli.hpp.
#include <csignal>
#include <iostream>
#include <string_view>
#include <vector>

#include "cli.hpp"
#include "error.hpp"
#include "transfer.hpp"

int main(int argc, char** argv) {
  // A peer that goes away must give EPIPE, not kill us, on sockets that
  // ignore MSG_NOSIGNAL.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGUSR1, mrcperf::EndTimedSends);
  try {
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    return mrcperf::Run(args, std::cout, std::cerr);
  } catch (const std::exception& e) {  // Run() only lets allocation failures out
    std::cerr << "mrcperf: " << e.what() << '\n';
    return mrcperf::kExitRuntime;
  }
}
