// SPDX-License-Identifier: GPL-2.0
// Request building: C++ objects -> generic netlink attributes.
#include "mrc/messages.hpp"

#include <linux/mrc_netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include <string>
#include <type_traits>

#include "mrc/error.hpp"

namespace mrc {
namespace {

// The scoped enums of types.hpp mirror the uapi numbering.
static_assert(static_cast<int>(PlaneState::kDenied) == MRC_PLANE_STATE_DENIED);
static_assert(static_cast<int>(LinkState::kUp) == MRC_LINK_UP);
static_assert(static_cast<int>(ProfileState::kOnline) == MRC_PROFILE_ONLINE);
static_assert(static_cast<int>(EvMode::kGenerated) == MRC_EV_MODE_GENERATED);
static_assert(static_cast<int>(EvState::kUnpopulated) == MRC_EV_UNPOPULATED);
static_assert(static_cast<int>(ConnState::kClosing) == MRC_CONN_CLOSING);
static_assert(static_cast<int>(EventReason::kOffloadGone) == MRC_REASON_OFFLOAD_GONE);
static_assert(static_cast<int>(EventType::kOffload) == MRC_EVENT_OFFLOAD);
static_assert(static_cast<int>(OffloadMode::kOn) == MRC_OFFLOAD_ON);
static_assert(static_cast<int>(OffloadState::kFailed) == MRC_OFFLOAD_STATE_FAILED);

// Room for an explicit EV list of MRC_MAX_EVS_PER_PROFILE entries: each EV
// nest is a header plus three u32 attributes.
constexpr std::size_t kEvNestSize = 4 + (3 * 8);
constexpr std::size_t kBaseSize = 4096;

void Check(int err) {
  if (err < 0) {
    throw Error(std::string("cannot build a netlink request: ") + nl_geterror(err));
  }
}

template <typename E>
constexpr std::underlying_type_t<E> Raw(E value) {
  return static_cast<std::underlying_type_t<E>>(value);
}

MsgPtr Allocate(int family, std::uint8_t cmd, int flags, std::size_t size) {
  MsgPtr msg(nlmsg_alloc_size(size));
  if (!msg) {
    throw Error("cannot allocate a netlink message");
  }
  if (genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
                  NLM_F_REQUEST | NLM_F_ACK | flags, cmd, MRC_GENL_VERSION) == nullptr) {
    throw Error("cannot build a netlink request header");
  }
  return msg;
}

void PutU8(nl_msg* msg, int type, const std::optional<std::uint8_t>& value) {
  if (value) {
    Check(nla_put_u8(msg, type, *value));
  }
}

void PutU16(nl_msg* msg, int type, const std::optional<std::uint16_t>& value) {
  if (value) {
    Check(nla_put_u16(msg, type, *value));
  }
}

void PutU32(nl_msg* msg, int type, const std::optional<std::uint32_t>& value) {
  if (value) {
    Check(nla_put_u32(msg, type, *value));
  }
}

template <typename E>
void PutEnum(nl_msg* msg, int type, const std::optional<E>& value) {
  static_assert(sizeof(E) == 1, "state attributes are u8");
  if (value) {
    Check(nla_put_u8(msg, type, Raw(*value)));
  }
}

void PutAddr4(nl_msg* msg, int type, const std::optional<in_addr>& addr) {
  if (addr) {
    Check(nla_put_u32(msg, type, addr->s_addr));  // already network order
  }
}

void PutAddr6(nl_msg* msg, int type, const std::optional<in6_addr>& addr) {
  if (addr) {
    Check(nla_put(msg, type, sizeof(addr->s6_addr), &addr->s6_addr));
  }
}

// Wraps the attributes `body` puts into a nest (NLA_F_NESTED is set by
// libnl, as the kernel's strict validation demands).
template <typename Body>
void PutNest(nl_msg* msg, int type, Body&& body) {
  nlattr* start = nla_nest_start(msg, type);
  if (start == nullptr) {
    Check(-NLE_NOMEM);
  }
  std::forward<Body>(body)();
  Check(nla_nest_end(msg, start));
}

void PutEv(nl_msg* msg, const Ev& ev) {
  PutNest(msg, MRC_EV_PROFILE_ATTR_EV, [&] {
    PutU32(msg, MRC_EV_ATTR_INDEX, ev.index);
    PutU32(msg, MRC_EV_ATTR_VALUE, ev.value);
    PutU32(msg, MRC_EV_ATTR_PLANE, ev.plane);
    PutEnum(msg, MRC_EV_ATTR_STATE, ev.state);
  });
}

void PutNscc(nl_msg* msg, const Nscc& nscc) {
  PutNest(msg, MRC_CC_PROFILE_ATTR_NSCC, [&] {
    PutU32(msg, MRC_NSCC_ATTR_BASE_RTT, nscc.base_rtt);
    PutU32(msg, MRC_NSCC_ATTR_TARGET_DELAY, nscc.target_delay);
    PutU32(msg, MRC_NSCC_ATTR_MAX_CWND, nscc.max_cwnd);
    PutU32(msg, MRC_NSCC_ATTR_ETA, nscc.eta);
    PutU32(msg, MRC_NSCC_ATTR_FI, nscc.fi);
    PutU32(msg, MRC_NSCC_ATTR_FI_SCALE, nscc.fi_scale);
    PutU32(msg, MRC_NSCC_ATTR_GAMMA, nscc.gamma);
    PutU32(msg, MRC_NSCC_ATTR_MAX_MD_JUMP, nscc.max_md_jump);
    PutU8(msg, MRC_NSCC_ATTR_QA_GATE, nscc.qa_gate);
    PutU32(msg, MRC_NSCC_ATTR_QA_THRESHOLD, nscc.qa_threshold);
    if (nscc.disable_qa) {
      Check(nla_put_u8(msg, MRC_NSCC_ATTR_DISABLE_QA, *nscc.disable_qa ? 1 : 0));
    }
    PutU32(msg, MRC_NSCC_ATTR_ADJUST_BYTES, nscc.adjust_bytes);
    PutU32(msg, MRC_NSCC_ATTR_ADJUST_PERIOD, nscc.adjust_period);
  });
}

MsgPtr GetRequest(int family, std::uint8_t cmd, int object_attr, int id_attr,
                  std::optional<std::uint32_t> id) {
  if (!id) {
    return Allocate(family, cmd, NLM_F_DUMP, kBaseSize);
  }
  MsgPtr msg = Allocate(family, cmd, 0, kBaseSize);
  PutNest(msg.get(), object_attr, [&] { Check(nla_put_u32(msg.get(), id_attr, *id)); });
  return msg;
}

MsgPtr IdRequest(int family, std::uint8_t cmd, int object_attr, int id_attr, std::uint32_t id) {
  return GetRequest(family, cmd, object_attr, id_attr, id);
}

std::size_t EvProfileSize(const EvProfile& profile) {
  return kBaseSize + (profile.evs ? profile.evs->size() * kEvNestSize : 0);
}

}  // namespace

