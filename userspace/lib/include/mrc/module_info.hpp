// SPDX-License-Identifier: GPL-2.0
// What the loaded mrc.ko says about itself through sysfs: the live AF_MRC
// number (a module parameter) and the module version.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace mrc {

inline constexpr std::string_view kSysfsModuleDir = "/sys/module/mrc";

struct ModuleInfo {
  int family = 0;       // AF_MRC as registered by this module instance
  std::string version;  // MODULE_VERSION of mrc.ko
};

// Parses the text of the "family" parameter. Throws mrc::Error when it is
// not a number in 1..45 (Linux 6.1 refuses families at or above AF_MAX=46).
int ParseFamily(std::string_view text);

// Reads ModuleInfo from `module_dir` (the sysfs directory of mrc.ko).
// Throws mrc::Error naming the missing piece, e.g. when the module is not
// loaded.
ModuleInfo ReadModuleInfo(const std::filesystem::path& module_dir = kSysfsModuleDir);

}  // namespace mrc
