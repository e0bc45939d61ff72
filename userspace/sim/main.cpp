// SPDX-License-Identifier: GPL-2.0
// mrc-netsim: run one built-in scenario of the deterministic cluster
// simulator and print its summary line (ending in "seed=N digest=HEX").
#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "report.hpp"
#include "scenario.hpp"
#include "sim.hpp"
#include "tracer.hpp"

namespace {

void Usage() {
  std::cerr << "usage: mrc-netsim --scenario NAME|FILE [--seed N] [--hosts H] [--planes P]\n"
               "                  [--msg-size BYTES] [--early-data BYTES] [--json OUT]\n"
               "                  [--trace OUT] [--events OUT]\n"
               "       mrc-netsim --list\n";
}

template <typename T>
std::optional<T> Number(std::string_view s) {
  T v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

struct Options {
  std::string scenario;
  uint64_t seed = 1;
  uint32_t hosts = 0;
  uint32_t planes = 0;
  uint64_t msg_bytes = 0;
  std::optional<uint32_t> early_data;  // the core's first flight (0: none)
  std::string json;
  std::string trace;
  std::string events;
  bool list = false;
};

std::optional<Options> Parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    const std::string_view a = argv[i];
    if (a == "--list") {
      o.list = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "mrc-netsim: " << a
                << (a.starts_with("--") ? " needs a value\n" : ": unknown\n");
      return std::nullopt;
    }
    const std::string_view v = argv[++i];
    bool ok = true;
    if (a == "--scenario") {
      o.scenario = v;
    } else if (a == "--json") {
      o.json = v;
    } else if (a == "--trace") {
      o.trace = v;
    } else if (a == "--events") {
      o.events = v;
    } else if (a == "--seed") {
      const auto n = Number<uint64_t>(v);
      ok = n.has_value();
      o.seed = n.value_or(0);
    } else if (a == "--hosts") {
      const auto n = Number<uint32_t>(v);
      ok = n.has_value() && *n >= 2 && *n <= 65536;
      o.hosts = n.value_or(0);
    } else if (a == "--planes") {
      const auto n = Number<uint32_t>(v);
      ok = n.has_value() && *n >= 1 && *n <= 16;
      o.planes = n.value_or(0);
    } else if (a == "--msg-size") {
      const auto n = Number<uint64_t>(v);
      ok = n.has_value() && *n >= 1;
      o.msg_bytes = n.value_or(0);
    } else if (a == "--early-data") {
      const auto n = Number<uint32_t>(v);
      ok = n.has_value() && *n <= (16U << 20);
      o.early_data = n;
    } else {
      std::cerr << "mrc-netsim: option \"" << a << "\" is unknown\n";
      return std::nullopt;
    }
    if (!ok) {
      std::cerr << "mrc-netsim: invalid value \"" << v << "\" for " << a << "\n";
      return std::nullopt;
    }
  }
  if (!o.list && o.scenario.empty()) {
    std::cerr << "mrc-netsim: --scenario or --list is required\n";
    return std::nullopt;
  }
  return o;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

int main(int argc, char** argv) {
  const auto opt = Parse(argc, argv);
  if (!opt) {
    Usage();
    return 1;
  }
  if (opt->list) {
    for (const auto& s : mrc_sim::Scenarios()) std::cout << s.name << "\t" << s.what << "\n";
    return 0;
  }
  // A built-in's name, else a scenario file (README.md).
  std::string err;
  auto cfg = mrc_sim::ResolveScenario(opt->scenario, opt->seed, opt->hosts, opt->planes, err);
  if (!cfg) {
    std::cerr << "mrc-netsim: " << err << "\n";
    return 1;
  }
  if (opt->msg_bytes != 0) cfg->workload.msg_bytes = opt->msg_bytes;
  if (opt->early_data) cfg->core.early_data = *opt->early_data;
  // --trace: the module's tracepoints and counters (tracer.hpp); --events:
  // the engine's raw events, the very list the digest hashes.
  std::unique_ptr<std::FILE, FileCloser> trace;
  std::unique_ptr<std::FILE, FileCloser> events;
  for (auto [path, file] : {std::pair{&opt->trace, &trace}, std::pair{&opt->events, &events}}) {
    if (path->empty()) continue;
    file->reset(std::fopen(path->c_str(), "w"));
    if (!*file) {
      std::perror(path->c_str());
      return 1;
    }
  }
  mrc_sim::Sim sim(*cfg);
  std::optional<mrc_sim::Tracer> tracer;
  if (trace) {
    tracer.emplace(trace.get());
    sim.set_tracer(&*tracer);
  }
  sim.engine().set_trace(events.get());
  const auto t0 = std::chrono::steady_clock::now();
  sim.Run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << mrc_sim::SummaryLine(sim) << std::endl;
  std::fprintf(stderr, "mrc-netsim: %.2f s wall, %.0f events/s\n", wall,
               static_cast<double>(sim.engine().events()) / (wall > 0 ? wall : 1));
  if (!opt->json.empty()) {
    std::ofstream out(opt->json);
    out << mrc_sim::ReportJson(sim).dump(1) << "\n";
    if (!out) {
      std::perror(opt->json.c_str());
      return 1;
    }
  }
  const auto& t = sim.totals();
  return t.flows_failed == 0 && t.flows_unfinished == 0 && t.corrupt == 0 ? 0 : 2;
}
