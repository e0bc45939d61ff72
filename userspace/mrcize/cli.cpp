// SPDX-License-Identifier: GPL-2.0
// mrcize's command line; see cli.hpp.
#include "cli.hpp"

#include <charconv>
#include <filesystem>
#include <string>

#include "addr.h"

namespace mrcize {
namespace {

constexpr std::string_view kUsage =
    "Usage: mrcize run [ --no-fallback ] [ --debug ] [ --ports LIST ] [ --timeout MS ]\n"
    "                  [ -- ] CMD [ ARGS... ]\n"
    "       mrcize help\n"
    "Runs CMD with its TCP sockets carried by AF_MRC (LD_PRELOAD=libmrcize.so).\n"
    "  --no-fallback  fail a connect the peer refuses over MRC (default: use TCP)\n"
    "  --debug        log every decision to stderr (MRCIZE_DEBUG=1)\n"
    "  --ports LIST   only these ports (5201,6379,7000-7100) go over MRC\n"
    "  --timeout MS   how long an MRC connect may take before TCP is tried (3000)\n";

int Usage(std::ostream& os, int status) {
  os << kUsage;
  return status;
}

int Misuse(std::ostream& err, std::string_view why) {
  err << "mrcize: " << why << "\n";
  return Usage(err, kExitUsage);
}

bool IsPositive(std::string_view s) {
  unsigned long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v > 0 && v <= 3600000;
}

}  // namespace

std::optional<std::string> FindLibrary(const std::string& exe, const char* override_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (override_path != nullptr && *override_path != '\0') {
    if (!fs::is_regular_file(override_path, ec)) return std::nullopt;
    return fs::absolute(override_path, ec).string();
  }
  const fs::path dir = fs::weakly_canonical(exe, ec).parent_path();
  std::vector<fs::path> candidates{dir / "libmrcize.so", dir / ".." / "lib" / "libmrcize.so"};
#ifdef MRCIZE_INSTALL_LIB
  candidates.emplace_back(MRCIZE_INSTALL_LIB);
#endif
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c, ec)) return fs::weakly_canonical(c, ec).string();
  }
  return std::nullopt;
}

int Parse(std::span<const std::string_view> args, const std::optional<std::string>& library,
          const char* ld_preload, Plan& plan, std::ostream& out, std::ostream& err) {
  plan = {};
  if (args.empty()) return Usage(err, kExitUsage);
  const std::string_view cmd = args[0];
  if (cmd == "help" || cmd == "-h" || cmd == "--help") return Usage(out, kExitOk);
  if (cmd != "run") {
    err << "Command \"" << cmd << "\" is unknown, try \"mrcize help\".\n";
    return kExitUsage;
  }
  size_t i = 1;
  for (; i < args.size(); i++) {
    const std::string_view a = args[i];
    if (a == "--") {
      i++;
      break;
    }
    if (a.empty() || a[0] != '-') break;
    if (a == "--fallback" || a == "--no-fallback") {
      // --fallback is the default; it stays accepted for older scripts.
      plan.env.emplace_back("MRCIZE_FALLBACK", a == "--fallback" ? "1" : "0");
    } else if (a == "--debug") {
      plan.env.emplace_back("MRCIZE_DEBUG", "1");
    } else if (a == "--ports" || a == "--timeout") {
      if (i + 1 >= args.size()) return Misuse(err, std::string(a) + " needs a value");
      const std::string v(args[++i]);
      mrcize_ports ports{};
      if (a == "--ports" && (v.empty() || mrcize_ports_parse(v.c_str(), &ports) != 0))
        return Misuse(err, "\"" + v + "\" is not a port list (PORT or LOW-HIGH, comma separated)");
      if (a == "--timeout" && !IsPositive(v))
        return Misuse(err, "\"" + v + "\" is not a timeout in milliseconds (1..3600000)");
      plan.env.emplace_back(a == "--ports" ? "MRCIZE_PORTS" : "MRCIZE_TIMEOUT_MS", v);
    } else {
      return Misuse(err, "option \"" + std::string(a) + "\" is unknown");
    }
  }
  if (i >= args.size()) return Misuse(err, "run needs a command");
  if (!library) {
    err << "mrcize: libmrcize.so not found (beside mrcize, in ../lib, or $MRCIZE_LIB)\n";
    plan = {};
    return kExitNoLibrary;
  }
  if (library->find_first_of(" :") != std::string::npos) {
    err << "mrcize: " << *library << ": LD_PRELOAD cannot hold a path with ' ' or ':'\n";
    plan = {};
    return kExitNoLibrary;
  }
  std::string preload = *library;
  if (ld_preload != nullptr && *ld_preload != '\0') preload += std::string(" ") + ld_preload;
  plan.env.emplace_back("LD_PRELOAD", preload);
  for (; i < args.size(); i++) plan.argv.emplace_back(args[i]);
  return kExitOk;
}

}  // namespace mrcize
