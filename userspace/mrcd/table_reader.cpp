// SPDX-License-Identifier: GPL-2.0
#include "table_reader.hpp"

#include <tuple>

namespace mrcd {

std::string Where(const toml::source_region& region) {
  const std::string file = region.path ? *region.path : std::string("<config>");
  return file + ":" + std::to_string(region.begin.line) + ":" + std::to_string(region.begin.column);
}

void FailAt(const toml::source_region& region, const std::string& message) {
  throw ConfigError(Where(region) + ": " + message);
}

void FailAt(const toml::node& node, const std::string& message) { FailAt(node.source(), message); }

TableReader::TableReader(const toml::table& table, std::string name)
    : table_(table), name_(std::move(name)) {}

const toml::node* TableReader::Find(std::string_view key) {
  known_.emplace(key);
  return table_.get(key);
}

void TableReader::WrongType(const toml::node& node, std::string_view key, std::string_view type) {
  FailAt(node, std::string(key) + " must be " + std::string(type));
}

std::optional<std::string> TableReader::String(std::string_view key) {
  const toml::node* node = Find(key);
  if (node == nullptr) {
    return std::nullopt;
  }
  if (const auto* value = node->as_string()) {
    return value->get();
  }
  WrongType(*node, key, "a string");
}

std::optional<bool> TableReader::Bool(std::string_view key) {
  const toml::node* node = Find(key);
  if (node == nullptr) {
    return std::nullopt;
  }
  if (const auto* value = node->as_boolean()) {
    return value->get();
  }
  WrongType(*node, key, "true or false");
}

std::optional<double> TableReader::Number(std::string_view key) {
  const toml::node* node = Find(key);
  if (node == nullptr) {
    return std::nullopt;
  }
  if (const auto* value = node->as_floating_point()) {
    return value->get();
  }
  if (const auto* value = node->as_integer()) {
    return static_cast<double>(value->get());
  }
  WrongType(*node, key, "a number");
}

const toml::array* TableReader::Array(std::string_view key) {
  const toml::node* node = Find(key);
  if (node != nullptr && !node->is_array()) {
    WrongType(*node, key, "an array");
  }
  return node != nullptr ? node->as_array() : nullptr;
}

const toml::array* TableReader::ArrayOfTables(std::string_view key) {
  const toml::node* node = Find(key);
  if (node != nullptr && !node->is_array_of_tables()) {
    WrongType(*node, key, "an array of tables: write [[" + std::string(key) + "]]");
  }
  return node != nullptr ? node->as_array() : nullptr;
}

const toml::table* TableReader::Table(std::string_view key) {
  const toml::node* node = Find(key);
  if (node != nullptr && !node->is_table()) {
    WrongType(*node, key, "a table: write [" + std::string(key) + "]");
  }
  return node != nullptr ? node->as_table() : nullptr;
}

void TableReader::RejectUnknown() const {
  const toml::key* first = nullptr;
  for (const auto& [key, node] : table_) {
    if (known_.contains(key.str())) {
      continue;
    }
    const auto& at = key.source().begin;
    if (first == nullptr || std::tie(at.line, at.column) < std::tie(first->source().begin.line,
                                                                    first->source().begin.column)) {
      first = &key;
    }
  }
  if (first != nullptr) {
    FailAt(first->source(), "unknown key \"" + std::string(first->str()) + "\" in " + name_);
  }
}

}  // namespace mrcd
