// SPDX-License-Identifier: GPL-2.0
// System call wrappers shared by the transfer loops and the record
// exchange: EINTR retried, a receive timeout reported as ETIMEDOUT, every
// failure a SystemError naming the operation and the peer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "options.hpp"

namespace mrcperf {

// send() once; returns the bytes taken (> 0).
std::size_t SendSome(int fd, std::span<const std::uint8_t> data, const std::string& peer);

struct Received {
  std::size_t bytes = 0;   // 0 means the peer shut its side down
  bool truncated = false;  // seqpacket: the message was longer than the buffer
};

// recvmsg() once.
Received ReceiveSome(int fd, std::span<std::uint8_t> buffer, const std::string& peer);

// One protocol record: all of `data` on a stream, one message on a
// seqpacket socket.
void SendRecord(int fd, Mode mode, std::span<const std::uint8_t> data, const std::string& peer);

// Reads one record of exactly `out.size()` bytes. Returns false on EOF
// before its first byte; throws ProtocolError when it is cut short or, on
// a seqpacket socket, has another length.
bool ReceiveRecord(int fd, Mode mode, std::span<std::uint8_t> out, const std::string& peer);

}  // namespace mrcperf
