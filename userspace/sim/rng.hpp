// SPDX-License-Identifier: GPL-2.0
// The simulator's own pseudo-random numbers: splitmix64 to seed and to
// derive independent streams, xoshiro256** to draw. Never std::
// distributions, whose output differs between library versions: the same
// seed must give the same run everywhere.
#pragma once

#include <array>
#include <cstdint>

namespace mrc_sim {

__extension__ using Uint128 = unsigned __int128;

// One step of splitmix64: a good 64-bit mix of `x`, and the seeder.
inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A stateless mix (hashing, per-index streams).
inline uint64_t Mix64(uint64_t x) { return SplitMix64(x); }

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) {
    for (auto& w : s_) w = SplitMix64(seed);
  }
  // Stream `stream` of seed `seed`: independent of every other stream.
  Rng(uint64_t seed, uint64_t stream) : Rng(Mix64(seed) ^ Mix64(stream + 0x5157ULL)) {}

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  uint32_t Next32() { return static_cast<uint32_t>(Next() >> 32); }
  // Uniform in [0, n) (n > 0), by multiply-shift (bias below 2^-32).
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<Uint128>(Next()) * n) >> 64);
  }
  // True with probability ppm / 1e6.
  bool ChancePpm(uint32_t ppm) { return ppm != 0 && Below(1000000) < ppm; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<uint64_t, 4> s_{};
};

}  // namespace mrc_sim
