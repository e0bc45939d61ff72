// SPDX-License-Identifier: GPL-2.0
// mrcd.conf: what the daemon configures in mrc.ko (planes, EV and CC
// profiles) and how it detects and reacts to failing paths. TOML, laid out
// in mrcd.conf.example. Every mistake, syntax or meaning, is reported as
// FILE:LINE:COLUMN so an operator can go straight to it; unknown keys are
// mistakes too, because a misspelt key silently ignored is a setting that
// silently does not apply.
#pragma once

#include <linux/mrc_telemetry.h>
#include <netinet/in.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "log.hpp"
#include "mrc/types.hpp"

namespace mrcd {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Daemon {
  LogLevel log_level = LogLevel::kInfo;
  std::string metrics_address = "127.0.0.1";
  std::uint16_t metrics_port = 9477;  // 0: no metrics endpoint

  bool operator==(const Daemon&) const = default;
};

struct Detect {
  // Thresholds of the eBPF detector (struct mrc_tm_config).
  std::uint32_t burst_losses = 3;
  std::uint32_t plane_burst_losses = 8;
  std::uint32_t plane_dark_ms = 100;
  std::uint32_t burst_window_ms = 50;
  std::uint32_t ack_timeout_ms = 200;
  std::uint32_t alarm_gap_ms = 100;
  // The daemon's policy (policy.hpp).
  std::uint32_t plane_suspect_paths = 2;
  std::uint32_t plane_window_ms = 500;
  std::uint32_t flap_max = 3;
  std::uint32_t flap_window_s = 60;
  std::uint32_t holddown_s = 5;
  std::uint32_t holddown_max_s = 300;
  std::uint32_t poll_ms = 100;

  bool operator==(const Detect&) const = default;
};

struct PlaneConfig {
  std::string ifname{};
  std::optional<std::uint32_t> id{};
  std::optional<std::uint16_t> port{};
  std::optional<std::uint32_t> weight{};
  std::optional<std::uint32_t> mtu{};
  mrc::PlaneState state = mrc::PlaneState::kUp;
  std::optional<in_addr> addr4{};
  std::string origin{};  // "FILE:LINE:COLUMN" of its [[plane]], for messages
};

struct EvProfileConfig {
  std::uint32_t id = 0;
  mrc::EvMode mode = mrc::EvMode::kAuto;
  std::uint32_t count = 0;
  std::optional<std::uint32_t> min_active{};
  std::uint32_t event_mask = 0;  // bits (1 << enum mrc_ev_state)
  std::optional<std::uint32_t> seed{};
  std::vector<std::uint32_t> evs{};  // explicit mode: slot i gets evs[i]
  bool online = true;
  std::string origin{};

  // Equal configuration; where it was written does not matter.
  [[nodiscard]] bool SameSettings(const EvProfileConfig& other) const;
};

struct CcProfileConfig {
  std::uint32_t id = 0;
  std::string algorithm{};
  mrc::Nscc nscc{};  // gains in parts per million, as on the wire
  bool online = true;
  std::string origin{};

  [[nodiscard]] bool SameSettings(const CcProfileConfig& other) const;
};

struct Config {
  Daemon daemon{};
  Detect detect{};
  std::vector<PlaneConfig> planes{};
  std::vector<EvProfileConfig> ev_profiles{};
  std::vector<CcProfileConfig> cc_profiles{};
};

// Parses the text of a configuration file; `source_name` is the FILE of
// error messages. Throws ConfigError.
Config ParseConfig(std::string_view text, const std::string& source_name);

// Reads and parses `path`. Throws ConfigError (unreadable file included).
Config LoadConfig(const std::string& path);

// The eBPF detector's share of [detect].
mrc_tm_config ToTmConfig(const Detect& detect);

}  // namespace mrcd
