// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <ostream>

#include "error.hpp"
#include "session.hpp"
#include "udp.hpp"

namespace mrcperf {
namespace {

int RunServer(const Options& options, std::ostream& out, std::ostream& err) {
  if (options.transport == TransportKind::kUdp) {
    UdpServer server(options, out, err);
    return server.Serve();
  }
  Server server(options, out, err);
  return server.Serve();
}

}  // namespace

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
    return RunServer(options, out, err);
  } catch (const RuntimeError& e) {
    Printer(options, out, err).Single(FailedReport(options, e.what()));
    return kExitRuntime;
  }
}

}  // namespace mrcperf
