// SPDX-License-Identifier: GPL-2.0
// mrcctl conn, path, stats and monitor: grammar and output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "addresses.hpp"
#include "fake_control.hpp"

namespace {

using mrcctl::kExitKernel;
using mrcctl::kExitOk;
using mrcctl::kExitUsage;

mrc::Conn Conn5() {
  return mrc::Conn{
      .id = 5,
      .state = mrc::ConnState::kEstablished,
      .local_port = 7000,
      .peer_port = 40000,
      .peer_addr4 = V4("10.0.0.2"),
      .ev_profile = 0,
      .cc_profile = 2,
      .stats = mrc::Stats{{"TxPackets", 10}, {"RxPackets", 0}, {"Retrans", 1}},
  };
}

mrc::Path Path5() {
  return mrc::Path{
      .conn_id = 5,
      .ev = 4660,
      .plane = 0,
      .state = mrc::EvState::kGood,
      .probing = true,
      .rtt_us = 35,
  };
}

class Runtime : public Mrcctl {
 protected:
  void SetUp() override {
    mrc::Conn conn6 = Conn5();
    conn6.id = 6;
    conn6.peer_addr4.reset();
    conn6.peer_addr6 = V6("fd00::2");
    conn6.stats.reset();
    kernel()->conns = {Conn5(), conn6};
    kernel()->paths = {Path5()};
    mrc::Plane plane0{.id = 0,
                      .ifname = "veth0",
                      .stats = mrc::Stats{{"PlaneRxDrop", 0}, {"PlaneTxPackets", 12}}};
    kernel()->stats = mrc::StatsReport{
        .global = {{"SockCreate", 3}, {"SockInUse", 0}, {"PlaneNetdevGone", 1}},
        .planes = {plane0},
    };
  }

  std::string UsageError(const std::vector<std::string_view>& args, const std::string& usage) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, kExitUsage);
    EXPECT_NE(r.err.find("\nUsage: mrcctl " + usage), std::string::npos) << r.err;
    EXPECT_TRUE(kernel()->calls.empty());
    return FirstLine(r.err);
  }
};

TEST_F(Runtime, ConnShowHidesZeroCounters) {
  const Result r = Run({"conn"});
  EXPECT_EQ(r.out,
            "conn 5 state established local-port 7000 peer 10.0.0.2 peer-port 40000 "
            "ev-profile 0 cc-profile 2\n"
            "    TxPackets 10\n"
            "    Retrans   1\n"
            "conn 6 state established local-port 7000 peer fd00::2 peer-port 40000 "
            "ev-profile 0 cc-profile 2\n");
}

TEST_F(Runtime, ConnShowStatsShowsZeroCounters) {
  const Result r = Run({"-s", "conn", "show", "5"});
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"GetConn"});
  EXPECT_EQ(r.out,
            "conn 5 state established local-port 7000 peer 10.0.0.2 peer-port 40000 "
            "ev-profile 0 cc-profile 2\n"
            "    TxPackets 10\n"
            "    RxPackets 0\n"
            "    Retrans   1\n");
}

TEST_F(Runtime, ConnJson) {
  const Result r = Run({"-j", "conn", "show", "id", "5"});
  EXPECT_EQ(r.out, R"([{"id":5,"state":"established","local-port":7000,"peer":"10.0.0.2",)"
                   R"("peer-port":40000,"ev-profile":0,"cc-profile":2,)"
                   R"("stats":{"TxPackets":10,"Retrans":1}}])"
                   "\n");
}

TEST_F(Runtime, ConnErrors) {
  EXPECT_EQ(UsageError({"conn", "show", "x"}, "conn show"), "Error: unknown argument \"x\".");
  EXPECT_EQ(UsageError({"conn", "show", "1", "2"}, "conn show"), "Error: duplicate \"id\".");
  EXPECT_EQ(UsageError({"conn", "show", "4294967296"}, "conn show"),
            "Error: id 4294967296 is out of range 0..4294967295.");
  EXPECT_EQ(Run({"conn", "add"}).err, "Command \"add\" is unknown, try \"mrcctl conn help\".\n");
}

TEST_F(Runtime, PathShow) {
  Result r = Run({"path", "show", "conn", "5"});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  EXPECT_EQ(kernel()->id_sent, 5U);
  EXPECT_EQ(r.out, "conn 5 ev 4660 plane 0 state good rtt-us 35 probing\n");
  r = Run({"-j", "path", "sh", "conn", "5"});
  EXPECT_EQ(r.out, R"([{"conn":5,"ev":4660,"plane":0,"state":"good","rtt-us":35,"probing":true}])"
                   "\n");
}

