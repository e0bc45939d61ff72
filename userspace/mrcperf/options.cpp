// SPDX-License-Identifier: GPL-2.0
// Option parsing without getopt: its global state would forbid parsing in
// two threads at once, which the end-to-end tests do.
#include "options.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "error.hpp"

namespace mrcperf {
namespace {

using std::chrono::milliseconds;

constexpr std::string_view kUsage =
    "Usage: mrcperf -s [ -p PORT ] [ -B ADDR ] [ -1 | --clients N ] [ --seqpacket ]\n"
    "                  [ --verify ] [ --pingpong ] [ -i SECONDS ] [ --timeout MS ] [ -J ]\n"
    "                  [ --tcp | --mptcp | --udp ]\n"
    "       mrcperf -c ADDR [ -p PORT ] [ -B ADDR ] [ -n BYTES | -t SECONDS ] [ -P N ]\n"
    "                  [ --seqpacket ] [ -l LENGTH ] [ --verify ] [ --zerocopy ]\n"
    "                  [ -i SECONDS ] [ --timeout MS ] [ --wait-server MS ] [ -J ]\n"
    "                  [ --tcp | --mptcp ]\n"
    "       mrcperf -c ADDR --pingpong [ -t SECONDS | --count N ] [ --warmup N ]\n"
    "                  [ -l LENGTH ] [ -P N ] [ --tcp | --mptcp | --udp ] ...\n"
    "\n"
    "  -s, --server         receive: wait for clients on PORT (default 5201)\n"
    "  -c, --client ADDR    send to the server at ADDR (name, IPv4 or IPv6)\n"
    "  -p, --port PORT      service port, 1..65535\n"
    "  -B, --bind ADDR      local address to bind\n"
    "  -1, --one-off        serve one client, then exit with its status (--clients 1)\n"
    "      --clients N      serve N clients, each on its own thread, then exit\n"
    "                       with the worst status; one JSON object when N > 1\n"
    "  -P, --parallel N     N connections at once (1..256), -n BYTES each; one\n"
    "                       JSON object with \"connections\" and the sums when N > 1\n"
    "  -n, --bytes BYTES    send BYTES (suffixes K, M, G, T: binary multiples)\n"
    "  -t, --time SECONDS   send for SECONDS (default 10; SIGUSR1 ends it early)\n"
    "  -l, --length LENGTH  bytes per send(): default 128K for a stream,\n"
    "                       4096 per message with --seqpacket (8..16M),\n"
    "                       64 per exchange with --pingpong (8..65507 with --udp)\n"
    "      --seqpacket      SOCK_SEQPACKET: numbered messages checked whole\n"
    "      --verify         send a seeded pseudo-random pattern, check every byte\n"
    "      --zerocopy       stream sends with MSG_ZEROCOPY (AF_MRC or TCP): the kernel\n"
    "                       sends from our buffers, which wait for its completions\n"
    "      --pingpong       round-trip latency: send LENGTH bytes, wait for their\n"
    "                       echo, repeat; any server echoes a --pingpong client,\n"
    "                       -s --pingpong refuses throughput clients\n"
    "      --count N        --pingpong: N measured exchanges instead of -t\n"
    "      --warmup N       --pingpong: N exchanges first, not measured (default 100)\n"
    "  -i, --interval SECS  a report line every SECS (0.1..3600)\n"
    "      --timeout MS     give up after MS without progress (connect, send, recv)\n"
    "      --wait-server MS a refused connect is tried again for up to MS: a\n"
    "                       server started at the same time has time to listen\n"
    "  -J, --json           print one JSON object on stdout\n"
    "      --tcp            plain TCP instead of AF_MRC (no --seqpacket)\n"
    "      --mptcp          MPTCP (IPPROTO_MPTCP) instead of AF_MRC (no --seqpacket)\n"
    "      --udp            raw UDP echo, with --pingpong only: the latency floor;\n"
    "                       the server's -1 ends at the client's end marker\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 ok, 1 usage, 2 runtime error or short transfer, 3 data mismatch.\n";

struct Spec {
  char short_name;  // '\0' when only the long form exists
  std::string_view long_name;
  bool takes_value;
  bool client_only;
  bool server_only;
  std::function<void(Options&, std::string_view)> apply;

