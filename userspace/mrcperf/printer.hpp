// SPDX-License-Identifier: GPL-2.0
// Where a run's words go: progress lines, interval lines and reports, as
// text or JSON (-J). Connections of a parallel run print from their own
// threads, so every write takes one lock and lines never interleave.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "meter.hpp"
#include "options.hpp"
#include "report.hpp"

namespace mrcperf {

// The prefix of connection `index` (from 0) in text output: "[1] ".
std::string Tag(std::size_t index);

class Printer {
 public:
  Printer(const Options& options, std::ostream& out, std::ostream& err);

  // A progress line ("Connected ...") in text mode; `text` ends in '\n'.
  void Line(std::string_view tag, const std::string& text);

  // -i lines in text mode, tagged; none with -J.
  IntervalSink Sink(std::string tag);

  // The report of a run of one connection: a JSON object, or the summary.
  void Single(const Report& report);

  // One connection of a run of several as it ends: its summary (text
  // only: JSON waits for Total) and its error.
  void Part(std::string_view tag, const Report& report);

  // The end of a run of several: one JSON object with the connections
  // and their sums, or the [SUM] line.
  void Total(std::span<const Report> reports);

 private:
  void Error(std::string_view tag, const Report& report);

  bool json_;
  bool intervals_;
  Mode mode_;
  std::mutex mutex_;  // protects out_ and err_
  std::ostream& out_;
  std::ostream& err_;
};

}  // namespace mrcperf
