// SPDX-License-Identifier: GPL-2.0
// mrcd against a kernel stand-in: applying mrcd.conf (first time and
// reloads) and carrying out the policy's actions.
#include <gtest/gtest.h>
#include <linux/mrc_netlink.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mrc/control.hpp"
#include "mrc/error.hpp"
#include "mrcd/actuator.hpp"
#include "mrcd/apply.hpp"

namespace {

using mrcd::ApplyConfig;
using mrcd::Config;
using mrcd::ParseConfig;

// A kernel that keeps planes and paths and records every request.
class RecordingControl final : public mrc::Control {
 public:
  std::vector<std::string> calls;
  std::vector<mrc::Plane> planes;       // the kernel's planes
  std::vector<mrc::Plane> planes_sent;  // AddPlane and SetPlane requests
  std::vector<std::uint32_t> planes_deleted;
  std::vector<mrc::EvProfile> ev_profiles;
  std::vector<mrc::EvProfile> ev_sent;
  std::vector<mrc::CcProfile> cc_profiles;
  std::vector<mrc::CcProfile> cc_sent;
  std::vector<std::uint32_t> profiles_deleted;
  std::vector<mrc::Conn> conns;
  std::map<std::uint32_t, std::vector<mrc::Path>> paths;  // by connection
  std::vector<mrc::Path> paths_set;
  std::set<std::uint32_t> vanished;        // connections that are gone: ENOENT
  std::optional<mrc::KernelError> refuse;  // thrown by the next change

  mrc::Info GetInfo() override { return Unused<mrc::Info>(); }

  std::optional<mrc::Plane> AddPlane(const mrc::Plane& plane) override {
    Change("AddPlane");
    planes_sent.push_back(plane);
    mrc::Plane added = plane;
    added.id = plane.id ? *plane.id : FreePlaneId();
    added.ifname = "if" + std::to_string(*plane.ifindex);
    planes.push_back(added);
    return added;
  }
  void DelPlane(std::uint32_t id) override {
    Change("DelPlane");
    planes_deleted.push_back(id);
    std::erase_if(planes, [id](const mrc::Plane& plane) { return plane.id == id; });
  }
  std::optional<mrc::Plane> SetPlane(const mrc::Plane& plane) override {
    Change("SetPlane");
    planes_sent.push_back(plane);
    return std::nullopt;
  }
  mrc::Plane GetPlane(std::uint32_t) override { return Unused<mrc::Plane>(); }
  std::vector<mrc::Plane> DumpPlanes() override {
    calls.emplace_back("DumpPlanes");
    return planes;
  }

  std::optional<mrc::EvProfile> NewEvProfile(const mrc::EvProfile& profile) override {
    Change("NewEvProfile");
    ev_sent.push_back(profile);
    return std::nullopt;
  }
  std::optional<mrc::EvProfile> SetEvProfile(const mrc::EvProfile& profile) override {
    Change("SetEvProfile");
    ev_sent.push_back(profile);
    return std::nullopt;
  }
  mrc::EvProfile GetEvProfile(std::uint32_t) override { return Unused<mrc::EvProfile>(); }
  std::vector<mrc::EvProfile> DumpEvProfiles() override {
    calls.emplace_back("DumpEvProfiles");
    return ev_profiles;
  }
  void DelEvProfile(std::uint32_t id) override {
    Change("DelEvProfile");
    profiles_deleted.push_back(id);
  }

  std::optional<mrc::CcProfile> NewCcProfile(const mrc::CcProfile& profile) override {
    Change("NewCcProfile");
    cc_sent.push_back(profile);
    return std::nullopt;
  }
  std::optional<mrc::CcProfile> SetCcProfile(const mrc::CcProfile& profile) override {
    Change("SetCcProfile");
    cc_sent.push_back(profile);
    return std::nullopt;
  }
  mrc::CcProfile GetCcProfile(std::uint32_t) override { return Unused<mrc::CcProfile>(); }
  std::vector<mrc::CcProfile> DumpCcProfiles() override {
    calls.emplace_back("DumpCcProfiles");
    return cc_profiles;
  }
  void DelCcProfile(std::uint32_t id) override {
    Change("DelCcProfile");
    profiles_deleted.push_back(id);
  }