TEST_F(Runtime, PathSetAndProbe) {
  ASSERT_EQ(Run({"path", "set", "conn", "5", "ev", "4660", "state", "denied"}).status, kExitOk);
  EXPECT_EQ(kernel()->path_sent->conn_id, 5U);
  EXPECT_EQ(kernel()->path_sent->ev, 4660U);
  EXPECT_EQ(kernel()->path_sent->state, mrc::EvState::kDenied);
  ASSERT_EQ(Run({"path", "pr", "c", "5", "e", "1"}).status, kExitOk);
  EXPECT_EQ(kernel()->calls.back(), "ProbePath");
  EXPECT_EQ(kernel()->path_sent->ev, 1U);
}

TEST_F(Runtime, PathErrors) {
  EXPECT_EQ(UsageError({"path"}, "path show"), "Error: conn ID is required.");
  EXPECT_EQ(UsageError({"path", "show", "ev", "1"}, "path show"),
            "Error: unknown argument \"ev\".");
  EXPECT_EQ(UsageError({"path", "set", "conn", "1", "state", "good"}, "path show"),
            "Error: ev EV is required.");
  EXPECT_EQ(UsageError({"path", "set", "conn", "1", "ev", "2"}, "path show"),
            "Error: state STATE is required.");
  EXPECT_EQ(UsageError({"path", "set", "conn", "1", "ev", "2", "state", "skip"}, "path show"),
            "Error: state \"skip\" is not one of good, assumed-bad, denied.");
  EXPECT_EQ(UsageError({"path", "probe", "conn", "1"}, "path show"), "Error: ev EV is required.");
  EXPECT_EQ(UsageError({"path", "probe", "conn", "1", "ev", "2", "state", "good"}, "path show"),
            "Error: unknown argument \"state\".");
  EXPECT_EQ(UsageError({"path", "probe", "conn"}, "path show"), "Error: \"conn\" needs a value.");
}

TEST_F(Runtime, StatsText) {
  const Result r = Run({"stats"});
  EXPECT_EQ(r.out,
            "global\n"
            "    SockCreate      3\n"
            "    PlaneNetdevGone 1\n"
            "plane 0 dev veth0\n"
            "    PlaneTxPackets 12\n");
}

TEST_F(Runtime, StatsJsonWithZeros) {
  const Result r = Run({"-s", "-j", "stats"});
  EXPECT_EQ(r.out,
            R"({"global":{"SockCreate":3,"SockInUse":0,"PlaneNetdevGone":1},)"
            R"("planes":[{"id":0,"dev":"veth0","stats":{"PlaneRxDrop":0,"PlaneTxPackets":12}}]})"
            "\n");
}

TEST_F(Runtime, StatsOfOnePlane) {
  Result r = Run({"-j", "stats", "show", "plane", "0"});
  EXPECT_EQ(r.out, R"({"planes":[{"id":0,"dev":"veth0","stats":{"PlaneTxPackets":12}}]})"
                   "\n");
  r = Run({"stats", "plane", "7"});
  EXPECT_EQ(r.status, kExitKernel);
  EXPECT_EQ(r.err, "Error: no plane 7\n");
  kernel()->calls.clear();
  EXPECT_EQ(UsageError({"stats", "plane", "16"}, "stats"),
            "Error: plane 16 is out of range 0..15.");
  EXPECT_EQ(UsageError({"stats", "conn", "1"}, "stats"), "Error: unknown argument \"conn\".");
}

class Monitor : public Runtime {
 protected:
  void SetUp() override {
    Runtime::SetUp();
    kernel()->events = {
        mrc::Event{.type = mrc::EventType::kPlaneUp,
                   .plane = mrc::Plane{.id = 0,
                                       .ifindex = 4,
                                       .ifname = "veth0",
                                       .state = mrc::PlaneState::kUp,
                                       .link = mrc::LinkState::kUp}},
        mrc::Event{.type = mrc::EventType::kPlaneDown,
                   .reason = mrc::EventReason::kLink,
                   .plane = mrc::Plane{.id = 3, .ifname = "veth1"}},
        mrc::Event{
            .type = mrc::EventType::kEvState,
            .reason = mrc::EventReason::kAdmin,
            .path =
                mrc::Path{
                    .conn_id = 0, .ev_profile = 3, .ev = 100, .state = mrc::EvState::kDenied}},
        mrc::Event{.type = mrc::EventType::kProfileState,
                   .reason = mrc::EventReason::kAdmin,
                   .ev_profile = mrc::EvProfile{.id = 3, .state = mrc::ProfileState::kOnline}},
        mrc::Event{.type = mrc::EventType::kConnClosed,
                   .reason = mrc::EventReason::kPeer,
                   .conn = mrc::Conn{.id = 5, .state = mrc::ConnState::kClosed}},
        mrc::Event{.type = static_cast<mrc::EventType>(200)},
    };
  }
};

