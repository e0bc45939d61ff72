// SPDX-License-Identifier: GPL-2.0
// Scenario files (README.md, "Scenario files"): a JSON object giving the
// fabric, the workload, the core's parameters and the failure schedule,
// read strictly: an unknown key, a wrong type or a value out of range is
// an error naming the key (fabric.hosts, failures[2].spine) and what was
// wrong with it.
#include <linux/mrc_netlink.h>
#include <linux/mrc_wire.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "scenario.hpp"

namespace mrc_sim {
namespace {

using nlohmann::json;

struct BadScenario : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();

// One JSON object: its keys are taken one by one, and Done() refuses any
// key left over (a typo must not silently fall back to a default).
class Obj {
 public:
  Obj(const json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j_.is_object()) throw BadScenario(Where() + "expected an object");
  }

  bool Has(const char* key) const { return j_.contains(key); }

  // An unsigned integer in [min, max]; absent: `out` unchanged.
  template <typename T>
  void Uint(const char* key, T& out, uint64_t min = 0, uint64_t max = kMax32) {
    const json* v = Take(key);
    if (v == nullptr) return;
    if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<int64_t>() >= 0))
      throw BadScenario(Where(key) + "expected a non-negative integer, got " + v->dump());
    const auto n = v->get<uint64_t>();
    if (n < min || n > max)
      throw BadScenario(Where(key) + std::to_string(n) + " is out of range [" +
                        std::to_string(min) + ", " + std::to_string(max) + "]");
    out = static_cast<T>(n);
  }

  // An array of unsigned integers, each in [min, max]; absent: `out` unchanged.
  void UintList(const char* key, std::vector<uint32_t>& out, uint64_t min, uint64_t max) {
    const json* v = Take(key);
    if (v == nullptr) return;
    if (!v->is_array()) throw BadScenario(Where(key) + "expected an array, got " + v->dump());
    std::vector<uint32_t> list;
    for (size_t i = 0; i < v->size(); i++) {
      const json& e = (*v)[i];
      const std::string at =
          (path_.empty() ? "" : path_ + ".") + key + "[" + std::to_string(i) + "]: ";
      if (!e.is_number_unsigned()) throw BadScenario(at + "expected a non-negative integer");
      const auto n = e.get<uint64_t>();
      if (n < min || n > max)
        throw BadScenario(at + std::to_string(n) + " is out of range [" + std::to_string(min) +
                          ", " + std::to_string(max) + "]");
      list.push_back(static_cast<uint32_t>(n));
    }
    out = std::move(list);
  }

  // A whole number of `unit` (kUs, kMs) into nanoseconds.
  void Duration(const char* key, Time& out, Time unit, uint64_t min = 0) {
    if (!Has(key)) {
      Take(key);
      return;
    }
    uint64_t n = 0;
    Uint(key, n, min, 1000ULL * 1000 * 1000);
    out = n * unit;
  }

  // Bytes: an integer or a string "N", "NKiB", "NMiB", "NGiB".
  void Bytes(const char* key, uint64_t& out, uint64_t min, uint64_t max) {
    const json* v = Take(key);
    if (v == nullptr) return;
    uint64_t n = 0;
    if (v->is_number_unsigned()) {
      n = v->get<uint64_t>();
    } else if (v->is_string()) {
      n = ParseSize(key, v->get<std::string>());
    } else {
      throw BadScenario(Where(key) + "expected bytes (an integer or \"4MiB\"), got " + v->dump());
    }
    if (n < min || n > max)
      throw BadScenario(Where(key) + std::to_string(n) + " bytes is out of range [" +
                        std::to_string(min) + ", " + std::to_string(max) + "]");
    out = n;
  }

  void Bytes32(const char* key, uint32_t& out, uint64_t min) {
    uint64_t n = out;
    Bytes(key, n, min, kMax32);
    out = static_cast<uint32_t>(n);
  }

  void Bool(const char* key, bool& out) {
    const json* v = Take(key);
    if (v == nullptr) return;
    if (!v->is_boolean())
      throw BadScenario(Where(key) + "expected true or false, got " + v->dump());
    out = v->get<bool>();
  }

  void Str(const char* key, std::string& out) {
    const json* v = Take(key);
    if (v == nullptr) return;
    if (!v->is_string()) throw BadScenario(Where(key) + "expected a string, got " + v->dump());
    out = v->get<std::string>();
  }

  double Number(const char* key, double min, double max) {
    const json* v = Take(key);
    if (v == nullptr || !v->is_number())
      throw BadScenario(Where(key) + (v == nullptr ? "is missing" : "expected a number"));
    const auto d = v->get<double>();
    if (!(d >= min && d <= max))
      throw BadScenario(Where(key) + v->dump() + " is out of range [" + std::to_string(min) + ", " +
                        std::to_string(max) + "]");
    return d;
  }

  const json* Take(const char* key) {
    taken_.insert(key);
    const auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }

  void Require(const char* key) const {
    if (!Has(key)) throw BadScenario(Where(key) + "is missing");
  }

  void Done() const {
    for (const auto& [k, v] : j_.items())
      if (!taken_.contains(k)) throw BadScenario(Where(k.c_str()) + "unknown key");
  }

  std::string Where(const char* key = nullptr) const {
    std::string w = path_;
    if (key != nullptr) w += (w.empty() ? "" : ".") + std::string(key);
    return w.empty() ? "" : w + ": ";
  }

 private:
  uint64_t ParseSize(const char* key, const std::string& s) const {
    size_t end = 0;
    uint64_t n = 0;
    try {
      n = std::stoull(s, &end);
    } catch (const std::exception&) {
      end = 0;
    }
    const std::string unit = s.substr(end);
    const uint64_t mul = unit.empty()    ? 1
                         : unit == "KiB" ? 1ULL << 10
                         : unit == "MiB" ? 1ULL << 20
                         : unit == "GiB" ? 1ULL << 30
                                         : 0;
    if (end == 0 || mul == 0 || n > (std::numeric_limits<uint64_t>::max() / mul))
      throw BadScenario(Where(key) + "\"" + s + "\" is not a size (N, NKiB, NMiB or NGiB)");
    return n * mul;
  }

  const json& j_;
  std::string path_;
  std::set<std::string> taken_;
};

