// SPDX-License-Identifier: GPL-2.0
// Owning handles for libnl objects: a unique_ptr per type with the matching
// libnl release function, so no libnl object is ever freed by hand.
#pragma once

#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include <memory>

namespace mrc {

struct SockDeleter {
  void operator()(nl_sock* sock) const { nl_socket_free(sock); }
};
struct MsgDeleter {
  void operator()(nl_msg* msg) const { nlmsg_free(msg); }
};
struct CbDeleter {
  void operator()(nl_cb* cb) const { nl_cb_put(cb); }
};

using SockPtr = std::unique_ptr<nl_sock, SockDeleter>;
using MsgPtr = std::unique_ptr<nl_msg, MsgDeleter>;
using CbPtr = std::unique_ptr<nl_cb, CbDeleter>;

}  // namespace mrc