  mrc::Conn GetConn(std::uint32_t) override { return Unused<mrc::Conn>(); }
  std::vector<mrc::Conn> DumpConns() override {
    calls.emplace_back("DumpConns");
    return conns;
  }
  std::vector<mrc::Path> DumpPaths(std::uint32_t conn_id) override {
    calls.emplace_back("DumpPaths");
    if (vanished.contains(conn_id)) {
      throw mrc::KernelError(ENOENT, "no such connection");
    }
    return paths[conn_id];
  }
  void SetPath(const mrc::Path& path) override {
    Change("SetPath");
    if (vanished.contains(*path.conn_id)) {
      throw mrc::KernelError(ENOENT, "no such connection");
    }
    paths_set.push_back(path);
  }
  void ProbePath(std::uint32_t, std::uint32_t) override { Unused<int>(); }
  mrc::StatsReport GetStats() override { return Unused<mrc::StatsReport>(); }
  std::vector<mrc::Peer> DumpPeers() override { return Unused<std::vector<mrc::Peer>>(); }
  void Listen(const mrc::EventHandler&, int, const std::function<void()>&) override {
    Unused<int>();
  }

 private:
  void Change(const std::string& name) {
    calls.push_back(name);
    if (refuse) {
      const mrc::KernelError error = *refuse;
      refuse.reset();
      throw error;
    }
  }

  std::uint32_t FreePlaneId() const {
    std::uint32_t id = 0;
    while (std::any_of(planes.begin(), planes.end(),
                       [id](const mrc::Plane& plane) { return plane.id == id; })) {
      id++;
    }
    return id;
  }

  template <typename T>
  T Unused() {
    ADD_FAILURE() << "mrcd sent an unexpected request";
    return T{};
  }
};

// Devices: veth0 (4), veth1 (5), veth2 (6).
std::optional<std::uint32_t> Resolve(const std::string& ifname) {
  static const std::map<std::string, std::uint32_t> devices{
      {"veth0", 4}, {"veth1", 5}, {"veth2", 6}};
  const auto it = devices.find(ifname);
  return it == devices.end() ? std::nullopt : std::optional(it->second);
}

Config Parse(const std::string& text) { return ParseConfig(text, "mrcd.conf"); }

using Lines = std::vector<std::string>;

// ---- planes ----

TEST(MrcdApply, FirstApplyAddsEachPlaneWithItsFields) {
  RecordingControl ctl;
  const Config config = Parse(R"([[plane]]
ifname = "veth0"
id = 3
port = 5000
weight = 250
mtu = 1500
state = "down"
addr4 = "10.1.2.3"

[[plane]]
ifname = "veth1"
)");
  const Lines lines = ApplyConfig(ctl, nullptr, config, Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"DumpPlanes", "AddPlane", "AddPlane"}));
  ASSERT_EQ(ctl.planes_sent.size(), 2U);
  const mrc::Plane& first = ctl.planes_sent[0];
  EXPECT_EQ(first.ifindex, 4U);
  EXPECT_EQ(first.id, 3U);
  EXPECT_EQ(first.port, 5000);
  EXPECT_EQ(first.weight, 250U);
  EXPECT_EQ(first.mtu, 1500U);
  EXPECT_EQ(first.state, mrc::PlaneState::kDown);
  ASSERT_TRUE(first.addr4);
  EXPECT_EQ(first.addr4->s_addr, htonl(0x0a010203));
  const mrc::Plane& second = ctl.planes_sent[1];
  EXPECT_EQ(second.ifindex, 5U);
  EXPECT_FALSE(second.id);  // the module picks
  EXPECT_FALSE(second.weight);
  EXPECT_FALSE(second.addr4);
  EXPECT_EQ(second.state, mrc::PlaneState::kUp);
  EXPECT_EQ(lines, (Lines{"plane veth0 added as 3", "plane veth1 added as 0"}));
}

