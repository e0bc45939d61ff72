// SPDX-License-Identifier: GPL-2.0
// Typed, position-aware reading of one TOML table for config.cpp: every
// failure names FILE:LINE:COLUMN of the node at fault, and keys nobody
// asked for are rejected at the end.
#pragma once

#include <toml++/toml.h>

#include <concepts>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "config.hpp"

namespace mrcd {

// "FILE:LINE:COLUMN" of the start of `region`.
std::string Where(const toml::source_region& region);

[[noreturn]] void FailAt(const toml::source_region& region, const std::string& message);
[[noreturn]] void FailAt(const toml::node& node, const std::string& message);

class TableReader {
 public:
  // `name` says which table it is in messages: "[daemon]", "[[plane]]".
  TableReader(const toml::table& table, std::string name);

  // The node of `key`, or nullptr; either way `key` counts as known.
  const toml::node* Find(std::string_view key);

  std::optional<std::string> String(std::string_view key);
  std::optional<bool> Bool(std::string_view key);
  std::optional<double> Number(std::string_view key);  // integer or float
  const toml::array* Array(std::string_view key);
  const toml::array* ArrayOfTables(std::string_view key);
  const toml::table* Table(std::string_view key);

  template <std::unsigned_integral T>
  std::optional<T> Unsigned(std::string_view key, T min, T max) {
    const toml::node* node = Find(key);
    if (node == nullptr) {
      return std::nullopt;
    }
    const auto* value = node->as_integer();
    if (value == nullptr) {
      WrongType(*node, key, "an integer");
    }
    const std::int64_t number = value->get();
    if (number < 0 || static_cast<std::uint64_t>(number) < min ||
        static_cast<std::uint64_t>(number) > max) {
      FailAt(*node, std::string(key) + " " + std::to_string(number) + " is out of range " +
                        std::to_string(min) + ".." + std::to_string(max));
    }
    return static_cast<T>(number);
  }

  // `value`, or a failure at the table saying it needs `key`.
  template <typename T>
  T Required(std::optional<T> value, std::string_view key) const {
    if (!value) {
      FailAt(table_, name_ + " needs " + std::string(key));
    }
    return std::move(*value);
  }

  // Fails at the first key (in file order) that no Find() asked for.
  void RejectUnknown() const;

 private:
  [[noreturn]] static void WrongType(const toml::node& node, std::string_view key,
                                     std::string_view type);

  const toml::table& table_;
  std::string name_;
  std::set<std::string, std::less<>> known_;
};

}  // namespace mrcd
