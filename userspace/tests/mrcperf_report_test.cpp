// SPDX-License-Identifier: GPL-2.0
// mrcperf's reports: JSON shape and values, text lines, units, exit
// statuses, and the interval meter behind -i.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mrcperf/error.hpp"
#include "mrcperf/meter.hpp"
#include "mrcperf/report.hpp"

namespace {

using mrcperf::Interval;
using mrcperf::Report;
using mrcperf::Result;
using std::chrono::microseconds;
using std::chrono::milliseconds;

Report ClientReport() {
  Report report;
  report.role = mrcperf::Role::kClient;
  report.transport = mrcperf::TransportKind::kTcp;
  report.mode = mrcperf::Mode::kStream;
  report.verify = true;
  report.local = "127.0.0.1:40000";
  report.peer = "127.0.0.1:5201";
  report.stats.bytes = 8 << 20;
  report.stats.duration = microseconds(500'000);
  report.stats.longest_gap = microseconds(1500);
  report.stats.intervals = {
      Interval{.start = microseconds(0), .end = microseconds(250'000), .bytes = 4 << 20},
      Interval{.start = microseconds(250'000),
               .end = microseconds(500'000),
               .bytes = 4 << 20,
               .longest_gap = microseconds(1500)},
  };
  report.server.emplace();
  report.server->bytes = 8 << 20;
  report.server->duration = microseconds(1'000'000);
  return report;
}

TEST(MrcperfReport, ClientJsonShape) {
  const nlohmann::json j = mrcperf::ToJson(ClientReport());
  ASSERT_TRUE(j.is_object());
  for (const char* key :
       {"role", "transport", "mode", "verify", "pingpong", "local", "peer", "start_time", "bytes",
        "messages", "mismatches", "bad_messages", "first_mismatch_offset", "seconds",
        "bits_per_second", "longest_gap_ms", "intervals", "server", "error"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.size(), 19U);
  EXPECT_FALSE(j.contains("latency_us"));  // ping-pong only
  EXPECT_EQ(j["pingpong"], false);
  EXPECT_EQ(j["role"], "client");
  EXPECT_EQ(j["transport"], "tcp");
  EXPECT_EQ(j["mode"], "stream");
  EXPECT_EQ(j["verify"], true);
  EXPECT_EQ(j["bytes"], 8 << 20);
  EXPECT_DOUBLE_EQ(j["seconds"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["bits_per_second"].get<double>(), 8.0 * (8 << 20) / 0.5);
  EXPECT_DOUBLE_EQ(j["longest_gap_ms"].get<double>(), 1.5);
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_TRUE(j["first_mismatch_offset"].is_null());
  ASSERT_EQ(j["intervals"].size(), 2U);
  const auto& second = j["intervals"][1];
  EXPECT_DOUBLE_EQ(second["start"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(second["end"].get<double>(), 0.5);
  EXPECT_EQ(second["bytes"], 4 << 20);
  EXPECT_DOUBLE_EQ(second["bits_per_second"].get<double>(), 8.0 * (4 << 20) / 0.25);
  EXPECT_DOUBLE_EQ(second["longest_gap_ms"].get<double>(), 1.5);
  EXPECT_EQ(j["server"]["bytes"], 8 << 20);
  EXPECT_EQ(j["server"]["mismatches"], 0);
  EXPECT_DOUBLE_EQ(j["server"]["bits_per_second"].get<double>(), 8.0 * (8 << 20));
}

TEST(MrcperfReport, ServerJsonHasNoServerKeyAndCarriesErrors) {
  Report report;
  report.role = mrcperf::Role::kServer;
  report.mode = mrcperf::Mode::kSeqpacket;
  report.stats.bytes = 100;
  report.stats.messages = 3;
  report.stats.mismatches = 2;
  report.stats.first_mismatch = 42;
  report.error = "recv from 10.0.0.1:5201: Connection reset by peer";
  const nlohmann::json j = mrcperf::ToJson(report);
  EXPECT_FALSE(j.contains("server"));
  EXPECT_EQ(j["role"], "server");
  EXPECT_EQ(j["transport"], "mrc");
  EXPECT_EQ(j["mode"], "seqpacket");
  EXPECT_EQ(j["messages"], 3);
  EXPECT_EQ(j["first_mismatch_offset"], 42);
  EXPECT_EQ(j["error"], "recv from 10.0.0.1:5201: Connection reset by peer");
  EXPECT_EQ(j["seconds"], 0.0);
  EXPECT_EQ(j["bits_per_second"], 0.0);
  EXPECT_TRUE(j["intervals"].is_array());
}

TEST(MrcperfReport, StartTimeIsUnixSeconds) {
  Report report = ClientReport();
  report.stats.start_time =
      std::chrono::system_clock::time_point(std::chrono::milliseconds(1'700'000'000'250));
  EXPECT_DOUBLE_EQ(mrcperf::ToJson(report)["start_time"].get<double>(), 1'700'000'000.25);
  EXPECT_DOUBLE_EQ(mrcperf::UnixSeconds(std::chrono::system_clock::time_point{}), 0.0);
}

TEST(MrcperfReport, PingpongClientJson) {
  Report report = ClientReport();
  report.pingpong = true;
  report.ping.emplace();
  report.ping->samples = {std::chrono::nanoseconds(30'000), std::chrono::nanoseconds(10'000),
                          std::chrono::nanoseconds(20'000)};
  nlohmann::json j = mrcperf::ToJson(report);
  EXPECT_EQ(j["pingpong"], true);
  EXPECT_EQ(j["latency_us"]["count"], 3);
  EXPECT_DOUBLE_EQ(j["latency_us"]["min"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(j["latency_us"]["p50"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["latency_us"]["mean"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["latency_us"]["max"].get<double>(), 30.0);
  EXPECT_FALSE(j.contains("lost"));  // UDP only
  report.transport = mrcperf::TransportKind::kUdp;
  report.ping->lost = 2;
  j = mrcperf::ToJson(report);
  EXPECT_EQ(j["lost"], 2);
  EXPECT_EQ(j["transport"], "udp");
  EXPECT_EQ(j["mode"], "datagram");
}

TEST(MrcperfReport, PingpongText) {
  Report report = ClientReport();
  report.pingpong = true;
  report.stats.messages = 3;
  report.stats.bytes = 192;
  report.ping.emplace();
  report.ping->samples = {std::chrono::nanoseconds(10'000)};
  report.ping->lost = 1;
  EXPECT_EQ(mrcperf::SummaryText(report),
            "client tcp stream ping-pong 127.0.0.1:40000 <-> 127.0.0.1:5201: 3 round trips (192 "
            "B) in 0.500 s, longest round trip 1.500 ms\n"
            "latency over 1 round trips: min 10.0 / mean 10.0 / p50 10.0 / p90 10.0 / p99 10.0 / "
            "p99.9 10.0 / max 10.0 us, 1 lost\n");
  report.role = mrcperf::Role::kServer;
  report.ping.reset();
  report.server.reset();
  EXPECT_EQ(mrcperf::SummaryText(report),
            "server tcp stream ping-pong 127.0.0.1:40000 <-> 127.0.0.1:5201: echoed 3 messages "
            "(192 B) in 0.500 s, longest gap 1.500 ms\n");
}

TEST(MrcperfReport, ClientWithoutResultHasNullServer) {
  Report report = ClientReport();
  report.server.reset();
  EXPECT_TRUE(mrcperf::ToJson(report)["server"].is_null());
}

TEST(MrcperfReport, ExitStatuses) {
  Report report = ClientReport();
  EXPECT_EQ(mrcperf::ExitStatus(report), mrcperf::kExitOk);
  report.error = "short transfer";
  EXPECT_EQ(mrcperf::ExitStatus(report), mrcperf::kExitRuntime);
  report.server->mismatches = 1;
  EXPECT_EQ(mrcperf::ExitStatus(report), mrcperf::kExitMismatch);
  report = ClientReport();
  report.server->bad_messages = 1;
  EXPECT_EQ(mrcperf::ExitStatus(report), mrcperf::kExitMismatch);
  report = ClientReport();
  report.stats.mismatches = 1;
  EXPECT_EQ(mrcperf::ExitStatus(report), mrcperf::kExitMismatch);
}

TEST(MrcperfReport, HumanUnits) {
  EXPECT_EQ(mrcperf::HumanBytes(0), "0 B");
  EXPECT_EQ(mrcperf::HumanBytes(1023), "1023 B");
  EXPECT_EQ(mrcperf::HumanBytes(1536), "1.5 KiB");
  EXPECT_EQ(mrcperf::HumanBytes(64ULL << 20U), "64.0 MiB");
  EXPECT_EQ(mrcperf::HumanBytes(3ULL << 40U), "3.0 TiB");
  EXPECT_EQ(mrcperf::HumanBits(0), "0.00 bit/s");
  EXPECT_EQ(mrcperf::HumanBits(999), "999.00 bit/s");
  EXPECT_EQ(mrcperf::HumanBits(10.5e9), "10.50 Gbit/s");
  EXPECT_EQ(mrcperf::BitsPerSecond(1000, microseconds(0)), 0.0);
  EXPECT_DOUBLE_EQ(mrcperf::BitsPerSecond(125, microseconds(1'000'000)), 1000.0);
}

TEST(MrcperfReport, TextSummary) {
  const std::string text = mrcperf::SummaryText(ClientReport());
  EXPECT_EQ(text,
            "client tcp stream 127.0.0.1:40000 <-> 127.0.0.1:5201: sent 8.0 MiB in 0.500 s = "
            "134.22 Mbit/s, longest send() block 1.500 ms\n"
            "server: received 8.0 MiB in 1.000 s = 67.11 Mbit/s, 0 mismatches, longest gap "
            "0.000 ms\n");
}

TEST(MrcperfReport, IntervalLine) {
  const Interval interval{.start = microseconds(1'000'000),
                          .end = microseconds(2'000'000),
                          .bytes = 1 << 20,
                          .messages = 256,
                          .longest_gap = microseconds(250)};
  EXPECT_EQ(mrcperf::IntervalText(interval, mrcperf::Mode::kSeqpacket),
            "[   1.00-   2.00 s]     1.0 MiB    8.39 Mbit/s  256 msgs  longest gap 0.250 ms\n");
}

TEST(MrcperfMeter, IntervalsCloseOnBoundariesAndKeepTheLongestGap) {
  const auto t0 = mrcperf::Clock::time_point{} + std::chrono::hours(1);
  std::vector<Interval> seen;
  mrcperf::Meter meter(t0, milliseconds(100), [&](const Interval& i) { seen.push_back(i); });
  meter.Record(t0 + milliseconds(10), 1000, 1, milliseconds(2));
  meter.Record(t0 + milliseconds(90), 500, 1, milliseconds(5));
  EXPECT_TRUE(seen.empty());
  // A stall over two whole intervals: they close empty, the gap lands in
  // the interval where the operation finished.
  meter.Record(t0 + milliseconds(350), 10, 1, milliseconds(260));
  ASSERT_EQ(seen.size(), 3U);
  EXPECT_EQ(seen[0].bytes, 1500U);
  EXPECT_EQ(seen[0].messages, 2U);
  EXPECT_EQ(seen[0].longest_gap, milliseconds(5));
  EXPECT_EQ(seen[0].end, milliseconds(100));
  EXPECT_EQ(seen[1].bytes, 0U);
  EXPECT_EQ(seen[2].start, milliseconds(200));
  meter.Finish(t0 + milliseconds(370));
  ASSERT_EQ(seen.size(), 4U);
  EXPECT_EQ(seen[3].start, milliseconds(300));
  EXPECT_EQ(seen[3].end, milliseconds(370));
  EXPECT_EQ(seen[3].bytes, 10U);
  EXPECT_EQ(seen[3].longest_gap, milliseconds(260));
  EXPECT_EQ(meter.longest_gap(), milliseconds(260));
  EXPECT_EQ(meter.intervals().size(), 4U);
}

TEST(MrcperfMeter, NoIntervalsWhenOff) {
  const auto t0 = mrcperf::Clock::now();
  mrcperf::Meter meter(t0, milliseconds(0), {});
  meter.Record(t0 + milliseconds(5000), 10, 0, milliseconds(7));
  meter.Finish(t0 + milliseconds(6000));
  EXPECT_TRUE(meter.intervals().empty());
  EXPECT_EQ(meter.longest_gap(), milliseconds(7));
}

}  // namespace