TEST(MrcdApply, FirstApplyAdoptsAnExistingPlane) {
  RecordingControl ctl;
  ctl.planes = {mrc::Plane{
      .id = 1, .ifindex = 4, .port = 4797, .state = mrc::PlaneState::kUp, .weight = 100, .mtu = 0}};
  const Lines lines =
      ApplyConfig(ctl, nullptr, Parse("[[plane]]\nifname = \"veth0\"\nweight = 50\n"), Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"DumpPlanes", "SetPlane"}));
  ASSERT_EQ(ctl.planes_sent.size(), 1U);
  EXPECT_EQ(ctl.planes_sent[0].id, 1U);
  EXPECT_EQ(ctl.planes_sent[0].weight, 50U);
  EXPECT_FALSE(ctl.planes_sent[0].port);  // unchanged fields are not sent
  EXPECT_FALSE(ctl.planes_sent[0].state);
  EXPECT_EQ(lines, Lines{"plane veth0 weight 100 -> 50"});
}

TEST(MrcdApply, FirstApplyLeavesAMatchingPlaneAlone) {
  RecordingControl ctl;
  ctl.planes = {mrc::Plane{
      .id = 1, .ifindex = 4, .port = 4797, .state = mrc::PlaneState::kUp, .weight = 100, .mtu = 0}};
  EXPECT_TRUE(ApplyConfig(ctl, nullptr, Parse("[[plane]]\nifname = \"veth0\"\n"), Resolve).empty());
  EXPECT_EQ(ctl.calls, Lines{"DumpPlanes"});
}

constexpr const char* kThreePlanes = R"([[plane]]
ifname = "veth0"
[[plane]]
ifname = "veth1"
[[plane]]
ifname = "veth2"
)";

TEST(MrcdApply, ReloadAppliesOnlyTheDifference) {
  RecordingControl ctl;
  const Config before = Parse(kThreePlanes);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.calls.clear();
  ctl.planes_sent.clear();

  const Config after = Parse(R"([[plane]]
ifname = "veth0"
weight = 50
[[plane]]
ifname = "veth1"
)");
  const Lines lines = ApplyConfig(ctl, &before, after, Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"DumpPlanes", "DelPlane", "SetPlane"}));
  EXPECT_EQ(ctl.planes_deleted, std::vector<std::uint32_t>{2});
  ASSERT_EQ(ctl.planes_sent.size(), 1U);
  EXPECT_EQ(ctl.planes_sent[0].id, 0U);
  EXPECT_EQ(ctl.planes_sent[0].weight, 50U);
  EXPECT_FALSE(ctl.planes_sent[0].mtu);
  EXPECT_EQ(lines, (Lines{"plane veth2 deleted (was 2)", "plane veth0 weight 100 -> 50"}));
}

TEST(MrcdApply, UnchangedReloadSendsNothing) {
  RecordingControl ctl;
  const Config before = Parse(kThreePlanes);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.calls.clear();
  // The same planes, written in another place of another file.
  const Config after = ParseConfig(std::string("\n\n") + kThreePlanes, "other.conf");
  EXPECT_TRUE(ApplyConfig(ctl, &before, after, Resolve).empty());
  EXPECT_TRUE(ctl.calls.empty());
}

TEST(MrcdApply, ReloadKeepsWhatThePolicyChanged) {
  RecordingControl ctl;
  const Config before = Parse(kThreePlanes);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.planes[0].state = mrc::PlaneState::kDown;  // held down by the policy
  ctl.calls.clear();
  ctl.planes_sent.clear();
  const Config after = Parse(std::string(kThreePlanes) + "mtu = 9000\n");  // veth2's mtu
  ApplyConfig(ctl, &before, after, Resolve);
  ASSERT_EQ(ctl.planes_sent.size(), 1U);
  EXPECT_EQ(ctl.planes_sent[0].id, 2U);
  EXPECT_EQ(ctl.planes_sent[0].mtu, 9000U);
  EXPECT_FALSE(ctl.planes_sent[0].state);
}

