// SPDX-License-Identifier: GPL-2.0
// UDP datagrams for the echo server: each one received with the address
// it was sent to, so that the echo leaves from that address even on a
// wildcard-bound socket of a host with several. A client's connected UDP
// socket takes only datagrams from the address it sent to.
#pragma once

#include <sys/socket.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace mrcperf {

struct Datagram {
  std::size_t bytes = 0;
  bool truncated = false;
  sockaddr_storage from{};
  socklen_t from_len = 0;
  // The IP_PKTINFO / IPV6_PKTINFO control message that came with it.
  alignas(cmsghdr) std::array<std::uint8_t, 64> control{};
  std::size_t control_len = 0;
};

// Asks the kernel for each datagram's destination address on a UDP
// socket of `family` (AF_INET or AF_INET6); throws SystemError.
void ReceiveDestinations(int fd, int family);

// recvmsg() once, EINTR retried; throws SystemError (ETIMEDOUT for an
// SO_RCVTIMEO expiry).
Datagram ReceiveDatagram(int fd, std::span<std::uint8_t> buffer);

// Sends `data` back to where `datagram` came from, from the address it
// was sent to; throws SystemError.
void SendBack(int fd, Datagram& datagram, std::span<std::uint8_t> data);

}  // namespace mrcperf
