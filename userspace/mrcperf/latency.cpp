// SPDX-License-Identifier: GPL-2.0
#include "latency.hpp"

#include <algorithm>
#include <numeric>

namespace mrcperf {
namespace {

double Micros(std::chrono::nanoseconds d) { return static_cast<double>(d.count()) / 1e3; }

}  // namespace

std::chrono::nanoseconds NearestRank(std::span<const std::chrono::nanoseconds> sorted,
                                     std::uint32_t permille) {
  const std::uint64_t n = sorted.size();
  const std::uint64_t rank = (std::uint64_t{std::min(permille, 1000U)} * n + 999) / 1000;
  return sorted[std::max<std::uint64_t>(rank, 1) - 1];
}

LatencySummary Summarize(std::vector<std::chrono::nanoseconds> samples) {
  if (samples.empty()) {
    return {};
  }
  std::ranges::sort(samples);
  // Summed in long double: a day of samples in nanoseconds stays exact.
  const long double total = std::accumulate(samples.begin(), samples.end(), 0.0L,
                                            [](long double sum, std::chrono::nanoseconds d) {
                                              return sum + static_cast<long double>(d.count());
                                            });
  const auto n = samples.size();
  return {.count = n,
          .min_us = Micros(samples.front()),
          .mean_us = static_cast<double>(total / static_cast<long double>(n) / 1e3L),
          .p50_us = Micros(NearestRank(samples, 500)),
          .p90_us = Micros(NearestRank(samples, 900)),
          .p99_us = Micros(NearestRank(samples, 990)),
          .p999_us = Micros(NearestRank(samples, 999)),
          .max_us = Micros(samples.back())};
}

}  // namespace mrcperf