TEST(MrcdApply, DroppedSettingReturnsToTheDefault) {
  RecordingControl ctl;
  const Config before = Parse("[[plane]]\nifname = \"veth0\"\nweight = 7\nport = 9\n");
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.planes_sent.clear();
  const Lines lines =
      ApplyConfig(ctl, &before, Parse("[[plane]]\nifname = \"veth0\"\nport = 9\n"), Resolve);
  ASSERT_EQ(ctl.planes_sent.size(), 1U);
  EXPECT_EQ(ctl.planes_sent[0].weight, 100U);
  EXPECT_EQ(lines, Lines{"plane veth0 weight 7 -> 100"});
}

TEST(MrcdApply, ChangedIdReaddsThePlane) {
  RecordingControl ctl;
  const Config before = Parse("[[plane]]\nifname = \"veth0\"\nid = 1\n");
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.calls.clear();
  const Lines lines =
      ApplyConfig(ctl, &before, Parse("[[plane]]\nifname = \"veth0\"\nid = 2\n"), Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"DumpPlanes", "DelPlane", "AddPlane"}));
  EXPECT_EQ(ctl.planes_deleted, std::vector<std::uint32_t>{1});
  EXPECT_EQ(lines, Lines{"plane veth0 added as 2 (id 1 -> 2)"});
}

TEST(MrcdApply, UnknownIfnameNamesTheConfigLine) {
  RecordingControl ctl;
  const Config config = Parse("[[plane]]\nifname = \"veth0\"\n\n[[plane]]\nifname = \"nosuch0\"\n");
  try {
    ApplyConfig(ctl, nullptr, config, Resolve);
    FAIL() << "no error";
  } catch (const mrcd::ApplyError& error) {
    EXPECT_EQ(std::string(error.what()),
              "plane nosuch0 (mrcd.conf:4:1): no network device \"nosuch0\"");
    EXPECT_EQ(error.error(), ENODEV);
  }
}

TEST(MrcdApply, KernelRefusalSaysWhichPlane) {
  RecordingControl ctl;
  ctl.refuse = mrc::KernelError(EEXIST, "plane ID in use");
  try {
    ApplyConfig(ctl, nullptr, Parse("[[plane]]\nifname = \"veth0\"\nid = 4\n"), Resolve);
    FAIL() << "no error";
  } catch (const mrcd::ApplyError& error) {
    EXPECT_EQ(error.error(), EEXIST);
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("plane veth0 (mrcd.conf:1:1): add: plane ID in use", 0), 0U) << message;
  }
}

TEST(MrcdApply, RemovedPlaneThatIsGoneIsNoError) {
  RecordingControl ctl;
  const Config before = Parse("[[plane]]\nifname = \"veth0\"\n");
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.planes.clear();  // the netdev went away, and the plane with it
  EXPECT_EQ(ApplyConfig(ctl, &before, Config{}, Resolve), Lines{"plane veth0 is already gone"});
}

// ---- profiles ----

constexpr const char* kProfiles = R"([[ev_profile]]
id = 5
mode = "generated"
count = 8
min_active = 2
events = ["assumed-bad"]
seed = 9

[[cc_profile]]
id = 2
algorithm = "nscc"
base_rtt = 10000
gamma = 0.5
)";