  [[nodiscard]] bool is_role() const { return long_name == "server" || long_name == "client"; }
};

[[noreturn]] void Fail(const std::string& text) { throw UsageError(text); }

template <typename T>
T ParseInteger(std::string_view option, std::string_view text, T min, T max) {
  T value{};
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    Fail(std::string(option) + " \"" + std::string(text) + "\" is not a number");
  }
  if (ec == std::errc::result_out_of_range || value < min || value > max) {
    Fail(std::string(option) + " " + std::string(text) + " is out of range " + std::to_string(min) +
         ".." + std::to_string(max));
  }
  return value;
}

// Seconds with an optional fraction ("0.5"), rounded to milliseconds.
milliseconds ParseSeconds(std::string_view option, std::string_view text, double min, double max) {
  double value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    Fail(std::string(option) + " \"" + std::string(text) + "\" is not a number of seconds");
  }
  if (value < min || value > max) {
    Fail(std::string(option) + " " + std::string(text) + " is out of range");
  }
  return milliseconds(std::llround(value * 1000.0));
}

const std::array<Spec, 24>& Specs() {
  static const std::array<Spec, 24> specs{{
      {'s', "server", false, false, false, [](Options& o, auto) { o.role = Role::kServer; }},
      {'c', "client", true, false, false,
       [](Options& o, std::string_view v) {
         if (v.empty()) {
           Fail("-c needs a server address");
         }
         o.host = v;
       }},
      {'p', "port", true, false, false,
       [](Options& o, std::string_view v) {
         o.port = ParseInteger<std::uint16_t>("-p", v, 1, 65535);
       }},
      {'B', "bind", true, false, false,
       [](Options& o, std::string_view v) {
         if (v.empty()) {
           Fail("-B needs an address");
         }
         o.bind_host = v;
       }},
      {'1', "one-off", false, false, true, [](Options& o, auto) { o.one_off = true; }},
      {'\0', "clients", true, false, true,
       [](Options& o, std::string_view v) {
         o.clients = ParseInteger<std::uint32_t>("--clients", v, 1, 65535);
       }},
      {'P', "parallel", true, true, false,
       [](Options& o, std::string_view v) {
         o.parallel = ParseInteger<std::uint32_t>("-P", v, 1, kMaxParallel);
       }},
      {'\0', "pingpong", false, false, false, [](Options& o, auto) { o.pingpong = true; }},
      {'\0', "count", true, true, false,
       [](Options& o, std::string_view v) {
         o.count = ParseInteger<std::uint64_t>("--count", v, 1, 1'000'000'000);
       }},
      {'\0', "warmup", true, true, false,
       [](Options& o, std::string_view v) {
         o.warmup = ParseInteger<std::uint32_t>("--warmup", v, 0, 1'000'000);
       }},
      {'n', "bytes", true, true, false,
       [](Options& o, std::string_view v) {
         o.bytes = ParseSize(v);
         if (o.bytes == 0) {
           Fail("-n 0: nothing to send");
         }
       }},
      {'t', "time", true, true, false,
       [](Options& o, std::string_view v) { o.duration = ParseSeconds("-t", v, 0.001, 86400); }},
      {'l', "length", true, true, false,
       [](Options& o, std::string_view v) {
         const std::uint64_t length = ParseSize(v);
         if (length < 1 || length > kMaxLength) {
           Fail("-l " + std::string(v) + " is out of range 1..16M");
         }
         o.length = static_cast<std::uint32_t>(length);
       }},
      {'\0', "seqpacket", false, false, false, [](Options& o, auto) { o.mode = Mode::kSeqpacket; }},
      {'\0', "verify", false, false, false, [](Options& o, auto) { o.verify = true; }},
      {'\0', "zerocopy", false, true, false, [](Options& o, auto) { o.zerocopy = true; }},
      {'i', "interval", true, false, false,
       [](Options& o, std::string_view v) {
         o.interval = ParseSeconds("-i", v, 0, 3600);
         if (o.interval.count() != 0 && o.interval < milliseconds(100)) {
           Fail("-i " + std::string(v) + " is out of range 0.1..3600 (0 turns it off)");
         }
       }},
      {'\0', "timeout", true, false, false,
       [](Options& o, std::string_view v) {
         o.timeout = milliseconds(ParseInteger<std::uint32_t>("--timeout", v, 1, 3'600'000));
       }},
      {'\0', "wait-server", true, true, false,
       [](Options& o, std::string_view v) {
         o.wait_server =
             milliseconds(ParseInteger<std::uint32_t>("--wait-server", v, 1, 3'600'000));
       }},
      {'J', "json", false, false, false, [](Options& o, auto) { o.json = true; }},
      {'\0', "tcp", false, false, false,
       [](Options& o, auto) { o.transport = TransportKind::kTcp; }},
      {'\0', "mptcp", false, false, false,
       [](Options& o, auto) { o.transport = TransportKind::kMptcp; }},
      {'\0', "udp", false, false, false,
       [](Options& o, auto) { o.transport = TransportKind::kUdp; }},
      {'h', "help", false, false, false, [](Options& o, auto) { o.help = true; }},
  }};
  return specs;
}

const Spec* FindSpec(std::string_view word) {
  const auto& specs = Specs();
  const auto* found = std::find_if(specs.begin(), specs.end(), [&](const Spec& spec) {
    if (word.starts_with("--")) {
      return word.substr(2) == spec.long_name;
    }
    return word.size() == 2 && spec.short_name != '\0' && word[1] == spec.short_name;
  });
  return found == specs.end() ? nullptr : found;
}

std::string Spelling(const Spec& spec) {
  return spec.short_name != '\0' ? std::string{'-', spec.short_name}
                                 : "--" + std::string(spec.long_name);
}

using Given = std::function<bool(std::string_view long_name)>;

// The socket kinds: one at most, and what each of them can carry.
void CheckTransport(const Options& options, const Given& given) {
  const auto kinds = std::ranges::count_if(std::array<std::string_view, 3>{"tcp", "mptcp", "udp"},
                                           [&](std::string_view name) { return given(name); });
  if (kinds > 1) {
    Fail("--tcp, --mptcp and --udp exclude each other");
  }
  if (options.mode == Mode::kSeqpacket) {
    if (options.transport == TransportKind::kTcp || options.transport == TransportKind::kMptcp) {
      Fail("--seqpacket needs AF_MRC: " +
           std::string(options.transport == TransportKind::kTcp ? "TCP" : "MPTCP") +
           " has no message boundaries");
    }
    if (options.transport == TransportKind::kUdp) {
      Fail("--seqpacket and --udp exclude each other");
    }
  }
  if (options.transport == TransportKind::kUdp && !options.pingpong) {
    Fail("--udp needs --pingpong: the UDP echo measures round trips only");
  }
  if (options.transport == TransportKind::kUdp && options.parallel > 1) {
    Fail("-P and --udp exclude each other: the UDP echo serves one flow at a time");
  }
  if (options.zerocopy &&
      (options.mode == Mode::kSeqpacket || options.pingpong ||
       options.transport == TransportKind::kMptcp || options.transport == TransportKind::kUdp)) {
    Fail(
        "--zerocopy sends a stream over AF_MRC or TCP: not with --seqpacket, --pingpong, "
        "--mptcp or --udp");
  }
}

// -n, -t, --count and --warmup: what bounds a run.
void CheckBounds(const Options& options, const Given& given) {
  if (given("bytes") && given("time")) {
    Fail("-n and -t exclude each other");
  }
  if (given("count") && given("time")) {
    Fail("--count and -t exclude each other");
  }
  if (!options.pingpong) {
    for (const std::string_view name : {"count", "warmup"}) {
      if (given(name)) {
        Fail("--" + std::string(name) + " needs --pingpong");
      }
    }
  } else if (given("bytes")) {
    Fail("-n is for throughput: --pingpong runs for -t SECONDS or --count N");
  }
  if (options.one_off && given("clients")) {
    Fail("-1 and --clients exclude each other (-1 is --clients 1)");
  }
}

std::uint32_t DefaultLength(const Options& options) {
  if (options.pingpong) {
    return kDefaultPingLength;
  }
  return options.mode == Mode::kSeqpacket ? kDefaultMessageLength : kDefaultStreamLength;
}

void CheckLength(const Options& options) {
  if (options.mode == Mode::kSeqpacket && options.length < kMinMessageLength) {
    Fail("-l " + std::to_string(options.length) +
         " is too short for --seqpacket: messages carry an 8-byte number");
  }
  if (options.transport == TransportKind::kUdp &&
      (options.length < kMinMessageLength || options.length > kMaxUdpLength)) {
    Fail("-l " + std::to_string(options.length) +
         " is out of range 8..65507 for --udp: " + "datagrams carry an 8-byte sequence number");
  }
}

// Checks that need the whole command line, then the defaults that
// depend on it.
void CheckTogether(Options& options, const Given& given) {
  CheckTransport(options, given);
  CheckBounds(options, given);
  if (options.role == Role::kServer) {
    if (options.one_off) {
      options.clients = 1;
    }
    return;
  }
  if (!given("bytes") && !given("time") && !given("count")) {
    options.duration = milliseconds(std::llround(kDefaultSeconds * 1000.0));
  }
  if (options.length == 0) {
    options.length = DefaultLength(options);
  }
  CheckLength(options);
}

// Applies the option at args[i] (and its value, advancing i past it).
const Spec& TakeOption(std::span<const std::string_view> args, std::size_t& i, Options& options) {
  std::string_view word = args[i];
  std::optional<std::string_view> inline_value;
  if (const auto equals = word.find('=');
      word.starts_with("--") && equals != std::string_view::npos) {
    inline_value = word.substr(equals + 1);
    word = word.substr(0, equals);
  }
  const Spec* spec = word.starts_with('-') ? FindSpec(word) : nullptr;
  if (spec == nullptr) {
    Fail(word.starts_with('-') ? "option \"" + std::string(word) + "\" is unknown"
                               : "unexpected argument \"" + std::string(word) + "\"");
  }
  std::string_view value;
  if (spec->takes_value) {
    if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      Fail(std::string(word) + " needs a value");
    }
  } else if (inline_value) {
    Fail(std::string(word) + " takes no value");
  }
  spec->apply(options, value);
  return *spec;
}

}  // namespace

