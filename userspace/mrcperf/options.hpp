// SPDX-License-Identifier: GPL-2.0
// The command line of mrcperf: what a run is asked to do, parsed and
// checked before any socket is opened. Mistakes throw UsageError.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mrcperf {

enum class Role { kServer, kClient };

// The socket underneath. kMrc is AF_MRC; kTcp plain TCP over AF_INET or
// AF_INET6, so every code path can be exercised without mrc.ko; kMptcp
// the same with IPPROTO_MPTCP; kUdp raw UDP datagrams, the latency floor
// (--pingpong only).
enum class TransportKind { kMrc, kTcp, kMptcp, kUdp };

// kStream: SOCK_STREAM, a byte stream. kSeqpacket: SOCK_SEQPACKET, whole
// numbered messages (AF_MRC only: TCP has no message boundaries).
enum class Mode { kStream, kSeqpacket };

inline constexpr std::uint16_t kDefaultPort = 5201;
inline constexpr std::uint32_t kDefaultStreamLength = 128 * 1024;  // bytes per send()
inline constexpr std::uint32_t kDefaultMessageLength = 4096;       // bytes per message
inline constexpr std::uint32_t kMinMessageLength = 8;              // room for the message number
inline constexpr std::uint32_t kMaxLength = 16 * 1024 * 1024;
inline constexpr double kDefaultSeconds = 10.0;
inline constexpr std::uint32_t kDefaultPingLength = 64;  // bytes per ping-pong message
inline constexpr std::uint32_t kMaxUdpLength = 65507;    // largest IPv4 UDP payload
inline constexpr std::uint32_t kDefaultWarmup = 100;     // exchanges before measuring
inline constexpr std::uint32_t kMaxParallel = 256;

struct Options {
  Role role = Role::kClient;
  TransportKind transport = TransportKind::kMrc;
  Mode mode = Mode::kStream;
  std::string host;       // -c: the server to reach
  std::string bind_host;  // -B: local address, empty = any
  std::uint16_t port = kDefaultPort;
  bool one_off = false;                   // -1: serve one client, then exit (clients = 1)
  std::uint32_t clients = 0;              // --clients: serve this many, then exit; 0 = forever
  std::uint32_t parallel = 1;             // -P: connections of a client run
  bool pingpong = false;                  // --pingpong: round-trip latency instead of throughput
  std::uint64_t count = 0;                // --count: measured exchanges; 0 = time-bound
  std::uint32_t warmup = kDefaultWarmup;  // --warmup: exchanges not measured
  bool verify = false;
  bool zerocopy = false;  // --zerocopy: MSG_ZEROCOPY stream sends
  bool json = false;
  bool help = false;                                 // -h: print the usage and succeed
  std::uint64_t bytes = 0;                           // -n: bytes to send; 0 = time-bound
  std::chrono::milliseconds duration{0};             // -t: how long to send when bytes == 0
  std::uint32_t length = 0;                          // -l: send()/message size
  std::chrono::milliseconds interval{0};             // -i: 0 = no interval reports
  std::optional<std::chrono::milliseconds> timeout;  // --timeout
  std::chrono::milliseconds wait_server{0};          // --wait-server: retry refused connects
};

// Parses the arguments after the program name.
Options ParseOptions(std::span<const std::string_view> args);

// "4096", "64K", "256M", "2G", "1T": binary multiples (256M = 256 MiB).
std::uint64_t ParseSize(std::string_view text);

// The grammar printed on misuse and with -h.
std::string_view UsageText();

std::string_view Name(TransportKind transport);
std::string_view Name(Mode mode);
std::string_view Name(Role role);

}  // namespace mrcperf