TEST(MrcdApply, FirstApplyCreatesProfilesOnline) {
  RecordingControl ctl;
  const Lines lines = ApplyConfig(ctl, nullptr, Parse(kProfiles), Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"DumpEvProfiles", "NewEvProfile", "DumpCcProfiles", "NewCcProfile"}));
  ASSERT_EQ(ctl.ev_sent.size(), 1U);
  const mrc::EvProfile& ev = ctl.ev_sent[0];
  EXPECT_EQ(ev.id, 5U);
  EXPECT_EQ(ev.state, mrc::ProfileState::kOnline);
  EXPECT_EQ(ev.mode, mrc::EvMode::kGenerated);
  EXPECT_EQ(ev.count, 8U);
  EXPECT_EQ(ev.min_active, 2U);
  EXPECT_EQ(ev.event_mask, 1U << MRC_EV_ASSUMED_BAD);
  EXPECT_EQ(ev.seed, 9U);
  EXPECT_FALSE(ev.evs);
  ASSERT_EQ(ctl.cc_sent.size(), 1U);
  const mrc::CcProfile& cc = ctl.cc_sent[0];
  EXPECT_EQ(cc.id, 2U);
  EXPECT_EQ(cc.state, mrc::ProfileState::kOnline);
  EXPECT_EQ(cc.algorithm, "nscc");
  EXPECT_EQ(cc.nscc, (mrc::Nscc{.base_rtt = 10000, .gamma = 500000}));
  EXPECT_EQ(lines, (Lines{"ev-profile 5 created (online)", "cc-profile 2 created (online)"}));
}

TEST(MrcdApply, ExplicitProfileSendsItsEvs) {
  RecordingControl ctl;
  ApplyConfig(ctl, nullptr,
              Parse("[[ev_profile]]\nid = 1\nmode = \"explicit\"\ncount = 2\nmin_active = 1\n"
                    "evs = [7, 9]\n"),
              Resolve);
  ASSERT_EQ(ctl.ev_sent.size(), 1U);
  EXPECT_EQ(ctl.ev_sent[0].evs,
            (std::vector<mrc::Ev>{{.index = 0, .value = 7}, {.index = 1, .value = 9}}));
}

TEST(MrcdApply, FirstApplyAdoptsMatchingProfiles) {
  RecordingControl ctl;
  ctl.ev_profiles = {mrc::EvProfile{.id = 5,
                                    .state = mrc::ProfileState::kOnline,
                                    .mode = mrc::EvMode::kGenerated,
                                    .count = 8,
                                    .min_active = 2,
                                    .event_mask = 1U << MRC_EV_ASSUMED_BAD,
                                    .seed = 9}};
  // The kernel reports the full algorithm name and every parameter.
  ctl.cc_profiles = {
      mrc::CcProfile{.id = 2,
                     .state = mrc::ProfileState::kOnline,
                     .algorithm = "uet-1.0-nscc",
                     .nscc = {.base_rtt = 10000, .max_cwnd = 65536, .gamma = 500000}}};
  EXPECT_TRUE(ApplyConfig(ctl, nullptr, Parse(kProfiles), Resolve).empty());
  EXPECT_EQ(ctl.calls, (Lines{"DumpEvProfiles", "DumpCcProfiles"}));
}

TEST(MrcdApply, OnlineProfileGoesOfflineForAChangedCount) {
  RecordingControl ctl;
  const Config before = Parse(kProfiles);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.calls.clear();
  ctl.ev_sent.clear();
  std::string text = kProfiles;
  text.replace(text.find("count = 8"), 9, "count = 16");
  const Lines lines = ApplyConfig(ctl, &before, Parse(text), Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"SetEvProfile", "SetEvProfile"}));
  ASSERT_EQ(ctl.ev_sent.size(), 2U);
  EXPECT_EQ(ctl.ev_sent[0].state, mrc::ProfileState::kOffline);
  EXPECT_EQ(ctl.ev_sent[0].count, 16U);
  EXPECT_EQ(ctl.ev_sent[1].state, mrc::ProfileState::kOnline);
  EXPECT_FALSE(ctl.ev_sent[1].count);
  EXPECT_EQ(lines, Lines{"ev-profile 5 count 8 -> 16"});
}

