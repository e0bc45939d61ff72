// SPDX-License-Identifier: GPL-2.0
// The built-in scenarios: a name, one line saying what it shows, and the
// run it makes for a host and plane count (0: the scenario's own); and
// scenario files, JSON documents of the same.
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

// A scenario file's JSON text (scenario_file.cpp; format in README.md);
// `name` unless the file names itself. nullopt: `err` names the key at
// fault and what was wrong with it.
std::optional<SimCfg> ScenarioFromJson(const std::string& text, const std::string& name,
                                       uint64_t seed, uint32_t hosts, uint32_t planes,
                                       std::string& err);
// A built-in scenario's name, else the path of a scenario file.
std::optional<SimCfg> ResolveScenario(const std::string& name_or_path, uint64_t seed,
                                      uint32_t hosts, uint32_t planes, std::string& err);

}  // namespace mrc_sim
