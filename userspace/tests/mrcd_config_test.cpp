// SPDX-License-Identifier: GPL-2.0
// mrcd.conf parsing: values, defaults, and FILE:LINE:COLUMN of mistakes.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/mrc_netlink.h>

#include <fstream>
#include <string>

#include "mrcd/config.hpp"

namespace {

using mrcd::Config;
using mrcd::ConfigError;
using mrcd::ParseConfig;

// The message ParseConfig throws for `text`, or "" if it parses.
std::string ErrorOf(const std::string& text) {
  try {
    ParseConfig(text, "test.conf");
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

// "test.conf:LINE:" -- the position tests care about.
std::string LineOf(const std::string& message) {
  const auto second_colon = message.find(':', message.find(':') + 1);
  return message.substr(0, second_colon + 1);
}

constexpr const char* kFull = R"(
[daemon]
log_level = "debug"
metrics_address = "0.0.0.0"
metrics_port = 9100

[detect]
burst_losses = 5
burst_window_ms = 20
ack_timeout_ms = 300
alarm_gap_ms = 40
plane_suspect_paths = 3
plane_window_ms = 250
flap_max = 4
flap_window_s = 30
holddown_s = 2
holddown_max_s = 64
poll_ms = 50

[[plane]]
ifname = "veth0"
id = 3
port = 5000
weight = 250
mtu = 1500
state = "down"
addr4 = "10.1.2.3"

[[plane]]
ifname = "veth1"

[[ev_profile]]
id = 7
mode = "explicit"
count = 3
min_active = 1
events = ["skip", "assumed-bad"]
evs = [10, 20, 30]
online = false

[[cc_profile]]
id = 2
algorithm = "nscc"
base_rtt = 8000
target_delay = 12000
gamma = 0.25
max_md_jump = 1
qa_gate = 2
disable_qa = true
)";

TEST(MrcdConfig, ParsesEverySection) {
  const Config config = ParseConfig(kFull, "full.conf");
  EXPECT_EQ(config.daemon.log_level, mrcd::LogLevel::kDebug);
  EXPECT_EQ(config.daemon.metrics_address, "0.0.0.0");
  EXPECT_EQ(config.daemon.metrics_port, 9100);

  const mrcd::Detect expected_detect{.burst_losses = 5,
                                     .burst_window_ms = 20,
                                     .ack_timeout_ms = 300,
                                     .alarm_gap_ms = 40,
                                     .plane_suspect_paths = 3,
                                     .plane_window_ms = 250,
                                     .flap_max = 4,
                                     .flap_window_s = 30,
                                     .holddown_s = 2,
                                     .holddown_max_s = 64,
                                     .poll_ms = 50};
  EXPECT_EQ(config.detect, expected_detect);

  ASSERT_EQ(config.planes.size(), 2U);
  const mrcd::PlaneConfig& plane = config.planes[0];
  EXPECT_EQ(plane.ifname, "veth0");
  EXPECT_EQ(plane.id, 3U);
  EXPECT_EQ(plane.port, 5000);
  EXPECT_EQ(plane.weight, 250U);
  EXPECT_EQ(plane.mtu, 1500U);
  EXPECT_EQ(plane.state, mrc::PlaneState::kDown);
  ASSERT_TRUE(plane.addr4);
  EXPECT_EQ(plane.addr4->s_addr, inet_addr("10.1.2.3"));
  EXPECT_EQ(plane.origin, "full.conf:20:1");
  EXPECT_EQ(config.planes[1].ifname, "veth1");
  EXPECT_FALSE(config.planes[1].weight);
  EXPECT_EQ(config.planes[1].state, mrc::PlaneState::kUp);

  ASSERT_EQ(config.ev_profiles.size(), 1U);
  const mrcd::EvProfileConfig& ev = config.ev_profiles[0];
  EXPECT_EQ(ev.id, 7U);
  EXPECT_EQ(ev.mode, mrc::EvMode::kExplicit);
  EXPECT_EQ(ev.count, 3U);
  EXPECT_EQ(ev.min_active, 1U);
  EXPECT_EQ(ev.event_mask, (1U << MRC_EV_SKIP) | (1U << MRC_EV_ASSUMED_BAD));
  EXPECT_EQ(ev.evs, (std::vector<std::uint32_t>{10, 20, 30}));
  EXPECT_FALSE(ev.online);

  ASSERT_EQ(config.cc_profiles.size(), 1U);
  const mrcd::CcProfileConfig& cc = config.cc_profiles[0];
  EXPECT_EQ(cc.id, 2U);
  EXPECT_EQ(cc.algorithm, "nscc");
  EXPECT_EQ(cc.nscc, (mrc::Nscc{.base_rtt = 8000,
                                .target_delay = 12000,
                                .gamma = 250000,
                                .max_md_jump = 1000000,
                                .qa_gate = 2,
                                .disable_qa = true}));
  EXPECT_TRUE(cc.online);
}

TEST(MrcdConfig, EmptyFileGivesDefaults) {
  const Config config = ParseConfig("", "empty.conf");
  EXPECT_EQ(config.daemon, mrcd::Daemon{});
  EXPECT_EQ(config.daemon.metrics_port, 9477);
  EXPECT_EQ(config.daemon.metrics_address, "127.0.0.1");
  EXPECT_EQ(config.daemon.log_level, mrcd::LogLevel::kInfo);
  EXPECT_EQ(config.detect.burst_losses, 3U);
  EXPECT_EQ(config.detect.burst_window_ms, 50U);
  EXPECT_EQ(config.detect.ack_timeout_ms, 200U);
  EXPECT_EQ(config.detect.alarm_gap_ms, 100U);
  EXPECT_EQ(config.detect.plane_suspect_paths, 2U);
  EXPECT_EQ(config.detect.plane_window_ms, 500U);
  EXPECT_EQ(config.detect.flap_max, 3U);
  EXPECT_EQ(config.detect.flap_window_s, 60U);
  EXPECT_EQ(config.detect.holddown_s, 5U);
  EXPECT_EQ(config.detect.holddown_max_s, 300U);
  EXPECT_EQ(config.detect.poll_ms, 100U);
  EXPECT_TRUE(config.planes.empty());
  EXPECT_TRUE(config.ev_profiles.empty());
  EXPECT_TRUE(config.cc_profiles.empty());
}

TEST(MrcdConfig, DetectDefaultsMatchTheEbpfDefaults) {
  const mrc_tm_config tm = mrcd::ToTmConfig(mrcd::Detect{});
  EXPECT_EQ(tm.burst_losses, MRC_TM_DEFAULT_BURST_LOSSES);
  EXPECT_EQ(tm.plane_burst_losses, MRC_TM_DEFAULT_PLANE_BURST_LOSSES);
  EXPECT_EQ(tm.plane_dark_ns, MRC_TM_DEFAULT_PLANE_DARK_NS);
  EXPECT_EQ(tm.burst_window_ns, MRC_TM_DEFAULT_BURST_WINDOW_NS);
  EXPECT_EQ(tm.ack_timeout_ns, MRC_TM_DEFAULT_ACK_TIMEOUT_NS);
  EXPECT_EQ(tm.alarm_gap_ns, MRC_TM_DEFAULT_ALARM_GAP_NS);
}

TEST(MrcdConfig, ToTmConfigConvertsMilliseconds) {
  const mrc_tm_config tm = mrcd::ToTmConfig(
      {.burst_losses = 7, .burst_window_ms = 20, .ack_timeout_ms = 1, .alarm_gap_ms = 3});
  EXPECT_EQ(tm.burst_losses, 7U);
  EXPECT_EQ(tm.burst_window_ns, 20000000U);
  EXPECT_EQ(tm.ack_timeout_ns, 1000000U);
  EXPECT_EQ(tm.alarm_gap_ns, 3000000U);
}

TEST(MrcdConfig, SyntaxErrorNamesItsLine) {
  const std::string message = ErrorOf("[daemon]\nlog_level = \"info\"\nmetrics_port = = 3\n");
  EXPECT_EQ(LineOf(message), "test.conf:3:") << message;
}

TEST(MrcdConfig, UnknownKeyNamesItsLineAndColumn) {
  const std::string message = ErrorOf("[detect]\nburst_losses = 4\n  burst_lossez = 4\n");
  EXPECT_EQ(message, "test.conf:3:3: unknown key \"burst_lossez\" in [detect]");
}

TEST(MrcdConfig, UnknownTableIsAnError) {
  const std::string message = ErrorOf("[daemon]\n\n[deamon]\nlog_level = \"info\"\n");
  EXPECT_EQ(message, "test.conf:3:2: unknown key \"deamon\" in the configuration");
}

TEST(MrcdConfig, UnknownKeyInAPlane) {
  const std::string message = ErrorOf("[[plane]]\nifname = \"eth0\"\nwieght = 5\n");
  EXPECT_EQ(message, "test.conf:3:1: unknown key \"wieght\" in [[plane]]");
}

TEST(MrcdConfig, OutOfRangeNamesTheValue) {
  EXPECT_EQ(ErrorOf("[[plane]]\nifname = \"eth0\"\n\nweight = 1001\n"),
            "test.conf:4:10: weight 1001 is out of range 1..1000");
  EXPECT_EQ(ErrorOf("[detect]\nburst_losses = 0\n"),
            "test.conf:2:16: burst_losses 0 is out of range 1..4294967295");
  EXPECT_EQ(ErrorOf("[[plane]]\nifname = \"eth0\"\nmtu = 575\n"),
            "test.conf:3:7: mtu 575 is out of range 576..65535 (or 0: the netdev's)");
  EXPECT_EQ(ErrorOf("[[plane]]\nifname = \"eth0\"\nid = 16\n"),
            "test.conf:3:6: id 16 is out of range 0..15");
  EXPECT_EQ(ErrorOf("[daemon]\nmetrics_port = 65536\n"),
            "test.conf:2:16: metrics_port 65536 is out of range 0..65535");
}

TEST(MrcdConfig, WrongTypeIsAnError) {
  EXPECT_EQ(ErrorOf("[detect]\npoll_ms = \"100\"\n"), "test.conf:2:11: poll_ms must be an integer");
  EXPECT_EQ(ErrorOf("[[plane]]\nifname = 4\n"), "test.conf:2:10: ifname must be a string");
  EXPECT_EQ(ErrorOf("[plane]\nifname = \"eth0\"\n"),
            "test.conf:1:1: plane must be an array of tables: write [[plane]]");
}

TEST(MrcdConfig, BadWordsAreErrors) {
  EXPECT_EQ(ErrorOf("[daemon]\nlog_level = \"loud\"\n"),
            R"(test.conf:2:13: log_level "loud" is not one of "debug", "info", "warn", "error")");
  EXPECT_EQ(ErrorOf("[[plane]]\nifname = \"eth0\"\nstate = \"sideways\"\n"),
            R"(test.conf:3:9: state "sideways" is not one of "up", "down")");
  EXPECT_EQ(ErrorOf("[[plane]]\nifname = \"eth0\"\naddr4 = \"10.0.0\"\n"),
            R"(test.conf:3:9: addr4 "10.0.0" is not a dotted-quad IPv4 address)");
}

TEST(MrcdConfig, DuplicatePlaneNamesBothPlaces) {
  const std::string message =
      ErrorOf("[[plane]]\nifname = \"eth0\"\n\n[[plane]]\nifname = \"eth0\"\n");
  EXPECT_EQ(message, "test.conf:5:10: duplicate plane ifname eth0 (first at test.conf:2:10)");
}

TEST(MrcdConfig, DuplicatePlaneIdIsAnError) {
  const std::string message =
      ErrorOf("[[plane]]\nifname = \"eth0\"\nid = 1\n[[plane]]\nifname = \"eth1\"\nid = 1\n");
  EXPECT_EQ(LineOf(message), "test.conf:6:") << message;
  EXPECT_NE(message.find("duplicate plane id 1"), std::string::npos) << message;
}

TEST(MrcdConfig, DuplicateProfileIdIsAnError) {
  const std::string message = ErrorOf(
      "[[cc_profile]]\nid = 1\nalgorithm = \"nscc\"\nbase_rtt = 1\n"
      "[[cc_profile]]\nid = 1\nalgorithm = \"nscc\"\nbase_rtt = 1\n");
  EXPECT_EQ(message, "test.conf:6:6: duplicate cc_profile id 1 (first at test.conf:2:6)");
}

TEST(MrcdConfig, MissingRequiredKeyNamesTheTable) {
  const std::string message = ErrorOf("[daemon]\n\n[[plane]]\nweight = 3\n");
  EXPECT_EQ(LineOf(message), "test.conf:3:") << message;
  EXPECT_NE(message.find("[[plane]] needs ifname"), std::string::npos) << message;
}

TEST(MrcdConfig, ProfilesNeedWhatOnlineNeeds) {
  EXPECT_NE(ErrorOf("[[ev_profile]]\nid = 1\nmode = \"auto\"\ncount = 4\n")
                .find("an online profile needs min_active"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("[[ev_profile]]\nid = 1\nmode = \"auto\"\ncount = 4\nonline = false\n"), "");
  EXPECT_NE(ErrorOf("[[ev_profile]]\nid = 1\nmode = \"explicit\"\ncount = 2\nmin_active = 1\n"
                    "evs = [5]\n")
                .find("needs evs with count (2) values"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[[cc_profile]]\nid = 1\nalgorithm = \"nscc\"\n")
                .find("an online profile needs at least one NSCC parameter"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("[[ev_profile]]\nid = 1\nmode = \"auto\"\ncount = 4\nmin_active = 5\n"),
            "test.conf:5:14: min_active 5 exceeds count 4");
}

TEST(MrcdConfig, HolddownMaxBelowHolddownIsAnError) {
  EXPECT_EQ(ErrorOf("[detect]\nholddown_s = 10\nholddown_max_s = 5\n"),
            "test.conf:3:18: holddown_max_s 5 is below holddown_s 10");
}

TEST(MrcdConfig, PpmParametersTakeDecimals) {
  const Config config =
      ParseConfig("[[cc_profile]]\nid = 1\nalgorithm = \"nscc\"\neta = 0.000001\nfi = 2\n", "x");
  EXPECT_EQ(config.cc_profiles[0].nscc.eta, 1U);
  EXPECT_EQ(config.cc_profiles[0].nscc.fi, 2000000U);
  EXPECT_EQ(ErrorOf("[[cc_profile]]\nid = 1\nalgorithm = \"nscc\"\ngamma = 1.5\n"),
            "test.conf:4:9: gamma 1.5 is out of range 0..1");
}

TEST(MrcdConfig, LoadConfigReportsTheFileName) {
  const std::string path = testing::TempDir() + "mrcd_config_test.conf";
  {
    std::ofstream file(path);
    file << "[daemon]\nmetrics_port = 1\nbogus = 2\n";
  }
  try {
    mrcd::LoadConfig(path);
    FAIL() << "no error";
  } catch (const ConfigError& error) {
    EXPECT_EQ(std::string(error.what()), path + ":3:1: unknown key \"bogus\" in [daemon]");
  }
  EXPECT_THROW(mrcd::LoadConfig(path + ".missing"), ConfigError);
}

TEST(MrcdConfig, ExampleFileParses) {
  const Config config = mrcd::LoadConfig(MRCD_CONF_EXAMPLE);
  EXPECT_EQ(config.planes.size(), 2U);
  EXPECT_EQ(config.ev_profiles.size(), 1U);
  EXPECT_EQ(config.cc_profiles.size(), 1U);
  EXPECT_EQ(config.detect, mrcd::Detect{});
  EXPECT_EQ(config.daemon, mrcd::Daemon{});
}

}  // namespace