TEST(MrcdApply, EventMaskChangesOnline) {
  RecordingControl ctl;
  const Config before = Parse(kProfiles);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.calls.clear();
  ctl.ev_sent.clear();
  std::string text = kProfiles;
  text.replace(text.find("[\"assumed-bad\"]"), 15, "[\"denied\"]");
  const Lines lines = ApplyConfig(ctl, &before, Parse(text), Resolve);
  EXPECT_EQ(ctl.calls, Lines{"SetEvProfile"});
  ASSERT_EQ(ctl.ev_sent.size(), 1U);
  EXPECT_EQ(ctl.ev_sent[0].event_mask, 1U << MRC_EV_DENIED);
  EXPECT_EQ(ctl.ev_sent[0].state, mrc::ProfileState::kOnline);
  EXPECT_FALSE(ctl.ev_sent[0].mode);
  EXPECT_EQ(lines, Lines{"ev-profile 5 event_mask 4 -> 8"});
}

TEST(MrcdApply, NsccParameterChangesOnlineAlgorithmOffline) {
  RecordingControl ctl;
  const Config before = Parse(kProfiles);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.calls.clear();
  std::string text = kProfiles;
  text.replace(text.find("gamma = 0.5"), 11, "gamma = 0.25");
  const Config tuned = Parse(text);
  EXPECT_EQ(ApplyConfig(ctl, &before, tuned, Resolve),
            Lines{"cc-profile 2 gamma 500000 -> 250000"});
  EXPECT_EQ(ctl.calls, Lines{"SetCcProfile"});
  EXPECT_EQ(ctl.cc_sent.back().nscc, mrc::Nscc{.gamma = 250000});
  EXPECT_EQ(ctl.cc_sent.back().state, mrc::ProfileState::kOnline);

  ctl.calls.clear();
  ctl.cc_sent.clear();
  text.replace(text.find("\"nscc\""), 6, "\"other\"");
  ApplyConfig(ctl, &tuned, Parse(text), Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"SetCcProfile", "SetCcProfile"}));
  EXPECT_EQ(ctl.cc_sent[0].state, mrc::ProfileState::kOffline);
  EXPECT_EQ(ctl.cc_sent[0].algorithm, "other");
  EXPECT_EQ(ctl.cc_sent[1].state, mrc::ProfileState::kOnline);
}

TEST(MrcdApply, RemovedProfilesGoOfflineAndAreDeleted) {
  RecordingControl ctl;
  const Config before = Parse(kProfiles);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.calls.clear();
  ctl.ev_sent.clear();
  const Lines lines = ApplyConfig(ctl, &before, Config{}, Resolve);
  EXPECT_EQ(ctl.calls, (Lines{"SetEvProfile", "DelEvProfile", "SetCcProfile", "DelCcProfile"}));
  EXPECT_EQ(ctl.ev_sent[0].state, mrc::ProfileState::kOffline);
  EXPECT_EQ(ctl.profiles_deleted, (std::vector<std::uint32_t>{5, 2}));
  EXPECT_EQ(lines, (Lines{"ev-profile 5 deleted", "cc-profile 2 deleted"}));
}

TEST(MrcdApply, ProfileInUseReportsTheKernelsReason) {
  RecordingControl ctl;
  const Config before = Parse(kProfiles);
  ApplyConfig(ctl, nullptr, before, Resolve);
  ctl.refuse = mrc::KernelError(EBUSY, "EV profile is used by connections");
  try {
    ApplyConfig(ctl, &before, Config{}, Resolve);
    FAIL() << "no error";
  } catch (const mrcd::ApplyError& error) {
    EXPECT_EQ(error.error(), EBUSY);
    EXPECT_EQ(
        std::string(error.what())
            .rfind("ev-profile 5 (mrcd.conf:1:1): take offline: EV profile is used by connections",
                   0),
        0U)
        << error.what();
  }
}

// ---- actuator ----

