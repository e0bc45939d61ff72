// SPDX-License-Identifier: GPL-2.0
#include "io.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "error.hpp"

namespace mrcperf {
namespace {

// SO_SNDTIMEO/SO_RCVTIMEO expiry shows as EAGAIN on a blocking socket.
int TimeoutAsEtimedout(int error) {
  return error == EAGAIN || error == EWOULDBLOCK ? ETIMEDOUT : error;
}

}  // namespace

std::size_t SendSome(int fd, std::span<const std::uint8_t> data, const std::string& peer) {
  for (;;) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0 || (n == 0 && data.empty())) {
      return static_cast<std::size_t>(n);
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    throw SystemError("send to " + peer, n < 0 ? TimeoutAsEtimedout(errno) : EPIPE);
  }
}

Received ReceiveSome(int fd, std::span<std::uint8_t> buffer, const std::string& peer) {
  for (;;) {
    iovec iov{.iov_base = buffer.data(), .iov_len = buffer.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    const ssize_t n = recvmsg(fd, &msg, 0);
    if (n >= 0) {
      return {.bytes = static_cast<std::size_t>(n),
              .truncated = (static_cast<unsigned>(msg.msg_flags) & MSG_TRUNC) != 0};
    }
    if (errno != EINTR) {
      throw SystemError("recv from " + peer, TimeoutAsEtimedout(errno));
    }
  }
}

void SendRecord(int fd, Mode mode, std::span<const std::uint8_t> data, const std::string& peer) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const std::size_t n = SendSome(fd, data.subspan(sent), peer);
    if (mode == Mode::kSeqpacket && n != data.size()) {
      throw RuntimeError("send to " + peer + ": message of " + std::to_string(data.size()) +
                         " bytes went out as " + std::to_string(n));
    }
    sent += n;
  }
}

bool ReceiveRecord(int fd, Mode mode, std::span<std::uint8_t> out, const std::string& peer) {
  if (mode == Mode::kSeqpacket) {
    // One spare byte so that a longer message is seen even where the
    // socket does not report MSG_TRUNC.
    std::vector<std::uint8_t> buffer(out.size() + 1);
    const Received got = ReceiveSome(fd, buffer, peer);
    if (got.bytes == 0) {
      return false;
    }
    if (got.truncated || got.bytes != out.size()) {
      throw ProtocolError("message from " + peer + " is not an mrcperf record (" +
                          (got.truncated ? "over " : "") + std::to_string(got.bytes) +
                          " bytes, expected " + std::to_string(out.size()) + ")");
    }
    std::copy_n(buffer.begin(), out.size(), out.begin());
    return true;
  }
  std::size_t have = 0;
  while (have < out.size()) {
    const Received got = ReceiveSome(fd, out.subspan(have), peer);
    if (got.bytes == 0) {
      if (have == 0) {
        return false;
      }
      throw ProtocolError("connection from " + peer + " closed inside a record (" +
                          std::to_string(have) + " of " + std::to_string(out.size()) + " bytes)");
    }
    have += got.bytes;
  }
  return true;
}

}  // namespace mrcperf
