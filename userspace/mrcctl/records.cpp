// SPDX-License-Identifier: GPL-2.0
// Objects -> Records (see records.hpp).
#include "records.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <variant>

#include "args.hpp"
#include "names.hpp"

namespace mrcctl {
namespace {

constexpr double kMicro = 1e6;
constexpr unsigned int kMaskBits = 32;

template <typename T>
void AddIf(Record& record, std::string_view key, const std::optional<T>& value) {
  if (value) {
    record.Add(key, *value);
  }
}

template <typename T, std::size_t N>
void AddName(Record& record, std::string_view key, const std::array<Name<T>, N>& table,
             const std::optional<T>& value) {
  if (value) {
    record.Add(key, NameOf(table, *value));
  }
}

// The object's id, labelled by the object in text ("plane 0").
void AddId(Record& record, std::string_view object, const std::optional<std::uint32_t>& id) {
  if (id) {
    record.Add(Field{.key = "id", .value = *id, .label = std::string(object)});
  }
}

void AddPpm(Record& record, std::string_view key, const std::optional<std::uint32_t>& ppm) {
  if (ppm) {
    record.Add(Field{.key = std::string(key), .value = *ppm / kMicro, .text = FormatPpm(*ppm)});
  }
}

void AddStats(Record& record, const std::optional<mrc::Stats>& stats, const Options& opts) {
  if (stats) {
    record.Counters("stats", *stats, opts.stats);
  }
}

Record EvRecord(const mrc::Ev& ev) {
  Record record;
  AddIf(record, "index", ev.index);
  AddIf(record, "ev", ev.value);
  AddIf(record, "plane", ev.plane);
  AddName(record, "state", kEvStates, ev.state);
  return record;
}

void AddNscc(Record& record, const mrc::Nscc& nscc) {
  AddIf(record, "base-rtt", nscc.base_rtt);
  AddIf(record, "target-delay", nscc.target_delay);
  AddIf(record, "max-cwnd", nscc.max_cwnd);
  AddPpm(record, "eta", nscc.eta);
  AddPpm(record, "fi", nscc.fi);
  AddPpm(record, "fi-scale", nscc.fi_scale);
  AddPpm(record, "gamma", nscc.gamma);
  AddPpm(record, "max-md-jump", nscc.max_md_jump);
  AddIf(record, "qa-gate", nscc.qa_gate);
  AddIf(record, "qa-threshold", nscc.qa_threshold);
  AddIf(record, "disable-qa", nscc.disable_qa);
  AddIf(record, "adjust-bytes", nscc.adjust_bytes);
  AddIf(record, "adjust-period", nscc.adjust_period);
}

// Fields of the offload object that text shows elsewhere, or not at all.
Field JsonOnly(std::string_view key, Json value) {
  return Field{
      .key = std::string(key), .value = std::move(value), .visibility = Visibility::kJsonOnly};
}

// Always in JSON, in text only when `shown`.
Visibility TextIf(bool shown) { return shown ? Visibility::kTextAndJson : Visibility::kJsonOnly; }

// A field whose text label is not its JSON key.
template <typename T>
void AddLabelled(Record& record, std::string_view key, std::string_view label,
                 const std::optional<T>& value) {
  if (value) {
    record.Add(Field{.key = std::string(key), .value = *value, .label = std::string(label)});
  }
}

// What the device offers; set only while a driver is registered. The JSON
// keys are the uapi's names (api_version), the text labels short (api).
void AddOffloadDevice(Record& record, const mrc::PlaneOffload& offload) {
  AddIf(record, "driver", offload.driver);
  AddLabelled(record, "api_version", "api", offload.api_version);
  if (offload.features) {
    record.Add("features", BitNames(kOffloadFeatures, *offload.features));
  }
  AddLabelled(record, "ev_table_size", "ev-table", offload.ev_table_size);
  AddLabelled(record, "max_conns", "max-conns", offload.max_conns);
  if (offload.cc_algos) {
    record.Add(Field{
        .key = "cc_algos", .value = BitNames(kOffloadCcAlgos, *offload.cc_algos), .label = "cc"});
  }
  if (offload.max_segment) {  // text leaves out "max-segment 0": no segmentation
    record.Add(Field{.key = "max_segment",
                     .value = *offload.max_segment,
                     .label = "max-segment",
                     .visibility = TextIf(*offload.max_segment != 0)});
  }
  AddIf(record, "conns", offload.conns);
}

// The plane's "offload" object: its mode and state, what the device
// offers, and the device's own counters. Text shows the mode on the
// plane's line and the rest, when a driver is registered, on a line of
// its own: "offload active driver mrc_sim api 1 ...".
Record OffloadRecord(const mrc::Plane& plane, const Options& opts) {
  Record record;
  if (plane.offload_mode) {
    record.Add(JsonOnly("mode", NameOf(kOffloadModes, *plane.offload_mode)));
  }
  if (!plane.offload) {
    return record;
  }
  const mrc::PlaneOffload& offload = *plane.offload;
  if (offload.state) {
    record.Add(Field{.key = "state",
                     .value = NameOf(kOffloadStates, *offload.state),
                     .label = "offload",
                     .visibility = TextIf(offload.driver.has_value())});
  }
  AddOffloadDevice(record, offload);
  if (offload.hook) {  // events only, on their own line (EventLine)
    record.Add(JsonOnly("hook", *offload.hook));
  }
  if (offload.error) {
    record.Add(JsonOnly("error", *offload.error));
  }
  if (offload.stats) {
    record.Counters("stats", *offload.stats, opts.stats, "device");
  }
  return record;
}

std::string Tag(mrc::EventType type) {
  std::string tag = NameOf(kEventTypes, type);
  std::transform(tag.begin(), tag.end(), tag.begin(), [](char c) {
    return c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  });
  return "[" + tag + "]";
}

// [OFFLOAD] plane 1 dev pl1 state none reason error hook conn_add error 12
std::string OffloadEventLine(const mrc::Event& event) {
  Record plane;
  Record failure;
  if (event.plane) {
    AddId(plane, "plane", event.plane->id);
    AddIf(plane, "dev", event.plane->ifname);
    if (event.plane->offload) {
      AddName(plane, "state", kOffloadStates, event.plane->offload->state);
      AddIf(failure, "hook", event.plane->offload->hook);
      AddIf(failure, "error", event.plane->offload->error);
    }
  }
  Record reason;
  AddName(reason, "reason", kEventReasons, event.reason);
  std::string line = Tag(event.type);
  for (const Record* part : {&plane, &reason, &failure}) {
    const std::string text = part->Line();
    if (!text.empty()) {
      line += " " + text;
    }
  }
  return line;
}

// "ev 40123 plane 1 assumed-bad": the state bare in text, as ip prints
// flags, since it is the reason the EV is listed.
Record PeerEvRecord(const mrc::PeerEv& ev) {
  Record record;
  record.Add("ev", ev.ev);
  record.Add("plane", ev.plane);
  record.Add(Field{.key = "state", .value = NameOf(kEvStates, ev.state), .label = ""});
  return record;
}

// The peer's plane addresses: "peer 10.0.0.2 10.1.0.2" in text, an array
// "addrs" in JSON.
Field PeerAddrs(const std::vector<mrc::IpAddress>& addrs) {
  Json values = Json::array();
  std::string text;
  for (const mrc::IpAddress& addr : addrs) {
    const std::string one = std::visit([](const auto& a) { return FormatAddress(a); }, addr);
    values.push_back(one);
    text += (text.empty() ? "" : " ") + one;
  }
  return Field{.key = "addrs",
               .value = std::move(values),
               .text = text.empty() ? "none" : text,
               .label = "peer"};
}

// The ids of the bits set in a plane mask.
Json PlaneIds(std::uint32_t mask) {
  Json ids = Json::array();
  for (unsigned int bit = 0; bit < kMaskBits; bit++) {
    if ((mask & (1U << bit)) != 0) {
      ids.push_back(bit);
    }
  }
  return ids;
}

}  // namespace

Json EventMaskNames(std::uint32_t mask) {
  Json names = Json::array();
  for (unsigned int bit = 0; bit < kMaskBits; bit++) {
    if ((mask & (1U << bit)) != 0) {
      names.push_back(NameOf(kEvStates, static_cast<mrc::EvState>(bit)));
    }
  }
  return names;
}

Record PlaneRecord(const mrc::Plane& plane, const Options& opts) {
  Record record;
  AddId(record, "plane", plane.id);
  AddIf(record, "dev", plane.ifname);
  AddIf(record, "ifindex", plane.ifindex);
  if (plane.addr4) {
    record.Add("addr", FormatAddress(*plane.addr4));
  }
  if (plane.addr6) {
    record.Add("addr6", FormatAddress(*plane.addr6));
  }
  AddIf(record, "port", plane.port);
  AddName(record, "state", kPlaneStates, plane.state);
  AddName(record, "link", kLinkStates, plane.link);
  AddIf(record, "weight", plane.weight);
  if (plane.mtu) {
    record.Add(Field{.key = "mtu",
                     .value = *plane.mtu,
                     .text = *plane.mtu == 0 ? "auto" : std::to_string(*plane.mtu)});
  }
  if (plane.offload_mode) {
    record.Add(Field{.key = "offload",
                     .value = NameOf(kOffloadModes, *plane.offload_mode),
                     .visibility = Visibility::kTextOnly});
  }
  if (plane.offload_mode || plane.offload) {
    record.Object("offload", OffloadRecord(plane, opts));
  }
  AddStats(record, plane.stats, opts);
  return record;
}

Record EvProfileRecord(const mrc::EvProfile& profile, const Options& /*opts*/) {
  Record record;
  AddId(record, "ev-profile", profile.id);
  AddName(record, "state", kProfileStates, profile.state);
  AddName(record, "mode", kEvModes, profile.mode);
  AddIf(record, "count", profile.count);
  AddIf(record, "min-active", profile.min_active);
  if (profile.event_mask) {
    record.Add("events", EventMaskNames(*profile.event_mask));
  }
  AddIf(record, "seed", profile.seed);
  AddIf(record, "users", profile.users);
  if (profile.ev) {
    record.Lines("ev", {EvRecord(*profile.ev)});
  }
  if (profile.evs) {
    std::vector<Record> evs;
    std::transform(profile.evs->begin(), profile.evs->end(), std::back_inserter(evs), EvRecord);
    record.Lines("evs", std::move(evs));
  }
  return record;
}

Record CcProfileRecord(const mrc::CcProfile& profile, const Options& /*opts*/) {
  Record record;
  AddId(record, "cc-profile", profile.id);
  AddName(record, "state", kProfileStates, profile.state);
  AddIf(record, "algorithm", profile.algorithm);
  AddIf(record, "users", profile.users);
  AddNscc(record, profile.nscc);
  return record;
}

Record ConnRecord(const mrc::Conn& conn, const Options& opts) {
  Record record;
  AddId(record, "conn", conn.id);
  AddName(record, "state", kConnStates, conn.state);
  AddIf(record, "local-port", conn.local_port);
  if (conn.peer_addr4) {
    record.Add("peer", FormatAddress(*conn.peer_addr4));
  } else if (conn.peer_addr6) {
    record.Add("peer", FormatAddress(*conn.peer_addr6));
  }
  AddIf(record, "peer-port", conn.peer_port);
  AddIf(record, "ev-profile", conn.ev_profile);
  AddIf(record, "cc-profile", conn.cc_profile);
  AddStats(record, conn.stats, opts);
  return record;
}

// Profile EV events carry CONN_ID 0 and the profile; connection paths the
// connection alone.
Record PathRecord(const mrc::Path& path, const Options& opts) {
  Record record;
  const bool of_profile = path.ev_profile && *path.ev_profile != 0;
  if (path.conn_id && (*path.conn_id != 0 || !of_profile)) {
    record.Add("conn", *path.conn_id);
  }
  if (of_profile) {
    record.Add("ev-profile", *path.ev_profile);
  }
  AddIf(record, "ev", path.ev);
  AddIf(record, "plane", path.plane);
  AddName(record, "state", kEvStates, path.state);
  AddIf(record, "rtt-us", path.rtt_us);
  record.Add(Field{.key = "probing", .value = path.probing, .flag = true});
  AddStats(record, path.stats, opts);
  return record;
}

// JSON keys are the uapi's names (idle_ms, evs_bad), as the offload
// object's; text labels are short ("idle 1234ms", "bad 4"). An entry no
// connection holds reads "idle ..." in text rather than "conns 0".
Record PeerRecord(const mrc::Peer& peer, const Options& /*opts*/) {
  Record record;
  record.Add(PeerAddrs(peer.addrs));
  const bool idle = peer.idle_ms && peer.conns.value_or(0) == 0;
  if (peer.conns) {
    record.Add(Field{.key = "conns", .value = *peer.conns, .visibility = TextIf(!idle)});
  }
  if (peer.idle_ms) {
    record.Add(Field{.key = "idle_ms",
                     .value = *peer.idle_ms,
                     .text = std::to_string(*peer.idle_ms) + "ms",
                     .label = "idle"});
  }
  AddIf(record, "evs", peer.evs);
  if (peer.planes) {
    record.Add("planes", PlaneIds(*peer.planes));
  }
  AddLabelled(record, "evs_bad", "bad", peer.evs_bad);
  std::vector<Record> bad_evs;
  std::transform(peer.bad_evs.begin(), peer.bad_evs.end(), std::back_inserter(bad_evs),
                 PeerEvRecord);
  record.Lines("bad_evs", std::move(bad_evs));
  return record;
}

Json EventJson(const mrc::Event& event, const Options& opts) {
  Json doc = Json::object();
  doc["event"] = NameOf(kEventTypes, event.type);
  if (event.plane) {
    doc["plane"] = PlaneRecord(*event.plane, opts).ToJson();
  }
  if (event.ev_profile) {
    doc["ev-profile"] = EvProfileRecord(*event.ev_profile, opts).ToJson();
  }
  if (event.cc_profile) {
    doc["cc-profile"] = CcProfileRecord(*event.cc_profile, opts).ToJson();
  }
  if (event.conn) {
    doc["conn"] = ConnRecord(*event.conn, opts).ToJson();
  }
  if (event.path) {
    doc["path"] = PathRecord(*event.path, opts).ToJson();
  }
  if (event.reason) {
    doc["reason"] = NameOf(kEventReasons, *event.reason);
  }
  return doc;
}

std::string EventLine(const mrc::Event& event, const Options& opts) {
  if (event.type == mrc::EventType::kOffload) {
    return OffloadEventLine(event);
  }
  std::string line = Tag(event.type);
  const auto append = [&line](const Record& record) { line += " " + record.Line(); };
  if (event.plane) {
    append(PlaneRecord(*event.plane, opts));
  }
  if (event.ev_profile) {
    append(EvProfileRecord(*event.ev_profile, opts));
  }
  if (event.cc_profile) {
    append(CcProfileRecord(*event.cc_profile, opts));
  }
  if (event.conn) {
    append(ConnRecord(*event.conn, opts));
  }
  if (event.path) {
    append(PathRecord(*event.path, opts));
  }
  if (event.reason) {
    line += " reason " + NameOf(kEventReasons, *event.reason);
  }
  return line;
}

}  // namespace mrcctl
