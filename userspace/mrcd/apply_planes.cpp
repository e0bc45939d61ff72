// SPDX-License-Identifier: GPL-2.0
// The [[plane]] part of ApplyConfig(). The configuration names planes by
// their netdev; the kernel by ID, which we learn from its plane dump.
#include <linux/mrc_netlink.h>

#include <algorithm>
#include <cerrno>

#include "apply_internal.hpp"

namespace mrcd::apply {
namespace {

// A plane's settings with the module's defaults filled in, so that
// dropping "weight = 50" from the file means weight 100 again.
struct PlaneSettings {
  std::optional<std::uint16_t> port;
  std::optional<std::uint32_t> weight;
  std::optional<std::uint32_t> mtu;
  std::optional<mrc::PlaneState> state;
  std::optional<in_addr> addr4;
};

PlaneSettings FromConfig(const PlaneConfig& plane) {
  return {.port = plane.port.value_or(MRC_DEFAULT_UDP_PORT),
          .weight = plane.weight.value_or(MRC_PLANE_WEIGHT_DEFAULT),
          .mtu = plane.mtu.value_or(0),
          .state = plane.state,
          .addr4 = plane.addr4};
}

PlaneSettings FromKernel(const mrc::Plane& plane) {
  return {.port = plane.port,
          .weight = plane.weight,
          .mtu = plane.mtu,
          .state = plane.state,
          .addr4 = plane.addr4};
}

bool SameSettings(const PlaneConfig& a, const PlaneConfig& b) {
  const PlaneSettings x = FromConfig(a);
  const PlaneSettings y = FromConfig(b);
  return a.id == b.id && x.port == y.port && x.weight == y.weight && x.mtu == y.mtu &&
         x.state == y.state && Same(x.addr4, y.addr4);
}

std::string Name(const PlaneConfig& plane) { return "plane " + plane.ifname; }

// What error messages say: the plane and where it is configured.
std::string Context(const PlaneConfig& plane) { return Name(plane) + " (" + plane.origin + ")"; }

std::vector<mrc::Plane>& KernelPlanes(Run& run) {
  if (!run.planes) {
    run.planes = Call("dump planes", [&] { return run.ctl.DumpPlanes(); });
  }
  return *run.planes;
}

// The kernel's plane on `ifindex` or, when the device is gone, the one
// that reported `ifname`.
std::optional<mrc::Plane> FindPlane(Run& run, std::optional<std::uint32_t> ifindex,
                                    const std::string& ifname) {
  for (const mrc::Plane& plane : KernelPlanes(run)) {
    if (plane.id && (ifindex ? plane.ifindex == ifindex : plane.ifname == ifname)) {
      return plane;
    }
  }
  return std::nullopt;
}

void Forget(Run& run, std::uint32_t id) {
  std::erase_if(KernelPlanes(run), [id](const mrc::Plane& plane) { return plane.id == id; });
}

std::uint32_t Ifindex(Run& run, const PlaneConfig& plane) {
  const std::optional<std::uint32_t> ifindex = run.resolve(plane.ifname);
  if (!ifindex) {
    throw ApplyError(Context(plane) + ": no network device \"" + plane.ifname + "\"", ENODEV);
  }
  return *ifindex;
}

void Add(Run& run, const PlaneConfig& want, std::uint32_t ifindex, const std::string& note) {
  const mrc::Plane request{.id = want.id,
                           .ifindex = ifindex,
                           .addr4 = want.addr4,
                           .port = want.port,
                           .state = want.state,
                           .weight = want.weight,
                           .mtu = want.mtu};
  const std::optional<mrc::Plane> reply =
      Call(Context(want) + ": add", [&] { return run.ctl.AddPlane(request); });
  const std::optional<std::uint32_t> id = reply && reply->id ? reply->id : want.id;
  if (reply) {
    KernelPlanes(run).push_back(*reply);
  }
  run.lines.push_back(Name(want) + " added" + (id ? " as " + std::to_string(*id) : "") + note);
}

void Delete(Run& run, const PlaneConfig& gone) {
  const std::optional<mrc::Plane> plane = FindPlane(run, run.resolve(gone.ifname), gone.ifname);
  if (!plane) {
    run.lines.push_back(Name(gone) + " is already gone");
    return;
  }
  const std::uint32_t id = *plane->id;
  Call(Context(gone) + ": delete", [&] { run.ctl.DelPlane(id); });
  Forget(run, id);
  run.lines.push_back(Name(gone) + " deleted (was " + std::to_string(id) + ")");
}

bool HasChanges(const mrc::Plane& request) {
  return request.port || request.weight || request.mtu || request.state || request.addr4;
}

// Sets what differs between `from` and `want` on the kernel's plane `id`.
void Set(Run& run, const PlaneSettings& from, Base base, const PlaneConfig& want,
         std::uint32_t id) {
  const PlaneSettings to = FromConfig(want);
  const std::string prefix = Name(want);
  mrc::Plane request{.id = id};
  Diff(run, prefix, "port", base, from.port, to.port, request.port);
  Diff(run, prefix, "weight", base, from.weight, to.weight, request.weight);
  Diff(run, prefix, "mtu", base, from.mtu, to.mtu, request.mtu);
  Diff(run, prefix, "state", base, from.state, to.state, request.state);
  Diff(run, prefix, "addr4", base, from.addr4, to.addr4, request.addr4);
  if (HasChanges(request)) {
    Call(Context(want) + ": set", [&] { return run.ctl.SetPlane(request); });
  }
}

void Update(Run& run, const PlaneConfig* before, const PlaneConfig& want) {
  if (before != nullptr && SameSettings(*before, want)) {
    return;
  }
  const std::uint32_t ifindex = Ifindex(run, want);
  const std::optional<mrc::Plane> existing = FindPlane(run, ifindex, want.ifname);
  if (!existing) {
    Add(run, want, ifindex, before != nullptr ? " (it was gone)" : "");
    return;
  }
  const std::uint32_t id = *existing->id;
  if (want.id && *want.id != id) {  // the ID of a plane cannot change
    Call(Context(want) + ": delete to change its id", [&] { run.ctl.DelPlane(id); });
    Forget(run, id);
    Add(run, want, ifindex, " (id " + std::to_string(id) + " -> " + std::to_string(*want.id) + ")");
    return;
  }
  if (before != nullptr) {
    Set(run, FromConfig(*before), Base::kConfig, want, id);
  } else {
    Set(run, FromKernel(*existing), Base::kKernel, want, id);
  }
}

const PlaneConfig* Named(const std::vector<PlaneConfig>& planes, const std::string& ifname) {
  const auto it = std::find_if(planes.begin(), planes.end(),
                               [&](const PlaneConfig& plane) { return plane.ifname == ifname; });
  return it == planes.end() ? nullptr : &*it;
}

}  // namespace

void ApplyPlanes(Run& run, const Config* previous, const Config& next) {
  if (previous != nullptr) {
    for (const PlaneConfig& plane : previous->planes) {
      if (Named(next.planes, plane.ifname) == nullptr) {
        Delete(run, plane);
      }
    }
  }
  for (const PlaneConfig& plane : next.planes) {
    Update(run, previous != nullptr ? Named(previous->planes, plane.ifname) : nullptr, plane);
  }
}

}  // namespace mrcd::apply
