// SPDX-License-Identifier: GPL-2.0
// The built-in scenarios: a name, one line saying what it shows, and the
// run it makes for a host and plane count (0: the scenario's own).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"

namespace mrc_sim {

struct ScenarioInfo {
  std::string name;
  std::string what;
};

const std::vector<ScenarioInfo>& Scenarios();
// The run of scenario `name`, or nullopt for an unknown name.
std::optional<SimCfg> MakeScenario(const std::string& name, uint64_t seed, uint32_t hosts,
                                   uint32_t planes);

}  // namespace mrc_sim
