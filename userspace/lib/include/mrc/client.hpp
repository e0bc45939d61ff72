// SPDX-License-Identifier: GPL-2.0
// mrc::Control over generic netlink: resolves the "mrc" family, sends each
// request with NLM_F_ACK and reads the whole answer (see NetlinkSocket).
#pragma once

#include <string_view>

#include "mrc/control.hpp"
#include "mrc/netlink_socket.hpp"

namespace mrc {

inline constexpr std::string_view kFamilyMissing =
    "mrc.ko is not loaded: generic netlink family \"mrc\" not found";

class Client final : public Control {
 public:
  // Throws mrc::Error(kFamilyMissing) when mrc.ko is not loaded.
  Client();

  Info GetInfo() override;

  std::optional<Plane> AddPlane(const Plane& plane) override;
  void DelPlane(std::uint32_t id) override;
  std::optional<Plane> SetPlane(const Plane& plane) override;
  Plane GetPlane(std::uint32_t id) override;
  std::vector<Plane> DumpPlanes() override;

  std::optional<EvProfile> NewEvProfile(const EvProfile& profile) override;
  std::optional<EvProfile> SetEvProfile(const EvProfile& profile) override;
  EvProfile GetEvProfile(std::uint32_t id) override;
  std::vector<EvProfile> DumpEvProfiles() override;
  void DelEvProfile(std::uint32_t id) override;

  std::optional<CcProfile> NewCcProfile(const CcProfile& profile) override;
  std::optional<CcProfile> SetCcProfile(const CcProfile& profile) override;
  CcProfile GetCcProfile(std::uint32_t id) override;
  std::vector<CcProfile> DumpCcProfiles() override;
  void DelCcProfile(std::uint32_t id) override;

  Conn GetConn(std::uint32_t id) override;
  std::vector<Conn> DumpConns() override;

  std::vector<Path> DumpPaths(std::uint32_t conn_id) override;
  void SetPath(const Path& path) override;
  void ProbePath(std::uint32_t conn_id, std::uint32_t ev) override;

  StatsReport GetStats() override;

  std::vector<Peer> DumpPeers() override;

  void Listen(const EventHandler& on_event, int stop_fd,
              const std::function<void()>& on_overrun) override;

 private:
  NetlinkSocket sock_;
  int family_;
};

}  // namespace mrc
