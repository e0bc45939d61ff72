// SPDX-License-Identifier: GPL-2.0
// mrcd's policy: which alarms become which actions, replayed with a
// made-up clock.
#include <gtest/gtest.h>
#include <linux/mrc_netlink.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "mrcd/policy.hpp"

namespace {

using mrcd::Action;
using mrcd::ActionKind;
using mrcd::Alarm;
using mrcd::Policy;
using std::chrono::milliseconds;

// Far from 0, the "link never went up" time.
constexpr std::uint64_t kStartNs = 1000ULL * 1000 * 1000 * 1000;

std::uint64_t Ns(std::int64_t ms) { return kStartNs + static_cast<std::uint64_t>(ms) * 1000000; }

mrcd::MonoTime At(std::int64_t ms) { return mrcd::FromKtimeNs(Ns(ms)); }

Alarm PathAlarm(std::uint32_t conn, std::uint32_t ev, std::uint32_t plane, std::int64_t ms,
                mrc_tm_alarm_kind kind = MRC_TM_ALARM_LOSS_BURST) {
  return Alarm{.kind = kind, .conn = conn, .ev = ev, .plane = plane, .time_ns = Ns(ms)};
}

std::vector<ActionKind> Kinds(const std::vector<Action>& actions) {
  std::vector<ActionKind> kinds;
  for (const Action& action : actions) {
    kinds.push_back(action.kind);
  }
  return kinds;
}

mrcd::Detect TestDetect() {
  return mrcd::Detect{.plane_suspect_paths = 2,
                      .plane_window_ms = 500,
                      .flap_max = 2,
                      .flap_window_s = 60,
                      .holddown_s = 5,
                      .holddown_max_s = 12};
}

// Two distinct new paths of `plane` alarm 1 ms apart; the actions of both.
std::vector<Action> Incident(Policy& policy, std::uint32_t plane, std::int64_t ms) {
  static std::uint32_t next_conn = 1000;
  std::vector<Action> actions = policy.OnAlarm(PathAlarm(next_conn++, 1, plane, ms));
  const std::vector<Action> more = policy.OnAlarm(PathAlarm(next_conn++, 1, plane, ms + 1));
  actions.insert(actions.end(), more.begin(), more.end());
  return actions;
}

// The module reports an ASSUMED_BAD path of `plane` GOOD again (a probe
// was answered): the plane works again.
void Recover(Policy& policy, std::uint32_t plane) {
  policy.OnPathState(1, 1, plane, mrc::EvState::kAssumedBad);
  policy.OnPathState(1, 1, plane, mrc::EvState::kGood);
}

TEST(MrcdPolicy, AlarmMarksThePathBadOnce) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  const std::vector<Action> first = policy.OnAlarm(PathAlarm(5, 7, 1, 0, MRC_TM_ALARM_NO_ACK));
  ASSERT_EQ(first.size(), 1U);
  EXPECT_EQ(first[0].kind, ActionKind::kPathBad);
  EXPECT_EQ(first[0].conn, 5U);
  EXPECT_EQ(first[0].ev, 7U);
  EXPECT_EQ(first[0].plane, 1U);
  EXPECT_NE(first[0].reason.find("no_ack"), std::string::npos) << first[0].reason;

  EXPECT_TRUE(policy.OnAlarm(PathAlarm(5, 7, 1, 10)).empty());
  EXPECT_TRUE(policy.OnAlarm(PathAlarm(5, 7, 1, 2000, MRC_TM_ALARM_TIMEOUT)).empty());
}

TEST(MrcdPolicy, GoodStateRearmsThePath) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  ASSERT_EQ(policy.OnAlarm(PathAlarm(5, 7, 1, 0)).size(), 1U);
  policy.OnPathState(5, 7, 1, mrc::EvState::kGood);
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(5, 7, 1, 1000))),
            std::vector<ActionKind>{ActionKind::kPathBad});

  // An EV_STATE alarm saying GOOD does the same.
  Alarm good = PathAlarm(5, 7, 1, 2000, MRC_TM_ALARM_EV_STATE);
  good.state = MRC_EV_GOOD;
  EXPECT_TRUE(policy.OnAlarm(good).empty());
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(5, 7, 1, 3000))),
            std::vector<ActionKind>{ActionKind::kPathBad});
}

TEST(MrcdPolicy, PathTheModuleMarkedBadIsNotMarkedAgain) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  policy.OnPathState(5, 7, 1, mrc::EvState::kAssumedBad);
  EXPECT_TRUE(policy.OnAlarm(PathAlarm(5, 7, 1, 0)).empty());
}

