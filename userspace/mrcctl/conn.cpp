// SPDX-License-Identifier: GPL-2.0
// mrcctl conn show: the MRC connections of this network namespace
// (MRC_CMD_CONN_GET).
#include <algorithm>

#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {
namespace {

enum class Kw { kId };

constexpr std::array<Name<Kw>, 1> kKeywords{{{"id", Kw::kId}}};

constexpr std::array<Name<Command>, 3> kCommands{{
    {"show", Command::kShow},
    {"list", Command::kShow},
    {"help", Command::kHelp},
}};

}  // namespace

void ConnUsage(std::ostream& out) {
  out << "Usage: mrcctl conn show [ ID | id ID ]\n"
         "       mrcctl conn help\n"
         "       (-s shows zero counters too)\n";
}

int RunConn(Context& ctx, Args& args) {
  if (TakeCommand(args, kCommands, "conn") == Command::kHelp) {
    args.ExpectEnd();
    ConnUsage(ctx.out());
    return kExitOk;
  }
  std::optional<std::uint32_t> id;
  while (!args.Empty()) {
    const std::string_view word = args.Next();
    if (PositionalId(word, id, 0, UINT32_MAX)) {
      continue;
    }
    const std::string_view key = MatchKeyword(kKeywords, word).name;
    SetOnce(id, ParseUnsigned<std::uint32_t>(key, args.Value(key)), key);
  }
  std::vector<mrc::Conn> conns;
  if (id) {
    conns.push_back(ctx.control().GetConn(*id));
  } else {
    conns = ctx.control().DumpConns();
  }
  std::vector<Record> records;
  std::transform(conns.begin(), conns.end(), std::back_inserter(records),
                 [&](const mrc::Conn& conn) { return ConnRecord(conn, ctx.opts()); });
  PrintRecords(ctx, records);
  return kExitOk;
}

}  // namespace mrcctl
