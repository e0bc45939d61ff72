// SPDX-License-Identifier: GPL-2.0
// mrcd's logfmt lines.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "mrcd/log.hpp"

namespace {

using namespace std::chrono_literals;

std::chrono::system_clock::time_point FixedTime() {
  return std::chrono::sys_days{std::chrono::year{2026} / 11 / 23} + 10h + 123ms;
}

TEST(MrcdLog, WritesOneLogfmtLine) {
  std::ostringstream out;
  mrcd::Logger logger(out, mrcd::LogLevel::kInfo, FixedTime);
  logger.Info("alarm", {{"kind", "loss_burst"},
                        {"conn", 123U},
                        {"ev", 7},
                        {"plane", std::uint32_t{1}},
                        {"since_ack_ms", 30ULL}});
  EXPECT_EQ(out.str(),
            "ts=2026-11-23T10:00:00.123Z level=info msg=alarm kind=loss_burst conn=123 ev=7 "
            "plane=1 since_ack_ms=30\n");
}

TEST(MrcdLog, QuotesValuesThatNeedIt) {
  std::ostringstream out;
  mrcd::Logger logger(out, mrcd::LogLevel::kDebug, FixedTime);
  logger.Warn("reload failed",
              {{"error", std::string("mrcd.conf:3:1: bad \"x\"")}, {"empty", ""}, {"ok", false}});
  EXPECT_EQ(out.str(),
            "ts=2026-11-23T10:00:00.123Z level=warn msg=\"reload failed\" "
            "error=\"mrcd.conf:3:1: bad \\\"x\\\"\" empty=\"\" ok=false\n");
}

TEST(MrcdLog, DropsLinesBelowTheThreshold) {
  std::ostringstream out;
  mrcd::Logger logger(out, mrcd::LogLevel::kWarn, FixedTime);
  logger.Debug("a");
  logger.Info("b");
  EXPECT_EQ(out.str(), "");
  logger.Error("c");
  EXPECT_EQ(out.str(), "ts=2026-11-23T10:00:00.123Z level=error msg=c\n");
  logger.set_threshold(mrcd::LogLevel::kDebug);
  logger.Debug("d");
  EXPECT_NE(out.str().find("level=debug msg=d\n"), std::string::npos);
}

TEST(MrcdLog, LevelNamesRoundTrip) {
  for (const auto level : {mrcd::LogLevel::kDebug, mrcd::LogLevel::kInfo, mrcd::LogLevel::kWarn,
                           mrcd::LogLevel::kError}) {
    EXPECT_EQ(mrcd::ParseLogLevel(mrcd::LogLevelName(level)), level);
  }
  EXPECT_FALSE(mrcd::ParseLogLevel("verbose"));
}

TEST(MrcdLog, EscapesNewlines) { EXPECT_EQ(mrcd::LogfmtValue("a\nb"), "\"a\\nb\""); }

}  // namespace