Alarm ModuleVerdict(std::uint32_t conn, std::uint32_t ev, std::uint32_t plane, std::int64_t ms,
                    std::uint8_t state = MRC_EV_ASSUMED_BAD) {
  Alarm alarm = PathAlarm(conn, ev, plane, ms, MRC_TM_ALARM_EV_STATE);
  alarm.state = state;
  return alarm;
}

// A guest or host that stalls makes the module give up on paths of every
// plane at once: its verdicts alone are no plane failure.
TEST(MrcdPolicy, ModuleVerdictsAloneDoNotFailThePlane) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  EXPECT_TRUE(policy.OnAlarm(ModuleVerdict(1, 10, 2, 0)).empty());
  EXPECT_TRUE(policy.OnAlarm(ModuleVerdict(2, 20, 2, 1)).empty());
  EXPECT_TRUE(policy.OnAlarm(ModuleVerdict(3, 30, 2, 2)).empty());
}

// An EV leaving SKIP (an ECN echo) on a plane that has since gone dark
// must not end the incident: that failed the plane again and again (three
// incidents in 130 ms in a guest), and soon held it down.
TEST(MrcdPolicy, PathBackFromSkipDoesNotEndTheIncident) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  ASSERT_EQ(
      Kinds(Incident(policy, 2, 0)),
      (std::vector<ActionKind>{ActionKind::kPathBad, ActionKind::kPathBad, ActionKind::kPlaneBad}));
  EXPECT_TRUE(policy.OnAlarm(ModuleVerdict(3, 30, 2, 2, MRC_EV_GOOD)).empty());
  EXPECT_EQ(Kinds(Incident(policy, 2, 3)),
            (std::vector<ActionKind>{ActionKind::kPathBad, ActionKind::kPathBad}));
  // A probe answered on a path that was bad: the plane is back, and a new
  // failure is a new incident.
  policy.OnPathState(4, 40, 2, mrc::EvState::kAssumedBad);
  policy.OnPathState(4, 40, 2, mrc::EvState::kGood);
  EXPECT_EQ(
      Kinds(Incident(policy, 2, 2000)),
      (std::vector<ActionKind>{ActionKind::kPathBad, ActionKind::kPathBad, ActionKind::kPlaneBad}));
}

// The connections whose paths were bad closed before any came back GOOD:
// the incident ends with them, or the plane could never fail again.
TEST(MrcdPolicy, IncidentEndsWhenItsLastBadPathCloses) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  policy.OnAlarm(PathAlarm(7, 1, 2, 0));
  ASSERT_EQ(Kinds(policy.OnAlarm(PathAlarm(8, 1, 2, 1))),
            (std::vector<ActionKind>{ActionKind::kPathBad, ActionKind::kPlaneBad}));
  policy.OnConnClosed(7);
  policy.OnAlarm(PathAlarm(9, 1, 2, 3000));
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(10, 1, 2, 3001))),
            std::vector<ActionKind>{ActionKind::kPathBad})
      << "conn 8 still has a bad path: the incident goes on";
  for (uint32_t c : {8, 9, 10}) policy.OnConnClosed(c);
  policy.OnAlarm(PathAlarm(11, 1, 2, 6000));
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(12, 1, 2, 6001))),
            (std::vector<ActionKind>{ActionKind::kPathBad, ActionKind::kPlaneBad}));
}

TEST(MrcdPolicy, TwoPathsOfAPlaneWithinTheWindowFailThePlane) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(1, 10, 3, 0))),
            std::vector<ActionKind>{ActionKind::kPathBad});
  const std::vector<Action> second = policy.OnAlarm(PathAlarm(2, 20, 3, 499));
  ASSERT_EQ(Kinds(second), (std::vector<ActionKind>{ActionKind::kPathBad, ActionKind::kPlaneBad}));
  EXPECT_EQ(second[1].plane, 3U);
  // Once per incident: a third path is only itself.
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(3, 30, 3, 600))),
            std::vector<ActionKind>{ActionKind::kPathBad});
  EXPECT_EQ(policy.counters().plane_incidents, 1U);
}

TEST(MrcdPolicy, TwoAlarmsOfOnePathAreNotAPlaneFailure) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  policy.OnAlarm(PathAlarm(1, 10, 3, 0));
  EXPECT_TRUE(policy.OnAlarm(PathAlarm(1, 10, 3, 100)).empty());
}

TEST(MrcdPolicy, PathsOutsideTheWindowDoNotFailThePlane) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  policy.OnAlarm(PathAlarm(1, 10, 3, 0));
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(2, 20, 3, 501))),
            std::vector<ActionKind>{ActionKind::kPathBad});
}

TEST(MrcdPolicy, PathsOfDifferentPlanesDoNotCombine) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  policy.OnAlarm(PathAlarm(1, 10, 3, 0));
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(2, 20, 4, 1))),
            std::vector<ActionKind>{ActionKind::kPathBad});
}

