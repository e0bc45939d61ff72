// SPDX-License-Identifier: GPL-2.0
// Keyword tables: one name<->value table per enum, used both to parse the
// command line (any unambiguous prefix selects a name; aliases share a
// value) and to print. The first name of a value is the one printed.
#pragma once

#include <linux/mrc_netlink.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mrc/types.hpp"

namespace mrcctl {

template <typename T>
struct Name {
  std::string_view name;
  T value;
};

// What a word selects in a table: the exact name, else the only value
// whose names it prefixes. `candidates` lists the names of an ambiguous or
// failed match.
template <typename T>
struct Match {
  const Name<T>* found = nullptr;
  std::vector<std::string_view> candidates;
};

template <typename T, std::size_t N>
Match<T> Find(const std::array<Name<T>, N>& table, std::string_view word) {
  Match<T> match;
  for (const Name<T>& entry : table) {
    if (entry.name == word) {
      match.found = &entry;
      return match;
    }
  }
  bool ambiguous = false;
  for (const Name<T>& entry : table) {
    if (word.empty() || !entry.name.starts_with(word)) {
      continue;
    }
    match.candidates.push_back(entry.name);
    if (match.found == nullptr) {
      match.found = &entry;
    } else if (!(match.found->value == entry.value)) {
      ambiguous = true;
    }
  }
  if (ambiguous) {
    match.found = nullptr;
  }
  return match;
}

// "a, b, c": the names of a table, for messages and usage.
template <typename T, std::size_t N>
std::string Choices(const std::array<Name<T>, N>& table, std::string_view separator = ", ") {
  std::string text;
  for (const Name<T>& entry : table) {
    text += (text.empty() ? "" : std::string(separator)) + std::string(entry.name);
  }
  return text;
}

// The printed name of `value`, or its number if the table lacks it.
template <typename T, std::size_t N>
std::string NameOf(const std::array<Name<T>, N>& table, T value) {
  for (const Name<T>& entry : table) {
    if (entry.value == value) {
      return std::string(entry.name);
    }
  }
  return std::to_string(static_cast<std::uint64_t>(value));
}

inline constexpr std::array<Name<mrc::PlaneState>, 3> kPlaneStates{{
    {"up", mrc::PlaneState::kUp},
    {"down", mrc::PlaneState::kDown},
    {"denied", mrc::PlaneState::kDenied},
}};

inline constexpr std::array<Name<mrc::LinkState>, 2> kLinkStates{{
    {"down", mrc::LinkState::kDown},
    {"up", mrc::LinkState::kUp},
}};

inline constexpr std::array<Name<mrc::ProfileState>, 3> kProfileStates{{
    {"init", mrc::ProfileState::kInit},
    {"offline", mrc::ProfileState::kOffline},
    {"online", mrc::ProfileState::kOnline},
}};

inline constexpr std::array<Name<mrc::EvMode>, 3> kEvModes{{
    {"auto", mrc::EvMode::kAuto},
    {"explicit", mrc::EvMode::kExplicit},
    {"generated", mrc::EvMode::kGenerated},
}};

// Every EV state, for printing.
inline constexpr std::array<Name<mrc::EvState>, 5> kEvStates{{
    {"good", mrc::EvState::kGood},
    {"skip", mrc::EvState::kSkip},
    {"assumed-bad", mrc::EvState::kAssumedBad},
    {"denied", mrc::EvState::kDenied},
    {"unpopulated", mrc::EvState::kUnpopulated},
}};

// The states an event mask may select (ev-profile ... events LIST).
inline constexpr std::array<Name<mrc::EvState>, 4> kEventMaskStates{{
    {"good", mrc::EvState::kGood},
    {"skip", mrc::EvState::kSkip},
    {"assumed-bad", mrc::EvState::kAssumedBad},
    {"denied", mrc::EvState::kDenied},
}};

// The states an administrator may set on an EV.
inline constexpr std::array<Name<mrc::EvState>, 3> kAdminEvStates{{
    {"good", mrc::EvState::kGood},
    {"assumed-bad", mrc::EvState::kAssumedBad},
    {"denied", mrc::EvState::kDenied},
}};

inline constexpr std::array<Name<mrc::ConnState>, 4> kConnStates{{
    {"closed", mrc::ConnState::kClosed},
    {"connecting", mrc::ConnState::kConnecting},
    {"established", mrc::ConnState::kEstablished},
    {"closing", mrc::ConnState::kClosing},
}};

inline constexpr std::array<Name<mrc::EventReason>, 10> kEventReasons{{
    {"none", mrc::EventReason::kNone},
    {"admin", mrc::EventReason::kAdmin},
    {"link", mrc::EventReason::kLink},
    {"netdev-gone", mrc::EventReason::kNetdevGone},
    {"peer", mrc::EventReason::kPeer},
    {"timeout", mrc::EventReason::kTimeout},
    {"attach", mrc::EventReason::kOffloadAttach},
    {"error", mrc::EventReason::kOffloadError},
    {"reset", mrc::EventReason::kOffloadReset},
    {"gone", mrc::EventReason::kOffloadGone},
}};

inline constexpr std::array<Name<mrc::EventType>, 9> kEventTypes{{
    {"plane-new", mrc::EventType::kPlaneNew},
    {"plane-del", mrc::EventType::kPlaneDel},
    {"plane-up", mrc::EventType::kPlaneUp},
    {"plane-down", mrc::EventType::kPlaneDown},
    {"profile-state", mrc::EventType::kProfileState},
    {"ev-state", mrc::EventType::kEvState},
    {"conn-established", mrc::EventType::kConnEstablished},
    {"conn-closed", mrc::EventType::kConnClosed},
    {"offload", mrc::EventType::kOffload},
}};

inline constexpr std::array<Name<mrc::OffloadMode>, 3> kOffloadModes{{
    {"on", mrc::OffloadMode::kOn},
    {"off", mrc::OffloadMode::kOff},
    {"auto", mrc::OffloadMode::kAuto},
}};

inline constexpr std::array<Name<mrc::OffloadState>, 3> kOffloadStates{{
    {"none", mrc::OffloadState::kNone},
    {"active", mrc::OffloadState::kActive},
    {"failed", mrc::OffloadState::kFailed},
}};

// CC algorithms: the value is the name sent to the kernel.
inline constexpr std::array<Name<std::string_view>, 2> kCcAlgorithms{{
    {"uet-1.0-nscc", MRC_CC_ALG_NSCC},
    {"nscc", MRC_CC_ALG_NSCC},
}};

inline constexpr std::array<Name<bool>, 2> kOnOff{{
    {"on", true},
    {"off", false},
}};

// Capability bits (MRC_INFO_ATTR_CAPS).
inline constexpr std::array<Name<std::uint32_t>, 8> kCaps{{
    {"ev-profile-modify-online", MRC_CAP_EV_PROFILE_MODIFY_ONLINE},
    {"cc-profile-modify-online", MRC_CAP_CC_PROFILE_MODIFY_ONLINE},
    {"ev-event", MRC_CAP_EV_EVENT},
    {"ev-explicit", MRC_CAP_EV_EXPLICIT},
    {"ev-generated", MRC_CAP_EV_GENERATED},
    {"ev-probe", MRC_CAP_EV_PROBE},
    {"ipv4", MRC_CAP_IPV4},
    {"ipv6", MRC_CAP_IPV6},
}};

// What an offload device can do (MRC_OFFLOAD_ATTR_FEATURES).
inline constexpr std::array<Name<std::uint32_t>, 7> kOffloadFeatures{{
    {"tx", MRC_OFFLOAD_F_TX},
    {"rx", MRC_OFFLOAD_F_RX},
    {"ack-gen", MRC_OFFLOAD_F_ACK_GEN},
    {"nack-gen", MRC_OFFLOAD_F_NACK_GEN},
    {"trim", MRC_OFFLOAD_F_TRIM},
    {"segment", MRC_OFFLOAD_F_SEGMENT},
    {"ipv6", MRC_OFFLOAD_F_IPV6},
}};

// The CC algorithms an offload device runs (MRC_OFFLOAD_ATTR_CC_ALGOS).
inline constexpr std::array<Name<std::uint32_t>, 1> kOffloadCcAlgos{{
    {"nscc", MRC_OFFLOAD_CC_NSCC},
}};

// The names of the bits set in `bits`; a bit the table lacks by its value.
template <std::size_t N>
std::vector<std::string> BitNames(const std::array<Name<std::uint32_t>, N>& table,
                                  std::uint32_t bits) {
  constexpr unsigned int kBits = 32;
  std::vector<std::string> names;
  for (unsigned int bit = 0; bit < kBits; bit++) {
    const std::uint32_t value = 1U << bit;
    if ((bits & value) != 0) {
      names.push_back(NameOf(table, value));
    }
  }
  return names;
}

}  // namespace mrcctl
