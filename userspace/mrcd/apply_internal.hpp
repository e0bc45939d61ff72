// SPDX-License-Identifier: GPL-2.0
// Shared by apply_planes.cpp and apply_profiles.cpp: the state of one
// ApplyConfig() run and the helpers that describe differences.
#pragma once

#include <netinet/in.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apply.hpp"

namespace mrcd::apply {

struct Run {
  mrc::Control& ctl;
  const IfindexResolver& resolve;
  std::vector<std::string> lines{};
  // The kernel's objects, fetched on first need: a reload that changes
  // nothing sends nothing.
  std::optional<std::vector<mrc::Plane>> planes{};
  std::optional<std::vector<mrc::EvProfile>> ev_profiles{};
  std::optional<std::vector<mrc::CcProfile>> cc_profiles{};
};

std::string Show(std::uint32_t value);
std::string Show(std::uint16_t value);
std::string Show(std::uint8_t value);
std::string Show(bool value);
std::string Show(const in_addr& value);
std::string Show(mrc::PlaneState value);
std::string Show(mrc::EvMode value);
std::string Show(mrc::ProfileState value);
std::string Show(const std::string& value);
std::string Show(const std::vector<std::uint32_t>& value);

bool Same(const in_addr& a, const in_addr& b);
template <typename T>
bool Same(const T& a, const T& b) {
  return a == b;
}

template <typename T>
bool Same(const std::optional<T>& a, const std::optional<T>& b) {
  return a.has_value() == b.has_value() && (!a || Same(*a, *b));
}

// Where the previous value came from: the last configuration, or the
// kernel (first run), which reports values nobody configured.
enum class Base : std::uint8_t { kConfig, kKernel };

// Puts `want` into `out` and says "PREFIX NAME OLD -> NEW" when it differs
// from `from`. A value dropped from the configuration cannot be unset in
// the module: that is said too, and nothing is sent.
template <typename T>
void Diff(Run& run, const std::string& prefix, std::string_view name, Base base,
          const std::optional<T>& from, const std::optional<T>& want, std::optional<T>& out) {
  if (want && !Same(from, want)) {
    out = want;
    run.lines.push_back(prefix + " " + std::string(name) + " " + (from ? Show(*from) : "(none)") +
                        " -> " + Show(*want));
  } else if (!want && from && base == Base::kConfig) {
    run.lines.push_back(prefix + " " + std::string(name) +
                        " is no longer configured; the module keeps " + Show(*from));
  }
}

// Runs a request; a refusal becomes an ApplyError saying `what` it was.
template <typename Request>
auto Call(const std::string& what, Request request) {
  try {
    return request();
  } catch (const mrc::KernelError& error) {
    throw ApplyError(what + ": " + error.what(), error.error());
  } catch (const ApplyError&) {
    throw;
  } catch (const mrc::Error& error) {
    throw ApplyError(what + ": " + error.what(), 0);
  }
}

void ApplyPlanes(Run& run, const Config* previous, const Config& next);
void ApplyEvProfiles(Run& run, const Config* previous, const Config& next);
void ApplyCcProfiles(Run& run, const Config* previous, const Config& next);

}  // namespace mrcd::apply
