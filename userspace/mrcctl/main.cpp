// SPDX-License-Identifier: GPL-2.0
// mrcctl: administer MRC (Multipath Reliable Connection). See cli.hpp.
#include <iostream>
#include <string_view>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    return mrcctl::Run(args, std::cout, std::cerr);
  } catch (...) {  // Run() does not throw; the vector might
    return mrcctl::kExitKernel;
  }
}