void ReadFabric(Obj o, FabricCfg& f) {
  o.Uint("hosts", f.hosts, 2, 65536);
  o.Uint("planes", f.planes, 1, 16);
  o.Uint("hosts_per_leaf", f.hosts_per_leaf, 1, 65536);
  o.Uint("spines", f.spines, 1, 4096);
  o.Uint("gbps", f.gbps, 1, 100000);
  o.Uint("uplink_gbps", f.uplink_gbps, 1, 100000);
  o.UintList("plane_gbps", f.plane_gbps, 1, 100000);
  if (f.plane_gbps.size() > f.planes)
    throw BadScenario(o.Where("plane_gbps") + std::to_string(f.plane_gbps.size()) + " rates for " +
                      std::to_string(f.planes) + " planes");
  if (o.Has("oversubscription")) {
    if (o.Has("uplink_gbps"))
      throw BadScenario(o.Where("oversubscription") +
                        "give uplink_gbps or oversubscription, "
                        "not both");
    // hosts_per_leaf * gbps / (spines * uplink_gbps) = ratio
    const double r = o.Number("oversubscription", 0.01, 1000);
    const double up = static_cast<double>(f.hosts_per_leaf) * f.gbps / (f.spines * r);
    f.uplink_gbps = static_cast<uint32_t>(std::max(1.0, std::round(up)));
  }
  o.Duration("prop_ns", f.prop_ns, 1);
  o.Bytes32("queue_bytes", f.queue_bytes, 1024);
  o.Bytes32("host_queue_bytes", f.host_queue_bytes, 1024);
  o.Bytes32("ecn_bytes", f.ecn_bytes, 0);
  o.Bytes32("trim_queue_bytes", f.trim_queue_bytes, 256);
  o.Duration("reroute_us", f.reroute_ns, kUs);
  o.Bool("trim", f.trim);
  o.Bool("host_ctl_prio", f.host_ctl_prio);
  o.Bytes32("host_tsq_bytes", f.host_tsq_bytes, 0);
  o.Done();
}