TEST(MrcdPolicy, FlappingPlaneIsHeldDownWithDoublingHolddown) {
  Policy policy(TestDetect());  // flap_max 2, hold-down 5 s .. 12 s
  policy.set_planes({0, 1, 2, 3});
  EXPECT_EQ(
      Kinds(Incident(policy, 0, 0)),
      (std::vector<ActionKind>{ActionKind::kPathBad, ActionKind::kPathBad, ActionKind::kPlaneBad}));
  Recover(policy, 0);
  Incident(policy, 0, 1000);
  Recover(policy, 0);
  const std::vector<Action> third = Incident(policy, 0, 2000);
  ASSERT_EQ(third.size(), 4U);
  EXPECT_EQ(third[3].kind, ActionKind::kPlaneDown);
  EXPECT_EQ(third[3].plane, 0U);
  EXPECT_NE(third[3].reason.find("held down for 5 s"), std::string::npos) << third[3].reason;
  EXPECT_EQ(policy.HeldPlanes(), std::vector<std::uint32_t>{0});

  // Held: no more actions for the plane, and no release before its time.
  EXPECT_TRUE(Incident(policy, 0, 3000).empty());
  EXPECT_EQ(policy.counters().suppressed, 2U);
  EXPECT_TRUE(policy.OnTick(At(2001 + 4999)).empty());
  const std::vector<Action> up = policy.OnTick(At(2001 + 5000));
  ASSERT_EQ(Kinds(up), std::vector<ActionKind>{ActionKind::kPlaneUp});
  EXPECT_EQ(up[0].plane, 0U);
  EXPECT_TRUE(policy.HeldPlanes().empty());

  // Failing again soon after: down at once, for twice as long ...
  const std::vector<Action> again = Incident(policy, 0, 8000);
  ASSERT_EQ(again.back().kind, ActionKind::kPlaneDown);
  EXPECT_NE(again.back().reason.find("held down for 10 s"), std::string::npos);
  EXPECT_TRUE(policy.OnTick(At(8001 + 9999)).empty());
  ASSERT_EQ(Kinds(policy.OnTick(At(8001 + 10000))), std::vector<ActionKind>{ActionKind::kPlaneUp});

  // ... and then at most holddown_max_s.
  const std::vector<Action> third_hold = Incident(policy, 0, 20000);
  EXPECT_NE(third_hold.back().reason.find("held down for 12 s"), std::string::npos);
}

TEST(MrcdPolicy, QuietFlapWindowResetsTheHolddown) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  for (int i = 0; i < 3; i++) {
    Incident(policy, 0, i * 1000);
    Recover(policy, 0);
  }
  ASSERT_EQ(policy.OnTick(At(7001)).size(), 1U);  // up after 5 s
  EXPECT_EQ(policy.NextHolddown(0), std::chrono::seconds(10));
  EXPECT_TRUE(policy.OnTick(At(7001 + 60000)).empty());
  EXPECT_EQ(policy.NextHolddown(0), std::chrono::seconds(5));
  // A single failure is no longer a repeat.
  EXPECT_EQ(Kinds(Incident(policy, 0, 70000)).back(), ActionKind::kPlaneBad);
}

TEST(MrcdPolicy, FewIncidentsDoNotHoldThePlane) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  Incident(policy, 0, 0);
  Recover(policy, 0);
  Incident(policy, 0, 1000);
  Recover(policy, 0);
  // The first one left the flap window: still two within it.
  EXPECT_EQ(Kinds(Incident(policy, 0, 60500)).back(), ActionKind::kPlaneBad);
  EXPECT_TRUE(policy.HeldPlanes().empty());
}

TEST(MrcdPolicy, LinkDownSuppressesPathActions) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  policy.OnPlaneLink(2, false, At(0));
  EXPECT_TRUE(policy.OnAlarm(PathAlarm(1, 10, 2, 10)).empty());
  EXPECT_TRUE(policy.OnAlarm(PathAlarm(2, 20, 2, 11)).empty());
  EXPECT_EQ(policy.counters().suppressed, 2U);
  // Other planes are unaffected.
  EXPECT_EQ(policy.OnAlarm(PathAlarm(1, 11, 3, 12)).size(), 1U);

  policy.OnPlaneLink(2, true, At(100));
  // Alarms from before the link came back are stale.
  EXPECT_TRUE(policy.OnAlarm(PathAlarm(1, 10, 2, 99)).empty());
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(1, 10, 2, 101))),
            std::vector<ActionKind>{ActionKind::kPathBad});
}

