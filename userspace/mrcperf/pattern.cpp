// SPDX-License-Identifier: GPL-2.0
// Word-at-a-time fill and check: the pattern must keep up with a NIC, so
// whole 8-byte words are generated and compared, and only a word that
// differs is looked at byte by byte.
#include "pattern.hpp"

#include <bit>
#include <cstring>

namespace mrcperf {
namespace {

constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// splitmix64's finaliser (Steele, Lea, Flood 2014): a bijection that
// scatters consecutive inputs.
std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

// Byte i of a word, counted from the least significant one, whatever the
// host's byte order.
std::uint8_t ByteOf(std::uint64_t word, std::uint64_t i) {
  return static_cast<std::uint8_t>(word >> (8U * i));
}

std::uint64_t LoadLittleEndian(const std::uint8_t* bytes) {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes, sizeof(word));
  if constexpr (std::endian::native == std::endian::big) {
    word = __builtin_bswap64(word);
  }
  return word;
}

void StoreLittleEndian(std::uint64_t word, std::uint8_t* bytes) {
  if constexpr (std::endian::native == std::endian::big) {
    word = __builtin_bswap64(word);
  }
  std::memcpy(bytes, &word, sizeof(word));
}

}  // namespace

std::uint64_t Pattern::Word(std::uint64_t index) const {
  return Mix(seed_ + (index + 1) * kGolden);
}

std::uint8_t Pattern::ByteAt(std::uint64_t offset) const {
  return ByteOf(Word(offset / 8), offset % 8);
}

void Pattern::Fill(std::uint64_t offset, std::span<std::uint8_t> out) const {
  std::size_t i = 0;
  for (; i < out.size() && (offset + i) % 8 != 0; ++i) {
    out[i] = ByteAt(offset + i);
  }
  for (; i + 8 <= out.size(); i += 8) {
    StoreLittleEndian(Word((offset + i) / 8), &out[i]);
  }
  for (; i < out.size(); ++i) {
    out[i] = ByteAt(offset + i);
  }
}

CheckResult Pattern::Check(std::uint64_t offset, std::span<const std::uint8_t> data) const {
  CheckResult result;
  const auto check_byte = [&](std::size_t i) {
    if (data[i] != ByteAt(offset + i)) {
      ++result.mismatches;
      if (!result.first_mismatch) {
        result.first_mismatch = offset + i;
      }
    }
  };
  std::size_t i = 0;
  for (; i < data.size() && (offset + i) % 8 != 0; ++i) {
    check_byte(i);
  }
  for (; i + 8 <= data.size(); i += 8) {
    if (LoadLittleEndian(&data[i]) != Word((offset + i) / 8)) {
      for (std::size_t j = i; j < i + 8; ++j) {
        check_byte(j);
      }
    }
  }
  for (; i < data.size(); ++i) {
    check_byte(i);
  }
  return result;
}

}  // namespace mrcperf
