// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <array>
#include <functional>
#include <nlohmann/json.hpp>

#include "mrc/error.hpp"
#include "mrc/module_info.hpp"

namespace mrcctl {
namespace {

constexpr std::string_view kVersion = "0.1.0";

struct Options {
  bool json = false;
  bool pretty = false;
};

void PrintUsage(std::ostream& os) {
  os << "Usage: mrcctl [ OPTIONS ] OBJECT [ COMMAND ]\n"
        "where  OBJECT := { info | help }\n"
        "       OPTIONS := { -j[son] | -p[retty] | -V[ersion] }\n"
        "\n"
        "       mrcctl info    show the loaded mrc.ko: AF_MRC family, version\n";
}

// iproute2 habit: any non-empty prefix of a keyword selects it.
bool Matches(std::string_view arg, std::string_view keyword) {
  return !arg.empty() && keyword.starts_with(arg);
}

int ShowInfo(std::span<const std::string_view> args, const Options& opts, std::ostream& out,
             std::ostream& err, const Environment& env) {
  if (!args.empty()) {
    err << "Error: unexpected argument \"" << args.front() << "\" after \"info\".\n";
    return kExitUsage;
  }
  const mrc::ModuleInfo info = mrc::ReadModuleInfo(env.sysfs_module_dir);
  if (opts.json) {
    const nlohmann::json doc = {{"family", info.family}, {"version", info.version}};
    out << doc.dump(opts.pretty ? 4 : -1) << '\n';
  } else {
    out << "mrc version " << info.version << " family " << info.family << '\n';
  }
  return kExitOk;
}

// Consumes leading options; returns false (after printing) on a bad one.
bool ParseOptions(std::span<const std::string_view>& args, Options& opts, std::ostream& out,
                  std::ostream& err, int& status) {
  while (!args.empty() && args.front().size() > 1 && args.front().front() == '-') {
    std::string_view opt = args.front().substr(args.front().starts_with("--") ? 2 : 1);
    if (Matches(opt, "json")) {
      opts.json = true;
    } else if (Matches(opt, "pretty")) {
      opts.pretty = true;
    } else if (Matches(opt, "Version")) {
      out << "mrcctl " << kVersion << '\n';
      status = kExitOk;
      return false;
    } else if (Matches(opt, "help")) {
      PrintUsage(out);
      status = kExitOk;
      return false;
    } else {
      err << "Option \"" << args.front() << "\" is unknown, try \"mrcctl help\".\n";
      status = kExitUsage;
      return false;
    }
    args = args.subspan(1);
  }
  return true;
}

}  // namespace

int Run(std::span<const std::string_view> args, std::ostream& out, std::ostream& err,
        const Environment& env) {
  Options opts;
  int status = kExitOk;
  if (!ParseOptions(args, opts, out, err, status)) {
    return status;
  }
  if (args.empty()) {
    PrintUsage(err);
    return kExitUsage;
  }
  const std::string_view object = args.front();
  const auto rest = args.subspan(1);
  try {
    if (Matches(object, "info")) {
      return ShowInfo(rest, opts, out, err, env);
    }
    if (Matches(object, "help")) {
      PrintUsage(out);
      return kExitOk;
    }
  } catch (const mrc::Error& e) {
    err << "Error: " << e.what() << '\n';
    return kExitFailure;
  }
  err << "Object \"" << object << "\" is unknown, try \"mrcctl help\".\n";
  return kExitUsage;
}

}  // namespace mrcctl
