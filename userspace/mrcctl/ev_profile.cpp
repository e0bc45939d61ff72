// SPDX-License-Identifier: GPL-2.0
// mrcctl ev-profile { add | set | show | del }: entropy-value profiles
// (MRC_CMD_EV_PROFILE_*), their explicit EV lists and EV state changes.
#include <linux/mrc_netlink.h>

#include <algorithm>

#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {
namespace {

enum class Kw {
  kId,
  kMode,
  kCount,
  kMinActive,
  kEvents,
  kSeed,
  kState,
  kEvs,
  kEv,
  kPlane,
  kEvState
};

constexpr std::array<Name<Kw>, 7> kAddKeywords{{
    {"id", Kw::kId},
    {"mode", Kw::kMode},
    {"count", Kw::kCount},
    {"min-active", Kw::kMinActive},
    {"events", Kw::kEvents},
    {"seed", Kw::kSeed},
    {"state", Kw::kState},
}};

constexpr std::array<Name<Kw>, 11> kSetKeywords{{
    {"id", Kw::kId},
    {"mode", Kw::kMode},
    {"count", Kw::kCount},
    {"min-active", Kw::kMinActive},
    {"events", Kw::kEvents},
    {"seed", Kw::kSeed},
    {"state", Kw::kState},
    {"evs", Kw::kEvs},
    {"ev", Kw::kEv},
    {"plane", Kw::kPlane},
    {"ev-state", Kw::kEvState},
}};

constexpr std::array<Name<Kw>, 1> kIdKeywords{{{"id", Kw::kId}}};

// The words of an event mask: a bit per EV state, or none.
constexpr std::array<Name<std::uint32_t>, 5> kEventWords{{
    {"good", 1U << MRC_EV_GOOD},
    {"skip", 1U << MRC_EV_SKIP},
    {"assumed-bad", 1U << MRC_EV_ASSUMED_BAD},
    {"denied", 1U << MRC_EV_DENIED},
    {"none", 0},
}};

constexpr std::array<Name<Command>, 8> kCommands{{
    {"add", Command::kAdd},
    {"new", Command::kAdd},
    {"del", Command::kDel},
    {"delete", Command::kDel},
    {"set", Command::kSet},
    {"show", Command::kShow},
    {"list", Command::kShow},
    {"help", Command::kHelp},
}};

constexpr std::uint32_t kMaxEv = (1U << MRC_EV_MAX_BITS) - 1;
constexpr std::uint32_t kMaxPlane = MRC_MAX_PLANES - 1;

// The single EV of an EV state change, before the checks across words.
struct EvChange {
  std::optional<std::uint32_t> value;
  std::optional<std::uint32_t> plane;
  std::optional<mrc::EvState> state;
};

std::vector<std::string_view> Split(std::string_view text) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  for (std::size_t comma = text.find(','); comma != std::string_view::npos;
       comma = text.find(',', start)) {
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  items.push_back(text.substr(start));
  return items;
}

std::uint32_t ParseEvents(std::string_view text) {
  std::uint32_t mask = 0;
  const std::vector<std::string_view> items = Split(text);
  for (const std::string_view item : items) {
    const std::uint32_t bit = ParseName(kEventWords, "events", item);
    if (bit == 0 && items.size() > 1) {
      Usage("events \"none\" cannot be combined with states.");
    }
    mask |= bit;
  }
  return mask;
}

// VALUE[@PLANE],...: slot i gets the i-th value.
std::vector<mrc::Ev> ParseEvs(std::string_view text) {
  std::vector<mrc::Ev> evs;
  for (const std::string_view item : Split(text)) {
    const std::size_t at = item.find('@');
    mrc::Ev ev{.index = static_cast<std::uint32_t>(evs.size()),
               .value = ParseUnsigned<std::uint32_t>("evs", item.substr(0, at), 0, kMaxEv)};
    if (at != std::string_view::npos) {
      ev.plane = ParseUnsigned<std::uint32_t>("evs plane", item.substr(at + 1), 0, kMaxPlane);
    }
    evs.push_back(ev);
  }
  if (evs.size() > MRC_MAX_EVS_PER_PROFILE) {
    Usage("evs lists " + std::to_string(evs.size()) + " EVs, more than " +
          std::to_string(MRC_MAX_EVS_PER_PROFILE) + ".");
  }
  return evs;
}

template <std::size_t N>
mrc::EvProfile Parse(Args& args, const std::array<Name<Kw>, N>& table, bool positional_id) {
  mrc::EvProfile profile;
  EvChange change;
  while (!args.Empty()) {
    const std::string_view word = args.Next();
    if (positional_id && PositionalId(word, profile.id, 1, MRC_MAX_EV_PROFILES)) {
      continue;
    }
    const Name<Kw>& kw = MatchKeyword(table, word);
    const std::string_view key = kw.name;
    switch (kw.value) {
      case Kw::kId:
        SetOnce(profile.id,
                ParseUnsigned<std::uint32_t>(key, args.Value(key), 1, MRC_MAX_EV_PROFILES), key);
        break;
      case Kw::kMode:
        SetOnce(profile.mode, ParseName(kEvModes, key, args.Value(key)), key);
        break;
      case Kw::kCount:
        SetOnce(profile.count,
                ParseUnsigned<std::uint32_t>(key, args.Value(key), 1, MRC_MAX_EVS_PER_PROFILE),
                key);
        break;
      case Kw::kMinActive:
        SetOnce(profile.min_active,
                ParseUnsigned<std::uint32_t>(key, args.Value(key), 0, MRC_MAX_EVS_PER_PROFILE),
                key);
        break;
      case Kw::kEvents:
        SetOnce(profile.event_mask, ParseEvents(args.Value(key)), key);
        break;
      case Kw::kSeed:
        SetOnce(profile.seed, ParseUnsigned<std::uint32_t>(key, args.Value(key)), key);
        break;
      case Kw::kState:
        SetOnce(profile.state, ParseName(kProfileStates, key, args.Value(key)), key);
        break;
      case Kw::kEvs:
        SetOnce(profile.evs, ParseEvs(args.Value(key)), key);
        break;
      case Kw::kEv:
        SetOnce(change.value, ParseUnsigned<std::uint32_t>(key, args.Value(key), 0, kMaxEv), key);
        break;
      case Kw::kPlane:
        SetOnce(change.plane, ParseUnsigned<std::uint32_t>(key, args.Value(key), 0, kMaxPlane),
                key);
        break;
      case Kw::kEvState:
        SetOnce(change.state, ParseName(kAdminEvStates, key, args.Value(key)), key);
        break;
    }
  }
  if (change.value && !change.state) {
    Usage("ev VALUE needs ev-state STATE.");
  }
  if (!change.value && (change.state || change.plane)) {
    Usage(std::string(change.state ? "ev-state" : "plane") + " needs ev VALUE.");
  }
  if (change.value) {
    if (profile.evs) {
      Usage("evs and ev cannot be combined.");
    }
    profile.ev = mrc::Ev{.value = change.value, .plane = change.plane, .state = change.state};
  }
  if (profile.count && profile.min_active && *profile.min_active > *profile.count) {
    Usage("min-active " + std::to_string(*profile.min_active) + " exceeds count " +
          std::to_string(*profile.count) + ".");
  }
  if (profile.count && profile.evs && profile.evs->size() > *profile.count) {
    Usage("evs lists " + std::to_string(profile.evs->size()) + " EVs, more than count " +
          std::to_string(*profile.count) + ".");
  }
  return profile;
}

void Print(const Context& ctx, const std::vector<mrc::EvProfile>& profiles) {
  std::vector<Record> records;
  std::transform(
      profiles.begin(), profiles.end(), std::back_inserter(records),
      [&](const mrc::EvProfile& profile) { return EvProfileRecord(profile, ctx.opts()); });
  PrintRecords(ctx, records);
}

void Print(const Context& ctx, const std::optional<mrc::EvProfile>& profile) {
  if (profile) {
    Print(ctx, std::vector<mrc::EvProfile>{*profile});
  }
}

std::uint32_t RequireId(const mrc::EvProfile& profile) {
  if (!profile.id) {
    Usage("profile ID is required.");
  }
  return *profile.id;
}

}  // namespace

