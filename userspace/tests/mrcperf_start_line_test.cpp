// SPDX-License-Identifier: GPL-2.0
// The start line of -P N: no transfer starts before every connection has
// connected or given up, and one that gave up holds nobody back.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "mrcperf/start_line.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using mrcperf::StartLine;
using std::chrono::milliseconds;

struct Times {
  Clock::time_point arrived;
  Clock::time_point started;
};

// Connection i "connects" for 60 * i ms, then waits at the line.
TEST(MrcperfStartLine, NobodyStartsBeforeTheLastArrives) {
  constexpr std::size_t kConnections = 4;
  StartLine line(kConnections);
  std::vector<Times> times(kConnections);
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < kConnections; ++i) {
      threads.emplace_back([&, i] {
        StartLine::Ticket ticket(&line);
        std::this_thread::sleep_for(milliseconds(60 * i));
        times[i].arrived = Clock::now();
        ticket.Wait();
        times[i].started = Clock::now();
      });
    }
  }
  const auto last_arrival = std::ranges::max(times, {}, &Times::arrived).arrived;
  const auto first_start = std::ranges::min(times, {}, &Times::started).started;
  EXPECT_GE(first_start, last_arrival);
  EXPECT_GE(last_arrival - times[0].arrived, milliseconds(150));  // the line did hold
}

// A connection whose connect failed drops its ticket unused: the others
// start as soon as the rest have arrived, not never.
TEST(MrcperfStartLine, AFailedConnectionLeavesTheLine) {
  StartLine line(3);
  std::vector<std::future<Clock::time_point>> waiting;
  waiting.reserve(2);
  for (int i = 0; i < 2; ++i) {
    waiting.push_back(std::async(std::launch::async, [&line] {
      StartLine::Ticket ticket(&line);
      ticket.Wait();
      return Clock::now();
    }));
  }
  std::this_thread::sleep_for(milliseconds(100));
  for (const auto& w : waiting) {
    EXPECT_EQ(w.wait_for(milliseconds(0)), std::future_status::timeout);  // held
  }
  const auto gave_up = Clock::now();
  { const StartLine::Ticket failed(&line); }
  for (auto& w : waiting) {
    ASSERT_EQ(w.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_GE(w.get(), gave_up);
  }
}

}  // namespace
