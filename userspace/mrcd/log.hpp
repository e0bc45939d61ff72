// SPDX-License-Identifier: GPL-2.0
// mrcd's log: one logfmt line per event (ts=... level=... msg=... key=value),
// so journald, grep and log shippers can all take it apart without a parser
// of their own.
#pragma once

#include <chrono>
#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mrcd {

enum class LogLevel : std::uint8_t { kDebug, kInfo, kWarn, kError };

std::string_view LogLevelName(LogLevel level);
// "debug", "info", "warn" or "error"; nullopt for anything else.
std::optional<LogLevel> ParseLogLevel(std::string_view name);

// One key=value pair; the value is kept as text, quoted when written if it
// needs to be.
struct LogField {
  LogField(std::string_view field_key, std::string_view field_value)
      : key(field_key), value(field_value) {}
  LogField(std::string_view field_key, const char* field_value)
      : key(field_key), value(field_value) {}
  LogField(std::string_view field_key, const std::string& field_value)
      : key(field_key), value(field_value) {}
  LogField(std::string_view field_key, bool field_value)
      : key(field_key), value(field_value ? "true" : "false") {}
  template <std::integral T>
  LogField(std::string_view field_key, T field_value)
      : key(field_key), value(std::to_string(field_value)) {}

  std::string_view key;
  std::string value;
};

// logfmt value: bare when it is a plain word, else double-quoted with
// quotes, backslashes and newlines escaped.
std::string LogfmtValue(std::string_view value);

// RFC 3339 UTC with milliseconds: 2026-11-23T10:00:00.123Z.
std::string FormatTimestamp(std::chrono::system_clock::time_point time);

class Logger {
 public:
  using Clock = std::function<std::chrono::system_clock::time_point()>;

  // Tests pass a fixed clock; the daemon uses the system clock.
  explicit Logger(std::ostream& out = std::cerr, LogLevel threshold = LogLevel::kInfo,
                  Clock clock = std::chrono::system_clock::now);

  void set_threshold(LogLevel threshold);
  [[nodiscard]] LogLevel threshold() const;
  [[nodiscard]] bool Enabled(LogLevel level) const;

  void Log(LogLevel level, std::string_view msg, std::initializer_list<LogField> fields = {});
  void Debug(std::string_view msg, std::initializer_list<LogField> fields = {});
  void Info(std::string_view msg, std::initializer_list<LogField> fields = {});
  void Warn(std::string_view msg, std::initializer_list<LogField> fields = {});
  void Error(std::string_view msg, std::initializer_list<LogField> fields = {});

 private:
  std::ostream& out_;
  Clock clock_;
  mutable std::mutex mutex_;  // the metrics thread may log too
  LogLevel threshold_;
};

}  // namespace mrcd
