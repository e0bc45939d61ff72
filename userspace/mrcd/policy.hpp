// SPDX-License-Identifier: GPL-2.0
// What mrcd does about alarms: pure decisions, no I/O and no clock of its
// own (every time comes in as an argument), so tests replay any history.
//
// A path (connection, EV) that alarms is marked bad once, until the module
// reports it GOOD again. When enough distinct paths of one plane alarm
// within a short window the whole plane is suspect: every path over it is
// marked bad (one "plane incident"). A plane with too many incidents
// within the flap window is taken administratively down for a hold-down
// that doubles on each repeat and resets after a quiet flap window.
#pragma once

#include <linux/mrc_telemetry.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config.hpp"
#include "mrc/types.hpp"

namespace mrcd {

// CLOCK_MONOTONIC, the clock of bpf_ktime_get_ns() and (on Linux) of
// std::chrono::steady_clock.
using MonoTime = std::chrono::steady_clock::time_point;
MonoTime FromKtimeNs(std::uint64_t ns);

struct Alarm {
  mrc_tm_alarm_kind kind = MRC_TM_ALARM_LOSS_BURST;
  std::uint32_t conn = 0;
  std::uint32_t ev = 0;
  std::uint32_t plane = 0;
  std::uint32_t state = 0;  // enum mrc_ev_state, EV_STATE alarms
  std::uint64_t time_ns = 0;
  std::uint64_t since_ack_ns = 0;
  std::uint32_t burst_losses = 0;
};

Alarm AlarmFrom(const mrc_tm_alarm& record);

enum class ActionKind : std::uint8_t { kPathBad, kPlaneBad, kPlaneDown, kPlaneUp };
inline constexpr std::array<ActionKind, 4> kActionKinds{
    ActionKind::kPathBad, ActionKind::kPlaneBad, ActionKind::kPlaneDown, ActionKind::kPlaneUp};

// "path_bad", "plane_bad", "plane_down", "plane_up": log and metric labels.
std::string_view ActionKindName(ActionKind kind);

struct Action {
  ActionKind kind = ActionKind::kPathBad;
  std::uint32_t conn = 0;  // kPathBad only
  std::uint32_t ev = 0;    // kPathBad only
  std::uint32_t plane = 0;
  std::string reason{};

  bool operator==(const Action&) const = default;
};

struct PolicyCounters {
  std::map<std::string, std::uint64_t> alarms{};   // by mrc::AlarmKindName
  std::map<std::string, std::uint64_t> actions{};  // by ActionKindName
  std::uint64_t suppressed = 0;                    // path alarms ignored: plane held, link down
  std::uint64_t plane_incidents = 0;
  std::uint64_t plane_incidents_refused = 0;  // no other healthy plane
};

class Policy {
 public:
  explicit Policy(const Detect& detect);

  // A reload: thresholds change, what was learnt stays.
  void set_detect(const Detect& detect);
  // The planes mrc.ko has. A plane is only failed (and so held down)
  // while another one is healthy (not held, link up, no incident):
  // failing the last working plane would turn a fault into an outage.
  void set_planes(std::set<std::uint32_t> planes);

  std::vector<Action> OnAlarm(const Alarm& alarm);
  // From MRC_EVENT_EV_STATE (and EV_STATE alarms): GOOD re-arms the path.
  void OnPathState(std::uint32_t conn, std::uint32_t ev, std::uint32_t plane, mrc::EvState state);
  void OnConnClosed(std::uint32_t conn);
  // Carrier from MRC_EVENT_PLANE_UP/DOWN (reason link). While the link is
  // down the module avoids the plane by itself; path alarms are ignored.
  void OnPlaneLink(std::uint32_t plane, bool up, MonoTime now);
  // Ends hold-downs that are over (kPlaneUp); call every poll.
  std::vector<Action> OnTick(MonoTime now);

  [[nodiscard]] const PolicyCounters& counters() const { return counters_; }
  [[nodiscard]] std::vector<std::uint32_t> HeldPlanes() const;
  // How long the next hold-down of `plane` would last.
  [[nodiscard]] std::chrono::seconds NextHolddown(std::uint32_t plane) const;

 private:
  using PathKey = std::pair<std::uint32_t, std::uint32_t>;  // conn, ev

  struct PlaneTrack {
    std::map<PathKey, MonoTime> suspects;  // last alarm per path
    bool in_incident = false;
    std::deque<MonoTime> incidents;  // within the flap window
    std::optional<MonoTime> held_until;
    std::optional<MonoTime> released_at;  // end of the last hold-down
    std::chrono::seconds next_holddown{0};
    bool link_down = false;
    MonoTime link_up_at{};  // alarms before it are stale
  };

  PlaneTrack& Track(std::uint32_t plane);
  void Emit(std::vector<Action>& actions, Action action);
  bool Suppressed(const PlaneTrack& track, MonoTime when);
  void Suspect(std::uint32_t plane, PlaneTrack& track, const Alarm& alarm, MonoTime when,
               std::vector<Action>& actions);
  void Incident(std::uint32_t plane, PlaneTrack& track, MonoTime when, std::string why,
                std::vector<Action>& actions);
  void HoldDown(std::uint32_t plane, PlaneTrack& track, MonoTime when, std::string why,
                std::vector<Action>& actions);
  void ForgetPlanePaths(std::uint32_t plane);
  [[nodiscard]] bool AnotherPlaneHealthy(std::uint32_t plane) const;
  void Rearm(std::uint32_t plane, PlaneTrack& track);

  Detect detect_;
  std::map<std::uint32_t, PlaneTrack> planes_{};
  std::set<std::uint32_t> known_planes_{};
  std::map<PathKey, std::uint32_t> bad_paths_{};  // -> plane
  PolicyCounters counters_;
};

}  // namespace mrcd
