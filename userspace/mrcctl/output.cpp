// SPDX-License-Identifier: GPL-2.0
// Record rendering: text lines and JSON from the same fields.
#include "output.hpp"

#include <algorithm>
#include <utility>

namespace mrcctl {
namespace {

constexpr int kIndent = 4;
constexpr int kPrettyIndent = 4;

// The text of a JSON value: strings bare, arrays comma-joined ("none" when
// empty), booleans on/off.
std::string Render(const Json& value) {
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_boolean()) {
    return value.get<bool>() ? "on" : "off";
  }
  if (value.is_array()) {
    std::string text;
    for (const Json& item : value) {
      text += (text.empty() ? "" : ",") + Render(item);
    }
    return text.empty() ? "none" : text;
  }
  return value.dump();
}

}  // namespace

Record& Record::Add(Field field) {
  fields_.push_back(std::move(field));
  return *this;
}

Record& Record::Add(std::string_view key, Json value) {
  return Add(Field{.key = std::string(key), .value = std::move(value)});
}

Record& Record::Lines(std::string_view key, std::vector<Record> lines) {
  blocks_.push_back(Block{.key = std::string(key), .lines = std::move(lines), .counters = {}});
  return *this;
}

Record& Record::Counters(std::string_view key, const mrc::Stats& stats, bool all) {
  blocks_.push_back(Block{
      .key = std::string(key), .lines = {}, .counters = Visible(stats, all), .is_counters = true});
  return *this;
}

Json Record::ToJson() const {
  Json doc = Json::object();
  for (const Field& field : fields_) {
    doc[field.key] = field.value;
  }
  for (const Block& block : blocks_) {
    if (block.is_counters) {
      doc[block.key] = CountersJson(block.counters);
      continue;
    }
    Json lines = Json::array();
    for (const Record& line : block.lines) {
      lines.push_back(line.ToJson());
    }
    doc[block.key] = std::move(lines);
  }
  return doc;
}

std::string Record::Line() const {
  std::string line;
  for (const Field& field : fields_) {
    const std::string& label = field.label.value_or(field.key);
    std::string text;
    if (field.flag) {
      if (!field.value.is_boolean() || !field.value.get<bool>()) {
        continue;
      }
      text = label;
    } else {
      text = label + " " + field.text.value_or(Render(field.value));
    }
    line += (line.empty() ? "" : " ") + text;
  }
  return line;
}

void Record::PrintText(std::ostream& out, int indent) const {
  out << std::string(static_cast<std::size_t>(indent), ' ') << Line() << '\n';
  for (const Block& block : blocks_) {
    if (block.is_counters) {
      PrintCounters(out, block.counters, indent + kIndent);
      continue;
    }
    for (const Record& line : block.lines) {
      line.PrintText(out, indent + kIndent);
    }
  }
}

void PrintCounters(std::ostream& out, const std::vector<mrc::Counter>& counters, int indent) {
  std::size_t width = 0;
  for (const mrc::Counter& counter : counters) {
    width = std::max(width, counter.name.size());
  }
  for (const mrc::Counter& counter : counters) {
    out << std::string(static_cast<std::size_t>(indent), ' ') << counter.name
        << std::string(width - counter.name.size() + 1, ' ') << counter.value << '\n';
  }
}

Json CountersJson(const std::vector<mrc::Counter>& counters) {
  Json doc = Json::object();
  for (const mrc::Counter& counter : counters) {
    doc[counter.name] = counter.value;
  }
  return doc;
}

std::vector<mrc::Counter> Visible(const mrc::Stats& stats, bool all) {
  std::vector<mrc::Counter> visible;
  std::copy_if(stats.begin(), stats.end(), std::back_inserter(visible),
               [all](const mrc::Counter& counter) { return all || counter.value != 0; });
  return visible;
}

std::string Dump(const Json& doc, const Options& opts) {
  return doc.dump(opts.pretty ? kPrettyIndent : -1);
}

void PrintRecords(const Context& ctx, const std::vector<Record>& records) {
  if (ctx.opts().json) {
    Json doc = Json::array();
    for (const Record& record : records) {
      doc.push_back(record.ToJson());
    }
    ctx.out() << Dump(doc, ctx.opts()) << '\n';
    return;
  }
  for (const Record& record : records) {
    record.PrintText(ctx.out());
  }
}

}  // namespace mrcctl
