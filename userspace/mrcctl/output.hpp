// SPDX-License-Identifier: GPL-2.0
// One printer for text and JSON, after iproute2's print_*(PRINT_ANY, ...):
// an object is described once as a Record of keyword/value fields, then
// printed as "keyword value ..." lines or as JSON with the same keywords.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "context.hpp"
#include "mrc/types.hpp"

namespace mrcctl {

using Json = nlohmann::ordered_json;

// Where a field shows: most in both, some only where the other form
// carries them elsewhere (a plane's offload mode is "offload MODE" on the
// plane's text line but "mode" of its JSON "offload" object).
enum class Visibility : std::uint8_t { kTextAndJson, kTextOnly, kJsonOnly };

struct Field {
  std::string key;                     // JSON key, and the text label
  Json value;                          // numbers, strings, booleans, arrays of them
  std::optional<std::string> text{};   // text rendering, if not the value's
  std::optional<std::string> label{};  // text label, if not the key; "": the value alone
  bool flag = false;                   // text: the label alone when true, else nothing
  Visibility visibility = Visibility::kTextAndJson;
};

class Record {
 public:
  Record& Add(Field field);
  Record& Add(std::string_view key, Json value);
  // Sub-records: indented lines in text, an array of objects in JSON.
  Record& Lines(std::string_view key, std::vector<Record> lines);
  // A sub-object: an indented line in text (none when it has no text
  // fields), an object in JSON.
  Record& Object(std::string_view key, Record object);
  // Counters: "name value" lines in text, an object in JSON. Zero values
  // are left out unless `all`. A `heading` goes on a line of its own in
  // text, above the counters, when any is shown.
  Record& Counters(std::string_view key, const mrc::Stats& stats, bool all,
                   std::string_view heading = {});

  [[nodiscard]] Json ToJson() const;
  // The fields on one line, without a newline.
  [[nodiscard]] std::string Line() const;
  // Line(), then the sub-records and counters indented by `indent` + 4.
  void PrintText(std::ostream& out, int indent = 0) const;

 private:
  struct Block {
    enum class Kind : std::uint8_t { kLines, kObject, kCounters };

    Kind kind = Kind::kLines;
    std::string key;
    std::vector<Record> lines;  // kLines; kObject: the one object
    std::vector<mrc::Counter> counters;
    std::string heading{};
  };

  static Json BlockJson(const Block& block);
  static void PrintBlock(std::ostream& out, const Block& block, int indent);

  std::vector<Field> fields_;
  std::vector<Block> blocks_;
};

// "name value" lines, names padded to one column.
void PrintCounters(std::ostream& out, const std::vector<mrc::Counter>& counters, int indent);
Json CountersJson(const std::vector<mrc::Counter>& counters);
std::vector<mrc::Counter> Visible(const mrc::Stats& stats, bool all);

// JSON text of `doc` as -p asks.
std::string Dump(const Json& doc, const Options& opts);

// A show: a JSON array, or one text block per record.
void PrintRecords(const Context& ctx, const std::vector<Record>& records);

}  // namespace mrcctl
