// SPDX-License-Identifier: GPL-2.0
#include "apply.hpp"

#include <arpa/inet.h>
#include <net/if.h>

#include <array>

#include "apply_internal.hpp"

namespace mrcd {
namespace apply {

std::string Show(std::uint32_t value) { return std::to_string(value); }
std::string Show(std::uint16_t value) { return std::to_string(value); }
std::string Show(std::uint8_t value) { return std::to_string(value); }
std::string Show(bool value) { return value ? "true" : "false"; }

std::string Show(const in_addr& value) {
  std::array<char, INET_ADDRSTRLEN> text{};
  inet_ntop(AF_INET, &value, text.data(), text.size());
  return text.data();
}

std::string Show(mrc::PlaneState value) {
  switch (value) {
    case mrc::PlaneState::kUp:
      return "up";
    case mrc::PlaneState::kDown:
      return "down";
    case mrc::PlaneState::kDenied:
      return "denied";
  }
  return std::to_string(static_cast<int>(value));
}

std::string Show(mrc::EvMode value) {
  switch (value) {
    case mrc::EvMode::kAuto:
      return "auto";
    case mrc::EvMode::kExplicit:
      return "explicit";
    case mrc::EvMode::kGenerated:
      return "generated";
  }
  return std::to_string(static_cast<int>(value));
}

std::string Show(mrc::ProfileState value) {
  switch (value) {
    case mrc::ProfileState::kInit:
      return "init";
    case mrc::ProfileState::kOffline:
      return "offline";
    case mrc::ProfileState::kOnline:
      return "online";
  }
  return std::to_string(static_cast<int>(value));
}

std::string Show(const std::string& value) { return "\"" + value + "\""; }

std::string Show(const std::vector<std::uint32_t>& value) {
  std::string text = "[";
  for (const std::uint32_t ev : value) {
    text += (text.size() > 1 ? "," : "") + std::to_string(ev);
  }
  return text + "]";
}

bool Same(const in_addr& a, const in_addr& b) { return a.s_addr == b.s_addr; }

}  // namespace apply

IfindexResolver SystemIfindexResolver() {
  return [](const std::string& ifname) -> std::optional<std::uint32_t> {
    const unsigned int ifindex = if_nametoindex(ifname.c_str());
    return ifindex == 0 ? std::nullopt : std::optional<std::uint32_t>(ifindex);
  };
}

std::vector<std::string> ApplyConfig(mrc::Control& ctl, const Config* previous, const Config& next,
                                     const IfindexResolver& resolve) {
  apply::Run run{.ctl = ctl, .resolve = resolve, .lines = {}};
  apply::ApplyPlanes(run, previous, next);
  apply::ApplyEvProfiles(run, previous, next);
  apply::ApplyCcProfiles(run, previous, next);
  return std::move(run.lines);
}

}  // namespace mrcd
