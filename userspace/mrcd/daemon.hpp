// SPDX-License-Identifier: GPL-2.0
// mrcd's run: configure mrc.ko from the config file, load the eBPF
// telemetry, then one epoll loop over the alarm ring buffer, the module's
// netlink events (read on a thread of their own), signals and a tick,
// until SIGTERM/SIGINT. SIGHUP re-reads the file and applies the
// difference.
#pragma once

#include <string>

namespace mrcd {

struct DaemonOptions {
  std::string config_path;
  std::string pin_dir;
};

// Returns the process exit status; failures to start are logged.
int RunDaemon(const DaemonOptions& options);

}  // namespace mrcd
