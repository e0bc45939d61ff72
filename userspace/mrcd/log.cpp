// SPDX-License-Identifier: GPL-2.0
#include "log.hpp"

#include <array>
#include <ctime>
#include <iomanip>
#include <sstream>

namespace mrcd {
namespace {

constexpr std::array<std::string_view, 4> kLevelNames{"debug", "info", "warn", "error"};

bool NeedsQuotes(std::string_view value) {
  if (value.empty()) {
    return true;
  }
  for (const char c : value) {
    if (c == ' ' || c == '=' || c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ||
        c == 0x7f) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string_view LogLevelName(LogLevel level) {
  return kLevelNames.at(static_cast<std::size_t>(level));
}

std::optional<LogLevel> ParseLogLevel(std::string_view name) {
  for (std::size_t i = 0; i < kLevelNames.size(); i++) {
    if (kLevelNames[i] == name) {
      return static_cast<LogLevel>(i);
    }
  }
  return std::nullopt;
}

std::string LogfmtValue(std::string_view value) {
  if (!NeedsQuotes(value)) {
    return std::string(value);
  }
  std::string quoted = "\"";
  for (const char c : value) {
    switch (c) {
      case '"':
        quoted += "\\\"";
        break;
      case '\\':
        quoted += "\\\\";
        break;
      case '\n':
        quoted += "\\n";
        break;
      default:
        quoted += c;
    }
  }
  return quoted + '"';
}

std::string FormatTimestamp(std::chrono::system_clock::time_point time) {
  const auto since_epoch = time.time_since_epoch();
  const auto seconds = std::chrono::floor<std::chrono::seconds>(since_epoch);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - seconds);
  const std::time_t whole = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  gmtime_r(&whole, &utc);
  std::ostringstream text;
  text << std::put_time(&utc, "%Y-%m-%dT%H:%M:%S") << '.' << std::setw(3) << std::setfill('0')
       << millis.count() << 'Z';
  return text.str();
}

Logger::Logger(std::ostream& out, LogLevel threshold, Clock clock)
    : out_(out), clock_(std::move(clock)), threshold_(threshold) {}

void Logger::set_threshold(LogLevel threshold) {
  const std::scoped_lock lock(mutex_);
  threshold_ = threshold;
}

LogLevel Logger::threshold() const {
  const std::scoped_lock lock(mutex_);
  return threshold_;
}

bool Logger::Enabled(LogLevel level) const { return level >= threshold(); }

void Logger::Log(LogLevel level, std::string_view msg, std::initializer_list<LogField> fields) {
  if (!Enabled(level)) {
    return;
  }
  std::string line = "ts=" + FormatTimestamp(clock_()) +
                     " level=" + std::string(LogLevelName(level)) + " msg=" + LogfmtValue(msg);
  for (const LogField& field : fields) {
    line += ' ';
    line += field.key;
    line += '=';
    line += LogfmtValue(field.value);
  }
  line += '\n';
  const std::scoped_lock lock(mutex_);
  out_ << line << std::flush;  // one write per line: lines never interleave
}

void Logger::Debug(std::string_view msg, std::initializer_list<LogField> fields) {
  Log(LogLevel::kDebug, msg, fields);
}

void Logger::Info(std::string_view msg, std::initializer_list<LogField> fields) {
  Log(LogLevel::kInfo, msg, fields);
}

void Logger::Warn(std::string_view msg, std::initializer_list<LogField> fields) {
  Log(LogLevel::kWarn, msg, fields);
}

void Logger::Error(std::string_view msg, std::initializer_list<LogField> fields) {
  Log(LogLevel::kError, msg, fields);
}

}  // namespace mrcd
