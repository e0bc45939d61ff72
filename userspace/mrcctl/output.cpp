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

std::string Indentation(int indent) {
  std::string spaces(static_cast<std::size_t>(indent), ' ');  // {n, ' '}: 2 chars
  return spaces;
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
  blocks_.push_back(Block{.kind = Block::Kind::kLines,
                          .key = std::string(key),
                          .lines = std::move(lines),
                          .counters = {},
                          .heading = {}});
  return *this;
}

Record& Record::Object(std::string_view key, Record object) {
  std::vector<Record> lines;
  lines.push_back(std::move(object));
  blocks_.push_back(Block{.kind = Block::Kind::kObject,
                          .key = std::string(key),
                          .lines = std::move(lines),
                          .counters = {},
                          .heading = {}});
  return *this;
}

Record& Record::Counters(std::string_view key, const mrc::Stats& stats, bool all,
                         std::string_view heading) {
  blocks_.push_back(Block{.kind = Block::Kind::kCounters,
                          .key = std::string(key),
                          .lines = {},
                          .counters = Visible(stats, all),
                          .heading = std::string(heading)});
  return *this;
}

Json Record::ToJson() const {
  Json doc = Json::object();
  for (const Field& field : fields_) {
    if (field.visibility != Visibility::kTextOnly) {
      doc[field.key] = field.value;
    }
  }
  for (const Block& block : blocks_) {
    doc[block.key] = BlockJson(block);
  }
  return doc;
}

Json Record::BlockJson(const Block& block) {
  switch (block.kind) {
    case Block::Kind::kObject:
      return block.lines.front().ToJson();
    case Block::Kind::kCounters:
      return CountersJson(block.counters);
    case Block::Kind::kLines:
      break;
  }
  Json lines = Json::array();
  for (const Record& line : block.lines) {
    lines.push_back(line.ToJson());
  }
  return lines;
}

std::string Record::Line() const {
  std::string line;
  for (const Field& field : fields_) {
    if (field.visibility == Visibility::kJsonOnly) {
      continue;
    }
    const std::string& label = field.label.value_or(field.key);
    std::string text;
    if (field.flag) {
      if (!field.value.is_boolean() || !field.value.get<bool>()) {
        continue;
      }
      text = label;
    } else {
      text = label.empty() ? "" : label + " ";  // no label: the value alone
      text += field.text.value_or(Render(field.value));
    }
    line += (line.empty() ? "" : " ") + text;
  }
  return line;
}

void Record::PrintText(std::ostream& out, int indent) const {
  out << Indentation(indent) << Line() << '\n';
  for (const Block& block : blocks_) {
    PrintBlock(out, block, indent + kIndent);
  }
}

void Record::PrintBlock(std::ostream& out, const Block& block, int indent) {
  switch (block.kind) {
    case Block::Kind::kLines:
      for (const Record& line : block.lines) {
        line.PrintText(out, indent);
      }
      break;
    case Block::Kind::kObject: {
      const Record& object = block.lines.front();
      const std::string line = object.Line();
      if (!line.empty()) {
        out << Indentation(indent) << line << '\n';
      }
      for (const Block& inner : object.blocks_) {
        PrintBlock(out, inner, indent + kIndent);
      }
      break;
    }
    case Block::Kind::kCounters:
      if (block.heading.empty()) {
        PrintCounters(out, block.counters, indent);
      } else if (!block.counters.empty()) {
        out << Indentation(indent) << block.heading << '\n';
        PrintCounters(out, block.counters, indent + kIndent);
      }
      break;
  }
}

void PrintCounters(std::ostream& out, const std::vector<mrc::Counter>& counters, int indent) {
  std::size_t width = 0;
  for (const mrc::Counter& counter : counters) {
    width = std::max(width, counter.name.size());
  }
  for (const mrc::Counter& counter : counters) {
    out << Indentation(indent) << counter.name << std::string(width - counter.name.size() + 1, ' ')
        << counter.value << '\n';
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
