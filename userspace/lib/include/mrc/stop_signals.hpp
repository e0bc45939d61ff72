// SPDX-License-Identifier: GPL-2.0
// A clean way out of a blocking loop on SIGINT/SIGTERM: the signals are
// blocked and read from a signalfd that poll() can watch next to a netlink
// socket (Control::Listen's stop_fd). The old mask is restored on exit.
#pragma once

#include <csignal>

namespace mrc {

class StopSignals {
 public:
  StopSignals();  // blocks SIGINT and SIGTERM; throws mrc::Error
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  StopSignals(StopSignals&&) = delete;
  StopSignals& operator=(StopSignals&&) = delete;
  ~StopSignals();

  // Readable once SIGINT or SIGTERM arrived.
  [[nodiscard]] int fd() const { return fd_; }

 private:
  sigset_t old_mask_{};
  int fd_ = -1;
};

}  // namespace mrc
