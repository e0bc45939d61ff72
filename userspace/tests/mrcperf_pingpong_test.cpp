// SPDX-License-Identifier: GPL-2.0
// mrcperf --pingpong: whole sessions over socketpairs (stream and
// seqpacket), a hand-written server that corrupts one echo, the echo
// comparison, and the command line end to end over TCP on 127.0.0.1.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <array>
#include <chrono>
#include <future>
#include <nlohmann/json.hpp>
#include <vector>

#include "mrc/fd.hpp"
#include "mrcperf/error.hpp"
#include "mrcperf/io.hpp"
#include "mrcperf/pingpong.hpp"
#include "mrcperf/protocol.hpp"
#include "mrcperf/session.hpp"
#include "mrcperf_loopback.hpp"
#include "mrcperf_socketpair.hpp"

namespace {

using mrc::Fd;
using mrcperf::Mode;
using mrcperf::Options;
using mrcperf::Report;
using mrcperf_test::Outcome;
using mrcperf_test::RunCli;
using nlohmann::json;

using mrcperf_test::Conn;
using mrcperf_test::Pair;
using mrcperf_test::Parse;
using mrcperf_test::Sessions;
using mrcperf_test::SocketPair;

Sessions RunBothSides(int type, const Options& client_options, const Options& server_options) {
  return mrcperf_test::RunBothSides(type, client_options, server_options, 42);
}

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A latency_us object holds ordered, positive figures.
void ExpectOrdered(const json& latency) {
  const double min = latency["min"].get<double>();
  EXPECT_GT(min, 0.0);
  EXPECT_LE(min, latency["p50"].get<double>());
  EXPECT_LE(latency["p50"].get<double>(), latency["p90"].get<double>());
  EXPECT_LE(latency["p90"].get<double>(), latency["p99"].get<double>());
  EXPECT_LE(latency["p99"].get<double>(), latency["p999"].get<double>());
  EXPECT_LE(latency["p999"].get<double>(), latency["max"].get<double>());
  EXPECT_GE(latency["mean"].get<double>(), min);
  EXPECT_LE(latency["mean"].get<double>(), latency["max"].get<double>());
}

TEST(MrcperfPingpong, CountedStreamSession) {
  const Sessions s = RunBothSides(
      SOCK_STREAM,
      Parse({"-c", "x", "--pingpong", "--count", "500", "--warmup", "20", "-l", "100", "--verify"}),
      Parse({"-s"}));  // the server learns ping-pong from the Hello
  ASSERT_FALSE(s.client.error) << *s.client.error;
  ASSERT_FALSE(s.server.error) << *s.server.error;
  ASSERT_TRUE(s.client.ping);
  EXPECT_EQ(s.client.ping->samples.size(), 500U);
  EXPECT_FALSE(s.client.ping->lost);
  EXPECT_EQ(s.client.stats.messages, 520U);  // the warmup is traffic, not samples
  EXPECT_EQ(s.client.stats.bytes, 52'000U);
  EXPECT_EQ(s.client.stats.mismatches, 0U);
  for (const auto rtt : s.client.ping->samples) {
    EXPECT_GT(rtt.count(), 0);
  }
  EXPECT_TRUE(s.server.pingpong);
  EXPECT_FALSE(s.server.ping);  // only the client can time a round trip
  EXPECT_EQ(s.server.stats.messages, 520U);
  EXPECT_EQ(s.server.stats.bytes, 52'000U);
  ASSERT_TRUE(s.client.server);
  EXPECT_EQ(s.client.server->bytes, 52'000U);
  EXPECT_EQ(mrcperf::ExitStatus(s.client), mrcperf::kExitOk);
}

TEST(MrcperfPingpong, SeqpacketSession) {
  const Sessions s = RunBothSides(SOCK_SEQPACKET,
                                  Parse({"-c", "x", "--pingpong", "--seqpacket", "--count", "200"}),
                                  Parse({"-s", "--seqpacket", "--pingpong"}));
  ASSERT_FALSE(s.client.error) << *s.client.error;
  ASSERT_FALSE(s.server.error) << *s.server.error;
  EXPECT_EQ(s.client.ping->samples.size(), 200U);
  EXPECT_EQ(s.client.stats.messages, 300U);
  EXPECT_EQ(s.client.stats.bytes, 300U * 64U);
  EXPECT_EQ(s.client.stats.bad_messages, 0U);
  EXPECT_EQ(s.server.stats.messages, 300U);
  EXPECT_EQ(s.server.stats.bad_messages, 0U);
}

TEST(MrcperfPingpong, TimedSessionMeasuresAfterTheWarmup) {
  const Sessions s = RunBothSides(
      SOCK_STREAM, Parse({"-c", "x", "--pingpong", "-t", "0.2", "--warmup", "5", "-i", "0.1"}),
      Parse({"-s"}));
  ASSERT_FALSE(s.client.error) << *s.client.error;
  EXPECT_GT(s.client.ping->samples.size(), 10U);
  EXPECT_EQ(s.client.stats.messages, s.client.ping->samples.size() + 5);
  EXPECT_GE(s.client.stats.duration, std::chrono::milliseconds(200));
  EXPECT_GE(s.client.stats.intervals.size(), 2U);
  EXPECT_EQ(s.server.stats.messages, s.client.stats.messages);
}

TEST(MrcperfPingpong, PingpongServerRefusesAThroughputClient) {
  const Sessions s =
      RunBothSides(SOCK_STREAM, Parse({"-c", "x", "-n", "64K"}), Parse({"-s", "--pingpong"}));
  ASSERT_TRUE(s.server.error);
  EXPECT_EQ(*s.server.error, "client asks for a throughput run; this server runs --pingpong");
  EXPECT_EQ(mrcperf::ExitStatus(s.client), mrcperf::kExitRuntime);
}

// A server written by hand that flips bit 0 of byte `flip_at` of echo
// `flip_message`, then reports every byte it saw.
void CorruptingEchoServer(int fd, std::uint64_t flip_message, std::size_t flip_at) {
  std::array<std::uint8_t, mrcperf::kHelloSize> hello_bytes{};
  ASSERT_TRUE(mrcperf::ReceiveRecord(fd, Mode::kStream, hello_bytes, "client"));
  const mrcperf::Hello hello = mrcperf::DecodeHello(hello_bytes);
  ASSERT_TRUE(hello.pingpong);
  std::vector<std::uint8_t> message(hello.length);
  mrcperf::Result result;
  while (mrcperf::ReceiveRecord(fd, Mode::kStream, message, "client")) {
    if (result.messages == flip_message) {
      message.at(flip_at) ^= 0x01U;
    }
    mrcperf::SendRecord(fd, Mode::kStream, message, "client");
    result.bytes += message.size();
    ++result.messages;
  }
  mrcperf::SendRecord(fd, Mode::kStream, mrcperf::Encode(result), "client");
}

TEST(MrcperfPingpong, CorruptedEchoIsAMismatch) {
  Pair pair = SocketPair(SOCK_STREAM);
  std::thread server([&] {
    CorruptingEchoServer(pair.server.get(), 30, 5);
    pair.server.Reset();
  });
  const Report client = mrcperf::RunClientSession(
      Conn(pair.client, "server"),
      Parse({"-c", "x", "--pingpong", "--count", "50", "--warmup", "0"}), 7, {});
  server.join();
  EXPECT_FALSE(client.error) << *client.error;
  EXPECT_EQ(client.stats.mismatches, 1U);
  EXPECT_EQ(client.stats.first_mismatch, 30U * 64U + 5U);
  EXPECT_EQ(client.ping->samples.size(), 50U);
  EXPECT_EQ(mrcperf::ExitStatus(client), mrcperf::kExitMismatch);
}

TEST(MrcperfPingpong, CompareEchoCountsDifferencesAndMissingBytes) {
  const std::vector<std::uint8_t> sent{1, 2, 3, 4, 5, 6, 7, 8};
  mrcperf::TransferStats stats;
  mrcperf::CompareEcho(sent, sent, 0, stats);
  EXPECT_EQ(stats.mismatches, 0U);
  EXPECT_FALSE(stats.first_mismatch);
  const std::vector<std::uint8_t> short_echo{1, 2, 3, 4, 5, 6};
  mrcperf::CompareEcho(sent, short_echo, 2, stats);
  EXPECT_EQ(stats.mismatches, 2U);
  EXPECT_EQ(stats.first_mismatch, 2U * 8U + 6U);
  const std::vector<std::uint8_t> wrong{1, 9, 3, 4, 5, 6, 7, 9};
  mrcperf::CompareEcho(sent, wrong, 3, stats);
  EXPECT_EQ(stats.mismatches, 4U);
  EXPECT_EQ(stats.first_mismatch, 22U);  // the first one found stays
}

TEST(MrcperfPingpong, FillPingNumbersEveryMessage) {
  mrcperf::Hello hello{.length = 16, .seed = 3};
  std::vector<std::uint8_t> a(16);
  std::vector<std::uint8_t> b(16);
  mrcperf::FillPing(hello, 1, a);
  mrcperf::FillPing(hello, 2, b);
  EXPECT_EQ(mrcperf::GetMessageNumber(a), 1U);
  EXPECT_EQ(mrcperf::GetMessageNumber(b), 2U);
  EXPECT_TRUE(std::equal(a.begin() + 8, a.end(), b.begin() + 8));  // the same pattern
  hello.verify = true;
  mrcperf::FillPing(hello, 2, b);
  EXPECT_FALSE(std::equal(a.begin() + 8, a.end(), b.begin() + 8));  // at its own offset
}

TEST(MrcperfPingpong, TcpLoopbackJson) {
  mrcperf_test::ServerThread server({"-s", "--tcp", "-1", "-B", "127.0.0.1", "-J", "--pingpong"});
  const double before = Now();
  const Outcome client = RunCli({"--tcp", "-c", "127.0.0.1", "-p", server.port(), "--pingpong",
                                 "--count", "300", "-J", "-i", "0.1"});
  const Outcome served = server.Wait();
  const double after = Now();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  EXPECT_EQ(client.err, "");
  const json c = json::parse(client.out);
  EXPECT_EQ(c["pingpong"], true);
  EXPECT_EQ(c["transport"], "tcp");
  EXPECT_TRUE(c["error"].is_null());
  EXPECT_EQ(c["mismatches"], 0);
  EXPECT_EQ(c["messages"], 400);  // 100 warmup + 300 measured
  EXPECT_EQ(c["bytes"], 400 * 64);
  EXPECT_EQ(c["server"]["bytes"], 400 * 64);
  ASSERT_TRUE(c.contains("latency_us"));
  EXPECT_EQ(c["latency_us"]["count"], 300);
  ExpectOrdered(c["latency_us"]);
  // The longest gap is the longest round trip, cut to whole microseconds.
  EXPECT_GE(c["longest_gap_ms"].get<double>() * 1000.0 + 1.0, c["latency_us"]["max"].get<double>());
  EXPECT_GE(c["start_time"].get<double>(), before);
  EXPECT_LE(c["start_time"].get<double>() + c["seconds"].get<double>(), after);
  ASSERT_EQ(served.status, mrcperf::kExitOk) << served.out << served.err;
  const json s = json::parse(served.out);
  EXPECT_EQ(s["pingpong"], true);
  EXPECT_EQ(s["messages"], 400);
  EXPECT_FALSE(s.contains("latency_us"));
  EXPECT_GE(s["start_time"].get<double>(), before);
  EXPECT_LE(s["start_time"].get<double>(), after);
}

TEST(MrcperfPingpong, TcpLoopbackText) {
  mrcperf_test::ServerThread server({"-s", "--tcp", "-1", "-B", "127.0.0.1"});
  const Outcome client = RunCli({"--tcp", "-c", "127.0.0.1", "-p", server.port(), "--pingpong",
                                 "--count", "50", "--warmup", "1", "-l", "1000"});
  const Outcome served = server.Wait();
  ASSERT_EQ(client.status, mrcperf::kExitOk) << client.out << client.err;
  EXPECT_NE(client.out.find("(tcp stream ping-pong, 1000-byte sends)"), std::string::npos)
      << client.out;
  EXPECT_NE(client.out.find(": 51 round trips (49.8 KiB) in "), std::string::npos) << client.out;
  EXPECT_NE(client.out.find("latency over 50 round trips: min "), std::string::npos) << client.out;
  EXPECT_NE(served.out.find(": echoed 51 messages (49.8 KiB) in "), std::string::npos)
      << served.out;
}

}  // namespace
