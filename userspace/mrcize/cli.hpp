// SPDX-License-Identifier: GPL-2.0
// mrcize's command line: `mrcize run [OPTIONS] CMD [ARGS...]` becomes the
// environment (LD_PRELOAD and the MRCIZE_* variables) and argv to exec.
// Kept apart from main() so tests can drive it without exec'ing anything.
#pragma once

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mrcize {

// Exit statuses: success; a mistake on the command line; libmrcize.so not
// found; the command could not be executed (as env(1): 126, or 127 when
// it does not exist).
inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;
inline constexpr int kExitNoLibrary = 2;
inline constexpr int kExitCannotExec = 126;
inline constexpr int kExitNotFound = 127;

// What `run` will do: set these variables, then exec argv.
struct Plan {
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> argv;
};

// The shim for the mrcize binary at `exe`: $MRCIZE_LIB if set, else
// libmrcize.so beside it (build tree), ../lib/libmrcize.so (installed),
// then the install prefix compiled in.
std::optional<std::string> FindLibrary(const std::string& exe, const char* override_path);

// Parses `args` (without argv[0]). Returns kExitOk with `plan` filled for
// `run`, kExitOk with no plan.argv for `help`, or an error status after
// printing why and the usage to `err`. `library` is FindLibrary()'s
// answer, `ld_preload` the current LD_PRELOAD (may be null).
int Parse(std::span<const std::string_view> args, const std::optional<std::string>& library,
          const char* ld_preload, Plan& plan, std::ostream& out, std::ostream& err);

}  // namespace mrcize
