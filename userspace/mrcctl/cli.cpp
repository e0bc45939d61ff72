// SPDX-License-Identifier: GPL-2.0
// mrcctl's entry: global options, the object table, and the one place
// where every failure becomes a message and an exit status.
#include "cli.hpp"

#include <net/if.h>

#include <array>
#include <exception>

#include "args.hpp"
#include "context.hpp"
#include "mrc/client.hpp"
#include "mrc/error.hpp"
#include "mrc/telemetry.hpp"
#include "objects.hpp"

namespace mrcctl {
namespace {

constexpr std::string_view kVersion = "0.2.0";

void MainUsage(std::ostream& out) {
  out << "Usage: mrcctl [ OPTIONS ] OBJECT { COMMAND | help }\n"
         "where  OBJECT := { info | plane | ev-profile | cc-profile | conn | path | peer |\n"
         "                   stats | monitor | telemetry }\n"
         "       OPTIONS := { -j[son] | -p[retty] | -s[tats] | -V[ersion] | -h[elp] }\n"
         "\n"
         "       -s shows zero counters too; \"mrcctl OBJECT help\" shows its grammar.\n";
}

int RunHelp(Context& ctx, Args& args) {
  args.ExpectEnd();
  MainUsage(ctx.out());
  return kExitOk;
}

constexpr std::array<Name<Object>, 11> kObjects{{
    {"info", {RunInfo, InfoUsage}},
    {"plane", {RunPlane, PlaneUsage}},
    {"ev-profile", {RunEvProfile, EvProfileUsage}},
    {"cc-profile", {RunCcProfile, CcProfileUsage}},
    {"conn", {RunConn, ConnUsage}},
    {"path", {RunPath, PathUsage}},
    {"peer", {RunPeer, PeerUsage}},
    {"stats", {RunStats, StatsUsage}},
    {"monitor", {RunMonitor, MonitorUsage}},
    {"telemetry", {RunTelemetry, TelemetryUsage}},
    {"help", {RunHelp, MainUsage}},
}};

enum class Opt { kJson, kPretty, kStats, kShowVersion, kHelp };

constexpr std::array<Name<Opt>, 6> kOptions{{
    {"json", Opt::kJson},
    {"pretty", Opt::kPretty},
    {"stats", Opt::kStats},
    {"statistics", Opt::kStats},
    {"Version", Opt::kShowVersion},
    {"help", Opt::kHelp},
}};

// Consumes the leading options. Returns an exit status when they already
// settled the run (-V, -h, a bad option).
std::optional<int> ParseOptions(std::span<const std::string_view>& args, Options& opts,
                                std::ostream& out, std::ostream& err) {
  while (!args.empty() && args.front().size() > 1 && args.front().front() == '-') {
    const std::string_view word = args.front();
    const Match<Opt> match = Find(kOptions, word.substr(word.starts_with("--") ? 2 : 1));
    if (match.found == nullptr) {
      err << "Option \"" << word << "\" is unknown, try \"mrcctl help\".\n";
      return kExitUsage;
    }
    switch (match.found->value) {
      case Opt::kJson:
        opts.json = true;
        break;
      case Opt::kPretty:
        opts.pretty = true;
        break;
      case Opt::kStats:
        opts.stats = true;
        break;
      case Opt::kShowVersion:
        out << "mrcctl " << kVersion << '\n';
        return kExitOk;
      case Opt::kHelp:
        MainUsage(out);
        return kExitOk;
    }
    args = args.subspan(1);
  }
  return std::nullopt;
}

int RunObject(const Object& object, Context& ctx, Args& args) {
  try {
    return object.run(ctx, args);
  } catch (const CliError& e) {
    switch (e.kind()) {
      case CliError::Kind::kUsage:
        ctx.err() << "Error: " << e.what() << '\n';
        object.usage(ctx.err());
        break;
      case CliError::Kind::kInput:
        ctx.err() << "Error: " << e.what() << '\n';
        break;
      case CliError::Kind::kVerbatim:
        ctx.err() << e.what() << '\n';
        break;
    }
    return kExitUsage;
  }
}

int RunChecked(std::span<const std::string_view> words, std::ostream& out, std::ostream& err,
               const Environment& env) {
  Options opts;
  if (const auto status = ParseOptions(words, opts, out, err)) {
    return *status;
  }
  if (words.empty()) {
    MainUsage(err);
    return kExitUsage;
  }
  const std::string_view name = words.front();
  const Match<Object> match = Find(kObjects, name);
  if (match.found == nullptr) {
    err << "Object \"" << name << "\" is "
        << (match.candidates.empty() ? "unknown" : "ambiguous (" + Join(match.candidates) + ")")
        << ", try \"mrcctl help\".\n";
    return kExitUsage;
  }
  Context ctx(opts, out, err, env);
  Args args(words.subspan(1));
  return RunObject(match.found->value, ctx, args);
}

}  // namespace

std::uint32_t Context::Ifindex(std::string_view name) const {
  const unsigned int ifindex = env_.ifindex(std::string(name));
  if (ifindex == 0) {
    throw CliError(CliError::Kind::kInput, "Cannot find device \"" + std::string(name) + "\".");
  }
  return ifindex;
}

bool TakeHelp(Args& args) {
  if (args.Empty() || args.Peek().empty() || !std::string_view("help").starts_with(args.Peek())) {
    return false;
  }
  args.Next();
  args.ExpectEnd();
  return true;
}

bool PositionalId(std::string_view word, std::optional<std::uint32_t>& id, std::uint32_t min,
                  std::uint32_t max) {
  if (!IsNumber(word)) {
    return false;
  }
  SetOnce(id, ParseUnsigned<std::uint32_t>("id", word, min, max), "id");
  return true;
}

Environment SystemEnvironment() {
  return Environment{
      .connect = [] { return std::make_unique<mrc::Client>(); },
      .ifindex = [](const std::string& name) { return if_nametoindex(name.c_str()); },
      .telemetry = [] { return mrc::OpenPinnedTelemetry(); },
  };
}

int Run(std::span<const std::string_view> args, std::ostream& out, std::ostream& err,
        const Environment& env) {
  try {
    return RunChecked(args, out, err, env);
  } catch (const std::exception& e) {  // mrc::Error, KernelError, and the rest
    err << "Error: " << e.what() << '\n';
  } catch (...) {
    err << "Error: unexpected failure\n";
  }
  return kExitKernel;
}

}  // namespace mrcctl