WorkloadKind WorkloadKindOf(const Obj& o, const std::string& s) {
  if (s == "permutation") return WorkloadKind::kPermutation;
  if (s == "all-to-all") return WorkloadKind::kAllToAll;
  if (s == "incast") return WorkloadKind::kIncast;
  if (s == "allreduce-ring") return WorkloadKind::kAllReduceRing;
  throw BadScenario(o.Where("kind") + "\"" + s +
                    "\" is unknown (permutation, all-to-all, incast, allreduce-ring)");
}

void ReadWorkload(Obj o, WorkloadCfg& w) {
  std::string kind = "permutation";
  o.Str("kind", kind);
  w.kind = WorkloadKindOf(o, kind);
  o.Bytes("msg_bytes", w.msg_bytes, 1, 1ULL << 40);
  o.Uint("window", w.window, 1, 65536);
  o.Uint("senders", w.senders, 0, 65535);
  o.Bool("spread_connects", w.spread_connects);
  o.Duration("start_us", w.start, kUs);
  o.Done();
}

void ReadCore(Obj o, CoreCfg& c) {
  o.Uint("mss", c.mss, 64, 9000);
  o.Uint("ev_count", c.ev_count, 1, 256);
  o.Uint("sndbuf", c.sndbuf, 4096);
  o.Uint("rcvbuf", c.rcvbuf, 4096);
  o.Uint("rto_min_us", c.rto_min_us, 1);
  o.Uint("rto_init_us", c.rto_init_us, 1);
  o.Uint("probe_interval_us", c.probe_interval_us, 1);
  o.Uint("ack_delay_us", c.ack_delay_us, 1);
  o.Uint("user_timeout_ms", c.user_timeout_ms, 1);
  o.Uint("target_delay_ns", c.target_delay_ns, 1);
  o.Bool("peer_paths", c.peer_paths);
  o.Uint("early_data", c.early_data, 0, 16ULL << 20);
  o.UintList("plane_weight", c.plane_weight, 0, MRC_PLANE_WEIGHT_MAX);
  if (c.plane_weight.size() > MRC_WIRE_MAX_PLANES)
    throw BadScenario(o.Where("plane_weight") + "more than " + std::to_string(MRC_WIRE_MAX_PLANES) +
                      " planes");
  o.Done();
}

// What a failure's kind needs besides at_us and plane.
struct FailKind {
  const char* name;
  ActKind kind;
  bool leaf, spine, host, ppm, flap;
};

constexpr auto kFailKinds = std::to_array<FailKind>({
    {"link-down", ActKind::kLinkDown, true, true, false, false, false},
    {"link-up", ActKind::kLinkUp, true, true, false, false, false},
    {"link-flap", ActKind::kLinkDown, true, true, false, false, true},
    {"gray", ActKind::kGray, true, true, false, true, false},
    {"host-link-down", ActKind::kHostLinkDown, false, false, true, false, false},
    {"host-link-up", ActKind::kHostLinkUp, false, false, true, false, false},
    {"host-link-flap", ActKind::kHostLinkDown, false, false, true, false, true},
    {"leaf-down", ActKind::kLeafDown, true, false, false, false, false},
    {"leaf-up", ActKind::kLeafUp, true, false, false, false, false},
    {"spine-down", ActKind::kSpineDown, false, true, false, false, false},
    {"spine-up", ActKind::kSpineUp, false, true, false, false, false},
    {"port-down", ActKind::kPortDown, false, false, true, false, false},
    {"port-up", ActKind::kPortUp, false, false, true, false, false},
});

const FailKind& FailKindOf(const Obj& o, const std::string& s) {
  for (const FailKind& k : kFailKinds)
    if (s == k.name) return k;
  std::string all;
  for (const FailKind& k : kFailKinds) all += std::string(all.empty() ? "" : ", ") + k.name;
  throw BadScenario(o.Where("kind") + "\"" + s + "\" is unknown (" + all + ")");
}

// An index into the fabric: required, below `n` (what the fabric has).
uint32_t Index(Obj& o, const char* key, uint32_t n, const char* what) {
  o.Require(key);
  uint32_t v = 0;
  o.Uint(key, v);
  if (v >= n)
    throw BadScenario(o.Where(key) + std::to_string(v) + " is out of range (the fabric has " +
                      std::to_string(n) + " " + what + ")");
  return v;
}

