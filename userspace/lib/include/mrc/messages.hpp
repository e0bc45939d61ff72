// SPDX-License-Identifier: GPL-2.0
// Building requests: one function per command of linux/mrc_netlink.h, each
// returning a complete generic netlink message (NLM_F_REQUEST | NLM_F_ACK,
// NLM_F_DUMP for dumps) that carries only the attributes that are set, in
// exactly the types the header documents. Reply-only fields (ifname, link,
// users, stats, a plane's offload but its mode) are never sent. Kept apart
// from the socket so tests can parse what would go to the kernel.
#pragma once

#include <cstdint>
#include <optional>

#include "mrc/netlink.hpp"
#include "mrc/types.hpp"

namespace mrc {

// A bare request for `cmd` of generic netlink family `family`.
MsgPtr NewRequest(int family, std::uint8_t cmd, int flags = 0);

MsgPtr InfoGetRequest(int family);

MsgPtr PlaneAddRequest(int family, const Plane& plane);
MsgPtr PlaneDelRequest(int family, std::uint32_t id);
MsgPtr PlaneGetRequest(int family, std::optional<std::uint32_t> id);  // nullopt: dump
MsgPtr PlaneSetRequest(int family, const Plane& plane);

MsgPtr EvProfileNewRequest(int family, const EvProfile& profile);
MsgPtr EvProfileSetRequest(int family, const EvProfile& profile);
MsgPtr EvProfileGetRequest(int family, std::optional<std::uint32_t> id);
MsgPtr EvProfileDelRequest(int family, std::uint32_t id);

MsgPtr CcProfileNewRequest(int family, const CcProfile& profile);
MsgPtr CcProfileSetRequest(int family, const CcProfile& profile);
MsgPtr CcProfileGetRequest(int family, std::optional<std::uint32_t> id);
MsgPtr CcProfileDelRequest(int family, std::uint32_t id);

MsgPtr ConnGetRequest(int family, std::optional<std::uint32_t> id);

MsgPtr PathGetRequest(int family, std::uint32_t conn_id);  // a dump
MsgPtr PathSetRequest(int family, const Path& path);       // CONN_ID, EV, STATE
MsgPtr PathProbeRequest(int family, std::uint32_t conn_id, std::uint32_t ev);

MsgPtr StatsGetRequest(int family);  // a dump: global, then one per plane

MsgPtr PeerGetRequest(int family);  // a dump without attributes: one PEER a peer

// The object nests on their own, for requests assembled by hand.
void PutPlane(nl_msg* msg, const Plane& plane);
void PutEvProfile(nl_msg* msg, const EvProfile& profile);
void PutCcProfile(nl_msg* msg, const CcProfile& profile);
void PutConn(nl_msg* msg, const Conn& conn);
void PutPath(nl_msg* msg, const Path& path);

}  // namespace mrc
