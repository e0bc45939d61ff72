// SPDX-License-Identifier: GPL-2.0
// The --verify pattern: deterministic per seed, computable at any offset,
// and a checker that counts exactly the bytes that differ.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "mrcperf/pattern.hpp"
#include "mrcperf/protocol.hpp"
#include "mrcperf/transfer.hpp"

namespace {

using mrcperf::Pattern;

std::vector<std::uint8_t> Generate(std::uint64_t seed, std::uint64_t offset, std::size_t size) {
  std::vector<std::uint8_t> bytes(size);
  Pattern(seed).Fill(offset, bytes);
  return bytes;
}

TEST(MrcperfPattern, SameSeedSameBytes) {
  EXPECT_EQ(Generate(42, 0, 4096), Generate(42, 0, 4096));
  EXPECT_NE(Generate(42, 0, 64), Generate(43, 0, 64));
}

TEST(MrcperfPattern, LooksRandom) {
  const auto bytes = Generate(7, 0, 1 << 16);
  std::vector<int> histogram(256);
  for (const auto b : bytes) {
    ++histogram[b];
  }
  // 65536 bytes: 256 expected per value; a broken generator (constant,
  // counter) lands far outside this band.
  for (int count : histogram) {
    EXPECT_GT(count, 150);
    EXPECT_LT(count, 380);
  }
}

TEST(MrcperfPattern, FillAtAnyOffsetMatchesTheWholeStream) {
  const auto whole = Generate(99, 0, 1000);
  for (std::uint64_t offset : {1U, 3U, 7U, 8U, 9U, 500U, 993U}) {
    for (std::size_t size : {0U, 1U, 5U, 7U}) {
      const auto part = Generate(99, offset, size);
      EXPECT_TRUE(
          std::equal(part.begin(), part.end(), whole.begin() + static_cast<std::ptrdiff_t>(offset)))
          << "offset " << offset << " size " << size;
    }
  }
  for (std::uint64_t k = 0; k < whole.size(); ++k) {
    ASSERT_EQ(Pattern(99).ByteAt(k), whole[k]) << k;
  }
}

TEST(MrcperfPattern, FarOffsetsNeedNoHistory) {
  const Pattern pattern(5);
  const std::uint64_t far = (1ULL << 40U) + 3;
  const auto bytes = Generate(5, far, 16);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_EQ(bytes[i], pattern.ByteAt(far + i));
  }
}

TEST(MrcperfPattern, StreamCutAtArbitraryBoundariesChecksClean) {
  const std::uint64_t seed = 0x1234;
  const auto stream = Generate(seed, 0, 1 << 20);
  std::mt19937 rng(1);
  std::uniform_int_distribution<std::size_t> chunk(1, 70'000);
  const Pattern pattern(seed);
  std::uint64_t mismatches = 0;
  std::size_t pieces = 0;
  for (std::size_t offset = 0; offset < stream.size(); ++pieces) {
    const std::size_t size = std::min(chunk(rng), stream.size() - offset);
    const auto check = pattern.Check(offset, {stream.data() + offset, size});
    mismatches += check.mismatches;
    EXPECT_FALSE(check.first_mismatch.has_value());
    offset += size;
  }
  EXPECT_EQ(mismatches, 0U);
  EXPECT_GT(pieces, 20U);
}

TEST(MrcperfPattern, OneFlippedByteIsOneMismatchAtItsOffset) {
  const std::uint64_t seed = 77;
  for (std::size_t flipped : {0U, 1U, 7U, 8U, 4095U, 100'001U}) {
    auto stream = Generate(seed, 0, 200'000);
    stream[flipped] ^= 0x20U;
    std::uint64_t mismatches = 0;
    std::optional<std::uint64_t> first;
    // Three pieces with unaligned boundaries.
    const std::array<std::size_t, 4> cuts{0, 333, 100'003, stream.size()};
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
      const std::size_t from = cuts.at(i);
      const std::size_t to = cuts.at(i + 1);
      const auto check = Pattern(seed).Check(from, {stream.data() + from, to - from});
      mismatches += check.mismatches;
      if (!first) {
        first = check.first_mismatch;
      }
    }
    EXPECT_EQ(mismatches, 1U) << flipped;
    EXPECT_EQ(first, flipped);
  }
}

TEST(MrcperfPattern, CheckingAtTheWrongOffsetFails) {
  const auto bytes = Generate(3, 800, 4096);
  EXPECT_EQ(Pattern(3).Check(800, bytes).mismatches, 0U);
  EXPECT_GT(Pattern(3).Check(808, bytes).mismatches, 4000U);
  EXPECT_GT(Pattern(4).Check(800, bytes).mismatches, 4000U);
}

TEST(MrcperfMessages, NumberRoundTripsAndShortMessagesKeepTheLowBytes) {
  std::vector<std::uint8_t> message(16);
  mrcperf::PutMessageNumber(0x0102030405060708ULL, message);
  EXPECT_EQ(message[0], 0x01);
  EXPECT_EQ(message[7], 0x08);
  EXPECT_EQ(message[8], 0x00);
  EXPECT_EQ(mrcperf::GetMessageNumber(message), 0x0102030405060708ULL);
  std::vector<std::uint8_t> tiny(2);
  mrcperf::PutMessageNumber(0x1234567ULL, tiny);
  EXPECT_EQ(tiny[0], 0x45);
  EXPECT_EQ(tiny[1], 0x67);
}

TEST(MrcperfMessages, ExpectedLengths) {
  mrcperf::Hello hello{.mode = mrcperf::Mode::kSeqpacket, .length = 1000, .total_bytes = 2500};
  EXPECT_EQ(mrcperf::ExpectedMessageLength(hello, 0), 1000U);
  EXPECT_EQ(mrcperf::ExpectedMessageLength(hello, 1), 1000U);
  EXPECT_EQ(mrcperf::ExpectedMessageLength(hello, 2), 500U);
  EXPECT_EQ(mrcperf::ExpectedMessageLength(hello, 3), 0U);
  EXPECT_EQ(mrcperf::ExpectedMessageLength(hello, ~0ULL), 0U);
  hello.total_bytes = 0;
  hello.duration = std::chrono::milliseconds(10);
  EXPECT_EQ(mrcperf::ExpectedMessageLength(hello, 123456), 1000U);
}

}  // namespace
