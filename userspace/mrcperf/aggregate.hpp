// SPDX-License-Identifier: GPL-2.0
// The sums of a run of several connections (client -P, server --clients):
// one JSON object holding every connection's report and, under the names
// a single report uses, the totals, so that a script reads .bytes or
// .bits_per_second the same way whatever the connection count. Key list
// in report.hpp.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "report.hpp"

namespace mrcperf {

nlohmann::json AggregateJson(std::span<const Report> reports);

// The [SUM] line (and, for ping-pong, the [SUM] latency line).
std::string SumText(std::span<const Report> reports);

// The worst exit status of the connections (a mismatch over an error
// over success).
int WorstStatus(std::span<const Report> reports);

}  // namespace mrcperf
