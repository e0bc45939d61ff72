// SPDX-License-Identifier: GPL-2.0
// Brings mrc.ko in line with mrcd.conf. The first time it configures what
// the file lists, adopting planes and profiles that already exist; on a
// reload it applies only what changed between the two files, so a plane
// the policy holds down stays down and untouched objects see no request.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "mrc/control.hpp"
#include "mrc/error.hpp"

namespace mrcd {

// ifname -> ifindex; nullopt for no such device.
using IfindexResolver = std::function<std::optional<std::uint32_t>(const std::string&)>;

// if_nametoindex(3) in this network namespace.
IfindexResolver SystemIfindexResolver();

// A request the kernel refused (error() is its errno), or a device that
// does not exist (error() is ENODEV); what() says which object of the
// configuration, and where it is written.
class ApplyError : public mrc::Error {
 public:
  ApplyError(const std::string& message, int error) : mrc::Error(message), error_(error) {}
  [[nodiscard]] int error() const { return error_; }

 private:
  int error_;
};

// Applies `next`, going from `previous` (nullptr: the first time). Returns
// one line per change, e.g. "plane eth1 added as 0", "plane eth2 weight
// 100 -> 50". Planes, then EV, then CC profiles; deletions first within
// each (they free IDs). Throws ApplyError at the first failure, leaving what came
// before it applied; after that the caller should apply again with
// previous == nullptr, which compares with what the kernel has.
std::vector<std::string> ApplyConfig(mrc::Control& ctl, const Config* previous, const Config& next,
                                     const IfindexResolver& resolve);

}  // namespace mrcd