std::uint64_t ParseSize(std::string_view text) {
  std::string_view digits = text;
  std::uint64_t multiplier = 1;
  if (!text.empty()) {
    constexpr std::string_view kSuffixes = "KMGT";
    const auto suffix = kSuffixes.find(static_cast<char>(std::toupper(text.back())));
    if (suffix != std::string_view::npos) {
      multiplier = std::uint64_t{1} << (10 * (suffix + 1));
      digits.remove_suffix(1);
    }
  }
  std::uint64_t value = 0;
  const auto* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (digits.empty() || ec == std::errc::invalid_argument || ptr != end) {
    throw UsageError("size \"" + std::string(text) + "\" is not a number with K, M, G or T");
  }
  if (ec == std::errc::result_out_of_range ||
      value > std::numeric_limits<std::uint64_t>::max() / multiplier) {
    throw UsageError("size " + std::string(text) + " is too large");
  }
  return value * multiplier;
}

Options ParseOptions(std::span<const std::string_view> args) {
  Options options;
  std::vector<const Spec*> seen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Spec& spec = TakeOption(args, i, options);
    if (spec.is_role() && std::ranges::any_of(seen, &Spec::is_role)) {
      Fail("-s and -c exclude each other");
    }
    seen.push_back(&spec);
  }
  if (options.help) {
    return options;
  }
  const auto given = [&](std::string_view name) {
    return std::ranges::any_of(seen, [&](const Spec* spec) { return spec->long_name == name; });
  };
  if (!given("server") && !given("client")) {
    Fail("one of -s or -c is required");
  }
  for (const Spec* spec : seen) {
    if (spec->client_only && options.role == Role::kServer) {
      Fail(Spelling(*spec) + " is a client option");
    }
    if (spec->server_only && options.role == Role::kClient) {
      Fail(Spelling(*spec) + " is a server option");
    }
  }
  CheckTogether(options, given);
  return options;
}

std::string_view UsageText() { return kUsage; }

std::string_view Name(TransportKind transport) {
  switch (transport) {
    case TransportKind::kTcp:
      return "tcp";
    case TransportKind::kMptcp:
      return "mptcp";
    case TransportKind::kUdp:
      return "udp";
    case TransportKind::kMrc:
      break;
  }
  return "mrc";
}

std::string_view Name(Mode mode) { return mode == Mode::kSeqpacket ? "seqpacket" : "stream"; }

std::string_view Name(Role role) { return role == Role::kServer ? "server" : "client"; }

}  // namespace mrcperf
