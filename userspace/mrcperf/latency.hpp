// SPDX-License-Identifier: GPL-2.0
// Round-trip times of a ping-pong run boiled down to the figures a
// benchmark compares: count, min, mean, max and nearest-rank percentiles,
// in microseconds. Pure functions, so the maths is tested on its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

namespace mrcperf {

struct LatencySummary {
  std::uint64_t count = 0;  // the rest is 0 when count is 0
  double min_us = 0;
  double mean_us = 0;
  double p50_us = 0;
  double p90_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;

  bool operator==(const LatencySummary&) const = default;
};

// The nearest-rank percentile of `sorted` (ascending, not empty): the
// smallest sample with at least `permille` / 1000 of the samples at or
// below it, i.e. sorted[ceil(permille x n / 1000) - 1] (the first sample
// for permille 0). Per mille in integers so that p99.9 of 1000 samples is
// exactly the 999th, with no floating-point rounding in the rank.
std::chrono::nanoseconds NearestRank(std::span<const std::chrono::nanoseconds> sorted,
                                     std::uint32_t permille);

// Sorts its own copy of the samples.
LatencySummary Summarize(std::vector<std::chrono::nanoseconds> samples);

}  // namespace mrcperf
