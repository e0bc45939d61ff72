// SPDX-License-Identifier: GPL-2.0
// Intervals close on the next operation after their end, so a stall shows
// up as empty intervals followed by one with the long gap.
#include "meter.hpp"

#include <algorithm>
#include <utility>

namespace mrcperf {
namespace {

std::chrono::microseconds Micros(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::microseconds>(d);
}

}  // namespace

Meter::Meter(Clock::time_point start, std::chrono::milliseconds every, IntervalSink sink)
    : start_(start), every_(every), sink_(std::move(sink)), next_end_(start + every) {}

void Meter::Record(Clock::time_point now, std::uint64_t bytes, std::uint64_t messages,
                   Clock::duration gap) {
  while (every_.count() > 0 && now >= next_end_) {
    Close(next_end_);
    next_end_ += every_;
  }
  current_.bytes += bytes;
  current_.messages += messages;
  current_.longest_gap = std::max(current_.longest_gap, Micros(gap));
  longest_gap_ = std::max(longest_gap_, Micros(gap));
}

void Meter::Finish(Clock::time_point now) {
  while (every_.count() > 0 && now >= next_end_) {
    Close(next_end_);
    next_end_ += every_;
  }
  if (every_.count() > 0 && (now > start_ + current_.start || current_.bytes > 0)) {
    Close(now);
  }
}

void Meter::Close(Clock::time_point end) {
  current_.end = Micros(end - start_);
  intervals_.push_back(current_);
  if (sink_) {
    sink_(current_);
  }
  current_ = Interval{.start = current_.end};
}

}  // namespace mrcperf
