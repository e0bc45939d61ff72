// SPDX-License-Identifier: GPL-2.0
// Which socket carries the data. Everything above this file works on a
// connected file descriptor; only here do AF_MRC, TCP, MPTCP and UDP
// differ (address format, socket family, type and protocol, user timeout
// option). MPTCP is AF_INET/AF_INET6 with IPPROTO_MPTCP; UDP sockets are
// bound (server) or connected (client) but never listen.
#pragma once

#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mrc/fd.hpp"
#include "options.hpp"

namespace mrcperf {

using mrc::Fd;

// A socket address ready for bind()/connect(), and how to print it.
struct Endpoint {
  sockaddr_storage addr{};
  socklen_t len = 0;
  int domain = 0;    // socket() family: AF_INET, AF_INET6 or the live AF_MRC
  std::string text;  // "10.0.0.1:5201", "[fd00::1]:5201"
};

class Transport {
 public:
  // For kMrc reads the live AF_MRC number from sysfs; throws RuntimeError
  // when mrc.ko is not loaded.
  static Transport For(TransportKind kind);
  // AF_MRC with a family number the caller already knows (tests).
  static Transport Mrc(int family) { return {TransportKind::kMrc, family}; }

  [[nodiscard]] TransportKind kind() const { return kind_; }

  // `host`: a name or an IPv4/IPv6 literal; empty means any address.
  [[nodiscard]] Endpoint Resolve(std::string_view host, std::uint16_t port) const;

  // A new socket for `endpoint`'s family. For MPTCP a kernel without it
  // (or with net.mptcp.enabled=0) gives RuntimeError(kMptcpUnavailable).
  [[nodiscard]] Fd Socket(const Endpoint& endpoint, Mode mode) const;

  // A socket bound to `local`. Port 0 picks a free port.
  [[nodiscard]] Fd Bind(const Endpoint& local, Mode mode) const;

  // A socket bound to `local` and listening. Port 0 picks a free port.
  [[nodiscard]] Fd Listen(const Endpoint& local, Mode mode) const;

  // Connects to `remote`, from `local` when given. With `timeout`, connect()
  // gives up after it (ETIMEDOUT) and the socket is prepared by
  // ApplyTimeout.
  [[nodiscard]] Fd Connect(const Endpoint& remote, const std::optional<Endpoint>& local, Mode mode,
                           std::optional<std::chrono::milliseconds> timeout) const;

  // send()/recv() fail after `timeout` without progress (SO_SNDTIMEO,
  // SO_RCVTIMEO), and so does the connection when data stays unacknowledged
  // that long (TCP_USER_TIMEOUT / MRC_USER_TIMEOUT; MPTCP sockets of
  // kernels that refuse TCP_USER_TIMEOUT do without it; UDP has none).
  void ApplyTimeout(int fd, std::chrono::milliseconds timeout) const;

  // The local or peer address of a connected or bound socket.
  [[nodiscard]] Endpoint LocalOf(int fd) const;
  [[nodiscard]] Endpoint PeerOf(int fd) const;

  // An address as recvfrom()/accept() gave it.
  [[nodiscard]] Endpoint Describe(const sockaddr_storage& addr, socklen_t len) const;

 private:
  Transport(TransportKind kind, int mrc_family) : kind_(kind), mrc_family_(mrc_family) {}

  TransportKind kind_;
  int mrc_family_;  // AF_MRC of the loaded mrc.ko; unused for the others
};

inline constexpr std::string_view kMptcpUnavailable =
    "MPTCP is not available in this kernel (net.mptcp.enabled?)";

// The port of an endpoint, read back from its text.
std::uint16_t PortOf(const Endpoint& endpoint);

// TCP_NODELAY, best effort: a socket that refuses it only costs latency.
void SetNoDelay(int fd);

}  // namespace mrcperf
