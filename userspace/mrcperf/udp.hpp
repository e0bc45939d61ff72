// SPDX-License-Identifier: GPL-2.0
// The raw-UDP floor of the ping-pong (--udp --pingpong): no handshake, no
// Hello, no Result. Each datagram carries an 8-byte big-endian sequence
// number, padded with the pattern to -l bytes; the server sends every
// datagram back to its sender as it is. A client waits kUdpEchoTimeout
// for the echo of its current number, ignoring stale ones; an echo that
// does not come in time is lost, not a sample. At the end the client
// sends the 4-byte end marker "MRPE" a few times (UDP may drop one); the
// server closes the run at the first and ignores the repeats.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "mrc/fd.hpp"
#include "options.hpp"
#include "printer.hpp"
#include "report.hpp"
#include "session.hpp"
#include "transport.hpp"

namespace mrcperf {

inline constexpr std::array<std::uint8_t, 4> kUdpEndMarker{'M', 'R', 'P', 'E'};
inline constexpr int kUdpEndMarkers = 3;
inline constexpr std::chrono::milliseconds kUdpEndMarkerSpacing{10};
inline constexpr std::chrono::milliseconds kUdpEchoTimeout{200};
inline constexpr std::size_t kUdpBuffer = 65536;  // above any UDP payload

// The echo server. A run is what one client sends up to its end marker;
// runs follow each other (clients at the same time would share one).
class UdpServer {
 public:
  // Binds; throws RuntimeError.
  UdpServer(const Options& options, std::ostream& out, std::ostream& err);

  [[nodiscard]] std::uint16_t port() const { return port_; }

  // --clients N (-1 is 1): serves N runs and returns the worst status;
  // without it serves runs until one fails.
  int Serve();

  // Echoes one run; never throws.
  Report ServeRun(const std::string& tag);

 private:
  Options options_;
  Printer printer_;
  Transport transport_;
  Fd socket_;
  std::string local_;
  std::uint16_t port_ = 0;
};

// The client's side over a connected UDP socket; never throws.
Report RunUdpClientSession(const Connection& conn, const Options& options, std::uint64_t seed,
                           const IntervalSink& sink);

}  // namespace mrcperf
