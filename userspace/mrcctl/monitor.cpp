// SPDX-License-Identifier: GPL-2.0
// mrcctl monitor: the "events" multicast group, one line (or one JSON
// object) per event, flushed at once; SIGINT/SIGTERM end it cleanly.
#include "mrc/stop_signals.hpp"
#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {

void MonitorUsage(std::ostream& out) {
  out << "Usage: mrcctl monitor\n"
         "       mrcctl monitor help\n"
         "Prints every event of mrc.ko until SIGINT or SIGTERM:\n"
         "  [PLANE_UP] plane 0 dev veth0 ... (text), or with -j\n"
         "  {\"event\":\"plane-up\",\"plane\":{...},\"reason\":\"link\"} (one per line)\n";
}

int RunMonitor(Context& ctx, Args& args) {
  if (TakeHelp(args)) {
    MonitorUsage(ctx.out());
    return kExitOk;
  }
  args.ExpectEnd();
  mrc::Control& control = ctx.control();
  const mrc::StopSignals stop;
  control.Listen(
      [&ctx](const mrc::Event& event) {
        if (ctx.opts().json) {
          ctx.out() << Dump(EventJson(event, ctx.opts()), ctx.opts()) << std::endl;
        } else {
          ctx.out() << EventLine(event, ctx.opts()) << std::endl;
        }
        return true;
      },
      stop.fd(),
      [&ctx] { ctx.err() << "Warning: events were lost (receive buffer overrun)" << std::endl; });
  return kExitOk;
}

}  // namespace mrcctl
