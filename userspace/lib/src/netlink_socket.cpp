// SPDX-License-Identifier: GPL-2.0
// The generic netlink socket: request/answer exchange with ACK, dumps read
// to NLMSG_DONE, extended ACK errors, multicast listening.
#include "mrc/netlink_socket.hpp"

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <exception>

namespace mrc {
namespace {

// Room for bursts of events and large dump parts; the kernel caps a plain
// SO_RCVBUF at net.core.rmem_max, SO_RCVBUFFORCE (CAP_NET_ADMIN) does not.
constexpr int kRcvBuf = 4 * 1024 * 1024;
constexpr int kSndBuf = 256 * 1024;
constexpr std::size_t kMsgBuf = std::size_t{32} * 1024;

void Check(int err, const char* what) {
  if (err < 0) {
    throw Error(std::string(what) + ": " + nl_geterror(err));
  }
}

// What the callbacks learn while nl_recvmsgs() reads one answer. C++
// exceptions must not cross libnl's C frames: they are parked here.
struct Exchange {
  const std::function<void(nl_msg*)>* on_reply = nullptr;
  const std::function<bool(nl_msg*)>* on_event = nullptr;
  nl_msg* current = nullptr;
  bool done = false;
  int error = 0;
  std::string extack{};
  std::exception_ptr exception{};
};

Exchange& Of(void* arg) { return *static_cast<Exchange*>(arg); }

int OnMsgIn(nl_msg* msg, void* arg) {
  Of(arg).current = msg;
  return NL_OK;
}

int OnValid(nl_msg* msg, void* arg) {
  Exchange& x = Of(arg);
  try {
    if (x.on_reply != nullptr) {
      (*x.on_reply)(msg);
    } else if (x.on_event != nullptr && !(*x.on_event)(msg)) {
      x.done = true;
      return NL_STOP;
    }
  } catch (...) {
    x.exception = std::current_exception();
    x.done = true;
    return NL_STOP;
  }
  return NL_OK;
}

int OnAck(nl_msg* /*msg*/, void* arg) {
  Of(arg).done = true;
  return NL_STOP;
}

// NLMSG_DONE ends a dump; a dump that failed half way carries the errno.
int OnFinish(nl_msg* msg, void* arg) {
  Exchange& x = Of(arg);
  x.error = ParseAckError(nlmsg_hdr(msg), x.extack);
  x.done = true;
  return NL_STOP;
}

int OnError(sockaddr_nl* /*nla*/, nlmsgerr* err, void* arg) {
  Exchange& x = Of(arg);
  x.error = x.current != nullptr ? ParseAckError(nlmsg_hdr(x.current), x.extack) : -err->error;
  x.done = true;
  return NL_STOP;
}

int AcceptAnySeq(nl_msg* /*msg*/, void* /*arg*/) { return NL_OK; }

CbPtr NewCallbacks(Exchange& x) {
  CbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
  if (!cb) {
    throw Error("cannot allocate netlink callbacks");
  }
  nl_cb_set(cb.get(), NL_CB_MSG_IN, NL_CB_CUSTOM, OnMsgIn, &x);
  nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, OnValid, &x);
  nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, OnAck, &x);
  nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, OnFinish, &x);
  nl_cb_err(cb.get(), NL_CB_CUSTOM, OnError, &x);
  return cb;
}

void SetOption(int fd, int level, int name, int value) {
  // Best effort: an older kernel without the option still works.
  (void)setsockopt(fd, level, name, &value, sizeof(value));
}

}  // namespace

NetlinkSocket::NetlinkSocket() : sock_(nl_socket_alloc()) {
  if (!sock_) {
    throw Error("cannot allocate a netlink socket");
  }
  Check(genl_connect(sock_.get()), "cannot open a generic netlink socket");
  Check(nl_socket_set_buffer_size(sock_.get(), kRcvBuf, kSndBuf),
        "cannot size the netlink socket buffers");
  const int fd = nl_socket_get_fd(sock_.get());
  SetOption(fd, SOL_SOCKET, SO_RCVBUFFORCE, kRcvBuf);
  SetOption(fd, SOL_NETLINK, NETLINK_EXT_ACK, 1);
  nl_socket_enable_msg_peek(sock_.get());
  Check(nl_socket_set_msg_buf_size(sock_.get(), kMsgBuf), "cannot size the netlink buffer");
}

int NetlinkSocket::ResolveFamily(const std::string& name, const std::string& missing) {
  const int id = genl_ctrl_resolve(sock_.get(), name.c_str());
  if (id == -NLE_OBJ_NOTFOUND) {
    throw Error(missing);
  }
  Check(id, ("cannot resolve generic netlink family \"" + name + "\"").c_str());
  return id;
}

int NetlinkSocket::ResolveGroup(const std::string& family, const std::string& group) {
  const int id = genl_ctrl_resolve_grp(sock_.get(), family.c_str(), group.c_str());
  Check(id, ("cannot resolve multicast group \"" + group + "\" of \"" + family + "\"").c_str());
  return id;
}

void NetlinkSocket::Transact(nl_msg* msg, const std::function<void(nl_msg*)>& on_reply) {
  Exchange x{.on_reply = &on_reply};
  const CbPtr cb = NewCallbacks(x);
  Check(nl_send_auto(sock_.get(), msg), "cannot send a netlink request");
  while (!x.done) {
    const int err = nl_recvmsgs(sock_.get(), cb.get());
    if (x.exception) {
      std::rethrow_exception(x.exception);
    }
    if (x.error > 0) {
      throw KernelError(x.error, x.extack);
    }
    if (!x.done) {
      Check(err, "cannot read the netlink answer");
    }
  }
}

std::uint32_t NetlinkSocket::port() const { return nl_socket_get_local_port(sock_.get()); }

void NetlinkSocket::SetPeer(std::uint32_t port) { nl_socket_set_peer_port(sock_.get(), port); }

void NetlinkSocket::Join(int group) {
  Check(nl_socket_add_membership(sock_.get(), group), "cannot join the multicast group");
}

void NetlinkSocket::Listen(const std::function<bool(nl_msg*)>& on_event, int stop_fd,
                           const std::function<void()>& on_overrun) {
  Exchange x{.on_event = &on_event};
  const CbPtr cb = NewCallbacks(x);
  nl_cb_set(cb.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, AcceptAnySeq, nullptr);
  Check(nl_socket_set_nonblocking(sock_.get()), "cannot make the netlink socket non-blocking");
  std::array<pollfd, 2> fds{
      pollfd{.fd = nl_socket_get_fd(sock_.get()), .events = POLLIN, .revents = 0},
      pollfd{.fd = stop_fd, .events = POLLIN, .revents = 0},
  };
  while (!x.done) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error(std::string("poll: ") + std::strerror(errno));
    }
    if (fds[1].revents != 0) {
      return;
    }
    if ((fds[0].revents & (POLLIN | POLLERR)) == 0) {
      continue;
    }
    const int err = nl_recvmsgs(sock_.get(), cb.get());
    if (x.exception) {
      std::rethrow_exception(x.exception);
    }
    if (err == -NLE_NOMEM) {  // ENOBUFS: the kernel dropped events
      on_overrun();
    } else if (err < 0 && err != -NLE_AGAIN && !x.done) {
      Check(err, "cannot read netlink events");
    }
  }
}

}  // namespace mrc
