// SPDX-License-Identifier: GPL-2.0
#include "config.hpp"

#include <arpa/inet.h>
#include <linux/mrc_netlink.h>
#include <net/if.h>
#include <toml++/toml.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "table_reader.hpp"

namespace mrcd {
namespace {

constexpr std::uint32_t kU32Max = UINT32_MAX;
constexpr std::uint32_t kMsMax = 3600U * 1000U;  // an hour: longer is a typo
constexpr std::uint32_t kSecondsMax = 24U * 3600U;
constexpr std::uint32_t kPpmOne = 1000000;

struct Choice {
  std::string_view name;
  std::uint32_t value;
};

constexpr std::array<Choice, 3> kModes{{
    {"auto", static_cast<std::uint32_t>(mrc::EvMode::kAuto)},
    {"generated", static_cast<std::uint32_t>(mrc::EvMode::kGenerated)},
    {"explicit", static_cast<std::uint32_t>(mrc::EvMode::kExplicit)},
}};

constexpr std::array<Choice, 2> kPlaneStates{{
    {"up", static_cast<std::uint32_t>(mrc::PlaneState::kUp)},
    {"down", static_cast<std::uint32_t>(mrc::PlaneState::kDown)},
}};

// The EV states an event mask may name, as mrcctl spells them.
constexpr std::array<Choice, 4> kEventStates{{
    {"good", 1U << MRC_EV_GOOD},
    {"skip", 1U << MRC_EV_SKIP},
    {"assumed-bad", 1U << MRC_EV_ASSUMED_BAD},
    {"denied", 1U << MRC_EV_DENIED},
}};

template <std::size_t N>
std::string ChoiceList(const std::array<Choice, N>& choices) {
  std::string list;
  for (const Choice& choice : choices) {
    list += (list.empty() ? "\"" : ", \"") + std::string(choice.name) + "\"";
  }
  return list;
}

template <std::size_t N>
std::uint32_t Choose(const std::array<Choice, N>& choices, const toml::node& node,
                     std::string_view key, const std::string& name) {
  for (const Choice& choice : choices) {
    if (choice.name == name) {
      return choice.value;
    }
  }
  FailAt(node, std::string(key) + " \"" + name + "\" is not one of " + ChoiceList(choices));
}

template <std::size_t N>
std::optional<std::uint32_t> ChooseKey(TableReader& reader, std::string_view key,
                                       const std::array<Choice, N>& choices) {
  const std::optional<std::string> name = reader.String(key);
  if (!name) {
    return std::nullopt;
  }
  return Choose(choices, *reader.Find(key), key, *name);
}

Daemon ParseDaemon(const toml::table& table) {
  TableReader reader(table, "[daemon]");
  Daemon daemon;
  if (const auto level = reader.String("log_level")) {
    const auto parsed = ParseLogLevel(*level);
    if (!parsed) {
      FailAt(*reader.Find("log_level"),
             "log_level \"" + *level + R"(" is not one of "debug", "info", "warn", "error")");
    }
    daemon.log_level = *parsed;
  }
  if (auto address = reader.String("metrics_address")) {
    if (address->empty()) {
      FailAt(*reader.Find("metrics_address"), "metrics_address is empty");
    }
    daemon.metrics_address = std::move(*address);
  }
  daemon.metrics_port =
      reader.Unsigned<std::uint16_t>("metrics_port", 0, UINT16_MAX).value_or(daemon.metrics_port);
  reader.RejectUnknown();
  return daemon;
}

void ReadU32(TableReader& reader, std::string_view key, std::uint32_t& field, std::uint32_t max) {
  field = reader.Unsigned<std::uint32_t>(key, 1, max).value_or(field);
}

Detect ParseDetect(const toml::table& table) {
  TableReader reader(table, "[detect]");
  Detect detect;
  ReadU32(reader, "burst_losses", detect.burst_losses, kU32Max);
  ReadU32(reader, "plane_burst_losses", detect.plane_burst_losses, kU32Max);
  ReadU32(reader, "plane_dark_ms", detect.plane_dark_ms, kMsMax);
  ReadU32(reader, "burst_window_ms", detect.burst_window_ms, kMsMax);
  ReadU32(reader, "ack_timeout_ms", detect.ack_timeout_ms, kMsMax);
  ReadU32(reader, "alarm_gap_ms", detect.alarm_gap_ms, kMsMax);
  ReadU32(reader, "plane_suspect_paths", detect.plane_suspect_paths, kU32Max);
  ReadU32(reader, "plane_window_ms", detect.plane_window_ms, kMsMax);
  ReadU32(reader, "flap_max", detect.flap_max, kU32Max);
  ReadU32(reader, "flap_window_s", detect.flap_window_s, kSecondsMax);
  ReadU32(reader, "holddown_s", detect.holddown_s, kSecondsMax);
  ReadU32(reader, "holddown_max_s", detect.holddown_max_s, kSecondsMax);
  ReadU32(reader, "poll_ms", detect.poll_ms, kMsMax);
  if (detect.holddown_max_s < detect.holddown_s) {
    const toml::node* node = reader.Find("holddown_max_s");
    FailAt(node ? node->source() : table.source(),
           "holddown_max_s " + std::to_string(detect.holddown_max_s) + " is below holddown_s " +
               std::to_string(detect.holddown_s));
  }
  reader.RejectUnknown();
  return detect;
}

std::string ReadIfname(TableReader& reader) {
  std::string ifname = reader.Required(reader.String("ifname"), "ifname");
  if (ifname.empty() || ifname.size() >= IFNAMSIZ ||
      ifname.find_first_of("/ \t:") != std::string::npos) {
    FailAt(*reader.Find("ifname"), "ifname \"" + ifname + "\" is not a network device name");
  }
  return ifname;
}

std::optional<in_addr> ReadAddr4(TableReader& reader) {
  const std::optional<std::string> text = reader.String("addr4");
  if (!text) {
    return std::nullopt;
  }
  in_addr addr{};
  if (inet_pton(AF_INET, text->c_str(), &addr) != 1) {
    FailAt(*reader.Find("addr4"), "addr4 \"" + *text + "\" is not a dotted-quad IPv4 address");
  }
  return addr;
}

PlaneConfig ParsePlane(const toml::table& table) {
  TableReader reader(table, "[[plane]]");
  PlaneConfig plane;
  plane.origin = Where(table.source());
  plane.ifname = ReadIfname(reader);
  plane.id = reader.Unsigned<std::uint32_t>("id", 0, MRC_MAX_PLANES - 1);
  plane.port = reader.Unsigned<std::uint16_t>("port", 1, UINT16_MAX);
  plane.weight = reader.Unsigned<std::uint32_t>("weight", 1, MRC_PLANE_WEIGHT_MAX);
  plane.mtu = reader.Unsigned<std::uint32_t>("mtu", 0, MRC_PLANE_MTU_MAX);
  if (plane.mtu && *plane.mtu != 0 && *plane.mtu < MRC_PLANE_MTU_MIN) {
    FailAt(*reader.Find("mtu"), "mtu " + std::to_string(*plane.mtu) + " is out of range " +
                                    std::to_string(MRC_PLANE_MTU_MIN) + ".." +
                                    std::to_string(MRC_PLANE_MTU_MAX) + " (or 0: the netdev's)");
  }
  if (const auto state = ChooseKey(reader, "state", kPlaneStates)) {
    plane.state = static_cast<mrc::PlaneState>(*state);
  }
  plane.addr4 = ReadAddr4(reader);
  reader.RejectUnknown();
  return plane;
}

std::uint32_t ReadEventMask(TableReader& reader) {
  std::uint32_t mask = 0;
  const toml::array* events = reader.Array("events");
  if (events == nullptr) {
    return mask;
  }
  for (const toml::node& event : *events) {
    const auto* name = event.as_string();
    if (!name) {
      FailAt(event, "events lists EV state names (strings)");
    }
    mask |= Choose(kEventStates, event, "events", name->get());
  }
  return mask;
}

std::vector<std::uint32_t> ReadEvs(TableReader& reader) {
  std::vector<std::uint32_t> evs;
  const toml::array* list = reader.Array("evs");
  if (list == nullptr) {
    return evs;
  }
  for (const toml::node& ev : *list) {
    const auto* value = ev.as_integer();
    if (!value || value->get() < 0 || value->get() > (1 << MRC_EV_MAX_BITS) - 1) {
      FailAt(ev, "evs lists EV values 0.." + std::to_string((1 << MRC_EV_MAX_BITS) - 1));
    }
    evs.push_back(static_cast<std::uint32_t>(value->get()));
  }
  return evs;
}

// What the module needs before it takes the profile OFFLINE and ONLINE.
void CheckEvProfile(const EvProfileConfig& profile, TableReader& reader, const toml::table& table) {
  const std::string name = "[[ev_profile]] id " + std::to_string(profile.id);
  if (profile.min_active && *profile.min_active > profile.count) {
    FailAt(*reader.Find("min_active"), "min_active " + std::to_string(*profile.min_active) +
                                           " exceeds count " + std::to_string(profile.count));
  }
  if (profile.online && !profile.min_active) {
    FailAt(table, name + ": an online profile needs min_active");
  }
  const bool is_explicit = profile.mode == mrc::EvMode::kExplicit;
  if (!is_explicit && reader.Find("evs")) {
    FailAt(*reader.Find("evs"), "evs is only for mode \"explicit\"");
  }
  if (is_explicit && profile.evs.size() != profile.count) {
    FailAt(reader.Find("evs") ? reader.Find("evs")->source() : table.source(),
           name + ": mode \"explicit\" needs evs with count (" + std::to_string(profile.count) +
               ") values");
  }
}

EvProfileConfig ParseEvProfile(const toml::table& table) {
  TableReader reader(table, "[[ev_profile]]");
  EvProfileConfig profile;
  profile.origin = Where(table.source());
  profile.id = reader.Required(reader.Unsigned<std::uint32_t>("id", 1, MRC_MAX_EV_PROFILES), "id");
  profile.mode =
      static_cast<mrc::EvMode>(reader.Required(ChooseKey(reader, "mode", kModes), "mode"));
  profile.count =
      reader.Required(reader.Unsigned<std::uint32_t>("count", 1, MRC_MAX_EVS_PER_PROFILE), "count");
  profile.min_active = reader.Unsigned<std::uint32_t>("min_active", 0, MRC_MAX_EVS_PER_PROFILE);
  profile.event_mask = ReadEventMask(reader);
  profile.seed = reader.Unsigned<std::uint32_t>("seed", 0, kU32Max);
  profile.evs = ReadEvs(reader);
  profile.online = reader.Bool("online").value_or(true);
  CheckEvProfile(profile, reader, table);
  reader.RejectUnknown();
  return profile;
}

std::optional<std::uint32_t> ReadPpm(TableReader& reader, std::string_view key, std::uint32_t max) {
  const std::optional<double> number = reader.Number(key);
  if (!number) {
    return std::nullopt;
  }
  const double ppm = std::round(*number * kPpmOne);
  if (!(ppm >= 0 && ppm <= max)) {
    std::ostringstream range;
    range << key << ' ' << *number << " is out of range 0.." << max / double{kPpmOne};
    FailAt(*reader.Find(key), range.str());
  }
  return static_cast<std::uint32_t>(ppm);
}

mrc::Nscc ReadNscc(TableReader& reader) {
  mrc::Nscc nscc;
  nscc.base_rtt = reader.Unsigned<std::uint32_t>("base_rtt", 1, kU32Max);
  nscc.target_delay = reader.Unsigned<std::uint32_t>("target_delay", 0, kU32Max);
  nscc.max_cwnd = reader.Unsigned<std::uint32_t>("max_cwnd", 1500, kU32Max);
  nscc.eta = ReadPpm(reader, "eta", kU32Max);
  nscc.fi = ReadPpm(reader, "fi", kU32Max);
  nscc.fi_scale = ReadPpm(reader, "fi_scale", kU32Max);
  nscc.gamma = ReadPpm(reader, "gamma", kPpmOne);
  nscc.max_md_jump = ReadPpm(reader, "max_md_jump", kPpmOne);
  nscc.qa_gate = reader.Unsigned<std::uint8_t>("qa_gate", 0, UINT8_MAX);
  nscc.qa_threshold = reader.Unsigned<std::uint32_t>("qa_threshold", 0, kU32Max);
  nscc.disable_qa = reader.Bool("disable_qa");
  nscc.adjust_bytes = reader.Unsigned<std::uint32_t>("adjust_bytes", 0, kU32Max);
  nscc.adjust_period = reader.Unsigned<std::uint32_t>("adjust_period", 0, kU32Max);
  return nscc;
}

CcProfileConfig ParseCcProfile(const toml::table& table) {
  TableReader reader(table, "[[cc_profile]]");
  CcProfileConfig profile;
  profile.origin = Where(table.source());
  profile.id = reader.Required(reader.Unsigned<std::uint32_t>("id", 1, MRC_MAX_CC_PROFILES), "id");
  profile.algorithm = reader.Required(reader.String("algorithm"), "algorithm");
  profile.nscc = ReadNscc(reader);
  profile.online = reader.Bool("online").value_or(true);
  // The module goes ONLINE only once it was sent parameters.
  if (profile.online && profile.nscc.Empty()) {
    FailAt(table, "[[cc_profile]] id " + std::to_string(profile.id) +
                      ": an online profile needs at least one NSCC parameter");
  }
  reader.RejectUnknown();
  return profile;
}

// Remembers where each key (ifname, id) was first given.
class Uniq {
 public:
  explicit Uniq(std::string what) : what_(std::move(what)) {}