mrcd::Action PathBad(std::uint32_t conn, std::uint32_t ev) {
  return {.kind = mrcd::ActionKind::kPathBad, .conn = conn, .ev = ev, .plane = 1};
}

mrc::Path PathOn(std::uint32_t conn, std::uint32_t ev, std::uint32_t plane, mrc::EvState state) {
  return {.conn_id = conn, .ev = ev, .plane = plane, .state = state};
}

TEST(MrcdActuator, PathBadSetsThePathAssumedBad) {
  RecordingControl ctl;
  EXPECT_EQ(mrcd::Execute(ctl, PathBad(3, 17)), 1U);
  ASSERT_EQ(ctl.paths_set.size(), 1U);
  EXPECT_EQ(ctl.paths_set[0].conn_id, 3U);
  EXPECT_EQ(ctl.paths_set[0].ev, 17U);
  EXPECT_EQ(ctl.paths_set[0].state, mrc::EvState::kAssumedBad);
}

TEST(MrcdActuator, VanishedConnectionIsNotAFailure) {
  RecordingControl ctl;
  ctl.vanished = {3};
  EXPECT_EQ(mrcd::Execute(ctl, PathBad(3, 17)), 0U);
}

TEST(MrcdActuator, OtherKernelErrorsPropagateWithTheAction) {
  RecordingControl ctl;
  ctl.refuse = mrc::KernelError(EINVAL, "state not allowed for a connection EV");
  try {
    mrcd::Execute(ctl, PathBad(3, 17));
    FAIL() << "no error";
  } catch (const mrc::Error& error) {
    EXPECT_EQ(std::string(error.what())
                  .rfind("path_bad conn 3 ev 17 plane 1: state not allowed for a connection EV", 0),
              0U)
        << error.what();
  }
}

TEST(MrcdActuator, PlaneBadMarksEveryUsablePathOfThePlane) {
  RecordingControl ctl;
  ctl.conns = {mrc::Conn{.id = 1}, mrc::Conn{.id = 2}, mrc::Conn{.id = 3}};
  ctl.paths[1] = {PathOn(1, 10, 0, mrc::EvState::kGood), PathOn(1, 11, 1, mrc::EvState::kGood),
                  PathOn(1, 12, 1, mrc::EvState::kSkip)};
  ctl.paths[2] = {PathOn(2, 20, 1, mrc::EvState::kAssumedBad),
                  PathOn(2, 21, 1, mrc::EvState::kDenied), PathOn(2, 22, 1, mrc::EvState::kGood)};
  ctl.vanished = {3};  // closed between the two dumps
  const std::size_t changed = mrcd::Execute(ctl, {.kind = mrcd::ActionKind::kPlaneBad, .plane = 1});
  EXPECT_EQ(changed, 3U);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> marked;
  for (const mrc::Path& path : ctl.paths_set) {
    EXPECT_EQ(path.state, mrc::EvState::kAssumedBad);
    marked.emplace_back(*path.conn_id, *path.ev);
  }
  EXPECT_EQ(marked,
            (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{1, 11}, {1, 12}, {2, 22}}));
}

TEST(MrcdActuator, PlaneDownAndUpSetThePlaneState) {
  RecordingControl ctl;
  EXPECT_EQ(mrcd::Execute(ctl, {.kind = mrcd::ActionKind::kPlaneDown, .plane = 4}), 0U);
  EXPECT_EQ(mrcd::Execute(ctl, {.kind = mrcd::ActionKind::kPlaneUp, .plane = 4}), 0U);
  ASSERT_EQ(ctl.planes_sent.size(), 2U);
  EXPECT_EQ(ctl.planes_sent[0].id, 4U);
  EXPECT_EQ(ctl.planes_sent[0].state, mrc::PlaneState::kDown);
  EXPECT_FALSE(ctl.planes_sent[0].weight);
  EXPECT_EQ(ctl.planes_sent[1].state, mrc::PlaneState::kUp);
}

}  // namespace
