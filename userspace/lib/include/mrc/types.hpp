// SPDX-License-Identifier: GPL-2.0
// The objects of the mrc generic netlink API (linux/mrc_netlink.h) as C++
// values. Every attribute is a std::optional: a request carries exactly the
// ones that are set, a parsed reply sets the ones the kernel sent.
#pragma once

#include <netinet/in.h>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mrc {

// Scoped views of the uapi enums; any wire value fits (newer kernels).
enum class PlaneState : std::uint8_t { kUp, kDown, kDenied };
enum class LinkState : std::uint8_t { kDown, kUp };
enum class ProfileState : std::uint8_t { kInit, kOffline, kOnline };
enum class EvMode : std::uint8_t { kAuto, kExplicit, kGenerated };
enum class EvState : std::uint8_t { kGood, kSkip, kAssumedBad, kDenied, kUnpopulated };
enum class ConnState : std::uint8_t { kClosed, kConnecting, kEstablished, kClosing };
enum class EventReason : std::uint8_t {
  kNone,
  kAdmin,
  kLink,
  kNetdevGone,
  kPeer,
  kTimeout,
  kOffloadAttach,
  kOffloadError,
  kOffloadReset,
  kOffloadGone,
};
enum class EventType : std::uint8_t {
  kUnspec = 128,
  kPlaneNew,
  kPlaneDel,
  kPlaneUp,
  kPlaneDown,
  kProfileState,
  kEvState,
  kConnEstablished,
  kConnClosed,
  kOffload,
};
enum class OffloadMode : std::uint8_t { kAuto, kOff, kOn };
enum class OffloadState : std::uint8_t { kNone, kActive, kFailed };

// One self-describing counter (MRC_STATS_ATTR_ENTRY).
struct Counter {
  std::string name{};
  std::uint64_t value = 0;

  bool operator==(const Counter&) const = default;
};
using Stats = std::vector<Counter>;

struct Info {
  std::string version{};
  std::uint32_t family = 0;
  std::uint32_t api_version = 0;
  std::uint32_t caps = 0;  // enum mrc_cap bits
  std::uint32_t max_planes = 0;
  std::uint32_t max_ev_profiles = 0;
  std::uint32_t max_evs = 0;
  std::uint32_t max_cc_profiles = 0;
  std::uint32_t ev_max_bits = 0;
  std::vector<std::string> cc_algorithms{};
};

// A plane's NIC offload as the kernel reports it (MRC_PLANE_ATTR_OFFLOAD
// without its MODE, which is Plane::offload_mode). The device's fields are
// set only while an offload driver is registered for the netdev; hook and
// error only in MRC_EVENT_OFFLOAD events of a failure.
struct PlaneOffload {
  std::optional<OffloadState> state{};
  std::optional<std::string> driver{};
  std::optional<std::uint32_t> api_version{};
  std::optional<std::uint32_t> features{};  // enum mrc_offload_feature bits
  std::optional<std::uint32_t> ev_table_size{};
  std::optional<std::uint32_t> max_conns{};
  std::optional<std::uint32_t> cc_algos{};     // enum mrc_offload_cc_algo bits
  std::optional<std::uint32_t> max_segment{};  // 0: no segmentation
  std::optional<std::uint32_t> conns{};
  std::optional<Stats> stats{};  // the device's own counters
  std::optional<std::string> hook{};
  std::optional<std::uint32_t> error{};  // a positive errno
};

struct Plane {
  std::optional<std::uint32_t> id{};
  std::optional<std::uint32_t> ifindex{};
  std::optional<std::string> ifname{};  // reply only
  std::optional<in_addr> addr4{};       // s_addr in network order, as on the wire
  std::optional<in6_addr> addr6{};
  std::optional<std::uint16_t> port{};
  std::optional<PlaneState> state{};
  std::optional<LinkState> link{};  // reply only
  std::optional<std::uint32_t> weight{};
  std::optional<std::uint32_t> mtu{};         // 0: follow the netdev
  std::optional<OffloadMode> offload_mode{};  // MODE of the OFFLOAD nest
  std::optional<Stats> stats{};               // reply only
  std::optional<PlaneOffload> offload{};      // reply only
};

// One EV slot of a profile, or (in EvProfile::ev) an EV state change.
struct Ev {
  std::optional<std::uint32_t> index{};
  std::optional<std::uint32_t> value{};
  std::optional<std::uint32_t> plane{};
  std::optional<EvState> state{};

