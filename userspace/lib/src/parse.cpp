// SPDX-License-Identifier: GPL-2.0
// Reply and event parsing: generic netlink attributes -> C++ objects.
#include "mrc/parse.hpp"

#include <linux/mrc_netlink.h>
#include <netlink/genl/genl.h>

#include <cstring>
#include <span>
#include <string>

#include "attrs.hpp"
#include "mrc/error.hpp"

namespace mrc {
namespace {

using detail::Attrs;
using detail::MakePolicy;

constexpr std::uint16_t kAddr6Len = 16;

// PeerEvs() reads MRC_PEER_ATTR_BAD_EVS in steps of the packed uapi size.
static_assert(sizeof(mrc_peer_ev) == 4, "struct mrc_peer_ev is 4 packed bytes on the wire");

constexpr auto kTopPolicy = MakePolicy<MRC_ATTR_MAX>({
    {MRC_ATTR_INFO, NLA_NESTED},
    {MRC_ATTR_PLANE, NLA_NESTED},
    {MRC_ATTR_EV_PROFILE, NLA_NESTED},
    {MRC_ATTR_CC_PROFILE, NLA_NESTED},
    {MRC_ATTR_CONN, NLA_NESTED},
    {MRC_ATTR_PATH, NLA_NESTED},
    {MRC_ATTR_STATS, NLA_NESTED},
    {MRC_ATTR_EVENT_REASON, NLA_U8},
    {MRC_ATTR_PEER, NLA_NESTED},
});

constexpr auto kInfoPolicy = MakePolicy<MRC_INFO_ATTR_MAX>({
    {MRC_INFO_ATTR_VERSION, NLA_STRING},
    {MRC_INFO_ATTR_FAMILY, NLA_U32},
    {MRC_INFO_ATTR_API_VERSION, NLA_U32},
    {MRC_INFO_ATTR_CAPS, NLA_U32},
    {MRC_INFO_ATTR_MAX_PLANES, NLA_U32},
    {MRC_INFO_ATTR_MAX_EV_PROFILES, NLA_U32},
    {MRC_INFO_ATTR_MAX_EVS, NLA_U32},
    {MRC_INFO_ATTR_MAX_CC_PROFILES, NLA_U32},
    {MRC_INFO_ATTR_EV_MAX_BITS, NLA_U32},
    {MRC_INFO_ATTR_CC_ALGORITHMS, NLA_NESTED},
});

constexpr auto kPlanePolicy = MakePolicy<MRC_PLANE_ATTR_MAX>({
    {MRC_PLANE_ATTR_ID, NLA_U32},
    {MRC_PLANE_ATTR_IFINDEX, NLA_U32},
    {MRC_PLANE_ATTR_IFNAME, NLA_STRING},
    {MRC_PLANE_ATTR_ADDR4, NLA_U32},
    {MRC_PLANE_ATTR_ADDR6, NLA_UNSPEC, kAddr6Len},
    {MRC_PLANE_ATTR_PORT, NLA_U16},
    {MRC_PLANE_ATTR_STATE, NLA_U8},
    {MRC_PLANE_ATTR_LINK, NLA_U8},
    {MRC_PLANE_ATTR_WEIGHT, NLA_U32},
    {MRC_PLANE_ATTR_MTU, NLA_U32},
    {MRC_PLANE_ATTR_STATS, NLA_NESTED},
    {MRC_PLANE_ATTR_OFFLOAD, NLA_NESTED},
});

constexpr auto kOffloadPolicy = MakePolicy<MRC_OFFLOAD_ATTR_MAX>({
    {MRC_OFFLOAD_ATTR_MODE, NLA_U8},
    {MRC_OFFLOAD_ATTR_STATE, NLA_U8},
    {MRC_OFFLOAD_ATTR_DRIVER, NLA_STRING},
    {MRC_OFFLOAD_ATTR_API_VERSION, NLA_U32},
    {MRC_OFFLOAD_ATTR_FEATURES, NLA_U32},
    {MRC_OFFLOAD_ATTR_EV_TABLE_SIZE, NLA_U32},
    {MRC_OFFLOAD_ATTR_MAX_CONNS, NLA_U32},
    {MRC_OFFLOAD_ATTR_CC_ALGOS, NLA_U32},
    {MRC_OFFLOAD_ATTR_MAX_SEGMENT, NLA_U32},
    {MRC_OFFLOAD_ATTR_CONNS, NLA_U32},
    {MRC_OFFLOAD_ATTR_HOOK, NLA_STRING},
    {MRC_OFFLOAD_ATTR_ERROR, NLA_U32},
    {MRC_OFFLOAD_ATTR_STATS, NLA_NESTED},
});

constexpr auto kEvProfilePolicy = MakePolicy<MRC_EV_PROFILE_ATTR_MAX>({
    {MRC_EV_PROFILE_ATTR_ID, NLA_U32},
    {MRC_EV_PROFILE_ATTR_STATE, NLA_U8},
    {MRC_EV_PROFILE_ATTR_MODE, NLA_U8},
    {MRC_EV_PROFILE_ATTR_EV_COUNT, NLA_U32},
    {MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE, NLA_U32},
    {MRC_EV_PROFILE_ATTR_EVENT_MASK, NLA_U32},
    {MRC_EV_PROFILE_ATTR_SEED, NLA_U32},
    {MRC_EV_PROFILE_ATTR_EVS, NLA_NESTED},
    {MRC_EV_PROFILE_ATTR_EV, NLA_NESTED},
    {MRC_EV_PROFILE_ATTR_USERS, NLA_U32},
});

constexpr auto kEvPolicy = MakePolicy<MRC_EV_ATTR_MAX>({
    {MRC_EV_ATTR_INDEX, NLA_U32},
    {MRC_EV_ATTR_VALUE, NLA_U32},
    {MRC_EV_ATTR_PLANE, NLA_U32},
    {MRC_EV_ATTR_STATE, NLA_U8},
});

constexpr auto kCcProfilePolicy = MakePolicy<MRC_CC_PROFILE_ATTR_MAX>({
    {MRC_CC_PROFILE_ATTR_ID, NLA_U32},
    {MRC_CC_PROFILE_ATTR_STATE, NLA_U8},
    {MRC_CC_PROFILE_ATTR_ALGORITHM, NLA_STRING},
    {MRC_CC_PROFILE_ATTR_NSCC, NLA_NESTED},
    {MRC_CC_PROFILE_ATTR_USERS, NLA_U32},
});

constexpr auto kNsccPolicy = MakePolicy<MRC_NSCC_ATTR_MAX>({
    {MRC_NSCC_ATTR_BASE_RTT, NLA_U32},
    {MRC_NSCC_ATTR_TARGET_DELAY, NLA_U32},
    {MRC_NSCC_ATTR_MAX_CWND, NLA_U32},
    {MRC_NSCC_ATTR_ETA, NLA_U32},
    {MRC_NSCC_ATTR_FI, NLA_U32},
    {MRC_NSCC_ATTR_FI_SCALE, NLA_U32},
    {MRC_NSCC_ATTR_GAMMA, NLA_U32},
    {MRC_NSCC_ATTR_MAX_MD_JUMP, NLA_U32},
    {MRC_NSCC_ATTR_QA_GATE, NLA_U8},
    {MRC_NSCC_ATTR_QA_THRESHOLD, NLA_U32},
    {MRC_NSCC_ATTR_DISABLE_QA, NLA_U8},
    {MRC_NSCC_ATTR_ADJUST_BYTES, NLA_U32},
    {MRC_NSCC_ATTR_ADJUST_PERIOD, NLA_U32},
});

constexpr auto kConnPolicy = MakePolicy<MRC_CONN_ATTR_MAX>({
    {MRC_CONN_ATTR_ID, NLA_U32},
    {MRC_CONN_ATTR_STATE, NLA_U8},
    {MRC_CONN_ATTR_LOCAL_PORT, NLA_U16},
    {MRC_CONN_ATTR_PEER_PORT, NLA_U16},
    {MRC_CONN_ATTR_PEER_ADDR4, NLA_U32},
    {MRC_CONN_ATTR_PEER_ADDR6, NLA_UNSPEC, kAddr6Len},
    {MRC_CONN_ATTR_EV_PROFILE, NLA_U32},
    {MRC_CONN_ATTR_CC_PROFILE, NLA_U32},
    {MRC_CONN_ATTR_STATS, NLA_NESTED},
});

constexpr auto kPathPolicy = MakePolicy<MRC_PATH_ATTR_MAX>({
    {MRC_PATH_ATTR_CONN_ID, NLA_U32},
    {MRC_PATH_ATTR_EV_PROFILE, NLA_U32},
    {MRC_PATH_ATTR_EV, NLA_U32},
    {MRC_PATH_ATTR_PLANE, NLA_U32},
    {MRC_PATH_ATTR_STATE, NLA_U8},
    {MRC_PATH_ATTR_PROBING, NLA_FLAG},
    {MRC_PATH_ATTR_RTT_US, NLA_U32},
    {MRC_PATH_ATTR_STATS, NLA_NESTED},
});

// BAD_EVS has no fixed length: PeerEvs() checks it.
constexpr auto kPeerPolicy = MakePolicy<MRC_PEER_ATTR_MAX>({
    {MRC_PEER_ATTR_ADDR4, NLA_U32},
    {MRC_PEER_ATTR_ADDR6, NLA_UNSPEC, kAddr6Len},
    {MRC_PEER_ATTR_CONNS, NLA_U32},
    {MRC_PEER_ATTR_IDLE_MS, NLA_U32},
    {MRC_PEER_ATTR_EVS, NLA_U32},
    {MRC_PEER_ATTR_PLANES, NLA_U32},
    {MRC_PEER_ATTR_EVS_BAD, NLA_U32},
    {MRC_PEER_ATTR_BAD_EVS, NLA_UNSPEC},
});

constexpr auto kStatsEntryPolicy = MakePolicy<MRC_STATS_ATTR_MAX>({
    {MRC_STATS_ATTR_NAME, NLA_STRING},
    {MRC_STATS_ATTR_VALUE, NLA_U64},
});

// Calls `fn` for every attribute directly inside `nest`, in order.
template <typename Fn>
void ForEachIn(nlattr* nest, Fn&& fn) {
  nlattr* pos = nullptr;
  int rem = 0;
  nla_for_each_nested(pos, nest, rem) { fn(pos); }
}

// Calls `fn` for every attribute of type `type` directly inside `nest`.
template <typename Fn>
void ForEachNested(nlattr* nest, int type, Fn&& fn) {
  ForEachIn(nest, [&](nlattr* attr) {
    if (nla_type(attr) == type) {
      fn(attr);
    }
  });
}

std::optional<Stats> OptionalStats(nlattr* nest) {
  return nest != nullptr ? std::optional<Stats>(ParseStats(nest)) : std::nullopt;
}

// A plane's OFFLOAD nest: its mode goes to the plane, the rest to `offload`.
void ParseOffload(nlattr* nest, Plane& plane) {
  const Attrs<MRC_OFFLOAD_ATTR_MAX> a(nest, kOffloadPolicy, "OFFLOAD");
  plane.offload_mode = a.Enum<OffloadMode>(MRC_OFFLOAD_ATTR_MODE);
  plane.offload = PlaneOffload{
      .state = a.Enum<OffloadState>(MRC_OFFLOAD_ATTR_STATE),
      .driver = a.String(MRC_OFFLOAD_ATTR_DRIVER),
      .api_version = a.U32(MRC_OFFLOAD_ATTR_API_VERSION),
      .features = a.U32(MRC_OFFLOAD_ATTR_FEATURES),
      .ev_table_size = a.U32(MRC_OFFLOAD_ATTR_EV_TABLE_SIZE),
      .max_conns = a.U32(MRC_OFFLOAD_ATTR_MAX_CONNS),
      .cc_algos = a.U32(MRC_OFFLOAD_ATTR_CC_ALGOS),
      .max_segment = a.U32(MRC_OFFLOAD_ATTR_MAX_SEGMENT),
      .conns = a.U32(MRC_OFFLOAD_ATTR_CONNS),
      .stats = OptionalStats(a[MRC_OFFLOAD_ATTR_STATS]),
      .hook = a.String(MRC_OFFLOAD_ATTR_HOOK),
      .error = a.U32(MRC_OFFLOAD_ATTR_ERROR),
  };
}

Ev ParseEv(nlattr* nest) {
  const Attrs<MRC_EV_ATTR_MAX> a(nest, kEvPolicy, "EV");
  return Ev{
      .index = a.U32(MRC_EV_ATTR_INDEX),
      .value = a.U32(MRC_EV_ATTR_VALUE),
      .plane = a.U32(MRC_EV_ATTR_PLANE),
      .state = a.Enum<EvState>(MRC_EV_ATTR_STATE),
  };
}

Nscc ParseNscc(nlattr* nest) {
  const Attrs<MRC_NSCC_ATTR_MAX> a(nest, kNsccPolicy, "NSCC");
  const auto disable_qa = a.U8(MRC_NSCC_ATTR_DISABLE_QA);
  return Nscc{
      .base_rtt = a.U32(MRC_NSCC_ATTR_BASE_RTT),
      .target_delay = a.U32(MRC_NSCC_ATTR_TARGET_DELAY),
      .max_cwnd = a.U32(MRC_NSCC_ATTR_MAX_CWND),
      .eta = a.U32(MRC_NSCC_ATTR_ETA),
      .fi = a.U32(MRC_NSCC_ATTR_FI),
      .fi_scale = a.U32(MRC_NSCC_ATTR_FI_SCALE),
      .gamma = a.U32(MRC_NSCC_ATTR_GAMMA),
      .max_md_jump = a.U32(MRC_NSCC_ATTR_MAX_MD_JUMP),
      .qa_gate = a.U8(MRC_NSCC_ATTR_QA_GATE),
      .qa_threshold = a.U32(MRC_NSCC_ATTR_QA_THRESHOLD),
      .disable_qa = disable_qa ? std::optional<bool>(*disable_qa != 0) : std::nullopt,
      .adjust_bytes = a.U32(MRC_NSCC_ATTR_ADJUST_BYTES),
      .adjust_period = a.U32(MRC_NSCC_ATTR_ADJUST_PERIOD),
  };
}

// A peer's ADDR4 and ADDR6 attributes, which repeat, in the kernel's order:
// Attrs keeps only the last of a type. Attrs validated every one's size.
std::vector<IpAddress> PeerAddrs(nlattr* nest) {
  std::vector<IpAddress> addrs;
  ForEachIn(nest, [&](nlattr* attr) {
    if (nla_type(attr) == MRC_PEER_ATTR_ADDR4) {
      addrs.emplace_back(in_addr{.s_addr = nla_get_u32(attr)});
    } else if (nla_type(attr) == MRC_PEER_ATTR_ADDR6) {
      in6_addr addr{};
      std::memcpy(&addr, nla_data(attr), sizeof(addr));
      addrs.emplace_back(addr);
    }
  });
  return addrs;
}

// MRC_PEER_ATTR_BAD_EVS: struct mrc_peer_ev after struct mrc_peer_ev, in
// host order. A length that is no multiple of the struct is refused
// rather than read past.
std::vector<PeerEv> PeerEvs(const nlattr* attr) {
  const std::span bytes(static_cast<const std::uint8_t*>(nla_data(attr)),
                        static_cast<std::size_t>(nla_len(attr)));
  if (bytes.size() % sizeof(mrc_peer_ev) != 0) {
    throw Error("malformed PEER attributes from the kernel: BAD_EVS is " +
                std::to_string(bytes.size()) + " bytes, not a multiple of " +
                std::to_string(sizeof(mrc_peer_ev)));
  }
  std::vector<PeerEv> evs;
  evs.reserve(bytes.size() / sizeof(mrc_peer_ev));
  for (std::size_t at = 0; at < bytes.size(); at += sizeof(mrc_peer_ev)) {
    mrc_peer_ev raw{};
    std::memcpy(&raw, bytes.subspan(at, sizeof(raw)).data(), sizeof(raw));
    evs.push_back({.ev = raw.ev, .plane = raw.plane, .state = static_cast<EvState>(raw.state)});
  }
  return evs;
}

// The top-level attributes of a message from the mrc family.
Attrs<MRC_ATTR_MAX> ParseTop(nl_msg* msg) {
  Attrs<MRC_ATTR_MAX> top;
  Attrs<MRC_ATTR_MAX>::Check(
      genlmsg_parse(nlmsg_hdr(msg), 0, top.data(), MRC_ATTR_MAX, kTopPolicy.data()), "message");
  return top;
}

nlattr* Require(const Attrs<MRC_ATTR_MAX>& top, int type, const char* what) {
  nlattr* nest = top[type];
  if (nest == nullptr) {
    throw Error(std::string("the kernel's reply has no ") + what + " attribute");
  }
  return nest;
}

}  // namespace

Stats ParseStats(nlattr* nest) {
  Stats stats;
  ForEachNested(nest, MRC_STATS_ATTR_ENTRY, [&](nlattr* entry) {
    const Attrs<MRC_STATS_ATTR_MAX> a(entry, kStatsEntryPolicy, "STATS entry");
    auto name = a.String(MRC_STATS_ATTR_NAME);
    const auto value = a.U64(MRC_STATS_ATTR_VALUE);
    if (!name || !value) {
      throw Error("malformed STATS entry from the kernel: NAME or VALUE missing");
    }
    stats.push_back({.name = std::move(*name), .value = *value});
  });
  return stats;
}

Info ParseInfo(nlattr* nest) {
  const Attrs<MRC_INFO_ATTR_MAX> a(nest, kInfoPolicy, "INFO");
  Info info{
      .version = a.String(MRC_INFO_ATTR_VERSION).value_or(""),
      .family = a.U32(MRC_INFO_ATTR_FAMILY).value_or(0),
      .api_version = a.U32(MRC_INFO_ATTR_API_VERSION).value_or(0),
      .caps = a.U32(MRC_INFO_ATTR_CAPS).value_or(0),
      .max_planes = a.U32(MRC_INFO_ATTR_MAX_PLANES).value_or(0),
      .max_ev_profiles = a.U32(MRC_INFO_ATTR_MAX_EV_PROFILES).value_or(0),
      .max_evs = a.U32(MRC_INFO_ATTR_MAX_EVS).value_or(0),
      .max_cc_profiles = a.U32(MRC_INFO_ATTR_MAX_CC_PROFILES).value_or(0),
      .ev_max_bits = a.U32(MRC_INFO_ATTR_EV_MAX_BITS).value_or(0),
      .cc_algorithms = {},
  };
  if (nlattr* algorithms = a[MRC_INFO_ATTR_CC_ALGORITHMS]) {
    ForEachNested(algorithms, MRC_INFO_ATTR_CC_ALGORITHM, [&](const nlattr* name) {
      info.cc_algorithms.push_back(detail::AttrString(name));
    });
  }
  return info;
}

Plane ParsePlane(nlattr* nest) {
  const Attrs<MRC_PLANE_ATTR_MAX> a(nest, kPlanePolicy, "PLANE");
  Plane plane{
      .id = a.U32(MRC_PLANE_ATTR_ID),
      .ifindex = a.U32(MRC_PLANE_ATTR_IFINDEX),
      .ifname = a.String(MRC_PLANE_ATTR_IFNAME),
      .addr4 = a.Addr4(MRC_PLANE_ATTR_ADDR4),
      .addr6 = a.Addr6(MRC_PLANE_ATTR_ADDR6),
      .port = a.U16(MRC_PLANE_ATTR_PORT),
      .state = a.Enum<PlaneState>(MRC_PLANE_ATTR_STATE),
      .link = a.Enum<LinkState>(MRC_PLANE_ATTR_LINK),
      .weight = a.U32(MRC_PLANE_ATTR_WEIGHT),
      .mtu = a.U32(MRC_PLANE_ATTR_MTU),
      .offload_mode = std::nullopt,
      .stats = OptionalStats(a[MRC_PLANE_ATTR_STATS]),
      .offload = std::nullopt,
  };
  if (nlattr* offload = a[MRC_PLANE_ATTR_OFFLOAD]) {
    ParseOffload(offload, plane);
  }
  return plane;
}

EvProfile ParseEvProfile(nlattr* nest) {
  const Attrs<MRC_EV_PROFILE_ATTR_MAX> a(nest, kEvProfilePolicy, "EV_PROFILE");
  EvProfile profile{
      .id = a.U32(MRC_EV_PROFILE_ATTR_ID),
      .state = a.Enum<ProfileState>(MRC_EV_PROFILE_ATTR_STATE),
      .mode = a.Enum<EvMode>(MRC_EV_PROFILE_ATTR_MODE),
      .count = a.U32(MRC_EV_PROFILE_ATTR_EV_COUNT),
      .min_active = a.U32(MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE),
      .event_mask = a.U32(MRC_EV_PROFILE_ATTR_EVENT_MASK),
      .seed = a.U32(MRC_EV_PROFILE_ATTR_SEED),
      .evs = std::nullopt,
      .ev = std::nullopt,
      .users = a.U32(MRC_EV_PROFILE_ATTR_USERS),
  };
  if (nlattr* evs = a[MRC_EV_PROFILE_ATTR_EVS]) {
    profile.evs.emplace();
    ForEachNested(evs, MRC_EV_PROFILE_ATTR_EV,
                  [&](nlattr* ev) { profile.evs->push_back(ParseEv(ev)); });
  }
  if (nlattr* ev = a[MRC_EV_PROFILE_ATTR_EV]) {
    profile.ev = ParseEv(ev);
  }
  return profile;
}

CcProfile ParseCcProfile(nlattr* nest) {
  const Attrs<MRC_CC_PROFILE_ATTR_MAX> a(nest, kCcProfilePolicy, "CC_PROFILE");
  nlattr* nscc = a[MRC_CC_PROFILE_ATTR_NSCC];
  return CcProfile{
      .id = a.U32(MRC_CC_PROFILE_ATTR_ID),
      .state = a.Enum<ProfileState>(MRC_CC_PROFILE_ATTR_STATE),
      .algorithm = a.String(MRC_CC_PROFILE_ATTR_ALGORITHM),
      .nscc = nscc != nullptr ? ParseNscc(nscc) : Nscc{},
      .users = a.U32(MRC_CC_PROFILE_ATTR_USERS),
  };
}

Conn ParseConn(nlattr* nest) {
  const Attrs<MRC_CONN_ATTR_MAX> a(nest, kConnPolicy, "CONN");
  return Conn{
      .id = a.U32(MRC_CONN_ATTR_ID),
      .state = a.Enum<ConnState>(MRC_CONN_ATTR_STATE),
      .local_port = a.U16(MRC_CONN_ATTR_LOCAL_PORT),
      .peer_port = a.U16(MRC_CONN_ATTR_PEER_PORT),
      .peer_addr4 = a.Addr4(MRC_CONN_ATTR_PEER_ADDR4),
      .peer_addr6 = a.Addr6(MRC_CONN_ATTR_PEER_ADDR6),
      .ev_profile = a.U32(MRC_CONN_ATTR_EV_PROFILE),
      .cc_profile = a.U32(MRC_CONN_ATTR_CC_PROFILE),
      .stats = OptionalStats(a[MRC_CONN_ATTR_STATS]),
  };
}

Path ParsePath(nlattr* nest) {
  const Attrs<MRC_PATH_ATTR_MAX> a(nest, kPathPolicy, "PATH");
  return Path{
      .conn_id = a.U32(MRC_PATH_ATTR_CONN_ID),
      .ev_profile = a.U32(MRC_PATH_ATTR_EV_PROFILE),
      .ev = a.U32(MRC_PATH_ATTR_EV),
      .plane = a.U32(MRC_PATH_ATTR_PLANE),
      .state = a.Enum<EvState>(MRC_PATH_ATTR_STATE),
      .probing = a.Flag(MRC_PATH_ATTR_PROBING),
      .rtt_us = a.U32(MRC_PATH_ATTR_RTT_US),
      .stats = OptionalStats(a[MRC_PATH_ATTR_STATS]),
  };
}

Peer ParsePeer(nlattr* nest) {
  const Attrs<MRC_PEER_ATTR_MAX> a(nest, kPeerPolicy, "PEER");
  const nlattr* bad_evs = a[MRC_PEER_ATTR_BAD_EVS];
  return Peer{
      .addrs = PeerAddrs(nest),
      .conns = a.U32(MRC_PEER_ATTR_CONNS),
      .idle_ms = a.U32(MRC_PEER_ATTR_IDLE_MS),
      .evs = a.U32(MRC_PEER_ATTR_EVS),
      .planes = a.U32(MRC_PEER_ATTR_PLANES),
      .evs_bad = a.U32(MRC_PEER_ATTR_EVS_BAD),
      .bad_evs = bad_evs != nullptr ? PeerEvs(bad_evs) : std::vector<PeerEv>{},
  };
}

Info ParseInfoMessage(nl_msg* msg) {
  return ParseInfo(Require(ParseTop(msg), MRC_ATTR_INFO, "INFO"));
}

Plane ParsePlaneMessage(nl_msg* msg) {
  return ParsePlane(Require(ParseTop(msg), MRC_ATTR_PLANE, "PLANE"));
}

EvProfile ParseEvProfileMessage(nl_msg* msg) {
  return ParseEvProfile(Require(ParseTop(msg), MRC_ATTR_EV_PROFILE, "EV_PROFILE"));
}

CcProfile ParseCcProfileMessage(nl_msg* msg) {
  return ParseCcProfile(Require(ParseTop(msg), MRC_ATTR_CC_PROFILE, "CC_PROFILE"));
}

Conn ParseConnMessage(nl_msg* msg) {
  return ParseConn(Require(ParseTop(msg), MRC_ATTR_CONN, "CONN"));
}

Path ParsePathMessage(nl_msg* msg) {
  return ParsePath(Require(ParseTop(msg), MRC_ATTR_PATH, "PATH"));
}

Peer ParsePeerMessage(nl_msg* msg) {
  return ParsePeer(Require(ParseTop(msg), MRC_ATTR_PEER, "PEER"));
}

void ParseStatsMessage(nl_msg* msg, StatsReport& report) {
  const auto top = ParseTop(msg);
  if (nlattr* stats = top[MRC_ATTR_STATS]) {
    Stats global = ParseStats(stats);
    report.global.insert(report.global.end(), global.begin(), global.end());
  }
  if (nlattr* plane = top[MRC_ATTR_PLANE]) {
    report.planes.push_back(ParsePlane(plane));
  }
}

Event ParseEventMessage(nl_msg* msg) {
  const auto top = ParseTop(msg);
  Event event{
      .type = static_cast<EventType>(genlmsg_hdr(nlmsg_hdr(msg))->cmd),
      .reason = top.Enum<EventReason>(MRC_ATTR_EVENT_REASON),
      .plane = std::nullopt,
      .ev_profile = std::nullopt,
      .cc_profile = std::nullopt,
      .conn = std::nullopt,
      .path = std::nullopt,
  };
  if (nlattr* nest = top[MRC_ATTR_PLANE]) {
    event.plane = ParsePlane(nest);
  }
  if (nlattr* nest = top[MRC_ATTR_EV_PROFILE]) {
    event.ev_profile = ParseEvProfile(nest);
  }
  if (nlattr* nest = top[MRC_ATTR_CC_PROFILE]) {
    event.cc_profile = ParseCcProfile(nest);
  }
  if (nlattr* nest = top[MRC_ATTR_CONN]) {
    event.conn = ParseConn(nest);
  }
  if (nlattr* nest = top[MRC_ATTR_PATH]) {
    event.path = ParsePath(nest);
  }
  return event;
}

}  // namespace mrc