MsgPtr NewRequest(int family, std::uint8_t cmd, int flags) {
  return Allocate(family, cmd, flags, kBaseSize);
}

void PutPlane(nl_msg* msg, const Plane& plane) {
  PutNest(msg, MRC_ATTR_PLANE, [&] {
    PutU32(msg, MRC_PLANE_ATTR_ID, plane.id);
    PutU32(msg, MRC_PLANE_ATTR_IFINDEX, plane.ifindex);
    PutAddr4(msg, MRC_PLANE_ATTR_ADDR4, plane.addr4);
    PutAddr6(msg, MRC_PLANE_ATTR_ADDR6, plane.addr6);
    PutU16(msg, MRC_PLANE_ATTR_PORT, plane.port);
    PutEnum(msg, MRC_PLANE_ATTR_STATE, plane.state);
    PutU32(msg, MRC_PLANE_ATTR_WEIGHT, plane.weight);
    PutU32(msg, MRC_PLANE_ATTR_MTU, plane.mtu);
    if (plane.offload_mode) {
      PutNest(msg, MRC_PLANE_ATTR_OFFLOAD,
              [&] { PutEnum(msg, MRC_OFFLOAD_ATTR_MODE, plane.offload_mode); });
    }
  });
}

void PutEvProfile(nl_msg* msg, const EvProfile& profile) {
  PutNest(msg, MRC_ATTR_EV_PROFILE, [&] {
    PutU32(msg, MRC_EV_PROFILE_ATTR_ID, profile.id);
    PutEnum(msg, MRC_EV_PROFILE_ATTR_STATE, profile.state);
    PutEnum(msg, MRC_EV_PROFILE_ATTR_MODE, profile.mode);
    PutU32(msg, MRC_EV_PROFILE_ATTR_EV_COUNT, profile.count);
    PutU32(msg, MRC_EV_PROFILE_ATTR_EV_MIN_ACTIVE, profile.min_active);
    PutU32(msg, MRC_EV_PROFILE_ATTR_EVENT_MASK, profile.event_mask);
    PutU32(msg, MRC_EV_PROFILE_ATTR_SEED, profile.seed);
    if (profile.evs) {
      PutNest(msg, MRC_EV_PROFILE_ATTR_EVS, [&] {
        for (const Ev& ev : *profile.evs) {
          PutEv(msg, ev);
        }
      });
    }
    if (profile.ev) {
      PutEv(msg, *profile.ev);
    }
  });
}

