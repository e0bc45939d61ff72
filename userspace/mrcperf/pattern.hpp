// SPDX-License-Identifier: GPL-2.0
// The --verify data: a pseudo-random byte stream keyed by a seed, where the
// byte at any stream offset is computed on its own (splitmix64 of the
// 8-byte word index), so a receiver checks each recv() at its offset no
// matter how the stream was cut into pieces.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace mrcperf {

struct CheckResult {
  std::uint64_t mismatches = 0;                 // bytes that differ
  std::optional<std::uint64_t> first_mismatch;  // stream offset of the first one
};

class Pattern {
 public:
  explicit Pattern(std::uint64_t seed) : seed_(seed) {}

  [[nodiscard]] std::uint8_t ByteAt(std::uint64_t offset) const;

  // Writes the bytes at stream offsets [offset, offset + out.size()).
  void Fill(std::uint64_t offset, std::span<std::uint8_t> out) const;

  // Compares `data` with the bytes at [offset, offset + data.size()).
  [[nodiscard]] CheckResult Check(std::uint64_t offset, std::span<const std::uint8_t> data) const;

 private:
  [[nodiscard]] std::uint64_t Word(std::uint64_t index) const;

  std::uint64_t seed_;
};

}  // namespace mrcperf
