// SPDX-License-Identifier: GPL-2.0
// mrcctl cc-profile { add | set | show | del }: congestion-control profiles
// (MRC_CMD_CC_PROFILE_*) and their NSCC parameters.
#include <linux/mrc_netlink.h>

#include <algorithm>

#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {
namespace {

enum class Kw {
  kId,
  kAlgorithm,
  kState,
  kBaseRtt,
  kTargetDelay,
  kMaxCwnd,
  kEta,
  kFi,
  kFiScale,
  kGamma,
  kMaxMdJump,
  kQaGate,
  kQaThreshold,
  kDisableQa,
  kAdjustBytes,
  kAdjustPeriod,
};

constexpr std::array<Name<Kw>, 16> kKeywords{{
    {"id", Kw::kId},
    {"algorithm", Kw::kAlgorithm},
    {"state", Kw::kState},
    {"base-rtt", Kw::kBaseRtt},
    {"target-delay", Kw::kTargetDelay},
    {"max-cwnd", Kw::kMaxCwnd},
    {"eta", Kw::kEta},
    {"fi", Kw::kFi},
    {"fi-scale", Kw::kFiScale},
    {"gamma", Kw::kGamma},
    {"max-md-jump", Kw::kMaxMdJump},
    {"qa-gate", Kw::kQaGate},
    {"qa-threshold", Kw::kQaThreshold},
    {"disable-qa", Kw::kDisableQa},
    {"adjust-bytes", Kw::kAdjustBytes},
    {"adjust-period", Kw::kAdjustPeriod},
}};

constexpr std::array<Name<Kw>, 1> kIdKeywords{{{"id", Kw::kId}}};

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

constexpr std::uint32_t kOne = 1000000;  // 1.0 in parts per million

std::uint32_t U32(std::string_view key, Args& args) {
  return ParseUnsigned<std::uint32_t>(key, args.Value(key));
}

// The NSCC parameter `kw` names; false when `kw` is not one.
bool ParseNscc(Kw kw, std::string_view key, Args& args, mrc::Nscc& nscc) {
  switch (kw) {
    case Kw::kBaseRtt:
      SetOnce(nscc.base_rtt, U32(key, args), key);
      return true;
    case Kw::kTargetDelay:
      SetOnce(nscc.target_delay, U32(key, args), key);
      return true;
    case Kw::kMaxCwnd:
      SetOnce(nscc.max_cwnd, U32(key, args), key);
      return true;
    case Kw::kEta:
      SetOnce(nscc.eta, ParsePpm(key, args.Value(key)), key);
      return true;
    case Kw::kFi:
      SetOnce(nscc.fi, ParsePpm(key, args.Value(key)), key);
      return true;
    case Kw::kFiScale:
      SetOnce(nscc.fi_scale, ParsePpm(key, args.Value(key)), key);
      return true;
    case Kw::kGamma:
      SetOnce(nscc.gamma, ParsePpm(key, args.Value(key)), key);
      return true;
    case Kw::kMaxMdJump:
      SetOnce(nscc.max_md_jump, ParsePpm(key, args.Value(key), kOne), key);
      return true;
    case Kw::kQaGate:
      SetOnce(nscc.qa_gate, ParseUnsigned<std::uint8_t>(key, args.Value(key)), key);
      return true;
    case Kw::kQaThreshold:
      SetOnce(nscc.qa_threshold, U32(key, args), key);
      return true;
    case Kw::kDisableQa:
      SetOnce(nscc.disable_qa, ParseName(kOnOff, key, args.Value(key)), key);
      return true;
    case Kw::kAdjustBytes:
      SetOnce(nscc.adjust_bytes, U32(key, args), key);
      return true;
    case Kw::kAdjustPeriod:
      SetOnce(nscc.adjust_period, U32(key, args), key);
      return true;
    default:
      return false;
  }
}

template <std::size_t N>
mrc::CcProfile Parse(Args& args, const std::array<Name<Kw>, N>& table, bool positional_id) {
  mrc::CcProfile profile;
  while (!args.Empty()) {
    const std::string_view word = args.Next();
    if (positional_id && PositionalId(word, profile.id, 1, MRC_MAX_CC_PROFILES)) {
      continue;
    }
    const Name<Kw>& kw = MatchKeyword(table, word);
    const std::string_view key = kw.name;
    if (ParseNscc(kw.value, key, args, profile.nscc)) {
      continue;
    }
    if (kw.value == Kw::kId) {
      SetOnce(profile.id,
              ParseUnsigned<std::uint32_t>(key, args.Value(key), 1, MRC_MAX_CC_PROFILES), key);
    } else if (kw.value == Kw::kAlgorithm) {
      SetOnce(profile.algorithm, std::string(ParseName(kCcAlgorithms, key, args.Value(key))), key);
    } else {
      SetOnce(profile.state, ParseName(kProfileStates, key, args.Value(key)), key);
    }
  }
  const mrc::Nscc& nscc = profile.nscc;
  if (nscc.base_rtt && nscc.target_delay && *nscc.target_delay < *nscc.base_rtt) {
    Usage("target-delay " + std::to_string(*nscc.target_delay) + " is below base-rtt " +
          std::to_string(*nscc.base_rtt) + ".");
  }
  return profile;
}

void Print(const Context& ctx, const std::vector<mrc::CcProfile>& profiles) {
  std::vector<Record> records;
  std::transform(
      profiles.begin(), profiles.end(), std::back_inserter(records),
      [&](const mrc::CcProfile& profile) { return CcProfileRecord(profile, ctx.opts()); });
  PrintRecords(ctx, records);
}

void Print(const Context& ctx, const std::optional<mrc::CcProfile>& profile) {
  if (profile) {
    Print(ctx, std::vector<mrc::CcProfile>{*profile});
  }
}

std::uint32_t RequireId(const mrc::CcProfile& profile) {
  if (!profile.id) {
    Usage("profile ID is required.");
  }
  return *profile.id;
}

}  // namespace