TEST_F(Monitor, OneLinePerEvent) {
  const Result r = Run({"monitor"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out,
            "[PLANE_UP] plane 0 dev veth0 ifindex 4 state up link up\n"
            "[PLANE_DOWN] plane 3 dev veth1 reason link\n"
            "[EV_STATE] ev-profile 3 ev 100 state denied reason admin\n"
            "[PROFILE_STATE] ev-profile 3 state online reason admin\n"
            "[CONN_CLOSED] conn 5 state closed reason peer\n"
            "[200]\n");
  EXPECT_EQ(r.err, "Warning: events were lost (receive buffer overrun)\n");
}

TEST_F(Monitor, OneJsonObjectPerLine) {
  const Result r = Run({"-j", "monitor"});
  EXPECT_EQ(r.out, R"({"event":"plane-up","plane":{"id":0,"dev":"veth0","ifindex":4,"state":"up",)"
                   R"("link":"up"}})"
                   "\n"
                   R"({"event":"plane-down","plane":{"id":3,"dev":"veth1"},"reason":"link"})"
                   "\n"
                   R"({"event":"ev-state","path":{"ev-profile":3,"ev":100,"state":"denied",)"
                   R"("probing":false},"reason":"admin"})"
                   "\n"
                   R"({"event":"profile-state","ev-profile":{"id":3,"state":"online"},)"
                   R"("reason":"admin"})"
                   "\n"
                   R"({"event":"conn-closed","conn":{"id":5,"state":"closed"},"reason":"peer"})"
                   "\n"
                   R"({"event":"200"})"
                   "\n");
}

// An offload attached to plane 1, then a hook of it failing.
std::vector<mrc::Event> OffloadEvents() {
  return {
      mrc::Event{.type = mrc::EventType::kOffload,
                 .reason = mrc::EventReason::kOffloadAttach,
                 .plane = mrc::Plane{.id = 1,
                                     .ifindex = 5,
                                     .ifname = "pl1",
                                     .state = mrc::PlaneState::kUp,
                                     .offload_mode = mrc::OffloadMode::kAuto,
                                     .offload =
                                         mrc::PlaneOffload{
                                             .state = mrc::OffloadState::kActive,
                                             .driver = "mrc_sim",
                                             .conns = 0,
                                         }}},
      mrc::Event{.type = mrc::EventType::kOffload,
                 .reason = mrc::EventReason::kOffloadError,
                 .plane = mrc::Plane{.id = 1,
                                     .ifname = "pl1",
                                     .offload_mode = mrc::OffloadMode::kAuto,
                                     .offload =
                                         mrc::PlaneOffload{
                                             .state = mrc::OffloadState::kNone,
                                             .hook = "conn_add",
                                             .error = 12,
                                         }}},
      mrc::Event{
          .type = mrc::EventType::kOffload,
          .reason = mrc::EventReason::kOffloadReset,
          .plane = mrc::Plane{.id = 1,
                              .ifname = "pl1",
                              .offload = mrc::PlaneOffload{.state = mrc::OffloadState::kFailed}}},
      mrc::Event{.type = mrc::EventType::kOffload,
                 .reason = mrc::EventReason::kOffloadGone,
                 .plane = mrc::Plane{.id = 1, .ifname = "pl1"}},
  };
}

TEST_F(Monitor, OffloadEventsOnOneLine) {
  kernel()->events = OffloadEvents();
  const Result r = Run({"monitor"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out,
            "[OFFLOAD] plane 1 dev pl1 state active reason attach\n"
            "[OFFLOAD] plane 1 dev pl1 state none reason error hook conn_add error 12\n"
            "[OFFLOAD] plane 1 dev pl1 state failed reason reset\n"
            "[OFFLOAD] plane 1 dev pl1 reason gone\n");
}

TEST_F(Monitor, OffloadEventsAsJson) {
  kernel()->events = OffloadEvents();
  const Result r = Run({"-j", "monitor"});
  EXPECT_EQ(r.out,
            R"({"event":"offload","plane":{"id":1,"dev":"pl1","ifindex":5,"state":"up",)"
            R"("offload":{"mode":"auto","state":"active","driver":"mrc_sim","conns":0}},)"
            R"("reason":"attach"})"
            "\n"
            R"({"event":"offload","plane":{"id":1,"dev":"pl1","offload":{"mode":"auto",)"
            R"("state":"none","hook":"conn_add","error":12}},"reason":"error"})"
            "\n"
            R"({"event":"offload","plane":{"id":1,"dev":"pl1","offload":{"state":"failed"}},)"
            R"("reason":"reset"})"
            "\n"
            R"({"event":"offload","plane":{"id":1,"dev":"pl1"},"reason":"gone"})"
            "\n");
}

TEST_F(Monitor, SigtermEndsItCleanly) {
  kernel()->stop_with_sigterm = true;
  const Result r = Run({"monitor"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_TRUE(kernel()->stop_fd_was_readable);
  // The signal was consumed: the test process is still alive, unblocked.
  sigset_t blocked{};
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &blocked), 0);
  EXPECT_FALSE(sigismember(&blocked, SIGTERM));
}

TEST_F(Monitor, TakesNoArguments) {
  EXPECT_EQ(UsageError({"monitor", "plane"}, "monitor"), "Error: unknown argument \"plane\".");
}

}  // namespace
