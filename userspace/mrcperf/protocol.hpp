// SPDX-License-Identifier: GPL-2.0
// mrcperf's own wire protocol, two fixed-size big-endian records:
//
//   client -> server  Hello   (40 bytes), then the data, then SHUT_WR
//   server -> client  Result  (64 bytes), once the server read EOF
//
// In seqpacket mode each record is one message of its own.
//
// Hello:  magic "MRPH" | version u16 | mode u8 | flags u8 | length u32 |
//         reserved u32 | total bytes u64 | duration ms u64 | seed u64
// Result: magic "MRPR" | version u16 | reserved u16 | bytes u64 |
//         messages u64 | mismatches u64 | bad messages u64 |
//         first mismatch offset u64 (all ones: none) | longest gap us u64 |
//         duration us u64
//
// Hello flags: 0x01 --verify, 0x02 --pingpong. A ping-pong client sends
// messages of `length` bytes and the server echoes each whole before the
// next comes; total bytes is then (warmup + count) x length, or 0 with a
// duration. A version 1 peer that predates ping-pong refuses the unknown
// flag, so the version stays 1: throughput runs still mix old and new.
//
// A seqpacket data message carries its number (u64, big-endian) in its
// first 8 bytes; with --verify the rest holds the pattern at the message's
// stream offset (number x length).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "options.hpp"

namespace mrcperf {

inline constexpr std::uint32_t kHelloMagic = 0x4d525048;   // "MRPH"
inline constexpr std::uint32_t kResultMagic = 0x4d525052;  // "MRPR"
inline constexpr std::uint16_t kProtocolVersion = 1;
inline constexpr std::size_t kHelloSize = 40;
inline constexpr std::size_t kResultSize = 64;
inline constexpr std::uint8_t kFlagVerify = 0x01;
inline constexpr std::uint8_t kFlagPingpong = 0x02;

// What the client is about to send.
struct Hello {
  Mode mode = Mode::kStream;
  bool verify = false;
  bool pingpong = false;          // echo each message back (round-trip latency)
  std::uint32_t length = 0;       // bytes per send() / message
  std::uint64_t total_bytes = 0;  // 0: time-bound
  std::chrono::milliseconds duration{0};
  std::uint64_t seed = 0;

  bool operator==(const Hello&) const = default;
};

// What the server received.
struct Result {
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;
  std::uint64_t mismatches = 0;
  std::uint64_t bad_messages = 0;  // seqpacket: wrong number, length or truncated
  std::optional<std::uint64_t> first_mismatch;
  std::chrono::microseconds longest_gap{0};
  std::chrono::microseconds duration{0};

  bool operator==(const Result&) const = default;
};

std::array<std::uint8_t, kHelloSize> Encode(const Hello& hello);
std::array<std::uint8_t, kResultSize> Encode(const Result& result);

// Both throw ProtocolError naming what is wrong.
Hello DecodeHello(std::span<const std::uint8_t> bytes);
Result DecodeResult(std::span<const std::uint8_t> bytes);

}  // namespace mrcperf
