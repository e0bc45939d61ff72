// SPDX-License-Identifier: GPL-2.0
// mrcperf's Hello and Result records: exact wire layout, round trips and
// refusal of anything that is not a well-formed record.
#include <gtest/gtest.h>

#include <vector>

#include "mrcperf/error.hpp"
#include "mrcperf/protocol.hpp"

namespace {

using mrcperf::DecodeHello;
using mrcperf::DecodeResult;
using mrcperf::Encode;
using mrcperf::Hello;
using mrcperf::Mode;
using mrcperf::ProtocolError;
using mrcperf::Result;
using std::chrono::microseconds;
using std::chrono::milliseconds;

const Hello kHello{.mode = Mode::kSeqpacket,
                   .verify = true,
                   .length = 4096,
                   .total_bytes = 256ULL << 20U,
                   .duration = milliseconds(0),
                   .seed = 0x0123456789abcdefULL};

std::string Refusal(std::span<const std::uint8_t> bytes) {
  try {
    DecodeHello(bytes);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

TEST(MrcperfProtocol, HelloWireLayout) {
  const auto bytes = Encode(kHello);
  const std::vector<std::uint8_t> expected{
      'M',  'R',  'P',  'H',  0,    1,    2,    1,     // magic, version, mode, flags
      0,    0,    0x10, 0,    0,    0,    0,    0,     // length, reserved
      0,    0,    0,    0,    0x10, 0,    0,    0,     // total bytes
      0,    0,    0,    0,    0,    0,    0,    0,     // duration ms
      0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,  // seed
  };
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.begin(), bytes.end()), expected);
}

TEST(MrcperfProtocol, HelloRoundTrips) {
  EXPECT_EQ(DecodeHello(Encode(kHello)), kHello);
  const Hello timed{.mode = Mode::kStream,
                    .verify = false,
                    .length = 1,
                    .total_bytes = 0,
                    .duration = milliseconds(86'400'000),
                    .seed = 0};
  EXPECT_EQ(DecodeHello(Encode(timed)), timed);
}

TEST(MrcperfProtocol, PingpongFlag) {
  Hello ping = kHello;
  ping.pingpong = true;
  const auto bytes = Encode(ping);
  EXPECT_EQ(bytes.at(4), 0);  // the version stays 1: an old peer refuses the unknown flag
  EXPECT_EQ(bytes.at(5), 1);
  EXPECT_EQ(bytes.at(7), mrcperf::kFlagVerify | mrcperf::kFlagPingpong);
  EXPECT_EQ(DecodeHello(bytes), ping);
  ping.verify = false;
  EXPECT_EQ(Encode(ping).at(7), mrcperf::kFlagPingpong);
  EXPECT_EQ(DecodeHello(Encode(ping)), ping);
  EXPECT_FALSE(DecodeHello(Encode(kHello)).pingpong);
  auto unknown = Encode(ping);
  unknown.at(7) = 0x06;
  EXPECT_EQ(Refusal(unknown), "hello has unknown flags 6");
}

TEST(MrcperfProtocol, HelloGarbageIsRefused) {
  const auto good = Encode(kHello);
  const auto with = [&](std::size_t at, std::uint8_t value) {
    auto bytes = good;
    bytes.at(at) = value;
    return Refusal(bytes);
  };
  EXPECT_EQ(Refusal(std::span(good).first(39)), "hello has 39 bytes, expected 40");
  EXPECT_EQ(Refusal({}), "hello has 0 bytes, expected 40");
  EXPECT_EQ(with(0, 'G'), "hello has a bad magic number: not an mrcperf peer");
  EXPECT_EQ(with(5, 2), "hello has protocol version 2, this mrcperf speaks 1");
  EXPECT_EQ(with(6, 0), "hello has unknown mode 0");
  EXPECT_EQ(with(6, 3), "hello has unknown mode 3");
  EXPECT_EQ(with(7, 0x81), "hello has unknown flags 129");
  EXPECT_EQ(with(8, 0x01), "hello has length 16781312, out of range 8..16777216");
  EXPECT_EQ(with(15, 1), "hello has reserved bits set");
  EXPECT_EQ(with(20, 0), "hello must give exactly one of total bytes and duration");
  EXPECT_EQ(with(31, 1), "hello must give exactly one of total bytes and duration");
  Hello short_message = kHello;
  short_message.length = 7;
  EXPECT_EQ(Refusal(Encode(short_message)), "hello has length 7, out of range 8..16777216");
  Hello long_run = kHello;
  long_run.total_bytes = 0;
  long_run.duration = milliseconds(86'400'001);
  EXPECT_EQ(Refusal(Encode(long_run)), "hello has duration 86400001 ms, over a day");
}

TEST(MrcperfProtocol, HelloRefusesRandomBytes) {
  std::array<std::uint8_t, mrcperf::kHelloSize> noise{};
  std::uint32_t x = 12345;
  for (int round = 0; round < 1000; ++round) {
    for (auto& b : noise) {
      x = x * 1103515245U + 12345U;
      b = static_cast<std::uint8_t>(x >> 16U);
    }
    EXPECT_THROW(DecodeHello(noise), ProtocolError);
  }
}

TEST(MrcperfProtocol, ResultRoundTrips) {
  const Result result{.bytes = 1ULL << 33U,
                      .messages = 7,
                      .mismatches = 3,
                      .bad_messages = 1,
                      .first_mismatch = 1000,
                      .longest_gap = microseconds(2500),
                      .duration = microseconds(9'000'000)};
  EXPECT_EQ(DecodeResult(Encode(result)), result);
  Result clean;
  clean.bytes = 5;
  clean.duration = microseconds(1);
  EXPECT_EQ(DecodeResult(Encode(clean)), clean);
  EXPECT_FALSE(DecodeResult(Encode(clean)).first_mismatch.has_value());
  EXPECT_EQ(Encode(clean).at(0), 'M');
  EXPECT_EQ(Encode(clean).at(3), 'R');
}

TEST(MrcperfProtocol, ResultGarbageIsRefused) {
  Result result;
  result.bytes = 10;
  result.mismatches = 2;
  const auto good = Encode(result);
  auto bad_magic = good;
  bad_magic[3] = 'H';
  EXPECT_THROW(DecodeResult(bad_magic), ProtocolError);
  auto reserved = good;
  reserved[7] = 1;
  EXPECT_THROW(DecodeResult(reserved), ProtocolError);
  EXPECT_THROW(DecodeResult(std::span(good).first(63)), ProtocolError);
  // A Hello is not a Result.
  EXPECT_THROW(DecodeResult(Encode(kHello)), ProtocolError);
  result.bytes = 1;  // fewer bytes than mismatches
  EXPECT_THROW(DecodeResult(Encode(result)), ProtocolError);
  auto gap = good;
  gap[48] = 0x80;  // longest gap with the sign bit set
  EXPECT_THROW(DecodeResult(gap), ProtocolError);
}

}  // namespace
