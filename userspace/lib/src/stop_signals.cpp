// SPDX-License-Identifier: GPL-2.0
// StopSignals: SIGINT/SIGTERM through a signalfd instead of a handler.
#include "mrc/stop_signals.hpp"

#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "mrc/error.hpp"

namespace mrc {

StopSignals::StopSignals() {
  sigset_t stop{};
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  if (const int err = pthread_sigmask(SIG_BLOCK, &stop, &old_mask_); err != 0) {
    throw Error(std::string("cannot block SIGINT/SIGTERM: ") + std::strerror(err));
  }
  fd_ = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd_ < 0) {
    const int err = errno;
    pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
    throw Error(std::string("signalfd: ") + std::strerror(err));
  }
}

// Consumes the signals that stopped us, so that restoring the mask does
// not deliver them (and kill the process) after a clean exit.
StopSignals::~StopSignals() {
  signalfd_siginfo info{};
  while (read(fd_, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
  }
  close(fd_);
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

}  // namespace mrc
