// SPDX-License-Identifier: GPL-2.0
// How each object of the API reads: its fields as a Record, keyed by the
// CLI keywords. Shared by the show commands and by monitor.
#pragma once

#include "output.hpp"

namespace mrcctl {

Record PlaneRecord(const mrc::Plane& plane, const Options& opts);
Record EvProfileRecord(const mrc::EvProfile& profile, const Options& opts);
Record CcProfileRecord(const mrc::CcProfile& profile, const Options& opts);
Record ConnRecord(const mrc::Conn& conn, const Options& opts);
Record PathRecord(const mrc::Path& path, const Options& opts);
Record PeerRecord(const mrc::Peer& peer, const Options& opts);

// {"event": "plane-up", "plane": {...}, "reason": "link"}
Json EventJson(const mrc::Event& event, const Options& opts);
// [PLANE_UP] plane 0 dev veth0 ... reason link
std::string EventLine(const mrc::Event& event, const Options& opts);

// The names of the EV states an event mask selects.
Json EventMaskNames(std::uint32_t mask);

}  // namespace mrcctl
