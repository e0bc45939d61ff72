// SPDX-License-Identifier: GPL-2.0
// The control plane of mrc.ko as a C++ interface: one method per command
// of linux/mrc_netlink.h. mrc::Client implements it over generic netlink;
// tests implement it with canned answers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "mrc/types.hpp"

namespace mrc {

// Returns false to stop listening.
using EventHandler = std::function<bool(const Event&)>;

class Control {
 public:
  Control() = default;
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;
  Control(Control&&) = delete;
  Control& operator=(Control&&) = delete;
  virtual ~Control() = default;

  virtual Info GetInfo() = 0;

  // Commands documented "-> OBJECT" return the kernel's view of the object
  // (nullopt if the kernel sent none).
  virtual std::optional<Plane> AddPlane(const Plane& plane) = 0;
  virtual void DelPlane(std::uint32_t id) = 0;
  virtual std::optional<Plane> SetPlane(const Plane& plane) = 0;
  virtual Plane GetPlane(std::uint32_t id) = 0;
  virtual std::vector<Plane> DumpPlanes() = 0;

  virtual std::optional<EvProfile> NewEvProfile(const EvProfile& profile) = 0;
  virtual std::optional<EvProfile> SetEvProfile(const EvProfile& profile) = 0;
  virtual EvProfile GetEvProfile(std::uint32_t id) = 0;  // with the EV list
  virtual std::vector<EvProfile> DumpEvProfiles() = 0;   // without
  virtual void DelEvProfile(std::uint32_t id) = 0;

  virtual std::optional<CcProfile> NewCcProfile(const CcProfile& profile) = 0;
  virtual std::optional<CcProfile> SetCcProfile(const CcProfile& profile) = 0;
  virtual CcProfile GetCcProfile(std::uint32_t id) = 0;
  virtual std::vector<CcProfile> DumpCcProfiles() = 0;
  virtual void DelCcProfile(std::uint32_t id) = 0;

  virtual Conn GetConn(std::uint32_t id) = 0;
  virtual std::vector<Conn> DumpConns() = 0;

  virtual std::vector<Path> DumpPaths(std::uint32_t conn_id) = 0;
  virtual void SetPath(const Path& path) = 0;
  virtual void ProbePath(std::uint32_t conn_id, std::uint32_t ev) = 0;

  virtual StatsReport GetStats() = 0;

  // The namespace's peer table: empty unless net.mrc.peer_paths is 1.
  virtual std::vector<Peer> DumpPeers() = 0;

  // Delivers events of the "events" group to `on_event` until it returns
  // false or `stop_fd` becomes readable (see StopSignals). `on_overrun` is
  // told when the kernel dropped events for lack of buffer space.
  virtual void Listen(const EventHandler& on_event, int stop_fd,
                      const std::function<void()>& on_overrun) = 0;
};

}  // namespace mrc
