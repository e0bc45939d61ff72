// SPDX-License-Identifier: GPL-2.0
// One test over one connected socket, either side: the Hello, the data,
// the client's SHUT_WR and the server's Result. Socket-agnostic, so tests
// run it over socketpair()s as well as over TCP.
#pragma once

#include <cstdint>
#include <string>

#include "meter.hpp"
#include "options.hpp"
#include "protocol.hpp"
#include "report.hpp"

namespace mrcperf {

struct Connection {
  int fd = -1;
  TransportKind transport = TransportKind::kTcp;
  std::string local;
  std::string peer;
};

// An empty report of `role` for `conn`, its start stamped now (the data
// phase stamps it again when it begins).
Report NewReport(const Connection& conn, const Options& options, Role role);

// The report of a run that failed before it had a connection.
Report FailedReport(const Options& options, const std::string& error);

// The Hello a client with these options sends.
Hello HelloFor(const Options& options, std::uint64_t seed);

// What a receiver's statistics say to the client.
Result ResultOf(const TransferStats& stats);

// Never throw: failures end up in Report::error.
Report RunClientSession(const Connection& conn, const Options& options, std::uint64_t seed,
                        const IntervalSink& sink);
Report RunServerSession(const Connection& conn, const Options& options, const IntervalSink& sink);

}  // namespace mrcperf
