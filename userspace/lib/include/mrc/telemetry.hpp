// SPDX-License-Identifier: GPL-2.0
// The eBPF telemetry maps (linux/mrc_telemetry.h) as C++ values: mrcd and
// `mrcctl telemetry` read the same pinned maps bpftool dumps, so all three
// print the same numbers.
#pragma once

#include <linux/mrc_telemetry.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mrc {

using PathEntries = std::vector<std::pair<mrc_tm_path_key, mrc_tm_path>>;
using PlaneEntries = std::vector<std::pair<mrc_tm_plane_key, mrc_tm_plane>>;
using LinkEntries = std::vector<std::pair<mrc_tm_link_key, mrc_tm_link>>;

// One namespace's entries of every telemetry map, sorted by key.
struct TelemetrySnapshot {
  PathEntries paths{};
  PlaneEntries planes{};
  LinkEntries links{};
};

class TelemetryReader {
 public:
  TelemetryReader() = default;
  TelemetryReader(const TelemetryReader&) = delete;
  TelemetryReader& operator=(const TelemetryReader&) = delete;
  TelemetryReader(TelemetryReader&&) = delete;
  TelemetryReader& operator=(TelemetryReader&&) = delete;
  virtual ~TelemetryReader() = default;

  virtual TelemetrySnapshot Read(std::uint32_t netns) = 0;
};

// Reads the maps pinned under `dir`. Throws mrc::Error naming the missing
// pin when mrcd has not loaded the programs.
std::unique_ptr<TelemetryReader> OpenPinnedTelemetry(const std::string& dir = MRC_TM_PIN_DIR);

// Reads the maps behind these file descriptors (mrcd's own, not owned).
std::unique_ptr<TelemetryReader> TelemetryFromFds(int paths_fd, int planes_fd, int links_fd);

// The inode number of this process's network namespace (the maps' key).
std::uint32_t CurrentNetns();

// Names of enum mrc_tm_alarm_kind and enum mrc_ev_state, as mrcctl prints.
std::string AlarmKindName(std::uint32_t kind);

}  // namespace mrc
