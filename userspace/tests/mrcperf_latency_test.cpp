// SPDX-License-Identifier: GPL-2.0
// mrcperf's latency figures: nearest-rank percentiles, mean, the empty
// case, and their JSON and text.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "mrcperf/latency.hpp"
#include "mrcperf/report.hpp"

namespace {

using mrcperf::NearestRank;
using mrcperf::Summarize;
using std::chrono::microseconds;
using std::chrono::nanoseconds;

// 1 us, 2 us, ... n us.
std::vector<nanoseconds> Ramp(int n) {
  std::vector<nanoseconds> samples;
  for (int i = 1; i <= n; ++i) {
    samples.emplace_back(microseconds(i));
  }
  return samples;
}

TEST(MrcperfLatency, NearestRankOfAThousand) {
  const auto sorted = Ramp(1000);
  EXPECT_EQ(NearestRank(sorted, 500), microseconds(500));
  EXPECT_EQ(NearestRank(sorted, 900), microseconds(900));
  EXPECT_EQ(NearestRank(sorted, 990), microseconds(990));
  EXPECT_EQ(NearestRank(sorted, 999), microseconds(999));  // no 0.999 x 1000 rounding up
  EXPECT_EQ(NearestRank(sorted, 1000), microseconds(1000));
  EXPECT_EQ(NearestRank(sorted, 0), microseconds(1));
  EXPECT_EQ(NearestRank(sorted, 1), microseconds(1));
  EXPECT_EQ(NearestRank(sorted, 2), microseconds(2));
}

TEST(MrcperfLatency, NearestRankRoundsTheRankUp) {
  const auto ten = Ramp(10);
  EXPECT_EQ(NearestRank(ten, 500), microseconds(5));   // rank 5
  EXPECT_EQ(NearestRank(ten, 510), microseconds(6));   // rank ceil(5.1) = 6
  EXPECT_EQ(NearestRank(ten, 900), microseconds(9));   // rank 9
  EXPECT_EQ(NearestRank(ten, 990), microseconds(10));  // rank ceil(9.9) = 10
  EXPECT_EQ(NearestRank(ten, 999), microseconds(10));
  const auto three = Ramp(3);
  EXPECT_EQ(NearestRank(three, 500), microseconds(2));  // rank ceil(1.5) = 2
  const auto one = Ramp(1);
  for (const std::uint32_t p : {0U, 500U, 999U, 1000U}) {
    EXPECT_EQ(NearestRank(one, p), microseconds(1)) << p;
  }
}

TEST(MrcperfLatency, SummaryOfShuffledSamples) {
  auto samples = Ramp(1000);
  std::mt19937 random(7);
  std::ranges::shuffle(samples, random);
  const mrcperf::LatencySummary s = Summarize(samples);
  EXPECT_EQ(s.count, 1000U);
  EXPECT_DOUBLE_EQ(s.min_us, 1.0);
  EXPECT_DOUBLE_EQ(s.max_us, 1000.0);
  EXPECT_DOUBLE_EQ(s.mean_us, 500.5);
  EXPECT_DOUBLE_EQ(s.p50_us, 500.0);
  EXPECT_DOUBLE_EQ(s.p90_us, 900.0);
  EXPECT_DOUBLE_EQ(s.p99_us, 990.0);
  EXPECT_DOUBLE_EQ(s.p999_us, 999.0);
}

TEST(MrcperfLatency, SummaryKeepsNanoseconds) {
  const mrcperf::LatencySummary s = Summarize({nanoseconds(1500), nanoseconds(2250)});
  EXPECT_DOUBLE_EQ(s.min_us, 1.5);
  EXPECT_DOUBLE_EQ(s.mean_us, 1.875);
  EXPECT_DOUBLE_EQ(s.p50_us, 1.5);
  EXPECT_DOUBLE_EQ(s.p90_us, 2.25);
  EXPECT_DOUBLE_EQ(s.max_us, 2.25);
}

TEST(MrcperfLatency, NoSamples) {
  EXPECT_EQ(Summarize({}), mrcperf::LatencySummary{});
  const nlohmann::json j = mrcperf::LatencyJson({});
  EXPECT_EQ(j["count"], 0);
  for (const char* key : {"min", "mean", "p50", "p90", "p99", "p999", "max"}) {
    ASSERT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j[key].is_null()) << key;
  }
  EXPECT_EQ(mrcperf::LatencyText({}, 3), "latency over 0 round trips, 3 lost\n");
}

TEST(MrcperfLatency, JsonAndText) {
  const auto samples = Ramp(1000);
  const nlohmann::json j = mrcperf::LatencyJson(samples);
  EXPECT_EQ(j.size(), 8U);
  EXPECT_EQ(j["count"], 1000);
  EXPECT_DOUBLE_EQ(j["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["mean"].get<double>(), 500.5);
  EXPECT_DOUBLE_EQ(j["p50"].get<double>(), 500.0);
  EXPECT_DOUBLE_EQ(j["p90"].get<double>(), 900.0);
  EXPECT_DOUBLE_EQ(j["p99"].get<double>(), 990.0);
  EXPECT_DOUBLE_EQ(j["p999"].get<double>(), 999.0);
  EXPECT_DOUBLE_EQ(j["max"].get<double>(), 1000.0);
  EXPECT_EQ(mrcperf::LatencyText(samples, std::nullopt),
            "latency over 1000 round trips: min 1.0 / mean 500.5 / p50 500.0 / p90 900.0 / p99 "
            "990.0 / p99.9 999.0 / max 1000.0 us\n");
}

}  // namespace
