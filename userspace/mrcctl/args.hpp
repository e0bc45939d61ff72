// SPDX-License-Identifier: GPL-2.0
// The words of a command line and the checks every object shares: keyword
// matching, numbers with their ranges, addresses, decimals. Mistakes throw
// CliError with the exact one-line message the user will read.
#pragma once

#include <netinet/in.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "names.hpp"

namespace mrcctl {

class CliError : public std::runtime_error {
 public:
  enum class Kind {
    kUsage,    // "Error: <text>" then the object's usage
    kInput,    // "Error: <text>" alone (e.g. an unknown device)
    kVerbatim  // the text alone (unknown object or command)
  };

  CliError(Kind kind, const std::string& text) : std::runtime_error(text), kind_(kind) {}
  [[nodiscard]] Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Throws CliError(kUsage, text).
[[noreturn]] void Usage(const std::string& text);

std::string Join(const std::vector<std::string_view>& words, std::string_view separator = ", ");

class Args {
 public:
  explicit Args(std::span<const std::string_view> words) : words_(words) {}

  [[nodiscard]] bool Empty() const { return words_.empty(); }
  [[nodiscard]] std::string_view Peek() const { return words_.front(); }
  std::string_view Next();
  // The word after `keyword`, which must exist.
  std::string_view Value(std::string_view keyword);
  // Refuses words left over.
  void ExpectEnd() const;

 private:
  std::span<const std::string_view> words_;
};

// The entry `word` selects as an argument keyword; throws "unknown argument"
// or "ambiguous".
template <typename T, std::size_t N>
const Name<T>& MatchKeyword(const std::array<Name<T>, N>& table, std::string_view word) {
  const Match<T> match = Find(table, word);
  if (match.found != nullptr) {
    return *match.found;
  }
  if (match.candidates.empty()) {
    Usage("unknown argument \"" + std::string(word) + "\".");
  }
  Usage("argument \"" + std::string(word) + "\" is ambiguous: " + Join(match.candidates) + ".");
}

// The value `word` names for `keyword` (e.g. state up).
template <typename T, std::size_t N>
T ParseName(const std::array<Name<T>, N>& table, std::string_view keyword, std::string_view word) {
  const Match<T> match = Find(table, word);
  if (match.found != nullptr) {
    return match.found->value;
  }
  const std::string quoted = std::string(keyword) + " \"" + std::string(word) + "\"";
  if (match.candidates.empty()) {
    Usage(quoted + " is not one of " + Choices(table) + ".");
  }
  Usage(quoted + " is ambiguous: " + Join(match.candidates) + ".");
}

// Whether `word` is spelled like an unsigned number (a positional ID).
bool IsNumber(std::string_view word);

// An unsigned decimal number of `keyword` within [min, max].
std::uint64_t ParseNumber(std::string_view keyword, std::string_view text, std::uint64_t min,
                          std::uint64_t max);

template <typename T>
T ParseUnsigned(std::string_view keyword, std::string_view text, T min = 0,
                T max = std::numeric_limits<T>::max()) {
  return static_cast<T>(ParseNumber(keyword, text, min, max));
}

// A decimal with up to 6 decimals, as parts per million (0.15 -> 150000).
std::uint32_t ParsePpm(std::string_view keyword, std::string_view text,
                       std::uint32_t max = std::numeric_limits<std::uint32_t>::max());
std::string FormatPpm(std::uint32_t ppm);

using Address = std::variant<in_addr, in6_addr>;
// An IPv4 or IPv6 address; `family` AF_INET6 accepts only IPv6.
Address ParseAddress(std::string_view keyword, std::string_view text, int family = AF_UNSPEC);
std::string FormatAddress(const in_addr& addr);
std::string FormatAddress(const in6_addr& addr);

// Stores `value` in `slot`, refusing a second one.
template <typename T, typename V>
void SetOnce(std::optional<T>& slot, V&& value, std::string_view keyword) {
  if (slot) {
    Usage("duplicate \"" + std::string(keyword) + "\".");
  }
  slot = std::forward<V>(value);
}

}  // namespace mrcctl
