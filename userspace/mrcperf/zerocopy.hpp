// SPDX-License-Identifier: GPL-2.0
// --zerocopy: a stream sender's MSG_ZEROCOPY sends and their completions
// (the kernel's Documentation/networking/msg_zerocopy.rst; AF_MRC: mrc(7),
// MRC_ZEROCOPY). The sender fills buffers of a ring; a buffer is filled
// again only once the kernel has completed every send that used it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mrcperf {

struct ZerocopyStats {
  std::uint64_t sends = 0;      // send() calls that queued bytes
  std::uint64_t completed = 0;  // of those, completed
  std::uint64_t copied = 0;     // completed, but the kernel copied the pages after all
};

class ZerocopySender {
 public:
  // Buffers of `length` bytes for socket `fd`, whose MSG_ZEROCOPY switch
  // is on; `limit`: how long a completion may take before it is an error.
  ZerocopySender(int fd, std::string peer, std::size_t length, std::chrono::milliseconds limit);

  // The next buffer, once the kernel is done with it.
  std::span<std::uint8_t> Next();
  // Whether that buffer was never sent (its bytes are still zero).
  [[nodiscard]] bool Fresh() const { return last_send_[current_] == 0; }
  // Sends a prefix of the buffer Next() returned last, from `offset` on;
  // the bytes send() took (a blocking stream send: all, unless a signal).
  std::size_t Send(std::size_t offset, std::size_t length);
  // Waits for every completion.
  void Drain();

  [[nodiscard]] const ZerocopyStats& stats() const { return stats_; }

 private:
  // Reads the queued completions, after waiting up to `wait` for one.
  void Reap(std::chrono::milliseconds wait);
  void WaitFor(std::uint64_t send);
  [[nodiscard]] bool Done(std::uint64_t send) const;

  int fd_;
  std::string peer_;
  std::chrono::milliseconds limit_;
  std::vector<std::vector<std::uint8_t>> buffers_;
  std::vector<std::uint64_t> last_send_;  // by buffer: 1 + the last send's id, 0: none
  std::vector<bool> done_;                // by send id
  std::size_t current_ = 0;
  ZerocopyStats stats_;
};

// Turns MSG_ZEROCOPY on for `fd` (AF_MRC: MRC_ZEROCOPY; TCP: SO_ZEROCOPY).
void EnableZerocopy(int fd, bool mrc);

}  // namespace mrcperf