  bool operator==(const Ev&) const = default;
};

struct EvProfile {
  std::optional<std::uint32_t> id{};
  std::optional<ProfileState> state{};
  std::optional<EvMode> mode{};
  std::optional<std::uint32_t> count{};
  std::optional<std::uint32_t> min_active{};
  std::optional<std::uint32_t> event_mask{};  // bits (1 << EvState)
  std::optional<std::uint32_t> seed{};
  std::optional<std::vector<Ev>> evs{};  // MRC_EV_PROFILE_ATTR_EVS
  std::optional<Ev> ev{};                // a single MRC_EV_PROFILE_ATTR_EV
  std::optional<std::uint32_t> users{};  // reply only
};

// NSCC parameters; gains in parts per million.
struct Nscc {
  std::optional<std::uint32_t> base_rtt{};
  std::optional<std::uint32_t> target_delay{};
  std::optional<std::uint32_t> max_cwnd{};
  std::optional<std::uint32_t> eta{};
  std::optional<std::uint32_t> fi{};
  std::optional<std::uint32_t> fi_scale{};
  std::optional<std::uint32_t> gamma{};
  std::optional<std::uint32_t> max_md_jump{};
  std::optional<std::uint8_t> qa_gate{};
  std::optional<std::uint32_t> qa_threshold{};
  std::optional<bool> disable_qa{};
  std::optional<std::uint32_t> adjust_bytes{};
  std::optional<std::uint32_t> adjust_period{};

  bool operator==(const Nscc&) const = default;
  [[nodiscard]] bool Empty() const { return *this == Nscc{}; }
};

struct CcProfile {
  std::optional<std::uint32_t> id{};
  std::optional<ProfileState> state{};
  std::optional<std::string> algorithm{};
  Nscc nscc{};                           // sent as a nest only when not Empty()
  std::optional<std::uint32_t> users{};  // reply only
};

struct Conn {
  std::optional<std::uint32_t> id{};
  std::optional<ConnState> state{};
  std::optional<std::uint16_t> local_port{};
  std::optional<std::uint16_t> peer_port{};
  std::optional<in_addr> peer_addr4{};
  std::optional<in6_addr> peer_addr6{};
  std::optional<std::uint32_t> ev_profile{};
  std::optional<std::uint32_t> cc_profile{};
  std::optional<Stats> stats{};
};

struct Path {
  std::optional<std::uint32_t> conn_id{};
  std::optional<std::uint32_t> ev_profile{};
  std::optional<std::uint32_t> ev{};
  std::optional<std::uint32_t> plane{};
  std::optional<EvState> state{};
  bool probing = false;  // flag attribute
  std::optional<std::uint32_t> rtt_us{};
  std::optional<Stats> stats{};
};

// An IPv4 (s_addr in network order) or IPv6 address, where one list holds
// both in the kernel's order.
using IpAddress = std::variant<in_addr, in6_addr>;

// One EV of a peer's bad EVs (struct mrc_peer_ev).
struct PeerEv {
  std::uint16_t ev = 0;
  std::uint8_t plane = 0;
  EvState state = EvState::kAssumedBad;

  bool operator==(const PeerEv&) const = default;
};

// A peer host of the namespace's peer table (MRC_CMD_PEER_GET; reply only).
// The attributes that may repeat or be left out for "none" are vectors.
struct Peer {
  std::vector<IpAddress> addrs{};          // its plane addresses
  std::optional<std::uint32_t> conns{};    // connections holding the entry
  std::optional<std::uint32_t> idle_ms{};  // only while none holds it
  std::optional<std::uint32_t> evs{};      // EVs learned; 0: nothing yet
  std::optional<std::uint32_t> planes{};   // bit p: plane p both ends had
  std::optional<std::uint32_t> evs_bad{};
  std::vector<PeerEv> bad_evs{};
};

// The reply to MRC_CMD_STATS_GET: global counters, then per plane.
struct StatsReport {
  Stats global{};
  std::vector<Plane> planes{};  // id (and ifname) + stats
};

// A message of the "events" multicast group.
struct Event {
  EventType type = EventType::kUnspec;
  std::optional<EventReason> reason{};
  std::optional<Plane> plane{};
  std::optional<EvProfile> ev_profile{};
  std::optional<CcProfile> cc_profile{};
  std::optional<Conn> conn{};
  std::optional<Path> path{};
};

}  // namespace mrc
