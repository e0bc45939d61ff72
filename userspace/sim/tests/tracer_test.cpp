// SPDX-License-Identifier: GPL-2.0
// `mrc-netsim --trace` speaks the module's vocabulary: trace_pipe-shaped
// lines of its tracepoints, and mrc_path/mrc_plane counters that add up
// to those lines as the eBPF maps would; and tracing changes nothing.
#include "tracer.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "scenario.hpp"
#include "sim.hpp"

namespace mrc_sim {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// The trace of a run of `name`, and the run's digest.
std::pair<std::string, std::string> Traced(const std::string& name, uint64_t seed) {
  std::unique_ptr<std::FILE, FileCloser> out(std::tmpfile());
  auto cfg = MakeScenario(name, seed, 0, 0);
  EXPECT_TRUE(cfg.has_value());
  Sim sim(*cfg);
  Tracer tracer(out.get());
  sim.set_tracer(&tracer);
  sim.Run();
  std::string text(static_cast<size_t>(std::ftell(out.get())), '\0');
  std::rewind(out.get());
  EXPECT_EQ(std::fread(text.data(), 1, text.size(), out.get()), text.size());
  return {text, sim.engine().digest().Hex()};
}

std::string Digest(const std::string& name, uint64_t seed) {
  Sim sim(*MakeScenario(name, seed, 0, 0));
  sim.Run();
  return sim.engine().digest().Hex();
}

uint64_t Field(const std::string& fields, const std::string& key) {
  const std::regex re("(^| )" + key + "=([0-9]+)");
  std::smatch m;
  return std::regex_search(fields, m, re) ? std::stoull(m[2]) : UINT64_MAX;
}

// EV state changes (the incast's queues mark CE: SKIP, then GOOD again)
// name the EV, its plane and the state.
TEST(Tracer, EvStateLinesNameTheEvAndItsState) {
  const std::string text = Traced("incast", 1).first;
  const std::regex line(R"(^mrc-netsim-\d+ \[000\] \.\.\.\.\. \d+\.\d{9}: mrc_ev_state: (.*)$)");
  std::map<uint64_t, uint64_t> states;
  std::istringstream in(text);
  std::string l;
  std::smatch m;
  while (std::getline(in, l)) {
    if (!std::regex_match(l, m, line)) continue;
    const std::string f = m[1];
    EXPECT_LT(Field(f, "ev"), 65536U) << l;
    EXPECT_LT(Field(f, "plane"), 4U) << l;
    EXPECT_LT(Field(f, "index"), 64U) << l;
    states[Field(f, "state")]++;
  }
  EXPECT_GT(states[MRC_EV_SKIP], 0U);
  EXPECT_GT(states[MRC_EV_GOOD], 0U);
}

TEST(Tracer, SameDigestWithAndWithoutTheTrace) {
  EXPECT_EQ(Traced("plane-failure", 3).second, Digest("plane-failure", 3));
}

TEST(Tracer, LinesAreTracePipeShapedAndCountersAddUp) {
  const std::string text = Traced("plane-failure", 1).first;
  const std::regex line(R"(^mrc-netsim-(\d+) \[000\] \.\.\.\.\. (\d+\.\d{9}): (mrc_\w+): (.*)$)");
  std::map<std::string, uint64_t> lines;
  uint64_t tx_bytes = 0, plane_tx_pkts = 0, plane_tx_bytes = 0, path_tx_pkts = 0;
  uint64_t acks = 0, plane_acked = 0, rx_bytes = 0, plane_rx_bytes = 0;
  uint64_t dead_plane_tx_of_host1 = 0;
  std::istringstream in(text);
  std::string l;
  std::smatch m;
  while (std::getline(in, l)) {
    ASSERT_TRUE(std::regex_match(l, m, line)) << l;
    const std::string event = m[3], f = m[4];
    lines[event]++;
    if (event == "mrc_tx") {
      tx_bytes += Field(f, "len");
      // plane-failure: host 1's port on plane 1 is down from 200 to 500 us.
      const double t = std::stod(m[2]);
      if (m[1] == "1" && Field(f, "plane") == 1 && t >= 200e-6 && t < 500e-6)
        dead_plane_tx_of_host1++;
    } else if (event == "mrc_ack") {
      acks++;
    } else if (event == "mrc_rx") {
      rx_bytes += Field(f, "len");
    } else if (event == "mrc_plane") {
      plane_tx_pkts += Field(f, "tx_pkts");
      plane_tx_bytes += Field(f, "tx_bytes");
      plane_acked += Field(f, "acked_pkts");
      plane_rx_bytes += Field(f, "rx_bytes");
    } else if (event == "mrc_path") {
      path_tx_pkts += Field(f, "tx_pkts");
    }
  }
  // No mrc_ev_state: a dead port takes its plane away whole, and no
  // queue marks CE (the NIC queues stay short: host_tsq_bytes).
  for (const char* e :
       {"mrc_tx", "mrc_rx", "mrc_ack", "mrc_sim_fault", "mrc_sim_carrier", "mrc_path", "mrc_plane"})
    EXPECT_GT(lines[e], 0U) << e;
  EXPECT_EQ(lines["mrc_sim_fault"], 2U);  // down and up
  EXPECT_EQ(plane_tx_pkts, lines["mrc_tx"]);
  EXPECT_EQ(path_tx_pkts, lines["mrc_tx"]);
  EXPECT_EQ(plane_tx_bytes, tx_bytes);
  EXPECT_EQ(plane_acked, acks);
  EXPECT_EQ(plane_rx_bytes, rx_bytes);
  // 64 MiB each way, every byte received at least once.
  EXPECT_GE(rx_bytes, 2 * (64ULL << 20));
  // The host that saw its carrier go sends nothing on the plane.
  EXPECT_EQ(dead_plane_tx_of_host1, 0U);
}

}  // namespace
}  // namespace mrc_sim
