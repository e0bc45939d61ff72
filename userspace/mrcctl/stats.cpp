// SPDX-License-Identifier: GPL-2.0
// mrcctl stats: the namespace's counters, then each plane's
// (MRC_CMD_STATS_GET, a dump).
#include <linux/mrc_netlink.h>

#include "mrc/error.hpp"
#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {
namespace {

enum class Kw { kPlane };

constexpr std::array<Name<Kw>, 1> kKeywords{{{"plane", Kw::kPlane}}};

constexpr std::array<Name<Command>, 2> kCommands{{
    {"show", Command::kShow},
    {"list", Command::kShow},
}};

}  // namespace

void StatsUsage(std::ostream& out) {
  out << "Usage: mrcctl stats [ show ] [ plane ID ]\n"
         "       mrcctl stats help\n"
         "where  ID := 0.."
      << MRC_MAX_PLANES - 1 << "\n"
      << "       (-s shows zero counters too)\n";
}

int RunStats(Context& ctx, Args& args) {
  if (TakeHelp(args)) {
    StatsUsage(ctx.out());
    return kExitOk;
  }
  if (!args.Empty()) {
    const Match<Command> command = Find(kCommands, args.Peek());
    if (command.found != nullptr && command.found->value == Command::kShow) {
      args.Next();
    }
  }
  std::optional<std::uint32_t> plane_id;
  while (!args.Empty()) {
    const std::string_view key = MatchKeyword(kKeywords, args.Next()).name;
    SetOnce(plane_id, ParseUnsigned<std::uint32_t>(key, args.Value(key), 0, MRC_MAX_PLANES - 1),
            key);
  }
  mrc::StatsReport report = ctx.control().GetStats();
  if (plane_id) {
    std::erase_if(report.planes, [&](const mrc::Plane& plane) { return plane.id != plane_id; });
    if (report.planes.empty()) {
      throw mrc::Error("no plane " + std::to_string(*plane_id));
    }
  }
  const bool all = ctx.opts().stats;
  if (ctx.opts().json) {
    Json doc = Json::object();
    if (!plane_id) {
      doc["global"] = CountersJson(Visible(report.global, all));
    }
    Json planes = Json::array();
    for (const mrc::Plane& plane : report.planes) {
      planes.push_back(PlaneRecord(plane, ctx.opts()).ToJson());
    }
    doc["planes"] = std::move(planes);
    ctx.out() << Dump(doc, ctx.opts()) << '\n';
    return kExitOk;
  }
  if (!plane_id) {
    ctx.out() << "global\n";
    PrintCounters(ctx.out(), Visible(report.global, all), 4);
  }
  for (const mrc::Plane& plane : report.planes) {
    PlaneRecord(plane, ctx.opts()).PrintText(ctx.out());
  }
  return kExitOk;
}

}  // namespace mrcctl
