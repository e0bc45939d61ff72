// SPDX-License-Identifier: GPL-2.0
#include "datagram.hpp"

#include <netinet/in.h>

#include <cerrno>
#include <cstring>

#include "error.hpp"

namespace mrcperf {
namespace {

// The received IPv4 packet info becomes the source of the reply: the
// address the datagram came to, the interface left to routing.
void ReplyFromDestination(msghdr& msg) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
      in_pktinfo info{};
      std::memcpy(&info, CMSG_DATA(c), sizeof(info));
      info.ipi_spec_dst = info.ipi_addr;
      info.ipi_ifindex = 0;
      std::memcpy(CMSG_DATA(c), &info, sizeof(info));
    }
    // IPV6_PKTINFO goes back as it came: ipi6_addr, the destination, is
    // the source to use, and the interface matters for link-local peers.
  }
}

}  // namespace

void ReceiveDestinations(int fd, int family) {
  const int on = 1;
  const int level = family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP;
  const int option = family == AF_INET6 ? IPV6_RECVPKTINFO : IP_PKTINFO;
  if (setsockopt(fd, level, option, &on, sizeof(on)) < 0) {
    throw SystemError(family == AF_INET6 ? "setsockopt IPV6_RECVPKTINFO" : "setsockopt IP_PKTINFO",
                      errno);
  }
}

Datagram ReceiveDatagram(int fd, std::span<std::uint8_t> buffer) {
  Datagram datagram;
  for (;;) {
    iovec iov{.iov_base = buffer.data(), .iov_len = buffer.size()};
    msghdr msg{};
    msg.msg_name = &datagram.from;
    msg.msg_namelen = sizeof(datagram.from);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = datagram.control.data();
    msg.msg_controllen = datagram.control.size();
    const ssize_t n = recvmsg(fd, &msg, 0);
    if (n >= 0) {
      datagram.bytes = static_cast<std::size_t>(n);
      datagram.truncated = (static_cast<unsigned>(msg.msg_flags) & MSG_TRUNC) != 0;
      datagram.from_len = msg.msg_namelen;
      datagram.control_len = msg.msg_controllen;
      return datagram;
    }
    if (errno != EINTR) {
      throw SystemError("recv", errno == EAGAIN || errno == EWOULDBLOCK ? ETIMEDOUT : errno);
    }
  }
}

void SendBack(int fd, Datagram& datagram, std::span<std::uint8_t> data) {
  iovec iov{.iov_base = data.data(), .iov_len = data.size()};
  msghdr msg{};
  msg.msg_name = &datagram.from;
  msg.msg_namelen = datagram.from_len;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (datagram.control_len > 0) {
    msg.msg_control = datagram.control.data();
    msg.msg_controllen = datagram.control_len;
    ReplyFromDestination(msg);
  }
  while (sendmsg(fd, &msg, MSG_NOSIGNAL) < 0) {
    if (errno != EINTR) {
      throw SystemError("send", errno);
    }
  }
}

}  // namespace mrcperf
