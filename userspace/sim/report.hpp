// SPDX-License-Identifier: GPL-2.0
// What a run reports: one summary line ending in "seed=N digest=HEX", and
// a JSON document with every flow, every link and the totals.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim.hpp"

namespace mrc_sim {

std::string SummaryLine(const Sim& sim);
nlohmann::json ReportJson(const Sim& sim);

}  // namespace mrc_sim
