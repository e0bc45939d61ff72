// SPDX-License-Identifier: GPL-2.0
// Reply and event parsing: generic netlink messages from the kernel -> C++
// objects. Attributes are validated against libnl policies (type and
// size); attributes this version does not know are ignored, a malformed
// one throws mrc::Error. Kept apart from the socket so tests can feed
// messages crafted the way the kernel sends them.
#pragma once

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "mrc/types.hpp"

namespace mrc {

// One object nest (the attribute itself, e.g. the MRC_ATTR_PLANE one).
Info ParseInfo(nlattr* nest);
Plane ParsePlane(nlattr* nest);
EvProfile ParseEvProfile(nlattr* nest);
CcProfile ParseCcProfile(nlattr* nest);
Conn ParseConn(nlattr* nest);
Path ParsePath(nlattr* nest);
Stats ParseStats(nlattr* nest);
Peer ParsePeer(nlattr* nest);

// A whole message whose top level must carry the object's nest.
Info ParseInfoMessage(nl_msg* msg);
Plane ParsePlaneMessage(nl_msg* msg);
EvProfile ParseEvProfileMessage(nl_msg* msg);
CcProfile ParseCcProfileMessage(nl_msg* msg);
Conn ParseConnMessage(nl_msg* msg);
Path ParsePathMessage(nl_msg* msg);
Peer ParsePeerMessage(nl_msg* msg);

// One message of the STATS_GET reply: MRC_ATTR_STATS (global counters) or
// MRC_ATTR_PLANE{ID, STATS}; adds what it carries to `report`.
void ParseStatsMessage(nl_msg* msg, StatsReport& report);

// A message of the "events" group: the genl command is the event type.
Event ParseEventMessage(nl_msg* msg);

}  // namespace mrc
