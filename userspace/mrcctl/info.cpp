// SPDX-License-Identifier: GPL-2.0
// mrcctl info: what the loaded mrc.ko says about itself (MRC_CMD_INFO_GET).
#include <linux/mrc_netlink.h>

#include "names.hpp"
#include "objects.hpp"
#include "output.hpp"

namespace mrcctl {

void InfoUsage(std::ostream& out) {
  out << "Usage: mrcctl info\n"
         "       mrcctl info help\n"
         "Shows the module version, the live AF_MRC number, the API version,\n"
         "capabilities, limits and congestion control algorithms.\n";
}

int RunInfo(Context& ctx, Args& args) {
  if (TakeHelp(args)) {
    InfoUsage(ctx.out());
    return kExitOk;
  }
  args.ExpectEnd();
  const mrc::Info info = ctx.control().GetInfo();

  Record head;
  head.Add(Field{.key = "version", .value = info.version, .label = "mrc version"})
      .Add("family", info.family)
      .Add("api", info.api_version);
  Record caps;
  caps.Add("caps", BitNames(kCaps, info.caps));
  Record limits;
  limits.Add(Field{.key = "max-planes", .value = info.max_planes, .label = "limits max-planes"})
      .Add("max-ev-profiles", info.max_ev_profiles)
      .Add("max-evs", info.max_evs)
      .Add("max-cc-profiles", info.max_cc_profiles)
      .Add("ev-max-bits", info.ev_max_bits);
  Record algorithms;
  algorithms.Add("cc-algorithms", info.cc_algorithms);

  const std::array<const Record*, 4> lines{&head, &caps, &limits, &algorithms};
  if (ctx.opts().json) {
    Json doc = Json::object();
    for (const Record* line : lines) {
      doc.update(line->ToJson());
    }
    ctx.out() << Dump(doc, ctx.opts()) << '\n';
  } else {
    for (const Record* line : lines) {
      ctx.out() << line->Line() << '\n';
    }
  }
  return kExitOk;
}

}  // namespace mrcctl