  void Add(const std::string& key, const toml::node& node) {
    const auto [it, added] = seen_.emplace(key, Where(node.source()));
    if (!added) {
      FailAt(node, "duplicate " + what_ + " " + key + " (first at " + it->second + ")");
    }
  }

 private:
  std::string what_;
  std::map<std::string, std::string> seen_;
};

template <typename T, typename Parse, typename Check>
std::vector<T> ParseArray(TableReader& root, std::string_view key, Parse parse, Check check) {
  std::vector<T> items;
  const toml::array* tables = root.ArrayOfTables(key);
  if (tables == nullptr) {
    return items;
  }
  for (const toml::node& node : *tables) {
    const toml::table& table = *node.as_table();
    items.push_back(parse(table));
    check(items.back(), table);
  }
  return items;
}

}  // namespace

bool EvProfileConfig::SameSettings(const EvProfileConfig& other) const {
  return id == other.id && mode == other.mode && count == other.count &&
         min_active == other.min_active && event_mask == other.event_mask && seed == other.seed &&
         evs == other.evs && online == other.online;
}

bool CcProfileConfig::SameSettings(const CcProfileConfig& other) const {
  return id == other.id && algorithm == other.algorithm && nscc == other.nscc &&
         online == other.online;
}

Config ParseConfig(std::string_view text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& error) {
    throw ConfigError(Where(error.source()) + ": " + std::string(error.description()));
  }
  TableReader reader(root, "the configuration");
  Config config;
  if (const toml::table* daemon = reader.Table("daemon")) {
    config.daemon = ParseDaemon(*daemon);
  }
  if (const toml::table* detect = reader.Table("detect")) {
    config.detect = ParseDetect(*detect);
  }
  Uniq ifnames("plane ifname");
  Uniq plane_ids("plane id");
  config.planes = ParseArray<PlaneConfig>(
      reader, "plane", ParsePlane, [&](const PlaneConfig& plane, const toml::table& table) {
        ifnames.Add(plane.ifname, *table.get("ifname"));
        if (plane.id) {
          plane_ids.Add(std::to_string(*plane.id), *table.get("id"));
        }
      });
  Uniq ev_ids("ev_profile id");
  config.ev_profiles = ParseArray<EvProfileConfig>(
      reader, "ev_profile", ParseEvProfile, [&](const EvProfileConfig& p, const toml::table& t) {
        ev_ids.Add(std::to_string(p.id), *t.get("id"));
      });
  Uniq cc_ids("cc_profile id");
  config.cc_profiles = ParseArray<CcProfileConfig>(
      reader, "cc_profile", ParseCcProfile, [&](const CcProfileConfig& p, const toml::table& t) {
        cc_ids.Add(std::to_string(p.id), *t.get("id"));
      });
  reader.RejectUnknown();
  return config;
}

Config LoadConfig(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    throw ConfigError(path + ": " + std::strerror(errno));
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) {
    throw ConfigError(path + ": read error");
  }
  return ParseConfig(text.str(), path);
}

mrc_tm_config ToTmConfig(const Detect& detect) {
  constexpr std::uint64_t kNsPerMs = 1000ULL * 1000ULL;
  mrc_tm_config tm{};
  tm.burst_losses = detect.burst_losses;
  tm.plane_burst_losses = detect.plane_burst_losses;
  tm.plane_dark_ns = detect.plane_dark_ms * kNsPerMs;
  tm.burst_window_ns = detect.burst_window_ms * kNsPerMs;
  tm.ack_timeout_ns = detect.ack_timeout_ms * kNsPerMs;
  tm.alarm_gap_ns = detect.alarm_gap_ms * kNsPerMs;
  return tm;
}

}  // namespace mrcd
