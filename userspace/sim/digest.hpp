// SPDX-License-Identifier: GPL-2.0
// The event-trace digest: 64-bit FNV-1a over the little-endian bytes of
// every word fed in, so two runs agree bit for bit or show a different hex.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

namespace mrc_sim {

class Digest {
 public:
  void Add(uint64_t word) {
    for (int i = 0; i < 8; i++) {
      h_ ^= (word >> (8 * i)) & 0xff;
      h_ *= 0x100000001b3ULL;
    }
  }
  uint64_t value() const { return h_; }
  std::string Hex() const {
    std::array<char, 17> buf{};
    std::snprintf(buf.data(), buf.size(), "%016llx", static_cast<unsigned long long>(h_));
    return buf.data();
  }

 private:
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace mrc_sim
