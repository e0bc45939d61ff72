// SPDX-License-Identifier: GPL-2.0
// KernelError's user-facing text: "<extack> (<strerror>)".
#include "mrc/error.hpp"

#include <cstring>
#include <utility>

namespace mrc {
namespace {

std::string Describe(int error, const std::string& extack) {
  const std::string reason = std::strerror(error);
  return extack.empty() ? reason : extack + " (" + reason + ")";
}

}  // namespace

KernelError::KernelError(int error, std::string extack)
    : Error(Describe(error, extack)), error_(error), extack_(std::move(extack)) {}

}  // namespace mrc
