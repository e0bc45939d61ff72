// SPDX-License-Identifier: GPL-2.0
#include "mrc/module_info.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include "mrc/error.hpp"

namespace mrc {
namespace {

constexpr int kAfMax = 46;  // AF_MAX of the target kernel (Linux 6.1)

std::string_view Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(" \t\n");
  return text.substr(first, last - first + 1);
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) {
    throw Error("cannot read " + path.string());
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int ParseFamily(std::string_view text) {
  const std::string_view value = Trim(text);
  int family = 0;
  const auto* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, family);
  if (value.empty() || ec != std::errc() || ptr != end) {
    throw Error("AF_MRC family \"" + std::string(value) + "\" is not a number");
  }
  if (family <= 0 || family >= kAfMax) {
    throw Error("AF_MRC family " + std::to_string(family) + " is out of range 1.." +
                std::to_string(kAfMax - 1));
  }
  return family;
}

ModuleInfo ReadModuleInfo(const std::filesystem::path& module_dir) {
  if (!std::filesystem::is_directory(module_dir)) {
    throw Error("mrc.ko is not loaded (no " + module_dir.string() +
                "); load it with 'modprobe mrc'");
  }
  ModuleInfo info;
  info.family = ParseFamily(ReadFile(module_dir / "parameters" / "family"));
  info.version = std::string(Trim(ReadFile(module_dir / "version")));
  return info;
}

}  // namespace mrc
