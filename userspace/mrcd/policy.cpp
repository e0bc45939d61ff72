// SPDX-License-Identifier: GPL-2.0
#include "policy.hpp"

#include <algorithm>

#include "mrc/telemetry.hpp"

namespace mrcd {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr std::array<mrc_tm_alarm_kind, 5> kAlarmKinds{
    MRC_TM_ALARM_LOSS_BURST, MRC_TM_ALARM_TIMEOUT, MRC_TM_ALARM_NO_ACK, MRC_TM_ALARM_EV_STATE,
    MRC_TM_ALARM_PLANE_LOSS_BURST};

std::string AlarmReason(const Alarm& alarm) {
  std::string reason = mrc::AlarmKindName(alarm.kind);
  if (alarm.kind == MRC_TM_ALARM_LOSS_BURST || alarm.kind == MRC_TM_ALARM_PLANE_LOSS_BURST) {
    reason += ": " + std::to_string(alarm.burst_losses) + " losses in the burst window";
  } else if (alarm.since_ack_ns != 0) {
    reason += ": " + std::to_string(alarm.since_ack_ns / 1000000) + " ms since the last ACK";
  }
  return reason;
}

// Drops the entries of `times` before `limit`.
void PruneBefore(std::deque<MonoTime>& times, MonoTime limit) {
  while (!times.empty() && times.front() < limit) {
    times.pop_front();
  }
}

}  // namespace

MonoTime FromKtimeNs(std::uint64_t ns) {
  return MonoTime(std::chrono::duration_cast<MonoTime::duration>(
      std::chrono::nanoseconds(static_cast<std::int64_t>(ns))));
}

Alarm AlarmFrom(const mrc_tm_alarm& record) {
  return Alarm{.kind = static_cast<mrc_tm_alarm_kind>(record.kind),
               .conn = record.conn,
               .ev = record.ev,
               .plane = record.plane,
               .state = record.state,
               .time_ns = record.time_ns,
               .since_ack_ns = record.since_ack_ns,
               .burst_losses = record.burst_losses};
}

std::string_view ActionKindName(ActionKind kind) {
  switch (kind) {
    case ActionKind::kPathBad:
      return "path_bad";
    case ActionKind::kPlaneBad:
      return "plane_bad";
    case ActionKind::kPlaneDown:
      return "plane_down";
    case ActionKind::kPlaneUp:
      return "plane_up";
  }
  return "unknown";
}

Policy::Policy(const Detect& detect) : detect_(detect) {
  // Every series exists from the start, so rates work from the first scrape.
  for (const mrc_tm_alarm_kind kind : kAlarmKinds) {
    counters_.alarms[mrc::AlarmKindName(kind)] = 0;
  }
  for (const ActionKind kind : kActionKinds) {
    counters_.actions[std::string(ActionKindName(kind))] = 0;
  }
}

void Policy::set_detect(const Detect& detect) {
  detect_ = detect;
  for (auto& [plane, track] : planes_) {
    track.next_holddown = std::min(track.next_holddown, seconds(detect_.holddown_max_s));
  }
}

Policy::PlaneTrack& Policy::Track(std::uint32_t plane) {
  PlaneTrack& track = planes_[plane];
  if (track.next_holddown == seconds(0)) {
    track.next_holddown = seconds(detect_.holddown_s);
  }
  return track;
}

void Policy::Emit(std::vector<Action>& actions, Action action) {
  counters_.actions[std::string(ActionKindName(action.kind))]++;
  actions.push_back(std::move(action));
}

bool Policy::Suppressed(const PlaneTrack& track, MonoTime when) {
  return track.held_until.has_value() || track.link_down || when < track.link_up_at;
}

std::vector<Action> Policy::OnAlarm(const Alarm& alarm) {
  counters_.alarms[mrc::AlarmKindName(alarm.kind)]++;
  if (alarm.kind == MRC_TM_ALARM_EV_STATE) {
    // Not a witness against the plane: in a stalled guest or host the
    // module gives up on paths of every plane at once (the loss detector
    // asks for the plane to be dark while others are acked).
    OnPathState(alarm.conn, alarm.ev, alarm.plane, static_cast<mrc::EvState>(alarm.state));
    return {};
  }
  const MonoTime when = FromKtimeNs(alarm.time_ns);
  PlaneTrack& track = Track(alarm.plane);
  if (Suppressed(track, when)) {
    counters_.suppressed++;
    return {};
  }
  std::vector<Action> actions;
  if (alarm.kind == MRC_TM_ALARM_PLANE_LOSS_BURST) {
    // The eBPF side already saw the whole plane go dark.
    if (!track.in_incident) {
      Incident(alarm.plane, track, when, AlarmReason(alarm), actions);
    }
    return actions;
  }
  if (bad_paths_.emplace(PathKey{alarm.conn, alarm.ev}, alarm.plane).second) {
    Emit(actions, Action{.kind = ActionKind::kPathBad,
                         .conn = alarm.conn,
                         .ev = alarm.ev,
                         .plane = alarm.plane,
                         .reason = AlarmReason(alarm)});
  }
  Suspect(alarm.plane, track, alarm, when, actions);
  return actions;
}

void Policy::Suspect(std::uint32_t plane, PlaneTrack& track, const Alarm& alarm, MonoTime when,
                     std::vector<Action>& actions) {
  const MonoTime window_start = when - milliseconds(detect_.plane_window_ms);
  std::erase_if(track.suspects, [&](const auto& entry) { return entry.second < window_start; });
  MonoTime& last = track.suspects[PathKey{alarm.conn, alarm.ev}];
  last = std::max(last, when);
  if (!track.in_incident && track.suspects.size() >= detect_.plane_suspect_paths) {
    Incident(plane, track, when,
             std::to_string(track.suspects.size()) + " paths failed within " +
                 std::to_string(detect_.plane_window_ms) + " ms",
             actions);
  }
}

