// SPDX-License-Identifier: GPL-2.0
#include "error.hpp"

#include <cstring>

namespace mrcperf {

SystemError::SystemError(const std::string& operation, int error)
    : RuntimeError(operation + ": " + std::strerror(error)), error_(error) {}

}  // namespace mrcperf