void PutCcProfile(nl_msg* msg, const CcProfile& profile) {
  PutNest(msg, MRC_ATTR_CC_PROFILE, [&] {
    PutU32(msg, MRC_CC_PROFILE_ATTR_ID, profile.id);
    PutEnum(msg, MRC_CC_PROFILE_ATTR_STATE, profile.state);
    if (profile.algorithm) {
      Check(nla_put_string(msg, MRC_CC_PROFILE_ATTR_ALGORITHM, profile.algorithm->c_str()));
    }
    if (!profile.nscc.Empty()) {
      PutNscc(msg, profile.nscc);
    }
  });
}

void PutConn(nl_msg* msg, const Conn& conn) {
  PutNest(msg, MRC_ATTR_CONN, [&] { PutU32(msg, MRC_CONN_ATTR_ID, conn.id); });
}

void PutPath(nl_msg* msg, const Path& path) {
  PutNest(msg, MRC_ATTR_PATH, [&] {
    PutU32(msg, MRC_PATH_ATTR_CONN_ID, path.conn_id);
    PutU32(msg, MRC_PATH_ATTR_EV_PROFILE, path.ev_profile);
    PutU32(msg, MRC_PATH_ATTR_EV, path.ev);
    PutU32(msg, MRC_PATH_ATTR_PLANE, path.plane);
    PutEnum(msg, MRC_PATH_ATTR_STATE, path.state);
  });
}

MsgPtr InfoGetRequest(int family) { return NewRequest(family, MRC_CMD_INFO_GET); }

MsgPtr PlaneAddRequest(int family, const Plane& plane) {
  MsgPtr msg = NewRequest(family, MRC_CMD_PLANE_ADD);
  PutPlane(msg.get(), plane);
  return msg;
}

MsgPtr PlaneDelRequest(int family, std::uint32_t id) {
  return IdRequest(family, MRC_CMD_PLANE_DEL, MRC_ATTR_PLANE, MRC_PLANE_ATTR_ID, id);
}

MsgPtr PlaneGetRequest(int family, std::optional<std::uint32_t> id) {
  return GetRequest(family, MRC_CMD_PLANE_GET, MRC_ATTR_PLANE, MRC_PLANE_ATTR_ID, id);
}

