// SPDX-License-Identifier: GPL-2.0
#include "actuator.hpp"

#include <cerrno>
#include <string>

#include "mrc/error.hpp"

namespace mrcd {
namespace {

// False when the connection (or its EV) vanished before we got to it:
// closing connections race with every action.
bool MarkBad(mrc::Control& ctl, std::uint32_t conn, std::uint32_t ev) {
  try {
    ctl.SetPath(mrc::Path{.conn_id = conn, .ev = ev, .state = mrc::EvState::kAssumedBad});
    return true;
  } catch (const mrc::KernelError& error) {
    if (error.error() == ENOENT) {
      return false;
    }
    throw;
  }
}

std::vector<mrc::Path> PathsOf(mrc::Control& ctl, std::uint32_t conn) {
  try {
    return ctl.DumpPaths(conn);
  } catch (const mrc::KernelError& error) {
    if (error.error() == ENOENT) {
      return {};
    }
    throw;
  }
}

bool InUse(const mrc::Path& path) {
  return path.state == mrc::EvState::kGood || path.state == mrc::EvState::kSkip;
}

std::size_t MarkPlaneBad(mrc::Control& ctl, std::uint32_t plane) {
  std::size_t changed = 0;
  for (const mrc::Conn& conn : ctl.DumpConns()) {
    if (!conn.id) {
      continue;
    }
    for (const mrc::Path& path : PathsOf(ctl, *conn.id)) {
      if (path.plane == plane && path.ev && InUse(path) && MarkBad(ctl, *conn.id, *path.ev)) {
        changed++;
      }
    }
  }
  return changed;
}

std::string Describe(const Action& action) {
  std::string text(ActionKindName(action.kind));
  if (action.kind == ActionKind::kPathBad) {
    text += " conn " + std::to_string(action.conn) + " ev " + std::to_string(action.ev);
  }
  return text + " plane " + std::to_string(action.plane);
}

std::size_t Dispatch(mrc::Control& ctl, const Action& action) {
  switch (action.kind) {
    case ActionKind::kPathBad:
      return MarkBad(ctl, action.conn, action.ev) ? 1 : 0;
    case ActionKind::kPlaneBad:
      return MarkPlaneBad(ctl, action.plane);
    case ActionKind::kPlaneDown:
    case ActionKind::kPlaneUp: {
      const bool up = action.kind == ActionKind::kPlaneUp;
      ctl.SetPlane(mrc::Plane{.id = action.plane,
                              .state = up ? mrc::PlaneState::kUp : mrc::PlaneState::kDown});
      return 0;
    }
  }
  return 0;
}

}  // namespace

std::size_t Execute(mrc::Control& ctl, const Action& action) {
  try {
    return Dispatch(ctl, action);
  } catch (const mrc::KernelError& error) {
    throw mrc::Error(Describe(action) + ": " + error.what());
  }
}

}  // namespace mrcd