void EvProfileUsage(std::ostream& out) {
  out << "Usage: mrcctl ev-profile add [ id ID ] [ CONFIG ] [ state STATE ]\n"
         "       mrcctl ev-profile set ID [ CONFIG ] [ state STATE ] [ evs EVS ]\n"
         "       mrcctl ev-profile set ID ev VALUE [ plane PLANE ] ev-state EV_STATE\n"
         "       mrcctl ev-profile show [ ID ]\n"
         "       mrcctl ev-profile del ID\n"
         "       mrcctl ev-profile help\n"
         "where  CONFIG := [ mode MODE ] [ count N ] [ min-active N ] [ events EVENTS ]\n"
         "                 [ seed SEED ]\n"
         "       ID := 1.."
      << MRC_MAX_EV_PROFILES << ", N := 1.." << MRC_MAX_EVS_PER_PROFILE
      << " (min-active: 0..count)\n"
      << "       MODE := { " << Choices(kEvModes, " | ") << " }\n"
      << "       EVENTS := { none | EVENT[,EVENT]... }\n"
      << "       EVENT := { " << Choices(kEventMaskStates, " | ") << " }\n"
      << "       EVS := VALUE[@PLANE][,VALUE[@PLANE]]... (slot i gets the i-th)\n"
      << "       VALUE := 0.." << kMaxEv << ", PLANE := 0.." << kMaxPlane << "\n"
      << "       STATE := { " << Choices(kProfileStates, " | ") << " }\n"
      << "       EV_STATE := { " << Choices(kAdminEvStates, " | ") << " }\n";
}

int RunEvProfile(Context& ctx, Args& args) {
  switch (TakeCommand(args, kCommands, "ev-profile")) {
    case Command::kAdd:
      Print(ctx, ctx.control().NewEvProfile(Parse(args, kAddKeywords, false)));
      return kExitOk;
    case Command::kSet: {
      const mrc::EvProfile profile = Parse(args, kSetKeywords, true);
      RequireId(profile);
      Print(ctx, ctx.control().SetEvProfile(profile));
      return kExitOk;
    }
    case Command::kDel:
      ctx.control().DelEvProfile(RequireId(Parse(args, kIdKeywords, true)));
      return kExitOk;
    case Command::kHelp:
      args.ExpectEnd();
      EvProfileUsage(ctx.out());
      return kExitOk;
    case Command::kShow:
    case Command::kProbe:
      break;
  }
  const mrc::EvProfile selector = Parse(args, kIdKeywords, true);
  if (selector.id) {
    Print(ctx, std::vector<mrc::EvProfile>{ctx.control().GetEvProfile(*selector.id)});
  } else {
    Print(ctx, ctx.control().DumpEvProfiles());
  }
  return kExitOk;
}

}  // namespace mrcctl