void CcProfileUsage(std::ostream& out) {
  out << "Usage: mrcctl cc-profile add [ id ID ] [ algorithm ALGORITHM ] [ NSCC ]\n"
         "                             [ state STATE ]\n"
         "       mrcctl cc-profile set ID [ algorithm ALGORITHM ] [ NSCC ] [ state STATE ]\n"
         "       mrcctl cc-profile show [ ID ]\n"
         "       mrcctl cc-profile del ID\n"
         "       mrcctl cc-profile help\n"
         "where  ID := 1.."
      << MRC_MAX_CC_PROFILES << "\n"
      << "       ALGORITHM := { " << Choices(kCcAlgorithms, " | ") << " }\n"
      << "       NSCC := [ base-rtt NS ] [ target-delay NS ] [ max-cwnd BYTES ] [ eta F ]\n"
         "               [ fi F ] [ fi-scale F ] [ gamma F ] [ max-md-jump F ]\n"
         "               [ qa-gate N ] [ qa-threshold NS ] [ disable-qa { on | off } ]\n"
         "               [ adjust-bytes BYTES ] [ adjust-period NS ]\n"
         "       F := a decimal with up to 6 decimals (max-md-jump <= 1), N := 0..255\n"
         "       STATE := { "
      << Choices(kProfileStates, " | ") << " }\n";
}

int RunCcProfile(Context& ctx, Args& args) {
  switch (TakeCommand(args, kCommands, "cc-profile")) {
    case Command::kAdd:
      Print(ctx, ctx.control().NewCcProfile(Parse(args, kKeywords, false)));
      return kExitOk;
    case Command::kSet: {
      const mrc::CcProfile profile = Parse(args, kKeywords, true);
      RequireId(profile);
      Print(ctx, ctx.control().SetCcProfile(profile));
      return kExitOk;
    }
    case Command::kDel:
      ctx.control().DelCcProfile(RequireId(Parse(args, kIdKeywords, true)));
      return kExitOk;
    case Command::kHelp:
      args.ExpectEnd();
      CcProfileUsage(ctx.out());
      return kExitOk;
    case Command::kShow:
    case Command::kProbe:
      break;
  }
  const mrc::CcProfile selector = Parse(args, kIdKeywords, true);
  if (selector.id) {
    Print(ctx, std::vector<mrc::CcProfile>{ctx.control().GetCcProfile(*selector.id)});
  } else {
    Print(ctx, ctx.control().DumpCcProfiles());
  }
  return kExitOk;
}

}  // namespace mrcctl
