// SPDX-License-Identifier: GPL-2.0
// The one exception type of libmrc: its text is what the user sees.
#pragma once

#include <stdexcept>

namespace mrc {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mrc