void Policy::Incident(std::uint32_t plane, PlaneTrack& track, MonoTime when, std::string why,
                      std::vector<Action>& actions) {
  // Every plane failing at once is the host or the whole fabric, not a
  // plane: leave the paths to the module rather than mark them all bad.
  if (!AnotherPlaneHealthy(plane)) {
    counters_.plane_incidents_refused++;
    return;
  }
  track.in_incident = true;
  counters_.plane_incidents++;
  Emit(actions, Action{.kind = ActionKind::kPlaneBad, .plane = plane, .reason = std::move(why)});
  const seconds flap_window(detect_.flap_window_s);
  if (track.released_at && when - *track.released_at >= flap_window) {
    track.released_at.reset();  // quiet since the last hold-down: start over
    track.next_holddown = seconds(detect_.holddown_s);
  }
  track.incidents.push_back(when);
  PruneBefore(track.incidents, when - flap_window);
  if (track.released_at) {
    HoldDown(plane, track, when, "failed again within the flap window after a hold-down", actions);
  } else if (track.incidents.size() > detect_.flap_max) {
    HoldDown(plane, track, when,
             std::to_string(track.incidents.size()) + " failures within " +
                 std::to_string(detect_.flap_window_s) + " s",
             actions);
  }
}

void Policy::set_planes(std::set<std::uint32_t> planes) { known_planes_ = std::move(planes); }

bool Policy::AnotherPlaneHealthy(std::uint32_t plane) const {
  return std::ranges::any_of(known_planes_, [&](std::uint32_t other) {
    if (other == plane) {
      return false;
    }
    const auto it = planes_.find(other);
    return it == planes_.end() ||
           (!it->second.held_until && !it->second.link_down && !it->second.in_incident);
  });
}

void Policy::HoldDown(std::uint32_t plane, PlaneTrack& track, MonoTime when, std::string why,
                      std::vector<Action>& actions) {
  const seconds hold = track.next_holddown;
  track.held_until = when + hold;
  track.next_holddown = std::min(hold * 2, seconds(detect_.holddown_max_s));
  track.incidents.clear();
  track.released_at.reset();
  track.suspects.clear();
  Emit(actions, Action{.kind = ActionKind::kPlaneDown,
                       .plane = plane,
                       .reason = why + ": held down for " + std::to_string(hold.count()) + " s"});
}

std::vector<Action> Policy::OnTick(MonoTime now) {
  std::vector<Action> actions;
  for (auto& [plane, track] : planes_) {
    if (track.held_until && now >= *track.held_until) {
      track.held_until.reset();
      track.released_at = now;
      Rearm(plane, track);
      Emit(actions,
           Action{.kind = ActionKind::kPlaneUp, .plane = plane, .reason = "hold-down over"});
    } else if (!track.held_until && track.released_at &&
               now - *track.released_at >= seconds(detect_.flap_window_s)) {
      track.released_at.reset();
      track.next_holddown = seconds(detect_.holddown_s);
    }
  }
  return actions;
}

void Policy::OnPathState(std::uint32_t conn, std::uint32_t ev, std::uint32_t plane,
                         mrc::EvState state) {
  const PathKey key{conn, ev};
  if (state == mrc::EvState::kGood) {
    PlaneTrack& track = Track(plane);
    track.suspects.erase(key);
    // Only a path back from ASSUMED_BAD (a probe was answered) shows the
    // plane carries traffic again; one back from SKIP (an ECN echo) says
    // nothing about a plane that has gone dark since.
    if (bad_paths_.erase(key) != 0) {
      track.in_incident = false;
    }
  } else if (state == mrc::EvState::kAssumedBad) {
    bad_paths_.emplace(key, plane);  // the module did it already
  }
}

void Policy::OnConnClosed(std::uint32_t conn) {
  std::erase_if(bad_paths_, [conn](const auto& entry) { return entry.first.first == conn; });
  for (auto& [plane, track] : planes_) {
    std::erase_if(track.suspects, [conn](const auto& entry) { return entry.first.first == conn; });
    // No bad path of the plane is left to come back GOOD and end the
    // incident: end it here, or the plane could never fail again.
    const std::uint32_t p = plane;
    if (track.in_incident &&
        std::ranges::none_of(bad_paths_, [p](const auto& entry) { return entry.second == p; })) {
      track.in_incident = false;
    }
  }
}

void Policy::OnPlaneLink(std::uint32_t plane, bool up, MonoTime now) {
  PlaneTrack& track = Track(plane);
  track.link_down = !up;
  if (up) {
    track.link_up_at = now;
  }
  Rearm(plane, track);
}

void Policy::ForgetPlanePaths(std::uint32_t plane) {
  std::erase_if(bad_paths_, [plane](const auto& entry) { return entry.second == plane; });
}

// A fresh start for the plane's paths: the module re-probes them after
// the plane comes back, and they may fail anew.
void Policy::Rearm(std::uint32_t plane, PlaneTrack& track) {
  track.suspects.clear();
  track.in_incident = false;
  ForgetPlanePaths(plane);
}

std::vector<std::uint32_t> Policy::HeldPlanes() const {
  std::vector<std::uint32_t> held;
  for (const auto& [plane, track] : planes_) {
    if (track.held_until) {
      held.push_back(plane);
    }
  }
  return held;
}

std::chrono::seconds Policy::NextHolddown(std::uint32_t plane) const {
  const auto it = planes_.find(plane);
  return it == planes_.end() ? seconds(detect_.holddown_s) : it->second.next_holddown;
}

}  // namespace mrcd
