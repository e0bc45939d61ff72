// SPDX-License-Identifier: GPL-2.0
// mrcctl's command line: iproute2 grammar (OBJECT then COMMAND, keyword
// prefixes, -j for JSON). Kept apart from main() so tests can run it.
#pragma once

#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace mrcctl {

// Exit statuses: success, runtime failure (e.g. module missing), misuse.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct Environment {
  std::filesystem::path sysfs_module_dir = "/sys/module/mrc";
};

// Runs mrcctl with `args` (without argv[0]); returns the exit status.
int Run(std::span<const std::string_view> args, std::ostream& out, std::ostream& err,
        const Environment& env = {});

}  // namespace mrcctl
