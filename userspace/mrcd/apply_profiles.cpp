// SPDX-License-Identifier: GPL-2.0
// The [[ev_profile]] and [[cc_profile]] parts of ApplyConfig(). An ONLINE
// profile refuses most changes (mrc_netlink.yaml, profile-state), so those
// go through OFFLINE and back: that needs the profile to have no users,
// and the kernel says so if it has.
#include <linux/mrc_netlink.h>

#include <algorithm>
#include <cerrno>

#include "apply_internal.hpp"

namespace mrcd::apply {
namespace {

mrc::ProfileState Target(bool online) {
  return online ? mrc::ProfileState::kOnline : mrc::ProfileState::kOffline;
}

template <typename Profile>
std::string Context(const Profile& profile, std::string_view kind) {
  return std::string(kind) + " " + std::to_string(profile.id) + " (" + profile.origin + ")";
}

template <typename Profile>
const Profile* WithId(const std::vector<Profile>& profiles, std::uint32_t id) {
  const auto it = std::find_if(profiles.begin(), profiles.end(),
                               [id](const Profile& profile) { return profile.id == id; });
  return it == profiles.end() ? nullptr : &*it;
}

// Takes a profile that left the configuration OFFLINE (if it was ONLINE)
// and deletes it; one that is gone already is fine.
template <typename Profile, typename SetOffline, typename Delete>
void DeleteProfile(Run& run, const Profile& gone, std::string_view kind, SetOffline set_offline,
                   Delete del) {
  const std::string name = std::string(kind) + " " + std::to_string(gone.id);
  try {
    if (gone.online) {
      Call(Context(gone, kind) + ": take offline", set_offline);
    }
    Call(Context(gone, kind) + ": delete", del);
    run.lines.push_back(name + " deleted");
  } catch (const ApplyError& error) {
    if (error.error() != ENOENT) {
      throw;
    }
    run.lines.push_back(name + " is already gone");
  }
}

// ---- EV profiles ----

constexpr std::string_view kEv = "ev-profile";

std::vector<mrc::Ev> Slots(const std::vector<std::uint32_t>& values) {
  std::vector<mrc::Ev> slots;
  for (std::uint32_t i = 0; i < values.size(); i++) {
    slots.push_back(mrc::Ev{.index = i, .value = values[i]});
  }
  return slots;
}

// Everything `want` says, for a new profile or one taken OFFLINE.
mrc::EvProfile FullRequest(const EvProfileConfig& want, mrc::ProfileState state) {
  mrc::EvProfile request{.id = want.id,
                         .state = state,
                         .mode = want.mode,
                         .count = want.count,
                         .min_active = want.min_active,
                         .event_mask = want.event_mask,
                         .seed = want.seed};
  if (want.mode == mrc::EvMode::kExplicit) {
    request.evs = Slots(want.evs);
  }
  return request;
}

EvProfileConfig FromKernel(const mrc::EvProfile& kernel) {
  EvProfileConfig config;
  config.id = kernel.id.value_or(0);
  config.mode = kernel.mode.value_or(mrc::EvMode::kAuto);
  config.count = kernel.count.value_or(0);
  config.min_active = kernel.min_active;
  config.event_mask = kernel.event_mask.value_or(0);
  config.seed = kernel.seed;
  config.online = kernel.state == mrc::ProfileState::kOnline;
  return config;
}

enum class EvChange : std::uint8_t {
  kNone,     // nothing to send (at most notes)
  kOnline,   // event mask, EV list, state: an ONLINE profile takes them
  kOffline,  // mode, count, min_active, seed: only OFFLINE
};

// Says what differs and what it takes.
EvChange DiffEv(Run& run, const EvProfileConfig& from, Base base, const EvProfileConfig& want) {
  const std::string prefix = std::string(kEv) + " " + std::to_string(want.id);
  mrc::EvProfile changed;
  Diff(run, prefix, "mode", base, std::optional(from.mode), std::optional(want.mode), changed.mode);
  Diff(run, prefix, "count", base, std::optional(from.count), std::optional(want.count),
       changed.count);
  Diff(run, prefix, "min_active", base, from.min_active, want.min_active, changed.min_active);
  Diff(run, prefix, "seed", base, from.seed, want.seed, changed.seed);
  Diff(run, prefix, "event_mask", base, std::optional(from.event_mask),
       std::optional(want.event_mask), changed.event_mask);
  // The kernel's dump has no EV list: compare with the file only.
  const bool evs =
      want.mode == mrc::EvMode::kExplicit && (base == Base::kKernel || from.evs != want.evs);
  if (evs) {
    run.lines.push_back(prefix + " evs " + (base == Base::kKernel ? "(unknown)" : Show(from.evs)) +
                        " -> " + Show(want.evs));
  }
  Diff(run, prefix, "state", base, std::optional(Target(from.online)),
       std::optional(Target(want.online)), changed.state);
  if (changed.mode || changed.count || changed.min_active || changed.seed) {
    return EvChange::kOffline;
  }
  return evs || changed.event_mask || changed.state ? EvChange::kOnline : EvChange::kNone;
}

void CreateEv(Run& run, const EvProfileConfig& want) {
  Call(Context(want, kEv) + ": create",
       [&] { return run.ctl.NewEvProfile(FullRequest(want, Target(want.online))); });
  run.lines.push_back(std::string(kEv) + " " + std::to_string(want.id) + " created (" +
                      Show(Target(want.online)) + ")");
}

void UpdateEv(Run& run, const EvProfileConfig* before, const EvProfileConfig& want) {
  if (before != nullptr && before->SameSettings(want)) {
    return;
  }
  std::optional<EvProfileConfig> from;
  if (before != nullptr) {
    from = *before;
  } else {
    if (!run.ev_profiles) {
      run.ev_profiles = Call("dump ev-profiles", [&] { return run.ctl.DumpEvProfiles(); });
    }
    if (const mrc::EvProfile* kernel = WithId(*run.ev_profiles, want.id)) {
      from = FromKernel(*kernel);
    }
  }
  if (!from) {
    CreateEv(run, want);
    return;
  }
  const EvChange change = DiffEv(run, *from, before ? Base::kConfig : Base::kKernel, want);
  if (change == EvChange::kNone) {
    return;
  }
  const std::string what = Context(want, kEv);
  if (change == EvChange::kOffline) {
    Call(what + ": reconfigure offline",
         [&] { return run.ctl.SetEvProfile(FullRequest(want, mrc::ProfileState::kOffline)); });
    if (want.online) {
      Call(what + ": bring online", [&] {
        return run.ctl.SetEvProfile({.id = want.id, .state = mrc::ProfileState::kOnline});
      });
    }
    return;
  }
  mrc::EvProfile request{
      .id = want.id, .state = Target(want.online), .event_mask = want.event_mask};
  if (want.mode == mrc::EvMode::kExplicit) {
    request.evs = Slots(want.evs);
  }
  Call(what + ": set", [&] { return run.ctl.SetEvProfile(request); });
}

// ---- CC profiles ----

constexpr std::string_view kCc = "cc-profile";

// The module takes "nscc" for its full name and reports the full name.
std::string Canonical(const std::string& algorithm) {
  return algorithm == "nscc" ? MRC_CC_ALG_NSCC : algorithm;
}

CcProfileConfig FromKernel(const mrc::CcProfile& kernel) {
  CcProfileConfig config;
  config.id = kernel.id.value_or(0);
  config.algorithm = kernel.algorithm.value_or("");
  config.nscc = kernel.nscc;
  config.online = kernel.state == mrc::ProfileState::kOnline;
  return config;
}

mrc::Nscc DiffNscc(Run& run, const std::string& prefix, Base base, const mrc::Nscc& from,
                   const mrc::Nscc& want) {
  mrc::Nscc out;
  Diff(run, prefix, "base_rtt", base, from.base_rtt, want.base_rtt, out.base_rtt);
  Diff(run, prefix, "target_delay", base, from.target_delay, want.target_delay, out.target_delay);
  Diff(run, prefix, "max_cwnd", base, from.max_cwnd, want.max_cwnd, out.max_cwnd);
  Diff(run, prefix, "eta", base, from.eta, want.eta, out.eta);
  Diff(run, prefix, "fi", base, from.fi, want.fi, out.fi);
  Diff(run, prefix, "fi_scale", base, from.fi_scale, want.fi_scale, out.fi_scale);
  Diff(run, prefix, "gamma", base, from.gamma, want.gamma, out.gamma);
  Diff(run, prefix, "max_md_jump", base, from.max_md_jump, want.max_md_jump, out.max_md_jump);
  Diff(run, prefix, "qa_gate", base, from.qa_gate, want.qa_gate, out.qa_gate);
  Diff(run, prefix, "qa_threshold", base, from.qa_threshold, want.qa_threshold, out.qa_threshold);
  Diff(run, prefix, "disable_qa", base, from.disable_qa, want.disable_qa, out.disable_qa);
  Diff(run, prefix, "adjust_bytes", base, from.adjust_bytes, want.adjust_bytes, out.adjust_bytes);
  Diff(run, prefix, "adjust_period", base, from.adjust_period, want.adjust_period,
       out.adjust_period);
  return out;
}

void CreateCc(Run& run, const CcProfileConfig& want) {
  const mrc::CcProfile request{
      .id = want.id, .state = Target(want.online), .algorithm = want.algorithm, .nscc = want.nscc};
  Call(Context(want, kCc) + ": create", [&] { return run.ctl.NewCcProfile(request); });
  run.lines.push_back(std::string(kCc) + " " + std::to_string(want.id) + " created (" +
                      Show(Target(want.online)) + ")");
}

std::optional<CcProfileConfig> CcBase(Run& run, const CcProfileConfig* before, std::uint32_t id) {
  if (before != nullptr) {
    return *before;
  }
  if (!run.cc_profiles) {
    run.cc_profiles = Call("dump cc-profiles", [&] { return run.ctl.DumpCcProfiles(); });
  }
  const mrc::CcProfile* kernel = WithId(*run.cc_profiles, id);
  return kernel != nullptr ? std::optional(FromKernel(*kernel)) : std::nullopt;
}

void UpdateCc(Run& run, const CcProfileConfig* before, const CcProfileConfig& want) {
  if (before != nullptr && before->SameSettings(want)) {
    return;
  }
  const std::optional<CcProfileConfig> from = CcBase(run, before, want.id);
  if (!from) {
    CreateCc(run, want);
    return;
  }
  const Base base = before != nullptr ? Base::kConfig : Base::kKernel;
  const std::string prefix = std::string(kCc) + " " + std::to_string(want.id);
  std::optional<std::string> algorithm;
  Diff(run, prefix, "algorithm", base, std::optional(Canonical(from->algorithm)),
       std::optional(Canonical(want.algorithm)), algorithm);
  const mrc::Nscc nscc = DiffNscc(run, prefix, base, from->nscc, want.nscc);
  std::optional<mrc::ProfileState> state;
  Diff(run, prefix, "state", base, std::optional(Target(from->online)),
       std::optional(Target(want.online)), state);
  if (!algorithm && nscc.Empty() && !state) {
    return;  // nothing, or notes only
  }
  const std::string what = Context(want, kCc);
  if (algorithm) {  // only OFFLINE profiles change their algorithm
    Call(what + ": reconfigure offline", [&] {
      return run.ctl.SetCcProfile({.id = want.id,
                                   .state = mrc::ProfileState::kOffline,
                                   .algorithm = want.algorithm,
                                   .nscc = want.nscc});
    });
    if (want.online) {
      Call(what + ": bring online", [&] {
        return run.ctl.SetCcProfile({.id = want.id, .state = mrc::ProfileState::kOnline});
      });
    }
    return;
  }
  Call(what + ": set", [&] {
    return run.ctl.SetCcProfile({.id = want.id, .state = Target(want.online), .nscc = nscc});
  });
}

}  // namespace

void ApplyEvProfiles(Run& run, const Config* previous, const Config& next) {
  if (previous != nullptr) {
    for (const EvProfileConfig& gone : previous->ev_profiles) {
      if (WithId(next.ev_profiles, gone.id) == nullptr) {
        DeleteProfile(
            run, gone, kEv,
            [&] {
              return run.ctl.SetEvProfile({.id = gone.id, .state = mrc::ProfileState::kOffline});
            },
            [&] { run.ctl.DelEvProfile(gone.id); });
      }
    }
  }
  for (const EvProfileConfig& profile : next.ev_profiles) {
    UpdateEv(run, previous != nullptr ? WithId(previous->ev_profiles, profile.id) : nullptr,
             profile);
  }
}

void ApplyCcProfiles(Run& run, const Config* previous, const Config& next) {
  if (previous != nullptr) {
    for (const CcProfileConfig& gone : previous->cc_profiles) {
      if (WithId(next.cc_profiles, gone.id) == nullptr) {
        DeleteProfile(
            run, gone, kCc,
            [&] {
              return run.ctl.SetCcProfile({.id = gone.id, .state = mrc::ProfileState::kOffline});
            },
            [&] { run.ctl.DelCcProfile(gone.id); });
      }
    }
  }
  for (const CcProfileConfig& profile : next.cc_profiles) {
    UpdateCc(run, previous != nullptr ? WithId(previous->cc_profiles, profile.id) : nullptr,
             profile);
  }
}

}  // namespace mrcd::apply