TEST(MrcdPolicy, LinkUpRearmsThePlanesPaths) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  ASSERT_EQ(policy.OnAlarm(PathAlarm(1, 10, 2, 0)).size(), 1U);
  policy.OnPlaneLink(2, false, At(10));
  policy.OnPlaneLink(2, true, At(20));
  EXPECT_EQ(policy.OnAlarm(PathAlarm(1, 10, 2, 30)).size(), 1U);
}

TEST(MrcdPolicy, ClosedConnectionIsForgotten) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  policy.OnAlarm(PathAlarm(1, 10, 2, 0));
  policy.OnConnClosed(1);
  // Its path no longer counts toward the plane, and a new connection
  // reusing the ID starts afresh.
  EXPECT_EQ(Kinds(policy.OnAlarm(PathAlarm(2, 20, 2, 1))),
            std::vector<ActionKind>{ActionKind::kPathBad});
  EXPECT_EQ(policy.OnAlarm(PathAlarm(1, 10, 2, 2)).size(), 2U);
}

TEST(MrcdPolicy, CountsAlarmsAndActionsByKind) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  EXPECT_EQ(policy.counters().alarms.at("timeout"), 0U);  // present from the start
  EXPECT_EQ(policy.counters().actions.at("plane_up"), 0U);
  policy.OnAlarm(PathAlarm(1, 10, 2, 0, MRC_TM_ALARM_TIMEOUT));
  policy.OnAlarm(PathAlarm(1, 10, 2, 1, MRC_TM_ALARM_TIMEOUT));
  policy.OnAlarm(PathAlarm(2, 10, 2, 2, MRC_TM_ALARM_LOSS_BURST));
  EXPECT_EQ(policy.counters().alarms.at("timeout"), 2U);
  EXPECT_EQ(policy.counters().alarms.at("loss_burst"), 1U);
  EXPECT_EQ(policy.counters().alarms.at("no_ack"), 0U);
  EXPECT_EQ(policy.counters().actions.at("path_bad"), 2U);
  EXPECT_EQ(policy.counters().actions.at("plane_bad"), 1U);
}

TEST(MrcdPolicy, AlarmFromCopiesTheRecord) {
  mrc_tm_alarm record{};
  record.time_ns = 123;
  record.kind = MRC_TM_ALARM_NO_ACK;
  record.conn = 4;
  record.ev = 5;
  record.plane = 6;
  record.state = MRC_EV_SKIP;
  record.burst_losses = 7;
  record.since_ack_ns = 8;
  const Alarm alarm = mrcd::AlarmFrom(record);
  EXPECT_EQ(alarm.kind, MRC_TM_ALARM_NO_ACK);
  EXPECT_EQ(alarm.conn, 4U);
  EXPECT_EQ(alarm.ev, 5U);
  EXPECT_EQ(alarm.plane, 6U);
  EXPECT_EQ(alarm.state, static_cast<std::uint32_t>(MRC_EV_SKIP));
  EXPECT_EQ(alarm.time_ns, 123U);
  EXPECT_EQ(alarm.since_ack_ns, 8U);
  EXPECT_EQ(alarm.burst_losses, 7U);
}

}  // namespace

namespace {

TEST(MrcdPolicy, PlaneLossBurstFailsThePlaneAtOnce) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1, 2, 3});
  const std::vector<Action> first =
      policy.OnAlarm(PathAlarm(7, 3, 2, 0, MRC_TM_ALARM_PLANE_LOSS_BURST));
  ASSERT_EQ(Kinds(first), std::vector<ActionKind>{ActionKind::kPlaneBad});
  EXPECT_EQ(first[0].plane, 2U);
  // The same incident: no second plane action, and no path action either.
  EXPECT_TRUE(policy.OnAlarm(PathAlarm(8, 4, 2, 10, MRC_TM_ALARM_PLANE_LOSS_BURST)).empty());
}

}  // namespace

namespace {

TEST(MrcdPolicy, LastHealthyPlaneIsNotFailed) {
  Policy policy(TestDetect());
  policy.set_planes({0, 1});
  policy.OnPlaneLink(1, false, At(0));  // plane 1 has no carrier
  for (int i = 0; i < 3; i++) {
    const std::vector<Action> actions = Incident(policy, 0, i * 1000);
    EXPECT_EQ(std::count_if(actions.begin(), actions.end(),
                            [](const Action& a) { return a.kind != ActionKind::kPathBad; }),
              0)
        << "incident " << i;
    Recover(policy, 0);
  }
  EXPECT_TRUE(policy.HeldPlanes().empty());
  EXPECT_EQ(policy.counters().plane_incidents_refused, 3U);
  // With plane 1 back, plane 0 can be failed again.
  policy.OnPlaneLink(1, true, At(3500));
  EXPECT_EQ(Incident(policy, 0, 4000).back().kind, ActionKind::kPlaneBad);
}

}  // namespace