void ReadFailure(Obj o, const FabricCfg& f, SimCfg& c) {
  o.Require("kind");
  std::string name;
  o.Str("kind", name);
  const FailKind& k = FailKindOf(o, name);
  o.Require("at_us");
  Time at = 0;
  o.Duration("at_us", at, kUs);
  const uint32_t leaves = (f.hosts + f.hosts_per_leaf - 1) / f.hosts_per_leaf;
  Action a{.at = at, .kind = k.kind};
  a.plane = Index(o, "plane", f.planes, "planes");
  if (k.leaf) a.a = Index(o, "leaf", leaves, "leaves");
  if (k.spine) (k.leaf ? a.b : a.a) = Index(o, "spine", f.spines, "spines");
  if (k.host) a.a = Index(o, "host", f.hosts, "hosts");
  if (k.ppm) {
    o.Require("ppm");
    o.Uint("ppm", a.ppm, 0, 1000000);
  }
  if (!k.flap) {
    o.Done();
    c.actions.push_back(a);
    return;
  }
  Flap fl{.at = at, .host_link = k.host, .plane = a.plane, .a = a.a, .b = a.b};
  for (const char* key : {"period_us", "down_us", "count"}) o.Require(key);
  o.Duration("period_us", fl.period, kUs, 1);
  o.Duration("down_us", fl.down_for, kUs, 1);
  o.Uint("count", fl.count, 1, 100000);
  if (fl.down_for >= fl.period)
    throw BadScenario(o.Where("down_us") + "must be shorter than period_us");
  o.Done();
  c.flaps.push_back(fl);
}

SimCfg FromJson(const json& j, const std::string& fallback_name, uint64_t seed, uint32_t hosts,
                uint32_t planes) {
  SimCfg c;
  c.seed = seed;
  c.scenario = fallback_name;
  Obj top(j, "");
  top.Str("name", c.scenario);
  std::string description;
  top.Str("description", description);
  if (const json* f = top.Take("fabric")) ReadFabric(Obj(*f, "fabric"), c.fabric);
  // The command line's --hosts and --planes win, as for built-ins; the
  // failures are checked against the fabric that runs.
  if (hosts != 0) c.fabric.hosts = hosts;
  if (planes != 0) c.fabric.planes = planes;
  c.fabric.hosts_per_leaf = std::min(c.fabric.hosts_per_leaf, c.fabric.hosts);
  if (const json* w = top.Take("workload")) ReadWorkload(Obj(*w, "workload"), c.workload);
  if (const json* k = top.Take("core")) ReadCore(Obj(*k, "core"), c.core);
  if (const json* fs = top.Take("failures")) {
    if (!fs->is_array()) throw BadScenario("failures: expected an array");
    for (size_t i = 0; i < fs->size(); i++)
      ReadFailure(Obj((*fs)[i], "failures[" + std::to_string(i) + "]"), c.fabric, c);
  }
  top.Duration("max_time_ms", c.max_time, kMs, 1);
  top.Done();
  return c;
}

}  // namespace

std::optional<SimCfg> ScenarioFromJson(const std::string& text, const std::string& name,
                                       uint64_t seed, uint32_t hosts, uint32_t planes,
                                       std::string& err) {
  try {
    return FromJson(json::parse(text), name, seed, hosts, planes);
  } catch (const json::parse_error& e) {
    // nlohmann's message names the byte offset of the syntax error.
    err = std::string("not valid JSON: ") + e.what();
  } catch (const BadScenario& e) {
    err = e.what();
  }
  return std::nullopt;
}

std::optional<SimCfg> ResolveScenario(const std::string& name_or_path, uint64_t seed,
                                      uint32_t hosts, uint32_t planes, std::string& err) {
  if (auto c = MakeScenario(name_or_path, seed, hosts, planes)) return c;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(name_or_path, ec)) {
    err =
        "scenario \"" + name_or_path + R"(" is unknown and no such file, try "mrc-netsim --list")";
    return std::nullopt;
  }
  std::ifstream in(name_or_path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    err = name_or_path + ": cannot read";
    return std::nullopt;
  }
  auto c = ScenarioFromJson(text.str(), std::filesystem::path(name_or_path).stem().string(), seed,
                            hosts, planes, err);
  if (!c) err = name_or_path + ": " + err;
  return c;
}

}  // namespace mrc_sim
