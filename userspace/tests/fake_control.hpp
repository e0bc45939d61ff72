// SPDX-License-Identifier: GPL-2.0
// A kernel stand-in for mrcctl tests: mrc::Control that records what
// mrcctl asked for and answers from canned objects, plus a fixture running
// mrcctl against it with a fixed set of network devices.
#pragma once

#include <gtest/gtest.h>
#include <poll.h>

#include <csignal>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "mrc/control.hpp"
#include "mrc/error.hpp"
#include "mrc/netlink.hpp"
#include "mrc/parse.hpp"

struct FakeKernel {
  // What mrcctl sent.
  std::vector<std::string> calls;
  std::optional<mrc::Plane> plane_sent;
  std::optional<mrc::EvProfile> ev_profile_sent;
  std::optional<mrc::CcProfile> cc_profile_sent;
  std::optional<mrc::Path> path_sent;
  std::optional<std::uint32_t> id_sent;

  // What it answers: objects for get/dump, the reply to add/set, errors.
  mrc::Info info;
  std::vector<mrc::Plane> planes;
  std::vector<mrc::EvProfile> ev_profiles;
  std::vector<mrc::CcProfile> cc_profiles;
  std::vector<mrc::Conn> conns;
  std::vector<mrc::Path> paths;
  mrc::StatsReport stats;
  // PEER_GET's answer as mrc.ko lays it out (KPeerMessage), parsed by
  // libmrc as mrc::Client parses it: mrcctl peer is tested from the wire.
  std::vector<mrc::MsgPtr> peer_messages;
  std::vector<mrc::Event> events;
  bool stop_with_sigterm = false;  // Listen() raises SIGTERM after the events
  bool stop_fd_was_readable = false;
  std::optional<mrc::Plane> plane_reply;
  std::optional<mrc::EvProfile> ev_profile_reply;
  std::optional<mrc::CcProfile> cc_profile_reply;
  std::optional<mrc::KernelError> refuse;  // thrown by every request
  bool missing = false;                    // mrc.ko not loaded
};

class FakeControl final : public mrc::Control {
 public:
  explicit FakeControl(std::shared_ptr<FakeKernel> kernel) : k_(std::move(kernel)) {}

  mrc::Info GetInfo() override {
    Call("GetInfo");
    return k_->info;
  }

  std::optional<mrc::Plane> AddPlane(const mrc::Plane& plane) override {
    Call("AddPlane");
    k_->plane_sent = plane;
    return k_->plane_reply;
  }
  void DelPlane(std::uint32_t id) override {
    Call("DelPlane");
    k_->id_sent = id;
  }
  std::optional<mrc::Plane> SetPlane(const mrc::Plane& plane) override {
    Call("SetPlane");
    k_->plane_sent = plane;
    return k_->plane_reply;
  }
  mrc::Plane GetPlane(std::uint32_t id) override {
    Call("GetPlane");
    k_->id_sent = id;
    return Find(k_->planes, id);
  }
  std::vector<mrc::Plane> DumpPlanes() override {
    Call("DumpPlanes");
    return k_->planes;
  }

  std::optional<mrc::EvProfile> NewEvProfile(const mrc::EvProfile& profile) override {
    Call("NewEvProfile");
    k_->ev_profile_sent = profile;
    return k_->ev_profile_reply;
  }
  std::optional<mrc::EvProfile> SetEvProfile(const mrc::EvProfile& profile) override {
    Call("SetEvProfile");
    k_->ev_profile_sent = profile;
    return k_->ev_profile_reply;
  }
  mrc::EvProfile GetEvProfile(std::uint32_t id) override {
    Call("GetEvProfile");
    k_->id_sent = id;
    return Find(k_->ev_profiles, id);
  }
  std::vector<mrc::EvProfile> DumpEvProfiles() override {
    Call("DumpEvProfiles");
    return k_->ev_profiles;
  }
  void DelEvProfile(std::uint32_t id) override {
    Call("DelEvProfile");
    k_->id_sent = id;
  }

