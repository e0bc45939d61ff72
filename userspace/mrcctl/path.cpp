// SPDX-License-Identifier: GPL-2.0
// mrcctl path { show | set | probe }: the EVs (paths) of one connection
// (MRC_CMD_PATH_*).
#include <linux/mrc_netlink.h>

#include <algorithm>

#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {
namespace {

enum class Kw { kConn, kEv, kState };

constexpr std::array<Name<Kw>, 1> kShowKeywords{{{"conn", Kw::kConn}}};
constexpr std::array<Name<Kw>, 3> kSetKeywords{{
    {"conn", Kw::kConn},
    {"ev", Kw::kEv},
    {"state", Kw::kState},
}};
constexpr std::array<Name<Kw>, 2> kProbeKeywords{{
    {"conn", Kw::kConn},
    {"ev", Kw::kEv},
}};

constexpr std::array<Name<Command>, 5> kCommands{{
    {"show", Command::kShow},
    {"list", Command::kShow},
    {"set", Command::kSet},
    {"probe", Command::kProbe},
    {"help", Command::kHelp},
}};

constexpr std::uint32_t kMaxEv = (1U << MRC_EV_MAX_BITS) - 1;

template <std::size_t N>
mrc::Path Parse(Args& args, const std::array<Name<Kw>, N>& table) {
  mrc::Path path;
  while (!args.Empty()) {
    const Name<Kw>& kw = MatchKeyword(table, args.Next());
    const std::string_view key = kw.name;
    switch (kw.value) {
      case Kw::kConn:
        SetOnce(path.conn_id, ParseUnsigned<std::uint32_t>(key, args.Value(key)), key);
        break;
      case Kw::kEv:
        SetOnce(path.ev, ParseUnsigned<std::uint32_t>(key, args.Value(key), 0, kMaxEv), key);
        break;
      case Kw::kState:
        SetOnce(path.state, ParseName(kAdminEvStates, key, args.Value(key)), key);
        break;
    }
  }
  if (!path.conn_id) {
    Usage("conn ID is required.");
  }
  if (N > 1 && !path.ev) {
    Usage("ev EV is required.");
  }
  if (N > 2 && !path.state) {
    Usage("state STATE is required.");
  }
  return path;
}

}  // namespace

void PathUsage(std::ostream& out) {
  out << "Usage: mrcctl path show conn ID\n"
         "       mrcctl path set conn ID ev EV state STATE\n"
         "       mrcctl path probe conn ID ev EV\n"
         "       mrcctl path help\n"
         "where  EV := 0.."
      << kMaxEv << "\n"
      << "       STATE := { " << Choices(kAdminEvStates, " | ") << " }\n";
}

int RunPath(Context& ctx, Args& args) {
  switch (TakeCommand(args, kCommands, "path")) {
    case Command::kSet:
      ctx.control().SetPath(Parse(args, kSetKeywords));
      return kExitOk;
    case Command::kProbe: {
      const mrc::Path path = Parse(args, kProbeKeywords);
      ctx.control().ProbePath(*path.conn_id, *path.ev);
      return kExitOk;
    }
    case Command::kHelp:
      args.ExpectEnd();
      PathUsage(ctx.out());
      return kExitOk;
    case Command::kShow:
    case Command::kAdd:
    case Command::kDel:
      break;
  }
  const std::vector<mrc::Path> paths = ctx.control().DumpPaths(*Parse(args, kShowKeywords).conn_id);
  std::vector<Record> records;
  std::transform(paths.begin(), paths.end(), std::back_inserter(records),
                 [&](const mrc::Path& path) { return PathRecord(path, ctx.opts()); });
  PrintRecords(ctx, records);
  return kExitOk;
}

}  // namespace mrcctl
