// SPDX-License-Identifier: GPL-2.0
// mrcctl peer show: the namespace's peer table, what its connections
// learned of the paths to each peer host (MRC_CMD_PEER_GET, a dump; the
// table fills only while net.mrc.peer_paths is 1).
#include <algorithm>

#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {
namespace {

constexpr std::array<Name<Command>, 3> kCommands{{
    {"show", Command::kShow},
    {"list", Command::kShow},
    {"help", Command::kHelp},
}};

}  // namespace

void PeerUsage(std::ostream& out) {
  out << "Usage: mrcctl peer show\n"
         "       mrcctl peer help\n"
         "       (empty unless sysctl net.mrc.peer_paths is 1)\n";
}

int RunPeer(Context& ctx, Args& args) {
  const Command command = TakeCommand(args, kCommands, "peer");
  args.ExpectEnd();  // the kernel's dump takes no selector
  if (command == Command::kHelp) {
    PeerUsage(ctx.out());
    return kExitOk;
  }
  const std::vector<mrc::Peer> peers = ctx.control().DumpPeers();
  std::vector<Record> records;
  std::transform(peers.begin(), peers.end(), std::back_inserter(records),
                 [&](const mrc::Peer& peer) { return PeerRecord(peer, ctx.opts()); });
  PrintRecords(ctx, records);
  return kExitOk;
}

}  // namespace mrcctl
