// SPDX-License-Identifier: GPL-2.0
// mrcctl plane { add | del | set | show }: the planes of this network
// namespace, one netdev each (MRC_CMD_PLANE_*).
#include <linux/mrc_netlink.h>

#include <algorithm>

#include "mrc/error.hpp"
#include "objects.hpp"
#include "records.hpp"

namespace mrcctl {
namespace {

enum class Kw { kDev, kId, kAddr, kAddr6, kPort, kWeight, kMtu, kState, kOffload };

constexpr std::array<Name<Kw>, 9> kSetKeywords{{
    {"dev", Kw::kDev},
    {"id", Kw::kId},
    {"addr", Kw::kAddr},
    {"addr6", Kw::kAddr6},
    {"port", Kw::kPort},
    {"weight", Kw::kWeight},
    {"mtu", Kw::kMtu},
    {"state", Kw::kState},
    {"offload", Kw::kOffload},
}};

constexpr std::array<Name<Kw>, 2> kSelectKeywords{{
    {"dev", Kw::kDev},
    {"id", Kw::kId},
}};

constexpr std::array<Name<Command>, 7> kCommands{{
    {"add", Command::kAdd},
    {"del", Command::kDel},
    {"delete", Command::kDel},
    {"set", Command::kSet},
    {"show", Command::kShow},
    {"list", Command::kShow},
    {"help", Command::kHelp},
}};

constexpr std::uint32_t kMaxId = MRC_MAX_PLANES - 1;

// What the words of a plane command say.
struct PlaneArgs {
  mrc::Plane plane;
  std::optional<std::string_view> dev;
};

void SetAddress(mrc::Plane& plane, std::string_view keyword, std::string_view text) {
  const Address addr = ParseAddress(keyword, text, keyword == "addr6" ? AF_INET6 : AF_UNSPEC);
  if (const auto* addr4 = std::get_if<in_addr>(&addr)) {
    if (plane.addr4) {
      Usage("only one IPv4 addr may be given.");
    }
    plane.addr4 = *addr4;
  } else {
    if (plane.addr6) {
      Usage("only one IPv6 addr may be given.");
    }
    plane.addr6 = std::get<in6_addr>(addr);
  }
}

std::uint32_t ParseMtu(std::string_view text) {
  if (!text.empty() && std::string_view("auto").starts_with(text)) {
    return 0;
  }
  const auto mtu = ParseUnsigned<std::uint32_t>("mtu", text, 0, MRC_PLANE_MTU_MAX);
  if (mtu != 0 && mtu < MRC_PLANE_MTU_MIN) {
    Usage("mtu " + std::string(text) + " is out of range " + std::to_string(MRC_PLANE_MTU_MIN) +
          ".." + std::to_string(MRC_PLANE_MTU_MAX) + " (or 0 for auto).");
  }
  return mtu;
}

// Parses `args` with the keywords of `table`; a bare number is the ID.
template <std::size_t N>
PlaneArgs Parse(Args& args, const std::array<Name<Kw>, N>& table, bool positional_id) {
  PlaneArgs parsed;
  mrc::Plane& plane = parsed.plane;
  while (!args.Empty()) {
    const std::string_view word = args.Next();
    if (positional_id && PositionalId(word, plane.id, 0, kMaxId)) {
      continue;
    }
    const Name<Kw>& kw = MatchKeyword(table, word);
    const std::string_view key = kw.name;
    switch (kw.value) {
      case Kw::kDev:
        SetOnce(parsed.dev, args.Value(key), key);
        break;
      case Kw::kId:
        SetOnce(plane.id, ParseUnsigned<std::uint32_t>(key, args.Value(key), 0, kMaxId), key);
        break;
      case Kw::kAddr:
      case Kw::kAddr6:
        SetAddress(plane, key, args.Value(key));
        break;
      case Kw::kPort:
        SetOnce(plane.port, ParseUnsigned<std::uint16_t>(key, args.Value(key), 1), key);
        break;
      case Kw::kWeight:
        SetOnce(plane.weight,
                ParseUnsigned<std::uint32_t>(key, args.Value(key), 1, MRC_PLANE_WEIGHT_MAX), key);
        break;
      case Kw::kMtu:
        SetOnce(plane.mtu, ParseMtu(args.Value(key)), key);
        break;
      case Kw::kState:
        SetOnce(plane.state, ParseName(kPlaneStates, key, args.Value(key)), key);
        break;
      case Kw::kOffload:
        SetOnce(plane.offload_mode, ParseName(kOffloadModes, key, args.Value(key)), key);
        break;
    }
  }
  return parsed;
}

// del/set/show name the plane by ID or by device, not both.
void CheckSelector(const PlaneArgs& parsed, bool required) {
  if (parsed.plane.id && parsed.dev) {
    Usage("give either the plane ID or dev NAME, not both.");
  }
  if (required && !parsed.plane.id && !parsed.dev) {
    Usage("plane ID or dev NAME is required.");
  }
}

std::vector<mrc::Plane> PlanesOn(Context& ctx, std::uint32_t ifindex) {
  std::vector<mrc::Plane> planes = ctx.control().DumpPlanes();
  std::erase_if(planes, [ifindex](const mrc::Plane& plane) { return plane.ifindex != ifindex; });
  return planes;
}

// The ID of the plane `parsed` names, looking the device up if needed.
std::uint32_t ResolveId(Context& ctx, const PlaneArgs& parsed) {
  if (parsed.plane.id) {
    return *parsed.plane.id;
  }
  const std::uint32_t ifindex = ctx.Ifindex(*parsed.dev);
  const std::vector<mrc::Plane> planes = PlanesOn(ctx, ifindex);
  if (planes.empty() || !planes.front().id) {
    throw mrc::Error("no plane on device \"" + std::string(*parsed.dev) + "\"");
  }
  if (planes.size() > 1) {
    throw mrc::Error("several planes on device \"" + std::string(*parsed.dev) +
                     "\", give the plane ID");
  }
  return *planes.front().id;
}

void Print(const Context& ctx, const std::optional<mrc::Plane>& plane) {
  if (plane) {
    PrintRecords(ctx, {PlaneRecord(*plane, ctx.opts())});
  }
}

int Add(Context& ctx, Args& args) {
  PlaneArgs parsed = Parse(args, kSetKeywords, false);
  if (!parsed.dev) {
    Usage("dev NAME is required.");
  }
  parsed.plane.ifindex = ctx.Ifindex(*parsed.dev);
  Print(ctx, ctx.control().AddPlane(parsed.plane));
  return kExitOk;
}

int Del(Context& ctx, Args& args) {
  const PlaneArgs parsed = Parse(args, kSelectKeywords, true);
  CheckSelector(parsed, true);
  ctx.control().DelPlane(ResolveId(ctx, parsed));
  return kExitOk;
}

int Set(Context& ctx, Args& args) {
  PlaneArgs parsed = Parse(args, kSetKeywords, true);
  CheckSelector(parsed, true);
  parsed.plane.id = ResolveId(ctx, parsed);
  Print(ctx, ctx.control().SetPlane(parsed.plane));
  return kExitOk;
}

int Show(Context& ctx, Args& args) {
  const PlaneArgs parsed = Parse(args, kSelectKeywords, true);
  CheckSelector(parsed, false);
  std::vector<mrc::Plane> planes;
  if (parsed.plane.id) {
    planes.push_back(ctx.control().GetPlane(*parsed.plane.id));
  } else if (parsed.dev) {
    planes = PlanesOn(ctx, ctx.Ifindex(*parsed.dev));
  } else {
    planes = ctx.control().DumpPlanes();
  }
  std::vector<Record> records;
  std::transform(planes.begin(), planes.end(), std::back_inserter(records),
                 [&](const mrc::Plane& plane) { return PlaneRecord(plane, ctx.opts()); });
  PrintRecords(ctx, records);
  return kExitOk;
}

}  // namespace

void PlaneUsage(std::ostream& out) {
  out << "Usage: mrcctl plane add dev NAME [ id ID ] [ addr ADDR ]... [ port PORT ]\n"
         "                        [ weight WEIGHT ] [ mtu MTU ] [ state STATE ]\n"
         "                        [ offload OFFLOAD ]\n"
         "       mrcctl plane del { ID | id ID | dev NAME }\n"
         "       mrcctl plane set { ID | id ID | dev NAME } [ addr ADDR ]... [ port PORT ]\n"
         "                        [ weight WEIGHT ] [ mtu MTU ] [ state STATE ]\n"
         "                        [ offload OFFLOAD ]\n"
         "       mrcctl plane show [ ID | id ID | dev NAME ]\n"
         "       mrcctl plane help\n"
         "where  ID := 0.."
      << kMaxId
      << "\n"
         "       ADDR := { IPv4 | IPv6 }, at most one of each (addr6 IPv6 also works)\n"
         "       PORT := 1..65535 (default "
      << MRC_DEFAULT_UDP_PORT << ")\n"
      << "       WEIGHT := 1.." << MRC_PLANE_WEIGHT_MAX << " (default " << MRC_PLANE_WEIGHT_DEFAULT
      << ")\n"
      << "       MTU := { auto | 0 | " << MRC_PLANE_MTU_MIN << ".." << MRC_PLANE_MTU_MAX << " }\n"
      << "       STATE := { " << Choices(kPlaneStates, " | ") << " }\n"
      << "       OFFLOAD := { " << Choices(kOffloadModes, " | ")
      << " } (default auto: offload when the NIC's\n"
         "                  driver offers it; on: require it; off: software only)\n";
}

int RunPlane(Context& ctx, Args& args) {
  switch (TakeCommand(args, kCommands, "plane")) {
    case Command::kAdd:
      return Add(ctx, args);
    case Command::kDel:
      return Del(ctx, args);
    case Command::kSet:
      return Set(ctx, args);
    case Command::kHelp:
      args.ExpectEnd();
      PlaneUsage(ctx.out());
      return kExitOk;
    case Command::kShow:
    case Command::kProbe:
      break;
  }
  return Show(ctx, args);
}

}  // namespace mrcctl
