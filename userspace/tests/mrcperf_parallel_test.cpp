// SPDX-License-Identifier: GPL-2.0
// Runs of several connections: the sums of the aggregate report, and -P 4
// against a --clients 4 server over TCP on 127.0.0.1 end to end.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "mrc/fd.hpp"
#include "mrcperf/aggregate.hpp"
#include "mrcperf/error.hpp"
#include "mrcperf/report.hpp"
#include "mrcperf_loopback.hpp"

namespace {

using mrcperf::Report;
using mrcperf_test::Outcome;
using mrcperf_test::RunCli;
using nlohmann::json;
using std::chrono::microseconds;
using std::chrono::milliseconds;

const auto kT0 = mrcperf::Clock::time_point{} + std::chrono::hours(1);
const auto kWall0 = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));

// A server report that started `start_ms` after the first and lasted
// `duration_ms`.
Report Part(int start_ms, int duration_ms, std::uint64_t bytes) {
  Report report;
  report.role = mrcperf::Role::kServer;
  report.transport = mrcperf::TransportKind::kTcp;
  report.peer = "127.0.0.1:1";
  report.stats.start = kT0 + milliseconds(start_ms);
  report.stats.start_time = kWall0 + milliseconds(start_ms);
  report.stats.duration = milliseconds(duration_ms);
  report.stats.bytes = bytes;
  report.stats.messages = bytes / 1000;
  return report;
}

std::vector<Report> ThreeParts() {
  std::vector<Report> reports{Part(0, 1000, 1'000'000), Part(500, 1000, 3'000'000),
                              Part(250, 500, 0)};
  reports[0].stats.longest_gap = milliseconds(5);
  reports[1].stats.longest_gap = milliseconds(7);
  reports[1].stats.mismatches = 2;
  reports[1].stats.bad_messages = 1;
  reports[1].error = "first error";
  reports[2].error = "second error";
  return reports;
}

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