  std::optional<mrc::CcProfile> NewCcProfile(const mrc::CcProfile& profile) override {
    Call("NewCcProfile");
    k_->cc_profile_sent = profile;
    return k_->cc_profile_reply;
  }
  std::optional<mrc::CcProfile> SetCcProfile(const mrc::CcProfile& profile) override {
    Call("SetCcProfile");
    k_->cc_profile_sent = profile;
    return k_->cc_profile_reply;
  }
  mrc::CcProfile GetCcProfile(std::uint32_t id) override {
    Call("GetCcProfile");
    k_->id_sent = id;
    return Find(k_->cc_profiles, id);
  }
  std::vector<mrc::CcProfile> DumpCcProfiles() override {
    Call("DumpCcProfiles");
    return k_->cc_profiles;
  }
  void DelCcProfile(std::uint32_t id) override {
    Call("DelCcProfile");
    k_->id_sent = id;
  }

  mrc::Conn GetConn(std::uint32_t id) override {
    Call("GetConn");
    k_->id_sent = id;
    return Find(k_->conns, id);
  }
  std::vector<mrc::Conn> DumpConns() override {
    Call("DumpConns");
    return k_->conns;
  }

  std::vector<mrc::Path> DumpPaths(std::uint32_t conn_id) override {
    Call("DumpPaths");
    k_->id_sent = conn_id;
    return k_->paths;
  }
  void SetPath(const mrc::Path& path) override {
    Call("SetPath");
    k_->path_sent = path;
  }
  void ProbePath(std::uint32_t conn_id, std::uint32_t ev) override {
    Call("ProbePath");
    k_->path_sent = mrc::Path{.conn_id = conn_id, .ev = ev};
  }

  mrc::StatsReport GetStats() override {
    Call("GetStats");
    return k_->stats;
  }

  std::vector<mrc::Peer> DumpPeers() override {
    Call("DumpPeers");
    std::vector<mrc::Peer> peers;
    for (const mrc::MsgPtr& msg : k_->peer_messages) {
      peers.push_back(mrc::ParsePeerMessage(msg.get()));
    }
    return peers;
  }

  void Listen(const mrc::EventHandler& on_event, int stop_fd,
              const std::function<void()>& on_overrun) override {
    Call("Listen");
    for (const mrc::Event& event : k_->events) {
      if (!on_event(event)) {
        return;
      }
    }
    on_overrun();
    if (k_->stop_with_sigterm) {
      std::raise(SIGTERM);  // blocked by mrcctl: pending, readable on stop_fd
      pollfd fd{.fd = stop_fd, .events = POLLIN, .revents = 0};
      k_->stop_fd_was_readable = poll(&fd, 1, 1000) == 1;
    }
  }

 private:
  void Call(const std::string& name) {
    if (k_->refuse) {
      throw *k_->refuse;
    }
    k_->calls.push_back(name);
  }

  template <typename T>
  static T Find(const std::vector<T>& objects, std::uint32_t id) {
    for (const T& object : objects) {
      if (object.id == id) {
        return object;
      }
    }
    throw mrc::KernelError(ENOENT, "object not found");
  }

  std::shared_ptr<FakeKernel> k_;
};

struct Result {
  int status;
  std::string out;
  std::string err;
};

// Devices: lo (1), veth0 (4), veth1 (5).
class Mrcctl : public ::testing::Test {
 protected:
  Result Run(const std::vector<std::string_view>& args) {
    std::ostringstream out;
    std::ostringstream err;
    const mrcctl::Environment env{
        .connect = [this]() -> std::unique_ptr<mrc::Control> {
          if (kernel()->missing) {
            throw mrc::Error("mrc.ko is not loaded: generic netlink family \"mrc\" not found");
          }
          return std::make_unique<FakeControl>(kernel());
        },
        .ifindex =
            [](const std::string& name) {
              static const std::map<std::string, unsigned int> devices{
                  {"lo", 1}, {"veth0", 4}, {"veth1", 5}};
              const auto it = devices.find(name);
              return it == devices.end() ? 0U : it->second;
            },
    };
    const int status = mrcctl::Run(args, out, err, env);
    return {status, out.str(), err.str()};
  }

  // The first line of stderr (the error message, before the usage).
  static std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

  [[nodiscard]] const std::shared_ptr<FakeKernel>& kernel() const { return kernel_; }

 private:
  std::shared_ptr<FakeKernel> kernel_ = std::make_shared<FakeKernel>();
};
