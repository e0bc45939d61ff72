// SPDX-License-Identifier: GPL-2.0
// mrcctl's command line: iproute2 grammar (OBJECT then COMMAND, keyword
// prefixes, -j for JSON). Kept apart from main() so tests can run it with
// a fake kernel (Environment).
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "mrc/control.hpp"
#include "mrc/telemetry.hpp"

namespace mrcctl {

// Exit statuses: success; a mistake on the command line (including an
// unknown device); the kernel refused or could not be reached.
inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;
inline constexpr int kExitKernel = 2;

struct Environment {
  // Opens the control plane (mrc::Client outside tests).
  std::function<std::unique_ptr<mrc::Control>()> connect;
  // if_nametoindex(): 0 for an unknown device.
  std::function<unsigned int(const std::string&)> ifindex;
  // Opens the pinned eBPF telemetry maps (mrc::OpenPinnedTelemetry).
  std::function<std::unique_ptr<mrc::TelemetryReader>()> telemetry{};
};

// The real system: generic netlink and the host's devices.
Environment SystemEnvironment();

// Runs mrcctl with `args` (without argv[0]); returns the exit status.
// Never throws.
int Run(std::span<const std::string_view> args, std::ostream& out, std::ostream& err,
        const Environment& env = SystemEnvironment());

}  // namespace mrcctl