TEST(MrcperfAggregate, SumsSpanAndFirstError) {
  const json j = mrcperf::AggregateJson(ThreeParts());
  ASSERT_EQ(j["connections"].size(), 3U);
  EXPECT_EQ(j["connections"][1]["bytes"], 3'000'000);
  EXPECT_EQ(j["connections"][2]["error"], "second error");
  EXPECT_EQ(j["role"], "server");
  EXPECT_EQ(j["transport"], "tcp");
  EXPECT_EQ(j["bytes"], 4'000'000);
  EXPECT_EQ(j["messages"], 4'000);
  EXPECT_EQ(j["mismatches"], 2);
  EXPECT_EQ(j["bad_messages"], 1);
  EXPECT_DOUBLE_EQ(j["seconds"].get<double>(), 1.5);  // 0 to 1.5 s
  EXPECT_DOUBLE_EQ(j["bits_per_second"].get<double>(), 4'000'000 * 8 / 1.5);
  EXPECT_DOUBLE_EQ(j["longest_gap_ms"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(j["start_time"].get<double>(), 1'700'000'000.0);
  EXPECT_EQ(j["error"], "first error");
  EXPECT_FALSE(j.contains("latency_us"));
  EXPECT_EQ(mrcperf::WorstStatus(ThreeParts()), mrcperf::kExitMismatch);
}

TEST(MrcperfAggregate, CleanRunHasNullErrorAndStatusZero) {
  const std::vector<Report> reports{Part(0, 100, 10), Part(0, 100, 10)};
  const json j = mrcperf::AggregateJson(reports);
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_EQ(mrcperf::WorstStatus(reports), mrcperf::kExitOk);
  std::vector<Report> failed = reports;
  failed[1].error = "x";
  EXPECT_EQ(mrcperf::WorstStatus(failed), mrcperf::kExitRuntime);
}

TEST(MrcperfAggregate, LatencyOverEverySample) {
  std::vector<Report> reports{Part(0, 100, 64), Part(0, 100, 64)};
  for (std::size_t i = 0; i < reports.size(); ++i) {
    reports[i].pingpong = true;
    reports[i].ping.emplace();
    for (int us = 1; us <= 5; ++us) {
      reports[i].ping->samples.emplace_back(microseconds(us + 5 * static_cast<int>(i)));
    }
  }
  const json j = mrcperf::AggregateJson(reports);
  EXPECT_EQ(j["pingpong"], true);
  EXPECT_EQ(j["latency_us"]["count"], 10);
  EXPECT_DOUBLE_EQ(j["latency_us"]["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["latency_us"]["p50"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(j["latency_us"]["max"].get<double>(), 10.0);
  EXPECT_EQ(mrcperf::SumText(reports),
            "[SUM] 2 connections: received 128 B in 0.100 s = 10.24 kbit/s, longest gap 0.000 ms\n"
            "[SUM] latency over 10 round trips: min 1.0 / mean 5.5 / p50 5.0 / p90 9.0 / p99 10.0 "
            "/ p99.9 10.0 / max 10.0 us\n");
}

TEST(MrcperfAggregate, SumText) {
  EXPECT_EQ(mrcperf::SumText(ThreeParts()),
            "[SUM] 3 connections: received 3.8 MiB in 1.500 s = 21.33 Mbit/s, 2 mismatches, 1 bad "
            "messages, longest gap 7.000 ms\n");
}

TEST(MrcperfParallel, FourConnectionsToAFourClientServer) {
  mrcperf_test::ServerThread server(
      {"-s", "--tcp", "--clients", "4", "-B", "127.0.0.1", "-J", "--verify"});
  const double before = Now();
  const Outcome client = RunCli({"--tcp", "-c", "127.0.0.1", "-p", server.port(), "-P", "4", "-n",
                                 "2M", "--verify", "-J", "-i", "0.1"});
  const Outcome served = server.Wait();
  const double after = Now();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  ASSERT_EQ(served.status, mrcperf::kExitOk) << served.out << served.err;
  const json c = json::parse(client.out);  // one object for the whole run
  const json s = json::parse(served.out);
  ASSERT_EQ(c["connections"].size(), 4U);
  ASSERT_EQ(s["connections"].size(), 4U);
  std::set<std::string> client_ends;
  std::set<std::string> server_peers;
  double latest_end = 0;
  for (const json& conn : c["connections"]) {
    EXPECT_EQ(conn["bytes"], 2 << 20);
    EXPECT_EQ(conn["server"]["bytes"], 2 << 20);
    EXPECT_EQ(conn["server"]["mismatches"], 0);
    EXPECT_TRUE(conn["error"].is_null());
    EXPECT_GE(conn["start_time"].get<double>(), c["start_time"].get<double>());
    latest_end =
        std::max(latest_end, conn["start_time"].get<double>() + conn["seconds"].get<double>());
    client_ends.insert(conn["local"].get<std::string>());
  }
  for (const json& conn : s["connections"]) {
    EXPECT_EQ(conn["bytes"], 2 << 20);
    EXPECT_EQ(conn["mismatches"], 0);
    EXPECT_EQ(conn["role"], "server");
    server_peers.insert(conn["peer"].get<std::string>());
  }
  EXPECT_EQ(client_ends.size(), 4U);  // four connections, not one four times
  EXPECT_EQ(client_ends, server_peers);
  for (const json* sum : {&c, &s}) {
    EXPECT_EQ((*sum)["bytes"], 8 << 20);
    EXPECT_EQ((*sum)["mismatches"], 0);
    EXPECT_EQ((*sum)["bad_messages"], 0);
    EXPECT_TRUE((*sum)["error"].is_null());
    EXPECT_EQ((*sum)["transport"], "tcp");
    const double seconds = (*sum)["seconds"].get<double>();
    EXPECT_GT(seconds, 0.0);
    EXPECT_NEAR((*sum)["bits_per_second"].get<double>(), (8 << 20) * 8.0 / seconds, 1e3);
    EXPECT_GE((*sum)["longest_gap_ms"].get<double>(), 0.0);
    EXPECT_GE((*sum)["start_time"].get<double>(), before);
    EXPECT_LE((*sum)["start_time"].get<double>() + seconds, after);
  }
  EXPECT_EQ(c["role"], "client");
  EXPECT_EQ(s["role"], "server");
  // The span reaches from the earliest start to the latest end.
  EXPECT_NEAR(c["start_time"].get<double>() + c["seconds"].get<double>(), latest_end, 0.01);
}

TEST(MrcperfParallel, PingpongOverTwoConnectionsText) {
  mrcperf_test::ServerThread server({"-s", "--tcp", "--clients", "2", "-B", "127.0.0.1"});
  const Outcome client = RunCli({"--tcp", "-c", "127.0.0.1", "-p", server.port(), "-P", "2",
                                 "--pingpong", "--count", "100", "--warmup", "0"});
  const Outcome served = server.Wait();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  for (const std::string_view line :
       {"[1] Connected 127.0.0.1:", "[2] Connected 127.0.0.1:", "[1] client tcp stream ping-pong",
        "[2] latency over 100 round trips: min ", "[SUM] 2 connections: sent 12.5 KiB in ",
        "[SUM] latency over 200 round trips: min "}) {
    EXPECT_NE(client.out.find(line), std::string::npos) << line << "\n" << client.out;
  }
  EXPECT_EQ(served.status, mrcperf::kExitOk);
  EXPECT_NE(served.out.find("[2] Accepted 127.0.0.1:"), std::string::npos) << served.out;
  EXPECT_NE(served.out.find("[SUM] 2 connections: received 12.5 KiB in "), std::string::npos)
      << served.out;
}

TEST(MrcperfParallel, EveryConnectionRefused) {
  std::uint16_t port = 0;
  {
    const mrc::Fd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    auto* sa = static_cast<sockaddr*>(static_cast<void*>(&addr));
    ASSERT_EQ(bind(fd.get(), sa, sizeof(addr)), 0);
    socklen_t len = sizeof(addr);
    ASSERT_EQ(getsockname(fd.get(), sa, &len), 0);
    port = ntohs(addr.sin_port);
  }  // bound, never listening, closed: nobody there
  const Outcome client =
      RunCli({"--tcp", "-c", "127.0.0.1", "-p", std::to_string(port), "-P", "3", "-n", "1M", "-J"});
  EXPECT_EQ(client.status, mrcperf::kExitRuntime);
  const std::string error = "connect 127.0.0.1:" + std::to_string(port) + ": Connection refused";
  const json c = json::parse(client.out);
  EXPECT_EQ(c["error"], error);
  EXPECT_EQ(c["bytes"], 0);
  ASSERT_EQ(c["connections"].size(), 3U);
  for (const json& conn : c["connections"]) {
    EXPECT_EQ(conn["error"], error);
    EXPECT_TRUE(conn["server"].is_null());
  }
  for (const std::string tag : {"[1] ", "[2] ", "[3] "}) {
    EXPECT_NE(client.err.find("mrcperf: " + tag + error + "\n"), std::string::npos) << client.err;
  }
}

}  // namespace
