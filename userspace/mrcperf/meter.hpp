// SPDX-License-Identifier: GPL-2.0
// Per-interval accounting (-i): bytes, messages and the longest wait of each
// interval, handed to a sink as each interval closes so text output can
// print it live.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace mrcperf {

using Clock = std::chrono::steady_clock;

struct Interval {
  std::chrono::microseconds start{0};  // since the start of the transfer
  std::chrono::microseconds end{0};
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;
  std::chrono::microseconds longest_gap{0};
};

using IntervalSink = std::function<void(const Interval&)>;

class Meter {
 public:
  // `every` == 0: no intervals, only the longest gap is kept.
  Meter(Clock::time_point start, std::chrono::milliseconds every, IntervalSink sink);

  // One send()/recv() finished at `now` having moved `bytes` and `messages`
  // after `gap` (the sender: time blocked in send(); the receiver: time
  // since the previous successful recv()).
  void Record(Clock::time_point now, std::uint64_t bytes, std::uint64_t messages,
              Clock::duration gap);

  // Closes the last, partial interval.
  void Finish(Clock::time_point now);

  [[nodiscard]] const std::vector<Interval>& intervals() const { return intervals_; }
  [[nodiscard]] std::chrono::microseconds longest_gap() const { return longest_gap_; }

 private:
  void Close(Clock::time_point end);

  Clock::time_point start_;
  std::chrono::milliseconds every_;
  IntervalSink sink_;
  Clock::time_point next_end_;
  Interval current_;
  std::vector<Interval> intervals_;
  std::chrono::microseconds longest_gap_{0};
};

}  // namespace mrcperf
