// SPDX-License-Identifier: GPL-2.0
// The exception types of libmrc: their text is what the user sees.
#pragma once

#include <stdexcept>
#include <string>

namespace mrc {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The kernel refused a request: a positive errno plus the extended ACK
// message (NLMSGERR_ATTR_MSG), which may be empty. what() reads
// "<extack> (<strerror>)", or just "<strerror>" without an extack.
class KernelError : public Error {
 public:
  KernelError(int error, std::string extack);

  [[nodiscard]] int error() const { return error_; }
  [[nodiscard]] const std::string& extack() const { return extack_; }

 private:
  int error_;
  std::string extack_;
};

}  // namespace mrc
