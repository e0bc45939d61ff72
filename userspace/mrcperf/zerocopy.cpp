// SPDX-License-Identifier: GPL-2.0
#include "zerocopy.hpp"

#include <linux/errqueue.h>
#include <linux/mrc.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include "error.hpp"

namespace mrcperf {
namespace {

constexpr std::size_t kBuffers = 8;
constexpr std::chrono::milliseconds kPollStep{100};

// The last send of a completed range: ee_data shares a union with RFC
// 4884's fields, which only ICMP errors use.
std::uint32_t LastOf(const sock_extended_err& ee) {
  return ee.ee_data;  // NOLINT(cppcoreguidelines-pro-type-union-access)
}

}  // namespace

ZerocopySender::ZerocopySender(int fd, std::string peer, std::size_t length,
                               std::chrono::milliseconds limit)
    : fd_(fd),
      peer_(std::move(peer)),
      limit_(limit),
      buffers_(kBuffers, std::vector<std::uint8_t>(length)),
      last_send_(kBuffers, 0) {}

std::span<std::uint8_t> ZerocopySender::Next() {
  current_ = (current_ + 1) % buffers_.size();
  if (last_send_[current_] != 0) {
    WaitFor(last_send_[current_] - 1);
  }
  return buffers_[current_];
}

std::size_t ZerocopySender::Send(std::size_t offset, std::size_t length) {
  const std::vector<std::uint8_t>& buffer = buffers_[current_];
  for (;;) {
    const ssize_t n = send(fd_, buffer.data() + offset, length, MSG_NOSIGNAL | MSG_ZEROCOPY);
    if (n > 0) {
      // Every send that queued bytes has a number, in order from 0.
      last_send_[current_] = ++stats_.sends;
      done_.push_back(false);
      return static_cast<std::size_t>(n);
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    throw SystemError("send (MSG_ZEROCOPY) to " + peer_, n < 0 ? errno : EPIPE);
  }
}

bool ZerocopySender::Done(std::uint64_t send) const { return done_[send]; }

void ZerocopySender::WaitFor(std::uint64_t send) {
  for (std::chrono::milliseconds waited{0}; !Done(send); waited += kPollStep) {
    if (waited >= limit_) {
      throw RuntimeError("send " + std::to_string(send) + " to " + peer_ + " not completed after " +
                         std::to_string(limit_.count()) + " ms");
    }
    Reap(kPollStep);
  }
}

void ZerocopySender::Drain() {
  for (std::uint64_t send = 0; send < stats_.sends; ++send) {
    WaitFor(send);
  }
}

void ZerocopySender::Reap(std::chrono::milliseconds wait) {
  pollfd pfd{.fd = fd_, .events = 0, .revents = 0};
  if (poll(&pfd, 1, static_cast<int>(wait.count())) < 0 && errno != EINTR) {
    throw SystemError("poll " + peer_, errno);
  }
  for (;;) {
    std::array<char, 128> control{};
    msghdr msg{};
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    if (recvmsg(fd_, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
      if (errno == EAGAIN || errno == EINTR) {
        return;
      }
      throw SystemError("recvmsg MSG_ERRQUEUE " + peer_, errno);
    }
    const cmsghdr* cm = CMSG_FIRSTHDR(&msg);
    if (cm == nullptr) {
      throw ProtocolError("a completion from " + peer_ + " without its control message");
    }
    sock_extended_err ee{};
    std::memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
    const std::uint32_t last = LastOf(ee);
    if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY || ee.ee_errno != 0 || last >= done_.size() ||
        ee.ee_info > last) {
      throw ProtocolError("not a completion of ours on " + peer_);
    }
    for (std::uint64_t id = ee.ee_info; id <= last; ++id) {
      if (done_[id]) {
        throw ProtocolError("send " + std::to_string(id) + " to " + peer_ + " completed twice");
      }
      done_[id] = true;
      ++stats_.completed;
      if ((ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED) != 0) {
        ++stats_.copied;
      }
    }
  }
}

void EnableZerocopy(int fd, bool mrc) {
  const int on = 1;
  const int level = mrc ? SOL_MRC : SOL_SOCKET;
  const int name = mrc ? MRC_ZEROCOPY : SO_ZEROCOPY;
  if (setsockopt(fd, level, name, &on, sizeof(on)) < 0) {
    throw SystemError(mrc ? "setsockopt MRC_ZEROCOPY" : "setsockopt SO_ZEROCOPY", errno);
  }
}

}  // namespace mrcperf
