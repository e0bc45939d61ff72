// SPDX-License-Identifier: GPL-2.0
// A generic netlink socket (libnl-genl-3) that sends one request at a time
// and reads every part of its answer: the reply messages, then the ACK or,
// for dumps, NLMSG_DONE. Kernel errors become mrc::KernelError with the
// extended ACK text. Also joins multicast groups and listens for events.
#pragma once

#include <netlink/msg.h>

#include <cstdint>
#include <functional>
#include <string>

#include "mrc/error.hpp"
#include "mrc/netlink.hpp"

namespace mrc {

// Reads the errno and extended ACK of an NLMSG_ERROR or NLMSG_DONE message
// (the latter ends a dump that failed half way). Returns 0 for an ACK.
int ParseAckError(nlmsghdr* hdr, std::string& extack);

class NetlinkSocket {
 public:
  // Connects to NETLINK_GENERIC with extended ACKs enabled and a receive
  // buffer large enough for long dumps and bursts of events.
  NetlinkSocket();

  // The id of generic netlink family `name`; throws `missing` when the
  // family is not registered.
  int ResolveFamily(const std::string& name, const std::string& missing);
  int ResolveGroup(const std::string& family, const std::string& group);

  // Sends `msg` and calls `on_reply` for every reply message until the
  // kernel's ACK or NLMSG_DONE. Throws KernelError when the kernel refuses.
  void Transact(nl_msg* msg, const std::function<void(nl_msg*)>& on_reply);

  // This socket's netlink port id, and the peer it talks to: the kernel
  // (0) unless a test points it at a user-space stand-in.
  [[nodiscard]] std::uint32_t port() const;
  void SetPeer(std::uint32_t port);

  // Joins multicast group `group` (see ResolveGroup) for Listen().
  void Join(int group);

  // Calls `on_event` for every multicast message until `stop_fd` becomes
  // readable or `on_event` returns false. Lost events (receive buffer
  // overrun) are reported through `on_overrun`.
  void Listen(const std::function<bool(nl_msg*)>& on_event, int stop_fd,
              const std::function<void()>& on_overrun);

 private:
  SockPtr sock_;
};

}  // namespace mrc
