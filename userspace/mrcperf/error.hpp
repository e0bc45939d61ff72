// SPDX-License-Identifier: GPL-2.0
// Failures of a run and the exit statuses they map to. what() is the one
// line the user reads after "mrcperf: ".
#pragma once

#include <stdexcept>
#include <string>

namespace mrcperf {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;
inline constexpr int kExitRuntime = 2;   // connect failure, timeout, reset, short transfer
inline constexpr int kExitMismatch = 3;  // the data arrived different from what was sent

// Bad command line: the text names the offending option or value.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Anything that ends a transfer early (exit status 2).
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failed system call: "<operation>: <strerror(error)>", e.g.
// "connect 10.101.0.2:5201: Connection timed out".
class SystemError : public RuntimeError {
 public:
  SystemError(const std::string& operation, int error);
  [[nodiscard]] int error() const { return error_; }

 private:
  int error_;
};

// The peer spoke something other than the mrcperf protocol.
class ProtocolError : public RuntimeError {
 public:
  using RuntimeError::RuntimeError;
};

}  // namespace mrcperf
