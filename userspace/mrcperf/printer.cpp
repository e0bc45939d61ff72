// SPDX-License-Identifier: GPL-2.0
#include "printer.hpp"

#include <ostream>
#include <sstream>

#include "aggregate.hpp"

namespace mrcperf {
namespace {

// `text` with `tag` before each of its lines.
std::string Tagged(std::string_view tag, const std::string& text) {
  if (tag.empty()) {
    return text;
  }
  std::istringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    out += std::string(tag) + line + '\n';
  }
  return out;
}

}  // namespace

std::string Tag(std::size_t index) { return "[" + std::to_string(index + 1) + "] "; }

Printer::Printer(const Options& options, std::ostream& out, std::ostream& err)
    : json_(options.json),
      intervals_(options.interval.count() != 0),
      mode_(options.mode),
      out_(out),
      err_(err) {}

void Printer::Line(std::string_view tag, const std::string& text) {
  if (json_) {
    return;
  }
  const std::scoped_lock lock(mutex_);
  out_ << Tagged(tag, text) << std::flush;
}

IntervalSink Printer::Sink(std::string tag) {
  if (json_ || !intervals_) {
    return {};
  }
  return [this, tag = std::move(tag)](const Interval& interval) {
    const std::scoped_lock lock(mutex_);
    out_ << tag << IntervalText(interval, mode_) << std::flush;
  };
}

void Printer::Single(const Report& report) {
  {
    const std::scoped_lock lock(mutex_);
    if (json_) {
      out_ << ToJson(report).dump(2) << '\n';
    } else if (!report.peer.empty()) {  // nothing to sum up before a connection
      out_ << SummaryText(report);
    }
    out_.flush();
  }
  Error("", report);
}

void Printer::Part(std::string_view tag, const Report& report) {
  if (!json_ && !report.peer.empty()) {
    const std::scoped_lock lock(mutex_);
    out_ << Tagged(tag, SummaryText(report)) << std::flush;
  }
  Error(tag, report);
}

void Printer::Total(std::span<const Report> reports) {
  const std::scoped_lock lock(mutex_);
  if (json_) {
    out_ << AggregateJson(reports).dump(2) << '\n';
  } else {
    out_ << SumText(reports);
  }
  out_.flush();
}

void Printer::Error(std::string_view tag, const Report& report) {
  if (report.error) {
    const std::scoped_lock lock(mutex_);
    err_ << "mrcperf: " << tag << *report.error << '\n' << std::flush;
  }
}

}  // namespace mrcperf
