// SPDX-License-Identifier: GPL-2.0
// Encoding and strict decoding of the Hello and Result records.
#include "protocol.hpp"

#include <limits>
#include <string>

#include "error.hpp"

namespace mrcperf {
namespace {

constexpr std::uint64_t kNoMismatch = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint8_t kModeStream = 1;
constexpr std::uint8_t kModeSeqpacket = 2;

class Writer {
 public:
  explicit Writer(std::span<std::uint8_t> out) : out_(out) {}
  template <typename T>
  void Put(T value) {
    for (std::size_t i = sizeof(T); i > 0; --i) {
      out_[pos_++] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * (i - 1)));
    }
  }

 private:
  std::span<std::uint8_t> out_;
  std::size_t pos_ = 0;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> in) : in_(in) {}
  template <typename T>
  T Get() {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      value = (value << 8U) | in_[pos_++];
    }
    return static_cast<T>(value);
  }

 private:
  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
};

void CheckFrame(std::span<const std::uint8_t> bytes, std::size_t size, std::uint32_t magic,
                std::string_view what) {
  if (bytes.size() != size) {
    throw ProtocolError(std::string(what) + " has " + std::to_string(bytes.size()) +
                        " bytes, expected " + std::to_string(size));
  }
  Reader reader(bytes);
  if (reader.Get<std::uint32_t>() != magic) {
    throw ProtocolError(std::string(what) + " has a bad magic number: not an mrcperf peer");
  }
  const auto version = reader.Get<std::uint16_t>();
  if (version != kProtocolVersion) {
    throw ProtocolError(std::string(what) + " has protocol version " + std::to_string(version) +
                        ", this mrcperf speaks " + std::to_string(kProtocolVersion));
  }
}

}  // namespace

std::array<std::uint8_t, kHelloSize> Encode(const Hello& hello) {
  std::array<std::uint8_t, kHelloSize> bytes{};
  Writer writer(bytes);
  writer.Put(kHelloMagic);
  writer.Put(kProtocolVersion);
  writer.Put(hello.mode == Mode::kSeqpacket ? kModeSeqpacket : kModeStream);
  writer.Put(static_cast<std::uint8_t>((hello.verify ? kFlagVerify : 0U) |
                                       (hello.pingpong ? kFlagPingpong : 0U)));
  writer.Put(hello.length);
  writer.Put(std::uint32_t{0});
  writer.Put(hello.total_bytes);
  writer.Put(static_cast<std::uint64_t>(hello.duration.count()));
  writer.Put(hello.seed);
  return bytes;
}

std::array<std::uint8_t, kResultSize> Encode(const Result& result) {
  std::array<std::uint8_t, kResultSize> bytes{};
  Writer writer(bytes);
  writer.Put(kResultMagic);
  writer.Put(kProtocolVersion);
  writer.Put(std::uint16_t{0});
  writer.Put(result.bytes);
  writer.Put(result.messages);
  writer.Put(result.mismatches);
  writer.Put(result.bad_messages);
  writer.Put(result.first_mismatch.value_or(kNoMismatch));
  writer.Put(static_cast<std::uint64_t>(result.longest_gap.count()));
  writer.Put(static_cast<std::uint64_t>(result.duration.count()));
  return bytes;
}

Hello DecodeHello(std::span<const std::uint8_t> bytes) {
  CheckFrame(bytes, kHelloSize, kHelloMagic, "hello");
  Reader reader(bytes.subspan(6));
  Hello hello;
  const auto mode = reader.Get<std::uint8_t>();
  if (mode != kModeStream && mode != kModeSeqpacket) {
    throw ProtocolError("hello has unknown mode " + std::to_string(mode));
  }
  hello.mode = mode == kModeSeqpacket ? Mode::kSeqpacket : Mode::kStream;
  const auto flags = reader.Get<std::uint8_t>();
  if ((flags & ~(kFlagVerify | kFlagPingpong)) != 0) {
    throw ProtocolError("hello has unknown flags " + std::to_string(flags));
  }
  hello.verify = (flags & kFlagVerify) != 0;
  hello.pingpong = (flags & kFlagPingpong) != 0;
  hello.length = reader.Get<std::uint32_t>();
  const std::uint32_t min_length = hello.mode == Mode::kSeqpacket ? kMinMessageLength : 1;
  if (hello.length < min_length || hello.length > kMaxLength) {
    throw ProtocolError("hello has length " + std::to_string(hello.length) + ", out of range " +
                        std::to_string(min_length) + ".." + std::to_string(kMaxLength));
  }
  if (reader.Get<std::uint32_t>() != 0) {
    throw ProtocolError("hello has reserved bits set");
  }
  hello.total_bytes = reader.Get<std::uint64_t>();
  const auto duration_ms = reader.Get<std::uint64_t>();
  if ((hello.total_bytes == 0) == (duration_ms == 0)) {
    throw ProtocolError("hello must give exactly one of total bytes and duration");
  }
  if (duration_ms > 86'400'000) {
    throw ProtocolError("hello has duration " + std::to_string(duration_ms) + " ms, over a day");
  }
  hello.duration = std::chrono::milliseconds(duration_ms);
  hello.seed = reader.Get<std::uint64_t>();
  return hello;
}

Result DecodeResult(std::span<const std::uint8_t> bytes) {
  CheckFrame(bytes, kResultSize, kResultMagic, "result");
  Reader reader(bytes.subspan(6));
  if (reader.Get<std::uint16_t>() != 0) {
    throw ProtocolError("result has reserved bits set");
  }
  Result result;
  result.bytes = reader.Get<std::uint64_t>();
  result.messages = reader.Get<std::uint64_t>();
  result.mismatches = reader.Get<std::uint64_t>();
  result.bad_messages = reader.Get<std::uint64_t>();
  if (const auto first = reader.Get<std::uint64_t>(); first != kNoMismatch) {
    result.first_mismatch = first;
  }
  const auto gap_us = reader.Get<std::uint64_t>();
  const auto duration_us = reader.Get<std::uint64_t>();
  constexpr auto kMaxUs = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (gap_us > kMaxUs || duration_us > kMaxUs) {
    throw ProtocolError("result has an impossible duration");
  }
  result.longest_gap = std::chrono::microseconds(gap_us);
  result.duration = std::chrono::microseconds(duration_us);
  if (result.mismatches > result.bytes) {
    throw ProtocolError("result counts more mismatches than bytes");
  }
  return result;
}

}  // namespace mrcperf
