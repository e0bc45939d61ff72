// SPDX-License-Identifier: GPL-2.0
// Shared argument checks: numbers, decimals, addresses.
#include "args.hpp"

#include <arpa/inet.h>

#include <array>
#include <charconv>

namespace mrcctl {
namespace {

constexpr std::uint64_t kMicro = 1000000;
constexpr std::size_t kPpmDigits = 6;

std::string Quote(std::string_view keyword, std::string_view text) {
  return std::string(keyword) + " \"" + std::string(text) + "\"";
}

std::string Range(std::string_view keyword, std::string_view text, const std::string& min,
                  const std::string& max) {
  return std::string(keyword) + " " + std::string(text) + " is out of range " + min + ".." + max +
         ".";
}

bool AllDigits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

void Usage(const std::string& text) { throw CliError(CliError::Kind::kUsage, text); }

std::string Join(const std::vector<std::string_view>& words, std::string_view separator) {
  std::string text;
  for (const std::string_view word : words) {
    text += (text.empty() ? "" : std::string(separator)) + std::string(word);
  }
  return text;
}

std::string_view Args::Next() {
  const std::string_view word = words_.front();
  words_ = words_.subspan(1);
  return word;
}

std::string_view Args::Value(std::string_view keyword) {
  if (words_.empty()) {
    Usage("\"" + std::string(keyword) + "\" needs a value.");
  }
  return Next();
}

void Args::ExpectEnd() const {
  if (!words_.empty()) {
    Usage("unknown argument \"" + std::string(words_.front()) + "\".");
  }
}

bool IsNumber(std::string_view word) { return AllDigits(word); }

std::uint64_t ParseNumber(std::string_view keyword, std::string_view text, std::uint64_t min,
                          std::uint64_t max) {
  if (!AllDigits(text)) {
    Usage(Quote(keyword, text) + " is not a number.");
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    Usage(Range(keyword, text, std::to_string(min), std::to_string(max)));
  }
  return value;
}

std::uint32_t ParsePpm(std::string_view keyword, std::string_view text, std::uint32_t max) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  const bool has_dot = dot != std::string_view::npos;
  if (!(AllDigits(whole) || (whole.empty() && has_dot)) || (has_dot && !AllDigits(fraction))) {
    Usage(Quote(keyword, text) + " is not a decimal number.");
  }
  if (fraction.size() > kPpmDigits) {
    Usage(Quote(keyword, text) + " has more than 6 decimals.");
  }
  std::uint64_t units = 0;  // ".5" has no whole part
  const auto [end, ec] = whole.empty()
                             ? std::from_chars_result{whole.data(), std::errc()}
                             : std::from_chars(whole.data(), whole.data() + whole.size(), units);
  std::uint64_t micros = 0;
  for (std::size_t i = 0; i < kPpmDigits; i++) {
    micros =
        micros * 10 + (i < fraction.size() ? static_cast<std::uint64_t>(fraction[i] - '0') : 0);
  }
  if (ec != std::errc() || units > max / kMicro || units * kMicro + micros > max) {
    Usage(Range(keyword, text, "0", FormatPpm(max)));
  }
  return static_cast<std::uint32_t>(units * kMicro + micros);
}

std::string FormatPpm(std::uint32_t ppm) {
  std::string text = std::to_string(ppm / kMicro);
  std::string fraction = std::to_string(kMicro + ppm % kMicro).substr(1);
  fraction.erase(fraction.find_last_not_of('0') + 1);
  if (!fraction.empty()) {
    text += "." + fraction;
  }
  return text;
}

Address ParseAddress(std::string_view keyword, std::string_view text, int family) {
  const std::string str(text);
  in_addr addr4{};
  if (family != AF_INET6 && inet_pton(AF_INET, str.c_str(), &addr4) == 1) {
    return addr4;
  }
  in6_addr addr6{};
  if (inet_pton(AF_INET6, str.c_str(), &addr6) == 1) {
    return addr6;
  }
  Usage(Quote(keyword, text) +
        (family == AF_INET6 ? " is not an IPv6 address." : " is not an IPv4 or IPv6 address."));
}

std::string FormatAddress(const in_addr& addr) {
  std::array<char, INET_ADDRSTRLEN> text{};
  inet_ntop(AF_INET, &addr, text.data(), text.size());
  return text.data();
}

std::string FormatAddress(const in6_addr& addr) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  inet_ntop(AF_INET6, &addr, text.data(), text.size());
  return text.data();
}

}  // namespace mrcctl
