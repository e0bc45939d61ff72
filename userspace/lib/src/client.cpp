// SPDX-License-Identifier: GPL-2.0
// mrc::Client: each Control method is a request from messages.cpp sent on
// the NetlinkSocket, its answer read with parse.cpp.
#include "mrc/client.hpp"

#include <linux/mrc_netlink.h>

#include <string>

#include "mrc/messages.hpp"
#include "mrc/parse.hpp"

namespace mrc {
namespace {

// Every reply message of `msg`'s answer, parsed by `parse`.
template <typename Parse>
auto Collect(NetlinkSocket& sock, const MsgPtr& msg, Parse parse) {
  std::vector<decltype(parse(nullptr))> objects;
  sock.Transact(msg.get(), [&](nl_msg* reply) { objects.push_back(parse(reply)); });
  return objects;
}

template <typename T>
std::optional<T> First(std::vector<T>&& objects) {
  if (objects.empty()) {
    return std::nullopt;
  }
  return std::move(objects.front());
}

template <typename T>
T Only(std::vector<T>&& objects, const char* what) {
  if (objects.empty()) {
    throw Error(std::string("the kernel sent no ") + what);
  }
  return std::move(objects.front());
}

void Ignore(nl_msg* /*reply*/) {}

}  // namespace

Client::Client() : family_(sock_.ResolveFamily(MRC_GENL_NAME, std::string(kFamilyMissing))) {}

Info Client::GetInfo() {
  return Only(Collect(sock_, InfoGetRequest(family_), ParseInfoMessage), "INFO");
}

std::optional<Plane> Client::AddPlane(const Plane& plane) {
  return First(Collect(sock_, PlaneAddRequest(family_, plane), ParsePlaneMessage));
}

void Client::DelPlane(std::uint32_t id) {
  sock_.Transact(PlaneDelRequest(family_, id).get(), Ignore);
}

std::optional<Plane> Client::SetPlane(const Plane& plane) {
  return First(Collect(sock_, PlaneSetRequest(family_, plane), ParsePlaneMessage));
}

Plane Client::GetPlane(std::uint32_t id) {
  return Only(Collect(sock_, PlaneGetRequest(family_, id), ParsePlaneMessage), "PLANE");
}

std::vector<Plane> Client::DumpPlanes() {
  return Collect(sock_, PlaneGetRequest(family_, std::nullopt), ParsePlaneMessage);
}

std::optional<EvProfile> Client::NewEvProfile(const EvProfile& profile) {
  return First(Collect(sock_, EvProfileNewRequest(family_, profile), ParseEvProfileMessage));
}

std::optional<EvProfile> Client::SetEvProfile(const EvProfile& profile) {
  return First(Collect(sock_, EvProfileSetRequest(family_, profile), ParseEvProfileMessage));
}

EvProfile Client::GetEvProfile(std::uint32_t id) {
  return Only(Collect(sock_, EvProfileGetRequest(family_, id), ParseEvProfileMessage),
              "EV_PROFILE");
}

std::vector<EvProfile> Client::DumpEvProfiles() {
  return Collect(sock_, EvProfileGetRequest(family_, std::nullopt), ParseEvProfileMessage);
}

void Client::DelEvProfile(std::uint32_t id) {
  sock_.Transact(EvProfileDelRequest(family_, id).get(), Ignore);
}

std::optional<CcProfile> Client::NewCcProfile(const CcProfile& profile) {
  return First(Collect(sock_, CcProfileNewRequest(family_, profile), ParseCcProfileMessage));
}

std::optional<CcProfile> Client::SetCcProfile(const CcProfile& profile) {
  return First(Collect(sock_, CcProfileSetRequest(family_, profile), ParseCcProfileMessage));
}

CcProfile Client::GetCcProfile(std::uint32_t id) {
  return Only(Collect(sock_, CcProfileGetRequest(family_, id), ParseCcProfileMessage),
              "CC_PROFILE");
}

std::vector<CcProfile> Client::DumpCcProfiles() {
  return Collect(sock_, CcProfileGetRequest(family_, std::nullopt), ParseCcProfileMessage);
}

void Client::DelCcProfile(std::uint32_t id) {
  sock_.Transact(CcProfileDelRequest(family_, id).get(), Ignore);
}

Conn Client::GetConn(std::uint32_t id) {
  return Only(Collect(sock_, ConnGetRequest(family_, id), ParseConnMessage), "CONN");
}

std::vector<Conn> Client::DumpConns() {
  return Collect(sock_, ConnGetRequest(family_, std::nullopt), ParseConnMessage);
}

std::vector<Path> Client::DumpPaths(std::uint32_t conn_id) {
  return Collect(sock_, PathGetRequest(family_, conn_id), ParsePathMessage);
}

void Client::SetPath(const Path& path) {
  sock_.Transact(PathSetRequest(family_, path).get(), Ignore);
}

void Client::ProbePath(std::uint32_t conn_id, std::uint32_t ev) {
  sock_.Transact(PathProbeRequest(family_, conn_id, ev).get(), Ignore);
}

StatsReport Client::GetStats() {
  StatsReport report;
  sock_.Transact(StatsGetRequest(family_).get(),
                 [&](nl_msg* reply) { ParseStatsMessage(reply, report); });
  return report;
}

std::vector<Peer> Client::DumpPeers() {
  return Collect(sock_, PeerGetRequest(family_), ParsePeerMessage);
}

// Events get a socket of their own: its sequence numbers are not ours.
void Client::Listen(const EventHandler& on_event, int stop_fd,
                    const std::function<void()>& on_overrun) {
  NetlinkSocket events;
  events.Join(events.ResolveGroup(MRC_GENL_NAME, MRC_GENL_MCGRP_EVENTS));
  events.Listen([&](nl_msg* msg) { return on_event(ParseEventMessage(msg)); }, stop_fd, on_overrun);
}

}  // namespace mrc