MsgPtr PlaneSetRequest(int family, const Plane& plane) {
  MsgPtr msg = NewRequest(family, MRC_CMD_PLANE_SET);
  PutPlane(msg.get(), plane);
  return msg;
}

MsgPtr EvProfileNewRequest(int family, const EvProfile& profile) {
  MsgPtr msg = Allocate(family, MRC_CMD_EV_PROFILE_NEW, 0, EvProfileSize(profile));
  PutEvProfile(msg.get(), profile);
  return msg;
}

MsgPtr EvProfileSetRequest(int family, const EvProfile& profile) {
  MsgPtr msg = Allocate(family, MRC_CMD_EV_PROFILE_SET, 0, EvProfileSize(profile));
  PutEvProfile(msg.get(), profile);
  return msg;
}

MsgPtr EvProfileGetRequest(int family, std::optional<std::uint32_t> id) {
  return GetRequest(family, MRC_CMD_EV_PROFILE_GET, MRC_ATTR_EV_PROFILE, MRC_EV_PROFILE_ATTR_ID,
                    id);
}

MsgPtr EvProfileDelRequest(int family, std::uint32_t id) {
  return IdRequest(family, MRC_CMD_EV_PROFILE_DEL, MRC_ATTR_EV_PROFILE, MRC_EV_PROFILE_ATTR_ID, id);
}

MsgPtr CcProfileNewRequest(int family, const CcProfile& profile) {
  MsgPtr msg = NewRequest(family, MRC_CMD_CC_PROFILE_NEW);
  PutCcProfile(msg.get(), profile);
  return msg;
}

MsgPtr CcProfileSetRequest(int family, const CcProfile& profile) {
  MsgPtr msg = NewRequest(family, MRC_CMD_CC_PROFILE_SET);
  PutCcProfile(msg.get(), profile);
  return msg;
}

MsgPtr CcProfileGetRequest(int family, std::optional<std::uint32_t> id) {
  return GetRequest(family, MRC_CMD_CC_PROFILE_GET, MRC_ATTR_CC_PROFILE, MRC_CC_PROFILE_ATTR_ID,
                    id);
}

MsgPtr CcProfileDelRequest(int family, std::uint32_t id) {
  return IdRequest(family, MRC_CMD_CC_PROFILE_DEL, MRC_ATTR_CC_PROFILE, MRC_CC_PROFILE_ATTR_ID, id);
}

MsgPtr ConnGetRequest(int family, std::optional<std::uint32_t> id) {
  return GetRequest(family, MRC_CMD_CONN_GET, MRC_ATTR_CONN, MRC_CONN_ATTR_ID, id);
}

MsgPtr PathGetRequest(int family, std::uint32_t conn_id) {
  MsgPtr msg = NewRequest(family, MRC_CMD_PATH_GET, NLM_F_DUMP);
  Path path;
  path.conn_id = conn_id;
  PutPath(msg.get(), path);
  return msg;
}

MsgPtr PathSetRequest(int family, const Path& path) {
  MsgPtr msg = NewRequest(family, MRC_CMD_PATH_SET);
  PutPath(msg.get(), path);
  return msg;
}

MsgPtr PathProbeRequest(int family, std::uint32_t conn_id, std::uint32_t ev) {
  MsgPtr msg = NewRequest(family, MRC_CMD_PATH_PROBE);
  Path path;
  path.conn_id = conn_id;
  path.ev = ev;
  PutPath(msg.get(), path);
  return msg;
}

MsgPtr StatsGetRequest(int family) { return NewRequest(family, MRC_CMD_STATS_GET, NLM_F_DUMP); }

MsgPtr PeerGetRequest(int family) { return NewRequest(family, MRC_CMD_PEER_GET, NLM_F_DUMP); }

}  // namespace mrc
