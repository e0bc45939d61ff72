// SPDX-License-Identifier: GPL-2.0
// The objects of mrcctl: each has a handler (the words after the object)
// and a usage text, and lives in a file of its own.
#pragma once

#include <array>
#include <ostream>

#include "args.hpp"
#include "context.hpp"

namespace mrcctl {

using Handler = int (*)(Context& ctx, Args& args);
using UsagePrinter = void (*)(std::ostream& out);

struct Object {
  Handler run = nullptr;
  UsagePrinter usage = nullptr;

  bool operator==(const Object&) const = default;
};

int RunInfo(Context& ctx, Args& args);
void InfoUsage(std::ostream& out);
int RunPlane(Context& ctx, Args& args);
void PlaneUsage(std::ostream& out);
int RunEvProfile(Context& ctx, Args& args);
void EvProfileUsage(std::ostream& out);
int RunCcProfile(Context& ctx, Args& args);
void CcProfileUsage(std::ostream& out);
int RunConn(Context& ctx, Args& args);
void ConnUsage(std::ostream& out);
int RunPath(Context& ctx, Args& args);
void PathUsage(std::ostream& out);
int RunPeer(Context& ctx, Args& args);
void PeerUsage(std::ostream& out);
int RunStats(Context& ctx, Args& args);
void StatsUsage(std::ostream& out);
int RunMonitor(Context& ctx, Args& args);
void MonitorUsage(std::ostream& out);
int RunTelemetry(Context& ctx, Args& args);
void TelemetryUsage(std::ostream& out);

// Commands of an object; kShow is what no command means.
enum class Command { kAdd, kDel, kSet, kShow, kProbe, kHelp };

// The command `args` starts with (consumed), or kShow when empty. Throws
// `Command "x" is unknown, try "mrcctl <object> help".` (or ambiguous).
template <std::size_t N>
Command TakeCommand(Args& args, const std::array<Name<Command>, N>& commands,
                    std::string_view object) {
  if (args.Empty()) {
    return Command::kShow;
  }
  const std::string_view word = args.Next();
  const Match<Command> match = Find(commands, word);
  if (match.found == nullptr) {
    const std::string what =
        match.candidates.empty() ? "unknown" : "ambiguous (" + Join(match.candidates) + ")";
    throw CliError(CliError::Kind::kVerbatim, "Command \"" + std::string(word) + "\" is " + what +
                                                  ", try \"mrcctl " + std::string(object) +
                                                  " help\".");
  }
  return match.found->value;
}

// A leading "help" (or a prefix of it), consumed.
bool TakeHelp(Args& args);

// A bare number where an object's ID may stand (plane del 3): stores it
// in `id` and returns true; false when `word` is no number.
bool PositionalId(std::string_view word, std::optional<std::uint32_t>& id, std::uint32_t min,
                  std::uint32_t max);

}  // namespace mrcctl
